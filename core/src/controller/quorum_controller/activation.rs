//! `ActivationRecordsGenerator`: the records a new active controller writes in
//! completeActivation — the bootstrap records on an empty log, nothing otherwise.

use super::{ControllerResult, QuorumController, QUORUM_CONTROLLER_LOGGER};
use crate::common::node_log::Level;
use crate::controller::feature_control::{
    bootstrap_features, METADATA_VERSION, METADATA_VERSION_NAME,
};
use crate::metadata::{
    BeginTransactionRecord, ConfigRecord, EndTransactionRecord, MetadataRecord,
    RESOURCE_TYPE_BROKER,
};
use crate::raft::io::RaftIo;

impl QuorumController {
    /// `ActivationRecordsGenerator.generate`, logging through the QuorumController's
    /// log::warn: `recordsForEmptyLog` while metadata.version is unknown, else
    /// `recordsForNonEmptyLog`.
    pub(super) fn generate_activation_records(&self, io: &mut RaftIo) -> ControllerResult {
        let records = if self.state.features.levels.get(METADATA_VERSION).is_none() {
            self.records_for_empty_log(io)
        } else {
            // recordsForNonEmptyLog: nothing to write (the simulation never leaves a
            // metadata transaction open across a failover).
            self.log(
                io,
                Level::Warn,
                QUORUM_CONTROLLER_LOGGER,
                "Performing controller activation.".into(),
            );
            Vec::new()
        };
        ControllerResult {
            records,
            response: None,
            is_atomic: false,
        }
    }

    /// `recordsForEmptyLog`: the bootstrap records (the feature levels) in a metadata
    /// transaction, plus the cluster-wide min.insync.replicas that ELR needs (not counted
    /// among the bootstrap records).
    fn records_for_empty_log(&self, io: &mut RaftIo) -> Vec<MetadataRecord> {
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
        let mut records = vec![MetadataRecord::BeginTransaction(BeginTransactionRecord {
            name: Some("Bootstrap records".into()),
        })];
        records.extend(bootstrap);
        records.push(MetadataRecord::Config(ConfigRecord {
            resource_type: RESOURCE_TYPE_BROKER,
            resource_name: String::new(),
            name: "min.insync.replicas".into(),
            value: Some("1".into()),
        }));
        records.push(MetadataRecord::EndTransaction(EndTransactionRecord));
        records
    }
}
