//! `kafka-get-offsets.sh --bootstrap-server localhost:9092 --topic T [--time -1|-2|latest|
//! earliest] [--partitions 0,1]` (GetOffsetShell.java at apache/kafka 1eb7644): the topics'
//! partitions from a Metadata request to a bootstrap broker (the Admin client's
//! describeTopics), a ListOffsets to each leader, `topic:partition:offset` lines sorted by
//! `TopicPartition.toString()` (GetOffsetShell.java:241, so `orders-10` before `orders-2`).
//! `--topic` is matched as the whole name (Kafka reads it as a regular expression; the
//! playground's topic names have no regex characters in practice). Timestamps other than -1
//! and -2 are not simulated.

use super::client;
use super::console_producer::{usage_error, validate_bootstrap};
use super::jopt::{self, Arg};
use super::ToolError;
use crate::sim::World;

const SPEC: &[(&str, Arg)] = &[
    ("bootstrap-server", Arg::Str),
    ("command-config", Arg::Str),
    ("topic-partitions", Arg::Str),
    ("topic", Arg::Str),
    ("partitions", Arg::Str),
    ("time", Arg::Str),
    ("exclude-internal-topics", Arg::None),
    ("help", Arg::None),
    ("version", Arg::None),
];

/// GetOffsetShell's USAGE_TEXT.
const USAGE_TEXT: &str = "An interactive shell for getting topic-partition offsets.";

/// How long the admin calls wait (`default.api.timeout.ms` is 60 s; the playground's admin
/// client gives up after [`super::ADMIN_TIMEOUT_MS`]).
const TIMEOUT_MS: u64 = super::ADMIN_TIMEOUT_MS;

/// `Error occurred: <message>` (a TerseException, GetOffsetShell.java:75), exit 1.
fn terse(message: &str) -> ToolError {
    ToolError::new(format!("Error occurred: {message}"))
}

/// GetOffsetShell.parseOffsetSpec (GetOffsetShell.java:268): -1 latest, -2 earliest.
fn parse_time(text: &str) -> Result<i64, ToolError> {
    match text {
        "latest" | "-1" => Ok(-1),
        "earliest" | "-2" => Ok(-2),
        "max-timestamp" | "-3" | "earliest-local" | "-4" | "latest-tiered" | "-5" => Err(ToolError::new(format!(
            "kafka-get-offsets --time {text} is not simulated by the KRaft Playground (only -1/latest and -2/earliest)."
        ))),
        t if t.parse::<i64>().is_ok() => Err(ToolError::new(
            "kafka-get-offsets with a timestamp is not simulated by the KRaft Playground (only -1/latest and -2/earliest).",
        )),
        t => Err(terse(&format!("Malformed time argument {t}. Please use -1 or latest / -2 or earliest / -3 or max-timestamp / -4 or earliest-local / -5 or latest-tiered, or a specified long format timestamp"))),
    }
}

/// `--partitions 0,2`: the partition ids, or GetOffsetShell's error (:346).
fn parse_partitions(text: Option<&str>) -> Result<Option<Vec<i32>>, ToolError> {
    let Some(text) = text else { return Ok(None) };
    text.split(',')
        .map(|p| p.trim().parse::<i32>().ok().filter(|n| *n >= 0))
        .collect::<Option<Vec<i32>>>()
        .map(Some)
        .ok_or_else(|| terse(&format!("--partitions expects a comma separated list of numeric partition ids, but received: {text}")))
}

/// Run `kafka-get-offsets` with `args`.
pub fn run(world: &mut World, args: &[String]) -> Result<String, ToolError> {
    if args.is_empty() {
        return Err(usage_error(USAGE_TEXT));
    }
    let opts = jopt::parse(SPEC, args).map_err(|e| terse(&e.message))?;
    if opts.has("help") {
        return Err(usage_error(USAGE_TEXT).code(0));
    }
    if opts.has("version") {
        return Ok("4.5.0-SNAPSHOT\n".into());
    }
    if !opts.has("bootstrap-server") {
        return Err(usage_error(
            "Missing required argument \"[bootstrap-server]\"",
        ));
    }
    let bootstrap = validate_bootstrap(opts.value("bootstrap-server"))?;
    let time = parse_time(opts.value("time").unwrap_or("latest"))?;
    if opts.has("topic-partitions") && (opts.has("topic") || opts.has("partitions")) {
        return Err(terse(
            "--topic-partitions cannot be used with --topic or --partitions",
        ));
    }
    if opts.has("topic-partitions") {
        return Err(ToolError::new("kafka-get-offsets --topic-partitions is not simulated by the KRaft Playground (use --topic and --partitions)."));
    }
    let partitions = parse_partitions(opts.value("partitions"))?;
    let nodes = client::bootstrap_brokers(world, bootstrap);
    let deadline = world.now_ms() + TIMEOUT_MS;
    // Admin.listTopics then describeTopics: one Metadata request for every topic here.
    let Some(meta) = client::metadata(world, &nodes, None, TIMEOUT_MS, deadline) else {
        return Err(terse(
            "Timed out waiting for a node assignment. Call: listTopics",
        ));
    };
    let mut found: Vec<(String, i32)> = Vec::new();
    for t in &meta.topics {
        let topic_ok = opts.value("topic").is_none_or(|name| name == t.name);
        let internal = t.name.starts_with("__");
        if !topic_ok || (internal && opts.has("exclude-internal-topics")) {
            continue;
        }
        for p in &t.partitions {
            if partitions.as_ref().is_none_or(|ps| ps.contains(&p.index)) {
                found.push((t.name.clone(), p.index));
            }
        }
    }
    if found.is_empty() {
        return Err(terse(
            "Could not match any topic-partitions with the specified filters",
        ));
    }
    found.sort_by_key(|(t, p)| format!("{t}-{p}"));
    let mut out = String::new();
    let mut err = String::new();
    for (t, p) in found {
        match client::list_offset(world, &meta, &t, p, time, TIMEOUT_MS) {
            Ok(o) if o >= 0 => out.push_str(&format!("{t}:{p}:{o}\n")),
            Ok(_) => {}
            Err(e) => err.push_str(&format!(
                "Skip getting offsets for topic-partition {t}-{p} due to error: {}\n",
                client::exception(e, None)
            )),
        }
    }
    Ok(out + &err)
}
