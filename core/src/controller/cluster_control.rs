//! ClusterControlManager: broker and controller registrations.

use super::rpc::ApiError;
use crate::metadata::{
    BrokerRegistrationChangeRecord, Endpoint, FeatureRange, RegisterBrokerRecord,
    RegisterControllerRecord, SECURITY_PROTOCOL_PLAINTEXT,
};
use crate::sim::uuid::Uuid;
use crate::timeline::{Revertable, SnapshotRegistry, TimelineHashMap};

/// A registered broker as the controller holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokerRegistration {
    /// The record that registered it (fields updated by later changes).
    pub record: RegisterBrokerRecord,
    /// The offset of the RegisterBrokerRecord: the broker epoch.
    pub register_offset: i64,
}

/// Registrations.
#[derive(Clone, Debug, Default)]
pub struct ClusterControlManager {
    /// Broker id to registration.
    pub brokers: TimelineHashMap<i32, BrokerRegistration>,
    /// Controller id to registration.
    pub controllers: TimelineHashMap<i32, RegisterControllerRecord>,
}

impl ClusterControlManager {
    /// `replay(RegisterBrokerRecord)`.
    pub fn replay_register_broker(
        &mut self,
        registry: &SnapshotRegistry,
        r: &RegisterBrokerRecord,
        offset: i64,
    ) -> String {
        self.brokers.put(
            registry,
            r.broker_id,
            BrokerRegistration {
                record: r.clone(),
                register_offset: offset,
            },
        );
        format!(
            "Replayed initial RegisterBrokerRecord for broker {}: {}",
            r.broker_id,
            broker_registration_text(r)
        )
    }

    /// `replay(BrokerRegistrationChangeRecord)`.
    pub fn replay_change(
        &mut self,
        registry: &SnapshotRegistry,
        r: &BrokerRegistrationChangeRecord,
    ) -> Result<String, String> {
        let mut reg = self.brokers.get(&r.broker_id).cloned().ok_or_else(|| {
            format!("Unable to replay {r:?}: no broker registration found for that id")
        })?;
        if reg.record.broker_epoch != r.broker_epoch {
            return Err(format!(
                "Unable to replay {r:?}: no broker registration with that epoch found"
            ));
        }
        r.apply_to(&mut reg.record);
        let text = broker_registration_text(&reg.record);
        self.brokers.put(registry, r.broker_id, reg);
        Ok(format!(
            "Replayed BrokerRegistrationChangeRecord modifying the registration for broker {}: {}",
            r.broker_id, text
        ))
    }

    /// `replay(RegisterControllerRecord)`.
    pub fn replay_register_controller(
        &mut self,
        registry: &SnapshotRegistry,
        r: &RegisterControllerRecord,
    ) -> String {
        let new = self.controllers.get(&r.controller_id).is_none();
        self.controllers.put(registry, r.controller_id, r.clone());
        format!(
            "Replayed RegisterControllerRecord containing ControllerRegistration(id={}, incarnationId={}, zkMigrationReady={}, listeners=[Endpoint(listenerName='CONTROLLER', securityProtocol=PLAINTEXT, host='localhost', port={})], supportedFeatures={{kraft.version: 0-1, metadata.version: 7-33}}).{}",
            r.controller_id,
            r.incarnation_id,
            r.zk_migration_ready,
            r.end_points.first().map(|e| e.port).unwrap_or(0),
            if new { "" } else { " Previous incarnation was replaced." }
        )
    }

    /// `registerBroker`: the RegisterBrokerRecord for a BrokerRegistrationRequest; the broker
    /// epoch is the offset the record will be written at.
    pub fn register_broker(
        &self,
        broker_id: i32,
        incarnation_id: Uuid,
        port: u16,
        log_dirs: Vec<Uuid>,
        next_write_offset: i64,
    ) -> Result<RegisterBrokerRecord, (ApiError, String)> {
        if let Some(existing) = self.brokers.get(&broker_id) {
            if existing.record.incarnation_id != incarnation_id && !existing.record.fenced {
                return Err((
                    ApiError::DuplicateBrokerRegistration,
                    format!(
                        "Another broker is registered with that broker id. The incarnation ID is {}",
                        existing.record.incarnation_id
                    ),
                ));
            }
        }
        Ok(RegisterBrokerRecord {
            broker_id,
            incarnation_id,
            broker_epoch: next_write_offset,
            end_points: vec![Endpoint {
                name: "PLAINTEXT".into(),
                host: "localhost".into(),
                port,
                security_protocol: SECURITY_PROTOCOL_PLAINTEXT,
            }],
            features: supported_features(),
            fenced: true,
            in_controlled_shutdown: false,
            log_dirs,
            ..Default::default()
        })
    }

    /// Registered, unfenced brokers not in controlled shutdown, sorted by id.
    pub fn usable_brokers(&self) -> Vec<i32> {
        self.brokers
            .iter()
            .filter(|(_, b)| !b.record.fenced && !b.record.in_controlled_shutdown)
            .map(|(id, _)| *id)
            .collect()
    }
}

/// The feature ranges this simulated Kafka supports, as brokers and controllers register them:
/// kraft.version 0-1 and metadata.version 7 (3.3-IV3) to 33 (4.4-IV2).
pub fn supported_features() -> Vec<FeatureRange> {
    [
        ("kraft.version", 0, 1),
        (
            "metadata.version",
            7,
            super::feature_control::METADATA_VERSION_LEVEL,
        ),
    ]
    .into_iter()
    .map(|(name, min, max)| FeatureRange {
        name: name.to_string(),
        min_supported_version: min,
        max_supported_version: max,
    })
    .collect()
}

/// Kafka's `BrokerRegistration.toString()`.
pub fn broker_registration_text(r: &RegisterBrokerRecord) -> String {
    let listeners: Vec<String> = r
        .end_points
        .iter()
        .map(|e| {
            format!(
                "Endpoint(listenerName='{}', securityProtocol=PLAINTEXT, host='{}', port={})",
                e.name, e.host, e.port
            )
        })
        .collect();
    let features: Vec<String> = r
        .features
        .iter()
        .map(|f| {
            format!(
                "{}: {}-{}",
                f.name, f.min_supported_version, f.max_supported_version
            )
        })
        .collect();
    let dirs: Vec<String> = r.log_dirs.iter().map(|d| d.to_string()).collect();
    format!(
        "BrokerRegistration(id={}, epoch={}, incarnationId={}, listeners=[{}], supportedFeatures={{{}}}, rack=Optional.empty, fenced={}, inControlledShutdown={}, isMigratingZkBroker=false, directories=[{}])",
        r.broker_id,
        r.broker_epoch,
        r.incarnation_id,
        listeners.join(", "),
        features.join(", "),
        r.fenced,
        r.in_controlled_shutdown,
        dirs.join(", ")
    )
}

impl Revertable for ClusterControlManager {
    fn revert_to_snapshot(&mut self, epoch: i64) {
        self.brokers.revert_to_snapshot(epoch);
        self.controllers.revert_to_snapshot(epoch);
    }
    fn delete_snapshot(&mut self, epoch: i64, previous: Option<i64>) {
        self.brokers.delete_snapshot(epoch, previous);
        self.controllers.delete_snapshot(epoch, previous);
    }
    fn delete_snapshots_up_to(&mut self, epoch: i64) {
        self.brokers.delete_snapshots_up_to(epoch);
        self.controllers.delete_snapshots_up_to(epoch);
    }
}
