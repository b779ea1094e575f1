//! Kafka's `org.apache.kafka.metadata.BrokerRegistration` and `ControllerRegistration`: a
//! registered node as the controller and the MetadataImage hold it, and their `toString()`s.

use super::{
    Endpoint, FeatureRange, RegisterBrokerRecord, RegisterControllerRecord,
    SECURITY_PROTOCOL_SASL_PLAINTEXT, SECURITY_PROTOCOL_SASL_SSL, SECURITY_PROTOCOL_SSL,
};

/// A registered broker as the controller and the MetadataImage hold it (Kafka's
/// `org.apache.kafka.metadata.BrokerRegistration`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokerRegistration {
    /// The record that registered it (fields updated by later changes).
    pub record: RegisterBrokerRecord,
    /// The offset of the RegisterBrokerRecord: the broker epoch.
    pub register_offset: i64,
}

/// `VersionRange.toString()`: `min-max`, `min` when equal, `min+` for an open range.
fn version_range_text(f: &FeatureRange) -> String {
    if f.min_supported_version == f.max_supported_version {
        f.min_supported_version.to_string()
    } else if f.max_supported_version == i16::MAX {
        format!("{}+", f.min_supported_version)
    } else {
        format!("{}-{}", f.min_supported_version, f.max_supported_version)
    }
}

/// A registration's `supportedFeatures={name: range, ...}`, sorted by name as
/// `BrokerRegistration` and `ControllerRegistration` print them.
fn supported_features_text(features: &[FeatureRange]) -> String {
    let mut sorted: Vec<&FeatureRange> = features.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let items: Vec<String> = sorted
        .iter()
        .map(|f| format!("{}: {}", f.name, version_range_text(f)))
        .collect();
    format!("{{{}}}", items.join(", "))
}

/// `Endpoint.toString()` of each listener, sorted by listener name.
fn listeners_text(end_points: &[Endpoint]) -> String {
    let mut sorted: Vec<&Endpoint> = end_points.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let items: Vec<String> = sorted
        .iter()
        .map(|e| {
            format!(
                "Endpoint(listenerName='{}', securityProtocol={}, host='{}', port={})",
                e.name,
                security_protocol_name(e.security_protocol),
                e.host,
                e.port
            )
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// The `SecurityProtocol` enum name of an id.
fn security_protocol_name(id: i16) -> &'static str {
    match id {
        SECURITY_PROTOCOL_SSL => "SSL",
        SECURITY_PROTOCOL_SASL_PLAINTEXT => "SASL_PLAINTEXT",
        SECURITY_PROTOCOL_SASL_SSL => "SASL_SSL",
        _ => "PLAINTEXT",
    }
}

/// Kafka's `BrokerRegistration.toString()` (controller replay lines, the metadata shell's
/// `/image/cluster/brokers/<id>`). `cordonedDirectories` is `null` until a
/// BrokerRegistrationChangeRecord sets it.
pub fn broker_registration_text(r: &RegisterBrokerRecord) -> String {
    let dirs: Vec<String> = r.log_dirs.iter().map(|d| d.to_string()).collect();
    let cordoned = crate::metadata::wire::java_nullable_list(r.cordoned_log_dirs.as_deref());
    format!(
        "BrokerRegistration(id={}, epoch={}, incarnationId={}, listeners={}, supportedFeatures={}, rack={}, fenced={}, inControlledShutdown={}, isMigratingZkBroker={}, directories=[{}], cordonedDirectories={})",
        r.broker_id,
        r.broker_epoch,
        r.incarnation_id,
        listeners_text(&r.end_points),
        supported_features_text(&r.features),
        match &r.rack {
            Some(rack) => format!("Optional[{rack}]"),
            None => "Optional.empty".into(),
        },
        r.fenced,
        r.in_controlled_shutdown,
        r.is_migrating_zk_broker,
        dirs.join(", "),
        cordoned
    )
}

/// Kafka's `ControllerRegistration.toString()`.
pub fn controller_registration_text(r: &RegisterControllerRecord) -> String {
    format!(
        "ControllerRegistration(id={}, incarnationId={}, zkMigrationReady={}, listeners={}, supportedFeatures={})",
        r.controller_id,
        r.incarnation_id,
        r.zk_migration_ready,
        listeners_text(&r.end_points),
        supported_features_text(&r.features)
    )
}
