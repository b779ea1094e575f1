//! FollowerState: fetching from the leader of the epoch.

use crate::raft::replica_key::{id_set, optional, optional_offset, ReplicaKey};
use std::fmt;

/// Following `leader_id` in `epoch`.
#[derive(Clone, Debug)]
pub struct FollowerState {
    /// epoch
    pub epoch: i32,
    /// leader
    pub leader_id: i32,
    /// The leader's CONTROLLER port on localhost.
    pub leader_port: u16,
    /// votedKey kept from an Unattached state of the same epoch.
    pub voted_key: Option<ReplicaKey>,
    /// Voter ids, for the log text.
    pub voters: Vec<i32>,
    /// fetchTimeoutMs
    pub fetch_timeout_ms: u64,
    /// When the fetch timer fires.
    pub fetch_deadline_ms: u64,
    /// Set by the first successful fetch from this leader; a Follower grants PreVotes only
    /// before that.
    pub has_fetched_from_leader: bool,
    /// highWatermark learnt from the leader.
    pub high_watermark: Option<i64>,
    /// updateVoterSetPeriodTimer's deadline: fetchTimeoutMs * 2 after the last reset.
    pub update_voter_deadline_ms: u64,
    /// hasUpdatedLeader: this leader accepted this voter's UpdateRaftVoter.
    pub has_updated_leader: bool,
}

impl FollowerState {
    /// `hasUpdateVoterSetPeriodExpired`.
    pub fn has_update_voter_set_period_expired(&self, now_ms: u64) -> bool {
        now_ms >= self.update_voter_deadline_ms
    }

    /// `resetUpdateVoterSetPeriod`: the next check in `updateVoterPeriodMs` (2 x fetch
    /// timeout, FollowerState.java:157-166).
    pub fn reset_update_voter_set_period(&mut self, now_ms: u64) {
        self.update_voter_deadline_ms = now_ms + 2 * self.fetch_timeout_ms;
    }

    /// `resetFetchTimeoutForSuccessfulFetch`
    pub fn reset_fetch_timeout_for_successful_fetch(&mut self, now_ms: u64) {
        self.has_fetched_from_leader = true;
        self.fetch_deadline_ms = now_ms + self.fetch_timeout_ms;
    }
}

impl fmt::Display for FollowerState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "FollowerState(fetchTimeoutMs={}, epoch={}, leader={}, leaderEndpoints=Endpoints(endpoints={{ListenerName(CONTROLLER)=localhost/<unresolved>:{}}}), votedKey={}, voters={}, highWatermark={}, fetchingSnapshot=Optional.empty)",
            self.fetch_timeout_ms,
            self.epoch,
            self.leader_id,
            self.leader_port,
            optional(self.voted_key),
            id_set(&self.voters),
            optional_offset(self.high_watermark)
        )
    }
}
