//! The rules and the invariants (`#rules-panel`).

texts! {
    /// The rules panel's words in one language, and what each rule does in a few words.
    pub struct RulesText {
        /// The rules' heading.
        rules: "규칙" | "Rules",
        /// After the rules' heading in free play.
        rules_hint: "규칙을 끄면 무엇이 깨지는지 봅니다 (set rule.이름=off)"
            | "switch a rule off to see what breaks (set rule.NAME=off)",
        /// After the rules' heading in a lesson.
        lesson_hint: "레슨이 규칙을 정합니다" | "the lesson sets the rules",
        /// In the title of a rule that is set before `cluster` only.
        before_cluster: "cluster 전에만 바꿀 수 있습니다" | "can only be switched before cluster",
        /// The invariants' heading.
        invariants: "불변식" | "Invariants",
        /// An invariant that holds.
        holds: "지켜짐" | "holds",
        /// An invariant broken, before its event.
        broken: "깨짐" | "broken",
        /// The title of the button that rewinds to the violation.
        rewind: "그 이벤트로 되감기" | "rewind to that event",
        /// A cluster run without the invariant monitor.
        no_monitor: "이 클러스터는 불변식을 검사하지 않습니다"
            | "this cluster runs without the invariant checks",
        /// `prevote`.
        prevote: "에포크를 올리기 전에 PreVote 로 과반을 묻는다"
            | "ask a majority with PreVote before bumping the epoch",
        /// `durable-vote`.
        durable_vote: "투표를 quorum-state 에 쓴 뒤에 응답한다"
            | "write the vote to quorum-state before answering",
        /// `vote-log-check`.
        vote_log_check: "로그가 뒤처진 후보에게는 투표하지 않는다"
            | "vote only for a candidate whose log is up to date",
        /// `hw-epoch-start`.
        hw_epoch_start: "HW 는 리더 에포크의 첫 오프셋을 넘어야 움직인다"
            | "move the HW only past the leader's epochStartOffset",
        /// `check-quorum`.
        check_quorum: "과반의 Fetch 가 끊긴 리더는 물러난다"
            | "a leader without a majority's fetches resigns",
        /// `revert-on-renounce`.
        revert_on_renounce: "물러난 컨트롤러는 마지막 안정 오프셋으로 되돌린다"
            | "a renouncing controller reverts to the last stable offset",
        /// `snapshot-after-replay`.
        snapshot_after_replay: "레코드 N 을 적용한 뒤에 스냅숏 N 을 만든다"
            | "take snapshot N after replaying record N",
        /// `loader-catch-up`.
        loader_catch_up: "로더는 따라잡기 전에 이미지를 내보내지 않는다"
            | "the loader publishes no image before it catches up",
        /// `session-fencing`.
        session_fencing: "세션이 끝난 브로커는 펜스된다" | "a broker whose session expired is fenced",
        /// `single-voter-change`.
        single_voter_change: "투표자 변경은 앞 변경이 커밋된 뒤에 하나씩"
            | "one voter change at a time, after the last one commits",
        /// `isr-high-watermark`.
        isr_high_watermark: "데이터 파티션의 HW 는 ISR 전체가 가진 오프셋까지만"
            | "a data partition's HW is what the whole ISR holds",
    }
}

impl RulesText {
    /// What the rule `name` does, in a few words (empty for a rule it does not know).
    pub fn gist(&self, name: &str) -> &'static str {
        match name {
            "prevote" => self.prevote,
            "durable-vote" => self.durable_vote,
            "vote-log-check" => self.vote_log_check,
            "hw-epoch-start" => self.hw_epoch_start,
            "check-quorum" => self.check_quorum,
            "revert-on-renounce" => self.revert_on_renounce,
            "snapshot-after-replay" => self.snapshot_after_replay,
            "loader-catch-up" => self.loader_catch_up,
            "session-fencing" => self.session_fencing,
            "single-voter-change" => self.single_voter_change,
            "isr-high-watermark" => self.isr_high_watermark,
            _ => "",
        }
    }
}
