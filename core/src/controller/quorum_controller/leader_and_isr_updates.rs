//! `generateLeaderAndIsrUpdates` and what it needs: the partitions to change, the
//! PartitionChangeBuilder's election settings (effective min ISR, unclean election, ELR,
//! acceptable leaders) and its log lines.

use super::{QuorumController, REPLICATION_CONTROL_LOGGER};
use crate::common::node_log::{Level, LogFile};
use crate::common::uuid::Uuid;
use crate::controller::partition_change_builder::{
    PartitionChangeBuilder, PARTITION_CHANGE_BUILDER_LOGGER,
};
use crate::metadata::{
    MetadataRecord, PartitionRecord, NO_LEADER, RESOURCE_TYPE_BROKER, RESOURCE_TYPE_TOPIC,
};
use crate::raft::io::RaftIo;

impl QuorumController {
    /// `generateLeaderAndIsrUpdates`: a PartitionChangeRecord per partition whose state
    /// changes when `broker_to_remove` leaves the ISRs (and leadership), `broker_to_add` counts
    /// as an acceptable leader although still fenced, and `broker_with_unclean_shutdown`
    /// leaves ISR, ELR and leadership; then the "{context}: changing N partition(s)" line.
    pub(super) fn generate_leader_and_isr_updates(
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

    /// The PCB's "Setting new leader ..." INFO lines: controller.log, no prefix.
    pub(super) fn log_builder_lines(&self, io: &mut RaftIo, lines: Vec<String>) {
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

    /// The (topic, partition) ids of the partitions `pred` picks, in the manager's order.
    pub(super) fn partitions_where(
        &self,
        pred: impl Fn(&PartitionRecord) -> bool,
    ) -> Vec<(Uuid, i32)> {
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

    /// `getTopicEffectiveMinIsr`: the topic's min.insync.replicas (topic config, then this
    /// controller's node config, then the cluster default, then 1), capped at the replication
    /// factor.
    pub(super) fn effective_min_isr(&self, topic: &str, replication_factor: usize) -> usize {
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
    pub(super) fn elr_enabled(&self) -> bool {
        self.state
            .features
            .levels
            .get("eligible.leader.replicas.version")
            .is_some_and(|l| *l >= 1)
    }

    /// `ClusterControlManager.isActive`: registered, unfenced, not in controlled shutdown.
    pub(super) fn is_active_broker(&self, id: i32) -> bool {
        self.state
            .cluster
            .brokers
            .get(&id)
            .is_some_and(|b| !b.record.fenced && !b.record.in_controlled_shutdown)
    }
}
