//! `kafka-console-producer.sh --bootstrap-server localhost:9092 --topic T` (ConsoleProducer.java
//! and LineMessageReader.java at apache/kafka 1eb7644): one record per line of stdin, sent by
//! a KafkaProducer ([`super::producer`]) with the console producer's settings
//! (ConsoleProducer.java:315-347: acks -1, request.timeout.ms 1500, retries 3,
//! retry.backoff.ms 100, linger.ms 1000, max.block.ms 60000, each unless overridden by
//! `--producer-property`). A failed record is logged by ErrorLoggingCallback
//! (ErrorLoggingCallback.java:52) and the tool still exits 0, as ConsoleProducer does for
//! asynchronous sends.
//!
//! LineMessageReader prints the `>` prompt only when the JVM has a console
//! (LineMessageReader.java:63,115): piped input (`echo v | ...`) gets none; typed with no pipe,
//! the playground's terminal has no lines to give, so the tool prints one `>` and reads the end
//! of input (as Ctrl-D at the prompt).

use super::jopt::{self, Arg};
use super::producer::{check_size, serialized_size, Producer};
use super::producer_config::{key_values, ProducerConfig};
use super::{tool_error_log_line, ToolError};
use crate::raft::batch::DataRecord;
use crate::sim::World;
use std::collections::BTreeMap;

/// ConsoleProducerOptions' options (ConsoleProducer.java:140-261) and CommandDefaultOptions'.
const SPEC: &[(&str, Arg)] = &[
    ("topic", Arg::Str),
    ("bootstrap-server", Arg::Str),
    ("sync", Arg::None),
    ("compression-codec", Arg::Str),
    ("batch-size", Arg::Int),
    ("message-send-max-retries", Arg::Int),
    ("retry-backoff-ms", Arg::Int),
    ("timeout", Arg::Int),
    ("request-required-acks", Arg::Str),
    ("request-timeout-ms", Arg::Int),
    ("metadata-expiry-ms", Arg::Int),
    ("max-block-ms", Arg::Int),
    ("max-memory-bytes", Arg::Int),
    ("max-partition-memory-bytes", Arg::Int),
    ("line-reader", Arg::Str),
    ("socket-buffer-size", Arg::Int),
    ("property", Arg::Str),
    ("reader-config", Arg::Str),
    ("producer-property", Arg::Str),
    ("producer.config", Arg::Str),
    ("help", Arg::None),
    ("version", Arg::None),
];

/// ConsoleProducer's description, printed when it runs without arguments.
const DESCRIPTION: &str =
    "This tool helps to read data from standard input and publish it to Kafka.";

/// The logger of the failed-send lines.
const CALLBACK_LOGGER: &str = "org.apache.kafka.clients.producer.internals.ErrorLoggingCallback";

/// `CommandLineUtils.printUsageAndExit`: the message (the help screen after it is left out).
pub(crate) fn usage_error(message: &str) -> ToolError {
    ToolError::new(message)
}

/// ToolsUtils.validateBootstrapServer (ToolsUtils.java:107): every entry needs `:port`.
pub(crate) fn validate_bootstrap(list: Option<&str>) -> Result<&str, ToolError> {
    let list = list.unwrap_or("");
    if list.trim().is_empty() {
        return Err(usage_error(
            "Error while validating the bootstrap address\n",
        ));
    }
    let ok = list.split(',').all(|hp| {
        hp.rsplit_once(':')
            .is_some_and(|(_, p)| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    });
    if !ok {
        return Err(usage_error(
            "Please provide valid host:port like host1:9091,host2:9092\n",
        ));
    }
    Ok(list)
}

/// The producer properties ConsoleProducerOptions.producerProps builds
/// (ConsoleProducer.java:315-347): `--producer-property` values, then the tool's own options
/// or their defaults where no property set them (CommandLineUtils.maybeMergeOptions).
fn producer_props(opts: &jopt::Options, bootstrap: &str) -> BTreeMap<String, String> {
    let mut props = key_values(opts.values("producer-property"));
    props.insert("bootstrap.servers".into(), bootstrap.to_string());
    let merged = [
        ("linger.ms", "timeout", "1000"),
        ("acks", "request-required-acks", "-1"),
        ("request.timeout.ms", "request-timeout-ms", "1500"),
        ("retries", "message-send-max-retries", "3"),
        ("retry.backoff.ms", "retry-backoff-ms", "100"),
        ("batch.size", "batch-size", "16384"),
        ("max.block.ms", "max-block-ms", "60000"),
    ];
    for (key, opt, default) in merged {
        if let Some(v) = opts.value(opt) {
            props.insert(key.into(), v.to_string());
        } else {
            props
                .entry(key.into())
                .or_insert_with(|| default.to_string());
        }
    }
    props
}

/// LineMessageReader's settings from `--property`.
struct Reader {
    parse_key: bool,
    key_separator: String,
    null_marker: Option<String>,
    ignore_error: bool,
}

impl Reader {
    fn new(props: &BTreeMap<String, String>) -> Reader {
        Reader {
            parse_key: props
                .get("parse.key")
                .is_some_and(|v| v.trim().eq_ignore_ascii_case("true")),
            key_separator: props
                .get("key.separator")
                .cloned()
                .unwrap_or_else(|| "\t".into()),
            null_marker: props.get("null.marker").cloned(),
            ignore_error: props
                .get("ignore.error")
                .is_some_and(|v| v.trim().eq_ignore_ascii_case("true")),
        }
    }

    /// One line as a record (LineMessageReader.java:129-141), or its KafkaException.
    fn record(&self, line: &str, number: usize) -> Result<DataRecord, String> {
        let mut key = None;
        let mut value = line;
        if self.parse_key {
            match line.find(&self.key_separator) {
                Some(i) => {
                    key = Some(line[..i].to_string());
                    value = &line[i + self.key_separator.len()..];
                }
                None if self.ignore_error => {}
                None => {
                    return Err(format!(
                        "org.apache.kafka.common.KafkaException: No key separator found on line number {number}: '{line}'"
                    ))
                }
            }
        }
        let key = key.filter(|k| Some(k) != self.null_marker.as_ref());
        // A null value (null.marker) is not representable here: it is sent as the marker text.
        Ok(DataRecord {
            key,
            value: value.to_string(),
        })
    }
}

/// Run `kafka-console-producer` with `args`, reading `stdin` (`None`: the terminal).
pub fn run(world: &mut World, args: &[String], stdin: Option<&str>) -> Result<String, ToolError> {
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
    if !opts.has("topic") {
        return Err(usage_error("Missing required argument \"[topic]\""));
    }
    let bootstrap = validate_bootstrap(opts.value("bootstrap-server"))?;
    let topic = opts.value("topic").unwrap_or_default().to_string();
    let reader = Reader::new(&key_values(opts.values("property")));
    let config =
        ProducerConfig::from_props(&producer_props(&opts, bootstrap)).map_err(ToolError::new)?;
    let mut producer = Producer::new(world, config);
    let (text, prompt) = match stdin {
        Some(t) => (t, ""),
        None => ("", ">"),
    };
    let mut err = String::new();
    let mut pending: Vec<(DataRecord, i32, u64)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let record = match reader.record(line, i + 1) {
            Ok(r) => r,
            Err(e) => {
                // The reader's exception ends the tool (printStackTrace, exit 1) after the
                // records read so far are sent (the shutdown hook closes the producer).
                flush(world, &mut producer, &topic, &mut pending, &mut err);
                return Err(ToolError::new(format!("{err}{e}")).after(prompt.into()));
            }
        };
        match producer
            .wait_on_metadata(world, &topic)
            .and_then(|count| check_size(&producer, &record).map(|_| count))
        {
            Ok(count) => {
                let p = producer.partition(world, &topic, record.key.as_deref(), count);
                pending.push((record, p, world.now_ms()));
            }
            Err(e) => err.push_str(&callback_error(world, &topic, &record, &e)),
        }
    }
    flush(world, &mut producer, &topic, &mut pending, &mut err);
    Ok(format!("{prompt}{err}"))
}

/// ErrorLoggingCallback.onCompletion's ERROR line and the exception after it.
pub(crate) fn callback_error(
    world: &World,
    topic: &str,
    record: &DataRecord,
    exception: &str,
) -> String {
    let key = match &record.key {
        None => "null".to_string(),
        Some(k) => format!("{} bytes", k.len()),
    };
    let text = format!(
        "Error when sending message to topic {topic} with key: {key}, value: {} bytes with error:",
        record.value.len()
    );
    format!(
        "{}{exception}\n",
        tool_error_log_line(world, &text, CALLBACK_LOGGER)
    )
}

/// The producer's close: the records waiting in the accumulator go out, one batch per
/// partition in the order the partitions were first written, up to `batch.size` bytes each.
fn flush(
    world: &mut World,
    producer: &mut Producer,
    topic: &str,
    pending: &mut Vec<(DataRecord, i32, u64)>,
    err: &mut String,
) {
    let mut order: Vec<i32> = Vec::new();
    for (_, p, _) in pending.iter() {
        if !order.contains(p) {
            order.push(*p);
        }
    }
    let all = std::mem::take(pending);
    for p in order {
        let mut batch: Vec<DataRecord> = Vec::new();
        let mut created = 0;
        let mut bytes = 0usize;
        for (r, _, t) in all.iter().filter(|(_, q, _)| *q == p) {
            let size = serialized_size(r);
            if !batch.is_empty() && bytes + size > producer.config.batch_size {
                send(world, producer, topic, p, &batch, created, err);
                batch.clear();
                bytes = 0;
            }
            if batch.is_empty() {
                created = *t;
            }
            bytes += size;
            batch.push(r.clone());
        }
        if !batch.is_empty() {
            send(world, producer, topic, p, &batch, created, err);
        }
    }
}

/// One batch, its failure logged for each of its records.
fn send(
    world: &mut World,
    producer: &mut Producer,
    topic: &str,
    partition: i32,
    batch: &[DataRecord],
    created_ms: u64,
    err: &mut String,
) {
    if let Err(e) = producer.send_batch(world, topic, partition, batch, created_ms) {
        for r in batch {
            err.push_str(&callback_error(world, topic, r, &e));
        }
    }
}
