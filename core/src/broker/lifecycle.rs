//! BrokerLifecycleManager: registers the broker with the active controller, then heartbeats,
//! moving STARTING -> RECOVERY -> RUNNING as the controller's answers say (the article's
//! section 6), and through PENDING_CONTROLLED_SHUTDOWN to SHUTTING_DOWN on `kill -TERM`.
//!
//! As in Kafka, one "communication" is scheduled at a time: the registration until it
//! succeeds, then heartbeats — 10 ms apart while STARTING, every broker.heartbeat.interval.ms
//! after, 50 ms after the first answer in PENDING_CONTROLLED_SHUTDOWN, at once after the
//! registration and once ready to be unfenced. A failure (an error, or a request the channel
//! gave up on) is retried after the interval; a heartbeat error never re-registers.

use serde::Serialize;

use super::controller_channel::{Completion, NodeToControllerChannelManager};
use crate::common::message::controller::{
    ControllerMessage, ControllerRequest, ControllerResponse,
};
use crate::common::node_log::{Level, LogFile, LogLine, NodeLog};
use crate::common::uuid::Uuid;
use crate::controller::feature_control::is_cordoned_log_dirs_supported;

/// Kafka's BrokerState (serialised by Kafka's names: `RUNNING`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum BrokerState {
    /// NOT_RUNNING
    NotRunning,
    /// STARTING: registering and catching up with the metadata log.
    Starting,
    /// RECOVERY: caught up, fenced until the controller unfences it.
    Recovery,
    /// RUNNING: unfenced.
    Running,
    /// PENDING_CONTROLLED_SHUTDOWN
    PendingControlledShutdown,
    /// SHUTTING_DOWN
    ShuttingDown,
}

impl BrokerState {
    /// Every state, in BrokerState.java's order.
    pub const ALL: [BrokerState; 6] = [
        BrokerState::NotRunning,
        BrokerState::Starting,
        BrokerState::Recovery,
        BrokerState::Running,
        BrokerState::PendingControlledShutdown,
        BrokerState::ShuttingDown,
    ];

    /// Kafka's name.
    pub fn name(&self) -> &'static str {
        match self {
            BrokerState::NotRunning => "NOT_RUNNING",
            BrokerState::Starting => "STARTING",
            BrokerState::Recovery => "RECOVERY",
            BrokerState::Running => "RUNNING",
            BrokerState::PendingControlledShutdown => "PENDING_CONTROLLED_SHUTDOWN",
            BrokerState::ShuttingDown => "SHUTTING_DOWN",
        }
    }
}

/// broker.heartbeat.interval.ms
pub const HEARTBEAT_INTERVAL_MS: u64 = 2000;
/// How soon a STARTING broker heartbeats again ("so that ... we start up a bit quicker").
pub const STARTING_HEARTBEAT_MS: u64 = 10;
/// How soon the heartbeat after the first PENDING_CONTROLLED_SHUTDOWN answer goes.
pub const FIRST_PENDING_SHUTDOWN_HEARTBEAT_MS: u64 = 50;
/// How long BrokerServer.shutdown waits for the controlled shutdown (`shutdown()`'s default
/// timeout of 5 minutes).
pub const CONTROLLED_SHUTDOWN_TIMEOUT_MS: u64 = 5 * 60 * 1000;

const LOGGER: &str = "org.apache.kafka.server.BrokerLifecycleManager";
const EVENT_QUEUE_LOGGER: &str = "org.apache.kafka.queue.KafkaEventQueue";
const BROKER_SERVER_LOGGER: &str = "kafka.server.BrokerServer";

/// The broker side of registration and heartbeats.
#[derive(Clone, Debug)]
pub struct BrokerLifecycleManager {
    node_id: i32,
    incarnation_id: Uuid,
    cluster_id: String,
    port: u16,
    log_dir: Uuid,
    prefix: String,
    /// The broker's state.
    pub state: BrokerState,
    /// The broker epoch the controller gave (-1 before registration).
    pub broker_epoch: i64,
    /// Whether the broker is ready to be unfenced (BrokerServer's `setReadyToUnfence`).
    pub ready_to_unfence: bool,
    /// The controller's last answer: fenced or not.
    pub fenced: bool,
    /// Virtual time of the last heartbeat sent.
    pub last_heartbeat_ms: Option<u64>,
    /// The channel to the active controller.
    pub channel: NodeToControllerChannelManager,
    started: bool,
    registered: bool,
    /// `initialCatchUpFuture` is done: the controller said the broker caught up.
    caught_up: bool,
    /// The broker epoch read from the clean-shutdown file at start
    /// (`LogManager.readBrokerEpochFromCleanShutdownFiles`), sent as previousBrokerEpoch.
    previous_broker_epoch: Option<i64>,
    /// Whether the LogManager has loaded the logs (after the initial catch-up).
    logs_loaded: bool,
    /// The cordoned log dirs, known once caught up (none are cordoned here).
    cordoned_log_dirs: Option<Vec<Uuid>>,
    communication_in_flight: bool,
    next_scheduling_should_be_immediate: bool,
    got_controlled_shutdown_response: bool,
    /// The deferred "communication" event.
    communication_at_ms: Option<u64>,
    /// The event queue is shutting down (`beginShutdown`).
    queue_shut_down: bool,
    /// When BrokerServer.shutdown stops waiting for the controlled shutdown.
    controlled_shutdown_deadline_ms: Option<u64>,
    closed: bool,
}

impl BrokerLifecycleManager {
    /// The manager of a broker process that just started, in cluster `cluster_id`.
    pub fn new(
        node_id: i32,
        incarnation_id: Uuid,
        port: u16,
        log_dir: Uuid,
        cluster_id: String,
        previous_broker_epoch: Option<i64>,
    ) -> Self {
        BrokerLifecycleManager {
            previous_broker_epoch,
            logs_loaded: false,
            node_id,
            incarnation_id,
            cluster_id,
            port,
            log_dir,
            prefix: format!("[BrokerLifecycleManager id={node_id}] "),
            state: BrokerState::NotRunning,
            broker_epoch: -1,
            ready_to_unfence: false,
            fenced: true,
            last_heartbeat_ms: None,
            channel: NodeToControllerChannelManager::new(
                node_id,
                "heartbeat",
                HEARTBEAT_INTERVAL_MS,
            ),
            started: false,
            registered: false,
            caught_up: false,
            cordoned_log_dirs: None,
            communication_in_flight: false,
            next_scheduling_should_be_immediate: false,
            got_controlled_shutdown_response: false,
            communication_at_ms: None,
            queue_shut_down: false,
            controlled_shutdown_deadline_ms: None,
            closed: false,
        }
    }

    /// The broker epoch of its registration (-1 before one succeeded).
    pub fn broker_epoch(&self) -> i64 {
        self.broker_epoch
    }

    /// `LogManager.startup` (loadLogs), which BrokerMetadataPublisher runs after the initial
    /// catch-up: true once, when the logs load now (the clean-shutdown file is deleted then,
    /// so that a crash from here on counts as unclean).
    pub fn load_logs(&mut self) -> bool {
        if self.caught_up && !self.logs_loaded {
            self.logs_loaded = true;
            return true;
        }
        false
    }

    /// Whether the logs were loaded: `LogManager.shutdown` writes the clean-shutdown file only
    /// then.
    pub fn logs_loaded(&self) -> bool {
        self.logs_loaded
    }

    /// This process's incarnation id.
    pub fn incarnation_id(&self) -> Uuid {
        self.incarnation_id
    }

    /// Whether a registration or heartbeat is in flight (`communicationInFlight`).
    pub fn communication_in_flight(&self) -> bool {
        self.communication_in_flight
    }

    fn log_as(
        &self,
        log: &mut NodeLog,
        now_ms: u64,
        level: Level,
        logger: &'static str,
        message: String,
    ) {
        log.push(LogLine {
            time_ms: now_ms,
            level,
            file: LogFile::Server,
            prefix: self.prefix.clone(),
            message,
            logger,
        });
    }

    fn log(&self, log: &mut NodeLog, now_ms: u64, level: Level, message: String) {
        self.log_as(log, now_ms, level, LOGGER, message);
    }

    /// When the manager next has something to do on its own (a scheduled communication, the
    /// channel's timeouts, the end of the controlled shutdown wait).
    pub fn next_wake_ms(&self, now_ms: u64) -> Option<u64> {
        if self.queue_shut_down {
            return None;
        }
        [
            self.communication_at_ms,
            self.channel.next_wake_ms(now_ms),
            self.controlled_shutdown_deadline_ms,
        ]
        .into_iter()
        .flatten()
        .filter(|t| *t > now_ms)
        .min()
    }

    /// Run what is due at `now_ms`: the StartupEvent the first time, the BrokerServer's
    /// controlled shutdown timeout, the scheduled communication, the channel. `controller` is
    /// the metadata log's leader and its CONTROLLER port; `metadata_offset` how far the
    /// broker's metadata has been applied; `metadata_version` the finalized level it has seen.
    /// Returns the request to send.
    pub fn poll(
        &mut self,
        now_ms: u64,
        controller: Option<(i32, u16)>,
        metadata_offset: i64,
        metadata_version: Option<i16>,
        log: &mut NodeLog,
    ) -> Option<(i32, ControllerMessage)> {
        if !self.started {
            self.startup(now_ms, log);
        }
        if self.queue_shut_down {
            return None;
        }
        if self
            .controlled_shutdown_deadline_ms
            .is_some_and(|d| now_ms >= d && self.state == BrokerState::PendingControlledShutdown)
        {
            self.controlled_shutdown_deadline_ms = None;
            log.push(LogLine {
                time_ms: now_ms,
                level: Level::Error,
                file: LogFile::Server,
                prefix: format!("[BrokerServer id={}] ", self.node_id),
                message: "Timed out waiting for the controller to approve controlled shutdown"
                    .into(),
                logger: BROKER_SERVER_LOGGER,
            });
            self.begin_shutdown(now_ms, log);
            return None;
        }
        if self.communication_at_ms.is_some_and(|t| now_ms >= t) {
            self.communication_at_ms = None;
            self.communicate(now_ms, metadata_offset, metadata_version);
        }
        let (message, timed_out) = self.channel.poll(now_ms, controller, log);
        for c in timed_out {
            self.complete(c, now_ms, log);
        }
        if let Some((_, ControllerMessage::Request { body, .. })) = &message {
            if matches!(body, ControllerRequest::BrokerHeartbeat { .. }) {
                self.last_heartbeat_ms = Some(now_ms);
            }
        }
        message
    }

    /// `StartupEvent`: STARTING, send the registration.
    fn startup(&mut self, now_ms: u64, log: &mut NodeLog) {
        self.started = true;
        self.state = BrokerState::Starting;
        self.send_broker_registration(now_ms);
        self.log(
            log,
            now_ms,
            Level::Info,
            format!(
                "Incarnation {} of broker {} in cluster {} is now STARTING.",
                self.incarnation_id, self.node_id, self.cluster_id
            ),
        );
    }

    /// `CommunicationEvent`.
    fn communicate(&mut self, now_ms: u64, metadata_offset: i64, metadata_version: Option<i16>) {
        if self.communication_in_flight {
            self.next_scheduling_should_be_immediate = true;
        } else if self.registered {
            self.send_broker_heartbeat(now_ms, metadata_offset, metadata_version);
        } else {
            self.send_broker_registration(now_ms);
        }
    }

    fn send_broker_registration(&mut self, now_ms: u64) {
        self.channel.send_request(
            ControllerRequest::BrokerRegistration {
                broker_id: self.node_id,
                incarnation_id: self.incarnation_id,
                port: self.port,
                log_dirs: vec![self.log_dir],
                previous_broker_epoch: self.previous_broker_epoch.unwrap_or(-1),
            },
            now_ms,
        );
        self.communication_in_flight = true;
    }

    fn send_broker_heartbeat(
        &mut self,
        now_ms: u64,
        metadata_offset: i64,
        metadata_version: Option<i16>,
    ) {
        // Cordoned log dirs go once the broker has caught up, if the metadata.version has them.
        let cordoned_log_dirs = (self.caught_up
            && is_cordoned_log_dirs_supported(metadata_version))
        .then(|| self.cordoned_log_dirs.clone().unwrap_or_default());
        self.channel.send_request(
            ControllerRequest::BrokerHeartbeat {
                broker_id: self.node_id,
                broker_epoch: self.broker_epoch,
                current_metadata_offset: metadata_offset,
                want_fence: !self.ready_to_unfence,
                want_shut_down: self.state == BrokerState::PendingControlledShutdown,
                cordoned_log_dirs,
            },
            now_ms,
        );
        self.communication_in_flight = true;
    }

    fn schedule_next_communication(&mut self, now_ms: u64, interval_ms: u64) {
        let adjusted = if self.next_scheduling_should_be_immediate {
            0
        } else {
            interval_ms
        };
        self.next_scheduling_should_be_immediate = false;
        self.communication_at_ms = Some(now_ms + adjusted);
    }

    fn schedule_next_communication_after_failure(&mut self, now_ms: u64) {
        // Never immediately after a failure.
        self.next_scheduling_should_be_immediate = false;
        self.schedule_next_communication(now_ms, HEARTBEAT_INTERVAL_MS);
    }

    /// `beginControlledShutdown` (BrokerServer.shutdown on `kill -TERM`): a RUNNING broker asks
    /// the controller to move its leaderships away first; in any other state it shuts down at
    /// once. BrokerServer waits at most [`CONTROLLED_SHUTDOWN_TIMEOUT_MS`] for it.
    pub fn begin_controlled_shutdown(&mut self, now_ms: u64, log: &mut NodeLog) {
        if self.controlled_shutdown_deadline_ms.is_some() || self.queue_shut_down {
            // BrokerServer.shutdown runs once.
            return;
        }
        self.controlled_shutdown_deadline_ms = Some(now_ms + CONTROLLED_SHUTDOWN_TIMEOUT_MS);
        match self.state {
            BrokerState::PendingControlledShutdown => self.log(
                log,
                now_ms,
                Level::Info,
                "Attempted to enter pending controlled shutdown state, but we are already in that state.".into(),
            ),
            BrokerState::Running => {
                self.log(
                    log,
                    now_ms,
                    Level::Info,
                    "Beginning controlled shutdown.".into(),
                );
                self.state = BrokerState::PendingControlledShutdown;
                // The next heartbeat goes at once, so the controller starts right away.
                self.schedule_next_communication(now_ms, 0);
            }
            other => {
                self.log(
                    log,
                    now_ms,
                    Level::Info,
                    format!(
                        "Skipping controlled shutdown because we are in state {}.",
                        other.name()
                    ),
                );
                self.begin_shutdown(now_ms, log);
            }
        }
    }

    /// `beginShutdown`: the event queue shuts down; its cleanup event (`ShutdownEvent`) moves
    /// the broker to SHUTTING_DOWN and shuts the channel down.
    fn begin_shutdown(&mut self, now_ms: u64, log: &mut NodeLog) {
        if self.queue_shut_down {
            return;
        }
        self.queue_shut_down = true;
        self.log_as(
            log,
            now_ms,
            Level::Info,
            EVENT_QUEUE_LOGGER,
            "beginShutdown: shutting down event queue.".into(),
        );
        // Deferred events are rejected; the queue empties, then the cleanup event runs.
        self.communication_at_ms = None;
        self.log(
            log,
            now_ms,
            Level::Info,
            format!(
                "Transitioning from {} to {}.",
                self.state.name(),
                BrokerState::ShuttingDown.name()
            ),
        );
        self.state = BrokerState::ShuttingDown;
        self.channel.shutdown(now_ms, log);
    }

    /// `close`, as BrokerServer.shutdown ends: the event queue's thread is joined. True the
    /// first time (BrokerServer.shutdown then has the LogManager write its clean-shutdown file).
    pub fn close(&mut self, now_ms: u64, log: &mut NodeLog) -> bool {
        if self.closed {
            return false;
        }
        self.closed = true;
        self.begin_shutdown(now_ms, log);
        self.log_as(
            log,
            now_ms,
            Level::Info,
            EVENT_QUEUE_LOGGER,
            "closed event queue.".into(),
        );
        true
    }

    /// The controller's answer (or the network's failure) arrived.
    pub fn handle_response(
        &mut self,
        correlation_id: u64,
        body: ControllerResponse,
        now_ms: u64,
        log: &mut NodeLog,
    ) {
        if let Some(c) = self
            .channel
            .handle_response(correlation_id, body, now_ms, log)
        {
            self.complete(c, now_ms, log);
        }
    }

    /// The response event of a request the channel completed.
    fn complete(&mut self, c: Completion, now_ms: u64, log: &mut NodeLog) {
        if self.queue_shut_down {
            // The event queue no longer runs events.
            return;
        }
        match c {
            Completion::Timeout(request) => {
                let text = match request {
                    ControllerRequest::BrokerRegistration { .. } => "Unable to register the broker because the RPC got timed out before it could be sent.",
                    _ => "Unable to send a heartbeat because the RPC got timed out before it could be sent.",
                };
                self.log(log, now_ms, Level::Info, text.into());
                self.communication_in_flight = false;
                self.schedule_next_communication_after_failure(now_ms);
            }
            Completion::Response(ControllerRequest::BrokerRegistration { .. }, body) => {
                self.communication_in_flight = false;
                self.handle_registration_response(body, now_ms, log);
            }
            Completion::Response(_, body) => {
                self.communication_in_flight = false;
                self.handle_heartbeat_response(body, now_ms, log);
            }
        }
    }

    /// `BrokerRegistrationResponseEvent`.
    fn handle_registration_response(
        &mut self,
        body: ControllerResponse,
        now_ms: u64,
        log: &mut NodeLog,
    ) {
        let id = self.node_id;
        match body {
            ControllerResponse::BrokerRegistration {
                error: None,
                broker_epoch,
            } => {
                self.broker_epoch = broker_epoch;
                self.registered = true;
                self.log(
                    log,
                    now_ms,
                    Level::Info,
                    format!("Successfully registered broker {id} with broker epoch {broker_epoch}"),
                );
                // Heartbeat at once.
                self.schedule_next_communication(now_ms, 0);
            }
            ControllerResponse::BrokerRegistration { error: Some(e), .. } => {
                self.log(
                    log,
                    now_ms,
                    Level::Info,
                    format!(
                        "Unable to register broker {id} because the controller returned error {}",
                        e.name()
                    ),
                );
                self.schedule_next_communication_after_failure(now_ms);
            }
            _ => {
                self.log(
                    log,
                    now_ms,
                    Level::Warn,
                    format!("Unable to register broker {id}."),
                );
                self.schedule_next_communication_after_failure(now_ms);
            }
        }
    }

    /// `BrokerHeartbeatResponseEvent` (BrokerHeartbeatResponseHandler): a failure or an error
    /// retries after the interval; an answer moves the broker on as its state says.
    fn handle_heartbeat_response(
        &mut self,
        body: ControllerResponse,
        now_ms: u64,
        log: &mut NodeLog,
    ) {
        let id = self.node_id;
        let ControllerResponse::BrokerHeartbeat {
            error,
            is_caught_up,
            is_fenced,
            should_shut_down,
        } = body
        else {
            self.log(
                log,
                now_ms,
                Level::Warn,
                format!("Unable to send broker heartbeat for {id}. Retrying."),
            );
            self.schedule_next_communication_after_failure(now_ms);
            return;
        };
        if let Some(e) = error {
            self.log(
                log,
                now_ms,
                Level::Warn,
                format!(
                    "Broker {id} sent a heartbeat request but received error {}.",
                    e.name()
                ),
            );
            self.schedule_next_communication_after_failure(now_ms);
            return;
        }
        self.fenced = is_fenced;
        match self.state {
            BrokerState::Starting => self.on_starting_heartbeat(is_caught_up, now_ms, log),
            BrokerState::Recovery => self.on_recovery_heartbeat(is_fenced, now_ms, log),
            BrokerState::Running => {
                self.log(
                    log,
                    now_ms,
                    Level::Debug,
                    "The broker is RUNNING. Processing heartbeat response.".into(),
                );
                self.schedule_next_communication(now_ms, HEARTBEAT_INTERVAL_MS);
            }
            BrokerState::PendingControlledShutdown => {
                self.on_pending_controlled_shutdown_heartbeat(should_shut_down, now_ms, log)
            }
            BrokerState::ShuttingDown => self.log(
                log,
                now_ms,
                Level::Info,
                "The broker is SHUTTING_DOWN. Ignoring heartbeat response.".into(),
            ),
            BrokerState::NotRunning => {
                self.log(
                    log,
                    now_ms,
                    Level::Error,
                    format!("Unexpected broker state {}", self.state.name()),
                );
                self.schedule_next_communication(now_ms, HEARTBEAT_INTERVAL_MS);
            }
        }
    }

    /// A heartbeat answer while STARTING: once caught up, move to RECOVERY and heartbeat at
    /// once, ready to be unfenced; else heartbeat again soon.
    fn on_starting_heartbeat(&mut self, is_caught_up: bool, now_ms: u64, log: &mut NodeLog) {
        if is_caught_up {
            self.log(
                log,
                now_ms,
                Level::Info,
                "The broker has caught up. Transitioning from STARTING to RECOVERY.".into(),
            );
            self.state = BrokerState::Recovery;
            self.caught_up = true;
            // config.cordonedLogDirs(): none here.
            self.cordoned_log_dirs = Some(Vec::new());
        } else {
            self.log(
                log,
                now_ms,
                Level::Debug,
                "The broker is STARTING. Still waiting to catch up with cluster metadata.".into(),
            );
        }
        self.schedule_next_communication(now_ms, STARTING_HEARTBEAT_MS);
        if is_caught_up {
            // BrokerServer, once caught up and its first image is published, calls
            // setReadyToUnfence: the next heartbeat goes at once, not wanting a fence.
            self.ready_to_unfence = true;
            self.schedule_next_communication(now_ms, 0);
        }
    }

    /// A heartbeat answer in RECOVERY: unfenced, the broker is RUNNING.
    fn on_recovery_heartbeat(&mut self, is_fenced: bool, now_ms: u64, log: &mut NodeLog) {
        if !is_fenced {
            self.log(
                log,
                now_ms,
                Level::Info,
                "The broker has been unfenced. Transitioning from RECOVERY to RUNNING.".into(),
            );
            self.state = BrokerState::Running;
        } else {
            self.log(
                log,
                now_ms,
                Level::Info,
                "The broker is in RECOVERY.".into(),
            );
        }
        self.schedule_next_communication(now_ms, HEARTBEAT_INTERVAL_MS);
    }

    /// A heartbeat answer in PENDING_CONTROLLED_SHUTDOWN: keep asking until the controller
    /// says the broker may shut down.
    fn on_pending_controlled_shutdown_heartbeat(
        &mut self,
        should_shut_down: bool,
        now_ms: u64,
        log: &mut NodeLog,
    ) {
        if !should_shut_down {
            self.log(
                log,
                now_ms,
                Level::Info,
                "The broker is in PENDING_CONTROLLED_SHUTDOWN state, still waiting for the active controller.".into(),
            );
            let interval = if self.got_controlled_shutdown_response {
                HEARTBEAT_INTERVAL_MS
            } else {
                FIRST_PENDING_SHUTDOWN_HEARTBEAT_MS
            };
            self.schedule_next_communication(now_ms, interval);
        } else {
            self.log(
                log,
                now_ms,
                Level::Info,
                "The controller has asked us to exit controlled shutdown.".into(),
            );
            self.begin_shutdown(now_ms, log);
        }
        self.got_controlled_shutdown_response = true;
    }
}
