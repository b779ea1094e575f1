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

impl EpochState {
    /// The class name Kafka uses, without the `State` suffix where Kafka's views drop it.
    pub fn name(&self) -> &'static str {
        match self {
            EpochState::Unattached(_) => "Unattached",
            EpochState::Prospective(_) => "Prospective",
            EpochState::Candidate(_) => "Candidate",
            EpochState::Leader(_) => "Leader",
            EpochState::Follower(_) => "Follower",
            EpochState::Resigned(_) => "Resigned",
        }
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
    pub fn can_grant_vote(&self, candidate: ReplicaKey, log_up_to_date: bool, pre_vote: bool) -> bool {
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
            EpochState::Candidate(s) => {
                if pre_vote {
                    log_up_to_date
                } else {
                    candidate.id == s.local.id
                }
            }
            EpochState::Follower(s) => pre_vote && !s.has_fetched_from_leader && log_up_to_date,
            EpochState::Leader(_) | EpochState::Resigned(_) => false,
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
