//! The requests a leader holds in purgatory (DelayedProduce.scala and DelayedFetch.scala under
//! core/src/main/scala/kafka/server/ at confluentinc/kafka 06d492d8).

use super::messages::FetchRequest;
use crate::common::message::replica::TopicPartition;

/// An acks=all produce waiting for the ISR (DelayedProduce).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DelayedProduce {
    /// Who sent it.
    pub from: i32,
    /// Its correlation id.
    pub correlation_id: u64,
    /// The partition.
    pub partition: TopicPartition,
    /// Where the batch went.
    pub base_offset: i64,
    /// The offset the HW must reach (the batch's last offset + 1).
    pub required_offset: i64,
    /// When it times out (REQUEST_TIMED_OUT).
    pub deadline_ms: u64,
}

/// A fetch waiting for data (DelayedFetch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DelayedFetch {
    /// Who sent it.
    pub from: i32,
    /// Its correlation id.
    pub correlation_id: u64,
    /// The request.
    pub request: FetchRequest,
    /// When it is answered anyway (maxWaitMs).
    pub deadline_ms: u64,
}
