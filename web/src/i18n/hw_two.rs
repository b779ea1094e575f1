//! The "two high watermarks" figure: the metadata log's (a majority of the voters) beside a
//! data partition's (the smallest log end offset of the ISR).

texts! {
    /// The captions of the two-high-watermarks figure.
    pub struct HwTwoText {
        /// The figure's heading.
        title: "두 가지 high watermark" | "Two high watermarks",
        /// The left half's heading.
        metadata: "메타데이터 로그" | "metadata log",
        /// The right half's heading, before the partition's name.
        data: "데이터 파티션" | "data partition",
        /// Under a bar: the leader.
        leader: "리더" | "leader",
        /// The left half's rule, `{}` the majority (e.g. `2/3`).
        majority_rule: "과반({})이 가진 오프셋" | "what a majority ({}) holds",
        /// The right half's rule.
        isr_rule: "ISR의 가장 작은 LEO" | "the ISR's smallest LEO",
        /// The line on the right half.
        isr_min: "ISR 최소" | "ISR min",
        /// The line on the left half.
        majority_line: "과반" | "majority",
        /// Beside the replicas drawn apart.
        out_of_isr: "ISR 밖" | "out of ISR",
        /// The left half without a leader.
        no_leader: "리더가 없습니다." | "no leader",
        /// The right half without data partitions.
        no_partition: "아직 데이터 파티션이 없습니다." | "no data partitions yet",
        /// The picker's label.
        pick: "파티션" | "partition",
        /// A replica's own high watermark, before its value.
        own_hw: "hw",
        /// The metadata half's accessible name, `{}` what it shows.
        aria_metadata: "메타데이터 로그의 투표자별 끝 오프셋: {}"
            | "the metadata log's voters by end offset: {}",
        /// The data half's accessible name, `{}` what it shows.
        aria_data: "데이터 파티션의 복제본별 LEO: {}" | "the data partition's replicas by LEO: {}",
    }
}
