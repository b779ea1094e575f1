//! The states of a KRaft replica, one file each, as in Kafka's `org.apache.kafka.raft`.

pub mod candidate;
pub mod follower;
pub mod leader;
pub mod prospective;
pub mod resigned;
pub mod unattached;

pub use candidate::CandidateState;
pub use follower::FollowerState;
pub use leader::{LeaderState, ReplicaState};
pub use prospective::ProspectiveState;
pub use resigned::ResignedState;
pub use unattached::UnattachedState;

use serde::Serialize;

use super::replica_key::{ElectionState, ReplicaKey};

/// The state a replica is in for its current epoch.
#[derive(Clone, Debug)]
pub enum EpochState {
    /// Knows no leader (or knows it but cannot reach it), has not started an election.
    Unattached(UnattachedState),
    /// Running a PreVote round in the current epoch (KIP-996).
    Prospective(ProspectiveState),
    /// Running an election in a new epoch.
    Candidate(CandidateState),
    /// Leader of the epoch.
    Leader(LeaderState),
    /// Following (fetching from) the epoch's leader.
    Follower(FollowerState),
    /// A former leader stepping down.
    Resigned(ResignedState),
}

/// Which of the six states a replica is in, without its data: the class Kafka names it by
/// (`UnattachedState`, ..., without the `State` suffix, as QuorumState's log lines and
/// `describe --replication` drop it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum StateKind {
    /// UnattachedState
    Unattached,
    /// ProspectiveState (KIP-996)
    Prospective,
    /// CandidateState
    Candidate,
    /// LeaderState
    Leader,
    /// FollowerState
    Follower,
    /// ResignedState
    Resigned,
}

impl StateKind {
    /// Every state, in the order the state diagram lists them.
    pub const ALL: [StateKind; 6] = [
        StateKind::Unattached,
        StateKind::Prospective,
        StateKind::Candidate,
        StateKind::Leader,
        StateKind::Follower,
        StateKind::Resigned,
    ];

    /// `Unattached`, `Prospective`, `Candidate`, `Leader`, `Follower` or `Resigned`.
    pub const fn name(self) -> &'static str {
        match self {
            StateKind::Unattached => "Unattached",
            StateKind::Prospective => "Prospective",
            StateKind::Candidate => "Candidate",
            StateKind::Leader => "Leader",
            StateKind::Follower => "Follower",
            StateKind::Resigned => "Resigned",
        }
    }

    /// The state named `name` (exactly as [`StateKind::name`] spells it).
    pub fn from_name(name: &str) -> Option<StateKind> {
        StateKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl std::fmt::Display for StateKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

impl EpochState {
    /// Which state it is.
    pub fn kind(&self) -> StateKind {
        match self {
            EpochState::Unattached(_) => StateKind::Unattached,
            EpochState::Prospective(_) => StateKind::Prospective,
            EpochState::Candidate(_) => StateKind::Candidate,
            EpochState::Leader(_) => StateKind::Leader,
            EpochState::Follower(_) => StateKind::Follower,
            EpochState::Resigned(_) => StateKind::Resigned,
        }
    }

    /// The class name Kafka uses, without the `State` suffix where Kafka's views drop it.
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }

    /// The epoch.
    pub fn epoch(&self) -> i32 {
        match self {
            EpochState::Unattached(s) => s.epoch,
            EpochState::Prospective(s) => s.epoch,
            EpochState::Candidate(s) => s.epoch,
            EpochState::Leader(s) => s.epoch,
            EpochState::Follower(s) => s.epoch,
            EpochState::Resigned(s) => s.epoch,
        }
    }

    /// The leader this state knows, if any.
    pub fn leader_id(&self) -> Option<i32> {
        match self {
            EpochState::Unattached(s) => s.leader_id,
            EpochState::Prospective(s) => s.leader_id,
            EpochState::Candidate(_) => None,
            EpochState::Leader(s) => Some(s.local.id),
            EpochState::Follower(s) => Some(s.leader_id),
            EpochState::Resigned(s) => Some(s.local_id),
        }
    }

    /// The vote cast in this epoch, if any.
    pub fn voted_key(&self) -> Option<ReplicaKey> {
        match self {
            EpochState::Unattached(s) => s.voted_key,
            EpochState::Prospective(s) => s.voted_key,
            EpochState::Candidate(s) => Some(s.local),
            EpochState::Leader(_) => None,
            EpochState::Follower(s) => s.voted_key,
            EpochState::Resigned(_) => None,
        }
    }

    /// The high watermark this state knows.
    pub fn high_watermark(&self) -> Option<i64> {
        match self {
            EpochState::Unattached(s) => s.high_watermark,
            EpochState::Prospective(s) => s.high_watermark,
            EpochState::Candidate(s) => s.high_watermark,
            EpochState::Leader(s) => s.high_watermark,
            EpochState::Follower(s) => s.high_watermark,
            EpochState::Resigned(s) => s.high_watermark,
        }
    }

    /// What `quorum-state` records for this state.
    pub fn election(&self) -> ElectionState {
        ElectionState {
            epoch: self.epoch(),
            leader_id: self.leader_id(),
            voted_key: self.voted_key(),
        }
    }

    /// `canGrantVote(replicaKey, isLogUpToDate, isPreVote)` of the state.
    pub fn can_grant_vote(
        &self,
        candidate: ReplicaKey,
        log_up_to_date: bool,
        pre_vote: bool,
    ) -> bool {
        match self {
            EpochState::Unattached(s) => unattached_or_prospective_can_grant_vote(
                s.leader_id,
                s.voted_key,
                candidate,
                log_up_to_date,
                pre_vote,
            ),
            EpochState::Prospective(s) => unattached_or_prospective_can_grant_vote(
                s.leader_id,
                s.voted_key,
                candidate,
                log_up_to_date,
                pre_vote,
            ),
            // A Candidate's vote for itself is implicit, never granted (CandidateState.canGrantVote);
            // a Resigned leader grants PreVotes to an up-to-date log (ResignedState.canGrantVote),
            // which lets its first preferred successor win at once in a graceful hand-off.
            EpochState::Candidate(_) | EpochState::Resigned(_) => pre_vote && log_up_to_date,
            EpochState::Follower(s) => pre_vote && !s.has_fetched_from_leader && log_up_to_date,
            EpochState::Leader(_) => false,
        }
    }

    /// When the state's election timer fires, if it has one.
    pub fn election_deadline_ms(&self) -> Option<u64> {
        match self {
            EpochState::Unattached(s) => s.election_deadline_ms,
            EpochState::Prospective(s) => Some(s.election_deadline_ms),
            EpochState::Candidate(s) => Some(s.election_deadline_ms),
            EpochState::Resigned(s) => Some(s.election_deadline_ms),
            EpochState::Leader(_) | EpochState::Follower(_) => None,
        }
    }

    /// Remaining election time at `now_ms` (0 once expired, u64::MAX without a timer).
    pub fn remaining_election_ms(&self, now_ms: u64) -> u64 {
        match self.election_deadline_ms() {
            Some(d) => d.saturating_sub(now_ms),
            None => u64::MAX,
        }
    }
}

/// The state as Kafka's `toString` prints it (in `Completed transition to ... from ...`).
impl std::fmt::Display for EpochState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EpochState::Unattached(x) => x.fmt(f),
            EpochState::Prospective(x) => x.fmt(f),
            EpochState::Candidate(x) => x.fmt(f),
            EpochState::Leader(x) => x.fmt(f),
            EpochState::Follower(x) => x.fmt(f),
            EpochState::Resigned(x) => x.fmt(f),
        }
    }
}

/// QuorumState's shared rule for Unattached and Prospective.
fn unattached_or_prospective_can_grant_vote(
    leader_id: Option<i32>,
    voted_key: Option<ReplicaKey>,
    candidate: ReplicaKey,
    log_up_to_date: bool,
    pre_vote: bool,
) -> bool {
    if pre_vote {
        log_up_to_date
    } else if let Some(voted) = voted_key {
        voted.id == candidate.id
            && (voted.directory_id.is_none() || voted.directory_id == candidate.directory_id)
    } else if leader_id.is_some() {
        false
    } else {
        log_up_to_date
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::epoch_election::EpochElection;

    fn key(id: i32) -> ReplicaKey {
        ReplicaKey {
            id,
            directory_id: None,
        }
    }

    fn unattached(leader: Option<i32>, voted: Option<i32>) -> EpochState {
        EpochState::Unattached(UnattachedState {
            epoch: 5,
            leader_id: leader,
            voted_key: voted.map(key),
            voters: vec![1, 2, 3],
            election_timeout_ms: 1500,
            election_deadline_ms: Some(1500),
            high_watermark: None,
        })
    }

    fn follower(fetched: bool) -> EpochState {
        EpochState::Follower(FollowerState {
            epoch: 5,
            leader_id: 1,
            leader_port: 9093,
            voted_key: None,
            voters: vec![1, 2, 3],
            fetch_timeout_ms: 2000,
            fetch_deadline_ms: 2000,
            has_fetched_from_leader: fetched,
            high_watermark: None,
            update_voter_deadline_ms: 4000,
            has_updated_leader: false,
        })
    }

    #[test]
    fn unattached_grants_prevotes_on_log_alone_and_votes_once() {
        let s = unattached(None, None);
        assert!(s.can_grant_vote(key(2), true, true));
        assert!(!s.can_grant_vote(key(2), false, true));
        assert!(s.can_grant_vote(key(2), true, false));
        assert!(!s.can_grant_vote(key(2), false, false));
        let voted = unattached(None, Some(2));
        assert!(
            voted.can_grant_vote(key(2), false, false),
            "re-grant needs no log check"
        );
        assert!(!voted.can_grant_vote(key(3), true, false));
        assert!(
            voted.can_grant_vote(key(3), true, true),
            "prevotes ignore the vote"
        );
        let knows_leader = unattached(Some(1), None);
        assert!(!knows_leader.can_grant_vote(key(2), true, false));
        assert!(knows_leader.can_grant_vote(key(2), true, true));
    }

    #[test]
    fn follower_grants_prevotes_only_before_its_first_fetch_and_never_votes() {
        assert!(follower(false).can_grant_vote(key(2), true, true));
        assert!(!follower(false).can_grant_vote(key(2), false, true));
        assert!(!follower(true).can_grant_vote(key(2), true, true));
        assert!(!follower(false).can_grant_vote(key(2), true, false));
    }

    #[test]
    fn candidate_grants_prevotes_by_log_and_rejects_every_standard_vote() {
        let mut e = EpochElection::new(&[key(1), key(2), key(3)]);
        e.record_granted(1);
        let c = EpochState::Candidate(CandidateState {
            local: key(1),
            epoch: 6,
            epoch_election: e,
            election_timeout_ms: 1200,
            election_deadline_ms: 1200,
            high_watermark: None,
        });
        assert!(c.can_grant_vote(key(2), true, true));
        assert!(!c.can_grant_vote(key(2), false, true));
        assert!(!c.can_grant_vote(key(2), true, false));
        assert!(
            !c.can_grant_vote(key(1), true, false),
            "its vote for itself is implicit, not granted"
        );
        assert_eq!(c.voted_key(), Some(key(1)));
        assert_eq!(c.election().leader_id, None);
        assert!(c.to_string().starts_with("CandidateState(localId=1, localDirectoryId=<undefined>, epoch=6, epochElection=EpochElection[voterStates={"));
        assert!(!c.to_string().contains("retries"));
    }

    #[test]
    fn resigned_grants_prevotes_only_when_the_log_is_up_to_date_and_never_votes() {
        let r = EpochState::Resigned(ResignedState {
            local_id: 1,
            epoch: 6,
            voters: vec![1, 2, 3],
            election_timeout_ms: 1200,
            election_deadline_ms: 1200,
            unacked_voters: vec![2, 3],
            preferred_successors: vec![key(2), key(3)],
            high_watermark: None,
        });
        assert!(r.can_grant_vote(key(2), true, true));
        assert!(!r.can_grant_vote(key(2), false, true));
        assert!(!r.can_grant_vote(key(2), true, false));
        assert!(r.to_string().ends_with(
            "unackedVoters=[2, 3], preferredSuccessors=[ReplicaKey(id=2, directoryId=<undefined>), ReplicaKey(id=3, directoryId=<undefined>)])"
        ));
    }

    #[test]
    fn state_text_matches_kafkas_to_string() {
        let s = unattached(Some(1), None);
        let text = match &s {
            EpochState::Unattached(u) => u.to_string(),
            _ => unreachable!(),
        };
        assert_eq!(
            text,
            "UnattachedState(epoch=5, leaderId=OptionalInt[1], votedKey=Optional.empty, voters=[1, 2, 3], electionTimeoutMs=1500, highWatermark=Optional.empty)"
        );
    }
}
