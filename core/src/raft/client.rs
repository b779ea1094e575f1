//! KafkaRaftClient: one replica of `__cluster_metadata-0`. Elections are Raft with PreVote;
//! replication is driven by Fetch from followers and observers.
//!
//! Like Kafka's client it is a state machine polled by one thread: [`KafkaRaftClient::handle`]
//! takes one inbound message, [`KafkaRaftClient::poll`] does the work of the current state and
//! says when it next needs to run.
//!
//! This file holds the struct and its construction; the rest of `impl KafkaRaftClient` is split
//! as Kafka's KafkaRaftClient.java is laid out:
//! - `transitions`: `transitionTo*` / `onBecome*` and `maybeTransition`;
//! - `append`: `scheduleAppend` and draining the accumulator into the log;
//! - `send`: `maybeSendRequests`, Fetch/FetchSnapshot/Vote/BeginQuorumEpoch sending, responding;
//! - `listeners`: `pollListeners` / `updateListenersProgress` (ListenerContext);
//! - `shutdown`: graceful shutdown;
//! - `poll`: `poll`, `pollCurrentState` and each state's poll;
//! - `inbound`: `handleRequest` / `handleResponse` dispatch, `maybeHandleCommonResponse`;
//! - `vote`: Vote and PreVote requests and responses;
//! - `quorum_epoch`: BeginQuorumEpoch and EndQuorumEpoch;
//! - `fetch_request`: the leader answering Fetch, its fetch purgatory;
//! - `fetch_response`: the follower handling a Fetch response;
//! - `snapshots`: creating, serving, downloading and cleaning snapshots.

use super::accumulator::BatchAccumulator;
use super::config::QuorumConfig;
use super::control_records::KRaftControlRecordStateMachine;
use super::io::{loggers, RaftIo};
use super::quorum_state::{state_text, QuorumState};
use super::replica_key::ReplicaKey;
use super::state::EpochState;
use super::voter_set::VoterSet;
use crate::common::node_log::Level;
use crate::common::offset_and_epoch::OffsetAndEpoch;
use crate::common::uuid::Uuid;
use fetch_request::ParkedFetch;

mod append;
mod fetch_request;
mod fetch_response;
mod inbound;
mod listeners;
mod poll;
mod quorum_epoch;
mod send;
mod shutdown;
mod snapshots;
mod transitions;
mod update_voter;
mod vote;
mod voters;

pub use append::AppendError;
pub use quorum_epoch::strict_exponential_election_backoff_ms;

/// A fatal fault in the Raft thread; the process exits, as Kafka's fatalFaultHandler does.
pub type RaftResult<T> = Result<T, String>;

/// What a replica is started with, from its properties and meta.properties.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaftSettings {
    /// node.id
    pub local_id: i32,
    /// meta.properties directory.id
    pub directory_id: Uuid,
    /// The CONTROLLER listener's port (0 on a broker).
    pub local_port: u16,
    /// `controller.quorum.voters` (empty with `controller.quorum.bootstrap.servers`).
    pub static_voters: VoterSet,
    /// The nodes it asks to find the leader, with their CONTROLLER ports: the static voters
    /// or the bootstrap servers.
    pub bootstrap_servers: Vec<(i32, u16)>,
    /// `canBecomeVoter`: a controller (a broker never joins the voters).
    pub can_become_voter: bool,
}

/// One replica of the metadata log.
#[derive(Clone, Debug)]
pub struct KafkaRaftClient {
    /// The quorum state.
    pub quorum: QuorumState,
    config: QuorumConfig,
    cluster_id: String,
    requests: super::request_manager::RequestManager,
    /// KRaftControlRecordStateMachine (`partitionState`): the voter set and kraft.version as
    /// the log says them, uncommitted.
    partition_state: KRaftControlRecordStateMachine,
    /// This replica's CONTROLLER listener port (0 for a broker).
    local_port: u16,
    /// The nodes it fetches from to find the leader.
    bootstrap_servers: Vec<i32>,
    /// Whether it may join the voters (a controller).
    can_become_voter: bool,
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

impl KafkaRaftClient {
    /// Start a replica (process start): read the control records of the checkpoint and the
    /// log (`partitionState.updateState`), then `quorum-state`, and pick the initial state.
    /// `static_voters` is `controller.quorum.voters` (empty with
    /// `controller.quorum.bootstrap.servers`); `local_port` the CONTROLLER listener's port.
    pub fn new(
        settings: RaftSettings,
        config: QuorumConfig,
        cluster_id: String,
        io: &mut RaftIo,
    ) -> RaftResult<Self> {
        let RaftSettings {
            local_id,
            directory_id,
            local_port,
            static_voters,
            bootstrap_servers,
            can_become_voter,
        } = settings;
        let prefix = format!("[RaftManager id={local_id}] ");
        let clean_interval_ms = config.metadata_log.clean_interval_ms;
        let local = ReplicaKey {
            id: local_id,
            directory_id: Some(directory_id),
        };
        let mut partition_state = KRaftControlRecordStateMachine::new(static_voters);
        partition_state.update_state(io, &prefix);
        let voters = partition_state.last_voter_set().clone();
        let mut quorum =
            QuorumState::initialize(local, voters, config.clone(), prefix.clone(), io)?;
        quorum
            .known_endpoints
            .extend(bootstrap_servers.iter().copied());
        let bootstrap_servers: Vec<i32> = bootstrap_servers.iter().map(|(id, _)| *id).collect();
        let mut client = KafkaRaftClient {
            quorum,
            config,
            cluster_id,
            partition_state,
            local_port,
            bootstrap_servers,
            can_become_voter,
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

    /// This replica's CONTROLLER listener port (0 for a broker).
    pub fn local_port(&self) -> u16 {
        self.local_port
    }

    /// The control records read so far: the voter set and kraft.version in force.
    pub fn partition_state(&self) -> &KRaftControlRecordStateMachine {
        &self.partition_state
    }

    /// After the log changed (an append, a fetch, a snapshot): read its new control records
    /// (`partitionState.updateState`), and put a new voter set in force at once.
    fn update_partition_state(&mut self, io: &mut RaftIo) {
        if self.partition_state.update_state(io, &self.prefix) {
            self.apply_voter_set(io);
        }
    }

    /// After the log was truncated at `end_offset` (`partitionState.truncateNewEntries`):
    /// the voter set it removed is taken back.
    fn truncate_partition_state(&mut self, end_offset: i64, io: &mut RaftIo) {
        if self.partition_state.truncate_new_entries(end_offset) {
            self.apply_voter_set(io);
        }
    }

    /// The quorum and, on the leader, its replica states follow the voter set now in force
    /// (QuorumState reads `partitionState.lastVoterSet()`; LeaderState.updateLocalState).
    fn apply_voter_set(&mut self, io: &mut RaftIo) {
        let set = self.partition_state.last_voter_set().clone();
        if let EpochState::Leader(l) = &mut self.quorum.state {
            l.update_voter_set(&set, io.now_ms);
        }
        self.quorum.known_endpoints.extend(
            set.nodes()
                .filter(|n| n.port > 0)
                .map(|n| (n.key.id, n.port)),
        );
        self.quorum.voters = set;
    }

    /// The current epoch state.
    pub fn state(&self) -> &EpochState {
        &self.quorum.state
    }

    /// The high watermark known here.
    pub fn high_watermark(&self) -> Option<i64> {
        self.quorum.state.high_watermark()
    }

    /// controller.quorum.append.linger.ms
    pub fn append_linger_ms(&self) -> u64 {
        self.config.append_linger_ms
    }

    /// Records waiting in the leader's accumulator.
    pub fn pending_records(&self) -> usize {
        self.accumulator
            .as_ref()
            .map(|a| a.pending_records())
            .unwrap_or(0)
    }

    /// Log a line as KafkaRaftClient.
    fn log(&self, io: &mut RaftIo, level: Level, message: String) {
        io.log_line(level, &self.prefix, loggers::KAFKA_RAFT_CLIENT, message);
    }

    /// Forget every connection's in-flight request and backoff (on each transition).
    fn reset_connections(&mut self) {
        self.requests.reset_all();
    }

    /// The log end offset and the epoch of its last batch.
    fn end_offset(&self, io: &RaftIo) -> OffsetAndEpoch {
        io.disk.metadata_log.end_offset_and_epoch()
    }

    /// The known leader, or -1 as the RPCs say "none".
    fn leader_or_sentinel(&self) -> i32 {
        self.quorum.leader_id().unwrap_or(-1)
    }

    /// A one-line description of the state for views and status output.
    pub fn describe(&self) -> String {
        state_text(&self.quorum.state)
    }
}
