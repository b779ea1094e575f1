//! A data partition's name on the wire: its topic id and partition index (Kafka's
//! `TopicIdPartition` without the name). The data plane's messages are in
//! `crate::broker::messages`: they carry record batches.

use crate::common::uuid::Uuid;

/// A partition: topic id and partition index.
pub type TopicPartition = (Uuid, i32);
