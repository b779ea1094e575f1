//! The state transitions with their client-side effects (Kafka's `transitionTo*` and
//! `onBecome*`): QuorumState changes the state, the client resets its connections, starts or
//! abandons the leader's accumulator and answers parked fetches; `maybeTransition` follows
//! what a request or response says of the leader.

use super::{KafkaRaftClient, RaftResult};
use crate::common::protocol::Errors;
use crate::raft::accumulator::BatchAccumulator;
use crate::raft::batch::Record;
use crate::raft::io::RaftIo;
use crate::raft::messages::*;
use crate::raft::quorum_state::TransitionResult;
use crate::raft::replica_key::{optional_int, ReplicaKey};
use crate::raft::state::EpochState;

impl KafkaRaftClient {
    /// `transitionToProspective`, then `onBecomeProspective`.
    pub(super) fn transition_to_prospective(&mut self, io: &mut RaftIo) -> RaftResult<()> {
        self.quorum.transition_to_prospective(io)?;
        self.on_become_prospective(io)
    }

    /// `onBecomeProspective`: with every pre-vote already granted (a single voter) go on to
    /// candidate; else reset the connections.
    fn on_become_prospective(&mut self, io: &mut RaftIo) -> RaftResult<()> {
        let granted = match &self.quorum.state {
            EpochState::Prospective(p) => p.epoch_election.is_vote_granted(),
            _ => false,
        };
        // RULE prevote (KIP-996 ProspectiveState): off, no pre-votes are asked; the node
        // bumps its epoch as a Candidate at once, as Raft without PreVote does.
        if granted || !io.rules.prevote {
            self.transition_to_candidate(io)
        } else {
            self.reset_connections();
            Ok(())
        }
    }

    /// `transitionToCandidate`, then `onBecomeCandidate`.
    pub(super) fn transition_to_candidate(&mut self, io: &mut RaftIo) -> RaftResult<()> {
        self.quorum.transition_to_candidate(io)?;
        self.on_become_candidate(io)
    }

    /// `onBecomeCandidate`: with every vote already granted become leader; else reset the
    /// connections.
    pub(super) fn on_become_candidate(&mut self, io: &mut RaftIo) -> RaftResult<()> {
        let granted = match &self.quorum.state {
            EpochState::Candidate(c) => c.epoch_election.is_vote_granted(),
            _ => false,
        };
        if granted {
            self.on_become_leader(io)
        } else {
            self.reset_connections();
            Ok(())
        }
    }

    /// `onBecomeLeader`: the leader state, a new accumulator and the start-of-epoch control
    /// records.
    pub(super) fn on_become_leader(&mut self, io: &mut RaftIo) -> RaftResult<()> {
        let end = io.disk.metadata_log.end_offset();
        self.quorum.transition_to_leader(end, io)?;
        let epoch = self.quorum.epoch();
        let mut acc = BatchAccumulator::new(
            epoch,
            end,
            self.config.append_linger_ms,
            self.config.max_records_per_batch,
        );
        // appendStartOfEpochControlRecords: LeaderChange, and on a log without a voters record
        // (kraft.version 1 from --initial-controllers) KRaftVersion and KRaftVoters.
        let granting = match &self.quorum.state {
            EpochState::Leader(l) => l.granting_voters.clone(),
            _ => Vec::new(),
        };
        let mut records = vec![Record::LeaderChange {
            leader_id: self.local_id(),
            voters: self.quorum.voter_ids(),
            granting_voters: granting,
        }];
        // LeaderState.appendStartOfEpochControlRecords (LeaderState.java:341-381): with
        // kraft.version 1, the KRaftVersion and the voter set again when the set is only in the
        // bootstrap checkpoint (offset -1) or the leader's own endpoint changed.
        let kraft_version = self.partition_state.last_kraft_version();
        if kraft_version >= 1 {
            let local = self.quorum.local;
            let at_checkpoint = self
                .partition_state
                .last_voter_set_entry()
                .is_some_and(|(offset, _)| offset == -1);
            let set = self.partition_state.last_voter_set().clone();
            let local_node = set.node(local.id).copied();
            let needs_update = local_node.is_some_and(|n| n.port != self.local_port());
            if at_checkpoint || needs_update {
                let updated = match local_node {
                    Some(n) => set
                        .update_voter(super::super::voter_set::VoterNode {
                            port: self.local_port(),
                            ..n
                        })
                        .unwrap_or(set),
                    None => set,
                };
                records.push(Record::KRaftVersion { kraft_version });
                records.push(Record::KRaftVoters {
                    voters: updated.to_record(),
                });
            }
        }
        acc.append_control(records);
        self.accumulator = Some(acc);
        // LeaderState's constructor (LeaderState.java:165-178): with kraft.version 0 the
        // leader keeps the static set, itself updated, in memory for an upgrade.
        if kraft_version == 0 {
            let set = self.partition_state.last_voter_set().clone();
            let updated = set
                .update_voter_ignoring_directory_id(self.local_voter_node())
                .unwrap_or(set);
            if let EpochState::Leader(l) = &mut self.quorum.state {
                l.volatile_voters = Some(updated);
            }
        }
        self.reset_connections();
        Ok(())
    }

    /// `transitionToUnattached`; a leader abandons its leadership.
    pub(super) fn transition_to_unattached(
        &mut self,
        epoch: i32,
        leader: Option<i32>,
        io: &mut RaftIo,
    ) -> RaftResult<()> {
        let was_leader = matches!(self.quorum.state, EpochState::Leader(_));
        self.abandon_voter_change(io);
        self.quorum.transition_to_unattached(epoch, leader, io)?;
        if was_leader {
            self.abandon_leadership(io);
        }
        self.reset_connections();
        Ok(())
    }

    /// `transitionToFollower`; a leader abandons its leadership.
    pub(super) fn transition_to_follower(
        &mut self,
        epoch: i32,
        leader: i32,
        io: &mut RaftIo,
    ) -> RaftResult<()> {
        let was_leader = matches!(self.quorum.state, EpochState::Leader(_));
        self.abandon_voter_change(io);
        self.quorum.transition_to_follower(epoch, leader, io)?;
        if was_leader {
            self.abandon_leadership(io);
        }
        self.reset_connections();
        Ok(())
    }

    /// `transitionToResigned` with the preferred successors.
    pub(super) fn transition_to_resigned(
        &mut self,
        successors: Vec<i32>,
        io: &mut RaftIo,
    ) -> RaftResult<()> {
        self.abandon_voter_change(io);
        self.abandon_leadership(io);
        self.quorum.transition_to_resigned(successors, io)?;
        self.reset_connections();
        Ok(())
    }

    /// Answer parked fetches with NOT_LEADER_OR_FOLLOWER and drop unwritten records.
    fn abandon_leadership(&mut self, io: &mut RaftIo) {
        let parked = std::mem::take(&mut self.fetch_purgatory);
        for p in parked {
            let resp = self.fetch_error_response(Errors::NotLeaderOrFollower, io);
            self.respond(p.from, p.correlation_id, RaftResponse::Fetch(resp), io);
        }
        self.accumulator = None;
    }

    /// `transitionToUnattachedVotedState`: record the vote for `candidate` in `epoch`.
    pub(super) fn add_voted_state(
        &mut self,
        epoch: i32,
        candidate: ReplicaKey,
        io: &mut RaftIo,
    ) -> TransitionResult {
        self.quorum.add_voted_state(epoch, candidate, io)
    }

    /// `maybeTransition(leaderId, epoch)`: follow what a request or response says of the leader.
    pub(super) fn maybe_transition(
        &mut self,
        leader: Option<i32>,
        epoch: i32,
        io: &mut RaftIo,
    ) -> RaftResult<()> {
        if !self.has_consistent_leader(epoch, leader) {
            return Err(format!(
                "Received request or response with leader {} and epoch {} which is inconsistent with current leader {} and epoch {}",
                optional_int(leader),
                epoch,
                optional_int(self.quorum.leader_id()),
                self.quorum.epoch()
            ));
        }
        if epoch > self.quorum.epoch() {
            match leader {
                Some(l) if l != self.local_id() => self.transition_to_follower(epoch, l, io),
                _ => self.transition_to_unattached(epoch, None, io),
            }
        } else if let Some(l) = leader {
            if l != self.local_id()
                && (self.quorum.leader_id().is_none() || !self.quorum.has_leader_endpoint())
                && !matches!(
                    self.quorum.state,
                    EpochState::Leader(_) | EpochState::Resigned(_)
                )
            {
                self.transition_to_follower(epoch, l, io)
            } else {
                Ok(())
            }
        } else {
            Ok(())
        }
    }

    /// `hasConsistentLeader`: a message's leader and epoch agree with what this replica knows.
    fn has_consistent_leader(&self, epoch: i32, leader: Option<i32>) -> bool {
        if leader == Some(self.local_id()) {
            return epoch != self.quorum.epoch()
                || matches!(
                    self.quorum.state,
                    EpochState::Leader(_) | EpochState::Resigned(_)
                );
        }
        epoch != self.quorum.epoch()
            || leader.is_none()
            || self.quorum.leader_id().is_none()
            || leader == self.quorum.leader_id()
            // A Resigned leader's election state names itself.
            || matches!(self.quorum.state, EpochState::Resigned(_))
    }

    /// `prospectiveTransitionAfterElectionLoss`: back to following the known leader, or
    /// unattached.
    pub(super) fn prospective_transition_after_election_loss(
        &mut self,
        io: &mut RaftIo,
    ) -> RaftResult<()> {
        let (epoch, leader, port) = match &self.quorum.state {
            EpochState::Prospective(p) => (p.epoch, p.leader_id, p.leader_port),
            _ => return Ok(()),
        };
        match (leader, port) {
            (Some(l), Some(_)) => self.transition_to_follower(epoch, l, io),
            _ => self.transition_to_unattached(epoch, leader, io),
        }
    }
}
