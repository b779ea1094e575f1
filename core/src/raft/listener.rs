//! RaftClient.Listener: how the QuorumController and the MetadataLoader learn of committed
//! batches (`handleCommit`) and of leader changes (`handleLeaderChange`).

use super::batch::RecordBatch;
use std::sync::Arc;

/// The leader and epoch a listener is told about (`LeaderAndEpoch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeaderAndEpoch {
    /// The leader, if known.
    pub leader_id: Option<i32>,
    /// The epoch.
    pub epoch: i32,
}

/// A notification to a listener.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RaftEvent {
    /// `handleCommit`: batches below the high watermark, in offset order.
    Commit(Vec<Arc<RecordBatch>>),
    /// `handleLeaderChange`.
    LeaderChange(LeaderAndEpoch),
}

/// Kafka's ListenerContext: how far one listener has been told.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListenerContext {
    /// The next offset to deliver.
    pub next_offset: i64,
    /// The last leader change delivered.
    pub last_fired: Option<LeaderAndEpoch>,
}
