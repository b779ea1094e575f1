//! `kafka-topics.sh` (Kafka's `TopicCommand`): `--create`, `--delete` (sent from the admin
//! client to the active controller, retried on NOT_CONTROLLER as the AdminClient does), and
//! `--list` / `--describe` from the controller's committed state.

use super::jopt::{self, Arg, OptionError};
use super::{tool_error_log_line, AdminFailure, ToolError, TIMEOUT_EXCEPTION};
use crate::common::java::{java_hash_map_capacity, java_hash_map_order, java_string_hash};
use crate::common::message::controller::{
    ApiError, ControllerRequest, ControllerResponse, CreatableTopic, TopicResult,
};
use crate::common::uuid::Uuid;
use crate::controller::replication_control::TopicControlInfo;
use crate::controller::QuorumController;
use crate::metadata::{PartitionRecord, RESOURCE_TYPE_BROKER, RESOURCE_TYPE_TOPIC};
use crate::sim::node::ProcessState;
use crate::sim::World;
use std::collections::BTreeMap;

const LOGGER: &str = "org.apache.kafka.tools.TopicCommand";

/// The exception `ConfigDef.parse` throws for a value that does not parse or validate.
const CONFIG_EXCEPTION: &str = "org.apache.kafka.common.config.ConfigException";

const SPEC: &[(&str, Arg)] = &[
    ("bootstrap-server", Arg::Str),
    ("command-config", Arg::Str),
    ("list", Arg::None),
    ("create", Arg::None),
    ("delete", Arg::None),
    ("alter", Arg::None),
    ("describe", Arg::None),
    ("topic", Arg::Str),
    ("topic-id", Arg::Str),
    ("config", Arg::Str),
    ("delete-config", Arg::Str),
    ("partitions", Arg::Int),
    ("replication-factor", Arg::Int),
    ("replica-assignment", Arg::Str),
    ("under-replicated-partitions", Arg::None),
    ("unavailable-partitions", Arg::None),
    ("under-min-isr-partitions", Arg::None),
    ("at-min-isr-partitions", Arg::None),
    ("topics-with-overrides", Arg::None),
    ("if-exists", Arg::None),
    ("if-not-exists", Arg::None),
    ("exclude-internal", Arg::None),
    ("partition-size-limit-per-response", Arg::Int),
    ("help", Arg::None),
    ("version", Arg::None),
];

use crate::controller::configuration_control::check_topic_config_value;
/// The topic-level configs (`LogConfig.nonInternalConfigNames`), for `--config` validation.
pub use crate::controller::configuration_control::TOPIC_CONFIGS;

/// Broker configs whose cluster-wide dynamic value is a topic config's default.
const BROKER_SYNONYMS: &[(&str, &str)] = &[
    ("log.cleanup.policy", "cleanup.policy"),
    ("compression.type", "compression.type"),
    ("log.cleaner.delete.retention.ms", "delete.retention.ms"),
    ("log.segment.delete.delay.ms", "file.delete.delay.ms"),
    ("log.flush.interval.messages", "flush.messages"),
    ("log.flush.interval.ms", "flush.ms"),
    ("log.index.interval.bytes", "index.interval.bytes"),
    ("message.max.bytes", "max.message.bytes"),
    ("min.insync.replicas", "min.insync.replicas"),
    ("log.preallocate", "preallocate"),
    ("log.retention.bytes", "retention.bytes"),
    ("log.retention.ms", "retention.ms"),
    ("log.segment.bytes", "segment.bytes"),
    ("log.roll.ms", "segment.ms"),
    (
        "unclean.leader.election.enable",
        "unclean.leader.election.enable",
    ),
];

/// The printed form of an exception a TopicCommand action threw: `Error while executing topic
/// command : <message>` on stdout, then the ERROR log line with the exception on stderr.
fn topic_command_error(world: &World, class: &str, message: &str) -> ToolError {
    let mut text = format!("Error while executing topic command : {message}\n");
    text.push_str(&tool_error_log_line(
        world,
        &format!("{class}: {message}\n"),
        LOGGER,
    ));
    ToolError::new(text)
}

/// An IllegalArgumentException: only its message, on stderr.
fn illegal_argument(message: &str) -> ToolError {
    ToolError::new(message)
}

/// `CommandLineUtils.printUsageAndExit`: the message (the help screen after it is left out).
fn usage_error(message: &str) -> ToolError {
    ToolError::new(message)
}

fn option_error(world: &World, e: &OptionError) -> ToolError {
    topic_command_error(world, e.class, &e.message)
}

fn timeout_error(world: &World, f: &AdminFailure) -> ToolError {
    topic_command_error(world, TIMEOUT_EXCEPTION, &f.message())
}

/// The default message of an error without a server message.
fn default_message(e: ApiError) -> &'static str {
    match e {
        ApiError::NotController => "This is not the correct controller for this cluster.",
        ApiError::TopicAlreadyExists => "Topic with this name already exists.",
        ApiError::InvalidTopic => {
            "The request attempted to perform an operation on an invalid topic."
        }
        ApiError::InvalidPartitions => "Number of partitions is below 1.",
        ApiError::InvalidReplicationFactor => {
            "Replication factor is below 1 or larger than the number of available brokers."
        }
        ApiError::UnknownTopicOrPartition => "This server does not host this topic-partition.",
        ApiError::InvalidConfig => "Configuration is invalid.",
        ApiError::RequestTimedOut => "The request timed out.",
        _ => "Unexpected error.",
    }
}

fn api_error(world: &World, e: ApiError, message: Option<&str>) -> ToolError {
    let m = match message {
        Some(m) if !m.is_empty() => m,
        _ => default_message(e),
    };
    topic_command_error(world, e.exception(), m)
}

/// A topic as the controller holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicInfo {
    /// name
    pub name: String,
    /// topic id
    pub id: Uuid,
    /// Partitions by id.
    pub partitions: Vec<PartitionRecord>,
    /// Non-default configs (topic overrides and cluster-wide dynamic defaults), name to value.
    pub configs: BTreeMap<String, String>,
}

/// The controller a read goes to: the active one, else any running standby (whose state is
/// committed by construction).
pub(crate) fn read_controller(world: &World) -> Option<&QuorumController> {
    let active = world
        .active_controller()
        .and_then(|id| world.node(id))
        .and_then(|n| n.controller.as_ref());
    active.or_else(|| {
        world
            .nodes()
            .filter(|n| n.process == ProcessState::Running)
            .find_map(|n| n.controller.as_ref())
    })
}

/// The committed dynamic configs (as of the last stable offset) of `c`: (resource type,
/// resource name, config name) to value, sorted.
pub fn committed_configs(c: &QuorumController) -> Vec<((i8, String, String), String)> {
    let reg = &c.offset_control.snapshot_registry;
    let lso = c.offset_control.last_stable_offset;
    let mut configs: Vec<((i8, String, String), String)> =
        match c.state.configs.configs.iter_at(reg, lso) {
            Ok(it) => it.map(|(k, v)| (k.clone(), v.clone())).collect(),
            Err(_) => c
                .state
                .configs
                .configs
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        };
    configs.sort();
    configs
}

/// The committed topics (as of the last stable offset) of `c`, sorted by name.
pub fn committed_topics(c: &QuorumController) -> Vec<TopicInfo> {
    let reg = &c.offset_control.snapshot_registry;
    let lso = c.offset_control.last_stable_offset;
    let topics: Vec<TopicControlInfo> = match c.state.replication.topics.iter_at(reg, lso) {
        Ok(it) => it.map(|(_, v)| v.clone()).collect(),
        Err(_) => c.state.replication.topics.values().cloned().collect(),
    };
    let topics = topics
        .into_iter()
        .map(|t| (t.name.clone(), t.id, t.parts.values().cloned().collect()));
    topic_infos(topics, &committed_configs(c))
}

/// The topics of a broker's MetadataImage (what its MetadataCache answers), sorted by name.
pub fn image_topics(image: &crate::image::MetadataImage) -> Vec<TopicInfo> {
    let topics = image.topics.by_id.values().map(|t| {
        let parts = t.partitions.values().cloned().collect();
        (t.name.clone(), t.id, parts)
    });
    let configs: Vec<_> = image
        .configs
        .configs
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    topic_infos(topics, &configs)
}

/// Topics (name, id, partitions) with their non-default configs: the topic's overrides over
/// the cluster-wide dynamic defaults of their broker synonyms.
fn topic_infos(
    topics: impl Iterator<Item = (String, Uuid, Vec<PartitionRecord>)>,
    configs: &[((i8, String, String), String)],
) -> Vec<TopicInfo> {
    let mut defaults = BTreeMap::new();
    for ((t, n, k), v) in configs {
        if *t == RESOURCE_TYPE_BROKER && n.is_empty() {
            if let Some((_, topic_name)) = BROKER_SYNONYMS.iter().find(|(b, _)| b == k) {
                defaults.insert(topic_name.to_string(), v.clone());
            }
        }
    }
    let mut out: Vec<TopicInfo> = topics
        .map(|(name, id, partitions)| {
            let mut cfg = defaults.clone();
            for ((ty, n, k), v) in configs {
                if *ty == RESOURCE_TYPE_TOPIC && *n == name {
                    cfg.insert(k.clone(), v.clone());
                }
            }
            TopicInfo {
                name,
                id,
                partitions,
                configs: cfg,
            }
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The topics as the bootstrap broker's image has them, or the call's timeout when no broker
/// of `--bootstrap-server` answers.
fn topics_now(
    world: &mut World,
    opts: &jopt::Options,
    call: &'static str,
) -> Result<Vec<TopicInfo>, ToolError> {
    let list = opts.value("bootstrap-server").unwrap_or_default();
    match super::bootstrap::bootstrap_image(world, list, call) {
        Ok(image) => Ok(image_topics(&image)),
        Err(f) => Err(timeout_error(world, &f)),
    }
}

/// Run `kafka-topics` with `args`.
pub fn run(world: &mut World, args: &[String]) -> Result<String, ToolError> {
    let opts = jopt::parse(SPEC, args).map_err(|e| option_error(world, &e))?;
    if args.is_empty() {
        return Err(usage_error("Create, delete, describe, or change a topic."));
    }
    if opts.has("help") {
        return Err(usage_error(
            "This tool helps to create, delete, describe, or change a topic.",
        ));
    }
    if opts.has("version") {
        return Ok("4.5.0-SNAPSHOT\n".to_string());
    }
    let actions = ["create", "list", "alter", "describe", "delete"]
        .iter()
        .filter(|a| opts.has(a))
        .count();
    if actions != 1 {
        return Err(usage_error(
            "Command must include exactly one action: --list, --describe, --create, --alter or --delete",
        ));
    }
    let mut out = String::new();
    if opts.has("delete-config") {
        // Printed on stderr before anything else; kept ahead of the output here.
        out.push_str("delete-config option is no longer supported and deprecated since version 4.0. The config will be fully removed in future releases.\n");
    }
    if !opts.has("bootstrap-server") {
        return Err(illegal_argument("--bootstrap-server must be specified"));
    }
    if opts.has("describe") && opts.has("if-exists") && !opts.has("topic") && !opts.has("topic-id")
    {
        return Err(usage_error(
            "--topic or --topic-id is required to describe a topic",
        ));
    }
    if !opts.has("list") && !opts.has("describe") && !opts.has("topic") {
        return Err(usage_error("Missing required argument \"[topic]\""));
    }
    check_invalid_args(&opts)?;
    let result = if opts.has("create") {
        create(world, &opts)
    } else if opts.has("list") {
        list(world, &opts)
    } else if opts.has("describe") {
        describe(world, &opts)
    } else if opts.has("delete") {
        delete(world, &opts)
    } else {
        Err(ToolError::new(
            "kafka-topics --alter is not supported by the KRaft Playground.",
        ))
    };
    result.map(|s| out.clone() + &s).map_err(|e| e.after(out))
}

/// TopicCommandOptions.checkInvalidArgs: options that only go with some actions.
fn check_invalid_args(opts: &jopt::Options) -> Result<(), ToolError> {
    let all = ["alter", "create", "describe", "list", "delete"];
    let rules: &[(&str, &[&str])] = &[
        ("config", &["alter", "create"]),
        ("partitions", &["alter", "create"]),
        ("replication-factor", &["create"]),
        ("replica-assignment", &["alter", "create"]),
        ("if-exists", &["alter", "delete", "describe"]),
        ("if-not-exists", &["create"]),
        ("exclude-internal", &["list", "describe"]),
        ("under-replicated-partitions", &["describe"]),
        ("under-min-isr-partitions", &["describe"]),
        ("at-min-isr-partitions", &["describe"]),
        ("unavailable-partitions", &["describe"]),
        ("topics-with-overrides", &["describe"]),
    ];
    for (opt, allowed) in rules {
        if !opts.has(opt) {
            continue;
        }
        for a in all {
            if !allowed.contains(&a) && opts.has(a) {
                return Err(usage_error(&format!(
                    "Option \"[{opt}]\" can't be used with option \"[{a}]\""
                )));
            }
        }
    }
    if opts.has("create") && opts.has("replica-assignment") {
        for o in ["partitions", "replication-factor"] {
            if opts.has(o) {
                return Err(usage_error(&format!(
                    "Option \"[replica-assignment]\" can't be used with option \"[{o}]\""
                )));
            }
        }
    }
    Ok(())
}

/// Java's `s.split("\\s*=\\s*")`: trailing empty strings dropped.
fn split_config(s: &str) -> Vec<String> {
    let mut parts: Vec<String> = s.split('=').map(|p| p.trim().to_string()).collect();
    while parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    parts
}

fn create(world: &mut World, opts: &jopt::Options) -> Result<String, ToolError> {
    let name = opts.value("topic").unwrap_or_default().to_string();
    let mut configs = Vec::new();
    for c in opts.values("config") {
        let parts = split_config(c);
        if parts.len() != 2 {
            return Err(illegal_argument(
                "requirement failed: Invalid topic config: all configs to be added must be in the format \"key=val\".",
            ));
        }
        configs.push((parts[0].clone(), parts[1].clone()));
    }
    for (k, _) in &configs {
        if !TOPIC_CONFIGS.contains(&k.as_str()) {
            return Err(topic_command_error(
                world,
                ApiError::InvalidConfig.exception(),
                &format!("Unknown topic config name: {k}"),
            ));
        }
    }
    // LogConfig.validate: the names, then ConfigDef.parse, key by key in definition order.
    for name in TOPIC_CONFIGS {
        if let Some((_, v)) = configs.iter().find(|(k, _)| k == name) {
            if let Err(m) = check_topic_config_value(name, v) {
                return Err(topic_command_error(world, CONFIG_EXCEPTION, &m));
            }
        }
    }
    if opts.has("replica-assignment") {
        return Err(ToolError::new(
            "kafka-topics --replica-assignment is not supported by the KRaft Playground.",
        ));
    }
    let mut out = String::new();
    if name.contains('.') || name.contains('_') {
        out.push_str("WARNING: Due to limitations in metric names, topics with a period ('.') or underscore ('_') could collide. To avoid issues it is best to use either, but not both.\n");
    }
    let rf = opts.int("replication-factor");
    if rf.is_some_and(|r| !(1..=i16::MAX as i64).contains(&r)) {
        return Err(illegal_argument(
            "The replication factor must be between 1 and 32767 inclusive",
        )
        .after(out));
    }
    let partitions = opts.int("partitions");
    if partitions.is_some_and(|p| p < 1) {
        return Err(illegal_argument("The partitions must be greater than 0").after(out));
    }
    configs.sort();
    let request = ControllerRequest::CreateTopics {
        topics: vec![CreatableTopic {
            name: name.clone(),
            num_partitions: partitions.map(|p| p as i32).unwrap_or(-1),
            replication_factor: rf.map(|r| r as i16).unwrap_or(-1),
            configs,
        }],
    };
    let list = opts.value("bootstrap-server").unwrap_or_default();
    let resp = super::bootstrap::admin_call_via(world, list, "createTopics", &request)
        .map_err(|f| timeout_error(world, &f).after(out.clone()))?;
    let (topics, error) = match resp {
        ControllerResponse::CreateTopics { topics, error } => (topics, error),
        other => {
            return Err(ToolError::new(format!("unexpected response {other:?}")).after(out));
        }
    };
    if let Some(e) = error {
        return Err(api_error(world, e, None).after(out));
    }
    let result = topics.into_iter().find(|t| t.name == name);
    match result {
        Some(TopicResult { error: None, .. }) => {
            out.push_str(&format!("Created topic {name}.\n"));
            Ok(out)
        }
        Some(TopicResult {
            error: Some((ApiError::TopicAlreadyExists, _)),
            ..
        }) if opts.has("if-not-exists") => Ok(out),
        Some(TopicResult {
            error: Some((e, m)),
            ..
        }) => Err(api_error(world, e, Some(&m)).after(out)),
        None => Err(ToolError::new(format!("no result for topic {name}")).after(out)),
    }
}

/// TopicCommand's getTopics: sorted names, filtered by the `--topic` include list.
fn filter_topics<'a>(topics: &'a [TopicInfo], include: Option<&str>) -> Vec<&'a TopicInfo> {
    let pattern = include.map(include_list_pattern);
    topics
        .iter()
        .filter(|t| {
            pattern
                .as_ref()
                .is_none_or(|p| regex_full_match(p, &t.name))
        })
        .collect()
}

fn list(world: &mut World, opts: &jopt::Options) -> Result<String, ToolError> {
    let topics = topics_now(world, opts, "listTopics")?;
    let names: Vec<&str> = filter_topics(&topics, opts.value("topic"))
        .into_iter()
        .map(|t| t.name.as_str())
        .collect();
    Ok(format!("{}\n", names.join("\n")))
}

fn ensure_exists(found: usize, requested: Option<&str>, if_exists: bool) -> Result<(), ToolError> {
    match requested {
        Some(t) if !t.is_empty() && !if_exists && found == 0 => Err(illegal_argument(&format!(
            "Topic '{t}' does not exist as expected"
        ))),
        _ => Ok(()),
    }
}

fn delete(world: &mut World, opts: &jopt::Options) -> Result<String, ToolError> {
    let topics = topics_now(world, opts, "listTopics")?;
    let names: Vec<String> = filter_topics(&topics, opts.value("topic"))
        .into_iter()
        .map(|t| t.name.clone())
        .collect();
    ensure_exists(names.len(), opts.value("topic"), opts.has("if-exists"))?;
    if names.is_empty() {
        return Ok(String::new());
    }
    let request = ControllerRequest::DeleteTopics {
        names: names.clone(),
    };
    let list = opts.value("bootstrap-server").unwrap_or_default();
    let resp = super::bootstrap::admin_call_via(world, list, "deleteTopics", &request)
        .map_err(|f| timeout_error(world, &f))?;
    let (results, error) = match resp {
        ControllerResponse::DeleteTopics { topics, error } => (topics, error),
        other => return Err(ToolError::new(format!("unexpected response {other:?}"))),
    };
    if let Some(e) = error {
        return Err(api_error(world, e, None));
    }
    // KafkaFuture.allOf fails with the first failed topic in the request's order.
    for n in &names {
        if let Some(TopicResult {
            error: Some((e, m)),
            ..
        }) = results.iter().find(|r| &r.name == n)
        {
            return Err(api_error(world, *e, Some(m)));
        }
    }
    Ok(String::new())
}

fn min_isr(t: &TopicInfo) -> usize {
    t.configs
        .get("min.insync.replicas")
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
}

fn ids(v: &[i32]) -> String {
    v.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The `\tTopic: ...\tPartition: ...` line of one partition (without the newline).
pub fn partition_line(topic: &str, p: &PartitionRecord) -> String {
    let leader = if p.leader < 0 {
        "none".to_string()
    } else {
        p.leader.to_string()
    };
    format!(
        "\tTopic: {topic}\tPartition: {}\tLeader: {leader}\tReplicas: {}\tIsr: {}\tElr: {}\tLastKnownElr: {}",
        p.partition_id,
        ids(&p.replicas),
        ids(&p.isr),
        ids(p.eligible_leader_replicas.as_deref().unwrap_or(&[])),
        ids(p.last_known_elr.as_deref().unwrap_or(&[]))
    )
}

/// The `Topic: ...\tTopicId: ...` header line of a topic (without the newline); configs in the
/// order of the Java HashMap `Config` keeps them in.
pub fn topic_line(t: &TopicInfo) -> String {
    let entries: Vec<(&String, &String)> = t.configs.iter().collect();
    let ordered = java_hash_map_order(entries, |(k, _)| java_string_hash(k), 64);
    let configs: Vec<String> = ordered.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let rf = t.partitions.first().map(|p| p.replicas.len()).unwrap_or(0);
    let mut s = format!("Topic: {}", t.name);
    if t.id != Uuid::ZERO {
        s.push_str(&format!("\tTopicId: {}", t.id));
    }
    s.push_str(&format!(
        "\tPartitionCount: {}\tReplicationFactor: {rf}\tConfigs: {}",
        t.partitions.len(),
        configs.join(",")
    ));
    s
}

fn describe(world: &mut World, opts: &jopt::Options) -> Result<String, ToolError> {
    let topics = topics_now(world, opts, "listTopics")?;
    let if_exists = opts.has("if-exists");
    let by_id = opts
        .value("topic-id")
        .map(|s| s.to_string())
        .filter(|s| s != &Uuid::ZERO.to_string());
    let chosen: Vec<&TopicInfo> = match &by_id {
        Some(id) => {
            let found: Vec<&TopicInfo> =
                topics.iter().filter(|t| &t.id.to_string() == id).collect();
            if found.is_empty() && !if_exists {
                return Err(illegal_argument(&format!(
                    "TopicId '{id}' does not exist as expected"
                )));
            }
            found
        }
        None => {
            let found = filter_topics(&topics, opts.value("topic"));
            ensure_exists(found.len(), opts.value("topic"), if_exists)?;
            found
        }
    };
    let reports = [
        "under-replicated-partitions",
        "unavailable-partitions",
        "under-min-isr-partitions",
        "at-min-isr-partitions",
    ];
    let describe_configs = !reports.iter().any(|r| opts.has(r));
    let describe_partitions = !opts.has("topics-with-overrides");
    let live: Vec<i32> = world
        .nodes()
        .filter(|n| n.process == ProcessState::Running && n.broker.is_some())
        .map(|n| n.id)
        .collect();
    // describeTopics(...).allTopicNames() collects into new HashMap<>(topics.size()).
    let cap = java_hash_map_capacity(chosen.len(), Some(chosen.len()));
    let chosen = java_hash_map_order(chosen, |t| java_string_hash(&t.name), cap);
    let mut out = String::new();
    for t in chosen {
        if t.partitions.is_empty() {
            continue;
        }
        if describe_configs && (!opts.has("topics-with-overrides") || !t.configs.is_empty()) {
            out.push_str(&topic_line(t));
            out.push('\n');
        }
        if !describe_partitions {
            continue;
        }
        for p in &t.partitions {
            let has_leader = p.leader >= 0;
            let show = describe_configs
                || (opts.has("under-replicated-partitions") && p.replicas.len() > p.isr.len())
                || (opts.has("unavailable-partitions")
                    && (!has_leader || !live.contains(&p.leader)))
                || (opts.has("under-min-isr-partitions")
                    && (!has_leader || p.isr.len() < min_isr(t)))
                || (opts.has("at-min-isr-partitions") && p.isr.len() == min_isr(t));
            if show {
                out.push_str(&partition_line(&t.name, p));
                out.push('\n');
            }
        }
    }
    Ok(out)
}

// ----- `--topic` as TopicFilter.IncludeList: a Java regex that must match the whole name -----

/// IncludeList's pattern: commas become alternations, spaces and surrounding quotes go.
fn include_list_pattern(raw: &str) -> String {
    raw.trim()
        .replace(',', "|")
        .replace(' ', "")
        .trim_start_matches(['"', '\''])
        .trim_end_matches(['"', '\''])
        .to_string()
}

#[derive(Clone, Debug)]
enum Atom {
    Char(char),
    Any,
    Class(Vec<(char, char)>, bool),
    Group(Vec<Vec<Piece>>),
}

#[derive(Clone, Debug)]
struct Piece {
    atom: Atom,
    min: usize,
    max: usize,
}

fn parse_alternation(chars: &[char], i: &mut usize) -> Vec<Vec<Piece>> {
    let mut alts = vec![Vec::new()];
    while *i < chars.len() {
        let c = chars[*i];
        *i += 1;
        let atom = match c {
            '|' => {
                alts.push(Vec::new());
                continue;
            }
            ')' => return alts,
            '(' => {
                if chars.get(*i) == Some(&'?') && chars.get(*i + 1) == Some(&':') {
                    *i += 2;
                }
                Atom::Group(parse_alternation(chars, i))
            }
            '.' => Atom::Any,
            '\\' => {
                let n = chars.get(*i).copied().unwrap_or('\\');
                *i += 1;
                match n {
                    'd' => Atom::Class(vec![('0', '9')], false),
                    'w' => Atom::Class(vec![('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')], false),
                    other => Atom::Char(other),
                }
            }
            '[' => {
                let negated = chars.get(*i) == Some(&'^');
                if negated {
                    *i += 1;
                }
                let mut ranges = Vec::new();
                let mut first = true;
                while *i < chars.len() && (first || chars[*i] != ']') {
                    first = false;
                    let mut a = chars[*i];
                    *i += 1;
                    if a == '\\' && *i < chars.len() {
                        a = chars[*i];
                        *i += 1;
                    }
                    if chars.get(*i) == Some(&'-') && chars.get(*i + 1).is_some_and(|c| *c != ']') {
                        let b = chars[*i + 1];
                        *i += 2;
                        ranges.push((a, b));
                    } else {
                        ranges.push((a, a));
                    }
                }
                *i += 1;
                Atom::Class(ranges, negated)
            }
            other => Atom::Char(other),
        };
        let (min, max) = match chars.get(*i) {
            Some('*') => (0, usize::MAX),
            Some('+') => (1, usize::MAX),
            Some('?') => (0, 1),
            _ => (1, 1),
        };
        if (min, max) != (1, 1) {
            *i += 1;
        }
        alts.last_mut()
            .expect("one alternative")
            .push(Piece { atom, min, max });
    }
    alts
}

/// Match `pieces` against `s[pos..]`, calling `k` with every end position reached.
fn match_seq(pieces: &[Piece], s: &[char], pos: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
    let Some((first, rest)) = pieces.split_first() else {
        return k(pos);
    };
    // Positions after matching `first` n times, tried greedily.
    fn repeat(
        p: &Piece,
        rest: &[Piece],
        s: &[char],
        pos: usize,
        n: usize,
        k: &mut dyn FnMut(usize) -> bool,
    ) -> bool {
        if n < p.max {
            let mut next = |end: usize| end != pos && repeat(p, rest, s, end, n + 1, k);
            if match_atom(&p.atom, s, pos, &mut next) {
                return true;
            }
        }
        n >= p.min && match_seq(rest, s, pos, k)
    }
    repeat(first, rest, s, pos, 0, k)
}

fn match_atom(a: &Atom, s: &[char], pos: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
    match a {
        Atom::Char(c) => s.get(pos) == Some(c) && k(pos + 1),
        Atom::Any => pos < s.len() && k(pos + 1),
        Atom::Class(ranges, negated) => {
            let Some(c) = s.get(pos) else {
                return false;
            };
            let inside = ranges.iter().any(|(lo, hi)| lo <= c && c <= hi);
            inside != *negated && k(pos + 1)
        }
        Atom::Group(alts) => alts.iter().any(|alt| match_seq(alt, s, pos, k)),
    }
}

/// Whether the (small) Java regex `pattern` matches all of `s` (`Matcher.matches()`).
pub fn regex_full_match(pattern: &str, s: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    let alts = parse_alternation(&p, &mut i);
    let s: Vec<char> = s.chars().collect();
    let n = s.len();
    alts.iter()
        .any(|alt| match_seq(alt, &s, 0, &mut |end| end == n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_lists_match_like_java() {
        assert!(regex_full_match("orders", "orders"));
        assert!(!regex_full_match("orders", "orders2"));
        assert!(regex_full_match(
            &include_list_pattern("orders,payments"),
            "payments"
        ));
        assert!(regex_full_match("ord.*", "orders"));
        assert!(regex_full_match("o[a-z]+s", "orders"));
        assert!(!regex_full_match("o[a-z]+s", "o1s"));
        assert!(regex_full_match("(pay|ord)(ers|ments)?", "pay"));
        assert!(regex_full_match("a.b", "axb"));
    }

    #[test]
    fn configs_split_like_java() {
        assert_eq!(split_config("a = b"), vec!["a", "b"]);
        assert_eq!(split_config("a="), vec!["a"]);
        assert_eq!(split_config("a=b=c").len(), 3);
    }
}
