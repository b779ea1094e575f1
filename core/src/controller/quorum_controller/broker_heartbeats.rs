//! Broker heartbeats on the active controller: the registered brokers' sessions,
//! `processBrokerHeartbeat` (the broker's next state and the records of the change) and
//! `maybeFenceOneStaleBroker` (a session that timed out).

use super::{ControllerResult, QuorumController};
use crate::common::message::controller::{ApiError, ControllerResponse};
use crate::common::node_log::Level;
use crate::common::uuid::Uuid;
use crate::controller::heartbeat_manager::{self, BrokerControlState, HeartbeatAsk};
use crate::metadata::MetadataRecord;
use crate::raft::io::RaftIo;

impl QuorumController {
    /// The sessions of the registered brokers' current epochs: (broker id, time of the last
    /// heartbeat), in the tracker's order.
    pub fn broker_sessions(&self) -> Vec<(i32, u64)> {
        let brokers = &self.state.cluster.brokers;
        self.heartbeats
            .sessions(|id| brokers.get(&id).map(|b| b.record.broker_epoch))
            .collect()
    }

    /// `processBrokerHeartbeat` (ReplicationControlManager): the broker's next state from
    /// `calculateNextBrokerState`, the records of the change (fence, unfence, controlled
    /// shutdown), the heartbeat state touched, the cordoned log dirs recorded; non-atomic.
    pub(super) fn process_broker_heartbeat(
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
    pub(super) fn maybe_fence_one_stale_broker(
        &mut self,
        io: &mut RaftIo,
    ) -> (Vec<MetadataRecord>, bool) {
        const REPLICATION: &str = "org.apache.kafka.controller.ReplicationControlManager";
        // RULE session-fencing (maybeFenceStaleBroker): off, a session that timed out is
        // left alone and its broker stays unfenced.
        if !io.rules.session_fencing {
            return (Vec::new(), false);
        }
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
}
