//! CandidateState: running an election in a new epoch, having voted for itself.

use crate::raft::epoch_election::EpochElection;
use crate::raft::replica_key::{optional_offset, ReplicaKey};
use std::fmt;

/// Candidate in `epoch` (one above the epoch it was Prospective in).
#[derive(Clone, Debug)]
pub struct CandidateState {
    /// This replica.
    pub local: ReplicaKey,
    /// epoch
    pub epoch: i32,
    /// The Vote tally (self granted).
    pub epoch_election: EpochElection,
    /// electionTimeoutMs, as printed.
    pub election_timeout_ms: u64,
    /// When the election timer fires.
    pub election_deadline_ms: u64,
    /// highWatermark
    pub high_watermark: Option<i64>,
}

impl fmt::Display for CandidateState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dir = self
            .local
            .directory_id
            .map(|d| d.to_string())
            .unwrap_or_else(|| "<undefined>".into());
        write!(
            f,
            "CandidateState(localId={}, localDirectoryId={}, epoch={}, epochElection={}, highWatermark={}, electionTimeoutMs={})",
            self.local.id,
            dir,
            self.epoch,
            self.epoch_election,
            optional_offset(self.high_watermark),
            self.election_timeout_ms
        )
    }
}
