//! Broker state changes: the records that fence, unfence, shut down (cleanly, uncleanly or
//! under control) a broker, and those recording its cordoned log dirs.

use super::QuorumController;
use crate::common::uuid::Uuid;
use crate::controller::feature_control::is_cordoned_log_dirs_supported;
use crate::metadata::{
    BrokerRegistrationChangeRecord, MetadataRecord, FENCING_FENCE, FENCING_UNFENCE, NO_LEADER,
};
use crate::raft::io::RaftIo;

impl QuorumController {
    /// `handleBrokerFenced`: PartitionChangeRecords taking the broker out of every ISR, then the
    /// BrokerRegistrationChangeRecord that fences it.
    pub(super) fn handle_broker_fenced(
        &self,
        id: i32,
        epoch: i64,
        io: &mut RaftIo,
    ) -> Vec<MetadataRecord> {
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

    /// `handleBrokerUnfenced`: the BrokerRegistrationChangeRecord that unfences the broker, then
    /// PartitionChangeRecords giving it the partitions that have no leader.
    pub(super) fn handle_broker_unfenced(
        &self,
        id: i32,
        epoch: i64,
        io: &mut RaftIo,
    ) -> Vec<MetadataRecord> {
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
    pub(super) fn handle_broker_in_controlled_shutdown(
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

    /// `handleBrokerShutdown`, ClusterControlManager's `brokerShutdownHandler` when a new
    /// incarnation registers: after an unclean shutdown with ELR on, the broker leaves ISR, ELR
    /// and leadership ("handleBrokerUncleanShutdown", over the partitions with it in the ISR,
    /// then those with it in the ELR); otherwise it leaves the ISRs as if fenced
    /// ("handleBrokerShutdown"), keeping its ELR membership.
    pub(super) fn handle_broker_shutdown(
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

    /// `handleDirectoriesCordoned`: once the broker reports its cordoned log dirs (not null),
    /// a BrokerRegistrationChangeRecord (v3) when they differ from the registration's, which
    /// holds null until the first report of an incarnation.
    pub(super) fn handle_directories_cordoned(
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
}
