//! RegisterBrokerRecord (apiKey 0) and BrokerRegistrationChangeRecord (apiKey 17), plus the
//! endpoint and feature entries they (and RegisterControllerRecord) carry.

use super::wire::{field, java_list, java_nullable_list, JsonObject, Writer};
use crate::common::uuid::Uuid;

/// SecurityProtocol id of PLAINTEXT.
pub const SECURITY_PROTOCOL_PLAINTEXT: i16 = 0;
/// SecurityProtocol id of SSL.
pub const SECURITY_PROTOCOL_SSL: i16 = 1;
/// SecurityProtocol id of SASL_PLAINTEXT.
pub const SECURITY_PROTOCOL_SASL_PLAINTEXT: i16 = 2;
/// SecurityProtocol id of SASL_SSL.
pub const SECURITY_PROTOCOL_SASL_SSL: i16 = 3;

/// BrokerRegistrationChangeRecord `Fenced`: the broker has been unfenced.
pub const FENCING_UNFENCE: i8 = -1;
/// BrokerRegistrationChangeRecord `Fenced`: no change (the default).
pub const FENCING_NONE: i8 = 0;
/// BrokerRegistrationChangeRecord `Fenced`: the broker has been fenced.
pub const FENCING_FENCE: i8 = 1;
/// BrokerRegistrationChangeRecord `InControlledShutdown`: no change (the default).
pub const IN_CONTROLLED_SHUTDOWN_NONE: i8 = 0;
/// BrokerRegistrationChangeRecord `InControlledShutdown`: the broker is in controlled shutdown.
pub const IN_CONTROLLED_SHUTDOWN: i8 = 1;

/// One listener endpoint: Kafka's `BrokerEndpoint` (RegisterBrokerRecord) and
/// `ControllerEndpoint` (RegisterControllerRecord), which have the same fields.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Endpoint {
    /// Name: the listener name, e.g. `PLAINTEXT` or `CONTROLLER`.
    pub name: String,
    /// Host.
    pub host: String,
    /// Port (uint16).
    pub port: u16,
    /// SecurityProtocol id (0 PLAINTEXT, 1 SSL, 2 SASL_PLAINTEXT, 3 SASL_SSL).
    pub security_protocol: i16,
}

impl Endpoint {
    pub(crate) fn json(&self) -> String {
        let mut j = JsonObject::new();
        j.str("name", &self.name);
        j.str("host", &self.host);
        j.num("port", self.port);
        j.num("securityProtocol", self.security_protocol);
        j.finish()
    }

    pub(crate) fn write(w: &mut Writer, e: &Endpoint) {
        w.compact_string(&e.name);
        w.compact_string(&e.host);
        w.u16(e.port);
        w.i16(e.security_protocol);
        w.tagged_fields(Vec::new());
    }
}

/// One supported feature range: Kafka's `BrokerFeature` and `ControllerFeature`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FeatureRange {
    /// Name: the feature name, e.g. `metadata.version`, `kraft.version`.
    pub name: String,
    /// MinSupportedVersion: the lowest supported feature level.
    pub min_supported_version: i16,
    /// MaxSupportedVersion: the highest supported feature level.
    pub max_supported_version: i16,
}

impl FeatureRange {
    pub(crate) fn json(&self) -> String {
        let mut j = JsonObject::new();
        j.str("name", &self.name);
        j.num("minSupportedVersion", self.min_supported_version);
        j.num("maxSupportedVersion", self.max_supported_version);
        j.finish()
    }

    pub(crate) fn write(w: &mut Writer, f: &FeatureRange) {
        w.compact_string(&f.name);
        w.i16(f.min_supported_version);
        w.i16(f.max_supported_version);
        w.tagged_fields(Vec::new());
    }
}

/// RegisterBrokerRecord, written at version 4 (trunk's metadata.version supports cordoned log
/// dirs): a broker's full registration. The controller writes it with `fenced = true`; the
/// record's offset becomes the broker epoch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegisterBrokerRecord {
    /// BrokerId.
    pub broker_id: i32,
    /// IsMigratingZkBroker (v2+, default false).
    pub is_migrating_zk_broker: bool,
    /// IncarnationId: the id of this broker process.
    pub incarnation_id: Uuid,
    /// BrokerEpoch (int64) assigned by the controller.
    pub broker_epoch: i64,
    /// EndPoints: the broker's listeners.
    pub end_points: Vec<Endpoint>,
    /// Features: the feature ranges this broker supports.
    pub features: Vec<FeatureRange>,
    /// Rack (nullable; printed as `null` when absent).
    pub rack: Option<String>,
    /// Fenced (default true).
    pub fenced: bool,
    /// InControlledShutdown (v1+, default false).
    pub in_controlled_shutdown: bool,
    /// LogDirs (v3+, tag 0, default empty): the broker's available log directories.
    pub log_dirs: Vec<Uuid>,
    /// CordonedLogDirs (v4+, tag 1, nullable, default null): cordoned log directories; `None`
    /// until the broker has caught up and reported them in a heartbeat.
    pub cordoned_log_dirs: Option<Vec<Uuid>>,
}

impl Default for RegisterBrokerRecord {
    /// The schema defaults: everything zero or empty, `fenced = true`.
    fn default() -> Self {
        RegisterBrokerRecord {
            broker_id: 0,
            is_migrating_zk_broker: false,
            incarnation_id: Uuid::ZERO,
            broker_epoch: 0,
            end_points: Vec::new(),
            features: Vec::new(),
            rack: None,
            fenced: true,
            in_controlled_shutdown: false,
            log_dirs: Vec::new(),
            cordoned_log_dirs: None,
        }
    }
}

impl RegisterBrokerRecord {
    /// The version written.
    pub const VERSION: u16 = 4;

    pub(crate) fn write_json(&self, j: &mut JsonObject) {
        j.num("brokerId", self.broker_id);
        j.bool("isMigratingZkBroker", self.is_migrating_zk_broker);
        j.uuid("incarnationId", self.incarnation_id);
        j.num("brokerEpoch", self.broker_epoch);
        j.objects(
            "endPoints",
            self.end_points.iter().map(Endpoint::json).collect(),
        );
        j.objects(
            "features",
            self.features.iter().map(FeatureRange::json).collect(),
        );
        j.nullable_str("rack", self.rack.as_deref());
        j.bool("fenced", self.fenced);
        j.bool("inControlledShutdown", self.in_controlled_shutdown);
        if !self.log_dirs.is_empty() {
            j.uuids("logDirs", &self.log_dirs);
        }
        if let Some(dirs) = &self.cordoned_log_dirs {
            j.uuids("cordonedLogDirs", dirs);
        }
    }

    /// The generated `RegisterBrokerRecord.toString()` (controller replay lines): every field
    /// in schema order; `cordonedLogDirs` prints `null` while absent.
    pub fn java_to_string(&self) -> String {
        let end_points: Vec<String> = self
            .end_points
            .iter()
            .map(|e| {
                format!(
                    "BrokerEndpoint(name='{}', host='{}', port={}, securityProtocol={})",
                    e.name, e.host, e.port, e.security_protocol
                )
            })
            .collect();
        let features: Vec<String> = self
            .features
            .iter()
            .map(|f| {
                format!(
                    "BrokerFeature(name='{}', minSupportedVersion={}, maxSupportedVersion={})",
                    f.name, f.min_supported_version, f.max_supported_version
                )
            })
            .collect();
        format!(
            "RegisterBrokerRecord(brokerId={}, isMigratingZkBroker={}, incarnationId={}, brokerEpoch={}, endPoints={}, features={}, rack={}, fenced={}, inControlledShutdown={}, logDirs={}, cordonedLogDirs={})",
            self.broker_id,
            self.is_migrating_zk_broker,
            self.incarnation_id,
            self.broker_epoch,
            java_list(&end_points),
            java_list(&features),
            self.rack
                .as_ref()
                .map(|r| format!("'{r}'"))
                .unwrap_or_else(|| "null".into()),
            self.fenced,
            self.in_controlled_shutdown,
            java_list(&self.log_dirs),
            java_nullable_list(self.cordoned_log_dirs.as_deref())
        )
    }

    pub(crate) fn write(&self, w: &mut Writer) {
        w.i32(self.broker_id);
        w.bool(self.is_migrating_zk_broker);
        w.uuid(self.incarnation_id);
        w.i64(self.broker_epoch);
        w.compact_structs(&self.end_points, Endpoint::write);
        w.compact_structs(&self.features, FeatureRange::write);
        w.compact_nullable_string(self.rack.as_deref());
        w.bool(self.fenced);
        w.bool(self.in_controlled_shutdown);
        let mut tagged = Vec::new();
        if !self.log_dirs.is_empty() {
            tagged.push((0, field(|w| w.compact_uuids(&self.log_dirs))));
        }
        if let Some(dirs) = &self.cordoned_log_dirs {
            tagged.push((1, field(|w| w.compact_uuids(dirs))));
        }
        w.tagged_fields(tagged);
    }
}

/// BrokerRegistrationChangeRecord: a change to a registered broker. Its version is the lowest
/// one that carries the fields set, which is what Kafka's controller writes: 0 for fence and
/// unfence, 1 when `in_controlled_shutdown` is set, 2 with `log_dirs`, 3 with
/// `cordoned_log_dirs` (`Some`, even empty: `handleDirectoriesCordoned` writes v3).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BrokerRegistrationChangeRecord {
    /// BrokerId.
    pub broker_id: i32,
    /// BrokerEpoch (int64).
    pub broker_epoch: i64,
    /// Fenced (int8, tag 0): -1 unfenced ([`FENCING_UNFENCE`]), 0 no change (the default),
    /// 1 fenced ([`FENCING_FENCE`]).
    pub fenced: i8,
    /// InControlledShutdown (int8, v1+, tag 1): 0 no change (the default), 1 in controlled
    /// shutdown.
    pub in_controlled_shutdown: i8,
    /// LogDirs (v2+, tag 2, default empty).
    pub log_dirs: Vec<Uuid>,
    /// CordonedLogDirs (v3+, tag 3, nullable, default null): `None` for no change, else the
    /// broker's cordoned log directories (`[]` when none is cordoned).
    pub cordoned_log_dirs: Option<Vec<Uuid>>,
}

impl BrokerRegistrationChangeRecord {
    /// The version written: the lowest that carries every field set.
    pub fn version(&self) -> u16 {
        if self.cordoned_log_dirs.is_some() {
            3
        } else if !self.log_dirs.is_empty() {
            2
        } else if self.in_controlled_shutdown != IN_CONTROLLED_SHUTDOWN_NONE {
            1
        } else {
            0
        }
    }

    /// The generated `BrokerRegistrationChangeRecord.toString()`: every field in schema
    /// order; `cordonedLogDirs` prints `null` while absent.
    pub fn java_to_string(&self) -> String {
        format!(
            "BrokerRegistrationChangeRecord(brokerId={}, brokerEpoch={}, fenced={}, inControlledShutdown={}, logDirs={}, cordonedLogDirs={})",
            self.broker_id,
            self.broker_epoch,
            self.fenced,
            self.in_controlled_shutdown,
            java_list(&self.log_dirs),
            java_nullable_list(self.cordoned_log_dirs.as_deref())
        )
    }

    pub(crate) fn write_json(&self, j: &mut JsonObject) {
        let version = self.version();
        j.num("brokerId", self.broker_id);
        j.num("brokerEpoch", self.broker_epoch);
        if self.fenced != FENCING_NONE {
            j.num("fenced", self.fenced);
        }
        if version >= 1 && self.in_controlled_shutdown != IN_CONTROLLED_SHUTDOWN_NONE {
            j.num("inControlledShutdown", self.in_controlled_shutdown);
        }
        if version >= 2 && !self.log_dirs.is_empty() {
            j.uuids("logDirs", &self.log_dirs);
        }
        if let Some(dirs) = &self.cordoned_log_dirs {
            j.uuids("cordonedLogDirs", dirs);
        }
    }

    pub(crate) fn write(&self, w: &mut Writer) {
        w.i32(self.broker_id);
        w.i64(self.broker_epoch);
        let mut tagged = Vec::new();
        if self.fenced != FENCING_NONE {
            tagged.push((0, field(|w| w.i8(self.fenced))));
        }
        if self.in_controlled_shutdown != IN_CONTROLLED_SHUTDOWN_NONE {
            tagged.push((1, field(|w| w.i8(self.in_controlled_shutdown))));
        }
        if !self.log_dirs.is_empty() {
            tagged.push((2, field(|w| w.compact_uuids(&self.log_dirs))));
        }
        if let Some(dirs) = &self.cordoned_log_dirs {
            tagged.push((3, field(|w| w.compact_uuids(dirs))));
        }
        w.tagged_fields(tagged);
    }

    /// `BrokerRegistration.cloneWith`: this change applied to a registration (fenced,
    /// inControlledShutdown, log dirs when non-empty, cordoned log dirs when not null).
    pub fn apply_to(&self, r: &mut RegisterBrokerRecord) {
        match self.fenced {
            FENCING_FENCE => r.fenced = true,
            FENCING_UNFENCE => r.fenced = false,
            _ => {}
        }
        if self.in_controlled_shutdown == IN_CONTROLLED_SHUTDOWN {
            r.in_controlled_shutdown = true;
        }
        if !self.log_dirs.is_empty() {
            r.log_dirs = self.log_dirs.clone();
        }
        if let Some(dirs) = &self.cordoned_log_dirs {
            r.cordoned_log_dirs = Some(dirs.clone());
        }
    }
}
