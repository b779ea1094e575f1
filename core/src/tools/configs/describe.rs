//! `kafka-configs --describe` for topics (`ConfigCommand.describeConfig`): each topic's dynamic
//! configs with the values and synonyms DescribeConfigs reports for them.

use super::{command_error, list_topics_timeout, read_cluster, ClusterConfigs, Entities};
use crate::common::java::{java_hash_map_capacity, java_hash_map_order, java_string_hash};
use crate::controller::configuration_control::{topic_config_type, ConfigType};
use crate::controller::replication_control::validate_topic_name;
use crate::sim::World;
use crate::tools::jopt;
use crate::tools::ToolError;

/// For a topic config: the broker configs that are its synonyms
/// (`ServerTopicConfigSynonyms.ALL_TOPIC_CONFIG_SYNONYMS`), the first being the one
/// `ConfigHelper.configSynonyms` keeps synonyms from.
const TOPIC_SYNONYMS: &[(&str, &[&str])] = &[
    ("cleanup.policy", &["log.cleanup.policy"]),
    ("compression.gzip.level", &["compression.gzip.level"]),
    ("compression.lz4.level", &["compression.lz4.level"]),
    ("compression.type", &["compression.type"]),
    ("compression.zstd.level", &["compression.zstd.level"]),
    ("delete.retention.ms", &["log.cleaner.delete.retention.ms"]),
    ("file.delete.delay.ms", &["log.segment.delete.delay.ms"]),
    ("flush.messages", &["log.flush.interval.messages"]),
    (
        "flush.ms",
        &["log.flush.interval.ms", "log.flush.scheduler.interval.ms"],
    ),
    ("index.interval.bytes", &["log.index.interval.bytes"]),
    ("local.retention.bytes", &["log.local.retention.bytes"]),
    ("local.retention.ms", &["log.local.retention.ms"]),
    (
        "max.compaction.lag.ms",
        &["log.cleaner.max.compaction.lag.ms"],
    ),
    ("max.message.bytes", &["message.max.bytes"]),
    (
        "message.timestamp.after.max.ms",
        &["log.message.timestamp.after.max.ms"],
    ),
    (
        "message.timestamp.before.max.ms",
        &["log.message.timestamp.before.max.ms"],
    ),
    ("message.timestamp.type", &["log.message.timestamp.type"]),
    (
        "min.cleanable.dirty.ratio",
        &["log.cleaner.min.cleanable.ratio"],
    ),
    (
        "min.compaction.lag.ms",
        &["log.cleaner.min.compaction.lag.ms"],
    ),
    ("min.insync.replicas", &["min.insync.replicas"]),
    ("preallocate", &["log.preallocate"]),
    ("retention.bytes", &["log.retention.bytes"]),
    (
        "retention.ms",
        &[
            "log.retention.ms",
            "log.retention.minutes",
            "log.retention.hours",
        ],
    ),
    ("segment.bytes", &["log.segment.bytes"]),
    ("segment.index.bytes", &["log.index.size.max.bytes"]),
    (
        "segment.jitter.ms",
        &["log.roll.jitter.ms", "log.roll.jitter.hours"],
    ),
    ("segment.ms", &["log.roll.ms", "log.roll.hours"]),
    (
        "unclean.leader.election.enable",
        &["unclean.leader.election.enable"],
    ),
];

/// Broker defaults (`DEFAULT_CONFIG` synonyms) the playground shows: the `KafkaConfig`
/// defaults of the common topic-config synonyms. Brokers not listed have no default synonym here.
const BROKER_DEFAULTS: &[(&str, &str)] = &[
    ("min.insync.replicas", "1"),
    ("log.retention.hours", "168"),
    ("log.roll.hours", "168"),
    ("log.segment.bytes", "1073741824"),
    ("log.cleanup.policy", "delete"),
    ("log.retention.bytes", "-1"),
    ("message.max.bytes", "1048588"),
    ("log.flush.interval.messages", "9223372036854775807"),
    ("log.cleaner.max.compaction.lag.ms", "9223372036854775807"),
    ("log.local.retention.bytes", "-2"),
    ("log.local.retention.ms", "-2"),
    ("compression.type", "producer"),
    ("unclean.leader.election.enable", "false"),
    ("log.preallocate", "false"),
];

/// `ConfigDef.convertToString` of the parsed value: what DescribeConfigs reports.
fn normalized_value(name: &str, raw: &str) -> String {
    let trimmed = raw.trim();
    match topic_config_type(name) {
        Some(ConfigType::Boolean) => trimmed.to_ascii_lowercase(),
        Some(ConfigType::Int) | Some(ConfigType::Long) => trimmed
            .parse::<i64>()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| raw.to_string()),
        Some(ConfigType::Double) => match trimmed.parse::<f64>() {
            Ok(d) if d.is_finite() && d.abs() >= 1e-3 && d.abs() < 1e7 => {
                let s = d.to_string();
                if s.contains('.') {
                    s
                } else {
                    format!("{s}.0")
                }
            }
            _ => raw.to_string(),
        },
        Some(ConfigType::List) => {
            if trimmed.is_empty() {
                String::new()
            } else {
                trimmed
                    .split(',')
                    .map(|p| p.trim())
                    .collect::<Vec<_>>()
                    .join(",")
            }
        }
        Some(ConfigType::String) | None => raw.to_string(),
    }
}

/// The synonyms DescribeConfigs lists for a dynamic topic config (`createTopicConfigEntry`):
/// the topic's value, then the broker synonyms from every source in precedence order, dropped
/// up to the first synonym named like the primary broker config (`configSynonyms`' dropWhile).
fn topic_synonyms(cluster: &ClusterConfigs, name: &str, value: &str) -> Vec<String> {
    let mut out = vec![format!("DYNAMIC_TOPIC_CONFIG:{name}={value}")];
    let Some((_, brokers)) = TOPIC_SYNONYMS.iter().find(|(t, _)| *t == name) else {
        return out;
    };
    let mut broker: Vec<(&str, String)> = Vec::new();
    for b in brokers.iter() {
        if let Some(v) = cluster.cluster_default(b) {
            broker.push((b, format!("DYNAMIC_DEFAULT_BROKER_CONFIG:{b}={v}")));
        }
    }
    for b in brokers.iter() {
        if let Some((_, v)) = BROKER_DEFAULTS.iter().find(|(n, _)| n == b) {
            broker.push((b, format!("DEFAULT_CONFIG:{b}={v}")));
        }
    }
    let primary = brokers[0];
    let keep = broker.iter().position(|(b, _)| *b == primary);
    if let Some(i) = keep {
        out.extend(broker.into_iter().skip(i).map(|(_, s)| s));
    }
    out
}

/// The `Dynamic configs for topic <name> are:` block of one topic.
fn describe_topic(cluster: &ClusterConfigs, topic: &str) -> String {
    let mut out = format!("Dynamic configs for topic {topic} are:\n");
    for (k, v) in cluster.topic_configs(topic) {
        let value = normalized_value(&k, &v);
        let synonyms = topic_synonyms(cluster, &k, &value);
        out.push_str(&format!(
            "  {k}={value} sensitive=false synonyms={{{}}}\n",
            synonyms.join(", ")
        ));
    }
    out
}

/// `describeConfig` / `describeResourceConfig` for topics.
pub(super) fn describe(
    world: &mut World,
    args: &[String],
    opts: &jopt::Options,
    entity: &Entities,
) -> Result<String, ToolError> {
    if opts.has("all") {
        return Err(ToolError::new(
            "kafka-configs --describe --all is not supported by the KRaft Playground (it lists the dynamic configs only).",
        ));
    }
    let name = entity.names.first().cloned();
    if let Some(n) = &name {
        validate_topic_name(n).map_err(|m| {
            command_error(
                args,
                &format!("org.apache.kafka.common.errors.InvalidTopicException: {m}"),
            )
        })?;
    }
    let Some(cluster) = read_cluster(world) else {
        return Err(list_topics_timeout(args));
    };
    let entities: Vec<String> = match name {
        Some(n) => {
            if !cluster.topics.contains(&n) {
                return Ok(format!(
                    "The topic '{n}' doesn't exist and doesn't have dynamic config.\n"
                ));
            }
            vec![n]
        }
        None => {
            // listTopics(...).names(): the key set of a HashMap.
            let cap = java_hash_map_capacity(cluster.topics.len(), None);
            java_hash_map_order(cluster.topics.clone(), |t| java_string_hash(t), cap)
        }
    };
    let mut out = String::new();
    for t in &entities {
        out.push_str(&describe_topic(&cluster, t));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_shown_as_parsed() {
        assert_eq!(normalized_value("preallocate", "TRUE"), "true");
        assert_eq!(normalized_value("retention.ms", " 1000"), "1000");
        assert_eq!(
            normalized_value("cleanup.policy", "compact , delete"),
            "compact,delete"
        );
        assert_eq!(normalized_value("min.cleanable.dirty.ratio", "1"), "1.0");
        assert_eq!(normalized_value("compression.type", "lz4"), "lz4");
    }
}
