//! `kafka-console-consumer.sh --bootstrap-server localhost:9092 --topic T [--from-beginning]
//! [--max-messages N] [--timeout-ms MS] [--partition P --offset O] [--property print.key=true]`
//! (ConsoleConsumer.java and ConsoleConsumerOptions.java at apache/kafka 1eb7644): Fetch
//! requests with replica id -1 to the partitions' leaders (a consumer reads below the high
//! watermark only), each record printed by DefaultMessageFormatter, then `Processed a total of
//! N messages` on stderr (ConsoleConsumer.java:135). `--timeout-ms` with no message for that
//! long logs ConsoleConsumer's ERROR with a TimeoutException (ConsoleConsumer.java:111,198)
//! and exits 0.
//!
//! Deviations: there is no group coordinator, so a subscribed consumer reads every partition
//! of the topic from `auto.offset.reset` (latest, or earliest with `--from-beginning`) and
//! commits nothing. A consumer with neither `--max-messages` nor `--timeout-ms` would run until
//! Ctrl-C: the playground presses it once the consumer has caught up (a fetch round brought
//! nothing). stderr is shown after stdout, as a terminal shows both.

use super::client::{self, CallError};
use super::console_producer::{usage_error, validate_bootstrap};
use super::jopt::{self, Arg};
use super::producer_config::key_values;
use super::{tool_error_log_line, ToolError};
use crate::broker::messages::{
    DataRequest, DataResponse, FetchPartition, FetchRequest, MetadataResponse, CONSUMER_REPLICA_ID,
};
use crate::common::clock::to_epoch_ms;
use crate::common::protocol::Errors;
use crate::raft::batch::Record;
use crate::sim::World;
use std::collections::BTreeMap;

const SPEC: &[(&str, Arg)] = &[
    ("topic", Arg::Str),
    ("include", Arg::Str),
    ("partition", Arg::Int),
    ("offset", Arg::Str),
    ("consumer-property", Arg::Str),
    ("consumer.config", Arg::Str),
    ("formatter", Arg::Str),
    ("formatter-config", Arg::Str),
    ("property", Arg::Str),
    ("from-beginning", Arg::None),
    ("max-messages", Arg::Int),
    ("timeout-ms", Arg::Int),
    ("skip-message-on-error", Arg::None),
    ("bootstrap-server", Arg::Str),
    ("key-deserializer", Arg::Str),
    ("value-deserializer", Arg::Str),
    ("enable-systest-events", Arg::None),
    ("isolation-level", Arg::Str),
    ("group", Arg::Str),
    ("help", Arg::None),
    ("version", Arg::None),
];

/// ConsoleConsumerOptions' description.
const DESCRIPTION: &str =
    "This tool helps to read data from Kafka topics and outputs it to standard output.";

/// `fetch.max.wait.ms`: how long the leader holds a fetch with nothing new.
const FETCH_MAX_WAIT_MS: u64 = 500;
/// The consumer's `request.timeout.ms`.
const REQUEST_TIMEOUT_MS: u64 = 30_000;

/// Where each assigned partition is read from.
struct Position {
    partition: i32,
    offset: i64,
}

/// What the formatter prints (DefaultMessageFormatter's `print.*` properties).
struct Format {
    timestamp: bool,
    partition: bool,
    offset: bool,
    key: bool,
    value: bool,
    separator: String,
    line_separator: String,
    null_literal: String,
}

impl Format {
    fn new(props: &BTreeMap<String, String>) -> Format {
        let on = |k: &str, d: bool| {
            props
                .get(k)
                .map_or(d, |v| v.trim().eq_ignore_ascii_case("true"))
        };
        Format {
            timestamp: on("print.timestamp", false),
            partition: on("print.partition", false),
            offset: on("print.offset", false),
            key: on("print.key", false),
            value: on("print.value", true),
            separator: props
                .get("key.separator")
                .cloned()
                .unwrap_or_else(|| "\t".into()),
            line_separator: props
                .get("line.separator")
                .cloned()
                .unwrap_or_else(|| "\n".into()),
            null_literal: props
                .get("null.literal")
                .cloned()
                .unwrap_or_else(|| "null".into()),
        }
    }

    /// DefaultMessageFormatter.writeTo: timestamp, partition, offset, key, value.
    fn line(
        &self,
        partition: i32,
        offset: i64,
        create_ms: u64,
        key: Option<&str>,
        value: &str,
    ) -> String {
        let mut out = String::new();
        if self.timestamp {
            out.push_str(&format!(
                "CreateTime:{}{}",
                to_epoch_ms(create_ms),
                self.separator
            ));
        }
        if self.partition {
            out.push_str(&format!("Partition:{partition}{}", self.separator));
        }
        if self.offset {
            out.push_str(&format!("Offset:{offset}{}", self.separator));
        }
        if self.key {
            out.push_str(key.unwrap_or(&self.null_literal));
            if self.value {
                out.push_str(&self.separator);
            }
        }
        if self.value {
            out.push_str(value);
        }
        out.push_str(&self.line_separator);
        out
    }
}

/// ConsoleConsumerOptions.checkRequiredArgs and parseOffset (:188-320).
fn check(opts: &jopt::Options) -> Result<Option<i64>, ToolError> {
    if opts.has("topic") == opts.has("include") {
        return Err(usage_error(
            "Exactly one of --include/--topic is required. ",
        ));
    }
    if opts.has("partition") {
        if !opts.has("topic") {
            return Err(usage_error(
                "The topic is required when partition is specified.",
            ));
        }
        if opts.has("from-beginning") && opts.has("offset") {
            return Err(usage_error(
                "Options from-beginning and offset cannot be specified together.",
            ));
        }
    } else if opts.has("offset") {
        return Err(usage_error(
            "The partition is required when offset is specified.",
        ));
    }
    if !opts.has("bootstrap-server") {
        return Err(usage_error(
            "Missing required argument \"[bootstrap-server]\"",
        ));
    }
    validate_bootstrap(opts.value("bootstrap-server"))?;
    if opts.has("include") {
        return Err(ToolError::new("kafka-console-consumer --include is not simulated by the KRaft Playground (use --topic)."));
    }
    let Some(text) = opts.value("offset") else {
        return Ok(None);
    };
    match text.to_lowercase().as_str() {
        "earliest" => Ok(Some(-2)),
        "latest" => Ok(Some(-1)),
        t => match t.parse::<i64>() {
            Ok(o) if o >= 0 => Ok(Some(o)),
            _ => Err(usage_error(&format!("The provided offset value '{text}' is incorrect. Valid values are 'earliest', 'latest', or a non-negative long."))),
        },
    }
}

/// Run `kafka-console-consumer` with `args`.
pub fn run(world: &mut World, args: &[String]) -> Result<String, ToolError> {
    let opts = jopt::parse(SPEC, args).map_err(|e| usage_error(&e.message))?;
    if args.is_empty() {
        return Err(usage_error(DESCRIPTION));
    }
    if opts.has("help") {
        return Err(usage_error(DESCRIPTION).code(0));
    }
    if opts.has("version") {
        return Ok("4.5.0-SNAPSHOT\n".into());
    }
    let offset = check(&opts)?;
    let topic = opts.value("topic").unwrap_or_default().to_string();
    let bootstrap = client::bootstrap_brokers(world, opts.value("bootstrap-server").unwrap_or(""));
    let max = opts.int("max-messages").filter(|n| *n >= 0);
    let timeout = opts.int("timeout-ms").filter(|n| *n >= 0).map(|n| n as u64);
    let reset = if opts.has("from-beginning") { -2 } else { -1 };
    let format = Format::new(&key_values(opts.values("property")));
    let mut c = Consumer {
        topic,
        bootstrap,
        meta: None,
        positions: Vec::new(),
        format,
        out: String::new(),
        count: 0,
    };
    let err = c.consume(
        world,
        opts.int("partition").map(|p| p as i32),
        offset.unwrap_or(reset),
        reset,
        max,
        timeout,
    );
    Ok(format!(
        "{}{err}Processed a total of {} messages\n",
        c.out, c.count
    ))
}

/// The consumer's state while it runs.
struct Consumer {
    topic: String,
    bootstrap: Vec<i32>,
    meta: Option<MetadataResponse>,
    positions: Vec<Position>,
    format: Format,
    out: String,
    count: i64,
}

impl Consumer {
    /// Poll until `max` messages, `timeout` without one, or caught up; the ERROR text if the
    /// timeout ended it.
    fn consume(
        &mut self,
        world: &mut World,
        partition: Option<i32>,
        start: i64,
        reset: i64,
        max: Option<i64>,
        timeout: Option<u64>,
    ) -> String {
        let mut last = world.now_ms();
        loop {
            if max.is_some_and(|m| self.count >= m) || world.tool_killed() {
                return String::new();
            }
            let before = self.count;
            let progressed = self.poll(world, partition, start, reset, max);
            if self.count > before {
                last = world.now_ms();
                continue;
            }
            match timeout {
                Some(t) if world.now_ms().saturating_sub(last) > t => {
                    let line = tool_error_log_line(
                        world,
                        "Error processing message, terminating consumer process: ",
                        "org.apache.kafka.tools.consumer.ConsoleConsumer",
                    );
                    return format!("{line}org.apache.kafka.common.errors.TimeoutException\n");
                }
                Some(_) => {}
                None if progressed => return String::new(),
                // Nothing to read for a minute (no such topic, no broker): Ctrl-C.
                None if world.now_ms().saturating_sub(last) > 60_000 => return String::new(),
                None => {}
            }
        }
    }

    /// One poll: metadata and positions first, then one fetch per partition. Whether the
    /// consumer had its positions and fetched (it is caught up when that brought nothing).
    fn poll(
        &mut self,
        world: &mut World,
        partition: Option<i32>,
        start: i64,
        reset: i64,
        max: Option<i64>,
    ) -> bool {
        if self.positions.is_empty() {
            self.assign(world, partition, start, reset);
            if self.positions.is_empty() {
                world.run_for(100);
                return false;
            }
        }
        for i in 0..self.positions.len() {
            if max.is_some_and(|m| self.count >= m) {
                break;
            }
            self.fetch(world, i, reset, max);
        }
        true
    }

    /// Metadata for the topic, then each partition's starting offset (a ListOffsets for
    /// earliest -2 or latest -1).
    fn assign(&mut self, world: &mut World, partition: Option<i32>, start: i64, reset: i64) {
        let nodes = client::known_brokers(self.meta.as_ref(), &self.bootstrap);
        let deadline = world.now_ms() + REQUEST_TIMEOUT_MS;
        let topics = [self.topic.clone()];
        let Some(meta) =
            client::metadata(world, &nodes, Some(&topics), REQUEST_TIMEOUT_MS, deadline)
        else {
            return;
        };
        let Some(t) = meta
            .topics
            .iter()
            .find(|t| t.name == self.topic && t.error == Errors::None)
        else {
            self.meta = Some(meta);
            return;
        };
        let ids: Vec<i32> = t
            .partitions
            .iter()
            .map(|p| p.index)
            .filter(|p| partition.is_none_or(|q| q == *p))
            .collect();
        self.meta = Some(meta.clone());
        let start = if partition.is_some() { start } else { reset };
        for p in ids {
            let offset = if start >= 0 {
                start
            } else {
                match client::list_offset(world, &meta, &self.topic, p, start, REQUEST_TIMEOUT_MS) {
                    Ok(o) => o,
                    Err(_) => return self.positions.clear(),
                }
            };
            self.positions.push(Position {
                partition: p,
                offset,
            });
        }
    }

    /// One Fetch for position `i` to the partition's leader; prints what it brings.
    fn fetch(&mut self, world: &mut World, i: usize, reset: i64, max: Option<i64>) {
        let Some(meta) = self.meta.clone() else {
            return;
        };
        let pos = &self.positions[i];
        let Some(t) = meta.topics.iter().find(|t| t.name == self.topic) else {
            return;
        };
        let Some(p) = t.partitions.iter().find(|p| p.index == pos.partition) else {
            return;
        };
        let request = DataRequest::Fetch(FetchRequest {
            replica_id: CONSUMER_REPLICA_ID,
            replica_epoch: -1,
            max_wait_ms: FETCH_MAX_WAIT_MS,
            partitions: vec![FetchPartition {
                partition: (t.id, pos.partition),
                current_leader_epoch: -1,
                fetch_offset: pos.offset,
                last_fetched_epoch: -1,
            }],
        });
        let answer = if p.leader < 0 {
            Err(CallError::Disconnected)
        } else {
            client::call(world, p.leader, request, REQUEST_TIMEOUT_MS)
        };
        let Ok(DataResponse::Fetch(r)) = answer else {
            // The leader moved or is gone: ask for metadata again before the next fetch.
            world.run_for(100);
            self.positions.clear();
            return;
        };
        let Some(fp) = r.partitions.first() else {
            return;
        };
        match fp.error {
            Errors::None => {}
            Errors::OffsetOutOfRange => {
                if let Ok(o) = client::list_offset(
                    world,
                    &meta,
                    &self.topic,
                    pos.partition,
                    reset,
                    REQUEST_TIMEOUT_MS,
                ) {
                    self.positions[i].offset = o;
                }
                return;
            }
            _ => {
                world.run_for(100);
                self.positions.clear();
                return;
            }
        }
        for b in &fp.records {
            for (j, rec) in b.records.iter().enumerate() {
                let offset = b.base_offset + j as i64;
                let Record::Data(d) = rec else { continue };
                if offset < self.positions[i].offset || max.is_some_and(|m| self.count >= m) {
                    continue;
                }
                self.out.push_str(&self.format.line(
                    pos_partition(&self.positions[i]),
                    offset,
                    b.create_time_ms,
                    d.key.as_deref(),
                    &d.value,
                ));
                self.count += 1;
                self.positions[i].offset = offset + 1;
            }
        }
    }
}

/// The partition of a position.
fn pos_partition(p: &Position) -> i32 {
    p.partition
}
