//! ConfigurationControlManager: dynamic configs by resource (cluster-wide broker defaults and
//! topic configs), their replay, and `incrementalAlterConfigs` with the validation Kafka's
//! ControllerConfigurationValidator and ConfigResourceExistenceChecker do for topics.

use super::replication_control::validate_topic_name;
use crate::common::java::{java_hash_map_capacity, java_hash_map_order, java_string_hash};
use crate::common::message::controller::{
    AlterConfigOpType, AlterConfigsResource, AlterConfigsResourceResponse, AlterableConfig,
    ApiError,
};
use crate::metadata::{resource_type_name, ConfigRecord, MetadataRecord, RESOURCE_TYPE_TOPIC};
use crate::timeline::{Revertable, SnapshotRegistry, TimelineHashMap};

/// The topic-level configs (`LogConfig.nonInternalConfigNames`), sorted.
pub const TOPIC_CONFIGS: &[&str] = &[
    "cleanup.policy",
    "compression.gzip.level",
    "compression.lz4.level",
    "compression.type",
    "compression.zstd.level",
    "delete.retention.ms",
    "file.delete.delay.ms",
    "flush.messages",
    "flush.ms",
    "follower.replication.throttled.replicas",
    "index.interval.bytes",
    "leader.replication.throttled.replicas",
    "local.retention.bytes",
    "local.retention.ms",
    "max.compaction.lag.ms",
    "max.message.bytes",
    "message.timestamp.after.max.ms",
    "message.timestamp.before.max.ms",
    "message.timestamp.type",
    "min.cleanable.dirty.ratio",
    "min.compaction.lag.ms",
    "min.insync.replicas",
    "preallocate",
    "remote.log.copy.disable",
    "remote.log.delete.on.disable",
    "remote.storage.enable",
    "retention.bytes",
    "retention.ms",
    "segment.bytes",
    "segment.index.bytes",
    "segment.jitter.ms",
    "segment.ms",
    "unclean.leader.election.enable",
];

/// A `ConfigDef.Type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfigType {
    /// BOOLEAN
    Boolean,
    /// INT
    Int,
    /// LONG
    Long,
    /// DOUBLE
    Double,
    /// STRING
    String,
    /// LIST (comma-separated)
    List,
}

impl ConfigType {
    /// Kafka's name of the type (`LONG`), as `Not a number of type LONG` prints it.
    pub fn name(&self) -> &'static str {
        match self {
            ConfigType::Boolean => "BOOLEAN",
            ConfigType::Int => "INT",
            ConfigType::Long => "LONG",
            ConfigType::Double => "DOUBLE",
            ConfigType::String => "STRING",
            ConfigType::List => "LIST",
        }
    }
}

/// The `ConfigDef.Type` of a topic config (`LogConfig.configType`), None for an unknown name.
pub fn topic_config_type(name: &str) -> Option<ConfigType> {
    use ConfigType::*;
    let t = match name {
        "cleanup.policy"
        | "follower.replication.throttled.replicas"
        | "leader.replication.throttled.replicas" => List,
        "compression.gzip.level"
        | "compression.lz4.level"
        | "compression.zstd.level"
        | "index.interval.bytes"
        | "max.message.bytes"
        | "min.insync.replicas"
        | "segment.bytes"
        | "segment.index.bytes" => Int,
        "delete.retention.ms"
        | "file.delete.delay.ms"
        | "flush.messages"
        | "flush.ms"
        | "local.retention.bytes"
        | "local.retention.ms"
        | "max.compaction.lag.ms"
        | "message.timestamp.after.max.ms"
        | "message.timestamp.before.max.ms"
        | "min.compaction.lag.ms"
        | "retention.bytes"
        | "retention.ms"
        | "segment.jitter.ms"
        | "segment.ms" => Long,
        "min.cleanable.dirty.ratio" => Double,
        "preallocate"
        | "remote.log.copy.disable"
        | "remote.log.delete.on.disable"
        | "remote.storage.enable"
        | "unclean.leader.election.enable" => Boolean,
        "compression.type" | "message.timestamp.type" => String,
        _ => return None,
    };
    Some(t)
}

/// `ConfigDef.parseType` of a topic config value: the ConfigException message of a value that
/// does not parse (`Invalid value x for configuration retention.ms: Not a number of type LONG`)
/// or fails its validator (LogConfig's ranges, valid strings and lists, compression levels).
pub fn check_topic_config_value(name: &str, value: &str) -> Result<(), String> {
    let Some(t) = topic_config_type(name) else {
        return Ok(());
    };
    let trimmed = value.trim();
    let invalid = |why: &str| format!("Invalid value {value} for configuration {name}: {why}");
    let range = |n: f64| -> Result<(), String> {
        match topic_config_range(name) {
            Some((Some(min), _)) if n < min as f64 => {
                Err(invalid(&format!("Value must be at least {min}")))
            }
            Some((_, Some(max))) if n > max as f64 => {
                Err(invalid(&format!("Value must be no more than {max}")))
            }
            _ => Ok(()),
        }
    };
    match t {
        ConfigType::Boolean => {
            if !trimmed.eq_ignore_ascii_case("true") && !trimmed.eq_ignore_ascii_case("false") {
                return Err(invalid("Expected value to be either true or false"));
            }
        }
        ConfigType::Int => {
            let n: i32 = trimmed
                .parse()
                .map_err(|_| invalid("Not a number of type INT"))?;
            if name == "compression.gzip.level" && (n > 9 || (n < 1 && n != -1)) {
                return Err(invalid("Value must be between 1 and 9 or equal to -1"));
            }
            range(n as f64)?;
        }
        ConfigType::Long => {
            let n: i64 = trimmed
                .parse()
                .map_err(|_| invalid("Not a number of type LONG"))?;
            range(n as f64)?;
        }
        ConfigType::Double => {
            let n: f64 = trimmed
                .parse()
                .map_err(|_| invalid("Not a number of type DOUBLE"))?;
            range(n)?;
        }
        ConfigType::String => {
            let valid: &[&str] = match name {
                "compression.type" => {
                    &["uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"]
                }
                "message.timestamp.type" => &["CreateTime", "LogAppendTime"],
                _ => &[],
            };
            if !valid.is_empty() && !valid.contains(&trimmed) {
                return Err(invalid(&format!(
                    "String must be one of: {}",
                    valid.join(", ")
                )));
            }
        }
        ConfigType::List if name == "cleanup.policy" => {
            // ValidList.in("compact", "delete"): empty allowed, no duplicates, no empty values.
            if trimmed.is_empty() {
                return Ok(());
            }
            let values: Vec<&str> = trimmed.split(',').map(str::trim).collect();
            let unique: std::collections::BTreeSet<&&str> = values.iter().collect();
            if unique.len() != values.len() {
                return Err(format!(
                    "Configuration '{name}' values must not be duplicated."
                ));
            }
            for v in values {
                if v.is_empty() {
                    return Err(format!("Configuration '{name}' values must not be empty."));
                }
                if v != "compact" && v != "delete" {
                    return Err(format!(
                        "Invalid value {v} for configuration {name}: String must be one of: compact, delete"
                    ));
                }
            }
        }
        ConfigType::List => {}
    }
    Ok(())
}

/// The `ConfigDef.Range` of a numeric topic config (LogConfig's definitions), as (at least,
/// no more than).
fn topic_config_range(name: &str) -> Option<(Option<i64>, Option<i64>)> {
    let at_least = |n| Some((Some(n), None));
    match name {
        "segment.bytes" => at_least(1024 * 1024),
        "segment.ms" | "flush.messages" | "max.compaction.lag.ms" | "min.insync.replicas" => {
            at_least(1)
        }
        "segment.jitter.ms"
        | "flush.ms"
        | "max.message.bytes"
        | "index.interval.bytes"
        | "delete.retention.ms"
        | "min.compaction.lag.ms"
        | "file.delete.delay.ms"
        | "message.timestamp.before.max.ms"
        | "message.timestamp.after.max.ms" => at_least(0),
        "segment.index.bytes" => at_least(4),
        "retention.ms" => at_least(-1),
        "local.retention.ms" | "local.retention.bytes" => at_least(-2),
        "min.cleanable.dirty.ratio" => Some((Some(0), Some(1))),
        "compression.lz4.level" => Some((Some(1), Some(17))),
        "compression.zstd.level" => Some((Some(-131072), Some(22))),
        _ => None,
    }
}

/// The default of a LIST topic config, which APPEND and SUBTRACT start from.
fn topic_list_default(name: &str) -> &'static str {
    match name {
        "cleanup.policy" => "delete",
        _ => "",
    }
}

/// Configs keyed by (resource type, resource name, config name).
#[derive(Clone, Debug, Default)]
pub struct ConfigurationControlManager {
    /// (resourceType, resourceName, name) to value.
    pub configs: TimelineHashMap<(i8, String, String), String>,
}

impl ConfigurationControlManager {
    /// `replay(ConfigRecord)`; returns the controller.log line.
    pub fn replay(&mut self, registry: &SnapshotRegistry, r: &ConfigRecord) -> String {
        let key = (r.resource_type, r.resource_name.clone(), r.name.clone());
        let resource = format!(
            "ConfigResource(type={}, name='{}')",
            resource_type_name(r.resource_type),
            r.resource_name
        );
        match &r.value {
            Some(v) => {
                self.configs.put(registry, key, v.clone());
                format!(
                    "Replayed ConfigRecord for {resource} which set configuration {} to {v}",
                    r.name
                )
            }
            None => {
                self.configs.remove(registry, &key);
                format!(
                    "Replayed ConfigRecord for {resource} which removed configuration {}",
                    r.name
                )
            }
        }
    }

    /// The configs of one resource, sorted by name.
    pub fn configs_of(&self, resource_type: i8, resource_name: &str) -> Vec<(String, String)> {
        self.configs
            .iter()
            .filter(|((t, n, _), _)| *t == resource_type && n == resource_name)
            .map(|((_, _, k), v)| (k.clone(), v.clone()))
            .collect()
    }

    /// Remove every config of a resource (a deleted topic).
    pub fn remove_resource(&mut self, registry: &SnapshotRegistry, resource_type: i8, name: &str) {
        let keys: Vec<(i8, String, String)> = self
            .configs
            .keys()
            .filter(|(t, n, _)| *t == resource_type && n == name)
            .cloned()
            .collect();
        for k in keys {
            self.configs.remove(registry, &k);
        }
    }
}

/// An error for one resource: the code and message.
type ResourceError = (ApiError, String);

impl ConfigurationControlManager {
    /// `incrementalAlterConfigs`: the ConfigRecords to write (only for values that change) and
    /// one response per resource. A resource with an error writes nothing; the others still
    /// apply. `topic_exists` is the existence checker (`replicationControl.getTopicId`).
    /// With `validate_only` every check runs but no record is returned.
    pub fn incremental_alter_configs(
        &self,
        resources: &[AlterConfigsResource],
        validate_only: bool,
        topic_exists: impl Fn(&str) -> bool,
    ) -> (Vec<MetadataRecord>, Vec<AlterConfigsResourceResponse>) {
        let mut records = Vec::new();
        let mut responses = Vec::new();
        for r in resources {
            let result = self.alter_resource(r, &topic_exists);
            let error = match result {
                Ok(new) => {
                    if !validate_only {
                        records.extend(new.into_iter().map(MetadataRecord::Config));
                    }
                    None
                }
                Err(e) => Some(e),
            };
            responses.push(AlterConfigsResourceResponse {
                resource_type: r.resource_type,
                resource_name: r.resource_name.clone(),
                error,
            });
        }
        (records, responses)
    }

    /// `incrementalAlterConfigResource` then `validateAlterConfig` for one resource.
    fn alter_resource(
        &self,
        r: &AlterConfigsResource,
        topic_exists: &impl Fn(&str) -> bool,
    ) -> Result<Vec<ConfigRecord>, ResourceError> {
        // The broker's ConfigAdminManager.preprocess, before the request is forwarded.
        let mut seen = std::collections::BTreeSet::new();
        if !r.configs.iter().all(|c| seen.insert(c.name.as_str())) {
            return Err((
                ApiError::InvalidRequest,
                "Error due to duplicate config keys".into(),
            ));
        }
        let null_updates: Vec<&str> = r
            .configs
            .iter()
            .filter(|c| c.op != AlterConfigOpType::Delete && c.value.is_none())
            .map(|c| c.name.as_str())
            .collect();
        if !null_updates.is_empty() {
            return Err((
                ApiError::InvalidRequest,
                format!("Null value not supported for : {}", null_updates.join(", ")),
            ));
        }
        if r.resource_type != RESOURCE_TYPE_TOPIC {
            return Err((
                ApiError::InvalidRequest,
                format!(
                    "Altering {} configs is not supported by the KRaft Playground.",
                    resource_type_name(r.resource_type)
                ),
            ));
        }
        // ControllerApis collects the ops into a HashMap by name: the records follow its order.
        let cap = java_hash_map_capacity(r.configs.len(), None);
        let ops: Vec<&AlterableConfig> = java_hash_map_order(
            r.configs.iter().collect(),
            |c| java_string_hash(&c.name),
            cap,
        );
        let mut new_records = Vec::new();
        for c in ops {
            let key = (r.resource_type, r.resource_name.clone(), c.name.clone());
            let current = self.configs.get(&key).cloned();
            let new_value = match c.op {
                AlterConfigOpType::Set => c.value.clone(),
                AlterConfigOpType::Delete => None,
                AlterConfigOpType::Append | AlterConfigOpType::Subtract => {
                    if topic_config_type(&c.name) != Some(ConfigType::List) {
                        return Err((
                            ApiError::InvalidConfig,
                            format!(
                                "Can't {} to key {} because its type is not LIST.",
                                c.op.name(),
                                c.name
                            ),
                        ));
                    }
                    let base = current
                        .clone()
                        .unwrap_or_else(|| topic_list_default(&c.name).to_string());
                    let mut parts: Vec<String> = base
                        .split(',')
                        .map(|p| p.trim().to_string())
                        .filter(|p| !p.is_empty())
                        .collect();
                    for v in c.value.as_deref().unwrap_or_default().split(',') {
                        if c.op == AlterConfigOpType::Append {
                            if !parts.iter().any(|p| p == v) {
                                parts.push(v.to_string());
                            }
                        } else if let Some(i) = parts.iter().position(|p| p == v) {
                            parts.remove(i);
                        }
                    }
                    Some(parts.join(","))
                }
            };
            if new_value != current {
                new_records.push(ConfigRecord {
                    resource_type: r.resource_type,
                    resource_name: r.resource_name.clone(),
                    name: c.name.clone(),
                    value: new_value,
                });
            }
        }
        self.validate_topic(&r.resource_name, &new_records, topic_exists)?;
        Ok(new_records)
    }

    /// The check `createTopics` makes of a new topic's configs (`incrementalAlterConfig` with
    /// `newTopic` set: the validator over the given configs, no existence check).
    pub fn validate_new_topic(
        &self,
        topic: &str,
        configs: &[(String, String)],
    ) -> Result<(), ResourceError> {
        let records: Vec<ConfigRecord> = configs
            .iter()
            .map(|(name, value)| ConfigRecord {
                resource_type: RESOURCE_TYPE_TOPIC,
                resource_name: topic.to_string(),
                name: name.clone(),
                value: Some(value.clone()),
            })
            .collect();
        self.validate_topic(topic, &records, &|_: &str| true)
    }

    /// `validateAlterConfig` for a topic: the validator (name, known config names, values)
    /// over the configs the topic would have, then the existence checker.
    fn validate_topic(
        &self,
        topic: &str,
        new_records: &[ConfigRecord],
        topic_exists: &impl Fn(&str) -> bool,
    ) -> Result<(), ResourceError> {
        let mut all: std::collections::BTreeMap<String, String> = self
            .configs_of(RESOURCE_TYPE_TOPIC, topic)
            .into_iter()
            .collect();
        for rec in new_records {
            match &rec.value {
                Some(v) => all.insert(rec.name.clone(), v.clone()),
                None => all.remove(&rec.name),
            };
        }
        if topic.is_empty() {
            return Err((
                ApiError::InvalidRequest,
                "Default topic resources are not allowed.".into(),
            ));
        }
        validate_topic_name(topic).map_err(|m| (ApiError::InvalidTopic, m))?;
        let cap = java_hash_map_capacity(all.len(), None);
        let names = java_hash_map_order(all.keys().collect(), |k| java_string_hash(k), cap);
        if let Some(unknown) = names.iter().find(|k| !TOPIC_CONFIGS.contains(&k.as_str())) {
            return Err((
                ApiError::InvalidConfig,
                format!("Unknown topic config name: {unknown}"),
            ));
        }
        for name in TOPIC_CONFIGS {
            if let Some(v) = all.get(*name) {
                check_topic_config_value(name, v).map_err(|m| (ApiError::InvalidConfig, m))?;
            }
        }
        if !topic_exists(topic) {
            return Err((
                ApiError::UnknownTopicOrPartition,
                format!("The topic '{topic}' does not exist."),
            ));
        }
        Ok(())
    }
}

impl Revertable for ConfigurationControlManager {
    fn revert_to_snapshot(&mut self, epoch: i64) {
        self.configs.revert_to_snapshot(epoch);
    }
    fn delete_snapshot(&mut self, epoch: i64, previous: Option<i64>) {
        self.configs.delete_snapshot(epoch, previous);
    }
    fn delete_snapshots_up_to(&mut self, epoch: i64) {
        self.configs.delete_snapshots_up_to(epoch);
    }
}
