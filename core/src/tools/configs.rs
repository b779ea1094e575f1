//! `kafka-configs.sh` (Kafka's `ConfigCommand`) for topic configs: `--alter` with
//! `--add-config` / `--delete-config` (an IncrementalAlterConfigs request from the admin client
//! to the active controller, retried on NOT_CONTROLLER as the AdminClient does) and `--describe`
//! (the dynamic topic configs with their synonyms, read from a controller's committed state as
//! DescribeConfigs would answer them).
//!
//! Only `--entity-type topics` (or `--topic`) is simulated; the other entity types pass the
//! option checks ConfigCommand makes and then fail with a "not supported by the KRaft
//! Playground" error.
//!
//! This file runs the command and does `--alter`; `args` holds the options and their checks,
//! `add_config` the `--add-config` / `--delete-config` parsing, `describe` the `--describe` output.

mod add_config;
mod args;
mod describe;

pub use args::ENTITY_TYPES;

use self::add_config::{parse_configs_to_be_added, parse_configs_to_be_deleted};
use self::args::{check_args, Entities, SPEC};
use self::describe::describe;
use super::jopt;
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
use crate::controller::configuration_control::TOPIC_CONFIGS;
use crate::controller::replication_control::validate_topic_name;
use crate::metadata::{RESOURCE_TYPE_BROKER, RESOURCE_TYPE_TOPIC};
use crate::sim::World;
use std::collections::BTreeMap;

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

/// The ExecutionException of an API error, with the response's message or the error's default.
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
    // With --bootstrap-server a broker of the list must answer first (KafkaAdminClient).
    let resp = match opts.value("bootstrap-server") {
        Some(list) => {
            super::bootstrap::admin_call_via(world, list, "incrementalAlterConfigs", &request)
        }
        None => admin_call(world, "incrementalAlterConfigs", &request),
    };
    let resp = resp
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
