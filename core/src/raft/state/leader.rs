//! LeaderState: the leader of an epoch, tracking every replica's fetch position, computing the
//! high watermark, and checking that a majority still fetches (check quorum).

use crate::common::clock::to_epoch_ms;
use crate::raft::replica_key::{optional_offset, ReplicaKey};
use crate::raft::voter_set::VoterSet;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// What the leader knows about one replica (voter or observer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicaState {
    /// replicaKey
    pub key: ReplicaKey,
    /// endOffset: the replica's last fetch offset (the leader's own LEO for itself).
    pub end_offset: Option<i64>,
    /// lastFetchTimestamp, virtual ms; None is printed as -1.
    pub last_fetch_ms: Option<u64>,
    /// The leader's LEO at that last fetch.
    pub last_fetch_leader_end_offset: Option<i64>,
    /// lastCaughtUpTimestamp, virtual ms.
    pub last_caught_up_ms: Option<u64>,
    /// hasAcknowledgedLeader: fetched or answered BeginQuorumEpoch in this epoch.
    pub has_acknowledged_leader: bool,
}

impl ReplicaState {
    /// `matchesKey`: the same id, and the same directory id when this state knows one.
    pub fn matches_key(&self, key: ReplicaKey) -> bool {
        self.key.id == key.id
            && (self.key.directory_id.is_none() || self.key.directory_id == key.directory_id)
    }

    fn new(key: ReplicaKey, acked: bool) -> Self {
        ReplicaState {
            key,
            end_offset: None,
            last_fetch_ms: None,
            last_fetch_leader_end_offset: None,
            last_caught_up_ms: None,
            has_acknowledged_leader: acked,
        }
    }
}

fn ts(v: Option<u64>) -> String {
    match v {
        Some(t) => to_epoch_ms(t).to_string(),
        None => "-1".to_string(),
    }
}

impl fmt::Display for ReplicaState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ReplicaState(replicaKey={}, endOffset={}, lastFetchTimestamp={}, lastCaughtUpTimestamp={}, hasAcknowledgedLeader={})",
            self.key,
            optional_offset(self.end_offset),
            ts(self.last_fetch_ms),
            ts(self.last_caught_up_ms),
            self.has_acknowledged_leader
        )
    }
}

/// Leader of `epoch`.
#[derive(Clone, Debug)]
pub struct LeaderState {
    /// This replica.
    pub local: ReplicaKey,
    /// The CONTROLLER port of this replica.
    pub local_port: u16,
    /// epoch
    pub epoch: i32,
    /// epochStartOffset: the LEO when elected; the HW may only move past it.
    pub epoch_start_offset: i64,
    /// highWatermark (unknown until a record of this epoch is committed).
    pub high_watermark: Option<i64>,
    /// Voters that granted the election.
    pub granting_voters: Vec<i32>,
    /// Every voter, the leader included.
    pub voter_states: BTreeMap<i32, ReplicaState>,
    /// Observers seen fetching.
    pub observer_states: BTreeMap<i32, ReplicaState>,
    /// check quorum: voters (other than the leader) that fetched since the last reset.
    pub fetched_voters: BTreeSet<i32>,
    /// (int) (fetchTimeoutMs * 1.5)
    pub check_quorum_timeout_ms: u64,
    /// When check quorum expires.
    pub check_quorum_deadline_ms: u64,
    /// When BeginQuorumEpoch is next (re)sent to voters that have not fetched lately.
    pub begin_quorum_epoch_deadline_ms: u64,
    /// fetchTimeoutMs
    pub fetch_timeout_ms: u64,
    /// The `hw-epoch-start` rule switch, set by the client before every update (issue 18).
    pub hw_epoch_start_rule: bool,
    /// changeVoterState: the voter change in progress (KIP-853).
    pub change_voter: crate::raft::change_voter::ChangeVoterHandlerState,
    /// resignRequested: the leader left the committed voter set and resigns at its next poll.
    pub resign_requested: bool,
    /// KRaftVersionUpgrade.Voters: with kraft.version 0, the voter set the leader keeps in
    /// memory (the static set, updated by UpdateRaftVoter) for an upgrade to kraft.version 1.
    pub volatile_voters: Option<VoterSet>,
    /// KRaftVersionUpgrade.Version: an upgrade of kraft.version appended, not yet read back.
    pub upgraded_kraft_version: Option<u16>,
}

/// What changed after a replica's fetch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HighWatermarkUpdate {
    /// The new high watermark.
    pub offset: i64,
    /// True the first time it is set in this epoch.
    pub first_time: bool,
    /// indexOfHw used.
    pub index_of_hw: usize,
}

impl LeaderState {
    /// A new leader over `voters`, elected with the votes of `granting_voters`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        local: ReplicaKey,
        local_port: u16,
        epoch: i32,
        epoch_start_offset: i64,
        voters: &[ReplicaKey],
        granting_voters: Vec<i32>,
        fetch_timeout_ms: u64,
        now_ms: u64,
    ) -> Self {
        let voter_states = voters
            .iter()
            .map(|k| (k.id, ReplicaState::new(*k, k.id == local.id)))
            .collect();
        let check_quorum_timeout_ms = fetch_timeout_ms * 3 / 2;
        LeaderState {
            local,
            local_port,
            epoch,
            epoch_start_offset,
            high_watermark: None,
            granting_voters,
            voter_states,
            observer_states: BTreeMap::new(),
            fetched_voters: BTreeSet::new(),
            check_quorum_timeout_ms,
            check_quorum_deadline_ms: now_ms + check_quorum_timeout_ms,
            begin_quorum_epoch_deadline_ms: now_ms,
            fetch_timeout_ms,
            hw_epoch_start_rule: true,
            change_voter: Default::default(),
            resign_requested: false,
            volatile_voters: None,
            upgraded_kraft_version: None,
        }
    }

    /// `needToSendBeginQuorumRequests` (KAFKA-16926): the voters other than the leader that
    /// have not fetched for half the fetch timeout (or never did).
    pub fn need_to_send_begin_quorum_requests(&self, now_ms: u64) -> Vec<i32> {
        let period = self.fetch_timeout_ms / 2;
        self.voter_states
            .values()
            .filter(|s| s.key.id != self.local.id)
            .filter(|s| {
                s.last_fetch_ms
                    .is_none_or(|t| now_ms.saturating_sub(t) >= period)
            })
            .map(|s| s.key.id)
            .collect()
    }

    /// Voters that have not yet acknowledged this leader.
    pub fn non_acknowledging_voters(&self) -> Vec<i32> {
        self.voter_states
            .values()
            .filter(|s| !s.has_acknowledged_leader)
            .map(|s| s.key.id)
            .collect()
    }

    /// Mark a voter as having acknowledged the leader (BeginQuorumEpoch answered).
    pub fn add_acknowledgement_from(&mut self, id: i32) {
        if let Some(s) = self.voter_states.get_mut(&id) {
            s.has_acknowledged_leader = true;
        }
    }

    /// `updateVoterAndObserverStates` (LeaderState.java): the replica states follow `set`: a
    /// new voter keeps what it did as an observer (or starts unacknowledged), a voter no
    /// longer in the set moves to the observers.
    pub fn update_voter_set(&mut self, set: &VoterSet, now_ms: u64) {
        let _ = now_ms;
        let mut old = std::mem::take(&mut self.voter_states);
        for node in set.nodes() {
            let id = node.key.id;
            let mut state = old
                .remove(&id)
                .or_else(|| self.observer_states.remove(&id))
                .unwrap_or_else(|| ReplicaState::new(node.key, false));
            self.observer_states.remove(&id);
            state.key = node.key;
            self.voter_states.insert(id, state);
        }
        for (id, s) in old {
            self.observer_states.entry(id).or_insert(s);
        }
        let voters = &self.voter_states;
        self.fetched_voters.retain(|id| voters.contains_key(id));
    }

    /// `isReplicaCaughtUp` (LeaderState.java:415-426): `key` (a voter or an observer with that
    /// key) has caught up with the leader's end at some fetch and fetched within the last hour.
    pub fn is_replica_caught_up(&self, key: ReplicaKey, now_ms: u64) -> bool {
        const AN_HOUR_MS: u64 = 3_600_000;
        self.replica_state(key).is_some_and(|s| {
            s.last_caught_up_ms.is_some()
                && s.last_fetch_ms.is_some_and(|t| t + AN_HOUR_MS > now_ms)
        })
    }

    /// `getReplicaState`: the state of `key`, a voter's or an observer's.
    pub fn replica_state(&self, key: ReplicaKey) -> Option<&ReplicaState> {
        self.voter_states
            .get(&key.id)
            .filter(|s| s.matches_key(key))
            .or_else(|| {
                self.observer_states
                    .get(&key.id)
                    .filter(|s| s.matches_key(key) && s.key.directory_id == key.directory_id)
            })
    }

    /// Whether this leader is a voter of the set in force.
    pub fn is_voter(&self) -> bool {
        self.voter_states.contains_key(&self.local.id)
    }

    /// `updateLocalState`: the leader's own log end moved; returns a HW change.
    pub fn update_local_state(
        &mut self,
        end_offset: i64,
        now_ms: u64,
    ) -> Option<HighWatermarkUpdate> {
        let id = self.local.id;
        let _ = now_ms;
        let local = self.local;
        let s = match self.voter_states.get_mut(&id) {
            Some(s) => Some(s),
            None => Some(
                self.observer_states
                    .entry(id)
                    .or_insert_with(|| ReplicaState::new(local, true)),
            ),
        };
        if let Some(s) = s {
            // updateLeaderEndOffset sets only the end offset: the leader's own fetch and
            // caught-up timestamps stay -1 in its toString.
            s.end_offset = Some(end_offset);
            s.last_fetch_leader_end_offset = Some(end_offset);
        }
        self.maybe_update_high_watermark()
    }

    /// `updateReplicaState`: a fetch from `key` at `fetch_offset` while the leader's LEO is
    /// `leader_end_offset`. Returns a HW change (only voters move the HW).
    pub fn update_replica_state(
        &mut self,
        key: ReplicaKey,
        now_ms: u64,
        fetch_offset: i64,
        leader_end_offset: i64,
    ) -> Option<HighWatermarkUpdate> {
        // getOrCreateReplicaState: a voter's id with another directory id is an observer.
        let is_voter = self
            .voter_states
            .get(&key.id)
            .is_some_and(|s| s.matches_key(key));
        let state = if is_voter {
            self.voter_states.get_mut(&key.id).expect("voter present")
        } else {
            let s = self
                .observer_states
                .entry(key.id)
                .or_insert_with(|| ReplicaState::new(key, true));
            s.key = key;
            s
        };
        // lastCaughtUpTimestamp (LeaderState.updateFollowerState).
        if fetch_offset >= leader_end_offset {
            state.last_caught_up_ms = Some(now_ms);
        } else if let Some(prev_leo) = state.last_fetch_leader_end_offset {
            if fetch_offset >= prev_leo {
                state.last_caught_up_ms = state.last_fetch_ms;
            }
        }
        state.end_offset = Some(fetch_offset);
        state.last_fetch_ms = Some(now_ms);
        state.last_fetch_leader_end_offset = Some(leader_end_offset);
        state.has_acknowledged_leader = true;
        // updateCheckQuorumForFollowingVoter runs for every replica (LeaderState.java:810):
        // only a voter is counted, but with one voter (a majority of zero others) any
        // observer's fetch resets the timer, so a set grown from one voter starts it fresh.
        if is_voter && key.id != self.local.id {
            self.fetched_voters.insert(key.id);
        }
        self.maybe_reset_check_quorum(now_ms);
        if is_voter {
            self.maybe_update_high_watermark()
        } else {
            None
        }
    }

    /// `updateCheckQuorumForFollowingVoter`: a FetchSnapshot from a voter counts for check
    /// quorum (but not for the high watermark).
    pub fn update_check_quorum_for_following_voter(&mut self, id: i32, now_ms: u64) {
        if self.voter_states.contains_key(&id) && id != self.local.id {
            self.fetched_voters.insert(id);
        }
        self.maybe_reset_check_quorum(now_ms);
    }

    /// The fetched voters that reset check quorum (LeaderState.updateCheckQuorumForFollowingVoter):
    /// a majority of the voters, the leader counting implicitly when it is one of them.
    fn majority_excluding_leader(&self) -> usize {
        let majority = self.voter_states.len() / 2 + 1;
        if self.voter_states.contains_key(&self.local.id) {
            majority - 1
        } else {
            majority
        }
    }

    fn maybe_reset_check_quorum(&mut self, now_ms: u64) {
        if self.fetched_voters.len() >= self.majority_excluding_leader() {
            self.fetched_voters.clear();
            self.check_quorum_deadline_ms = now_ms + self.check_quorum_timeout_ms;
        }
    }

    /// Time until check quorum expires; a single voter never expires.
    pub fn time_until_check_quorum_expires(&self, now_ms: u64) -> u64 {
        if self.voter_states.len() == 1 {
            return u64::MAX;
        }
        self.check_quorum_deadline_ms.saturating_sub(now_ms)
    }

    /// Voter ids sorted by end offset, largest first (ties by id), as the HW computation sees them.
    pub fn voters_by_descending_end_offset(&self) -> Vec<(i32, Option<i64>)> {
        let mut v: Vec<(i32, Option<i64>)> = self
            .voter_states
            .values()
            .map(|s| (s.key.id, s.end_offset))
            .collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v
    }

    /// `maybeUpdateHighWatermark`: the largest offset a majority holds, once past the epoch start.
    fn maybe_update_high_watermark(&mut self) -> Option<HighWatermarkUpdate> {
        let sorted = self.voters_by_descending_end_offset();
        let index_of_hw = self.voter_states.len() / 2;
        let candidate = sorted[index_of_hw].1?;
        // RULE hw-epoch-start (maybeUpdateHighWatermark: only past epochStartOffset, the Raft
        // paper's figure 8): off, a majority holding an older epoch's offset commits it.
        if self.hw_epoch_start_rule && candidate <= self.epoch_start_offset {
            return None;
        }
        match self.high_watermark {
            Some(hw) if candidate <= hw => None,
            current => {
                self.high_watermark = Some(candidate);
                Some(HighWatermarkUpdate {
                    offset: candidate,
                    first_time: current.is_none(),
                    index_of_hw,
                })
            }
        }
    }

    /// Text of the voters as the "High watermark set" log line prints them.
    pub fn voter_states_text(&self) -> String {
        let parts: Vec<String> = self
            .voters_by_descending_end_offset()
            .iter()
            .map(|(id, _)| self.voter_states[id].to_string())
            .collect();
        format!("[{}]", parts.join(", "))
    }
}

impl fmt::Display for LeaderState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let voters: Vec<String> = self
            .voter_states
            .iter()
            .map(|(id, s)| format!("{id}={s}"))
            .collect();
        write!(
            f,
            "Leader(localVoterNode=VoterNode(voterKey={}, listeners=Endpoints(endpoints={{ListenerName(CONTROLLER)=localhost/<unresolved>:{}}}), supportedKRaftVersion=SupportedVersionRange[min_version:0, max_version:1]), epoch={}, epochStartOffset={}, highWatermark={}, voterStates={{{}}})",
            self.local,
            self.local_port,
            self.epoch,
            self.epoch_start_offset,
            optional_offset(self.high_watermark),
            voters.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(id: i32) -> ReplicaKey {
        ReplicaKey {
            id,
            directory_id: None,
        }
    }

    fn leader(voters: &[i32], start: i64) -> LeaderState {
        let keys: Vec<ReplicaKey> = voters.iter().map(|&i| key(i)).collect();
        LeaderState::new(
            key(voters[0]),
            9093,
            1,
            start,
            &keys,
            vec![voters[0]],
            2000,
            0,
        )
    }

    #[test]
    fn hw_is_majority_offset_and_waits_for_epoch_start() {
        let mut l = leader(&[1, 2, 3], 10);
        assert_eq!(l.update_local_state(11, 0), None); // only the leader has 11
                                                       // Follower 2 acknowledges 10 (= epochStartOffset): not past the epoch start yet.
        assert_eq!(l.update_replica_state(key(2), 1, 10, 11), None);
        let up = l.update_replica_state(key(2), 2, 11, 11).unwrap();
        assert_eq!((up.offset, up.first_time, up.index_of_hw), (11, true, 1));
        l.update_local_state(20, 3);
        let up = l.update_replica_state(key(3), 4, 15, 20).unwrap();
        assert_eq!((up.offset, up.first_time), (15, false));
        // A slower fetch never moves the HW back.
        assert_eq!(l.update_replica_state(key(3), 5, 12, 20), None);
        assert_eq!(l.high_watermark, Some(15));
    }

    #[test]
    fn five_voters_need_three() {
        let mut l = leader(&[1, 2, 3, 4, 5], 0);
        l.update_local_state(5, 0);
        assert_eq!(l.update_replica_state(key(2), 1, 5, 5), None);
        assert_eq!(l.update_replica_state(key(3), 1, 4, 5).unwrap().offset, 4);
    }

    #[test]
    fn check_quorum_resets_on_majority_fetch() {
        let mut l = leader(&[1, 2, 3], 0);
        assert_eq!(l.time_until_check_quorum_expires(1000), 2000);
        l.update_replica_state(key(2), 1000, 0, 0);
        assert_eq!(l.time_until_check_quorum_expires(1000), 3000);
        let single = leader(&[1], 0);
        assert_eq!(single.time_until_check_quorum_expires(10_000), u64::MAX);
    }

    #[test]
    fn observers_do_not_move_the_hw() {
        let mut l = leader(&[1], 0);
        let up = l.update_local_state(3, 0).unwrap();
        assert_eq!(up.offset, 3);
        assert_eq!(l.update_replica_state(key(9), 1, 3, 3), None);
        assert!(l.observer_states.contains_key(&9));
    }
}
