//! QuorumController: one event queue, one event handler; writes follow the article's section 3:
//! generateRecordsAndResult -> ControllerResult -> prepareAppend (offset) -> replay in memory
//! before commit -> schedulePreparedAppend -> handleScheduleAppend (snapshot at that offset) ->
//! deferred until committed -> completeUpTo on commit.

use super::cluster_control::{supported_features, ClusterControlManager};
use super::configuration_control::ConfigurationControlManager;
use super::deferred_event_queue::DeferredEventQueue;
use super::event_handler_exception_info::{
    event_duration_us, identity_hash_code, EventHandlerExceptionInfo,
};
use super::event_queue::KafkaEventQueue;
use super::feature_control::{
    bootstrap_features, is_cordoned_log_dirs_supported, FeatureControlManager, METADATA_VERSION,
    METADATA_VERSION_NAME,
};
use super::heartbeat_manager::{self, BrokerControlState, BrokerHeartbeatManager, HeartbeatAsk};
use super::heartbeat_tracker::BrokerIdAndEpoch;
use super::offset_control::OffsetControlManager;
use super::partition_change_builder::{PartitionChangeBuilder, PARTITION_CHANGE_BUILDER_LOGGER};
use super::periodic_task_control::{
    activated_line, deactivated_line, PERIODIC_TASK_CONTROL_LOGGER,
};
use super::replication_control::ReplicationControlManager;
use crate::common::message::controller::{
    ApiError, ControllerMessage, ControllerRequest, ControllerResponse, TopicResult,
};
use crate::common::node_log::{Level, LogFile, LogLine};
use crate::common::uuid::Uuid;
use crate::metadata::{
    BeginTransactionRecord, BrokerRegistrationChangeRecord, ConfigRecord, EndTransactionRecord,
    Endpoint, MetadataRecord, RegisterControllerRecord, FENCING_FENCE, FENCING_UNFENCE,
    RESOURCE_TYPE_BROKER, SECURITY_PROTOCOL_PLAINTEXT,
};
use crate::metadata::{PartitionRecord, NO_LEADER, RESOURCE_TYPE_TOPIC};
use crate::raft::batch::{Record, RecordBatch};
use crate::raft::client::AppendError;
use crate::raft::io::RaftIo;
use crate::raft::listener::{LeaderAndEpoch, RaftEvent};
use crate::raft::KafkaRaftClient;
use crate::timeline::Revert;
use crate::timeline::Revertable;
use std::sync::Arc;

/// Controller settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControllerConfig {
    /// metadata.max.idle.interval.ms: how often the NoOpRecord task runs; 0 turns it off.
    pub no_op_interval_ms: u64,
    /// broker.session.timeout.ms; the stale-broker check runs every session / 8.
    pub session_timeout_ms: u64,
    /// controller.max.records.per.batch (a cap on the records of one ControllerResult).
    pub max_records_per_batch: usize,
    /// How long a controller waits before retrying a failed registration.
    pub registration_retry_ms: u64,
}

impl Default for ControllerConfig {
    fn default() -> Self {
        ControllerConfig {
            no_op_interval_ms: 500,
            session_timeout_ms: 9000,
            max_records_per_batch: 10_000,
            registration_retry_ms: 100,
        }
    }
}

/// The QuorumController's logger.
const QUORUM_CONTROLLER_LOGGER: &str = "org.apache.kafka.controller.QuorumController";
const REPLICATION_CONTROL_LOGGER: &str = "org.apache.kafka.controller.ReplicationControlManager";
const CLUSTER_CONTROL_LOGGER: &str = "org.apache.kafka.controller.ClusterControlManager";

/// One line a record's replay logs, with its level.
type ReplayLine = (Level, String);

/// A leader as the controller's log lines name it: its id, or `(none)`.
fn leader_name(le: LeaderAndEpoch) -> String {
    le.leader_id
        .map(|l| l.to_string())
        .unwrap_or_else(|| "(none)".into())
}

/// `PeriodicTask.immediatePeriodNs`: how soon a periodic task that did something runs again.
pub const IMMEDIATE_PERIOD_MS: u64 = 10;

/// Who to answer when a write completes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The requesting node (or the admin client).
    pub client: i32,
    /// Its correlation id.
    pub correlation_id: u64,
}

/// The write operations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteOp {
    /// completeActivation: bootstrap records on an empty log.
    CompleteActivation,
    /// writeNoOpRecord (periodic).
    WriteNoOp,
    /// maybeFenceStaleBroker (periodic).
    MaybeFenceStaleBroker,
    /// A client request: registerController, createTopics, deleteTopics,
    /// incrementalAlterConfigs, registerBroker, alterPartition, processBrokerHeartbeat.
    Request(ControllerRequest),
}

impl WriteOp {
    fn name(&self, epoch: i32) -> String {
        match self {
            WriteOp::CompleteActivation => format!("completeActivation[{epoch}]"),
            WriteOp::WriteNoOp => "writeNoOpRecord".into(),
            WriteOp::MaybeFenceStaleBroker => "maybeFenceStaleBroker".into(),
            WriteOp::Request(r) => r.write_event_name().into(),
        }
    }
}

/// An event of the controller's queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ControllerEvent {
    /// A ControllerWriteEvent.
    Write {
        /// The operation.
        op: WriteOp,
        /// Who waits for the response.
        reply: Option<Reply>,
    },
    /// handleCommit, queued by the Raft listener.
    Commit(Vec<Arc<RecordBatch>>),
    /// handleLeaderChange, queued by the Raft listener.
    LeaderChange(LeaderAndEpoch),
    /// handleLoadSnapshot, queued by the Raft listener.
    LoadSnapshot(Arc<crate::raft::snapshot::RawSnapshot>),
}

/// `ControllerResult`: records to write plus the response, and whether they must go in one
/// batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControllerResult {
    /// records
    pub records: Vec<MetadataRecord>,
    /// response
    pub response: Option<ControllerResponse>,
    /// isAtomic
    pub is_atomic: bool,
}

/// A write waiting in the purgatory for its offset to commit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingWrite {
    /// The event name.
    pub name: String,
    /// Who to answer.
    pub reply: Option<Reply>,
    /// The response to send on commit.
    pub response: Option<ControllerResponse>,
    /// The response to send if the leadership is lost first (NOT_CONTROLLER).
    pub failure: Option<ControllerResponse>,
    /// Virtual time the event started (`startProcessingTimeNs`).
    pub start_ms: u64,
    /// The event's `System.identityHashCode`, as its `toString()` shows it.
    pub identity: i32,
}

/// Everything the controller state machine holds, in timeline structures.
#[derive(Clone, Debug, Default)]
pub struct ControllerState {
    /// FeatureControlManager
    pub features: FeatureControlManager,
    /// ClusterControlManager
    pub cluster: ClusterControlManager,
    /// ConfigurationControlManager
    pub configs: ConfigurationControlManager,
    /// ReplicationControlManager
    pub replication: ReplicationControlManager,
}

impl ControllerState {
    /// A canonical text of the current contents (history left out), for comparisons and views.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        for (k, v) in self.features.levels.iter() {
            out.push_str(&format!("feature {k}={v}\n"));
        }
        for (id, c) in self.cluster.controllers.iter() {
            out.push_str(&format!("controller {id} {}\n", c.incarnation_id));
        }
        for (id, b) in self.cluster.brokers.iter() {
            out.push_str(&format!(
                "broker {id} epoch={} fenced={} shutdown={}\n",
                b.record.broker_epoch, b.record.fenced, b.record.in_controlled_shutdown
            ));
        }
        for ((t, n, k), v) in self.configs.configs.iter() {
            out.push_str(&format!("config {t} '{n}' {k}={v}\n"));
        }
        for (name, id) in self.replication.topics_by_name.iter() {
            out.push_str(&format!("topic {name} {id}\n"));
            if let Some(info) = self.replication.topics.get(id) {
                for p in info.parts.values() {
                    out.push_str(&format!("  {}\n", p.partition_registration_text()));
                }
            }
        }
        out
    }
}

impl Revertable for ControllerState {
    fn revert_to_snapshot(&mut self, epoch: i64) {
        self.features.revert_to_snapshot(epoch);
        self.cluster.revert_to_snapshot(epoch);
        self.configs.revert_to_snapshot(epoch);
        self.replication.revert_to_snapshot(epoch);
    }
    fn delete_snapshot(&mut self, epoch: i64, previous: Option<i64>) {
        self.features.delete_snapshot(epoch, previous);
        self.cluster.delete_snapshot(epoch, previous);
        self.configs.delete_snapshot(epoch, previous);
        self.replication.delete_snapshot(epoch, previous);
    }
    fn delete_snapshots_up_to(&mut self, epoch: i64) {
        self.features.delete_snapshots_up_to(epoch);
        self.cluster.delete_snapshots_up_to(epoch);
        self.configs.delete_snapshots_up_to(epoch);
        self.replication.delete_snapshots_up_to(epoch);
    }
}

/// The ControllerRegistrationManager of this controller.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegistrationState {
    /// A request in flight: (destination, correlation id).
    pub pending: Option<(i32, u64)>,
    /// Do not send again before this time.
    pub retry_at_ms: u64,
    /// The active controller accepted this incarnation's registration.
    pub succeeded: bool,
    next_correlation_id: u64,
}

/// The QuorumController of one controller node.
#[derive(Clone, Debug)]
pub struct QuorumController {
    node_id: i32,
    port: u16,
    incarnation_id: Uuid,
    prefix: String,
    config: ControllerConfig,
    /// The event queue.
    pub queue: KafkaEventQueue<ControllerEvent>,
    /// Writes waiting for their offsets to commit.
    pub purgatory: DeferredEventQueue<PendingWrite>,
    /// Offsets and in-memory snapshots.
    pub offset_control: OffsetControlManager,
    /// The replicated state.
    pub state: ControllerState,
    cur_claim_epoch: Option<i32>,
    last_leader: Option<LeaderAndEpoch>,
    /// The last event run, for views.
    pub last_event: Option<String>,
    /// The last ControllerResult produced, for views.
    pub last_result: Option<ControllerResult>,
    /// The last revert of the in-memory state (on renouncing), for views.
    pub last_revert: Option<Revert>,
    /// The ControllerRegistrationManager.
    pub registration: RegistrationState,
    /// Broker sessions (active controller only).
    pub heartbeats: BrokerHeartbeatManager,
    /// The broker a heartbeat write just left in controlled shutdown, for its
    /// `processBatchEndOffset`.
    controlled_shutdown_broker: Option<i32>,
    /// The end offset of the snapshot loaded last, until the next commit is replayed (Kafka
    /// sets lastCommittedOffset to the snapshot's end offset, one past what it holds).
    loaded_snapshot_end: Option<i64>,
}

impl QuorumController {
    /// A controller on node `node_id` whose CONTROLLER listener is `port`.
    pub fn new(node_id: i32, port: u16, incarnation_id: Uuid, config: ControllerConfig) -> Self {
        let heartbeats = BrokerHeartbeatManager::new(config.session_timeout_ms);
        QuorumController {
            node_id,
            port,
            incarnation_id,
            prefix: format!("[QuorumController id={node_id}] "),
            config,
            queue: KafkaEventQueue::default(),
            purgatory: DeferredEventQueue::default(),
            offset_control: OffsetControlManager::default(),
            state: ControllerState::default(),
            cur_claim_epoch: None,
            last_leader: None,
            last_event: None,
            last_result: None,
            registration: RegistrationState::default(),
            heartbeats,
            controlled_shutdown_broker: None,
            loaded_snapshot_end: None,
            last_revert: None,
        }
    }

    /// broker.session.timeout.ms of this controller.
    pub fn session_timeout_ms(&self) -> u64 {
        self.config.session_timeout_ms
    }

    /// Whether this controller is the active one.
    pub fn is_active(&self) -> bool {
        self.cur_claim_epoch.is_some()
    }

    /// The epoch it is active in.
    pub fn active_epoch(&self) -> Option<i32> {
        self.cur_claim_epoch
    }

    /// The sessions of the registered brokers' current epochs: (broker id, time of the last
    /// heartbeat), in the tracker's order.
    pub fn broker_sessions(&self) -> Vec<(i32, u64)> {
        let brokers = &self.state.cluster.brokers;
        self.heartbeats
            .sessions(|id| brokers.get(&id).map(|b| b.record.broker_epoch))
            .collect()
    }

    /// The leader last told by Raft.
    pub fn last_leader(&self) -> Option<LeaderAndEpoch> {
        self.last_leader
    }

    fn log(&self, io: &mut RaftIo, level: Level, logger: &'static str, message: String) {
        self.log_to(io, LogFile::Controller, level, logger, message);
    }

    /// A line with this controller's prefix in `file`: loggers under
    /// `org.apache.kafka.controller` go to controller.log, the others (e.g.
    /// `org.apache.kafka.deferred.DeferredEventQueue`) to server.log.
    fn log_to(
        &self,
        io: &mut RaftIo,
        file: LogFile,
        level: Level,
        logger: &'static str,
        message: String,
    ) {
        io.log.push(LogLine {
            time_ms: io.now_ms,
            level,
            file,
            prefix: self.prefix.clone(),
            message,
            logger,
        });
    }

    /// `handleEventException`'s INFO line for the event `name` that started at `start_ms`.
    fn log_event_failure(
        &self,
        io: &mut RaftIo,
        name: &str,
        start_ms: u64,
        info: &EventHandlerExceptionInfo,
    ) {
        // epoch = curClaimEpoch, or the last committed epoch on a standby.
        let epoch = self
            .cur_claim_epoch
            .unwrap_or(self.offset_control.last_committed_epoch);
        let text = info.failure_message(
            epoch,
            event_duration_us(start_ms, io.now_ms),
            self.is_active(),
            self.offset_control.last_committed_offset,
        );
        self.log(
            io,
            Level::Info,
            QUORUM_CONTROLLER_LOGGER,
            format!("{name}: {text}"),
        );
    }

    /// Queue what the Raft listener was told (`appendRaftEvent`).
    pub fn handle_raft_events(&mut self, events: Vec<RaftEvent>, now_ms: u64) {
        for e in events {
            match e {
                RaftEvent::Commit(batches) => {
                    let base = batches.first().map(|b| b.base_offset).unwrap_or(0);
                    self.queue.append(
                        format!("handleCommit[baseOffset={base}]"),
                        ControllerEvent::Commit(batches),
                        now_ms,
                    );
                }
                RaftEvent::LeaderChange(le) => {
                    self.queue.append(
                        format!("handleLeaderChange[{}]", le.epoch),
                        ControllerEvent::LeaderChange(le),
                        now_ms,
                    );
                }
                RaftEvent::LoadSnapshot(s) => {
                    self.queue.append(
                        format!(
                            "handleLoadSnapshot[snapshotId={}]",
                            crate::raft::client::offset_and_epoch_text(s.id)
                        ),
                        ControllerEvent::LoadSnapshot(s),
                        now_ms,
                    );
                }
            }
        }
    }

    /// A controller RPC arrived: requests become write events; registration responses settle
    /// the ControllerRegistrationManager. A heartbeat first updates its session
    /// (`trackBrokerHeartbeat`), or is answered NOT_CONTROLLER at once (to `out`) by a
    /// controller that is not active.
    pub fn handle_message(
        &mut self,
        from: i32,
        msg: ControllerMessage,
        now_ms: u64,
        out: &mut Vec<(i32, ControllerMessage)>,
    ) {
        match msg {
            ControllerMessage::Request {
                correlation_id,
                body,
            } => {
                let reply = Some(Reply {
                    client: from,
                    correlation_id,
                });
                if let ControllerRequest::BrokerHeartbeat {
                    broker_id,
                    broker_epoch,
                    ..
                } = &body
                {
                    if !self.is_active() {
                        Self::respond(out, reply, Some(body.not_controller_response()));
                        return;
                    }
                    self.heartbeats
                        .track_broker_heartbeat(*broker_id, *broker_epoch, now_ms);
                }
                let op = WriteOp::Request(body);
                let name = op.name(self.cur_claim_epoch.unwrap_or(-1));
                self.queue
                    .append(name, ControllerEvent::Write { op, reply }, now_ms);
            }
            ControllerMessage::Response {
                correlation_id,
                body,
            } => {
                if self.registration.pending.map(|p| p.1) == Some(correlation_id) {
                    self.registration.pending = None;
                    let ok = matches!(
                        body,
                        ControllerResponse::ControllerRegistration { error: None }
                    );
                    self.registration.succeeded = ok;
                    if !ok {
                        self.registration.retry_at_ms = now_ms + self.config.registration_retry_ms;
                    }
                }
            }
        }
    }

    /// ControllerRegistrationManager: register with the active controller until the log holds
    /// this incarnation's RegisterControllerRecord. Returns a request to send.
    pub fn poll_registration(&mut self, now_ms: u64) -> Option<(i32, ControllerMessage)> {
        let registered = self
            .state
            .cluster
            .controllers
            .get(&self.node_id)
            .is_some_and(|r| r.incarnation_id == self.incarnation_id);
        if registered
            || self.registration.succeeded
            || self.registration.pending.is_some()
            || now_ms < self.registration.retry_at_ms
        {
            return None;
        }
        let leader = self.last_leader?.leader_id?;
        // Wait until the log has been bootstrapped (metadata.version is known).
        self.state.features.levels.get(METADATA_VERSION)?;
        let cid = self.registration.next_correlation_id;
        self.registration.next_correlation_id += 1;
        self.registration.pending = Some((leader, cid));
        Some((
            leader,
            ControllerMessage::Request {
                correlation_id: cid,
                body: ControllerRequest::ControllerRegistration {
                    controller_id: self.node_id,
                    incarnation_id: self.incarnation_id,
                    port: self.port,
                },
            },
        ))
    }

    /// A registration request to `to` failed at the network level.
    pub fn registration_failed(&mut self, correlation_id: u64, now_ms: u64) {
        if self.registration.pending.map(|p| p.1) == Some(correlation_id) {
            self.registration.pending = None;
            self.registration.retry_at_ms = now_ms + self.config.registration_retry_ms;
        }
    }

    /// When the event handler next has work.
    pub fn next_run_ms(&self, now_ms: u64) -> Option<u64> {
        self.queue.next_run_ms(now_ms)
    }

    /// Run exactly one event of the queue. Responses to send go to `out`.
    pub fn run_one(
        &mut self,
        raft: &mut KafkaRaftClient,
        io: &mut RaftIo,
        out: &mut Vec<(i32, ControllerMessage)>,
    ) -> Result<(), String> {
        let Some(ev) = self.queue.poll(io.now_ms) else {
            return Ok(());
        };
        self.last_event = Some(ev.name.clone());
        match ev.event {
            ControllerEvent::Write { op, reply } => {
                self.run_write(ev.name, op, reply, raft, io, out)
            }
            ControllerEvent::Commit(batches) => self.handle_commit(batches, io, out),
            ControllerEvent::LeaderChange(le) => self.handle_leader_change(le, raft, io, out),
            ControllerEvent::LoadSnapshot(s) => self.handle_load_snapshot(&s, io),
        }
    }

    /// `handleLoadSnapshot` on a standby: OffsetControlManager.beginLoadSnapshot resets every
    /// timeline structure, the snapshot's records are replayed, endLoadSnapshot takes an
    /// in-memory snapshot at the snapshot's end offset.
    fn handle_load_snapshot(
        &mut self,
        snapshot: &crate::raft::snapshot::RawSnapshot,
        io: &mut RaftIo,
    ) -> Result<(), String> {
        const OFFSETS: &str = "org.apache.kafka.controller.OffsetControlManager";
        let name = crate::raft::snapshot::snapshot_name(snapshot.id);
        if let Some(epoch) = self.cur_claim_epoch {
            return Err(format!(
                "Asked to load snapshot {name}, but we are the active controller at epoch {epoch}"
            ));
        }
        let oc = &self.offset_control;
        let line = format!(
            "Starting to load snapshot {name}. Previous lastCommittedOffset was {}. Previous transactionStartOffset was {}.",
            oc.last_committed_offset, oc.transaction_start_offset
        );
        self.log(io, Level::Info, OFFSETS, line);
        self.state = ControllerState::default();
        self.offset_control = OffsetControlManager::default();
        self.offset_control.snapshot_registry = crate::timeline::SnapshotRegistry::new();
        let last_contained = snapshot.id.offset - 1;
        for r in snapshot.metadata_records() {
            self.replay(r, last_contained, io).map_err(|e| {
                format!(
                    "Unable to apply {} record from snapshot {name} on standby controller: {e}",
                    r.type_name()
                )
            })?;
        }
        self.log(
            io,
            Level::Info,
            OFFSETS,
            format!("Successfully loaded snapshot {name}."),
        );
        let oc = &mut self.offset_control;
        oc.snapshot_registry
            .idempotent_create_snapshot(snapshot.id.offset)
            .map_err(|e| e.to_string())?;
        oc.last_committed_offset = snapshot.id.offset;
        oc.last_committed_epoch = snapshot.id.epoch;
        oc.last_stable_offset = snapshot.id.offset;
        oc.transaction_start_offset = -1;
        oc.next_write_offset = -1;
        self.loaded_snapshot_end = Some(snapshot.id.offset);
        Ok(())
    }

    fn respond(
        out: &mut Vec<(i32, ControllerMessage)>,
        reply: Option<Reply>,
        response: Option<ControllerResponse>,
    ) {
        if let (Some(r), Some(body)) = (reply, response) {
            out.push((
                r.client,
                ControllerMessage::Response {
                    correlation_id: r.correlation_id,
                    body,
                },
            ));
        }
    }

    fn not_controller(op: &WriteOp) -> Option<ControllerResponse> {
        match op {
            WriteOp::Request(r) => Some(r.not_controller_response()),
            _ => None,
        }
    }

    fn generate(&mut self, op: &WriteOp, io: &mut RaftIo) -> ControllerResult {
        match op {
            WriteOp::CompleteActivation => {
                // ActivationRecordsGenerator.generate, logging through the QuorumController's
                // log::warn.
                let mut records = Vec::new();
                if self.state.features.levels.get(METADATA_VERSION).is_none() {
                    // recordsForEmptyLog: the bootstrap records (the feature levels) in a
                    // metadata transaction, plus the cluster-wide min.insync.replicas that ELR
                    // needs (not counted among the bootstrap records).
                    let bootstrap: Vec<MetadataRecord> = bootstrap_features()
                        .into_iter()
                        .map(MetadataRecord::FeatureLevel)
                        .collect();
                    self.log(
                        io,
                        Level::Warn,
                        QUORUM_CONTROLLER_LOGGER,
                        format!(
                            "Performing controller activation. The metadata log appears to be empty. Appending {} bootstrap record(s) in metadata transaction at metadata.version {METADATA_VERSION_NAME} from bootstrap source 'bootstrap'.",
                            bootstrap.len()
                        ),
                    );
                    records.push(MetadataRecord::BeginTransaction(BeginTransactionRecord {
                        name: Some("Bootstrap records".into()),
                    }));
                    records.extend(bootstrap);
                    records.push(MetadataRecord::Config(ConfigRecord {
                        resource_type: RESOURCE_TYPE_BROKER,
                        resource_name: String::new(),
                        name: "min.insync.replicas".into(),
                        value: Some("1".into()),
                    }));
                    records.push(MetadataRecord::EndTransaction(EndTransactionRecord));
                } else {
                    // recordsForNonEmptyLog: nothing to write (the simulation never leaves a
                    // metadata transaction open across a failover).
                    self.log(
                        io,
                        Level::Warn,
                        QUORUM_CONTROLLER_LOGGER,
                        "Performing controller activation.".into(),
                    );
                }
                ControllerResult {
                    records,
                    response: None,
                    is_atomic: false,
                }
            }
            WriteOp::WriteNoOp => ControllerResult {
                records: vec![MetadataRecord::NoOp],
                response: None,
                is_atomic: false,
            },
            WriteOp::MaybeFenceStaleBroker => {
                let (records, did_work) = self.maybe_fence_one_stale_broker(io);
                // PeriodicTaskControlManager.reschedule, after the task ran: again in 10 ms
                // (immediatePeriodNs) when it did something, else after its period.
                let delay = if did_work {
                    IMMEDIATE_PERIOD_MS
                } else {
                    self.stale_broker_period_ms()
                };
                self.schedule_periodic_in(op.clone(), io.now_ms, delay);
                ControllerResult {
                    records,
                    response: None,
                    is_atomic: false,
                }
            }
            WriteOp::Request(ControllerRequest::BrokerRegistration {
                broker_id,
                incarnation_id,
                port,
                log_dirs,
                previous_broker_epoch,
            }) => {
                let next = self.offset_control.next_write_offset;
                let id = *broker_id;
                let now = io.now_ms;
                let tracker = &self.heartbeats.tracker;
                let registered = self.state.cluster.register_broker(
                    id,
                    *incarnation_id,
                    *port,
                    log_dirs.clone(),
                    *previous_broker_epoch,
                    next,
                    |epoch| tracker.has_valid_session(BrokerIdAndEpoch { id, epoch }, now),
                    |is_clean| self.handle_broker_shutdown(id, is_clean, io),
                );
                match registered {
                    Ok((records, record, line)) => {
                        self.log(io, Level::Info, CLUSTER_CONTROL_LOGGER, line);
                        let same_incarnation = self
                            .state
                            .cluster
                            .brokers
                            .get(broker_id)
                            .is_some_and(|b| b.record.incarnation_id == *incarnation_id);
                        if !same_incarnation {
                            // The old incarnation's session entry stays in the tracker until
                            // it expires ("Removing heartbeat tracker entry ... previous epoch").
                            self.heartbeats.remove(id);
                        }
                        self.heartbeats.register(id, record.fenced);
                        // Clean-up records may be many: not atomic, the RegisterBrokerRecord
                        // last so that a new controller redoes the clean-up on re-registration.
                        ControllerResult {
                            response: Some(ControllerResponse::BrokerRegistration {
                                error: None,
                                broker_epoch: record.broker_epoch,
                            }),
                            records,
                            is_atomic: false,
                        }
                    }
                    Err((e, message)) => {
                        let info = EventHandlerExceptionInfo::api(
                            "DuplicateBrokerRegistrationException",
                            message,
                        );
                        self.log_event_failure(io, "registerBroker", now, &info);
                        ControllerResult {
                            records: Vec::new(),
                            response: Some(ControllerResponse::BrokerRegistration {
                                error: Some(e),
                                broker_epoch: -1,
                            }),
                            is_atomic: true,
                        }
                    }
                }
            }
            WriteOp::Request(ControllerRequest::AlterPartition {
                broker_id,
                broker_epoch,
                topic_id,
                partition_id,
                leader_epoch,
                partition_epoch,
                new_isr,
            }) => {
                let err = |e| ControllerResult {
                    records: Vec::new(),
                    response: Some(ControllerResponse::AlterPartition { error: Some(e) }),
                    is_atomic: true,
                };
                let registered = self
                    .state
                    .cluster
                    .brokers
                    .get(broker_id)
                    .is_some_and(|b| b.record.broker_epoch == *broker_epoch);
                let part = self
                    .state
                    .replication
                    .topics
                    .get(topic_id)
                    .and_then(|t| t.parts.get(partition_id))
                    .cloned();
                let usable = self.state.cluster.active_brokers();
                match part {
                    _ if !registered => err(ApiError::StaleBrokerEpoch),
                    None => err(ApiError::UnknownTopicOrPartition),
                    Some(p) if p.leader != *broker_id => err(ApiError::NotLeaderOrFollower),
                    Some(p) if p.leader_epoch != *leader_epoch => err(ApiError::FencedLeaderEpoch),
                    Some(p) if p.partition_epoch != *partition_epoch => {
                        err(ApiError::InvalidUpdateVersion)
                    }
                    Some(_) if new_isr.iter().any(|r| !usable.contains(r)) => {
                        err(ApiError::IneligibleReplica)
                    }
                    Some(p) => {
                        // The PartitionChangeBuilder with the requested ISR: a shrink below
                        // min ISR moves the dropped members into the ELR, a grow clears it.
                        let topic = self
                            .state
                            .replication
                            .topics
                            .get(topic_id)
                            .map(|t| t.name.clone())
                            .unwrap_or_default();
                        let acceptable = |r: i32| self.is_active_broker(r);
                        let min_isr = self.effective_min_isr(&topic, p.replicas.len());
                        let (record, lines) = PartitionChangeBuilder::new(
                            &p,
                            &acceptable,
                            min_isr,
                            self.elr_enabled(),
                        )
                        .set_target_isr(new_isr.clone())
                        .build();
                        self.log_builder_lines(io, lines);
                        ControllerResult {
                            records: record
                                .map(MetadataRecord::PartitionChange)
                                .into_iter()
                                .collect(),
                            response: Some(ControllerResponse::AlterPartition { error: None }),
                            is_atomic: true,
                        }
                    }
                }
            }
            WriteOp::Request(ControllerRequest::BrokerHeartbeat {
                broker_id,
                broker_epoch,
                current_metadata_offset,
                want_fence,
                want_shut_down,
                cordoned_log_dirs,
            }) => self.process_broker_heartbeat(
                *broker_id,
                *broker_epoch,
                HeartbeatAsk {
                    want_fence: *want_fence,
                    want_shut_down: *want_shut_down,
                    current_metadata_offset: *current_metadata_offset,
                },
                cordoned_log_dirs,
                io,
            ),
            WriteOp::Request(ControllerRequest::ControllerRegistration {
                controller_id,
                incarnation_id,
                port,
            }) => ControllerResult {
                records: vec![MetadataRecord::RegisterController(
                    RegisterControllerRecord {
                        controller_id: *controller_id,
                        incarnation_id: *incarnation_id,
                        zk_migration_ready: false,
                        end_points: vec![Endpoint {
                            name: "CONTROLLER".into(),
                            host: "localhost".into(),
                            port: *port,
                            security_protocol: SECURITY_PROTOCOL_PLAINTEXT,
                        }],
                        features: supported_features(),
                    },
                )],
                response: Some(ControllerResponse::ControllerRegistration { error: None }),
                is_atomic: true,
            },
            WriteOp::Request(ControllerRequest::CreateTopics { topics }) => {
                let brokers = self.state.cluster.usable_brokers(&self.heartbeats);
                let cluster = &self.state.cluster;
                let configs = &self.state.configs;
                let (records, results) = self.state.replication.create_topics(
                    topics,
                    &brokers,
                    |r| self.is_active_broker(r),
                    |r| cluster.default_dir(r),
                    io.rng,
                    |t| configs.validate_new_topic(&t.name, &t.configs),
                );
                let summary: Vec<String> = topics
                    .iter()
                    .zip(&results)
                    .map(|(t, r)| match &r.error {
                        None => format!("{}: SUCCESS", t.java_to_string()),
                        Some((e, m)) => format!("{}: {} ({m})", t.java_to_string(), e.name()),
                    })
                    .collect();
                self.log(
                    io,
                    Level::Info,
                    REPLICATION_CONTROL_LOGGER,
                    format!("CreateTopics result(s): {}", summary.join(", ")),
                );
                ControllerResult {
                    records,
                    response: Some(ControllerResponse::CreateTopics {
                        topics: results,
                        error: None,
                    }),
                    is_atomic: true,
                }
            }
            WriteOp::Request(ControllerRequest::IncrementalAlterConfigs {
                resources,
                validate_only,
            }) => {
                let topics = &self.state.replication.topics_by_name;
                let (records, responses) = self.state.configs.incremental_alter_configs(
                    resources,
                    *validate_only,
                    |name| topics.contains_key(name),
                );
                ControllerResult {
                    records,
                    response: Some(ControllerResponse::IncrementalAlterConfigs {
                        responses,
                        error: None,
                    }),
                    is_atomic: true,
                }
            }
            WriteOp::Request(ControllerRequest::DeleteTopics { names }) => {
                let (records, results) = self.state.replication.delete_topics(names);
                ControllerResult {
                    records,
                    response: Some(ControllerResponse::DeleteTopics {
                        topics: results,
                        error: None,
                    }),
                    is_atomic: true,
                }
            }
        }
    }

    /// Schedule the next run of a periodic task: writeNoOpRecord every
    /// metadata.max.idle.interval.ms, maybeFenceStaleBroker every session / 8.
    fn schedule_periodic(&mut self, op: WriteOp, now: u64) {
        let period = match op {
            WriteOp::WriteNoOp => self.config.no_op_interval_ms,
            _ => self.stale_broker_period_ms(),
        };
        self.schedule_periodic_in(op, now, period);
    }

    /// `maybeFenceStaleBrokerPeriodNs`: max(1 ms, session / 8), 1125 ms by default.
    fn stale_broker_period_ms(&self) -> u64 {
        (self.config.session_timeout_ms / 8).max(1)
    }

    /// Schedule the next run of a periodic task `delay_ms` from `now`.
    fn schedule_periodic_in(&mut self, op: WriteOp, now: u64, delay_ms: u64) {
        let name = op.name(0);
        self.queue.schedule_deferred(
            &name,
            now + delay_ms,
            name.clone(),
            ControllerEvent::Write { op, reply: None },
            now,
        );
    }

    /// `handleBrokerFenced`: PartitionChangeRecords taking the broker out of every ISR, then the
    /// BrokerRegistrationChangeRecord that fences it.
    fn handle_broker_fenced(&self, id: i32, epoch: i64, io: &mut RaftIo) -> Vec<MetadataRecord> {
        let partitions = self.partitions_where(|p| p.isr.contains(&id));
        let mut records = self.generate_leader_and_isr_updates(
            io,
            "handleBrokerFenced",
            id,
            NO_LEADER,
            NO_LEADER,
            partitions,
        );
        records.push(MetadataRecord::BrokerRegistrationChange(
            BrokerRegistrationChangeRecord {
                broker_id: id,
                broker_epoch: epoch,
                fenced: FENCING_FENCE,
                ..Default::default()
            },
        ));
        records
    }

    /// `getTopicEffectiveMinIsr`: the topic's min.insync.replicas (topic config, then this
    /// controller's node config, then the cluster default, then 1), capped at the replication
    /// factor.
    fn effective_min_isr(&self, topic: &str, replication_factor: usize) -> usize {
        let configs = &self.state.configs.configs;
        let key = "min.insync.replicas".to_string();
        let value = configs
            .get(&(RESOURCE_TYPE_TOPIC, topic.to_string(), key.clone()))
            .or_else(|| configs.get(&(RESOURCE_TYPE_BROKER, self.node_id.to_string(), key.clone())))
            .or_else(|| configs.get(&(RESOURCE_TYPE_BROKER, String::new(), key)))
            .and_then(|v| v.parse().ok())
            .unwrap_or(1);
        value.min(replication_factor)
    }

    /// `uncleanLeaderElectionEnabledForTopic`: unclean.leader.election.enable of the topic,
    /// else the cluster default, else false.
    fn unclean_election_enabled(&self, topic: &str) -> bool {
        let configs = &self.state.configs.configs;
        let key = "unclean.leader.election.enable".to_string();
        configs
            .get(&(RESOURCE_TYPE_TOPIC, topic.to_string(), key.clone()))
            .or_else(|| configs.get(&(RESOURCE_TYPE_BROKER, String::new(), key)))
            .is_some_and(|v| v == "true")
    }

    /// `FeatureControlManager.isElrFeatureEnabled`: eligible.leader.replicas.version >= 1.
    fn elr_enabled(&self) -> bool {
        self.state
            .features
            .levels
            .get("eligible.leader.replicas.version")
            .is_some_and(|l| *l >= 1)
    }

    /// `handleBrokerShutdown`, ClusterControlManager's `brokerShutdownHandler` when a new
    /// incarnation registers: after an unclean shutdown with ELR on, the broker leaves ISR, ELR
    /// and leadership ("handleBrokerUncleanShutdown", over the partitions with it in the ISR,
    /// then those with it in the ELR); otherwise it leaves the ISRs as if fenced
    /// ("handleBrokerShutdown"), keeping its ELR membership.
    fn handle_broker_shutdown(
        &self,
        id: i32,
        is_clean: bool,
        io: &mut RaftIo,
    ) -> Vec<MetadataRecord> {
        if self.elr_enabled() && !is_clean {
            let in_isr = self.partitions_where(|p| p.isr.contains(&id));
            let mut records = self.generate_leader_and_isr_updates(
                io,
                "handleBrokerUncleanShutdown",
                NO_LEADER,
                NO_LEADER,
                id,
                in_isr,
            );
            let in_elr = self.partitions_where(|p| {
                p.eligible_leader_replicas
                    .as_ref()
                    .is_some_and(|e| e.contains(&id))
            });
            records.extend(self.generate_leader_and_isr_updates(
                io,
                "handleBrokerUncleanShutdown",
                NO_LEADER,
                NO_LEADER,
                id,
                in_elr,
            ));
            records
        } else {
            let in_isr = self.partitions_where(|p| p.isr.contains(&id));
            self.generate_leader_and_isr_updates(
                io,
                "handleBrokerShutdown",
                id,
                NO_LEADER,
                NO_LEADER,
                in_isr,
            )
        }
    }

    /// `ClusterControlManager.isActive`: registered, unfenced, not in controlled shutdown.
    fn is_active_broker(&self, id: i32) -> bool {
        self.state
            .cluster
            .brokers
            .get(&id)
            .is_some_and(|b| !b.record.fenced && !b.record.in_controlled_shutdown)
    }

    /// The (topic, partition) ids of the partitions `pred` picks, in the manager's order.
    fn partitions_where(&self, pred: impl Fn(&PartitionRecord) -> bool) -> Vec<(Uuid, i32)> {
        let mut out = Vec::new();
        for info in self.state.replication.topics.values() {
            for p in info.parts.values() {
                if pred(p) {
                    out.push((p.topic_id, p.partition_id));
                }
            }
        }
        out
    }

    /// The PCB's "Setting new leader ..." INFO lines: controller.log, no prefix.
    fn log_builder_lines(&self, io: &mut RaftIo, lines: Vec<String>) {
        for message in lines {
            io.log.push(crate::common::node_log::LogLine {
                time_ms: io.now_ms,
                level: Level::Info,
                file: LogFile::Controller,
                prefix: String::new(),
                message,
                logger: PARTITION_CHANGE_BUILDER_LOGGER,
            });
        }
    }

    /// `generateLeaderAndIsrUpdates`: a PartitionChangeRecord per partition whose state
    /// changes when `broker_to_remove` leaves the ISRs (and leadership), `broker_to_add` counts
    /// as an acceptable leader although still fenced, and `broker_with_unclean_shutdown`
    /// leaves ISR, ELR and leadership; then the "{context}: changing N partition(s)" line.
    fn generate_leader_and_isr_updates(
        &self,
        io: &mut RaftIo,
        context: &str,
        broker_to_remove: i32,
        broker_to_add: i32,
        broker_with_unclean_shutdown: i32,
        partitions: Vec<(Uuid, i32)>,
    ) -> Vec<MetadataRecord> {
        let acceptable = |r: i32| {
            r != broker_to_remove
                && r != broker_with_unclean_shutdown
                && (r == broker_to_add || self.is_active_broker(r))
        };
        let elr = self.elr_enabled();
        let mut records = Vec::new();
        for (topic_id, partition_id) in partitions {
            let Some(info) = self.state.replication.topics.get(&topic_id) else {
                continue;
            };
            let Some(p) = info.parts.get(&partition_id) else {
                continue;
            };
            let min_isr = self.effective_min_isr(&info.name, p.replicas.len());
            let mut builder = PartitionChangeBuilder::new(p, &acceptable, min_isr, elr)
                .set_unclean_election(self.unclean_election_enabled(&info.name))
                .set_target_isr(
                    p.isr
                        .iter()
                        .copied()
                        .filter(|r| *r != broker_to_remove && *r != broker_with_unclean_shutdown)
                        .collect(),
                );
            if broker_with_unclean_shutdown != NO_LEADER {
                builder = builder.set_unclean_shutdown_replicas(vec![broker_with_unclean_shutdown]);
            }
            let (record, lines) = builder.build();
            self.log_builder_lines(io, lines);
            if let Some(r) = record {
                records.push(MetadataRecord::PartitionChange(r));
            }
        }
        self.log_partition_changes(io, context, &records);
        records
    }

    /// `generateLeaderAndIsrUpdates`' closing line for the PartitionChangeRecords in
    /// `records`: INFO "{context}: changing N partition(s)", or with DEBUG on the DEBUG line
    /// naming them; nothing when there are none.
    fn log_partition_changes(&self, io: &mut RaftIo, context: &str, records: &[MetadataRecord]) {
        let changes: Vec<&crate::metadata::PartitionChangeRecord> = records
            .iter()
            .filter_map(|r| match r {
                MetadataRecord::PartitionChange(c) => Some(c),
                _ => None,
            })
            .collect();
        if changes.is_empty() {
            return;
        }
        if io.log.debug_enabled {
            let names: Vec<String> = changes
                .iter()
                .map(|c| {
                    let topic = self
                        .state
                        .replication
                        .topics
                        .get(&c.topic_id)
                        .map(|t| t.name.clone())
                        .unwrap_or_default();
                    format!("{topic}-{}", c.partition_id)
                })
                .collect();
            self.log(
                io,
                Level::Debug,
                REPLICATION_CONTROL_LOGGER,
                format!("{context}: changing partition(s): {}", names.join(", ")),
            );
        } else {
            self.log(
                io,
                Level::Info,
                REPLICATION_CONTROL_LOGGER,
                format!("{context}: changing {} partition(s)", changes.len()),
            );
        }
    }

    /// `processBrokerHeartbeat` (ReplicationControlManager): the broker's next state from
    /// `calculateNextBrokerState`, the records of the change (fence, unfence, controlled
    /// shutdown), the heartbeat state touched, the cordoned log dirs recorded; non-atomic.
    fn process_broker_heartbeat(
        &mut self,
        broker_id: i32,
        broker_epoch: i64,
        ask: HeartbeatAsk,
        cordoned_log_dirs: &Option<Vec<Uuid>>,
        io: &mut RaftIo,
    ) -> ControllerResult {
        let error = |e| ControllerResult {
            records: Vec::new(),
            response: Some(ControllerResponse::BrokerHeartbeat {
                error: Some(e),
                is_caught_up: false,
                is_fenced: true,
                should_shut_down: false,
            }),
            is_atomic: false,
        };
        // checkBrokerEpoch: no registration, or another epoch, is STALE_BROKER_EPOCH.
        let Some(reg) = self.state.cluster.brokers.get(&broker_id).cloned() else {
            return error(ApiError::StaleBrokerEpoch);
        };
        if reg.record.broker_epoch != broker_epoch {
            return error(ApiError::StaleBrokerEpoch);
        }
        let register_offset = reg.register_offset;
        if !self.heartbeats.brokers.contains_key(&broker_id) {
            // Every registration replayed on the active controller is registered here.
            self.heartbeats.register(broker_id, reg.record.fenced);
        }
        let replication = &self.state.replication;
        let has_leaderships = || {
            replication
                .topics
                .values()
                .any(|t| t.parts.values().any(|p| p.leader == broker_id))
        };
        let Some(states) = self.heartbeats.calculate_next_broker_state(
            broker_id,
            ask,
            register_offset,
            has_leaderships,
        ) else {
            return error(ApiError::StaleBrokerEpoch);
        };
        if let Some(line) = states.line {
            self.log(io, Level::Info, heartbeat_manager::LOGGER, line);
        }
        let next = states.next;
        let mut records = Vec::new();
        if states.current != next {
            records = match next {
                BrokerControlState::Fenced | BrokerControlState::ShutdownNow => {
                    self.handle_broker_fenced(broker_id, broker_epoch, io)
                }
                BrokerControlState::Unfenced => {
                    self.handle_broker_unfenced(broker_id, broker_epoch, io)
                }
                BrokerControlState::ControlledShutdown => {
                    self.handle_broker_in_controlled_shutdown(broker_id, broker_epoch, io)
                }
            };
        }
        self.heartbeats
            .touch(broker_id, next.fenced(), ask.current_metadata_offset);
        records.extend(self.handle_directories_cordoned(&reg, cordoned_log_dirs));
        // processBatchEndOffset records where the controlled shutdown completes.
        self.controlled_shutdown_broker = next.in_controlled_shutdown().then_some(broker_id);
        ControllerResult {
            records,
            response: Some(ControllerResponse::BrokerHeartbeat {
                error: None,
                is_caught_up: ask.current_metadata_offset >= register_offset,
                is_fenced: next.fenced(),
                should_shut_down: next.should_shut_down(),
            }),
            is_atomic: false,
        }
    }

    /// `maybeFenceOneStaleBroker`: take the first expired session off the tracker and fence
    /// its broker (or just drop the entry of an unknown broker or of a previous epoch). Whether
    /// it did something (then the task runs again after 10 ms).
    fn maybe_fence_one_stale_broker(&mut self, io: &mut RaftIo) -> (Vec<MetadataRecord>, bool) {
        const REPLICATION: &str = "org.apache.kafka.controller.ReplicationControlManager";
        let Some(key) = self.heartbeats.tracker.maybe_remove_expired(io.now_ms) else {
            return (Vec::new(), false);
        };
        let (id, epoch) = (key.id, key.epoch);
        let current = self
            .state
            .cluster
            .brokers
            .get(&id)
            .map(|b| b.record.broker_epoch);
        match current {
            None => {
                self.log(
                    io,
                    Level::Info,
                    REPLICATION,
                    format!("Removing heartbeat tracker entry for unknown broker {id} at epoch {epoch}."),
                );
                self.heartbeats.remove(id);
                (Vec::new(), true)
            }
            Some(current) if current != epoch => {
                self.log(
                    io,
                    Level::Info,
                    REPLICATION,
                    format!("Removing heartbeat tracker entry for broker {id} at previous epoch {epoch}. Current epoch is {current}"),
                );
                (Vec::new(), true)
            }
            Some(_) => {
                self.log(
                    io,
                    Level::Info,
                    REPLICATION,
                    format!(
                        "Fencing broker {id} at epoch {epoch} because its session has timed out."
                    ),
                );
                let records = self.handle_broker_fenced(id, epoch, io);
                self.heartbeats.fence(id);
                (records, true)
            }
        }
    }

    /// `handleBrokerUnfenced`: the BrokerRegistrationChangeRecord that unfences the broker, then
    /// PartitionChangeRecords giving it the partitions that have no leader.
    fn handle_broker_unfenced(&self, id: i32, epoch: i64, io: &mut RaftIo) -> Vec<MetadataRecord> {
        let mut records = vec![MetadataRecord::BrokerRegistrationChange(
            BrokerRegistrationChangeRecord {
                broker_id: id,
                broker_epoch: epoch,
                fenced: FENCING_UNFENCE,
                ..Default::default()
            },
        )];
        let leaderless = self.partitions_where(|p| p.leader == NO_LEADER);
        records.extend(self.generate_leader_and_isr_updates(
            io,
            "handleBrokerUnfenced",
            NO_LEADER,
            id,
            NO_LEADER,
            leaderless,
        ));
        records
    }

    /// `handleBrokerInControlledShutdown`: the BrokerRegistrationChangeRecord (v1) marking the
    /// controlled shutdown unless the registration has it already, then PartitionChangeRecords
    /// taking the broker out of every ISR and moving its leaderships away.
    fn handle_broker_in_controlled_shutdown(
        &self,
        id: i32,
        epoch: i64,
        io: &mut RaftIo,
    ) -> Vec<MetadataRecord> {
        let mut records = Vec::new();
        let marked = self
            .state
            .cluster
            .brokers
            .get(&id)
            .is_some_and(|b| b.record.in_controlled_shutdown);
        if !marked {
            records.push(MetadataRecord::BrokerRegistrationChange(
                BrokerRegistrationChangeRecord {
                    broker_id: id,
                    broker_epoch: epoch,
                    in_controlled_shutdown: crate::metadata::IN_CONTROLLED_SHUTDOWN,
                    ..Default::default()
                },
            ));
        }
        let in_isr = self.partitions_where(|p| p.isr.contains(&id));
        records.extend(self.generate_leader_and_isr_updates(
            io,
            &format!("enterControlledShutdown[{id}]"),
            id,
            NO_LEADER,
            NO_LEADER,
            in_isr,
        ));
        records
    }

    /// `handleDirectoriesCordoned`: once the broker reports its cordoned log dirs (not null),
    /// a BrokerRegistrationChangeRecord (v3) when they differ from the registration's, which
    /// holds null until the first report of an incarnation.
    fn handle_directories_cordoned(
        &self,
        reg: &crate::metadata::broker_registration::BrokerRegistration,
        cordoned: &Option<Vec<Uuid>>,
    ) -> Option<MetadataRecord> {
        let dirs = cordoned.as_ref()?;
        let mv = self.state.features.levels.get("metadata.version").copied();
        if !is_cordoned_log_dirs_supported(mv) {
            return None;
        }
        let same = |a: &[Uuid], b: &[Uuid]| {
            a.iter().collect::<std::collections::BTreeSet<_>>()
                == b.iter().collect::<std::collections::BTreeSet<_>>()
        };
        match &reg.record.cordoned_log_dirs {
            Some(current) if same(current, dirs) => None,
            _ => Some(MetadataRecord::BrokerRegistrationChange(
                BrokerRegistrationChangeRecord {
                    broker_id: reg.record.broker_id,
                    broker_epoch: reg.record.broker_epoch,
                    cordoned_log_dirs: Some(dirs.clone()),
                    ..Default::default()
                },
            )),
        }
    }

    fn run_write(
        &mut self,
        name: String,
        op: WriteOp,
        reply: Option<Reply>,
        raft: &mut KafkaRaftClient,
        io: &mut RaftIo,
        out: &mut Vec<(i32, ControllerMessage)>,
    ) -> Result<(), String> {
        let now = io.now_ms;
        let identity = identity_hash_code(self.node_id, self.queue.events_run);
        let Some(epoch) = self.cur_claim_epoch else {
            // newWrongControllerException(latestController()): Raft's current leader.
            let info = EventHandlerExceptionInfo::wrong_controller(raft.state().leader_id());
            self.log_event_failure(io, &name, now, &info);
            Self::respond(out, reply, Self::not_controller(&op));
            return Ok(());
        };
        // Periodic tasks reschedule themselves (maybeFenceStaleBroker once it has run).
        if matches!(op, WriteOp::WriteNoOp) {
            self.schedule_periodic(op.clone(), now);
        }
        let mut result = self.generate(&op, io);
        if result.records.len() > self.config.max_records_per_batch {
            // The records went into a BoundedList of MAX_RECORDS_PER_USER_OP: the event fails
            // with BoundedListTooLongException, answered as a PolicyViolationException.
            let n = self.config.max_records_per_batch;
            result.records.clear();
            const MESSAGE: &str = "Unable to perform excessively large batch operation.";
            result.response = match &op {
                WriteOp::Request(ControllerRequest::CreateTopics { topics }) => {
                    // CreateTopicsRequest.getErrorResponse: every topic gets the error.
                    Some(ControllerResponse::CreateTopics {
                        topics: topics
                            .iter()
                            .map(|t| TopicResult {
                                name: t.name.clone(),
                                topic_id: Uuid::ZERO,
                                error: Some((ApiError::PolicyViolation, MESSAGE.into())),
                            })
                            .collect(),
                        error: None,
                    })
                }
                WriteOp::Request(r) => Some(r.error_response(ApiError::PolicyViolation)),
                _ => None,
            };
            self.log(
                io,
                Level::Info,
                QUORUM_CONTROLLER_LOGGER,
                format!(
                    "{name}: event failed with BoundedListTooLongException (treated as PolicyViolationException) in {} microseconds. Exception message: Cannot add another element to the list because it would exceed the maximum length of {n}",
                    event_duration_us(now, io.now_ms)
                ),
            );
        }
        self.last_result = Some(result.clone());
        if result.records.is_empty() {
            self.process_batch_end_offset(&op, self.offset_control.next_write_offset - 1, io)?;
            // Nothing to write: answer once everything written before it is committed.
            match self.purgatory.highest_pending_offset() {
                None => Self::respond(out, reply, result.response),
                Some(offset) => self.purgatory.add(
                    offset,
                    PendingWrite {
                        name,
                        reply,
                        response: result.response,
                        failure: Self::not_controller(&op),
                        start_ms: now,
                        identity,
                    },
                ),
            }
            return Ok(());
        }
        let n = result.records.len() as i64;
        let wrapped: Vec<Record> = result
            .records
            .iter()
            .cloned()
            .map(Record::Metadata)
            .collect();
        match raft.append(epoch, wrapped, result.is_atomic, now) {
            Err(AppendError::NotLeader) => {
                self.controlled_shutdown_broker = None;
                // Raft resigned without telling its listener (it never fires a leader change
                // while Resigned): the append throws NotLeaderException, and
                // handleEventException renounces.
                self.log_event_failure(io, &name, now, &EventHandlerExceptionInfo::not_leader());
                Self::respond(out, reply, Self::not_controller(&op));
                self.renounce(io, out)
            }
            Ok(last_offset) => {
                let base = last_offset - n + 1;
                for (i, r) in result.records.iter().enumerate() {
                    self.replay(r, base + i as i64, io)?;
                }
                self.offset_control.handle_schedule_append(last_offset)?;
                self.process_batch_end_offset(&op, last_offset, io)?;
                self.purgatory.add(
                    last_offset,
                    PendingWrite {
                        name,
                        reply,
                        response: result.response,
                        failure: Self::not_controller(&op),
                        start_ms: now,
                        identity,
                    },
                );
                Ok(())
            }
        }
    }

    /// `processBatchEndOffset`, once the operation's records (if any) are appended up to
    /// `offset`: the activation event activates the periodic tasks, now that the bootstrap
    /// records are replayed; a heartbeat that left its broker in controlled shutdown records
    /// the offset every active broker must read before the shutdown completes.
    fn process_batch_end_offset(
        &mut self,
        op: &WriteOp,
        offset: i64,
        io: &mut RaftIo,
    ) -> Result<(), String> {
        if *op == WriteOp::CompleteActivation {
            let now = io.now_ms;
            // metadata.max.idle.interval.ms = 0: KafkaConfig.metadataMaxIdleIntervalNs is
            // None and QuorumController never registers writeNoOpRecord.
            if self.config.no_op_interval_ms > 0 {
                self.schedule_periodic(WriteOp::WriteNoOp, now);
            }
            self.schedule_periodic(WriteOp::MaybeFenceStaleBroker, now);
            self.log(
                io,
                Level::Info,
                PERIODIC_TASK_CONTROL_LOGGER,
                activated_line(self.config.no_op_interval_ms > 0),
            );
        }
        match self.controlled_shutdown_broker.take() {
            Some(id) => self
                .heartbeats
                .maybe_update_controlled_shutdown_offset(id, offset),
            None => Ok(()),
        }
    }

    fn handle_commit(
        &mut self,
        batches: Vec<Arc<RecordBatch>>,
        io: &mut RaftIo,
        out: &mut Vec<(i32, ControllerMessage)>,
    ) -> Result<(), String> {
        for batch in batches {
            // Control batches (LeaderChange, KRaftVersion, KRaftVoters) only update metrics in
            // Kafka: the committed and stable offsets move with metadata batches.
            if batch.is_control {
                continue;
            }
            let last = batch.last_offset();
            self.loaded_snapshot_end = None;
            if self.is_active() {
                // Already replayed when it was appended.
                self.offset_control.handle_commit_batch(
                    last,
                    batch.partition_leader_epoch,
                    &mut [&mut self.state],
                )?;
                let done = self
                    .purgatory
                    .complete_up_to(self.offset_control.last_stable_offset);
                for w in done {
                    Self::respond(out, w.reply, w.response);
                }
            } else {
                for (i, r) in batch.records.iter().enumerate() {
                    if let Record::Metadata(m) = r {
                        self.replay(m, batch.base_offset + i as i64, io)?;
                    }
                }
                self.offset_control.handle_commit_batch(
                    last,
                    batch.partition_leader_epoch,
                    &mut [&mut self.state],
                )?;
            }
        }
        Ok(())
    }

    fn handle_leader_change(
        &mut self,
        le: LeaderAndEpoch,
        raft: &mut KafkaRaftClient,
        io: &mut RaftIo,
        out: &mut Vec<(i32, ControllerMessage)>,
    ) -> Result<(), String> {
        self.last_leader = Some(le);
        let me = Some(self.node_id);
        // (Raft never tells of its own leadership while Resigned, nor before the high watermark
        // of the new epoch is established.)
        if let Some(active) = self.cur_claim_epoch {
            if le.leader_id == me {
                if le.epoch != active {
                    self.log(
                        io,
                        Level::Warn,
                        QUORUM_CONTROLLER_LOGGER,
                        format!("We were the leader in epoch {active}, and are still the leader in the new epoch {}.", le.epoch),
                    );
                    self.cur_claim_epoch = Some(le.epoch);
                }
            } else {
                let leader = leader_name(le);
                self.log(
                    io,
                    Level::Warn,
                    QUORUM_CONTROLLER_LOGGER,
                    format!(
                        "Renouncing the leadership due to a metadata log event. We were the leader at epoch {active}, but in the new epoch {}, the leader is {leader}. Reverting to last stable offset {}.",
                        le.epoch, self.offset_control.last_stable_offset
                    ),
                );
                self.renounce(io, out)?;
            }
            return Ok(());
        }
        if le.leader_id == me && self.cur_claim_epoch.is_none() {
            // raftClient.logEndOffset()
            let next = io.disk.metadata_log.end_offset();
            debug_assert_eq!(
                raft.pending_records(),
                0,
                "the epoch's control records are in the log"
            );
            self.log(
                io,
                Level::Info,
                QUORUM_CONTROLLER_LOGGER,
                format!(
                    "Becoming the active controller at epoch {}, next write offset {}.",
                    le.epoch, next
                ),
            );
            self.offset_control.activate(next)?;
            self.cur_claim_epoch = Some(le.epoch);
            let now = io.now_ms;
            // ClusterControlManager.activate: a new heartbeat manager.
            self.heartbeats = BrokerHeartbeatManager::activate(
                self.state
                    .cluster
                    .brokers
                    .iter()
                    .map(|(id, b)| (*id, b.record.broker_epoch, b.record.fenced)),
                self.config.session_timeout_ms,
                now,
            );
            self.queue.prepend(
                format!("completeActivation[{}]", le.epoch),
                ControllerEvent::Write {
                    op: WriteOp::CompleteActivation,
                    reply: None,
                },
                now,
            );
        } else {
            let leader = leader_name(le);
            self.log(
                io,
                Level::Info,
                QUORUM_CONTROLLER_LOGGER,
                format!("In the new epoch {}, the leader is {leader}.", le.epoch),
            );
        }
        Ok(())
    }

    /// `renounce`: fail every write waiting in the purgatory (NOT_CONTROLLER), revert to the
    /// last stable offset, and deactivate the periodic tasks. Its callers log why.
    fn renounce(
        &mut self,
        io: &mut RaftIo,
        out: &mut Vec<(i32, ControllerMessage)>,
    ) -> Result<(), String> {
        self.cur_claim_epoch = None;
        // deferredEventQueue.failAll(newWrongControllerException(OptionalInt.empty()))
        let failure = EventHandlerExceptionInfo::wrong_controller(None);
        for w in self.purgatory.fail_all() {
            self.log_to(
                io,
                LogFile::Server,
                Level::Info,
                "org.apache.kafka.deferred.DeferredEventQueue",
                format!(
                    "failAll({}): failing {}({}).",
                    failure.internal, w.name, w.identity
                ),
            );
            self.log_event_failure(io, &w.name, w.start_ms, &failure);
            Self::respond(out, w.reply, w.failure);
        }
        let to = self.offset_control.last_stable_offset;
        let dropped = self.offset_control.deactivate(&mut [&mut self.state])?;
        self.last_revert = Some(Revert { to, dropped });
        self.queue.cancel_deferred("writeNoOpRecord");
        self.queue.cancel_deferred("maybeFenceStaleBroker");
        self.log(
            io,
            Level::Info,
            PERIODIC_TASK_CONTROL_LOGGER,
            deactivated_line(self.config.no_op_interval_ms > 0),
        );
        Ok(())
    }

    /// `replay(message, offset)`: apply one record to the in-memory state.
    pub fn replay(
        &mut self,
        r: &MetadataRecord,
        offset: i64,
        io: &mut RaftIo,
    ) -> Result<(), String> {
        let (logger, lines) = self.apply(r, offset)?;
        for (level, line) in lines {
            self.log(io, level, logger, line);
        }
        if self.is_active() {
            self.replay_heartbeat_state(r);
        }
        Ok(())
    }

    /// What ClusterControlManager's replay tells the heartbeat manager of the active
    /// controller: a RegisterBrokerRecord replaces the broker's heartbeat state, a
    /// BrokerRegistrationChangeRecord registers the broker's fencing state again.
    fn replay_heartbeat_state(&mut self, r: &MetadataRecord) {
        let (id, replace) = match r {
            MetadataRecord::RegisterBroker(b) => (b.broker_id, true),
            MetadataRecord::BrokerRegistrationChange(c) => (c.broker_id, false),
            _ => return,
        };
        let Some(fenced) = self.state.cluster.brokers.get(&id).map(|b| b.record.fenced) else {
            return;
        };
        if replace {
            self.heartbeats.remove(id);
        }
        self.heartbeats.register(id, fenced);
    }

    /// Apply one record; returns the logger and the lines to log.
    fn apply(
        &mut self,
        r: &MetadataRecord,
        offset: i64,
    ) -> Result<(&'static str, Vec<ReplayLine>), String> {
        const REPLICATION: &str = "org.apache.kafka.controller.ReplicationControlManager";
        const CLUSTER: &str = "org.apache.kafka.controller.ClusterControlManager";
        const FEATURES: &str = "org.apache.kafka.controller.FeatureControlManager";
        const CONFIGS: &str = "org.apache.kafka.controller.ConfigurationControlManager";
        const OFFSETS: &str = "org.apache.kafka.controller.OffsetControlManager";
        let registry = &self.offset_control.snapshot_registry;
        let (logger, line) = match r {
            MetadataRecord::Topic(t) => (
                REPLICATION,
                Some(self.state.replication.replay_topic(registry, t)),
            ),
            MetadataRecord::Partition(p) => (
                REPLICATION,
                Some(self.state.replication.replay_partition(registry, p)?),
            ),
            MetadataRecord::PartitionChange(p) => {
                let lines = self
                    .state
                    .replication
                    .replay_partition_change(registry, p)?;
                return Ok((REPLICATION, lines));
            }
            MetadataRecord::RemoveTopic(t) => {
                let (line, name) = self.state.replication.replay_remove_topic(registry, t)?;
                self.state.configs.remove_resource(
                    registry,
                    crate::metadata::RESOURCE_TYPE_TOPIC,
                    &name,
                );
                (REPLICATION, Some(line))
            }
            MetadataRecord::Config(c) => (CONFIGS, Some(self.state.configs.replay(registry, c))),
            MetadataRecord::FeatureLevel(f) => {
                (FEATURES, Some(self.state.features.replay(registry, f)))
            }
            MetadataRecord::RegisterBroker(b) => (
                CLUSTER,
                Some(
                    self.state
                        .cluster
                        .replay_register_broker(registry, b, offset),
                ),
            ),
            MetadataRecord::BrokerRegistrationChange(b) => (
                CLUSTER,
                Some(self.state.cluster.replay_change(registry, b)?),
            ),
            MetadataRecord::RegisterController(c) => (
                CLUSTER,
                Some(self.state.cluster.replay_register_controller(registry, c)),
            ),
            MetadataRecord::BeginTransaction(b) => {
                self.offset_control.replay_begin_transaction(offset);
                (
                    OFFSETS,
                    Some(format!(
                        "Replayed BeginTransactionRecord(name='{}') at offset {offset}.",
                        b.name.clone().unwrap_or_default()
                    )),
                )
            }
            MetadataRecord::EndTransaction(_) => {
                self.offset_control
                    .replay_end_transaction(&mut [&mut self.state])?;
                (
                    OFFSETS,
                    Some(format!(
                        "Replayed EndTransactionRecord() at offset {offset}."
                    )),
                )
            }
            MetadataRecord::NoOp => (OFFSETS, None),
        };
        Ok((logger, line.map(|l| (Level::Info, l)).into_iter().collect()))
    }

    /// The state a standby would hold after replaying `log`'s metadata records up to and
    /// including `upto`, as [`ControllerState::summary`] text (the invariant "controller state
    /// equals replay of the committed log").
    ///
    /// A log whose start moved past 0 is replayed from the latest snapshot it keeps at or
    /// before `upto + 1`; `Ok(None)` when the log cannot rebuild the state at `upto`.
    pub fn replay_log_summary(
        log: &crate::raft::log::RaftLog,
        upto: i64,
    ) -> Result<Option<String>, String> {
        let mut c = QuorumController::new(-1, 0, Uuid::ZERO, ControllerConfig::default());
        let mut from = 0;
        if log.start_offset() > 0 {
            let base = log.snapshots().iter().rev().find(|s| {
                !s.is_bootstrap() && s.id.offset <= upto + 1 && s.id.offset >= log.start_offset()
            });
            let Some(base) = base else {
                return Ok(None);
            };
            for r in base.metadata_records() {
                c.apply(r, base.id.offset - 1)?;
            }
            from = base.id.offset;
        }
        for b in log.batches() {
            if b.is_control || b.last_offset() > upto || b.base_offset < from {
                continue;
            }
            for (i, r) in b.records.iter().enumerate() {
                if let Record::Metadata(m) = r {
                    c.apply(m, b.base_offset + i as i64)?;
                }
            }
        }
        Ok(Some(c.state.summary()))
    }

    /// The state a snapshot holds, as [`ControllerState::summary`] text.
    pub fn snapshot_summary(
        snapshot: &crate::raft::snapshot::RawSnapshot,
    ) -> Result<String, String> {
        let mut c = QuorumController::new(-1, 0, Uuid::ZERO, ControllerConfig::default());
        for r in snapshot.metadata_records() {
            c.apply(r, snapshot.id.offset - 1)?;
        }
        Ok(c.state.summary())
    }

    /// The offset up to which this controller's state reflects the log: the last committed
    /// offset on a standby; on the active controller, the last offset it wrote.
    pub fn applied_offset(&self) -> i64 {
        if let (Some(end), false) = (self.loaded_snapshot_end, self.is_active()) {
            return end - 1;
        }
        if self.is_active() {
            self.offset_control.next_write_offset - 1
        } else {
            self.offset_control.last_committed_offset
        }
    }
}
