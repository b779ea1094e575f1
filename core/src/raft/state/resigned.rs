//! ResignedState: a leader stepping down, telling the voters with EndQuorumEpoch.

use crate::raft::replica_key::{id_set, ReplicaKey};
use std::fmt;

/// A former leader of `epoch`.
#[derive(Clone, Debug)]
pub struct ResignedState {
    /// localId
    pub local_id: i32,
    /// epoch
    pub epoch: i32,
    /// Voter ids.
    pub voters: Vec<i32>,
    /// electionTimeoutMs, as printed.
    pub election_timeout_ms: u64,
    /// When the election timer fires.
    pub election_deadline_ms: u64,
    /// Voters that have not acknowledged the EndQuorumEpoch yet.
    pub unacked_voters: Vec<i32>,
    /// preferredSuccessors: the voters by descending end offset (printed as ReplicaKeys).
    pub preferred_successors: Vec<ReplicaKey>,
    /// highWatermark at resignation.
    pub high_watermark: Option<i64>,
}

impl fmt::Display for ResignedState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ResignedState(localId={}, epoch={}, voters={}, electionTimeoutMs={}, unackedVoters={}, preferredSuccessors=[{}])",
            self.local_id,
            self.epoch,
            id_set(&self.voters),
            self.election_timeout_ms,
            id_set(&self.unacked_voters),
            self.preferred_successors
                .iter()
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}
