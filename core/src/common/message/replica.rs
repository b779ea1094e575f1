//! The data-plane messages between brokers: a follower's replica Fetch and the leader's
//! answer (the playground produces no data, so they carry partitions, not records).

use super::fields::MessageFields;
use crate::common::api_keys::{ApiKeys, MessageKind};
use crate::common::uuid::Uuid;

/// A partition: topic id and partition index.
pub type TopicPartition = (Uuid, i32);

/// A data-plane message between brokers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplicaMessage {
    /// A follower's Fetch for the partitions it follows on the receiver.
    Fetch {
        /// correlationId
        correlation_id: u64,
        /// The partitions, with the follower's fetch offsets (no data is produced, so 0).
        partitions: Vec<TopicPartition>,
    },
    /// The leader's answer.
    FetchResponse {
        /// correlationId
        correlation_id: u64,
    },
}

impl ReplicaMessage {
    /// Its kind for views: `ReplicaFetchRequest` or `ReplicaFetchResponse`.
    pub fn kind(&self) -> MessageKind {
        match self {
            ReplicaMessage::Fetch { .. } => MessageKind::request(ApiKeys::ReplicaFetch),
            ReplicaMessage::FetchResponse { .. } => MessageKind::response(ApiKeys::ReplicaFetch),
        }
    }

    /// The fields a view reads: none yet (no data is produced).
    pub fn fields(&self) -> MessageFields {
        MessageFields::default()
    }

    /// Summary for views.
    pub fn summary(&self) -> String {
        match self {
            ReplicaMessage::Fetch { partitions, .. } => format!("partitions={}", partitions.len()),
            ReplicaMessage::FetchResponse { .. } => String::new(),
        }
    }
}
