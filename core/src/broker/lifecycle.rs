//! BrokerLifecycleManager: registers the broker with the active controller, then heartbeats
//! every `broker.heartbeat.interval.ms`, moving STARTING -> RECOVERY -> RUNNING as the
//! controller's answers say (the article's section 6).

use crate::controller::rpc::{ControllerMessage, ControllerRequest, ControllerResponse};
use crate::sim::node_log::{Level, LogFile, LogLine, NodeLog};
use crate::sim::uuid::Uuid;

/// Kafka's BrokerState.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
/// The delay before retrying a failed registration or heartbeat.
pub const RETRY_BACKOFF_MS: u64 = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    Registration,
    Heartbeat,
}

/// The broker side of registration and heartbeats.
#[derive(Clone, Debug)]
pub struct BrokerLifecycleManager {
    node_id: i32,
    incarnation_id: Uuid,
    port: u16,
    log_dir: Uuid,
    prefix: String,
    /// The broker's state.
    pub state: BrokerState,
    /// The broker epoch the controller gave (-1 before registration).
    pub broker_epoch: i64,
    /// Whether the broker is ready to be unfenced (it has published its caught-up metadata).
    pub ready_to_unfence: bool,
    /// The controller's last answer: fenced or not.
    pub fenced: bool,
    /// Virtual time of the last heartbeat sent.
    pub last_heartbeat_ms: Option<u64>,
    pending: Option<(i32, u64, Pending)>,
    next_send_ms: u64,
    next_correlation_id: u64,
}

impl BrokerLifecycleManager {
    /// The manager of a broker that just started.
    pub fn new(node_id: i32, incarnation_id: Uuid, port: u16, log_dir: Uuid, now_ms: u64) -> Self {
        BrokerLifecycleManager {
            node_id,
            incarnation_id,
            port,
            log_dir,
            prefix: format!("[BrokerLifecycleManager id={node_id}] "),
            state: BrokerState::Starting,
            broker_epoch: -1,
            ready_to_unfence: false,
            fenced: true,
            last_heartbeat_ms: None,
            pending: None,
            next_send_ms: now_ms,
            next_correlation_id: crate::sim::world::BROKER_CORRELATION_BASE,
        }
    }

    fn log(&self, log: &mut NodeLog, now_ms: u64, message: String) {
        log.push(LogLine {
            time_ms: now_ms,
            level: Level::Info,
            file: LogFile::Server,
            prefix: self.prefix.clone(),
            message,
            logger: "kafka.server.BrokerLifecycleManager",
        });
    }

    /// When the manager next wants to send: a future time, if nothing is in flight (when the
    /// time has come but no controller is known, the next Raft event polls it again).
    pub fn next_wake_ms(&self, now_ms: u64) -> Option<u64> {
        (self.pending.is_none() && self.next_send_ms > now_ms).then_some(self.next_send_ms)
    }

    /// Send a registration or a heartbeat to the active controller when due.
    /// `metadata_offset` is how far the broker's metadata has been applied.
    pub fn poll(
        &mut self,
        controller: Option<i32>,
        metadata_offset: i64,
        now_ms: u64,
    ) -> Option<(i32, ControllerMessage)> {
        if self.pending.is_some() || now_ms < self.next_send_ms {
            return None;
        }
        let to = controller?;
        let cid = self.next_correlation_id;
        self.next_correlation_id += 1;
        let (body, kind) = if self.broker_epoch < 0 {
            (
                ControllerRequest::BrokerRegistration {
                    broker_id: self.node_id,
                    incarnation_id: self.incarnation_id,
                    port: self.port,
                    log_dirs: vec![self.log_dir],
                },
                Pending::Registration,
            )
        } else {
            self.last_heartbeat_ms = Some(now_ms);
            (
                ControllerRequest::BrokerHeartbeat {
                    broker_id: self.node_id,
                    broker_epoch: self.broker_epoch,
                    current_metadata_offset: metadata_offset,
                    want_fence: !self.ready_to_unfence,
                    want_shut_down: self.state == BrokerState::PendingControlledShutdown,
                },
                Pending::Heartbeat,
            )
        };
        self.pending = Some((to, cid, kind));
        Some((
            to,
            ControllerMessage::Request {
                correlation_id: cid,
                body,
            },
        ))
    }

    /// `beginControlledShutdown`: ask the controller to move leadership away, then exit.
    pub fn begin_controlled_shutdown(&mut self, now_ms: u64, log: &mut NodeLog) {
        if self.state == BrokerState::PendingControlledShutdown
            || self.state == BrokerState::ShuttingDown
        {
            return;
        }
        if self.broker_epoch < 0 {
            self.state = BrokerState::ShuttingDown;
            return;
        }
        self.log(
            log,
            now_ms,
            format!(
                "Transitioning from {} to PENDING_CONTROLLED_SHUTDOWN.",
                self.state.name()
            ),
        );
        self.state = BrokerState::PendingControlledShutdown;
        self.next_send_ms = now_ms;
    }

    /// The controller's answer (or the network's failure) arrived.
    pub fn handle_response(
        &mut self,
        correlation_id: u64,
        body: ControllerResponse,
        now_ms: u64,
        log: &mut NodeLog,
    ) {
        let Some((_, cid, kind)) = self.pending else {
            return;
        };
        if cid != correlation_id {
            return;
        }
        self.pending = None;
        match (kind, body) {
            (
                Pending::Registration,
                ControllerResponse::BrokerRegistration {
                    error: None,
                    broker_epoch,
                },
            ) => {
                self.broker_epoch = broker_epoch;
                self.log(
                    log,
                    now_ms,
                    format!(
                        "Successfully registered broker {} with broker epoch {broker_epoch}",
                        self.node_id
                    ),
                );
                self.next_send_ms = now_ms;
            }
            (
                Pending::Heartbeat,
                ControllerResponse::BrokerHeartbeat {
                    error: None,
                    is_caught_up,
                    is_fenced,
                    should_shut_down,
                },
            ) => {
                self.fenced = is_fenced;
                self.next_send_ms = now_ms + HEARTBEAT_INTERVAL_MS;
                match self.state {
                    BrokerState::PendingControlledShutdown if should_shut_down => {
                        self.log(
                            log,
                            now_ms,
                            "The controller has asked us to exit controlled shutdown.".into(),
                        );
                        self.state = BrokerState::ShuttingDown;
                    }
                    BrokerState::PendingControlledShutdown => {
                        self.log(
                            log,
                            now_ms,
                            "The broker is in PENDING_CONTROLLED_SHUTDOWN state, still waiting for the active controller.".into(),
                        );
                        self.next_send_ms = now_ms + RETRY_BACKOFF_MS;
                    }
                    BrokerState::Starting if is_caught_up => {
                        self.log(
                            log,
                            now_ms,
                            "The broker has caught up. Transitioning from STARTING to RECOVERY."
                                .into(),
                        );
                        self.state = BrokerState::Recovery;
                        // The broker publishes the caught-up image, then asks to be unfenced.
                        self.ready_to_unfence = true;
                        self.next_send_ms = now_ms;
                    }
                    BrokerState::Recovery if !is_fenced => {
                        self.log(
                            log,
                            now_ms,
                            "The broker has been unfenced. Transitioning from RECOVERY to RUNNING."
                                .into(),
                        );
                        self.state = BrokerState::Running;
                    }
                    _ => {}
                }
            }
            (
                Pending::Heartbeat,
                ControllerResponse::BrokerHeartbeat {
                    error: Some(crate::controller::rpc::ApiError::StaleBrokerEpoch),
                    ..
                },
            )
            | (
                Pending::Heartbeat,
                ControllerResponse::BrokerHeartbeat {
                    error: Some(crate::controller::rpc::ApiError::BrokerIdNotRegistered),
                    ..
                },
            ) => {
                // The registration is gone (e.g. reverted): register again.
                self.broker_epoch = -1;
                self.next_send_ms = now_ms + RETRY_BACKOFF_MS;
            }
            _ => {
                self.next_send_ms = now_ms + RETRY_BACKOFF_MS;
            }
        }
    }
}
