//! `replay`: applying metadata records to the controller state (on the active controller as
//! it writes them, on a standby as they commit), and the replays of a whole log or snapshot
//! that the invariants compare states with.

use super::{ControllerConfig, QuorumController};
use crate::common::node_log::Level;
use crate::common::uuid::Uuid;
use crate::metadata::MetadataRecord;
use crate::raft::batch::Record;
use crate::raft::io::RaftIo;

/// One line a record's replay logs, with its level.
type ReplayLine = (Level, String);

impl QuorumController {
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

    /// An empty controller to replay committed records into, one at a time (the invariant
    /// checker's incremental replay of the committed log).
    pub fn replayer() -> QuorumController {
        QuorumController::new(-1, 0, Uuid::ZERO, ControllerConfig::default())
    }

    /// Replay one committed record at `offset` (see [`QuorumController::replayer`]).
    pub fn replay_committed(&mut self, r: &MetadataRecord, offset: i64) -> Result<(), String> {
        self.apply(r, offset).map(|_| ())
    }

    /// The state a standby would hold after replaying `log`'s metadata records up to and
    /// including `upto`, as [`ControllerState::summary`](super::ControllerState::summary)
    /// text (the invariant "controller state equals replay of the committed log").
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

    /// The state a snapshot holds, as
    /// [`ControllerState::summary`](super::ControllerState::summary) text.
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
