//! `kafka-producer-perf-test.sh --topic T --num-records N --record-size B --throughput R
//! --producer-props bootstrap.servers=localhost:9092 acks=all` (ProducerPerformance.java at
//! apache/kafka 1eb7644): N records of B random upper-case letters (SplittableRandom(0),
//! :76,158) sent at R records per second of virtual time, batched per partition by
//! `linger.ms` and `batch.size`; a progress line every 5 s (Stats.printWindow, :410) and the
//! summary with percentiles (Stats.printTotal, :431), latencies measured in virtual ms from
//! `send` to the produce response.
//!
//! Deviations: records leave exactly on the throughput's schedule (ThroughputThrottler sleeps
//! in steps); a failed batch is not retried here (PerfCallback prints its exception).

use super::argparse::{self, Opt, Parsed, Parser};
use super::client;
use super::perf_stats::{SplittableRandom, Stats};
use super::producer::{producer_stamp, serialized_size, Producer};
use super::producer_config::{key_values, ProducerConfig};
use super::ToolError;
use crate::broker::messages::{DataRequest, DataResponse, ProduceRequest};
use crate::common::protocol::Errors;
use crate::raft::batch::{DataRecord, Record, RecordBatch};
use crate::sim::World;

/// The parser (ProducerPerformance.argParser, :210-330).
const PARSER: Parser = Parser {
    prog: "producer-performance",
    opts: &[
        Opt::store(&["--topic"]).required(),
        Opt::store(&["--num-records"]).required(),
        Opt::store(&["--record-size"]).in_group(1),
        Opt::store(&["--payload-file"]).in_group(1),
        Opt::flag(&["--payload-monotonic"]).in_group(1),
        Opt::store(&["--payload-delimiter"]),
        Opt::store(&["--throughput"]).required(),
        Opt::store(&["--producer-props"]).append(),
        Opt::store(&["--producer.config"]),
        Opt::flag(&["--print-metrics"]),
        Opt::store(&["--transactional-id"]),
        Opt::store(&["--transaction-duration-ms"]),
    ],
    subcommands: None,
};

/// `--producer-props a=1 b=2` (nargs "+") as `--producer-props a=1 --producer-props b=2`.
fn expand_props(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_props = false;
    for a in args {
        if a.starts_with("--") {
            in_props = a == "--producer-props";
            if in_props {
                continue;
            }
        } else if in_props {
            out.push("--producer-props".to_string());
        }
        out.push(a.clone());
    }
    out
}

/// argparse4j's conversion error.
fn convert<T: std::str::FromStr>(flag: &str, v: &str, java: &str) -> Result<T, ToolError> {
    v.trim().parse::<T>().map_err(|_| {
        argparse::error(
            &PARSER,
            &format!(
                "argument {flag}: could not convert '{v}' to {java} (For input string: \"{v}\")"
            ),
        )
    })
}

/// The options ConfigPostProcessor checks (:492-520).
struct Config {
    topic: String,
    num_records: i64,
    record_size: usize,
    throughput: f64,
    producer: ProducerConfig,
}

fn config(args: &[String]) -> Result<Config, ToolError> {
    let ns = match argparse::parse_raw(&PARSER, &expand_props(args)) {
        Ok(Parsed::Args(ns)) => ns,
        Ok(Parsed::Help) => return Err(ToolError::new(argparse::usage(&PARSER)).code(0)),
        Err(e) => return Err(argparse::error(&PARSER, &e.message)),
    };
    let fail = |m: &str| Err(argparse::error(&PARSER, m));
    let num_records: i64 = convert(
        "--num-records",
        ns.get("--num-records").unwrap_or(""),
        "Long",
    )?;
    let throughput: f64 = convert(
        "--throughput",
        ns.get("--throughput").unwrap_or(""),
        "Double",
    )?;
    let record_size: Option<i32> = match ns.get("--record-size") {
        Some(v) => Some(convert("--record-size", v, "Integer")?),
        None => None,
    };
    if num_records <= 0 {
        return fail("--num-records should be greater than zero");
    }
    if record_size.is_some_and(|r| r <= 0) {
        return fail("--record-size should be greater than zero");
    }
    if !ns.has("--producer-props") && !ns.has("--producer.config") {
        return fail("Either --producer-props or --producer.config must be specified.");
    }
    let Some(record_size) = record_size else {
        return Err(ToolError::new("kafka-producer-perf-test without --record-size (--payload-file, --payload-monotonic) is not simulated by the KRaft Playground."));
    };
    if throughput == 0.0 || throughput.is_nan() {
        return Err(ToolError::new("kafka-producer-perf-test --throughput 0 would wait forever after the first record (ThroughputThrottler); the KRaft Playground refuses it."));
    }
    let producer = ProducerConfig::from_props(&key_values(ns.all("--producer-props")))
        .map_err(ToolError::new)?;
    Ok(Config {
        topic: ns.get("--topic").unwrap_or_default().to_string(),
        num_records,
        record_size: record_size as usize,
        throughput,
        producer,
    })
}

/// Run `kafka-producer-perf-test` with `args`.
pub fn run(world: &mut World, args: &[String]) -> Result<String, ToolError> {
    if args.is_empty() {
        return Err(ToolError::new(argparse::usage(&PARSER)).code(0));
    }
    let c = config(args)?;
    let mut producer = Producer::new(world, c.producer.clone());
    let mut stats = Stats::new(c.num_records, world.now_ms());
    let count = match producer.wait_on_metadata(world, &c.topic) {
        Ok(n) => n,
        Err(e) => return Err(ToolError::new(e).after(String::new())),
    };
    let mut run = Run {
        c: &c,
        producer: &mut producer,
        stats: &mut stats,
        open: Vec::new(),
        inflight: Vec::new(),
        err: String::new(),
        count,
    };
    run.go(world);
    let err = std::mem::take(&mut run.err);
    stats.print_total(world.now_ms());
    Ok(stats.out.clone() + &err)
}

/// A batch being filled: its partition, records, their send times, its bytes.
struct Open {
    partition: i32,
    records: Vec<DataRecord>,
    sent: Vec<u64>,
    bytes: usize,
}

/// A batch sent and not answered: its correlation id, records' send times, send time.
struct InFlight {
    cid: u64,
    sent: Vec<u64>,
    bytes: usize,
    at: u64,
}

struct Run<'a> {
    c: &'a Config,
    producer: &'a mut Producer,
    stats: &'a mut Stats,
    open: Vec<Open>,
    inflight: Vec<InFlight>,
    err: String,
    count: i32,
}

impl Run<'_> {
    /// When record `i` is sent.
    fn send_time(&self, start: u64, i: i64) -> u64 {
        if self.c.throughput < 0.0 {
            start
        } else {
            start + (i as f64 * 1000.0 / self.c.throughput) as u64
        }
    }

    fn go(&mut self, world: &mut World) {
        let start = world.now_ms();
        let mut random = SplittableRandom::new(0);
        let mut next = 0i64;
        while (next < self.c.num_records || !self.open.is_empty() || !self.inflight.is_empty())
            && !world.tool_killed()
        {
            while next < self.c.num_records && self.send_time(start, next) <= world.now_ms() {
                let value: String = (0..self.c.record_size)
                    .map(|_| (b'A' + random.next_int(26) as u8) as char)
                    .collect();
                self.append(world, DataRecord { key: None, value });
                next += 1;
            }
            self.send_ready(world, next >= self.c.num_records);
            let mut wake = u64::MAX;
            if next < self.c.num_records {
                wake = wake.min(self.send_time(start, next));
            }
            if let Some(o) = self.open.first().and_then(|o| o.sent.first()) {
                wake = wake.min(o + self.producer.config.linger_ms);
            }
            for f in &self.inflight {
                wake = wake.min(f.at + self.producer.config.request_timeout_ms);
            }
            if wake == u64::MAX {
                // Nothing left to send or wait for (the last record failed before sending).
                break;
            }
            let wait = wake.saturating_sub(world.now_ms()).max(1);
            let cids: Vec<u64> = self.inflight.iter().map(|f| f.cid).collect();
            world.run_until(wait, |w| {
                cids.iter().any(|c| w.client_response(*c).is_some())
            });
            self.complete(world);
        }
    }

    /// A record into its partition's open batch; a full batch is sent and the sticky
    /// partition moves on (BuiltInPartitioner.updatePartitionInfo).
    fn append(&mut self, world: &mut World, r: DataRecord) {
        // KafkaProducer.send fails a record over max.request.size at once; the callback
        // prints its exception (ProducerPerformance's PerfCallback).
        if let Err(e) = super::producer::check_size(self.producer, &r) {
            self.err.push_str(&format!("{e}\n"));
            return;
        }
        let p = self
            .producer
            .partition(world, &self.c.topic, None, self.count);
        let size = serialized_size(&r);
        let now = world.now_ms();
        if let Some(i) = self.open.iter().position(|o| o.partition == p) {
            let o = &mut self.open[i];
            if o.bytes + size <= self.producer.config.batch_size {
                o.records.push(r);
                o.sent.push(now);
                o.bytes += size;
                return;
            }
            let full = self.open.remove(i);
            self.send(world, full);
            self.producer.unstick(&self.c.topic);
        }
        let p = self
            .producer
            .partition(world, &self.c.topic, None, self.count);
        self.open.push(Open {
            partition: p,
            records: vec![r],
            sent: vec![now],
            bytes: size,
        });
    }

    /// Send the batches that lingered long enough, or (at the end) all of them.
    fn send_ready(&mut self, world: &mut World, all: bool) {
        let linger = self.producer.config.linger_ms;
        let now = world.now_ms();
        let (ready, keep): (Vec<Open>, Vec<Open>) = std::mem::take(&mut self.open)
            .into_iter()
            .partition(|o| all || o.sent[0] + linger <= now);
        self.open = keep;
        for o in ready {
            self.send(world, o);
        }
    }

    fn send(&mut self, world: &mut World, o: Open) {
        let meta = self.producer.leader_of(&self.c.topic, o.partition);
        let Some((leader, id)) = meta else {
            self.err.push_str(&format!(
                "{}\n",
                client::exception(Errors::LeaderNotAvailable, None)
            ));
            return;
        };
        let batch = RecordBatch::from_producer(
            o.records.into_iter().map(Record::Data).collect(),
            o.sent[0],
            producer_stamp(),
        );
        let request = DataRequest::Produce(ProduceRequest {
            acks: self.producer.config.acks,
            timeout_ms: self.producer.config.request_timeout_ms,
            partition: (id, o.partition),
            topic: self.c.topic.clone(),
            batch,
        });
        let bytes = self.c.record_size;
        match world.client_send(leader, request) {
            Ok(cid) if self.producer.config.acks == 0 => {
                let now = world.now_ms();
                for s in o.sent {
                    self.stats.record(now.saturating_sub(s), bytes, now);
                }
                let _ = cid;
            }
            Ok(cid) => self.inflight.push(InFlight { cid, sent: o.sent, bytes, at: world.now_ms() }),
            Err(_) => self.err.push_str(&format!("org.apache.kafka.common.errors.NetworkException: Disconnected from node {leader}\n")),
        }
    }

    /// Record the answered batches' latencies; fail the timed-out ones.
    fn complete(&mut self, world: &mut World) {
        let now = world.now_ms();
        let timeout = self.producer.config.request_timeout_ms;
        let mut keep = Vec::new();
        for f in std::mem::take(&mut self.inflight) {
            match world.client_response(f.cid) {
                Some(DataResponse::Produce(r)) if r.error == Errors::None => {
                    for s in &f.sent {
                        self.stats.record(now.saturating_sub(*s), f.bytes, now);
                    }
                }
                Some(DataResponse::Produce(r)) => {
                    let e = client::exception(r.error, r.error_message.as_deref());
                    self.err.push_str(&format!("{e}\n"));
                }
                Some(_) => self.err.push_str("org.apache.kafka.common.errors.NetworkException: The server disconnected before a response was received.\n"),
                None if now >= f.at + timeout => self.err.push_str("org.apache.kafka.common.errors.NetworkException: Disconnected from node due to timeout\n"),
                None => keep.push(f),
            }
        }
        self.inflight = keep;
    }
}
