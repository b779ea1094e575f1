//! EpochElection: the tally of (pre-)votes of a Prospective or Candidate.

use super::replica_key::ReplicaKey;
use std::collections::BTreeMap;
use std::fmt;

/// How one voter has answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteState {
    /// No answer yet.
    Unrecorded,
    /// Granted.
    Granted,
    /// Rejected.
    Rejected,
}

/// The tally of an election in one epoch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpochElection {
    voters: BTreeMap<i32, (ReplicaKey, VoteState)>,
}

impl EpochElection {
    /// A fresh tally over `voters`, all unrecorded.
    pub fn new(voters: &[ReplicaKey]) -> Self {
        EpochElection {
            voters: voters
                .iter()
                .map(|k| (k.id, (*k, VoteState::Unrecorded)))
                .collect(),
        }
    }

    fn majority(&self) -> usize {
        self.voters.len() / 2 + 1
    }

    fn count(&self, s: VoteState) -> usize {
        self.voters.values().filter(|(_, v)| *v == s).count()
    }

    /// Record a granted vote; false when `id` is not a voter.
    pub fn record_granted(&mut self, id: i32) -> bool {
        self.record(id, VoteState::Granted)
    }

    /// Record a rejected vote; false when `id` is not a voter.
    pub fn record_rejected(&mut self, id: i32) -> bool {
        self.record(id, VoteState::Rejected)
    }

    fn record(&mut self, id: i32, s: VoteState) -> bool {
        match self.voters.get_mut(&id) {
            Some(entry) => {
                entry.1 = s;
                true
            }
            None => false,
        }
    }

    /// A majority granted.
    pub fn is_vote_granted(&self) -> bool {
        self.count(VoteState::Granted) >= self.majority()
    }

    /// The election can no longer be won: granted plus unrecorded is below a majority.
    pub fn is_vote_rejected(&self) -> bool {
        self.count(VoteState::Granted) + self.count(VoteState::Unrecorded) < self.majority()
    }

    /// Voters that have not answered.
    pub fn unrecorded_voters(&self) -> Vec<i32> {
        self.voters
            .iter()
            .filter(|(_, (_, s))| *s == VoteState::Unrecorded)
            .map(|(id, _)| *id)
            .collect()
    }

    /// Voters that granted.
    pub fn granting_voters(&self) -> Vec<i32> {
        self.voters
            .iter()
            .filter(|(_, (_, s))| *s == VoteState::Granted)
            .map(|(id, _)| *id)
            .collect()
    }

    /// Every voter with its answer, for views.
    pub fn states(&self) -> Vec<(i32, VoteState)> {
        self.voters.iter().map(|(id, (_, s))| (*id, *s)).collect()
    }
}

impl fmt::Display for EpochElection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .voters
            .iter()
            .map(|(id, (key, s))| {
                let state = match s {
                    VoteState::Unrecorded => "UNRECORDED",
                    VoteState::Granted => "GRANTED",
                    VoteState::Rejected => "REJECTED",
                };
                format!("{id}=VoterState(replicaKey={key}, state={state})")
            })
            .collect();
        // A Java record: EpochElection[voterStates={...}].
        write!(f, "EpochElection[voterStates={{{}}}]", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(ids: &[i32]) -> Vec<ReplicaKey> {
        ids.iter()
            .map(|&id| ReplicaKey {
                id,
                directory_id: None,
            })
            .collect()
    }

    #[test]
    fn majority_of_three() {
        let mut e = EpochElection::new(&keys(&[1, 2, 3]));
        e.record_granted(1);
        assert!(!e.is_vote_granted() && !e.is_vote_rejected());
        e.record_rejected(2);
        assert!(!e.is_vote_granted() && !e.is_vote_rejected());
        e.record_rejected(3);
        assert!(e.is_vote_rejected());
        let mut e = EpochElection::new(&keys(&[1, 2, 3]));
        e.record_granted(1);
        e.record_granted(3);
        assert!(e.is_vote_granted());
        assert_eq!(e.unrecorded_voters(), vec![2]);
    }

    #[test]
    fn single_voter_wins_alone() {
        let mut e = EpochElection::new(&keys(&[1]));
        e.record_granted(1);
        assert!(e.is_vote_granted());
    }
}
