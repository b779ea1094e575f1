//! `kafka-configs.sh` (Kafka's `ConfigCommand`) for topic configs: `--alter` with
//! `--add-config` / `--delete-config` (an IncrementalAlterConfigs request from the admin client
//! to the active controller, retried on NOT_CONTROLLER as the AdminClient does) and `--describe`
//! (the dynamic topic configs with their synonyms, read from a controller's committed state as
//! DescribeConfigs would answer them).
//!
//! Only `--entity-type topics` (or `--topic`) is simulated; the other entity types pass the
//! option checks ConfigCommand makes and then fail with a "not supported by the KRaft
//! Playground" error.

use super::jopt::{self, Arg};
use super::topics::{committed_configs, read_controller};
use super::{
    admin_call, wait_for_active_controller, AdminFailure, ToolError, ADMIN_TIMEOUT_MS,
    TIMEOUT_EXCEPTION,
};
use crate::common::java::{java_hash_map_capacity, java_hash_map_order, java_string_hash};
use crate::common::message::controller::{
    AlterConfigOpType, AlterConfigsResource, AlterableConfig, ApiError, ControllerRequest,
    ControllerResponse,
};
use crate::controller::configuration_control::{topic_config_type, ConfigType, TOPIC_CONFIGS};
use crate::controller::replication_control::validate_topic_name;
use crate::metadata::{RESOURCE_TYPE_BROKER, RESOURCE_TYPE_TOPIC};
use crate::sim::World;
use std::collections::BTreeMap;

const SPEC: &[(&str, Arg)] = &[
    ("bootstrap-server", Arg::Str),
    ("bootstrap-controller", Arg::Str),
    ("command-config", Arg::Str),
    ("alter", Arg::None),
    ("describe", Arg::None),
    ("all", Arg::None),
    ("entity-type", Arg::Str),
    ("entity-name", Arg::Str),
    ("entity-default", Arg::None),
    ("add-config", Arg::Str),
    ("add-config-file", Arg::Str),
    ("delete-config", Arg::Str),
    ("topic", Arg::Str),
    ("client", Arg::Str),
    ("client-defaults", Arg::None),
    ("user", Arg::Str),
    ("user-defaults", Arg::None),
    ("broker", Arg::Str),
    ("broker-defaults", Arg::None),
    ("broker-logger", Arg::Str),
    ("ip-defaults", Arg::None),
    ("ip", Arg::Str),
    ("group", Arg::Str),
    ("client-metrics", Arg::Str),
    ("help", Arg::None),
    ("version", Arg::None),
];

/// The entity types ConfigCommand accepts with `--bootstrap-server` / `--bootstrap-controller`
/// (`BROKER_SUPPORTED_CONFIG_TYPES`: broker-loggers, then `ConfigType.values()`).
pub const ENTITY_TYPES: &[&str] = &[
    "broker-loggers",
    "topics",
    "clients",
    "users",
    "brokers",
    "ips",
    "client-metrics",
    "groups",
];

/// The specific entity flags and the entity type each stands for (`entityFlags()`).
const ENTITY_FLAGS: &[(&str, &str)] = &[
    ("topic", "topics"),
    ("client", "clients"),
    ("user", "users"),
    ("broker", "brokers"),
    ("broker-logger", "broker-loggers"),
    ("ip", "ips"),
    ("client-metrics", "client-metrics"),
    ("group", "groups"),
];

/// The default-entity flags (`entityDefaultsFlags()`).
const DEFAULT_FLAGS: &[(&str, &str)] = &[
    ("client-defaults", "clients"),
    ("user-defaults", "users"),
    ("broker-defaults", "brokers"),
    ("ip-defaults", "ips"),
];

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

/// What `ConfigCommand.main` prints for an IllegalArgumentException, an
/// InvalidConfigurationException or a joptsimple OptionException: the message on stderr.
fn message_error(message: &str) -> ToolError {
    ToolError::new(message)
}

/// `CommandLineUtils.printUsageAndExit`: the message (the help screen after it is left out).
fn usage_error(message: &str) -> ToolError {
    ToolError::new(message)
}

/// Any other exception: `Error while executing config command with args '...'`, then the
/// exception's `toString()` as the first line of its stack trace (the frames are left out).
fn command_error(args: &[String], exception: &str) -> ToolError {
    ToolError::new(format!(
        "Error while executing config command with args '{}'\n{exception}\n",
        args.join(" ")
    ))
}

/// The ExecutionException a failed admin future throws from `get()`.
fn execution_exception(class: &str, message: &str) -> String {
    format!("java.util.concurrent.ExecutionException: {class}: {message}")
}

/// The message of an error the response carries without one.
fn default_message(e: ApiError) -> &'static str {
    match e {
        ApiError::NotController => "This is not the correct controller for this cluster.",
        ApiError::InvalidTopic => {
            "The request attempted to perform an operation on an invalid topic."
        }
        ApiError::UnknownTopicOrPartition => "This server does not host this topic-partition.",
        ApiError::InvalidConfig => "Configuration is invalid.",
        ApiError::InvalidRequest => "This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details.",
        ApiError::RequestTimedOut => "The request timed out.",
        _ => "Unexpected error.",
    }
}

fn api_exception(e: ApiError, message: Option<&str>) -> String {
    let m = match message {
        Some(m) if !m.is_empty() => m,
        _ => default_message(e),
    };
    execution_exception(e.exception(), m)
}

/// Run `kafka-configs` with `args`.
pub fn run(world: &mut World, args: &[String]) -> Result<String, ToolError> {
    let opts = jopt::parse(SPEC, args).map_err(|e| message_error(&e.message))?;
    if args.is_empty() || opts.has("help") {
        return Err(usage_error(
            "This tool helps to manipulate and describe entity config for a topic, client, user, broker, ip, client-metrics or group",
        ));
    }
    if opts.has("version") {
        return Ok("4.5.0-SNAPSHOT\n".to_string());
    }
    let entity = check_args(&opts)?;
    if opts.has("command-config") {
        return Err(ToolError::new(
            "kafka-configs --command-config is not supported by the KRaft Playground.",
        ));
    }
    if opts.has("alter") && entity.types.len() != entity.names.len() {
        return Err(message_error(
            "An entity name must be specified for every entity type",
        ));
    }
    let entity_type = entity.types[0].as_str();
    if entity_type != "topics" {
        return Err(ToolError::new(format!(
            "kafka-configs --entity-type {entity_type} is not supported by the KRaft Playground (only topics)."
        )));
    }
    if opts.has("alter") {
        alter(world, args, &opts, &entity)
    } else {
        describe(world, args, &opts, &entity)
    }
}

/// The entity types and names of the command line (`entityTypes()`, `entityNames()`).
struct Entities {
    types: Vec<String>,
    names: Vec<String>,
}

fn entities(opts: &jopt::Options) -> Entities {
    let mut types: Vec<String> = opts.values("entity-type").to_vec();
    for (flag, t) in ENTITY_FLAGS.iter().chain(DEFAULT_FLAGS) {
        if opts.has(flag) {
            types.push(t.to_string());
        }
    }
    let mut names: Vec<String> = opts.values("entity-name").to_vec();
    if opts.has("entity-default") {
        names.push(String::new());
    }
    for (flag, _) in ENTITY_FLAGS {
        if let Some(v) = opts.value(flag) {
            names.push(v.to_string());
        }
    }
    for (flag, _) in DEFAULT_FLAGS {
        if opts.has(flag) {
            names.push(String::new());
        }
    }
    Entities { types, names }
}

/// `ConfigCommandOptions.checkArgs`.
fn check_args(opts: &jopt::Options) -> Result<Entities, ToolError> {
    let actions = ["alter", "describe"].iter().filter(|a| opts.has(a)).count();
    if actions != 1 {
        return Err(usage_error(
            "Command must include exactly one action: --describe, --alter",
        ));
    }
    if opts.has("describe") {
        for o in ["alter", "add-config", "delete-config"] {
            if opts.has(o) {
                return Err(usage_error(&format!(
                    "Option \"[describe]\" can't be used with option \"[{o}]\""
                )));
            }
        }
    }
    let e = entities(opts);
    let mut seen: Vec<&str> = Vec::new();
    let mut duplicates: Vec<&str> = Vec::new();
    for t in &e.types {
        if seen.contains(&t.as_str()) {
            if !duplicates.contains(&t.as_str()) {
                duplicates.push(t);
            }
        } else {
            seen.push(t);
        }
    }
    if !duplicates.is_empty() {
        return Err(message_error(&format!(
            "Duplicate entity type(s) specified: {}",
            duplicates.join(",")
        )));
    }
    if !opts.has("bootstrap-server") && !opts.has("bootstrap-controller") {
        return Err(message_error(
            "Either --bootstrap-server or --bootstrap-controller must be specified.",
        ));
    }
    for t in &e.types {
        if !ENTITY_TYPES.contains(&t.as_str()) {
            return Err(message_error(&format!(
                "Invalid entity type {t}, the entity type must be one of {} with a --bootstrap-server or --bootstrap-controller argument",
                ENTITY_TYPES.join(", ")
            )));
        }
    }
    if e.types.is_empty() {
        return Err(message_error("At least one entity type must be specified"));
    }
    let users_and_clients = e.types.len() == 2
        && e.types.iter().any(|t| t == "users")
        && e.types.iter().any(|t| t == "clients");
    if e.types.len() > 1 && !users_and_clients {
        return Err(message_error(
            "Only 'users' and 'clients' entity types may be specified together",
        ));
    }
    let generic = opts.has("entity-name") || opts.has("entity-type") || opts.has("entity-default");
    let specific = ENTITY_FLAGS
        .iter()
        .chain(DEFAULT_FLAGS)
        .any(|(f, _)| opts.has(f));
    if generic && specific {
        return Err(message_error(
            "--entity-{type,name,default} should not be used in conjunction with specific entity flags",
        ));
    }
    let has_name = e.names.iter().any(|n| !n.is_empty());
    let has_default = e.names.iter().any(|n| n.is_empty());
    if opts.has("bootstrap-server") && opts.has("bootstrap-controller") {
        return Err(message_error(
            "Only one of --bootstrap-server or --bootstrap-controller can be specified",
        ));
    }
    let has_type = |t: &str| e.types.iter().any(|x| x == t);
    if has_name && (has_type("brokers") || has_type("broker-loggers")) {
        for o in ["entity-name", "broker", "broker-logger"] {
            if let Some(id) = opts.value(o) {
                if id.parse::<i32>().is_err() {
                    return Err(message_error(&format!(
                        "The entity name for {} must be a valid integer broker id, but it is: {id}",
                        e.types[0]
                    )));
                }
            }
        }
    }
    let types_joined = e.types.join(",");
    if opts.has("describe") {
        let defaults_ok =
            has_type("users") || has_type("clients") || has_type("brokers") || has_type("ips");
        if !defaults_ok && opts.has("entity-default") {
            return Err(message_error(&format!(
                "--entity-default must not be specified with --describe of {types_joined}"
            )));
        }
        if has_type("broker-loggers") && !has_name {
            return Err(message_error(&format!(
                "An entity name must be specified with --describe of {types_joined}"
            )));
        }
    }
    if opts.has("alter") {
        if has_type("users") || has_type("clients") || has_type("brokers") || has_type("ips") {
            if !has_name && !has_default {
                return Err(message_error(
                    "An entity-name or default entity must be specified with --alter of users, clients, brokers or ips",
                ));
            }
        } else if !has_name {
            return Err(message_error(&format!(
                "An entity name must be specified with --alter of {types_joined}"
            )));
        }
        let add = opts.has("add-config");
        let add_file = opts.has("add-config-file");
        if add && add_file {
            return Err(message_error(
                "Only one of --add-config or --add-config-file must be specified",
            ));
        }
        if !add && !add_file && !opts.has("delete-config") {
            return Err(message_error(
                "At least one of --add-config, --add-config-file, or --delete-config must be specified with --alter",
            ));
        }
    }
    Ok(e)
}

// ----- --add-config parsing, as ConfigCommand.parseConfigsToBeAdded does it -----

/// The lookahead `(?=[^\]]*(?:\[|$))` at `pos`: the next bracket is an opening one, or none
/// follows (the separator is not inside `[...]`).
fn outside_brackets(s: &[char], pos: usize) -> bool {
    for c in &s[pos..] {
        match c {
            ']' => return false,
            '[' => return true,
            _ => {}
        }
    }
    true
}

/// Java's `s.split(",(?=[^\]]*(?:\[|$))")`: limit 0, so trailing empty strings are dropped.
fn split_pairs(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut matched = false;
    for (i, c) in chars.iter().enumerate() {
        if *c == ',' && outside_brackets(&chars, i + 1) {
            out.push(std::mem::take(&mut cur));
            matched = true;
        } else {
            cur.push(*c);
        }
    }
    out.push(cur);
    if matched {
        while out.last().is_some_and(|p| p.is_empty()) {
            out.pop();
        }
    }
    out
}

/// Java's `s.split("\\s*=\\s*(?=[^\]]*(?:\[|$))", -1)`, each part trimmed (as every use of a
/// part trims it, the whitespace around `=` can be dropped with it).
fn split_key_value(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    for (i, c) in chars.iter().enumerate() {
        if *c == '=' && outside_brackets(&chars, i + 1) {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.push(*c);
        }
    }
    out.push(cur);
    out
}

/// `parseConfigsToBeAdded` for `--add-config`: key-value pairs in the order given (a repeated
/// key keeps its first place and its last value).
fn parse_configs_to_be_added(raw: &str) -> Result<Vec<(String, String)>, ToolError> {
    let pairs: Vec<Vec<String>> = split_pairs(raw)
        .iter()
        .map(|p| split_key_value(p))
        .collect();
    if pairs.iter().any(|p| p.len() != 2) {
        return Err(message_error(
            "Invalid entity config: all configs to be added must be in the format \"key=val\" or  \"key=[val1,val2]\" to group values which contain commas.",
        ));
    }
    let mut props: Vec<(String, String)> = Vec::new();
    for p in pairs {
        let key = p[0].trim().to_string();
        let value: String = p[1]
            .chars()
            .filter(|c| *c != '[' && *c != ']')
            .collect::<String>()
            .trim()
            .to_string();
        match props.iter_mut().find(|(k, _)| *k == key) {
            Some(e) => e.1 = value,
            None => props.push((key, value)),
        }
    }
    for (k, _) in &props {
        let valid = k
            .chars()
            .all(|c| c == '$' || c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-');
        if !valid {
            return Err(message_error(&format!(
                "Invalid character found for config key: {k}"
            )));
        }
    }
    Ok(props)
}

/// `--delete-config` values: joptsimple splits each at `,` (a StringTokenizer: empty pieces
/// vanish, an argument with no piece stays whole); ConfigCommand trims them.
fn parse_configs_to_be_deleted(values: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for v in values {
        let pieces: Vec<&str> = v.split(',').filter(|p| !p.is_empty()).collect();
        if pieces.is_empty() {
            out.push(v.trim().to_string());
        } else {
            out.extend(pieces.iter().map(|p| p.trim().to_string()));
        }
    }
    out
}

// ----- reading the cluster's committed state (listTopics, describeConfigs) -----

/// The committed topic names and dynamic configs, as a broker's DescribeConfigs sees them.
struct ClusterConfigs {
    topics: Vec<String>,
    configs: BTreeMap<(i8, String, String), String>,
}

impl ClusterConfigs {
    /// The dynamic configs of a topic, sorted by name.
    fn topic_configs(&self, topic: &str) -> Vec<(String, String)> {
        self.configs
            .iter()
            .filter(|((t, n, k), _)| {
                *t == RESOURCE_TYPE_TOPIC && n == topic && TOPIC_CONFIGS.contains(&k.as_str())
            })
            .map(|((_, _, k), v)| (k.clone(), v.clone()))
            .collect()
    }

    /// A cluster-wide dynamic broker config (`DYNAMIC_DEFAULT_BROKER_CONFIG`).
    fn cluster_default(&self, name: &str) -> Option<&String> {
        self.configs
            .get(&(RESOURCE_TYPE_BROKER, String::new(), name.to_string()))
    }
}

/// Read the committed state from a controller; None when no controller came up in time.
fn read_cluster(world: &mut World) -> Option<ClusterConfigs> {
    if read_controller(world).is_none() {
        let deadline = world.now_ms() + ADMIN_TIMEOUT_MS;
        wait_for_active_controller(world, deadline);
    }
    let c = read_controller(world)?;
    let topics = super::topics::committed_topics(c)
        .into_iter()
        .map(|t| t.name)
        .collect();
    Some(ClusterConfigs {
        topics,
        configs: committed_configs(c).into_iter().collect(),
    })
}

/// `listTopics(...).names().get()` without a controller: the admin call's TimeoutException.
fn list_topics_timeout(args: &[String]) -> ToolError {
    let f = AdminFailure::NoNode { call: "listTopics" };
    command_error(args, &execution_exception(TIMEOUT_EXCEPTION, &f.message()))
}

/// `describeConfigs(...).all().get(30, SECONDS)` without a controller.
fn describe_configs_timeout(args: &[String]) -> ToolError {
    command_error(args, "java.util.concurrent.TimeoutException")
}

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
fn describe(
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

/// `alterConfig` / `alterResourceConfig` for a topic.
fn alter(
    world: &mut World,
    args: &[String],
    opts: &jopt::Options,
    entity: &Entities,
) -> Result<String, ToolError> {
    let topic = entity.names[0].clone();
    if opts.has("add-config-file") {
        return Err(ToolError::new(
            "kafka-configs --add-config-file is not supported by the KRaft Playground: use --add-config.",
        ));
    }
    let to_add = match opts.value("add-config") {
        Some(raw) => parse_configs_to_be_added(raw)?,
        None => Vec::new(),
    };
    // configsToBeAdded is a HashMap: its values are sent in the map's order.
    let cap = java_hash_map_capacity(to_add.len(), None);
    let to_add = java_hash_map_order(to_add, |(k, _)| java_string_hash(k), cap);
    let to_delete = parse_configs_to_be_deleted(opts.values("delete-config"));
    validate_topic_name(&topic).map_err(|m| {
        command_error(
            args,
            &format!("org.apache.kafka.common.errors.InvalidTopicException: {m}"),
        )
    })?;
    let Some(cluster) = read_cluster(world) else {
        return Err(describe_configs_timeout(args));
    };
    if !cluster.topics.contains(&topic) {
        return Err(command_error(
            args,
            &api_exception(ApiError::UnknownTopicOrPartition, None),
        ));
    }
    let old: Vec<String> = cluster
        .topic_configs(&topic)
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    let invalid: Vec<&str> = to_delete
        .iter()
        .filter(|d| !old.contains(d))
        .map(|d| d.as_str())
        .collect();
    if !invalid.is_empty() {
        return Err(message_error(&format!(
            "Invalid config(s): {}",
            invalid.join(",")
        )));
    }
    let mut configs: Vec<AlterableConfig> = to_delete
        .iter()
        .map(|k| AlterableConfig {
            name: k.clone(),
            op: AlterConfigOpType::Delete,
            value: Some(String::new()),
        })
        .collect();
    configs.extend(to_add.into_iter().map(|(k, v)| AlterableConfig {
        name: k,
        op: AlterConfigOpType::Set,
        value: Some(v),
    }));
    let request = ControllerRequest::IncrementalAlterConfigs {
        resources: vec![AlterConfigsResource {
            resource_type: RESOURCE_TYPE_TOPIC,
            resource_name: topic.clone(),
            configs,
        }],
        validate_only: false,
    };
    let resp = admin_call(world, "incrementalAlterConfigs", &request)
        .map_err(|f| command_error(args, &execution_exception(TIMEOUT_EXCEPTION, &f.message())))?;
    let (responses, error) = match resp {
        ControllerResponse::IncrementalAlterConfigs { responses, error } => (responses, error),
        other => return Err(ToolError::new(format!("unexpected response {other:?}"))),
    };
    if let Some(e) = error {
        return Err(command_error(args, &api_exception(e, None)));
    }
    if let Some((e, m)) = responses
        .iter()
        .find(|r| r.resource_name == topic)
        .and_then(|r| r.error.as_ref())
    {
        return Err(command_error(args, &api_exception(*e, Some(m))));
    }
    Ok(format!("Completed updating config for topic {topic}.\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_config_splits_like_config_command() {
        let p = parse_configs_to_be_added("a=1, b = 2,c=[x,y],d=").unwrap();
        assert_eq!(
            p,
            vec![
                ("a".to_string(), "1".to_string()),
                ("b".to_string(), "2".to_string()),
                ("c".to_string(), "x,y".to_string()),
                ("d".to_string(), String::new()),
            ]
        );
        assert_eq!(split_pairs("a=1,"), vec!["a=1"]);
        assert_eq!(split_pairs(""), vec![""]);
        assert!(split_pairs(",").is_empty());
        assert_eq!(split_key_value("k=[a=b]"), vec!["k", "[a=b]"]);
        assert!(parse_configs_to_be_added("a").is_err());
        assert!(parse_configs_to_be_added("a=b=c").is_err());
        assert!(parse_configs_to_be_added("a=1,,b=2").is_err());
        let e = parse_configs_to_be_added("a b=1").unwrap_err();
        assert_eq!(e.message, "Invalid character found for config key: a b\n");
    }

    #[test]
    fn delete_config_splits_like_joptsimple() {
        let v = vec!["a, b,,c".to_string(), ",".to_string()];
        assert_eq!(parse_configs_to_be_deleted(&v), vec!["a", "b", "c", ","]);
    }

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
