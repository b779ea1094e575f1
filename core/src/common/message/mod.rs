//! The RPC bodies nodes exchange apart from those that carry record batches (Raft's, in
//! [`crate::raft::messages`], and the data plane's, in `crate::broker::messages`): the
//! controller APIs, as Kafka's generated `org.apache.kafka.common.message` classes; a data
//! partition's id; and the typed fields of any message that views read.

pub mod controller;
pub mod fields;
pub mod replica;
