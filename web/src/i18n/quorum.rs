//! The metadata quorum (KIP-853) on the page: the drawing's majority and observers, the HW
//! panel's voter set, the log strip's VotersRecord.

texts! {
    /// The quorum's words in one language.
    pub struct QuorumText {
        /// The drawing's majority: the votes a commit and an election need, then the voters.
        majority: "과반 {} (투표자 {} 중)" | "majority {} of {}",
        /// Its tooltip.
        majority_title: "커밋과 선거에 필요한 투표자 수: n / 2 + 1 (LeaderState.maybeUpdateHighWatermark, EpochElection)"
            | "the voters a commit and an election need: n / 2 + 1 (LeaderState.maybeUpdateHighWatermark, EpochElection)",
        /// The heading over the controllers that are not voters.
        observers: "옵서버" | "observers",
        /// Its tooltip.
        observers_title: "로그를 가져오지만 투표하지도, HW 과반에 들지도 않는 컨트롤러 (CurrentObservers)"
            | "controllers that fetch the log but neither vote nor count for the HW (CurrentObservers)",
        /// The HW panel: before the voters' ids.
        voter_set: "투표자 집합" | "voter set",
        /// The HW panel: before the observers' ids.
        observer_list: "옵서버" | "observers",
        /// The HW panel: a committed VotersRecord.
        committed: "커밋됨" | "committed",
        /// The HW panel: a VotersRecord the HW has not passed.
        uncommitted: "커밋 전 (이미 적용 중)" | "not committed yet (already in force)",
        /// The HW panel: the voter set from `controller.quorum.voters`, no VotersRecord.
        static_set: "정적 집합 (controller.quorum.voters)" | "static set (controller.quorum.voters)",
        /// The HW panel: before the leader's change in progress.
        pending: "진행 중인 변경:" | "change in progress:",
        /// A change adding a voter.
        add: "추가" | "add",
        /// A change removing a voter.
        remove: "제거" | "remove",
        /// A change updating a voter.
        update: "갱신" | "update",
        /// A change waiting for the voter's ApiVersions.
        waiting_api_versions: "ApiVersions 응답 기다림" | "waiting for ApiVersions",
        /// A change whose VotersRecord is appended.
        appended: "VotersRecord 추가됨, 커밋 기다림" | "VotersRecord appended, waiting for the commit",
        /// The log strip's VotersRecord batch.
        voters_batch: "투표자" | "voters",
    }
}
