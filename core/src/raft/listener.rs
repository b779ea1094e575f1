//! RaftClient.Listener: how the QuorumController and the MetadataLoader learn of committed
//! batches (`handleCommit`) and of leader changes (`handleLeaderChange`).

use super::batch::RecordBatch;
use super::snapshot::RawSnapshot;
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
    /// `handleLoadSnapshot`: the whole state up to the snapshot's end offset.
    LoadSnapshot(Arc<RawSnapshot>),
}

/// `ListenerContext.STARTING_NEXT_OFFSET`: a listener that has been told nothing yet.
pub const STARTING_NEXT_OFFSET: i64 = -1;

/// Kafka's ListenerContext: how far one listener has been told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListenerContext {
    /// The next offset to deliver (-1 before anything, then a snapshot's end offset or 0).
    pub next_offset: i64,
    /// The last leader change delivered (`LeaderAndEpoch.UNKNOWN` at first: no leader, epoch
    /// 0, which is never told).
    pub last_fired: LeaderAndEpoch,
}

impl Default for ListenerContext {
    fn default() -> Self {
        ListenerContext {
            next_offset: STARTING_NEXT_OFFSET,
            last_fired: LeaderAndEpoch {
                leader_id: None,
                epoch: 0,
            },
        }
    }
}

impl ListenerContext {
    /// `shouldFireLeaderChange`: a higher epoch, or a leader where none was known.
    pub fn should_fire(&self, current: LeaderAndEpoch) -> bool {
        if current == self.last_fired {
            false
        } else if current.epoch > self.last_fired.epoch {
            true
        } else {
            current.leader_id.is_some() && self.last_fired.leader_id.is_none()
        }
    }
}
