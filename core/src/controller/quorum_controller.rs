//! QuorumController: one event queue, one event handler; writes follow the article's section 3:
//! generateRecordsAndResult -> ControllerResult -> prepareAppend (offset) -> replay in memory
//! before commit -> schedulePreparedAppend -> handleScheduleAppend (snapshot at that offset) ->
//! deferred until committed -> completeUpTo on commit.
//!
//! This file holds the struct and its construction; the parts, named after Kafka's
//! QuorumController.java and its inner classes, are:
//! - `config`: [`ControllerConfig`], the settings.
//! - `controller_state`: [`ControllerState`], the control managers records replay into.
//! - `controller_result`: [`ControllerResult`], what a write operation generates.
//! - `controller_event`: the queue's events ([`ControllerEvent`], [`WriteOp`], [`Reply`]) and
//!   the glue that queues and runs them (`appendRaftEvent`, `handleEventException`).
//! - `controller_write_event`: `ControllerWriteEvent.run` — generate, append, replay, and
//!   defer the answer until committed ([`PendingWrite`]).
//! - `quorum_meta_log_listener`: `QuorumMetaLogListener` — handleCommit, handleLoadSnapshot,
//!   handleLeaderChange, with `claim` and `renounce`.
//! - `replay`: applying records to the state; whole-log and snapshot replays.
//! - `activation`: `ActivationRecordsGenerator`, the records of completeActivation.
//! - `request_handlers`: the client requests' write operations (registerBroker,
//!   alterPartition, registerController, createTopics, incrementalAlterConfigs, deleteTopics).
//! - `broker_heartbeats`: processBrokerHeartbeat and maybeFenceOneStaleBroker.
//! - `broker_state_changes`: handleBrokerFenced, handleBrokerUnfenced,
//!   handleBrokerInControlledShutdown, handleBrokerShutdown, handleDirectoriesCordoned.
//! - `leader_and_isr_updates`: generateLeaderAndIsrUpdates and the PartitionChangeBuilder's
//!   settings.
//! - `periodic_tasks`: writeNoOpRecord and maybeFenceStaleBroker, rescheduled on the queue.
//! - `controller_registration_manager`: this controller's ControllerRegistrationManager
//!   ([`RegistrationState`]).

mod activation;
mod broker_heartbeats;
mod broker_state_changes;
mod config;
mod controller_event;
mod controller_registration_manager;
mod controller_result;
mod controller_state;
mod controller_write_event;
mod leader_and_isr_updates;
mod periodic_tasks;
mod quorum_meta_log_listener;
mod replay;
mod request_handlers;

pub use config::ControllerConfig;
pub use controller_event::{ControllerEvent, Reply, WriteOp};
pub use controller_registration_manager::RegistrationState;
pub use controller_result::ControllerResult;
pub use controller_state::ControllerState;
pub use controller_write_event::PendingWrite;
pub use periodic_tasks::IMMEDIATE_PERIOD_MS;

use crate::common::node_log::{Level, LogFile, LogLine};
use crate::common::uuid::Uuid;
use crate::controller::deferred_event_queue::DeferredEventQueue;
use crate::controller::event_queue::KafkaEventQueue;
use crate::controller::heartbeat_manager::BrokerHeartbeatManager;
use crate::controller::offset_control::OffsetControlManager;
use crate::controller::write_life::WriteLives;
use crate::metadata::broker_registration::BrokerRegistration;
use crate::raft::io::RaftIo;
use crate::raft::listener::LeaderAndEpoch;
use crate::timeline::Revert;

/// The QuorumController's logger.
const QUORUM_CONTROLLER_LOGGER: &str = "org.apache.kafka.controller.QuorumController";
/// ReplicationControlManager's logger.
const REPLICATION_CONTROL_LOGGER: &str = "org.apache.kafka.controller.ReplicationControlManager";
/// ClusterControlManager's logger.
const CLUSTER_CONTROL_LOGGER: &str = "org.apache.kafka.controller.ClusterControlManager";

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
    /// The last few writes' lives, for views (bookkeeping only).
    pub write_lives: WriteLives,
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
            write_lives: WriteLives::default(),
        }
    }

    /// This process's incarnation (a new one at every start).
    pub fn incarnation_id(&self) -> Uuid {
        self.incarnation_id
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

    /// Broker `id`'s committed registration: its value in the in-memory snapshot at the last
    /// stable offset, which the active controller keeps while its later writes wait for the
    /// quorum (a standby replays committed records only, so its current state is committed).
    pub fn committed_registration(&self, id: i32) -> Option<&BrokerRegistration> {
        let brokers = &self.state.cluster.brokers;
        let oc = &self.offset_control;
        brokers
            .get_at(&oc.snapshot_registry, &id, oc.last_stable_offset)
            .unwrap_or_else(|_| brokers.get(&id))
    }

    /// The leader last told by Raft.
    pub fn last_leader(&self) -> Option<LeaderAndEpoch> {
        self.last_leader
    }

    /// A line with this controller's prefix in controller.log.
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
}
