//! Serialisable, read-only views of the world that the UI and tools draw.
//!
//! The page never reaches into engine internals: it calls [`crate::sim::World::view`] and draws
//! what comes back.

use serde::Serialize;

/// Everything the page draws at one instant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClusterView {
    /// Virtual time in ms since the world started.
    pub now_ms: u64,
    /// The seed the world was built from.
    pub seed: u64,
    /// How many events have run so far.
    pub events_run: u64,
    /// Every node, sorted by id.
    pub nodes: Vec<NodeView>,
    /// Messages in flight (and recently dropped ones), sorted by send time.
    pub messages: Vec<MessageView>,
}

/// One node (controller, broker or combined).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeView {
    /// node.id
    pub id: i32,
    /// `controller`, `broker` or `broker,controller` (Kafka's process.roles).
    pub roles: String,
    /// Whether this node is a voter of the metadata quorum.
    pub is_voter: bool,
    /// `running`, `killed` (kill -9) or `stopped` (SIGSTOP).
    pub process: String,
    /// Raft state name: `Unattached`, `Prospective`, `Candidate`, `Leader`, `Follower`, `Resigned`;
    /// `-` when the process is not running.
    pub raft_state: String,
    /// Current epoch (from memory when running, from quorum-state when down).
    pub epoch: i32,
    /// Leader this node believes in, if any.
    pub leader_id: Option<i32>,
    /// Voter this node voted for in the current epoch, if any.
    pub voted_id: Option<i32>,
    /// Log start offset of `__cluster_metadata-0`.
    pub log_start_offset: i64,
    /// Log end offset of `__cluster_metadata-0`.
    pub log_end_offset: i64,
    /// High watermark known to this node, if known.
    pub high_watermark: Option<i64>,
    /// The newest batches of the log (at most [`MAX_BATCHES_IN_VIEW`]), oldest first.
    pub batches: Vec<BatchView>,
    /// The newest log lines of this node (at most [`MAX_LOG_LINES_IN_VIEW`]), oldest first.
    pub log_tail: Vec<String>,
    /// Time (virtual ms) at which this node's next timer fires, if any.
    pub next_timer_ms: Option<u64>,
}

/// At most this many batches per node are put in a view.
pub const MAX_BATCHES_IN_VIEW: usize = 40;
/// At most this many log lines per node are put in a view.
pub const MAX_LOG_LINES_IN_VIEW: usize = 30;

/// One record batch of the metadata log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BatchView {
    /// First offset of the batch.
    pub base_offset: i64,
    /// Last offset of the batch.
    pub last_offset: i64,
    /// partitionLeaderEpoch of the batch.
    pub epoch: i32,
    /// isControl of the batch.
    pub is_control: bool,
    /// Whether the whole batch is below the node's high watermark.
    pub committed: bool,
    /// One short description per record, e.g. `LeaderChange` or `NO_OP_RECORD`.
    pub records: Vec<String>,
}

/// A message between two nodes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MessageView {
    /// Unique id, increasing with send order.
    pub id: u64,
    /// Sender node id.
    pub from: i32,
    /// Receiver node id.
    pub to: i32,
    /// Kafka API name and direction, e.g. `FetchRequest`, `VoteResponse`.
    pub kind: String,
    /// Short summary of the interesting fields.
    pub summary: String,
    /// Virtual time it was sent.
    pub send_ms: u64,
    /// Virtual time it arrives (or would have arrived).
    pub arrive_ms: u64,
    /// True when the network dropped it (shown for a short while, then forgotten).
    pub dropped: bool,
}
