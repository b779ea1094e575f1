//! KIP-853's UpdateRaftVoter: on the leader, the ApiVersions round trip to the voter and its
//! new entry (a VotersRecord with kraft.version 1, the leader's in-memory set with 0;
//! raft/.../internals/UpdateVoterHandler.java); on a voter following it, the entry sent when
//! it must be updated, and the answer (KafkaRaftClient.pollFollowerAsVoter,
//! handleUpdateVoterResponse); and an auto-joining observer's answers.

use super::voters::optional;
use super::KafkaRaftClient;
use crate::common::node_log::Level;
use crate::common::protocol::Errors;
use crate::raft::change_voter::{PendingReply, UpdateVoterHandlerState, VoterChange};
use crate::raft::io::RaftIo;
use crate::raft::messages::{
    ApiVersionsResponse, RaftRequest, RaftResponse, UpdateRaftVoterRequest,
    UpdateRaftVoterResponse, VoterChangeResponse,
};
use crate::raft::state::EpochState;
use crate::raft::voter_set::{VoterNode, SUPPORTED_KRAFT_VERSIONS};

/// The logger of UpdateVoterHandler.
const UPDATE_VOTER_LOGGER: &str = "org.apache.kafka.raft.internals.UpdateVoterHandler";

impl KafkaRaftClient {
    /// `handleUpdateVoterRequest` (KafkaRaftClient.java:2494-2557, UpdateVoterHandler.java:
    /// 104-248): the answer now, or `None` while the ApiVersions round trip to the voter runs.
    pub(super) fn handle_update_voter_request(
        &mut self,
        from: i32,
        correlation_id: u64,
        r: UpdateRaftVoterRequest,
        io: &mut RaftIo,
    ) -> Option<UpdateRaftVoterResponse> {
        let leader = self.leader_and_epoch();
        let answer = |error: Errors| UpdateRaftVoterResponse {
            error,
            leader_epoch: leader.1,
            leader_id: leader.0,
        };
        if r.cluster_id != self.cluster_id {
            return Some(answer(Errors::InconsistentClusterId));
        }
        if let Some(e) = self.validate_leader_only_request(r.current_leader_epoch) {
            return Some(answer(e));
        }
        let (lo, hi) = r.kraft_versions;
        if r.voter.directory_id.is_none() || lo < 0 || hi < 0 || hi < lo {
            return Some(answer(Errors::InvalidRequest));
        }
        let now = io.now_ms;
        let EpochState::Leader(l) = &mut self.quorum.state else {
            return Some(answer(Errors::NotLeaderOrFollower));
        };
        if let Some(done) = l.change_voter.maybe_expire(now, leader) {
            self.complete(vec![done], io);
        }
        let EpochState::Leader(l) = &self.quorum.state else {
            return Some(answer(Errors::NotLeaderOrFollower));
        };
        if l.change_voter.has_pending_operation() || l.high_watermark.is_none() {
            return Some(answer(Errors::RequestTimedOut));
        }
        if r.port == 0 {
            return Some(answer(Errors::InvalidRequest));
        }
        if !self.requests.is_ready(r.voter.id, now) {
            return Some(answer(Errors::RequestTimedOut));
        }
        self.send_request(r.voter.id, RaftRequest::ApiVersions, io);
        let state = UpdateVoterHandlerState {
            voter: VoterNode {
                key: r.voter,
                port: r.port,
                supported_kraft: r.kraft_versions,
            },
            last_offset: None,
            deadline_ms: now + self.config.request_timeout_ms,
            reply: Some(PendingReply {
                to: from,
                correlation_id,
            }),
        };
        self.start_change(VoterChange::Update(state), io);
        None
    }

    /// UpdateVoterHandler.handleApiVersionsResponse (UpdateVoterHandler.java:250-305).
    pub(super) fn update_voter_api_versions(
        &mut self,
        from: i32,
        r: ApiVersionsResponse,
        io: &mut RaftIo,
    ) -> bool {
        let leader = self.leader_and_epoch();
        let prefix = self.prefix.clone();
        let EpochState::Leader(l) = &mut self.quorum.state else {
            return true;
        };
        let Some(VoterChange::Update(current)) = l.change_voter.pending.clone() else {
            return true;
        };
        let key = current.voter.key;
        let at = current.voter.endpoints_text();
        if current.last_offset.is_some() || from != key.id {
            io.log_line(
                Level::Info,
                &prefix,
                UPDATE_VOTER_LOGGER,
                format!(
                    "API_VERSIONS response is not expected from {from}: voterKey is {key}, lastOffset is {}",
                    optional(current.last_offset)
                ),
            );
            return true;
        }
        if r.error != Errors::None {
            io.log_line(
                Level::Info,
                &prefix,
                UPDATE_VOTER_LOGGER,
                format!(
                    "Aborting update voter operation for {key} at {at} since API_VERSIONS returned an error {}",
                    r.error.name()
                ),
            );
            let done = l
                .change_voter
                .reset(Errors::RequestTimedOut, None, None, leader);
            self.complete(done.into_iter().collect(), io);
            return false;
        }
        if r.kraft_versions != Some(current.voter.supported_kraft) {
            let (lo, hi) = current.voter.supported_kraft;
            io.log_line(
                Level::Error,
                &prefix,
                UPDATE_VOTER_LOGGER,
                format!(
                    "The supported kraft version from UpdateVoters SupportedVersionRange[min_version:{lo}, max_version:{hi}] doesn't match the supported kraft version from ApiVersions {}",
                    r.kraft_versions.map_or("Optional.empty".to_string(), |(a, b)| format!(
                        "Optional[SupportedFeatureKey(name='kraft.version', minVersion={a}, maxVersion={b})]"
                    ))
                ),
            );
            let done = l
                .change_voter
                .reset(Errors::InvalidRequest, None, None, leader);
            self.complete(done.into_iter().collect(), io);
            return true;
        }
        self.complete_update_voter(current, io);
        true
    }

    /// `completeUpdateVoter` (UpdateVoterHandler.java:307-413): with kraft.version 1 a new
    /// VotersRecord, answered at once and pending until it commits; with kraft.version 0 the
    /// leader's in-memory voter set (for an upgrade to kraft.version 1).
    fn complete_update_voter(&mut self, current: UpdateVoterHandlerState, io: &mut RaftIo) {
        let now = io.now_ms;
        let leader = self.leader_and_epoch();
        let prefix = self.prefix.clone();
        let kraft_version = self.partition_state.last_kraft_version();
        let entry = self
            .partition_state
            .last_voter_set_entry()
            .map(|(o, s)| (o, s.clone()));
        let EpochState::Leader(l) = &mut self.quorum.state else {
            return;
        };
        let key = current.voter.key;
        let (lo, hi) = current.voter.supported_kraft;
        if (kraft_version as i16) < lo || (kraft_version as i16) > hi {
            io.log_line(
                Level::Info,
                &prefix,
                UPDATE_VOTER_LOGGER,
                format!(
                    "Aborting update voter operation for {key} at {} since kraft.version range SupportedVersionRange[min_version:{lo}, max_version:{hi}] doesn't match KRAFT_VERSION_{kraft_version}",
                    current.voter.endpoints_text()
                ),
            );
            let done = l
                .change_voter
                .reset(Errors::InvalidRequest, None, None, leader);
            self.complete(done.into_iter().collect(), io);
            return;
        }
        let hw = l.high_watermark.unwrap_or(-1);
        let voters = if kraft_version >= 1 {
            entry.filter(|(o, _)| *o < hw).map(|(_, s)| s)
        } else {
            l.volatile_voters.clone()
        };
        let Some(voters) = voters else {
            io.log_line(
                Level::Info,
                &prefix,
                UPDATE_VOTER_LOGGER,
                format!("Unable to read the current voter set with kraft version KRAFT_VERSION_{kraft_version}"),
            );
            let done = l
                .change_voter
                .reset(Errors::RequestTimedOut, None, None, leader);
            self.complete(done.into_iter().collect(), io);
            return;
        };
        let updated = if kraft_version >= 1 {
            voters.update_voter(current.voter)
        } else {
            voters.update_voter_ignoring_directory_id(current.voter)
        };
        let Some(updated) = updated else {
            let done = l
                .change_voter
                .reset(Errors::VoterNotFound, None, None, leader);
            self.complete(done.into_iter().collect(), io);
            return;
        };
        if kraft_version >= 1 {
            let offset = self.append_voters_record(&updated, io);
            let EpochState::Leader(l) = &mut self.quorum.state else {
                return;
            };
            l.update_check_quorum_for_following_voter(key.id, now);
            let mut reply = None;
            if let Some(VoterChange::Update(u)) = &mut l.change_voter.pending {
                u.last_offset = offset;
                reply = u.reply.take();
            }
            if let Some(reply) = reply {
                self.respond(
                    reply.to,
                    reply.correlation_id,
                    RaftResponse::UpdateRaftVoter(UpdateRaftVoterResponse {
                        error: Errors::None,
                        leader_epoch: leader.1,
                        leader_id: leader.0,
                    }),
                    io,
                );
            }
        } else {
            io.log_line(
                Level::Info,
                &prefix,
                UPDATE_VOTER_LOGGER,
                format!("Updated in-memory voters from {voters} to {updated}"),
            );
            l.volatile_voters = Some(updated);
            l.update_check_quorum_for_following_voter(key.id, now);
            let done = l.change_voter.reset(Errors::None, None, None, leader);
            self.complete(done.into_iter().collect(), io);
        }
    }

    /// This replica as a voter node: its key, CONTROLLER port and kraft.version range.
    pub(super) fn local_voter_node(&self) -> VoterNode {
        VoterNode::new(self.quorum.local, self.local_port)
    }

    /// `shouldSendUpdateVoteRequest` (KafkaRaftClient.java:3317-3333): with kraft.version 1,
    /// when the log's entry for this voter differs from it; with 0, once per leader.
    pub(super) fn should_send_update_voter_request(&self) -> bool {
        let EpochState::Follower(f) = &self.quorum.state else {
            return false;
        };
        if self.partition_state.last_kraft_version() >= 1 {
            self.partition_state
                .last_voter_set()
                .voter_node_needs_update(&self.local_voter_node())
        } else {
            !f.has_updated_leader
        }
    }

    /// `maybeSendUpdateVoterRequest`: (whether it was sent, the time to wait).
    pub(super) fn maybe_send_update_voter_request(
        &mut self,
        leader: i32,
        io: &mut RaftIo,
    ) -> (bool, u64) {
        let now = io.now_ms;
        if !self.requests.is_ready(leader, now) {
            return (
                false,
                self.requests.remaining_request_time_ms(leader, now).max(1),
            );
        }
        let body = RaftRequest::UpdateRaftVoter(UpdateRaftVoterRequest {
            cluster_id: self.cluster_id.clone(),
            current_leader_epoch: self.quorum.epoch(),
            voter: self.quorum.local,
            port: self.local_port,
            kraft_versions: SUPPORTED_KRAFT_VERSIONS,
        });
        self.send_request(leader, body, io);
        (true, self.config.request_timeout_ms)
    }

    /// `handleUpdateVoterResponse` (KafkaRaftClient.java:2560-2606).
    pub(super) fn handle_update_voter_response(
        &mut self,
        r: UpdateRaftVoterResponse,
        io: &mut RaftIo,
    ) -> super::RaftResult<bool> {
        if let Some(handled) =
            self.maybe_handle_common_response(r.error, r.leader_id, r.leader_epoch, io)?
        {
            return Ok(handled);
        }
        if matches!(r.error, Errors::None | Errors::UnsupportedVersion) {
            if let EpochState::Follower(f) = &mut self.quorum.state {
                f.has_updated_leader = true;
                f.reset_fetch_timeout_for_successful_fetch(io.now_ms);
            }
            return Ok(true);
        }
        self.log_unexpected_error(r.error, "UPDATE_RAFT_VOTER", io);
        Ok(false)
    }

    /// `handleAddVoterResponse` / `handleRemoveVoterResponse` of an observer that auto-joins
    /// (KafkaRaftClient.java:2356-2373, 2454-2470): done or refused for now, it backs off.
    pub(super) fn handle_auto_join_response(
        &mut self,
        r: VoterChangeResponse,
        io: &mut RaftIo,
    ) -> bool {
        if matches!(
            r.error,
            Errors::None | Errors::RequestTimedOut | Errors::DuplicateVoter | Errors::VoterNotFound
        ) {
            if let EpochState::Follower(f) = &mut self.quorum.state {
                f.reset_update_voter_set_period(io.now_ms);
            }
            return true;
        }
        self.log_unexpected_error(r.error, "ADD_RAFT_VOTER", io);
        false
    }

    /// `handleUnexpectedError`.
    fn log_unexpected_error(&self, error: Errors, api: &str, io: &mut RaftIo) {
        self.log(
            io,
            Level::Error,
            format!("Unexpected error {} in {api} response", error.name()),
        );
    }

    /// `shouldSendAddOrRemoveVoterRequest` (KafkaRaftClient.java:3373-3379): kraft.version 1,
    /// a controller, auto-join on, and the update period over.
    pub(super) fn should_send_add_or_remove_voter_request(&self, now_ms: u64) -> bool {
        self.partition_state.last_kraft_version() >= 1
            && self.can_become_voter
            && self.config.auto_join_enable
            && matches!(
                &self.quorum.state,
                EpochState::Follower(f) if f.has_update_voter_set_period_expired(now_ms)
            )
    }

    /// An observing controller's AddRaftVoter for itself (ackWhenCommitted false), or its
    /// RemoveRaftVoter of the entry its id has with another directory id:
    /// (whether it was sent, the time to wait).
    pub(super) fn maybe_send_auto_join_request(
        &mut self,
        leader: i32,
        io: &mut RaftIo,
    ) -> (bool, u64) {
        let now = io.now_ms;
        if !self.requests.is_ready(leader, now) {
            return (
                false,
                self.requests.remaining_request_time_ms(leader, now).max(1),
            );
        }
        let local = self.quorum.local;
        let voters = self.partition_state.last_voter_set();
        let body = match voters.node(local.id) {
            Some(old) => {
                RaftRequest::RemoveRaftVoter(crate::raft::messages::RemoveRaftVoterRequest {
                    cluster_id: self.cluster_id.clone(),
                    voter: old.key,
                })
            }
            None => RaftRequest::AddRaftVoter(crate::raft::messages::AddRaftVoterRequest {
                cluster_id: self.cluster_id.clone(),
                timeout_ms: self.config.request_timeout_ms,
                voter: local,
                port: Some(self.local_port),
                ack_when_committed: false,
            }),
        };
        self.send_request(leader, body, io);
        (true, self.config.request_timeout_ms)
    }
}

/// Why an upgrade of kraft.version was refused: the exception's class and message.
pub type UpgradeError = (&'static str, String);

impl KafkaRaftClient {
    /// `upgradeKRaftVersion` (KafkaRaftClient.java:3882-3900) and
    /// `LeaderState.maybeAppendUpgradedKRaftVersion` (LeaderState.java:456-589): on the leader,
    /// one control batch with KRaftVersion `version` and (when the in-memory set differs from
    /// the persisted one) the voter set every voter reported with UpdateRaftVoter. Gives
    /// whether records were appended (false: nothing to do).
    pub fn upgrade_kraft_version(
        &mut self,
        version: u16,
        validate_only: bool,
        io: &mut RaftIo,
    ) -> Result<bool, UpgradeError> {
        let persisted_version = self.partition_state.last_kraft_version();
        let persisted_voters = self.partition_state.last_voter_set().clone();
        let prefix = self.prefix.clone();
        let EpochState::Leader(l) = &mut self.quorum.state else {
            return Err((
                "NotLeaderException",
                "Upgrade kraft version failed because the replica is not the current leader".into(),
            ));
        };
        let invalid = |m: String| ("InvalidUpdateVersionException", m);
        if let Some(pending) = l.upgraded_kraft_version {
            return if pending == version {
                Ok(false)
            } else {
                Err(invalid(format!(
                    "Invalid concurrent upgrade of kraft.version from version KRAFT_VERSION_{pending} to KRAFT_VERSION_{version}"
                )))
            };
        }
        if persisted_version == version {
            return Ok(false);
        }
        if persisted_version > version {
            return Err(invalid(format!(
                "Invalid upgrade of kraft.version from version KRAFT_VERSION_{persisted_version} to KRAFT_VERSION_{version} because the new version is a downgrade"
            )));
        }
        let Some(in_memory) = l.volatile_voters.clone() else {
            return Err(invalid(format!(
                "Invalid upgrade of kraft.version from version KRAFT_VERSION_{persisted_version} to KRAFT_VERSION_{version}"
            )));
        };
        if in_memory.voter_ids() != persisted_voters.voter_ids() {
            return Err(("IllegalStateException", format!(
                "Unable to update kraft.version to KRAFT_VERSION_{version} due to missing voters {:?} compared to {:?}",
                in_memory.voter_ids(),
                persisted_voters.voter_ids()
            )));
        }
        if !in_memory.supports_version(version) {
            io.log_line(
                Level::Info,
                &prefix,
                crate::raft::io::loggers::LEADER_STATE,
                format!(
                    "Not all voters support kraft version KRAFT_VERSION_{version}: {in_memory}"
                ),
            );
            return Err(invalid(format!(
                "Invalid upgrade of kraft.version to KRAFT_VERSION_{version} because not all of the voters support it"
            )));
        }
        if in_memory
            .voter_keys()
            .iter()
            .any(|k| k.directory_id.is_none())
        {
            return Err((
                "IllegalStateException",
                format!("Directory id must be known for all of the voters: {in_memory}"),
            ));
        }
        if validate_only {
            return Ok(true);
        }
        l.upgraded_kraft_version = Some(version);
        let Some(acc) = self.accumulator.as_mut() else {
            return Ok(false);
        };
        let mut records = vec![crate::raft::batch::Record::KRaftVersion {
            kraft_version: version,
        }];
        io.log_line(
            Level::Info,
            &prefix,
            crate::raft::io::loggers::LEADER_STATE,
            format!("Appended kraft.version KRAFT_VERSION_{version} to the batch accumulator"),
        );
        if in_memory != persisted_voters {
            io.log_line(
                Level::Info,
                &prefix,
                crate::raft::io::loggers::LEADER_STATE,
                format!("Appended voter set {in_memory} to the batch accumulator"),
            );
            records.push(crate::raft::batch::Record::KRaftVoters {
                voters: in_memory.to_record(),
            });
        }
        acc.append_control(records);
        Ok(true)
    }
}
