//! The state machines drawn as the article draws them: a node's Raft states and a broker's
//! BrokerState. An edge's label breaks its lines at `\n`.

texts! {
    /// The Raft state diagram's words in one language: the node's name and the edges' labels.
    pub struct StateDiagramText {
        /// Before the node's id in the diagram's corner.
        node: "노드" | "node",
        /// After the id of an observer.
        observer: " · 옵서버" | " · observer",
        /// Unattached → Prospective.
        election_timeout: "선거\n타임아웃" | "election\ntimeout",
        /// Prospective → Candidate.
        prevote_majority: "PreVote\n과반" | "PreVote\nmajority",
        /// Candidate → Leader.
        vote_majority: "투표 과반" | "vote majority",
        /// Prospective → Unattached.
        prevote_lost_no_leader: "PreVote 패배,\n리더 모름" | "PreVote lost,\nno leader",
        /// Candidate → Prospective.
        election_timeout_or_lost: "선거 타임아웃\n또는 패배" | "election timeout\nor lost",
        /// Follower → Prospective.
        fetch_timeout: "fetch\n타임아웃" | "fetch\ntimeout",
        /// Prospective → Follower.
        prevote_lost_leader_known: "PreVote 패배,\n리더 앎" | "PreVote lost,\nleader known",
        /// Leader → Resigned.
        check_quorum_lost: "check\nquorum 실패\n또는 종료" | "check\nquorum lost\nor shutdown",
        /// Resigned → Unattached.
        timeout_or_higher_epoch: "선거 타임아웃 또는 더 큰 에포크"
            | "election timeout or higher epoch",
        /// Any state → Unattached.
        any_higher_epoch: "어느 상태든: 더 큰 에포크를 봄" | "any state: higher epoch seen",
        /// Any state → Follower.
        any_leader_discovered: "어느 상태든:\n리더를 알게 됨" | "any state:\nleader discovered",
        /// Unattached → Unattached, a vote granted.
        vote_granted: "투표\n함" | "vote\ngranted",
        /// An observer's Unattached → Follower.
        leader_discovered: "리더를 알게 됨" | "leader discovered",
        /// An observer's Follower → Unattached.
        higher_epoch_seen: "더 큰 에포크를 봄" | "higher epoch seen",
        /// An observer's Unattached → Unattached.
        higher_epoch: "더 큰 에포크" | "higher epoch",
        /// An observer's Follower → Follower.
        new_leader_higher_epoch: "새 리더,\n더 큰 에포크" | "new leader,\nhigher epoch",
    }
}

texts! {
    /// The BrokerState diagram's words in one language: the edges' labels and the column of the
    /// active controller's view.
    pub struct BrokerDiagramText {
        /// Before the broker's id.
        broker: "브로커" | "broker",
        /// NOT_RUNNING → STARTING.
        startup: "시작" | "startup",
        /// STARTING → RECOVERY.
        caught_up: "등록되고\n따라잡음" | "registered,\ncaught up",
        /// RECOVERY → RUNNING.
        unfenced: "펜스 풀림" | "unfenced",
        /// RUNNING → PENDING_CONTROLLED_SHUTDOWN.
        controlled_shutdown: "kill -TERM: 제어된 종료 요청" | "kill -TERM: controlled shutdown",
        /// PENDING_CONTROLLED_SHUTDOWN → SHUTTING_DOWN.
        shutdown_granted: "종료 허락" | "shutdown granted",
        /// The column's heading, the active controller's id at `{}`.
        controller_sees: "컨트롤러 {} 가 보기에" | "controller {} sees",
        /// The column's heading without an active controller.
        no_active: "활성 컨트롤러 없음" | "no active controller",
        /// The controller sees the broker registered and unfenced.
        sees_unfenced: "펜스 안 됨" | "unfenced",
        /// The controller sees the broker fenced.
        sees_fenced: "펜스됨" | "fenced",
        /// The controller sees the broker in controlled shutdown.
        sees_shutdown: "제어된 종료 중" | "in controlled shutdown",
        /// Before the time the session ends.
        session_ends: "세션 끝:" | "session ends",
        /// After the time left of the session.
        left: "남음" | "left",
        /// Before the time the session ended.
        session_ended: "세션 끝남:" | "session ended",
    }
}
