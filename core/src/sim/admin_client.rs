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
    /// The virtual ms at which the running tool is killed (`timeout DURATION COMMAND`):
    /// time stops there for it, and it sends nothing after.
    pub(super) killed_at_ms: Option<u64>,
}
