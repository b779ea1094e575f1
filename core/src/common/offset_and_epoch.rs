//! Kafka's `org.apache.kafka.server.common.OffsetAndEpoch` (server-common): a log position
//! with the epoch of its batch, as snapshot ids and fetch positions name them.

/// (offset, epoch), compared epoch first as Kafka's `OffsetAndEpoch` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OffsetAndEpoch {
    /// The offset.
    pub offset: i64,
    /// The epoch.
    pub epoch: i32,
}

impl PartialOrd for OffsetAndEpoch {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for OffsetAndEpoch {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.epoch, self.offset).cmp(&(other.epoch, other.offset))
    }
}
