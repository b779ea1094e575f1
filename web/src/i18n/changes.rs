//! What the step changed (`#step-changes`).

texts! {
    /// The step-changes box's labels in one language.
    pub struct ChangesText {
        /// The heading.
        title: "이 단계가 바꾼 것 · Kafka 코드" | "What this step changed · Kafka code",
        /// When the step changed nothing.
        none: "이 단계에서 아직 바뀐 것이 없습니다." | "Nothing has changed in this step yet.",
        /// The title of the toggle that opens the box.
        show: "펼치기" | "show",
        /// The title of the toggle that closes the box.
        hide: "접기" | "hide",
        /// Before the file and lines of a source link.
        source: "글이 인용한 곳 (ab1e816411)" | "cited by the article (ab1e816411)",
        /// Before the file and lines of a KIP-853 source the article names by file only.
        source_facts: "글은 파일 이름만, 줄은 confluentinc/kafka 06d492d813 에서 읽음"
            | "named by the article; lines read at confluentinc/kafka 06d492d813",
        /// After the count of folded details.
        more: "복제 · 커밋 반영 · 메모리 스냅숏"
            | "replication, commits taken, in-memory snapshots",
        /// The button that folds the details again.
        fewer: "접기" | "fewer",
        /// The title of the button that fills the side column.
        full: "옆 칸 전체로 키우기" | "fill the side column",
        /// The title of the button back to its size.
        unfull: "원래 크기로" | "back to its size",
        /// The title of an entry's time.
        time: "가상 시간" | "virtual time",
    }
}
