//! KafkaRaftClient: one replica of `__cluster_metadata-0`. Elections are Raft with PreVote;
//! replication is driven by Fetch from followers and observers.
//!
//! Like Kafka's client it is a state machine polled by one thread: [`KafkaRaftClient::handle`]
//! takes one inbound message, [`KafkaRaftClient::poll`] does the work of the current state and
//! says when it next needs to run.

use super::accumulator::BatchAccumulator;
use super::batch::{Record, VoterEntry};
use super::config::QuorumConfig;
use super::io::{loggers, RaftIo};
use super::messages::*;
use super::quorum_state::{state_text, QuorumState, TransitionResult, VoterNode};
use super::replica_key::{id_set, ReplicaKey};
use super::state::{EpochState, LeaderState};
use crate::common::node_log::Level;
use crate::common::offset_and_epoch::OffsetAndEpoch;
use crate::common::protocol::Errors;
use crate::common::uuid::Uuid;

/// A fetch the leader holds until new data arrives or `maxWaitMs` passes.
#[derive(Clone, Debug)]
struct ParkedFetch {
    from: i32,
    correlation_id: u64,
    request: FetchRequest,
    deadline_ms: u64,
    original: FetchResponse,
}

/// Why an append was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AppendError {
    /// This replica is not the leader of `epoch` (NotLeaderException).
    NotLeader,
}

/// A fatal fault in the Raft thread; the process exits, as Kafka's fatalFaultHandler does.
pub type RaftResult<T> = Result<T, String>;

/// One replica of the metadata log.
#[derive(Clone, Debug)]
pub struct KafkaRaftClient {
    /// The quorum state.
    pub quorum: QuorumState,
    config: QuorumConfig,
    cluster_id: String,
    requests: super::request_manager::RequestManager,
    accumulator: Option<BatchAccumulator>,
    fetch_purgatory: Vec<ParkedFetch>,
    next_correlation_id: u64,
    prefix: String,
    /// Graceful shutdown: its deadline, and whether it has completed.
    shutdown: Option<(u64, u64, bool)>,
    listener: super::listener::ListenerContext,
    /// When the log cleaner (snapshot retention) runs next.
    next_clean_ms: u64,
}

/// Kafka's `OffsetAndEpoch` record as log lines print it.
pub fn offset_and_epoch_text(id: OffsetAndEpoch) -> String {
    format!("OffsetAndEpoch[offset={}, epoch={}]", id.offset, id.epoch)
}

/// What `validateOffsetAndEpoch` says about a fetch position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ValidOffsetAndEpoch {
    /// The follower may read from here.
    Valid,
    /// The follower's log diverges: truncate to this end offset and epoch.
    Diverging(OffsetAndEpoch),
    /// The follower is before the log start: fetch this snapshot.
    Snapshot(OffsetAndEpoch),
}

/// The logger name of the metadata log (KafkaRaftLog).
const METADATA_LOG_LOGGER: &str = "org.apache.kafka.raft.internals.KafkaRaftLog";
/// The logger name of the log under it (UnifiedLog).
const UNIFIED_LOG_LOGGER: &str = "org.apache.kafka.storage.internals.log.UnifiedLog";

mod snapshots;

impl KafkaRaftClient {
    /// Start a replica (process start): read `quorum-state`, pick the initial state.
    pub fn new(
        local_id: i32,
        directory_id: Uuid,
        voters: Vec<VoterNode>,
        config: QuorumConfig,
        cluster_id: String,
        io: &mut RaftIo,
    ) -> RaftResult<Self> {
        let prefix = format!("[RaftManager id={local_id}] ");
        let clean_interval_ms = config.metadata_log.clean_interval_ms;
        let local = ReplicaKey {
            id: local_id,
            directory_id: Some(directory_id),
        };
        let quorum = QuorumState::initialize(local, voters, config.clone(), prefix.clone(), io)?;
        let mut client = KafkaRaftClient {
            quorum,
            config,
            cluster_id,
            requests: Default::default(),
            accumulator: None,
            fetch_purgatory: Vec::new(),
            next_correlation_id: 0,
            prefix,
            shutdown: None,
            listener: Default::default(),
            next_clean_ms: io.now_ms + clean_interval_ms,
        };
        // recoverSnapshots: a half-downloaded snapshot (.checkpoint.part) is deleted.
        io.disk.metadata_log.partial_snapshot = None;
        io.disk
            .metadata_log
            .set_segment_bytes(client.config.metadata_log.segment_bytes);
        if matches!(client.quorum.state, EpochState::Leader(_)) {
            return Err("Voter cannot initialize as a Leader".into());
        }
        let unattached_follower_or_resigned = matches!(
            client.quorum.state,
            EpochState::Unattached(_) | EpochState::Follower(_) | EpochState::Resigned(_)
        );
        if client.quorum.is_only_voter() && unattached_follower_or_resigned {
            client.transition_to_prospective(io)?;
        } else if matches!(client.quorum.state, EpochState::Candidate(_)) {
            client.on_become_candidate(io)?;
        }
        Ok(client)
    }

    /// The node id.
    pub fn local_id(&self) -> i32 {
        self.quorum.local.id
    }

    /// The current epoch state.
    pub fn state(&self) -> &EpochState {
        &self.quorum.state
    }

    /// The high watermark known here.
    pub fn high_watermark(&self) -> Option<i64> {
        self.quorum.state.high_watermark()
    }

    /// Records waiting in the leader's accumulator.
    pub fn pending_records(&self) -> usize {
        self.accumulator
            .as_ref()
            .map(|a| a.pending_records())
            .unwrap_or(0)
    }

    fn log(&self, io: &mut RaftIo, level: Level, message: String) {
        io.log_line(level, &self.prefix, loggers::KAFKA_RAFT_CLIENT, message);
    }

    fn reset_connections(&mut self) {
        self.requests.reset_all();
    }

    fn end_offset(&self, io: &RaftIo) -> OffsetAndEpoch {
        io.disk.metadata_log.end_offset_and_epoch()
    }

    // ----- appends (the RaftClient API used by the controller) -----

    /// `scheduleAppend` / `prepareAppend`+`schedulePreparedAppend`: add records to the leader's
    /// accumulator in `epoch`. Returns the offset of the last record.
    pub fn append(
        &mut self,
        epoch: i32,
        records: Vec<Record>,
        atomic: bool,
        now_ms: u64,
    ) -> Result<i64, AppendError> {
        match (&self.quorum.state, self.accumulator.as_mut()) {
            (EpochState::Leader(l), Some(acc)) if l.epoch == epoch && acc.epoch == epoch => {
                Ok(acc.append(records, now_ms, atomic))
            }
            _ => Err(AppendError::NotLeader),
        }
    }

    // ----- transitions with their client-side effects -----

    fn transition_to_prospective(&mut self, io: &mut RaftIo) -> RaftResult<()> {
        self.quorum.transition_to_prospective(io)?;
        self.on_become_prospective(io)
    }

    fn on_become_prospective(&mut self, io: &mut RaftIo) -> RaftResult<()> {
        let granted = match &self.quorum.state {
            EpochState::Prospective(p) => p.epoch_election.is_vote_granted(),
            _ => false,
        };
        if granted {
            self.transition_to_candidate(io)
        } else {
            self.reset_connections();
            Ok(())
        }
    }

    fn transition_to_candidate(&mut self, io: &mut RaftIo) -> RaftResult<()> {
        self.quorum.transition_to_candidate(io)?;
        self.on_become_candidate(io)
    }

    fn on_become_candidate(&mut self, io: &mut RaftIo) -> RaftResult<()> {
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

    fn on_become_leader(&mut self, io: &mut RaftIo) -> RaftResult<()> {
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
        // A voter set from a generated snapshot counts; the bootstrap snapshot's does not
        // (its voter set sits at offset -1, before the log).
        let has_voters_record = io.disk.metadata_log.batches().iter().any(|b| {
            b.records
                .iter()
                .any(|r| matches!(r, Record::KRaftVoters { .. }))
        }) || io
            .disk
            .metadata_log
            .snapshots()
            .iter()
            .any(|s| !s.is_bootstrap());
        if !has_voters_record {
            records.push(Record::KRaftVersion { kraft_version: 1 });
            records.push(Record::KRaftVoters {
                voters: self
                    .quorum
                    .voters
                    .iter()
                    .map(|v| VoterEntry {
                        voter_id: v.key.id,
                        voter_directory_id: v.key.directory_id.unwrap_or(Uuid::ZERO),
                        port: v.port,
                    })
                    .collect(),
            });
        }
        acc.append_control(records);
        self.accumulator = Some(acc);
        self.reset_connections();
        Ok(())
    }

    fn transition_to_unattached(
        &mut self,
        epoch: i32,
        leader: Option<i32>,
        io: &mut RaftIo,
    ) -> RaftResult<()> {
        let was_leader = matches!(self.quorum.state, EpochState::Leader(_));
        self.quorum.transition_to_unattached(epoch, leader, io)?;
        if was_leader {
            self.abandon_leadership(io);
        }
        self.reset_connections();
        Ok(())
    }

    fn transition_to_follower(
        &mut self,
        epoch: i32,
        leader: i32,
        io: &mut RaftIo,
    ) -> RaftResult<()> {
        let was_leader = matches!(self.quorum.state, EpochState::Leader(_));
        self.quorum.transition_to_follower(epoch, leader, io)?;
        if was_leader {
            self.abandon_leadership(io);
        }
        self.reset_connections();
        Ok(())
    }

    fn transition_to_resigned(&mut self, successors: Vec<i32>, io: &mut RaftIo) -> RaftResult<()> {
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

    fn add_voted_state(
        &mut self,
        epoch: i32,
        candidate: ReplicaKey,
        io: &mut RaftIo,
    ) -> TransitionResult {
        self.quorum.add_voted_state(epoch, candidate, io)
    }

    /// `maybeTransition(leaderId, epoch)`: follow what a request or response says of the leader.
    fn maybe_transition(
        &mut self,
        leader: Option<i32>,
        epoch: i32,
        io: &mut RaftIo,
    ) -> RaftResult<()> {
        if !self.has_consistent_leader(epoch, leader) {
            return Err(format!(
                "Received request or response with leader {} and epoch {} which is inconsistent with current leader {} and epoch {}",
                super::replica_key::optional_int(leader),
                epoch,
                super::replica_key::optional_int(self.quorum.leader_id()),
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

    /// `maybeHandleCommonResponse`: Some(success) when the response was fully handled here.
    fn maybe_handle_common_response(
        &mut self,
        error: Errors,
        leader: Option<i32>,
        epoch: i32,
        io: &mut RaftIo,
    ) -> RaftResult<Option<bool>> {
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

    // ----- sending -----

    fn send_request(&mut self, to: i32, body: RaftRequest, io: &mut RaftIo) {
        let correlation_id = self.next_correlation_id;
        self.next_correlation_id += 1;
        self.requests.on_request_sent(
            to,
            correlation_id,
            io.now_ms + self.config.request_timeout_ms,
        );
        io.send(
            to,
            RaftMessage::Request {
                correlation_id,
                body,
            },
        );
    }

    fn respond(&self, to: i32, correlation_id: u64, body: RaftResponse, io: &mut RaftIo) {
        io.send(
            to,
            RaftMessage::Response {
                correlation_id,
                body,
            },
        );
    }

    fn leader_or_sentinel(&self) -> i32 {
        self.quorum.leader_id().unwrap_or(-1)
    }

    /// `maybeSendFetchOrFetchSnapshot`: a FetchSnapshot for the next chunk while a snapshot is
    /// being fetched, else a Fetch.
    fn build_fetch_or_fetch_snapshot(&self, io: &RaftIo) -> RaftRequest {
        match &io.disk.metadata_log.partial_snapshot {
            Some(p) if matches!(self.quorum.state, EpochState::Follower(_)) => {
                RaftRequest::FetchSnapshot(FetchSnapshotRequest {
                    replica_id: self.local_id(),
                    current_leader_epoch: self.quorum.epoch(),
                    snapshot_id: p.id,
                    position: p.received,
                    max_bytes: self.config.fetch_max_bytes,
                })
            }
            _ => RaftRequest::Fetch(self.build_fetch_request(io)),
        }
    }

    fn build_fetch_request(&self, io: &RaftIo) -> FetchRequest {
        let end = self.end_offset(io);
        FetchRequest {
            replica_id: self.local_id(),
            current_leader_epoch: self.quorum.epoch(),
            fetch_offset: end.offset,
            last_fetched_epoch: end.epoch,
            max_wait_ms: self.config.fetch_max_wait_ms,
            high_watermark: self.high_watermark().unwrap_or(-1),
        }
    }

    /// `maybeSendRequests`: to each node of `targets` that is ready (a timed-out request frees
    /// its connection); returns the time until one needs attention (its backoff or its request
    /// time left), `u64::MAX` without targets.
    fn maybe_send_requests(
        &mut self,
        targets: &[i32],
        io: &mut RaftIo,
        build: impl Fn(&Self, i32, &RaftIo) -> RaftRequest,
    ) -> u64 {
        let now = io.now_ms;
        let mut wait = u64::MAX;
        for &t in targets {
            if self.requests.is_backing_off(t, now) {
                wait = wait.min(self.requests.remaining_backoff_ms(t, now));
                continue;
            }
            if self.requests.is_ready(t, now) {
                let body = build(self, t, io);
                self.send_request(t, body, io);
            }
            wait = wait.min(self.requests.remaining_request_time_ms(t, now).max(1));
        }
        wait
    }

    /// `maybeSendFetchToAnyBootstrap`: a Fetch to a ready voter picked from a random start,
    /// one at a time; else the time until one is available.
    fn maybe_send_fetch_to_any_bootstrap(&mut self, io: &mut RaftIo) -> u64 {
        let now = io.now_ms;
        // The voters other than this node (Kafka's bootstrap list may hold the node itself).
        let servers = self.quorum.remote_voter_ids();
        if servers.is_empty() {
            return u64::MAX;
        }
        match self
            .requests
            .find_ready_bootstrap_server(&servers, io.rng, now)
        {
            Some(s) => {
                let body = self.build_fetch_or_fetch_snapshot(io);
                self.send_request(s, body, io);
                self.config.request_timeout_ms
            }
            None => self
                .requests
                .backoff_before_available_bootstrap_server(
                    &servers,
                    now,
                    self.config.retry_backoff_ms,
                )
                .max(1),
        }
    }

    /// `maybeSendFetchToBestNode`: to the leader, unless its request timed out or it backs
    /// off (then one Fetch to any bootstrap voter).
    fn maybe_send_fetch_to_best_node(&mut self, leader: i32, io: &mut RaftIo) -> u64 {
        let now = io.now_ms;
        if self.requests.has_request_timed_out(leader, now) {
            self.requests.reset(leader);
            self.maybe_send_fetch_to_any_bootstrap(io)
        } else if self.requests.is_backing_off(leader, now) {
            self.maybe_send_fetch_to_any_bootstrap(io)
        } else if !self.requests.has_any_inflight_request(now) {
            let body = self.build_fetch_or_fetch_snapshot(io);
            self.send_request(leader, body, io);
            self.config.request_timeout_ms
        } else {
            let servers = self.quorum.remote_voter_ids();
            self.requests
                .backoff_before_available_bootstrap_server(
                    &servers,
                    now,
                    self.config.retry_backoff_ms,
                )
                .max(1)
        }
    }

    // ----- the listener (QuorumController or MetadataLoader) -----

    /// `pollListeners`: committed batches not yet delivered (whole batches below the high
    /// watermark), then a leader change if there is one to tell. A leader tells its own
    /// listener only once the listener has caught up to the epoch start offset.
    pub fn poll_listener(&mut self, io: &RaftIo) -> RaftResult<Vec<super::listener::RaftEvent>> {
        use super::listener::{LeaderAndEpoch, RaftEvent};
        let mut out = Vec::new();
        // Without a snapshot to give, a new listener starts at offset 0 at once.
        let log = &io.disk.metadata_log;
        if self.listener.next_offset == super::listener::STARTING_NEXT_OFFSET
            && log.latest_snapshot().is_none_or(|s| s.is_bootstrap())
        {
            self.listener.next_offset = 0;
        }
        if let Some(hw) = self.high_watermark() {
            let log = &io.disk.metadata_log;
            // updateListenersProgress: a new listener, or one behind the log start, is given
            // the latest snapshot. (The bootstrap snapshot 0-0 is not handed to listeners here:
            // the active controller writes the bootstrap records into the log, as example 1
            // of the article shows.)
            let next = self.listener.next_offset;
            let snapshot = log.latest_snapshot().filter(|s| !s.is_bootstrap());
            if let Some(s) = snapshot.filter(|_| {
                next < hw
                    && (next == super::listener::STARTING_NEXT_OFFSET || next < log.start_offset())
            }) {
                self.listener.next_offset = s.id.offset;
                out.push(RaftEvent::LoadSnapshot(s.clone()));
            } else if next == super::listener::STARTING_NEXT_OFFSET {
                self.listener.next_offset = 0;
            } else if next < log.start_offset() {
                return Err(format!(
                    "Snapshot expected since next offset of listener is {next}, log start offset is {} and high-watermark is {hw}",
                    log.start_offset()
                ));
            }
            let from = self.listener.next_offset;
            if from < hw {
                let all = log.batches();
                let start = all.partition_point(|b| b.next_offset() <= from);
                let batches: Vec<_> = all[start..]
                    .iter()
                    .take_while(|b| b.last_offset() < hw)
                    .cloned()
                    .collect();
                if let Some(last) = batches.last() {
                    self.listener.next_offset = last.next_offset();
                    out.push(RaftEvent::Commit(batches));
                }
            }
        }
        let current = LeaderAndEpoch {
            leader_id: self.quorum.leader_id(),
            epoch: self.quorum.epoch(),
        };
        // ListenerContext.maybeFireLeaderChange: a leader tells its own listener only once the
        // listener has consumed past the epoch start offset (so the high watermark of the new
        // epoch is established first); a Resigned replica never tells.
        let fire = match &self.quorum.state {
            EpochState::Leader(l) => {
                self.listener.should_fire(current)
                    && self.listener.next_offset > l.epoch_start_offset
            }
            EpochState::Resigned(_) => false,
            _ => self.listener.should_fire(current),
        };
        if fire {
            self.listener.last_fired = current;
            out.push(RaftEvent::LeaderChange(current));
        }
        Ok(out)
    }

    /// The offset the listener will be given next.
    pub fn listener_next_offset(&self) -> i64 {
        self.listener.next_offset
    }

    // ----- graceful shutdown -----

    /// Begin a graceful shutdown (SIGTERM): a leader resigns and tells the voters with
    /// EndQuorumEpoch; the shutdown completes once a remote leader is known (or at once for an
    /// observer or the only voter), or times out after `timeout_ms`.
    pub fn shutdown(&mut self, timeout_ms: u64, io: &mut RaftIo) {
        if self.shutdown.is_none() {
            self.log(io, Level::Info, "Beginning graceful shutdown".into());
            self.shutdown = Some((io.now_ms + timeout_ms, timeout_ms, false));
        }
    }

    /// Whether a graceful shutdown has finished (the process may exit).
    pub fn is_shutdown_complete(&self) -> bool {
        matches!(self.shutdown, Some((_, _, true)))
    }

    /// `maybeCompleteShutdown`, at the start of every poll: the shutdown times out after its
    /// timeout, and completes only once this node is an observer, the only voter, or knows a
    /// leader other than itself (a resigned leader follows its successor first).
    fn maybe_complete_shutdown(&mut self, io: &mut RaftIo) -> RaftResult<()> {
        let Some((deadline, timeout, false)) = self.shutdown else {
            return Ok(());
        };
        if io.now_ms >= deadline {
            self.log(
                io,
                Level::Warn,
                format!("Graceful shutdown timed out after {timeout}ms"),
            );
            self.shutdown = Some((deadline, timeout, true));
            return Ok(());
        }
        let remote_leader = self
            .quorum
            .state
            .leader_id()
            .is_some_and(|l| l != self.local_id());
        if !self.quorum.is_voter() || self.quorum.is_only_voter() || remote_leader {
            self.log(io, Level::Info, "Graceful shutdown completed".into());
            self.shutdown = Some((deadline, timeout, true));
        }
        Ok(())
    }

    /// While shutting down: the time left before the shutdown times out.
    fn shutdown_remaining_ms(&self, now_ms: u64) -> Option<u64> {
        self.shutdown
            .map(|(deadline, _, _)| deadline.saturating_sub(now_ms).max(1))
    }

    // ----- poll -----

    /// Do the current state's work at `io.now_ms`; returns the virtual time at which the
    /// client next needs to be polled.
    pub fn poll(&mut self, io: &mut RaftIo) -> RaftResult<u64> {
        // Requests past request.timeout.ms are abandoned (the connection becomes ready again).
        let now = io.now_ms;
        self.maybe_complete_shutdown(io)?;
        if self.is_shutdown_complete() {
            return Ok(u64::MAX);
        }
        // FollowerState.close(): a snapshot download belongs to one follower epoch.
        let keep_partial = match (&self.quorum.state, &io.disk.metadata_log.partial_snapshot) {
            (EpochState::Follower(f), Some(p)) => p.leader_epoch == f.epoch,
            _ => false,
        };
        if !keep_partial {
            io.disk.metadata_log.partial_snapshot = None;
        }
        let clean_wake = self.maybe_clean(io);
        for _ in 0..16 {
            let epoch_before = self.quorum.epoch();
            let name_before = self.quorum.state.name();
            let wait = self.poll_current_state(io)?;
            let changed =
                self.quorum.epoch() != epoch_before || self.quorum.state.name() != name_before;
            if !changed && wait > 0 {
                return Ok(now.saturating_add(wait).min(clean_wake));
            }
        }
        Ok(now + 1)
    }

    fn poll_current_state(&mut self, io: &mut RaftIo) -> RaftResult<u64> {
        let now = io.now_ms;
        match &self.quorum.state {
            EpochState::Leader(_) => self.poll_leader(io),
            EpochState::Candidate(c) => {
                // Shutting down, an election goes on until a leader is known or the shutdown
                // times out.
                if let Some(left) = self.shutdown_remaining_ms(now) {
                    return Ok(self.maybe_send_vote_requests(io).min(left));
                }
                // A Candidate that lost waits out the rest of its election timeout
                // (KAFKA-18345): no backoff, no retries.
                if now >= c.election_deadline_ms {
                    self.log(
                        io,
                        Level::Info,
                        "Election was not granted, transitioning to prospective".into(),
                    );
                    self.transition_to_prospective(io)?;
                    return Ok(0);
                }
                let remaining = c.election_deadline_ms - now;
                Ok(self.maybe_send_vote_requests(io).min(remaining))
            }
            EpochState::Prospective(p) => {
                if let Some(left) = self.shutdown_remaining_ms(now) {
                    return Ok(self.maybe_send_vote_requests(io).min(left));
                }
                if now >= p.election_deadline_ms {
                    let text = p.epoch_election.to_string();
                    self.log(
                        io,
                        Level::Info,
                        format!("Election timed out before receiving sufficient vote responses to become candidate. Current epoch election state: {text}"),
                    );
                    self.prospective_transition_after_election_loss(io)?;
                    return Ok(0);
                }
                let remaining = p.election_deadline_ms - now;
                Ok(self.maybe_send_vote_requests(io).min(remaining))
            }
            EpochState::Follower(f) => {
                let (deadline, leader) = (f.fetch_deadline_ms, f.leader_id);
                if self.quorum.is_voter() {
                    if now >= deadline {
                        self.log(
                            io,
                            Level::Info,
                            "Transitioning to Prospective state due to fetch timeout".into(),
                        );
                        self.transition_to_prospective(io)?;
                        return Ok(0);
                    }
                    Ok(self
                        .maybe_send_fetch_to_best_node(leader, io)
                        .min(deadline - now))
                } else {
                    // An observer keeps fetching from its leader after its fetch timeout
                    // (KAFKA-19354): only a newer epoch or leader moves it. (Kafka spins while
                    // the expired timer is its wait; the engine waits for the request instead.)
                    let fetch = self.maybe_send_fetch_to_best_node(leader, io);
                    Ok(match deadline.checked_sub(now).filter(|d| *d > 0) {
                        Some(left) => fetch.min(left),
                        None => fetch,
                    })
                }
            }
            EpochState::Unattached(u) => {
                if self.quorum.is_voter() {
                    // Shutting down, an unattached voter waits for a leader, sending nothing.
                    if let Some(left) = self.shutdown_remaining_ms(now) {
                        return Ok(left);
                    }
                    if let Some(d) = u.election_deadline_ms {
                        if now >= d {
                            self.transition_to_prospective(io)?;
                            return Ok(0);
                        }
                    }
                }
                let remaining = self.quorum.state.remaining_election_ms(now);
                Ok(self.maybe_send_fetch_to_any_bootstrap(io).min(remaining))
            }
            EpochState::Resigned(r) => {
                let unacked = r.unacked_voters.clone();
                let (deadline, epoch) = (r.election_deadline_ms, r.epoch);
                let wait = self.maybe_send_requests(&unacked, io, |c, _, _| {
                    let successors = match &c.quorum.state {
                        EpochState::Resigned(r) => {
                            r.preferred_successors.iter().map(|k| k.id).collect()
                        }
                        _ => Vec::new(),
                    };
                    RaftRequest::EndQuorumEpoch(EndQuorumEpochRequest {
                        leader_epoch: c.quorum.epoch(),
                        leader_id: c.local_id(),
                        preferred_successors: successors,
                    })
                });
                if let Some((shutdown_at, _, _)) = self.shutdown {
                    return Ok(wait.min(shutdown_at.saturating_sub(now)).max(1));
                }
                if now >= deadline {
                    self.transition_to_unattached(epoch + 1, None, io)?;
                    return Ok(0);
                }
                Ok(wait.min(deadline - now))
            }
        }
    }

    fn poll_leader(&mut self, io: &mut RaftIo) -> RaftResult<u64> {
        let now = io.now_ms;
        let (until_check, timeout_ms, fetched, voters, successors) = match &self.quorum.state {
            EpochState::Leader(l) => (
                l.time_until_check_quorum_expires(now),
                l.check_quorum_timeout_ms,
                l.fetched_voters.iter().copied().collect::<Vec<_>>(),
                l.voter_states.values().map(|v| v.key).collect::<Vec<_>>(),
                leader_successors(l),
            ),
            _ => return Ok(u64::MAX),
        };
        // A leader shutting down resigns (a single voter never gets here: its shutdown completes
        // at once).
        if self.shutdown.is_some() {
            self.transition_to_resigned(successors, io)?;
            return Ok(0);
        }
        if until_check == 0 {
            // LeaderState.timeUntilCheckQuorumExpires logs it, with the voters' ReplicaKeys (a
            // Java Set.of, whose order varies per JVM: ascending id here).
            let keys: Vec<String> = voters.iter().map(|k| k.to_string()).collect();
            io.log_line(
                Level::Info,
                &self.prefix,
                loggers::LEADER_STATE,
                format!(
                    "Did not receive fetch request from the majority of the voters within {timeout_ms}ms. Current fetched voters are {}, and voters are [{}]",
                    id_set(&fetched),
                    keys.join(", ")
                ),
            );
            self.transition_to_resigned(successors, io)?;
            return Ok(0);
        }
        let until_flush = self.maybe_append_batches(io);
        let until_begin = self.maybe_send_begin_quorum_epoch(io);
        let until_parked = self.expire_parked_fetches(io);
        Ok(until_check
            .min(until_flush)
            .min(until_begin)
            .min(until_parked))
    }

    fn maybe_append_batches(&mut self, io: &mut RaftIo) -> u64 {
        let now = io.now_ms;
        let Some(acc) = self.accumulator.as_mut() else {
            return u64::MAX;
        };
        if acc.time_until_drain(now) > 0 {
            return acc.time_until_drain(now);
        }
        let epoch = acc.epoch;
        let batches = acc.drain(now);
        for b in batches {
            debug_assert_eq!(b.base_offset, io.disk.metadata_log.end_offset());
            io.disk.metadata_log.append_as_leader(b.records, epoch, now);
        }
        self.update_leader_end_offset(io);
        self.accumulator
            .as_ref()
            .map(|a| a.time_until_drain(now))
            .unwrap_or(u64::MAX)
    }

    /// `updateLeaderEndOffsetAndTimestamp`: the leader's own LEO moved.
    fn update_leader_end_offset(&mut self, io: &mut RaftIo) {
        let end = io.disk.metadata_log.end_offset();
        let now = io.now_ms;
        let update = match &mut self.quorum.state {
            EpochState::Leader(l) => l.update_local_state(end, now),
            _ => None,
        };
        if let Some(u) = update {
            self.log_leader_hw(u, io);
            self.on_update_leader_high_watermark(io);
        }
        // Wake parked fetches that now have data.
        let parked = std::mem::take(&mut self.fetch_purgatory);
        for p in parked {
            if p.request.fetch_offset < end {
                let resp = self.try_complete_fetch(p.from, &p.request, io);
                self.respond(p.from, p.correlation_id, RaftResponse::Fetch(resp), io);
            } else {
                self.fetch_purgatory.push(p);
            }
        }
    }

    fn log_leader_hw(&self, u: super::state::leader::HighWatermarkUpdate, io: &mut RaftIo) {
        if let EpochState::Leader(l) = &self.quorum.state {
            let text = l.voter_states_text();
            let message = if u.first_time {
                format!(
                    "High watermark set to LogOffsetMetadata(offset={}, metadata=Optional.empty) for the first time for epoch {} based on indexOfHw {} and voters {}",
                    u.offset, l.epoch, u.index_of_hw, text
                )
            } else {
                format!(
                    "High watermark set to LogOffsetMetadata(offset={}, metadata=Optional.empty) based on indexOfHw {} and voters {}",
                    u.offset, u.index_of_hw, text
                )
            };
            let level = if u.first_time {
                Level::Info
            } else {
                Level::Debug
            };
            io.log_line(level, &self.prefix, loggers::LEADER_STATE, message);
        }
    }

    /// `maybeSendBeginQuorumEpochRequests`: every fetchTimeout/2, BeginQuorumEpoch to the
    /// voters that have not fetched for that long (KAFKA-16926); the timer restarts whether or
    /// not anything was sent, and the wait is the sends' (none: until another poll).
    fn maybe_send_begin_quorum_epoch(&mut self, io: &mut RaftIo) -> u64 {
        let now = io.now_ms;
        let (deadline, targets) = match &self.quorum.state {
            EpochState::Leader(l) => (
                l.begin_quorum_epoch_deadline_ms,
                l.need_to_send_begin_quorum_requests(now),
            ),
            _ => return u64::MAX,
        };
        if now < deadline {
            return deadline - now;
        }
        let wait = self.maybe_send_requests(&targets, io, |c, _, _| {
            RaftRequest::BeginQuorumEpoch(BeginQuorumEpochRequest {
                leader_epoch: c.quorum.epoch(),
                leader_id: c.local_id(),
            })
        });
        let period = self.config.fetch_timeout_ms / 2;
        if let EpochState::Leader(l) = &mut self.quorum.state {
            l.begin_quorum_epoch_deadline_ms = now + period;
        }
        wait
    }

    fn expire_parked_fetches(&mut self, io: &mut RaftIo) -> u64 {
        let now = io.now_ms;
        let parked = std::mem::take(&mut self.fetch_purgatory);
        let mut wait = u64::MAX;
        for p in parked {
            if now >= p.deadline_ms {
                // On timeout the original response (with the HW of its arrival) is sent.
                self.respond(
                    p.from,
                    p.correlation_id,
                    RaftResponse::Fetch(p.original),
                    io,
                );
            } else {
                wait = wait.min(p.deadline_ms - now);
                self.fetch_purgatory.push(p);
            }
        }
        wait
    }

    fn maybe_send_vote_requests(&mut self, io: &mut RaftIo) -> u64 {
        let (targets, pre_vote) = match &self.quorum.state {
            EpochState::Prospective(p) if !p.epoch_election.is_vote_rejected() => {
                (p.epoch_election.unrecorded_voters(), true)
            }
            EpochState::Candidate(c) if !c.epoch_election.is_vote_rejected() => {
                (c.epoch_election.unrecorded_voters(), false)
            }
            _ => return u64::MAX,
        };
        let targets: Vec<i32> = targets
            .into_iter()
            .filter(|t| *t != self.local_id())
            .collect();
        self.maybe_send_requests(&targets, io, move |c, to, io| {
            let end = c.end_offset(io);
            RaftRequest::Vote(VoteRequest {
                replica_epoch: c.quorum.epoch(),
                replica_id: c.local_id(),
                voter_id: to,
                last_offset: end,
                pre_vote,
            })
        })
    }

    fn prospective_transition_after_election_loss(&mut self, io: &mut RaftIo) -> RaftResult<()> {
        let (epoch, leader, port) = match &self.quorum.state {
            EpochState::Prospective(p) => (p.epoch, p.leader_id, p.leader_port),
            _ => return Ok(()),
        };
        match (leader, port) {
            (Some(l), Some(_)) => self.transition_to_follower(epoch, l, io),
            _ => self.transition_to_unattached(epoch, leader, io),
        }
    }

    // ----- inbound -----

    /// Handle one inbound message from node `from`.
    pub fn handle(&mut self, from: i32, message: RaftMessage, io: &mut RaftIo) -> RaftResult<()> {
        match message {
            RaftMessage::Request {
                correlation_id,
                body,
            } => {
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
                };
                self.respond(from, correlation_id, response, io);
                Ok(())
            }
            RaftMessage::Response {
                correlation_id,
                body,
            } => {
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
                    RaftResponse::FetchSnapshot(r) => {
                        self.handle_fetch_snapshot_response(from, r, io)?
                    }
                    RaftResponse::Failed { .. } => false,
                };
                // A transition resets every connection; only record the result if still awaited.
                if self.requests.is_response_expected(from, correlation_id) {
                    self.requests.on_response_result(
                        from,
                        success,
                        now,
                        self.config.retry_backoff_ms,
                    );
                }
                Ok(())
            }
        }
    }

    fn validate_voter_only_request(&self, request_epoch: i32) -> Option<Errors> {
        if request_epoch < self.quorum.epoch() {
            Some(Errors::FencedLeaderEpoch)
        } else {
            None
        }
    }

    fn handle_vote_request(&mut self, r: VoteRequest, io: &mut RaftIo) -> RaftResult<VoteResponse> {
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
            .iter()
            .find(|v| v.key.id == r.replica_id)
            .map(|v| v.key)
            .unwrap_or(ReplicaKey {
                id: r.replica_id,
                directory_id: None,
            });
        let up_to_date = r.last_offset >= self.end_offset(io);
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

    fn handle_vote_response(
        &mut self,
        from: i32,
        r: VoteResponse,
        io: &mut RaftIo,
    ) -> RaftResult<bool> {
        let leader = (r.leader_id >= 0).then_some(r.leader_id);
        if let Some(done) =
            self.maybe_handle_common_response(r.error, leader, r.leader_epoch, io)?
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

    fn handle_begin_quorum_epoch(
        &mut self,
        r: BeginQuorumEpochRequest,
        io: &mut RaftIo,
    ) -> RaftResult<EpochResponse> {
        if let Some(e) = self.validate_voter_only_request(r.leader_epoch) {
            return Ok(self.epoch_response(e));
        }
        self.maybe_transition(Some(r.leader_id), r.leader_epoch, io)?;
        Ok(self.epoch_response(Errors::None))
    }

    fn epoch_response(&self, error: Errors) -> EpochResponse {
        EpochResponse {
            error,
            leader_epoch: self.quorum.epoch(),
            leader_id: self.leader_or_sentinel(),
        }
    }

    fn handle_begin_quorum_epoch_response(
        &mut self,
        from: i32,
        r: EpochResponse,
        io: &mut RaftIo,
    ) -> RaftResult<bool> {
        let leader = (r.leader_id >= 0).then_some(r.leader_id);
        if let Some(done) =
            self.maybe_handle_common_response(r.error, leader, r.leader_epoch, io)?
        {
            return Ok(done);
        }
        if r.error == Errors::None {
            if let EpochState::Leader(l) = &mut self.quorum.state {
                l.add_acknowledgement_from(from);
            }
            return Ok(true);
        }
        Ok(false)
    }

    fn handle_end_quorum_epoch(
        &mut self,
        r: EndQuorumEpochRequest,
        io: &mut RaftIo,
    ) -> RaftResult<EpochResponse> {
        if let Some(e) = self.validate_voter_only_request(r.leader_epoch) {
            return Ok(self.epoch_response(e));
        }
        self.maybe_transition(Some(r.leader_id), r.leader_epoch, io)?;
        let local = self.local_id();
        let backoff_max = self.config.election_backoff_max_ms;
        let now = io.now_ms;
        if let EpochState::Follower(f) = &mut self.quorum.state {
            if f.leader_id == r.leader_id {
                let n = r.preferred_successors.len();
                let pos = r
                    .preferred_successors
                    .iter()
                    .position(|s| *s == local)
                    .unwrap_or(n);
                let backoff = strict_exponential_election_backoff_ms(pos, n, backoff_max);
                f.fetch_deadline_ms = now + backoff;
            }
        }
        Ok(self.epoch_response(Errors::None))
    }

    fn handle_end_quorum_epoch_response(
        &mut self,
        from: i32,
        r: EpochResponse,
        io: &mut RaftIo,
    ) -> RaftResult<bool> {
        let leader = (r.leader_id >= 0).then_some(r.leader_id);
        if let Some(done) =
            self.maybe_handle_common_response(r.error, leader, r.leader_epoch, io)?
        {
            return Ok(done);
        }
        if r.error == Errors::None {
            if let EpochState::Resigned(s) = &mut self.quorum.state {
                s.unacked_voters.retain(|v| *v != from);
            }
            return Ok(true);
        }
        Ok(false)
    }

    fn fetch_error_response(&self, error: Errors, io: &RaftIo) -> FetchResponse {
        FetchResponse {
            error,
            leader_epoch: self.quorum.epoch(),
            leader_id: self.leader_or_sentinel(),
            high_watermark: self.high_watermark().unwrap_or(-1),
            log_start_offset: io.disk.metadata_log.start_offset(),
            diverging_epoch: None,
            snapshot_id: None,
            records: Vec::new(),
        }
    }

    /// Handle a fetch; None when it was parked in the purgatory.
    fn handle_fetch_request(
        &mut self,
        from: i32,
        correlation_id: u64,
        r: FetchRequest,
        io: &mut RaftIo,
    ) -> RaftResult<Option<FetchResponse>> {
        let epoch = self.quorum.epoch();
        let error = if r.current_leader_epoch < epoch {
            Some(Errors::FencedLeaderEpoch)
        } else if r.current_leader_epoch > epoch {
            Some(Errors::UnknownLeaderEpoch)
        } else if !matches!(self.quorum.state, EpochState::Leader(_)) {
            Some(Errors::NotLeaderOrFollower)
        } else {
            None
        };
        if let Some(e) = error {
            return Ok(Some(self.fetch_error_response(e, io)));
        }
        let response = self.try_complete_fetch(from, &r, io);
        // KAFKA-14145: a fetch whose high watermark is older than the leader's is answered at
        // once, so that followers and brokers learn of a commit within a round trip.
        let must_answer = !response.records.is_empty()
            || response.diverging_epoch.is_some()
            || response.snapshot_id.is_some()
            || r.max_wait_ms == 0
            || r.high_watermark < response.high_watermark;
        if must_answer {
            return Ok(Some(response));
        }
        self.fetch_purgatory.push(ParkedFetch {
            from,
            correlation_id,
            request: r.clone(),
            deadline_ms: io.now_ms + r.max_wait_ms,
            original: response,
        });
        Ok(None)
    }

    /// `tryCompleteFetchRequest`: validate the fetch position, read, update the replica state.
    fn try_complete_fetch(
        &mut self,
        from: i32,
        r: &FetchRequest,
        io: &mut RaftIo,
    ) -> FetchResponse {
        let mut resp = self.fetch_error_response(Errors::None, io);
        match self.validate_fetch(r.fetch_offset, r.last_fetched_epoch, io) {
            ValidOffsetAndEpoch::Valid => {}
            ValidOffsetAndEpoch::Diverging(d) => {
                resp.diverging_epoch = Some(d);
                return resp;
            }
            ValidOffsetAndEpoch::Snapshot(id) => {
                resp.snapshot_id = Some(id);
                return resp;
            }
        }
        let records = io
            .disk
            .metadata_log
            .read(r.fetch_offset, self.config.fetch_max_bytes);
        let leader_end = io.disk.metadata_log.end_offset();
        let key = self
            .quorum
            .voters
            .iter()
            .find(|v| v.key.id == from)
            .map(|v| v.key)
            .unwrap_or(ReplicaKey {
                id: from,
                directory_id: None,
            });
        let now = io.now_ms;
        let update = match &mut self.quorum.state {
            EpochState::Leader(l) => l.update_replica_state(key, now, r.fetch_offset, leader_end),
            _ => None,
        };
        resp.high_watermark = self.high_watermark().unwrap_or(-1);
        resp.records = records;
        if let Some(u) = update {
            self.log_leader_hw(u, io);
            self.on_update_leader_high_watermark(io);
        }
        resp
    }

    /// `onUpdateLeaderHighWatermark`: every high-watermark advance completes all the parked
    /// fetches (each answered with the new high watermark).
    fn on_update_leader_high_watermark(&mut self, io: &mut RaftIo) {
        let parked = std::mem::take(&mut self.fetch_purgatory);
        for p in parked {
            let resp = self.try_complete_fetch(p.from, &p.request, io);
            self.respond(p.from, p.correlation_id, RaftResponse::Fetch(resp), io);
        }
    }

    fn handle_fetch_response(
        &mut self,
        from: i32,
        r: FetchResponse,
        io: &mut RaftIo,
    ) -> RaftResult<bool> {
        let leader = (r.leader_id >= 0).then_some(r.leader_id);
        if let Some(done) =
            self.maybe_handle_common_response(r.error, leader, r.leader_epoch, io)?
        {
            return Ok(done);
        }
        if r.error != Errors::None {
            self.log(
                io,
                Level::Error,
                format!(
                    "Unexpected error {} in FETCH response from {from}",
                    r.error.name()
                ),
            );
            return Ok(false);
        }
        let EpochState::Follower(f) = &self.quorum.state else {
            return Ok(true);
        };
        if f.leader_id != from {
            // A response from a bootstrap server that is not our leader: nothing to take.
            return Ok(true);
        }
        let now = io.now_ms;
        if let Some(d) = r.diverging_epoch {
            if let Some(hw) = f.high_watermark {
                if d.offset < hw {
                    return Err(format!(
                        "The leader requested truncation to offset {} , which is below the current high watermark {hw}",
                        d.offset
                    ));
                }
            }
            let to = io.disk.metadata_log.truncate_to_end_offset(d);
            self.log(
                io,
                Level::Info,
                format!("Truncated to offset {to} from Fetch response from leader {from}"),
            );
            // The high watermark is not updated after a truncation.
            if let EpochState::Follower(f) = &mut self.quorum.state {
                f.reset_fetch_timeout_for_successful_fetch(now);
            }
            return Ok(true);
        } else if let Some(id) = r.snapshot_id {
            // The HW is not updated on this path.
            self.begin_fetching_snapshot(from, id, io);
            if let EpochState::Follower(f) = &mut self.quorum.state {
                f.reset_fetch_timeout_for_successful_fetch(now);
            }
            return Ok(true);
        } else if !r.records.is_empty() {
            io.disk.metadata_log.append_as_follower(&r.records)?;
        }
        let end = io.disk.metadata_log.end_offset();
        let prefix = self.prefix.clone();
        if let EpochState::Follower(f) = &mut self.quorum.state {
            if r.high_watermark >= 0 {
                let new_hw = end.min(r.high_watermark);
                match f.high_watermark {
                    None => {
                        f.high_watermark = Some(new_hw);
                        let epoch = f.epoch;
                        io.log_line(
                            Level::Info,
                            &prefix,
                            loggers::FOLLOWER_STATE,
                            format!("High watermark set to Optional[LogOffsetMetadata(offset={new_hw}, metadata=Optional.empty)] for the first time for epoch {epoch}"),
                        );
                    }
                    Some(hw) if new_hw > hw => f.high_watermark = Some(new_hw),
                    _ => {}
                }
            }
            f.reset_fetch_timeout_for_successful_fetch(now);
        }
        Ok(true)
    }

    /// A one-line description of the state for views and status output.
    pub fn describe(&self) -> String {
        state_text(&self.quorum.state)
    }
}

/// Voters other than the leader by descending fetch offset (the preferred successors).
fn leader_successors(l: &LeaderState) -> Vec<i32> {
    l.voters_by_descending_end_offset()
        .into_iter()
        .map(|(id, _)| id)
        .filter(|id| *id != l.local.id)
        .collect()
}

/// `strictExponentialElectionBackoffMs(positionInSuccessors, totalNumSuccessors)`.
pub fn strict_exponential_election_backoff_ms(position: usize, total: usize, max_ms: u64) -> u64 {
    if position == 0 {
        0
    } else if position >= total {
        max_ms
    } else {
        let base = max_ms >> (total - 1);
        max_ms.min(base << (position - 1))
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_backoff_matches_kafka_examples() {
        assert_eq!(strict_exponential_election_backoff_ms(0, 2, 1000), 0);
        assert_eq!(strict_exponential_election_backoff_ms(1, 2, 1000), 500);
        assert_eq!(strict_exponential_election_backoff_ms(1, 4, 1000), 125);
        assert_eq!(strict_exponential_election_backoff_ms(3, 4, 1000), 500);
        assert_eq!(strict_exponential_election_backoff_ms(4, 4, 1000), 1000);
    }
}
