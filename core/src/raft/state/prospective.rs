//! ProspectiveState: asking the voters whether they would vote for us (PreVote, KIP-996).

use crate::raft::epoch_election::EpochElection;
use crate::raft::replica_key::{optional, optional_int, optional_offset, ReplicaKey};
use std::fmt;

/// Prospective in the current epoch: PreVote requests out, no epoch bump yet.
#[derive(Clone, Debug)]
pub struct ProspectiveState {
    /// epoch (unchanged from the state before).
    pub epoch: i32,
    /// leaderId kept from the state before (a follower whose fetches timed out keeps it).
    pub leader_id: Option<i32>,
    /// The leader's endpoint (port), kept when the state before was a Follower.
    pub leader_port: Option<u16>,
    /// votedKey kept from the state before.
    pub voted_key: Option<ReplicaKey>,
    /// The PreVote tally.
    pub epoch_election: EpochElection,
    /// electionTimeoutMs, as printed.
    pub election_timeout_ms: u64,
    /// When the election timer fires.
    pub election_deadline_ms: u64,
    /// highWatermark
    pub high_watermark: Option<i64>,
}

impl fmt::Display for ProspectiveState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ProspectiveState(epoch={}, leaderId={}, votedKey={}, epochElection={}, electionTimeoutMs={}, highWatermark={})",
            self.epoch,
            optional_int(self.leader_id),
            optional(self.voted_key),
            self.epoch_election,
            self.election_timeout_ms,
            optional_offset(self.high_watermark)
        )
    }
}
