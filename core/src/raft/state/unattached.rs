//! UnattachedState: no leader followed and no election running.

use crate::raft::replica_key::{id_set, optional, optional_int, optional_offset, ReplicaKey};
use std::fmt;

/// Unattached in `epoch`, maybe knowing a leader it cannot follow, maybe having voted.
#[derive(Clone, Debug)]
pub struct UnattachedState {
    /// epoch
    pub epoch: i32,
    /// leaderId, if known.
    pub leader_id: Option<i32>,
    /// votedKey: the candidate voted for in this epoch.
    pub voted_key: Option<ReplicaKey>,
    /// Voter ids, for the log text.
    pub voters: Vec<i32>,
    /// The configured election timeout of this state (ms), as printed.
    pub election_timeout_ms: u64,
    /// When the election timer fires; None for observers (Long.MAX_VALUE in Kafka).
    pub election_deadline_ms: Option<u64>,
    /// highWatermark
    pub high_watermark: Option<i64>,
}

impl fmt::Display for UnattachedState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let timeout = if self.election_deadline_ms.is_some() {
            self.election_timeout_ms.to_string()
        } else {
            i64::MAX.to_string()
        };
        write!(
            f,
            "UnattachedState(epoch={}, leaderId={}, votedKey={}, voters={}, electionTimeoutMs={}, highWatermark={})",
            self.epoch,
            optional_int(self.leader_id),
            optional(self.voted_key),
            id_set(&self.voters),
            timeout,
            optional_offset(self.high_watermark)
        )
    }
}
