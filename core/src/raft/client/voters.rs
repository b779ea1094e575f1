//! KIP-853 on the leader: AddRaftVoter, RemoveRaftVoter and UpdateRaftVoter with their checks
//! in Kafka's code order (KafkaRaftClient.handleAddVoterRequest, raft/.../internals/
//! AddVoterHandler.java, RemoveVoterHandler.java, UpdateVoterHandler.java), the ApiVersions
//! round trip to a voter being added, the pending change's timer, its completion when the
//! VotersRecord commits, and the resignation of a leader that removed itself. A replica that
//! is not the leader answers ApiVersions.

use super::KafkaRaftClient;
use crate::common::node_log::Level;
use crate::common::protocol::Errors;
use crate::raft::change_voter::{
    AddVoterHandlerState, Completion, PendingReply, RemoveVoterHandlerState, VoterChange,
};
use crate::raft::io::RaftIo;
use crate::raft::messages::{
    AddRaftVoterRequest, ApiVersionsResponse, RaftRequest, RaftResponse, RemoveRaftVoterRequest,
    VoterChangeResponse,
};
use crate::raft::replica_key::ReplicaKey;
use crate::raft::state::EpochState;
use crate::raft::voter_set::{VoterNode, VoterSet, SUPPORTED_KRAFT_VERSIONS};

/// The logger of AddVoterHandler.
const ADD_VOTER_LOGGER: &str = "org.apache.kafka.raft.internals.AddVoterHandler";
/// The logger of RemoveVoterHandler.
const REMOVE_VOTER_LOGGER: &str = "org.apache.kafka.raft.internals.RemoveVoterHandler";

/// An AddRaftVoter or RemoveRaftVoter answer.
fn change(error: Errors, message: Option<String>) -> VoterChangeResponse {
    VoterChangeResponse {
        error,
        error_message: message,
    }
}

/// `Optional[N]` / `Optional.empty` as Java prints an optional offset.
pub(super) fn optional(v: Option<i64>) -> String {
    v.map_or("Optional.empty".to_string(), |o| format!("Optional[{o}]"))
}

/// `Endpoints(...)` of a CONTROLLER port.
fn endpoints(port: u16) -> String {
    VoterNode::new(
        ReplicaKey {
            id: 0,
            directory_id: None,
        },
        port,
    )
    .endpoints_text()
}

impl KafkaRaftClient {
    /// `validateLeaderOnlyRequest` (KafkaRaftClient.java:2801-2816).
    pub(super) fn validate_leader_only_request(&self, request_epoch: i32) -> Option<Errors> {
        let epoch = self.quorum.epoch();
        if request_epoch < epoch {
            Some(Errors::FencedLeaderEpoch)
        } else if request_epoch > epoch {
            Some(Errors::UnknownLeaderEpoch)
        } else if !self.quorum.is_voter() || !matches!(self.quorum.state, EpochState::Leader(_)) {
            Some(Errors::NotLeaderOrFollower)
        } else if self.shutdown.is_some() {
            Some(Errors::BrokerNotAvailable)
        } else {
            None
        }
    }

    /// The cluster-id check of every voter change (`hasValidClusterId`).
    fn cluster_id_error(&self, cluster_id: &str) -> Option<VoterChangeResponse> {
        (cluster_id != self.cluster_id).then(|| {
            change(
                Errors::InconsistentClusterId,
                Some(format!(
                    "The given id \"{cluster_id}\" doesn't match the cluster id \"{}\"",
                    self.cluster_id
                )),
            )
        })
    }

    /// (leader id, epoch) for UpdateRaftVoter answers.
    pub(super) fn leader_and_epoch(&self) -> (i32, i32) {
        (self.leader_or_sentinel(), self.quorum.epoch())
    }

    /// The checks AddVoter and RemoveVoter share, in AddVoterHandler's order (steps 1-4):
    /// no pending change, an established high watermark, kraft.version 1, the last voter set
    /// committed. `what` is `adding` or `removing`. Gives the HW and the last voter set.
    fn common_change_checks(
        &mut self,
        what: &str,
        io: &mut RaftIo,
    ) -> Result<(i64, VoterSet), VoterChangeResponse> {
        let now = io.now_ms;
        let leader = self.leader_and_epoch();
        let EpochState::Leader(l) = &mut self.quorum.state else {
            return Err(change(Errors::NotLeaderOrFollower, None));
        };
        // isOperationPending expires a change past its deadline first.
        if let Some(done) = l.change_voter.maybe_expire(now, leader) {
            self.complete(vec![done], io);
        }
        let EpochState::Leader(l) = &self.quorum.state else {
            return Err(change(Errors::NotLeaderOrFollower, None));
        };
        // RULE single-voter-change (isOperationPending): off, a change replaces the pending one
        // (which is answered UNKNOWN_SERVER_ERROR; its VotersRecord stays in the log).
        if l.change_voter.has_pending_operation() && io.rules.single_voter_change {
            return Err(change(
                Errors::RequestTimedOut,
                Some(
                    "Request timed out waiting for leader to handle previous voter change request"
                        .into(),
                ),
            ));
        }
        let Some(hw) = l.high_watermark else {
            return Err(change(
                Errors::RequestTimedOut,
                Some(
                    "Request timed out waiting for leader to establish HWM and fence previous voter changes"
                        .into(),
                ),
            ));
        };
        let kraft_version = self.partition_state.last_kraft_version();
        if kraft_version < 1 {
            return Err(change(
                Errors::UnsupportedVersion,
                Some(format!(
                    "Cluster doesn't support {what} voter because the kraft.version feature is {kraft_version}"
                )),
            ));
        }
        // RULE single-voter-change (AddVoterHandler/RemoveVoterHandler: no uncommitted
        // VotersRecord): off, a second change may start before the first commits.
        let entry = self.partition_state.last_voter_set_entry();
        let uncommitted = entry.is_none_or(|(offset, _)| offset >= hw);
        if uncommitted && io.rules.single_voter_change {
            return Err(change(
                Errors::RequestTimedOut,
                Some(format!(
                    "Request timed out waiting for voters to commit the latest voter change at {} with HWM {hw}",
                    optional(entry.map(|(o, _)| o))
                )),
            ));
        }
        Ok((hw, self.partition_state.last_voter_set().clone()))
    }

    /// `handleAddVoterRequest` (KafkaRaftClient.java:2254-2312, AddVoterHandler.java:124-245):
    /// the answer now, or `None` when it is owed until the change completes.
    pub(super) fn handle_add_voter_request(
        &mut self,
        from: i32,
        correlation_id: u64,
        r: AddRaftVoterRequest,
        io: &mut RaftIo,
    ) -> Option<VoterChangeResponse> {
        if let Some(e) = self.cluster_id_error(&r.cluster_id) {
            return Some(e);
        }
        if let Some(e) = self.validate_leader_only_request(self.quorum.epoch()) {
            return Some(change(e, None));
        }
        if r.voter.directory_id.is_none() {
            return Some(change(
                Errors::InvalidRequest,
                Some("Add voter request didn't include a valid voter".into()),
            ));
        }
        let Some(port) = r.port.filter(|p| *p > 0) else {
            return Some(change(
                Errors::InvalidRequest,
                Some(format!(
                    "Add voter request didn't include the endpoint ({}) for the default listener ListenerName(CONTROLLER)",
                    endpoints(0)
                )),
            ));
        };
        let (_, voters) = match self.common_change_checks("adding", io) {
            Ok(v) => v,
            Err(e) => return Some(e),
        };
        if voters.contains_id(r.voter.id) {
            return Some(change(
                Errors::DuplicateVoter,
                Some(format!(
                    "The voter id for {} is already part of the set of voters {}.",
                    r.voter,
                    voters.keys_text()
                )),
            ));
        }
        // ApiVersions to the new voter, to learn its supported kraft.version range.
        let now = io.now_ms;
        if !self.requests.is_ready(r.voter.id, now) {
            return Some(change(
                Errors::RequestTimedOut,
                Some(format!(
                    "New voter {} is not ready to receive requests",
                    r.voter
                )),
            ));
        }
        self.send_request(r.voter.id, RaftRequest::ApiVersions, io);
        let state = AddVoterHandlerState {
            voter: VoterNode::new(r.voter, port),
            ack_when_committed: r.ack_when_committed,
            deadline_ms: now + self.config.request_timeout_ms,
            last_offset: None,
            reply: Some(PendingReply {
                to: from,
                correlation_id,
            }),
        };
        self.start_change(VoterChange::Add(state), io);
        None
    }

    /// Starts `next` as the pending change (resetting any other with UNKNOWN_SERVER_ERROR).
    pub(super) fn start_change(&mut self, next: VoterChange, io: &mut RaftIo) {
        let leader = self.leader_and_epoch();
        if let EpochState::Leader(l) = &mut self.quorum.state {
            let done = l
                .change_voter
                .reset(Errors::UnknownServerError, None, Some(next), leader);
            self.complete(done.into_iter().collect(), io);
        }
    }

    /// Sends the answers of completed changes.
    pub(super) fn complete(&mut self, done: Vec<Completion>, io: &mut RaftIo) {
        for (reply, response) in done {
            self.respond(reply.to, reply.correlation_id, response, io);
        }
    }

    /// A node asked for its ApiVersions: this Kafka supports kraft.version 0 to 1.
    pub(super) fn handle_api_versions_request(&self) -> ApiVersionsResponse {
        ApiVersionsResponse {
            error: Errors::None,
            kraft_versions: Some(SUPPORTED_KRAFT_VERSIONS),
        }
    }

    /// `handleApiVersionsResponse`: for the pending add or update. Returns false only when
    /// the ApiVersions request itself failed.
    pub(super) fn handle_api_versions_response(
        &mut self,
        from: i32,
        r: ApiVersionsResponse,
        io: &mut RaftIo,
    ) -> bool {
        let update = matches!(
            &self.quorum.state,
            EpochState::Leader(l) if matches!(l.change_voter.pending, Some(VoterChange::Update(_)))
        );
        if update {
            self.update_voter_api_versions(from, r, io)
        } else {
            self.add_voter_api_versions(from, r, io)
        }
    }

    /// AddVoterHandler.handleApiVersionsResponse (AddVoterHandler.java:265-399): abort, or
    /// append the new voter set.
    fn add_voter_api_versions(
        &mut self,
        from: i32,
        r: ApiVersionsResponse,
        io: &mut RaftIo,
    ) -> bool {
        let now = io.now_ms;
        let kraft_version = self.partition_state.last_kraft_version();
        let prefix = self.prefix.clone();
        let EpochState::Leader(l) = &mut self.quorum.state else {
            return true;
        };
        let Some(current) = l.change_voter.add_state().cloned() else {
            return true;
        };
        if !current.expecting_api_response(from) {
            io.log_line(
                Level::Info,
                &prefix,
                ADD_VOTER_LOGGER,
                format!(
                    "API_VERSIONS response is not expected from {from}: voterKey is {}, lastOffset is {}",
                    current.voter.key,
                    optional(current.last_offset)
                ),
            );
            return true;
        }
        let key = current.voter.key;
        let at = current.voter.endpoints_text();
        if r.error != Errors::None {
            let e = r.error.name();
            self.abort_voter_change(
                ADD_VOTER_LOGGER,
                format!("Aborting add voter operation for {key} at {at} since API_VERSIONS returned an error {e}"),
                Errors::RequestTimedOut,
                Some(format!("Aborted add voter operation for {key} since API_VERSIONS returned an error {e}")),
                io,
            );
            return false;
        }
        let supported = r
            .kraft_versions
            .filter(|(lo, hi)| *lo <= kraft_version as i16 && kraft_version as i16 <= *hi);
        let Some(range) = supported else {
            let (lo, hi) = r.kraft_versions.unwrap_or((0, 0));
            let range = r.kraft_versions.map_or("Optional.empty".to_string(), |(lo, hi)| {
                format!("Optional[SupportedFeatureKey(name='kraft.version', minVersion={lo}, maxVersion={hi})]")
            });
            self.abort_voter_change(
                ADD_VOTER_LOGGER,
                format!("Aborting add voter operation for {key} at {at} since kraft.version range {range} doesn't support reconfiguration"),
                Errors::InvalidRequest,
                Some(format!("Aborted add voter operation for {key} since the kraft.version range (min: {lo}, max: {hi} doesn't support the finalized version {kraft_version}")),
                io,
            );
            return true;
        };
        if !l.is_replica_caught_up(key, now) {
            let state = l
                .replica_state(key)
                .map_or("Optional.empty".to_string(), |s| format!("Optional[{s}]"));
            self.abort_voter_change(
                ADD_VOTER_LOGGER,
                format!("Aborting add voter operation for {key} at {at} since it is lagging behind: {state}"),
                Errors::RequestTimedOut,
                Some(format!("Aborted add voter operation for {key} since it is lagging behind")),
                io,
            );
            return true;
        }
        let node = VoterNode {
            supported_kraft: range,
            ..current.voter
        };
        let Some(next) = self.partition_state.last_voter_set().add_voter(node) else {
            return true;
        };
        let offset = self.append_voters_record(&next, io);
        let EpochState::Leader(l) = &mut self.quorum.state else {
            return true;
        };
        let mut early = None;
        if let Some(a) = l.change_voter.add_state() {
            a.last_offset = offset;
            if !a.ack_when_committed {
                // Answered on append; the change stays pending until it commits.
                early = a.reply.take();
            }
        }
        if let Some(reply) = early {
            self.respond(
                reply.to,
                reply.correlation_id,
                RaftResponse::AddRaftVoter(change(Errors::None, None)),
                io,
            );
        }
        true
    }

    /// Ends the pending voter change with `error` and `message`, after an INFO `line` of
    /// `logger` saying why.
    fn abort_voter_change(
        &mut self,
        logger: &'static str,
        line: String,
        error: Errors,
        message: Option<String>,
        io: &mut RaftIo,
    ) {
        io.log_line(Level::Info, &self.prefix, logger, line);
        let leader = self.leader_and_epoch();
        if let EpochState::Leader(l) = &mut self.quorum.state {
            let done = l.change_voter.reset(error, message, None, leader);
            self.complete(done.into_iter().collect(), io);
        }
    }

    /// `LeaderState.appendVotersRecord`: one control batch with the VotersRecord (and the
    /// kraft.version); returns its offset, or `None` without an accumulator.
    pub(super) fn append_voters_record(&mut self, set: &VoterSet, io: &mut RaftIo) -> Option<i64> {
        let _ = io;
        let acc = self.accumulator.as_mut()?;
        let base = acc.next_offset();
        acc.append_control(vec![crate::raft::batch::Record::KRaftVoters {
            voters: set.to_record(),
        }]);
        Some(base)
    }

    /// `handleRemoveVoterRequest` (KafkaRaftClient.java:2411-2452, RemoveVoterHandler.java).
    pub(super) fn handle_remove_voter_request(
        &mut self,
        from: i32,
        correlation_id: u64,
        r: RemoveRaftVoterRequest,
        io: &mut RaftIo,
    ) -> Option<VoterChangeResponse> {
        if let Some(e) = self.cluster_id_error(&r.cluster_id) {
            return Some(e);
        }
        if let Some(e) = self.validate_leader_only_request(self.quorum.epoch()) {
            return Some(change(e, None));
        }
        if r.voter.directory_id.is_none() {
            return Some(change(
                Errors::InvalidRequest,
                Some("Remove voter request didn't include a valid voter".into()),
            ));
        }
        let (_, voters) = match self.common_change_checks("removing", io) {
            Ok(v) => v,
            Err(e) => return Some(e),
        };
        let Some(next) = voters.remove_voter(r.voter) else {
            return Some(change(
                Errors::VoterNotFound,
                Some(format!(
                    "Cannot remove voter {} from the set of voters {}",
                    r.voter,
                    voters.keys_text()
                )),
            ));
        };
        let offset = self.append_voters_record(&next, io).unwrap_or(-1);
        let state = RemoveVoterHandlerState {
            last_offset: offset,
            deadline_ms: io.now_ms + self.config.request_timeout_ms,
            reply: Some(PendingReply {
                to: from,
                correlation_id,
            }),
        };
        self.start_change(VoterChange::Remove(state), io);
        None
    }

    /// The handlers' `highWatermarkUpdated`: a pending change whose VotersRecord the high
    /// watermark passed is done; a leader no longer in the committed set resigns.
    pub(super) fn voter_changes_on_high_watermark(&mut self, io: &mut RaftIo) {
        let leader = self.leader_and_epoch();
        let local = self.quorum.local;
        let voters = self.partition_state.last_voter_set().clone();
        let prefix = self.prefix.clone();
        let EpochState::Leader(l) = &mut self.quorum.state else {
            return;
        };
        let Some(hw) = l.high_watermark else {
            return;
        };
        let committed = match &l.change_voter.pending {
            Some(VoterChange::Add(a)) => a.last_offset.is_some_and(|o| hw > o),
            Some(VoterChange::Remove(r)) => hw > r.last_offset,
            Some(VoterChange::Update(u)) => u.last_offset.is_some_and(|o| hw > o),
            None => false,
        };
        if !committed {
            return;
        }
        let removed = matches!(l.change_voter.pending, Some(VoterChange::Remove(_)));
        let done = l.change_voter.reset(Errors::None, None, None, leader);
        if removed && !voters.is_voter(local) {
            io.log_line(
                Level::Info,
                &prefix,
                REMOVE_VOTER_LOGGER,
                format!(
                    "Leader is not in the committed voter set {} resign from epoch {}",
                    voters.keys_text(),
                    l.epoch
                ),
            );
            l.resign_requested = true;
        }
        self.complete(done.into_iter().collect(), io);
    }

    /// `maybeExpirePendingOperation` at the leader's poll; the time until the change expires.
    pub(super) fn expire_voter_change(&mut self, io: &mut RaftIo) -> u64 {
        let now = io.now_ms;
        let leader = self.leader_and_epoch();
        let EpochState::Leader(l) = &mut self.quorum.state else {
            return u64::MAX;
        };
        if let Some(done) = l.change_voter.maybe_expire(now, leader) {
            self.complete(vec![done], io);
        }
        match &self.quorum.state {
            EpochState::Leader(l) => l.change_voter.time_until_expiration(now),
            _ => u64::MAX,
        }
    }

    /// LeaderState.close: a leader leaving answers its pending change NOT_LEADER_OR_FOLLOWER.
    pub(super) fn abandon_voter_change(&mut self, io: &mut RaftIo) {
        let leader = self.leader_and_epoch();
        if let EpochState::Leader(l) = &mut self.quorum.state {
            let done = l
                .change_voter
                .reset(Errors::NotLeaderOrFollower, None, None, leader);
            self.complete(done.into_iter().collect(), io);
        }
    }
}
