//! ClusterControlManager: broker and controller registrations.

use super::heartbeat_manager::BrokerHeartbeatManager;
use super::placement::UsableBroker;
use crate::common::message::controller::ApiError;
use crate::common::uuid::Uuid;
use crate::metadata::broker_registration::{
    broker_registration_text, controller_registration_text, BrokerRegistration,
};
use crate::metadata::{
    BrokerRegistrationChangeRecord, Endpoint, FeatureRange, MetadataRecord, RegisterBrokerRecord,
    RegisterControllerRecord, SECURITY_PROTOCOL_PLAINTEXT,
};
use crate::timeline::{Revertable, SnapshotRegistry, TimelineHashMap};

/// Registrations.
#[derive(Clone, Debug, Default)]
pub struct ClusterControlManager {
    /// Broker id to registration.
    pub brokers: TimelineHashMap<i32, BrokerRegistration>,
    /// Controller id to registration.
    pub controllers: TimelineHashMap<i32, RegisterControllerRecord>,
}

impl ClusterControlManager {
    /// `replay(RegisterBrokerRecord)`: the line prints the record, with the wording for an
    /// initial registration, a new incarnation or an amended one.
    pub fn replay_register_broker(
        &mut self,
        registry: &SnapshotRegistry,
        r: &RegisterBrokerRecord,
        offset: i64,
    ) -> String {
        let prev = self
            .brokers
            .get(&r.broker_id)
            .map(|b| b.record.incarnation_id);
        self.brokers.put(
            registry,
            r.broker_id,
            BrokerRegistration {
                record: r.clone(),
                register_offset: offset,
            },
        );
        let id = r.broker_id;
        let text = r.java_to_string();
        match prev {
            None => format!("Replayed initial RegisterBrokerRecord for broker {id}: {text}"),
            Some(p) if p == r.incarnation_id => format!(
                "Replayed RegisterBrokerRecord modifying the registration for broker {id}: {text}"
            ),
            Some(_) => format!(
                "Replayed RegisterBrokerRecord establishing a new incarnation of broker {id}: {text}"
            ),
        }
    }

    /// `replay(BrokerRegistrationChangeRecord)`: "Replayed ... modifying the registration" with
    /// the record, or "Ignoring no-op registration change for `BrokerRegistration(...)`" when the
    /// registration stays the same.
    pub fn replay_change(
        &mut self,
        registry: &SnapshotRegistry,
        r: &BrokerRegistrationChangeRecord,
    ) -> Result<String, String> {
        let text = r.java_to_string();
        let cur = self.brokers.get(&r.broker_id).cloned().ok_or_else(|| {
            format!("Unable to replay {text}: no broker registration found for that id")
        })?;
        if cur.record.broker_epoch != r.broker_epoch {
            return Err(format!(
                "Unable to replay {text}: no broker registration with that epoch found"
            ));
        }
        // BrokerRegistration.cloneWith
        let mut next = cur.clone();
        r.apply_to(&mut next.record);
        if next == cur {
            return Ok(format!(
                "Ignoring no-op registration change for {}",
                broker_registration_text(&cur.record)
            ));
        }
        self.brokers.put(registry, r.broker_id, next);
        Ok(format!(
            "Replayed BrokerRegistrationChangeRecord modifying the registration for broker {}: {text}",
            r.broker_id
        ))
    }

    /// `replay(RegisterControllerRecord)`.
    pub fn replay_register_controller(
        &mut self,
        registry: &SnapshotRegistry,
        r: &RegisterControllerRecord,
    ) -> String {
        let previous = self
            .controllers
            .get(&r.controller_id)
            .map(|p| format!(" Previous incarnation was {}", p.incarnation_id))
            .unwrap_or_default();
        self.controllers.put(registry, r.controller_id, r.clone());
        format!(
            "Replayed RegisterControllerRecord containing {}.{previous}",
            controller_registration_text(r)
        )
    }

    /// `registerBroker`: the records for a BrokerRegistrationRequest and the INFO line
    /// ClusterControlManager logs. A registration of a new incarnation while the stored one
    /// still has a valid heartbeat session (`has_valid_session(stored epoch)`) fails with
    /// DUPLICATE_BROKER_REGISTRATION. A new incarnation first gets the records
    /// `shutdown_records(is_clean_shutdown)` returns (`brokerShutdownHandler`: clean when the
    /// request's `previous_broker_epoch` equals the stored epoch, -2 when none is stored), then
    /// a RegisterBrokerRecord with `new_broker_epoch` (the offset of the result's first record)
    /// that starts fenced; the same incarnation amends its registration and keeps its epoch,
    /// fencing and controlled-shutdown state. Returns every record, the RegisterBrokerRecord
    /// last, and the line.
    #[allow(clippy::too_many_arguments)]
    pub fn register_broker(
        &self,
        broker_id: i32,
        incarnation_id: Uuid,
        port: u16,
        log_dirs: Vec<Uuid>,
        previous_broker_epoch: i64,
        new_broker_epoch: i64,
        has_valid_session: impl Fn(i64) -> bool,
        shutdown_records: impl FnOnce(bool) -> Vec<MetadataRecord>,
    ) -> Result<(Vec<MetadataRecord>, RegisterBrokerRecord, String), (ApiError, String)> {
        let existing = self.brokers.get(&broker_id);
        // BrokerRegistration.previousBrokerEpoch's default is -1, so "none stored" is -2.
        let stored_broker_epoch = existing.map_or(-2, |e| e.record.broker_epoch);
        if let Some(existing) = existing {
            if has_valid_session(existing.record.broker_epoch)
                && existing.record.incarnation_id != incarnation_id
            {
                return Err((
                    ApiError::DuplicateBrokerRegistration,
                    "Another broker is registered with that broker id. If the broker was recently restarted this should self-resolve once the heartbeat manager expires the broker's session.".into(),
                ));
            }
        }
        let mut record = RegisterBrokerRecord {
            broker_id,
            incarnation_id,
            broker_epoch: new_broker_epoch,
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
        };
        let mut records = Vec::new();
        let line = match existing {
            Some(e) if e.record.incarnation_id == incarnation_id => {
                record.fenced = e.record.fenced;
                record.in_controlled_shutdown = e.record.in_controlled_shutdown;
                record.broker_epoch = e.record.broker_epoch;
                format!(
                    "Amending registration of broker {broker_id}, incarnation ID {incarnation_id}. Broker epoch remains {}.",
                    e.record.broker_epoch
                )
            }
            _ => {
                // The request is version 3 or later: clean-shutdown detection is on.
                let is_clean_shutdown = stored_broker_epoch == previous_broker_epoch;
                records = shutdown_records(is_clean_shutdown);
                let n = records.len();
                match existing {
                    None => format!(
                        "No previous registration found for broker {broker_id}. New incarnation ID is {incarnation_id}.  Generated {n} record(s) to clean up previous incarnations. New broker epoch is {new_broker_epoch}."
                    ),
                    Some(e) => format!(
                        "Registering a new incarnation of broker {broker_id}. Previous incarnation ID was {}; new incarnation ID is {incarnation_id}. Generated {n} record(s) to clean up previous incarnations. Broker epoch will become {new_broker_epoch}.",
                        e.record.incarnation_id
                    ),
                }
            }
        };
        records.push(MetadataRecord::RegisterBroker(record.clone()));
        Ok((records, record, line))
    }

    /// Registered, unfenced brokers not in controlled shutdown (`isActive`), sorted by id.
    pub fn active_brokers(&self) -> Vec<i32> {
        self.brokers
            .iter()
            .filter(|(_, b)| !b.record.fenced && !b.record.in_controlled_shutdown)
            .map(|(id, _)| *id)
            .collect()
    }

    /// `usableBrokers`: every broker the heartbeat manager holds, fenced or not, except those
    /// shutting down (a controlled-shutdown offset) or with every log directory cordoned; the
    /// rack comes from the registration. Sorted by id (Kafka iterates a `HashMap`; the placer
    /// sorts them anyway).
    pub fn usable_brokers(&self, heartbeats: &BrokerHeartbeatManager) -> Vec<UsableBroker> {
        heartbeats
            .brokers
            .iter()
            .filter(|(_, h)| !h.shutting_down())
            .filter_map(|(id, h)| {
                let r = &self.brokers.get(id)?.record;
                has_uncordoned_dirs(r).then(|| UsableBroker {
                    id: *id,
                    rack: r.rack.clone(),
                    fenced: h.fenced,
                })
            })
            .collect()
    }

    /// `defaultDir`: the directory of a new replica on the broker — its sole directory,
    /// [`DIRECTORY_MIGRATING`] when it has none, [`DIRECTORY_UNASSIGNED`] when it has several
    /// or is not registered.
    pub fn default_dir(&self, broker_id: i32) -> Uuid {
        match self.brokers.get(&broker_id) {
            None => DIRECTORY_UNASSIGNED,
            Some(b) => match b.record.log_dirs.as_slice() {
                [] => DIRECTORY_MIGRATING,
                [dir] => *dir,
                _ => DIRECTORY_UNASSIGNED,
            },
        }
    }
}

/// `DirectoryId.MIGRATING` (`AAAAAAAAAAAAAAAAAAAAAA`).
pub const DIRECTORY_MIGRATING: Uuid = Uuid::ZERO;
/// `DirectoryId.UNASSIGNED` (`AAAAAAAAAAAAAAAAAAAAAQ`).
pub const DIRECTORY_UNASSIGNED: Uuid = Uuid([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);

/// `BrokerRegistration.hasUncordonedDirs`: no directories, none cordoned, or one left over.
fn has_uncordoned_dirs(r: &RegisterBrokerRecord) -> bool {
    match &r.cordoned_log_dirs {
        None => true,
        _ if r.log_dirs.is_empty() => true,
        Some(c) => r.log_dirs.iter().any(|d| !c.contains(d)),
    }
}

/// The feature ranges a Kafka 4.5 node supports and registers: `metadata.version` from 7
/// (3.3-IV3) to 33 (4.4-IV2, the latest production level) and every production feature with a
/// level above 0, from its first level to its latest production level (`Feature.java`; the
/// test features are left out). Controllers send them in the iteration order of the `HashMap`
/// QuorumFeatures builds, which is this order on every JVM; brokers copy their map with
/// `Map.copyOf`, whose order is random per JVM, so the simulation sends that same fixed order.
pub fn supported_features() -> Vec<FeatureRange> {
    [
        ("group.version", 0, 1),
        ("kraft.version", 0, 1),
        (
            super::feature_control::METADATA_VERSION,
            7,
            super::feature_control::METADATA_VERSION_LEVEL,
        ),
        ("share.version", 0, 2),
        ("streams.version", 0, 1),
        ("transaction.version", 0, 2),
        ("eligible.leader.replicas.version", 0, 1),
    ]
    .into_iter()
    .map(|(name, min, max)| FeatureRange {
        name: name.to_string(),
        min_supported_version: min,
        max_supported_version: max,
    })
    .collect()
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
