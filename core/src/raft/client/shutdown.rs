//! Graceful shutdown: `shutdown` begins it, `maybeCompleteShutdown` ends it once a remote
//! leader is known or it times out.

use super::{KafkaRaftClient, RaftResult};
use crate::common::node_log::Level;
use crate::raft::io::RaftIo;

impl KafkaRaftClient {
    /// Begin a graceful shutdown (SIGTERM): a leader resigns and tells the voters with
    /// EndQuorumEpoch; the shutdown completes once a remote leader is known (or at once for an
    /// observer or the only voter), or times out after `timeout_ms`.
    pub fn shutdown(&mut self, timeout_ms: u64, io: &mut RaftIo) {
        if self.shutdown.is_none() {
            self.log(io, Level::Info, "Beginning graceful shutdown".into());
            self.shutdown = Some((io.now_ms + timeout_ms, timeout_ms, false));
        }
    }

    /// Whether a graceful shutdown has finished (the process may exit).
    pub fn is_shutdown_complete(&self) -> bool {
        matches!(self.shutdown, Some((_, _, true)))
    }

    /// `maybeCompleteShutdown`, at the start of every poll: the shutdown times out after its
    /// timeout, and completes only once this node is an observer, the only voter, or knows a
    /// leader other than itself (a resigned leader follows its successor first).
    pub(super) fn maybe_complete_shutdown(&mut self, io: &mut RaftIo) -> RaftResult<()> {
        let Some((deadline, timeout, false)) = self.shutdown else {
            return Ok(());
        };
        if io.now_ms >= deadline {
            self.log(
                io,
                Level::Warn,
                format!("Graceful shutdown timed out after {timeout}ms"),
            );
            self.shutdown = Some((deadline, timeout, true));
            return Ok(());
        }
        let remote_leader = self
            .quorum
            .state
            .leader_id()
            .is_some_and(|l| l != self.local_id());
        if !self.quorum.is_voter() || self.quorum.is_only_voter() || remote_leader {
            self.log(io, Level::Info, "Graceful shutdown completed".into());
            self.shutdown = Some((deadline, timeout, true));
        }
        Ok(())
    }

    /// While shutting down: the time left before the shutdown times out.
    pub(super) fn shutdown_remaining_ms(&self, now_ms: u64) -> Option<u64> {
        self.shutdown
            .map(|(deadline, _, _)| deadline.saturating_sub(now_ms).max(1))
    }
}
