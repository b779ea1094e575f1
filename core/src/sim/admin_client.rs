//! The admin client (the tools' Kafka client): its node id, its correlation ids and the
//! responses it received. The world holds one; `sim/admin.rs` sends and reads through it.

use crate::common::message::controller::ControllerResponse;
use std::collections::BTreeMap;

/// The node id the admin client (the tools) sends from.
pub const ADMIN_CLIENT_ID: i32 = -1;

/// The tools' client: requests sent and responses received.
#[derive(Clone, Debug, Default)]
pub(super) struct AdminClient {
    /// The correlation id of the next request.
    pub(super) next_correlation_id: u64,
    /// Responses received, by correlation id.
    pub(super) responses: BTreeMap<u64, ControllerResponse>,
    /// Raft responses received (AddRaftVoter, RemoveRaftVoter), by correlation id.
    pub(super) raft_responses: BTreeMap<u64, crate::raft::messages::RaftResponse>,
    /// Data-plane responses received (Produce, Fetch, ListOffsets, Metadata), by correlation
    /// id.
    pub(super) data_responses: BTreeMap<u64, crate::broker::messages::DataResponse>,
    /// acks=all produces sent and not answered yet: correlation id to the partition's name and
    /// the records.
    pub(super) pending_produces: BTreeMap<
        u64,
        (
            crate::common::message::replica::TopicPartition,
            String,
            Vec<crate::raft::batch::Record>,
        ),
    >,
    /// Writes acknowledged with acks=all, in the order the answers arrived.
    pub(super) acked: Vec<AckedWrite>,
    /// The virtual ms at which the running tool is killed (`timeout DURATION COMMAND`):
    /// time stops there for it, and it sends nothing after.
    pub(super) killed_at_ms: Option<u64>,
}

/// A write a producer had acknowledged with acks=all: what must never be lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AckedWrite {
    /// The partition.
    pub partition: crate::common::message::replica::TopicPartition,
    /// Its name (`orders-0`).
    pub name: String,
    /// Where the batch went.
    pub base_offset: i64,
    /// The records.
    pub records: Vec<crate::raft::batch::Record>,
    /// The leader epoch of the leader that answered.
    pub leader_epoch: i32,
    /// When the answer arrived, virtual ms.
    pub time_ms: u64,
}
