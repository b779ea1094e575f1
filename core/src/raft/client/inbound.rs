//! Inbound messages: `handleRequest` and `handleResponse` dispatch to each RPC's handler;
//! `maybeHandleCommonResponse` deals with what every response may say of the epoch and leader.

use super::{KafkaRaftClient, RaftResult};
use crate::common::protocol::Errors;
use crate::raft::io::RaftIo;
use crate::raft::messages::*;

impl KafkaRaftClient {
    /// Handle one inbound message from node `from`.
    pub fn handle(&mut self, from: i32, message: RaftMessage, io: &mut RaftIo) -> RaftResult<()> {
        match message {
            RaftMessage::Request {
                correlation_id,
                body,
            } => self.handle_request(from, correlation_id, body, io),
            RaftMessage::Response {
                correlation_id,
                body,
            } => self.handle_response(from, correlation_id, body, io),
        }
    }

    /// `handleRequest`: answer a request (a Fetch may be parked instead, answered later).
    fn handle_request(
        &mut self,
        from: i32,
        correlation_id: u64,
        body: RaftRequest,
        io: &mut RaftIo,
    ) -> RaftResult<()> {
        let response = match body {
            RaftRequest::Vote(r) => RaftResponse::Vote(self.handle_vote_request(r, io)?),
            RaftRequest::BeginQuorumEpoch(r) => {
                RaftResponse::BeginQuorumEpoch(self.handle_begin_quorum_epoch(r, io)?)
            }
            RaftRequest::EndQuorumEpoch(r) => {
                RaftResponse::EndQuorumEpoch(self.handle_end_quorum_epoch(r, io)?)
            }
            RaftRequest::Fetch(r) => {
                match self.handle_fetch_request(from, correlation_id, r, io)? {
                    Some(resp) => RaftResponse::Fetch(resp),
                    None => return Ok(()),
                }
            }
            RaftRequest::FetchSnapshot(r) => {
                RaftResponse::FetchSnapshot(self.handle_fetch_snapshot_request(r, io))
            }
            RaftRequest::AddRaftVoter(r) => {
                match self.handle_add_voter_request(from, correlation_id, r, io) {
                    Some(resp) => RaftResponse::AddRaftVoter(resp),
                    None => return Ok(()),
                }
            }
            RaftRequest::RemoveRaftVoter(r) => {
                match self.handle_remove_voter_request(from, correlation_id, r, io) {
                    Some(resp) => RaftResponse::RemoveRaftVoter(resp),
                    None => return Ok(()),
                }
            }
            RaftRequest::UpdateRaftVoter(r) => {
                match self.handle_update_voter_request(from, correlation_id, r, io) {
                    Some(resp) => RaftResponse::UpdateRaftVoter(resp),
                    None => return Ok(()),
                }
            }
            RaftRequest::ApiVersions => {
                RaftResponse::ApiVersions(self.handle_api_versions_request())
            }
        };
        self.respond(from, correlation_id, response, io);
        Ok(())
    }

    /// `handleResponse`: a response still awaited goes to its handler, whose success or
    /// failure the connection then records (a failure backs off).
    fn handle_response(
        &mut self,
        from: i32,
        correlation_id: u64,
        body: RaftResponse,
        io: &mut RaftIo,
    ) -> RaftResult<()> {
        if !self.requests.is_response_expected(from, correlation_id) {
            return Ok(());
        }
        let now = io.now_ms;
        let success = match body {
            RaftResponse::Vote(r) => self.handle_vote_response(from, r, io)?,
            RaftResponse::BeginQuorumEpoch(r) => {
                self.handle_begin_quorum_epoch_response(from, r, io)?
            }
            RaftResponse::EndQuorumEpoch(r) => {
                self.handle_end_quorum_epoch_response(from, r, io)?
            }
            RaftResponse::Fetch(r) => self.handle_fetch_response(from, r, io)?,
            RaftResponse::FetchSnapshot(r) => self.handle_fetch_snapshot_response(from, r, io)?,
            RaftResponse::ApiVersions(r) => self.handle_api_versions_response(from, r, io),
            RaftResponse::UpdateRaftVoter(r) => self.handle_update_voter_response(r, io)?,
            RaftResponse::AddRaftVoter(r) | RaftResponse::RemoveRaftVoter(r) => {
                self.handle_auto_join_response(r, io)
            }
            RaftResponse::Failed {
                api: crate::common::api_keys::ApiKeys::ApiVersions,
                error,
            } => self.handle_api_versions_response(
                from,
                crate::raft::messages::ApiVersionsResponse {
                    error,
                    kraft_versions: None,
                },
                io,
            ),
            RaftResponse::Failed { .. } => false,
        };
        // A transition resets every connection; only record the result if still awaited.
        if self.requests.is_response_expected(from, correlation_id) {
            self.requests
                .on_response_result(from, success, now, self.config.retry_backoff_ms);
        }
        Ok(())
    }

    /// `validateVoterOnlyRequest`: a request from an older epoch is fenced.
    pub(super) fn validate_voter_only_request(&self, request_epoch: i32) -> Option<Errors> {
        if request_epoch < self.quorum.epoch() {
            Some(Errors::FencedLeaderEpoch)
        } else {
            None
        }
    }

    /// `maybeHandleCommonResponse`: Some(success) when the response was fully handled here.
    pub(super) fn maybe_handle_common_response(
        &mut self,
        error: Errors,
        leader_id: i32,
        epoch: i32,
        io: &mut RaftIo,
    ) -> RaftResult<Option<bool>> {
        let leader = (leader_id >= 0).then_some(leader_id);
        if epoch < self.quorum.epoch() || error == Errors::UnknownLeaderEpoch {
            return Ok(Some(true));
        }
        if epoch > self.quorum.epoch()
            || error == Errors::FencedLeaderEpoch
            || error == Errors::NotLeaderOrFollower
        {
            self.maybe_transition(leader, epoch, io)?;
            return Ok(Some(true));
        }
        if let Some(l) = leader {
            if epoch == self.quorum.epoch()
                && l != self.local_id()
                && self.quorum.leader_id().is_none()
            {
                self.transition_to_follower(epoch, l, io)?;
                return Ok(if error == Errors::None {
                    None
                } else {
                    Some(true)
                });
            }
        }
        if error == Errors::BrokerNotAvailable || error == Errors::RequestTimedOut {
            return Ok(Some(false));
        }
        Ok(None)
    }
}
