//! Vote and PreVote: `handleVoteRequest` grants or rejects a vote, `handleVoteResponse`
//! counts them toward candidacy or leadership.

use super::{KafkaRaftClient, RaftResult};
use crate::common::node_log::Level;
use crate::common::protocol::Errors;
use crate::common::uuid::Uuid;
use crate::raft::io::RaftIo;
use crate::raft::messages::*;
use crate::raft::replica_key::ReplicaKey;
use crate::raft::state::EpochState;

impl KafkaRaftClient {
    /// `handleVoteRequest`: grant or reject a vote or pre-vote.
    pub(super) fn handle_vote_request(
        &mut self,
        r: VoteRequest,
        io: &mut RaftIo,
    ) -> RaftResult<VoteResponse> {
        let reject = |c: &Self, error| VoteResponse {
            error,
            leader_epoch: c.quorum.epoch(),
            leader_id: c.leader_or_sentinel(),
            vote_granted: false,
            pre_vote: r.pre_vote,
        };
        let illegal = if r.pre_vote {
            r.last_offset.epoch > r.replica_epoch
        } else {
            r.last_offset.epoch >= r.replica_epoch
        };
        if r.last_offset.offset < 0 || r.last_offset.epoch < 0 || illegal {
            self.log(
                io,
                Level::Info,
                format!(
                    "Received a vote request from replica {} with illegal epoch {}, last epoch {}, preVote={}",
                    r.replica_id, r.replica_epoch, r.last_offset.epoch, r.pre_vote
                ),
            );
            return Ok(reject(self, Errors::None));
        }
        if let Some(e) = self.validate_voter_only_request(r.replica_epoch) {
            return Ok(reject(self, e));
        }
        if r.replica_epoch > self.quorum.epoch() {
            self.transition_to_unattached(r.replica_epoch, None, io)?;
        }
        let candidate = self
            .quorum
            .voters
            .node(r.replica_id)
            .map(|v| v.key)
            .unwrap_or(ReplicaKey {
                id: r.replica_id,
                directory_id: None,
            });
        // RULE vote-log-check (isLogUpToDate): off, every candidate's log counts as up to date.
        let up_to_date = !io.rules.vote_log_check || r.last_offset >= self.end_offset(io);
        let granted = self
            .quorum
            .state
            .can_grant_vote(candidate, up_to_date, r.pre_vote);
        if !r.pre_vote && granted {
            let not_voted = match &self.quorum.state {
                EpochState::Unattached(u) => u.voted_key.is_none(),
                EpochState::Prospective(p) => p.voted_key.is_none(),
                _ => false,
            };
            if not_voted {
                self.add_voted_state(r.replica_epoch, candidate, io)?;
            }
        }
        self.log(
            io,
            Level::Info,
            format!(
                "Vote request {} with epoch {} is {}",
                vote_request_text(&self.cluster_id, &r, candidate, self.quorum.local),
                r.replica_epoch,
                if granted { "granted" } else { "rejected" }
            ),
        );
        Ok(VoteResponse {
            error: Errors::None,
            leader_epoch: self.quorum.epoch(),
            leader_id: self.leader_or_sentinel(),
            vote_granted: granted,
            pre_vote: r.pre_vote,
        })
    }

    /// `handleVoteResponse`: count the vote toward candidacy (pre-vote) or leadership.
    pub(super) fn handle_vote_response(
        &mut self,
        from: i32,
        r: VoteResponse,
        io: &mut RaftIo,
    ) -> RaftResult<bool> {
        if let Some(done) =
            self.maybe_handle_common_response(r.error, r.leader_id, r.leader_epoch, io)?
        {
            return Ok(done);
        }
        if r.error != Errors::None {
            return Ok(false);
        }
        match &mut self.quorum.state {
            EpochState::Prospective(p) if r.pre_vote => {
                if r.vote_granted {
                    p.epoch_election.record_granted(from);
                    if p.epoch_election.is_vote_granted() {
                        self.transition_to_candidate(io)?;
                    }
                } else {
                    p.epoch_election.record_rejected(from);
                    if p.epoch_election.is_vote_rejected() {
                        let text = p.epoch_election.to_string();
                        self.log(
                            io,
                            Level::Info,
                            format!("Insufficient remaining votes to become candidate. Current epoch election state is {text}. "),
                        );
                        self.prospective_transition_after_election_loss(io)?;
                    }
                }
            }
            EpochState::Candidate(c) if !r.pre_vote => {
                if r.vote_granted {
                    c.epoch_election.record_granted(from);
                    if c.epoch_election.is_vote_granted() {
                        self.on_become_leader(io)?;
                    }
                } else {
                    c.epoch_election.record_rejected(from);
                    // maybeHandleElectionLoss: logged for every rejection once the election is
                    // lost; the timer is neither reset nor shortened.
                    if c.epoch_election.is_vote_rejected() {
                        let text = c.epoch_election.to_string();
                        let remaining = c.election_deadline_ms.saturating_sub(io.now_ms);
                        self.log(
                            io,
                            Level::Info,
                            format!("Insufficient remaining votes to become leader. Candidate will wait the remaining election timeout ({remaining}) before transitioning back to Prospective. Current epoch election state is {text}."),
                        );
                    }
                }
            }
            _ => {}
        }
        Ok(true)
    }
}

/// The VoteRequestData text Kafka logs with a vote decision.
fn vote_request_text(
    cluster_id: &str,
    r: &VoteRequest,
    candidate: ReplicaKey,
    voter: ReplicaKey,
) -> String {
    let dir = |k: ReplicaKey| k.directory_id.unwrap_or(Uuid::ZERO).to_string();
    format!(
        "VoteRequestData(clusterId='{cluster_id}', voterId={}, topics=[TopicData(topicName='__cluster_metadata', partitions=[PartitionData(partitionIndex=0, replicaEpoch={}, replicaId={}, replicaDirectoryId={}, voterDirectoryId={}, lastOffsetEpoch={}, lastOffset={}, preVote={})])])",
        r.voter_id,
        r.replica_epoch,
        r.replica_id,
        dir(candidate),
        dir(voter),
        r.last_offset.epoch,
        r.last_offset.offset,
        r.pre_vote
    )
}
