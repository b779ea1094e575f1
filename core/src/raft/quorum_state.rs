//! QuorumState: the legal transitions between the epoch states, durable ones writing
//! `quorum-state` before the state changes in memory.

use super::config::QuorumConfig;
use super::epoch_election::EpochElection;
use super::io::{loggers, RaftIo};
use super::replica_key::{ElectionState, ReplicaKey, QUORUM_STATE_FILE};
use super::state::*;
use crate::common::node_log::Level;
use crate::raft::disk::METADATA_DIR;

pub use super::voter_set::VoterNode;
use super::voter_set::VoterSet;

/// The path of `quorum-state` on a node's disk.
pub fn quorum_state_path() -> String {
    format!("{METADATA_DIR}/{QUORUM_STATE_FILE}")
}

/// The replica's quorum state and its transitions.
#[derive(Clone, Debug)]
pub struct QuorumState {
    /// This replica.
    pub local: ReplicaKey,
    /// The voters now: the control records' latest set (KRaftControlRecordStateMachine), in
    /// force from its append.
    pub voters: VoterSet,
    /// The current state.
    pub state: EpochState,
    /// The CONTROLLER endpoints known besides the voters': the bootstrap servers and every
    /// voter set read (Kafka learns a leader's endpoints from the responses that name it).
    pub known_endpoints: std::collections::BTreeMap<i32, u16>,
    config: QuorumConfig,
    prefix: String,
}

/// An illegal transition: a bug, handled like Kafka's IllegalStateException in the Raft thread
/// (a fatal fault: the process exits).
pub type TransitionResult = Result<(), String>;

/// `quorum-state` as stored (epoch 0, no leader, no vote when the file is absent); the voters'
/// directory ids fill in a vote's directory id.
fn read_election_state(voters: &VoterSet, io: &RaftIo) -> Result<ElectionState, String> {
    let dirs: Vec<(i32, crate::common::uuid::Uuid)> = voters
        .nodes()
        .filter_map(|v| v.key.directory_id.map(|d| (v.key.id, d)))
        .collect();
    match io.disk.read_file(&quorum_state_path()) {
        Some(text) => ElectionState::from_json(text, &dirs),
        None => Ok(ElectionState {
            epoch: 0,
            leader_id: None,
            voted_key: None,
        }),
    }
}

impl QuorumState {
    /// `initialize`: read `quorum-state` and the log's last epoch and pick the starting state.
    pub fn initialize(
        local: ReplicaKey,
        voters: VoterSet,
        config: QuorumConfig,
        prefix: String,
        io: &mut RaftIo,
    ) -> Result<QuorumState, String> {
        let election = read_election_state(&voters, io)?;
        let log_epoch = io.disk.metadata_log.last_fetched_epoch();
        let voter_ids: Vec<i32> = voters.voter_ids();
        let mut qs = QuorumState {
            local,
            voters,
            // Placeholder replaced below before anyone sees it.
            state: EpochState::Unattached(UnattachedState {
                epoch: 0,
                leader_id: None,
                voted_key: None,
                voters: voter_ids,
                election_timeout_ms: 0,
                election_deadline_ms: None,
                high_watermark: None,
            }),
            known_endpoints: Default::default(),
            config,
            prefix,
        };
        let initial = qs.initial_state(&election, log_epoch, io);
        qs.complete_initial_transition(initial, io);
        Ok(qs)
    }

    /// The state `initialize` picks: unattached in the log's epoch when `quorum-state` is
    /// behind the log; Resigned when it names this replica leader; Candidate when this voter
    /// voted for itself; following a known leader; else unattached.
    fn initial_state(
        &self,
        election: &ElectionState,
        log_epoch: i32,
        io: &mut RaftIo,
    ) -> EpochState {
        let local = self.local;
        let timeout = self.random_election_timeout(io);
        let now = io.now_ms;
        if election.epoch < log_epoch {
            io.log_line(
                Level::Warn,
                &self.prefix,
                loggers::QUORUM_STATE,
                format!(
                    "Epoch from quorum store file ({}) is {}, which is smaller than last written epoch {} in the log",
                    quorum_state_path(),
                    election.epoch,
                    log_epoch
                ),
            );
            self.initial_unattached(log_epoch, None, None, timeout, now)
        } else if election.leader_id == Some(local.id) {
            EpochState::Resigned(ResignedState {
                local_id: local.id,
                epoch: election.epoch,
                voters: self.voter_ids(),
                election_timeout_ms: timeout,
                election_deadline_ms: now + timeout,
                unacked_voters: self.remote_voter_ids(),
                preferred_successors: Vec::new(),
                high_watermark: None,
            })
        } else if election.voted_key.map(|k| k.id) == Some(local.id) && self.is_voter() {
            let mut e = EpochElection::new(&self.voter_keys());
            e.record_granted(local.id);
            EpochState::Candidate(CandidateState {
                local,
                epoch: election.epoch,
                epoch_election: e,
                election_timeout_ms: timeout,
                election_deadline_ms: now + timeout,
                high_watermark: None,
            })
        } else if let Some(leader) = election.leader_id {
            match self.voter_port(leader) {
                Some(port) => EpochState::Follower(FollowerState {
                    epoch: election.epoch,
                    leader_id: leader,
                    leader_port: port,
                    voted_key: election.voted_key,
                    voters: self.voter_ids(),
                    fetch_timeout_ms: self.config.fetch_timeout_ms,
                    fetch_deadline_ms: now + self.config.fetch_timeout_ms,
                    has_fetched_from_leader: false,
                    high_watermark: None,
                    update_voter_deadline_ms: now + 2 * self.config.fetch_timeout_ms,
                    has_updated_leader: false,
                }),
                None => self.initial_unattached(
                    election.epoch,
                    Some(leader),
                    election.voted_key,
                    timeout,
                    now,
                ),
            }
        } else {
            self.initial_unattached(election.epoch, None, election.voted_key, timeout, now)
        }
    }

    /// An initial Unattached state; a voter's election timer starts at `now_ms`.
    fn initial_unattached(
        &self,
        epoch: i32,
        leader_id: Option<i32>,
        voted_key: Option<ReplicaKey>,
        timeout: u64,
        now_ms: u64,
    ) -> EpochState {
        EpochState::Unattached(UnattachedState {
            epoch,
            leader_id,
            voted_key,
            voters: self.voter_ids(),
            election_timeout_ms: timeout,
            election_deadline_ms: self.is_voter().then_some(now_ms + timeout),
            high_watermark: None,
        })
    }

    /// The durable transition to the initial state "from null": `quorum-state` is written
    /// before the state changes in memory.
    fn complete_initial_transition(&mut self, initial: EpochState, io: &mut RaftIo) {
        io.log_line(
            Level::Info,
            &self.prefix,
            loggers::QUORUM_STATE,
            format!(
                "Attempting durable transition to {} from null",
                state_text(&initial)
            ),
        );
        io.disk
            .write_file(&quorum_state_path(), initial.election().to_json());
        io.log_line(
            Level::Info,
            &self.prefix,
            loggers::QUORUM_STATE,
            format!("Completed transition to {} from null", state_text(&initial)),
        );
        self.state = initial;
    }

    /// The voter ids, sorted.
    pub fn voter_ids(&self) -> Vec<i32> {
        self.voters.voter_ids()
    }

    /// The voter keys.
    pub fn voter_keys(&self) -> Vec<ReplicaKey> {
        self.voters.voter_keys()
    }

    /// Voters other than this replica.
    pub fn remote_voter_ids(&self) -> Vec<i32> {
        self.voters
            .voter_ids()
            .into_iter()
            .filter(|id| *id != self.local.id)
            .collect()
    }

    /// The CONTROLLER port of a voter (or of a node whose endpoint is known otherwise).
    pub fn voter_port(&self, id: i32) -> Option<u16> {
        self.voters
            .node(id)
            .map(|v| v.port)
            .or_else(|| self.known_endpoints.get(&id).copied())
    }

    /// `isVoter`: this replica (id and directory id) is in the current voter set.
    pub fn is_voter(&self) -> bool {
        self.voters.is_voter(self.local)
    }

    /// Whether this replica is the only voter.
    pub fn is_only_voter(&self) -> bool {
        self.voters.is_only_voter(self.local)
    }

    /// The current epoch.
    pub fn epoch(&self) -> i32 {
        self.state.epoch()
    }

    /// The leader known in this epoch.
    pub fn leader_id(&self) -> Option<i32> {
        self.state.leader_id()
    }

    /// Whether the state knows the leader's endpoint (Follower, or a Prospective that was one).
    pub fn has_leader_endpoint(&self) -> bool {
        match &self.state {
            EpochState::Follower(_) => true,
            EpochState::Prospective(p) => p.leader_port.is_some(),
            _ => false,
        }
    }

    fn random_election_timeout(&self, io: &mut RaftIo) -> u64 {
        let t = self.config.election_timeout_ms;
        if t == 0 {
            0
        } else {
            t + io.rng.below(t)
        }
    }

    fn durable_transition_to(&mut self, new_state: EpochState, io: &mut RaftIo) {
        io.log_line(
            Level::Info,
            &self.prefix,
            loggers::QUORUM_STATE,
            format!(
                "Attempting durable transition to {} from {}",
                state_text(&new_state),
                state_text(&self.state)
            ),
        );
        io.disk
            .write_file(&quorum_state_path(), new_state.election().to_json());
        self.memory_transition_to(new_state, io);
    }

    fn memory_transition_to(&mut self, new_state: EpochState, io: &mut RaftIo) {
        let from = state_text(&self.state);
        io.log_line(
            Level::Info,
            &self.prefix,
            loggers::QUORUM_STATE,
            format!(
                "Completed transition to {} from {}",
                state_text(&new_state),
                from
            ),
        );
        self.state = new_state;
    }

    /// `transitionToUnattached(epoch, leaderId)`: a higher epoch, or the same epoch from
    /// Prospective.
    pub fn transition_to_unattached(
        &mut self,
        epoch: i32,
        leader_id: Option<i32>,
        io: &mut RaftIo,
    ) -> TransitionResult {
        let current = self.epoch();
        let is_prospective = matches!(self.state, EpochState::Prospective(_));
        if epoch < current || (epoch == current && !is_prospective) {
            return Err(format!(
                "Cannot transition to Unattached with epoch {epoch} from current state {}",
                state_text(&self.state)
            ));
        }
        let now = io.now_ms;
        let (timeout_ms, deadline) = if !self.is_voter() {
            (0, None)
        } else {
            let carried = match &self.state {
                EpochState::Candidate(_) | EpochState::Unattached(_) | EpochState::Resigned(_) => {
                    Some(self.state.remaining_election_ms(now))
                }
                EpochState::Prospective(p) if !p.epoch_election.is_vote_rejected() => {
                    Some(self.state.remaining_election_ms(now))
                }
                _ => None,
            };
            let t = match carried {
                Some(t) => t,
                None => self.random_election_timeout(io),
            };
            (t, Some(now + t))
        };
        let voted_key = if epoch == current {
            self.state.voted_key()
        } else {
            None
        };
        let new_state = EpochState::Unattached(UnattachedState {
            epoch,
            leader_id,
            voted_key,
            voters: self.voter_ids(),
            election_timeout_ms: timeout_ms,
            election_deadline_ms: deadline,
            high_watermark: self.state.high_watermark(),
        });
        self.durable_transition_to(new_state, io);
        Ok(())
    }

    /// `unattachedAddVotedState` / `prospectiveAddVotedState`: record a binding vote.
    pub fn add_voted_state(
        &mut self,
        epoch: i32,
        candidate: ReplicaKey,
        io: &mut RaftIo,
    ) -> TransitionResult {
        if candidate.id == self.local.id {
            return Err(format!(
                "Cannot add voted key ({candidate}) to current state ({}) since it matches the local broker.id",
                state_text(&self.state)
            ));
        }
        if epoch != self.epoch() {
            return Err(format!(
                "Cannot add voted key ({candidate}) to current state ({}) in epoch {epoch}",
                state_text(&self.state)
            ));
        }
        let timeout = self.random_election_timeout(io);
        let now = io.now_ms;
        let new_state = match &self.state {
            EpochState::Unattached(u) if u.voted_key.is_none() => {
                EpochState::Unattached(UnattachedState {
                    voted_key: Some(candidate),
                    election_timeout_ms: timeout,
                    election_deadline_ms: Some(now + timeout),
                    ..u.clone()
                })
            }
            EpochState::Prospective(p) if p.voted_key.is_none() => {
                let mut e = EpochElection::new(&self.voter_keys());
                e.record_granted(self.local.id);
                EpochState::Prospective(ProspectiveState {
                    voted_key: Some(candidate),
                    epoch_election: e,
                    election_timeout_ms: timeout,
                    election_deadline_ms: now + timeout,
                    ..p.clone()
                })
            }
            other => {
                return Err(format!(
                    "Cannot add voted key ({candidate}) to current state ({})",
                    state_text(other)
                ))
            }
        };
        // RULE durable-vote (transitionToUnattachedVotedState writes quorum-state before the
        // VoteResponse goes out): off, the vote lives in memory only.
        if io.rules.durable_vote {
            self.durable_transition_to(new_state, io);
        } else {
            self.memory_transition_to(new_state, io);
        }
        Ok(())
    }

    /// `transitionToFollower(epoch, leaderId)`.
    pub fn transition_to_follower(
        &mut self,
        epoch: i32,
        leader_id: i32,
        io: &mut RaftIo,
    ) -> TransitionResult {
        let current = self.epoch();
        if leader_id == self.local.id {
            return Err(format!(
                "Cannot transition to Follower with leader {leader_id} and epoch {epoch} since it matches the local broker.id {}",
                self.local.id
            ));
        }
        let same_epoch_illegal = epoch == current
            && matches!(self.state, EpochState::Follower(_) | EpochState::Leader(_));
        if epoch < current || same_epoch_illegal {
            return Err(format!(
                "Cannot transition to Follower with leader {leader_id} and epoch {epoch} from state {}",
                state_text(&self.state)
            ));
        }
        let port = self.voter_port(leader_id).ok_or_else(|| {
            format!("Cannot transition to Follower of {leader_id}: its endpoints are not known")
        })?;
        let voted_key = if epoch == current {
            self.state.voted_key()
        } else {
            None
        };
        let now = io.now_ms;
        let new_state = EpochState::Follower(FollowerState {
            epoch,
            leader_id,
            leader_port: port,
            voted_key,
            voters: self.voter_ids(),
            fetch_timeout_ms: self.config.fetch_timeout_ms,
            fetch_deadline_ms: now + self.config.fetch_timeout_ms,
            has_fetched_from_leader: false,
            high_watermark: self.state.high_watermark(),
            update_voter_deadline_ms: now + 2 * self.config.fetch_timeout_ms,
            has_updated_leader: false,
        });
        self.durable_transition_to(new_state, io);
        Ok(())
    }

    /// `transitionToProspective()`: memory only, same epoch.
    pub fn transition_to_prospective(&mut self, io: &mut RaftIo) -> TransitionResult {
        if !self.is_voter() {
            return Err(format!(
                "Cannot transition to Prospective since the local id ({}) is not one of the voters {:?}",
                self.local.id,
                self.voter_ids()
            ));
        }
        if matches!(
            self.state,
            EpochState::Leader(_) | EpochState::Prospective(_)
        ) {
            return Err(format!(
                "Cannot transition to Prospective since the local broker.id={} is state {}",
                self.local.id,
                state_text(&self.state)
            ));
        }
        let leader_port = match &self.state {
            EpochState::Follower(f) => Some(f.leader_port),
            _ => None,
        };
        let leader_id = match &self.state {
            EpochState::Resigned(_) => None,
            s => s.leader_id(),
        };
        let mut e = EpochElection::new(&self.voter_keys());
        e.record_granted(self.local.id);
        let timeout = self.random_election_timeout(io);
        let new_state = EpochState::Prospective(ProspectiveState {
            epoch: self.epoch(),
            leader_id,
            leader_port,
            voted_key: self.state.voted_key(),
            epoch_election: e,
            election_timeout_ms: timeout,
            election_deadline_ms: io.now_ms + timeout,
            high_watermark: self.state.high_watermark(),
        });
        self.memory_transition_to(new_state, io);
        Ok(())
    }

    /// `transitionToCandidate()`: only from Prospective; epoch + 1, voting for itself.
    pub fn transition_to_candidate(&mut self, io: &mut RaftIo) -> TransitionResult {
        if !(matches!(self.state, EpochState::Prospective(_)) && self.is_voter()) {
            return Err(format!(
                "Cannot transition to Candidate since the local broker.id={} is state {}",
                self.local.id,
                state_text(&self.state)
            ));
        }
        let mut e = EpochElection::new(&self.voter_keys());
        e.record_granted(self.local.id);
        let timeout = self.random_election_timeout(io);
        let new_state = EpochState::Candidate(CandidateState {
            local: self.local,
            epoch: self.epoch() + 1,
            epoch_election: e,
            election_timeout_ms: timeout,
            election_deadline_ms: io.now_ms + timeout,
            high_watermark: self.state.high_watermark(),
        });
        self.durable_transition_to(new_state, io);
        Ok(())
    }

    /// `transitionToLeader(epochStartOffset)`: only from a Candidate that won.
    pub fn transition_to_leader(
        &mut self,
        epoch_start_offset: i64,
        io: &mut RaftIo,
    ) -> TransitionResult {
        let granting = match &self.state {
            EpochState::Candidate(c) if c.epoch_election.is_vote_granted() => {
                c.epoch_election.granting_voters()
            }
            EpochState::Candidate(_) => {
                return Err("Cannot become leader without majority votes granted".into())
            }
            other => {
                return Err(format!(
                    "Cannot transition to Leader from current state {}",
                    state_text(other)
                ))
            }
        };
        let port = self.voter_port(self.local.id).unwrap_or(0);
        let new_state = EpochState::Leader(LeaderState::new(
            self.local,
            port,
            self.epoch(),
            epoch_start_offset,
            &self.voter_keys(),
            granting,
            self.config.fetch_timeout_ms,
            io.now_ms,
        ));
        self.durable_transition_to(new_state, io);
        Ok(())
    }

    /// `transitionToResigned(preferredSuccessors)`: memory only, from Leader.
    pub fn transition_to_resigned(
        &mut self,
        preferred_successors: Vec<i32>,
        io: &mut RaftIo,
    ) -> TransitionResult {
        let hw = match &self.state {
            EpochState::Leader(l) => l.high_watermark,
            other => {
                return Err(format!(
                    "Invalid transition to Resigned state from {}",
                    state_text(other)
                ))
            }
        };
        let timeout = self.random_election_timeout(io);
        let keys = self.voter_keys();
        let preferred_successors = preferred_successors
            .iter()
            .filter_map(|id| keys.iter().find(|k| k.id == *id).copied())
            .collect();
        let new_state = EpochState::Resigned(ResignedState {
            local_id: self.local.id,
            epoch: self.epoch(),
            voters: self.voter_ids(),
            election_timeout_ms: timeout,
            election_deadline_ms: io.now_ms + timeout,
            unacked_voters: self.remote_voter_ids(),
            preferred_successors,
            high_watermark: hw,
        });
        self.memory_transition_to(new_state, io);
        Ok(())
    }
}

/// The `toString` of a state.
pub fn state_text(s: &EpochState) -> String {
    s.to_string()
}
