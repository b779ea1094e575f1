//! The RPC bodies nodes exchange apart from Raft's own (which carry Raft's record batches and
//! live in [`crate::raft::messages`]): the controller APIs and the data-partition replica
//! fetches, as Kafka's generated `org.apache.kafka.common.message` classes; and the typed
//! fields of any message that views read.

pub mod controller;
pub mod fields;
pub mod replica;
