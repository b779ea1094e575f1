//! The integration tests' shared harness: building a world, running it with the invariants
//! checked after every event, and reading a node's state, log lines, metadata records and
//! Kafka's tools. Each test file says `mod common;` (a folder module, so that cargo does not
//! build it as a test of its own) and uses the part it needs.
//!
//! Every failure prints its seed: the run helpers name it in their own panics, and the first
//! world a test builds here installs a panic hook that, after the usual message, prints the seed
//! of the last world built on the failing test's thread.
//!
//! Reads go through the engine's own methods (`RaftClient::state().name()`, the node's log
//! lines, the metadata log's batches), not through the page's view structs.

// Each test binary compiles this module and uses only a part of it.
#![allow(dead_code)]

use std::cell::Cell;
use std::sync::Once;

use kraft_core::common::message::controller::{
    ControllerRequest, ControllerResponse, CreatableTopic,
};
use kraft_core::common::node_log::LogLine;
use kraft_core::common::uuid::Uuid;
use kraft_core::controller::quorum_controller::ControllerState;
use kraft_core::invariants::InvariantChecker;
use kraft_core::metadata::MetadataRecord;
use kraft_core::raft::batch::Record;
use kraft_core::sim::{World, WorldConfig};
use kraft_core::tools::{self, ToolError};

// ----- worlds, and the seed a failure prints -----

thread_local! {
    /// The seed of the last world built on this thread (each test runs on its own thread).
    static SEED: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Installs, once per test binary, the panic hook that prints the failing test's seed.
static SEED_HOOK: Once = Once::new();

/// Remembers `seed` as this test's, for the panic hook to print if the test fails.
pub fn remember_seed(seed: u64) {
    SEED_HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            default(info);
            if let Some(seed) = SEED.with(Cell::get) {
                eprintln!("seed {seed} (the last world this test built)");
            }
        }));
    });
    SEED.with(|s| s.set(Some(seed)));
}

/// A world built from `config`, its seed remembered for a failure to print.
pub fn world_from(config: WorldConfig) -> World {
    remember_seed(config.seed);
    World::new(config).expect("world")
}

/// A whole cluster: controllers (QuorumController on top of Raft) and brokers.
pub fn world(seed: u64, controllers: &[i32], brokers: &[i32]) -> World {
    world_from(WorldConfig::new(
        seed,
        controllers.to_vec(),
        brokers.to_vec(),
    ))
}

/// A Raft-only world (no QuorumController appending records), as RaftEventSimulationTest.
pub fn raft_world(seed: u64, controllers: &[i32], brokers: &[i32]) -> World {
    let mut config = WorldConfig::new(seed, controllers.to_vec(), brokers.to_vec());
    config.run_controllers = false;
    world_from(config)
}

/// Example 2's cluster: controllers 101, 102, 103 and broker 1, seed 7, run 10 s.
pub fn example2() -> World {
    let mut w = world(7, &[101, 102, 103], &[1]);
    w.run_for(10_000);
    w
}

/// Example 4's cluster: controller 100 and brokers 1, 2, 3, seed 7, run 10 s.
pub fn example4() -> World {
    let mut w = world(7, &[100], &[1, 2, 3]);
    w.run_for(10_000);
    w
}

// ----- running with the invariants checked -----

/// Checks the invariants after an event; a violation fails the test with its seed.
fn checked(w: &World, checker: &mut InvariantChecker) {
    if let Err(e) = checker.check(w) {
        panic!("seed {}: {e}", w.config().seed);
    }
}

/// Run `ms`, checking invariants after every event.
pub fn run_checked(w: &mut World, checker: &mut InvariantChecker, ms: u64) {
    let end = w.now_ms() + ms;
    while w.next_event_time().is_some_and(|t| t <= end) {
        w.step();
        checked(w, checker);
    }
}

/// Run `ms` of events, checking invariants after each; returns what each event was.
pub fn run_traced(w: &mut World, checker: &mut InvariantChecker, ms: u64) -> Vec<String> {
    let end = w.now_ms() + ms;
    let mut trace = Vec::new();
    while w.next_event_time().is_some_and(|t| t <= end) {
        trace.extend(w.step_described());
        checked(w, checker);
    }
    trace
}

/// Run until `pred` holds (checked after every event), at most `ms`; whether it held.
pub fn run_until(
    w: &mut World,
    checker: &mut InvariantChecker,
    ms: u64,
    mut pred: impl FnMut(&World) -> bool,
) -> bool {
    let end = w.now_ms() + ms;
    while w.next_event_time().is_some_and(|t| t <= end) {
        w.step();
        checked(w, checker);
        if pred(w) {
            return true;
        }
    }
    false
}

// ----- a node's Raft state -----

/// Node `id`'s Raft state name and epoch (it must be running).
pub fn state(w: &World, id: i32) -> (String, i32) {
    let r = w.node(id).unwrap().raft.as_ref().expect("running");
    (r.state().name().to_string(), r.quorum.epoch())
}

/// Node `id`'s Raft state name, epoch and the leader it knows (it must be running).
pub fn state_and_leader(w: &World, id: i32) -> (String, i32, Option<i32>) {
    let r = w.node(id).unwrap().raft.as_ref().expect("running");
    (
        r.state().name().to_string(),
        r.quorum.epoch(),
        r.state().leader_id(),
    )
}

/// Node `id`'s high watermark, if it runs and knows one.
pub fn hw(w: &World, id: i32) -> Option<i64> {
    w.node(id)?.raft.as_ref()?.high_watermark()
}

/// `n` NoOp records, to append to the leader.
pub fn noop(n: usize) -> Vec<Record> {
    vec![Record::Metadata(MetadataRecord::NoOp); n]
}

// ----- a node's log lines -----

/// Node `id`'s log lines (server.log, controller.log, ...), in order.
pub fn log_lines(w: &World, id: i32) -> Vec<LogLine> {
    w.node(id).unwrap().log.lines().cloned().collect()
}

/// Node `id`'s log lines as the log files print them.
pub fn lines(w: &World, id: i32) -> Vec<String> {
    w.node(id)
        .unwrap()
        .log
        .lines()
        .map(|l| l.to_string())
        .collect()
}

/// Node `id`'s log lines as printed, one text.
pub fn log_text(w: &World, id: i32) -> String {
    lines(w, id).join("\n")
}

/// Node `id`'s log lines (as printed) whose message contains `pat`.
pub fn lines_containing(w: &World, id: i32, pat: &str) -> Vec<String> {
    w.node(id)
        .unwrap()
        .log
        .lines()
        .filter(|l| l.message.contains(pat))
        .map(|l| l.to_string())
        .collect()
}

/// The messages of node `id`'s log lines (without time, level and logger), one text.
pub fn messages_text(w: &World, id: i32) -> String {
    w.node(id)
        .unwrap()
        .log
        .lines()
        .map(|l| l.message.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The messages logged by `logger` on node `id`.
pub fn messages(w: &World, id: i32, logger: &str) -> Vec<String> {
    log_lines(w, id)
        .into_iter()
        .filter(|l| l.logger == logger)
        .map(|l| l.message)
        .collect()
}

/// The messages of node `id`'s controller.log.
pub fn controller_lines(w: &World, id: i32) -> Vec<String> {
    w.node(id)
        .unwrap()
        .log
        .lines()
        .filter(|l| l.file.name() == "controller.log")
        .map(|l| l.message.clone())
        .collect()
}

/// The broker's lifecycle lines (BrokerLifecycleManager).
pub fn lifecycle_lines(w: &World, id: i32) -> Vec<String> {
    messages(w, id, "org.apache.kafka.server.BrokerLifecycleManager")
}

// ----- the metadata log and the controller -----

/// Every metadata record on node `id`'s log: (offset, JSON).
pub fn records(w: &World, id: i32) -> Vec<(i64, String)> {
    let log = &w.node(id).unwrap().disk.metadata_log;
    let mut out = Vec::new();
    for b in log.batches() {
        for (i, r) in b.records.iter().enumerate() {
            if let Record::Metadata(m) = r {
                out.push((b.base_offset + i as i64, m.to_json()));
            }
        }
    }
    out
}

/// Every record on node `id`'s metadata log, control records included: (offset, short name).
pub fn metadata_types(w: &World, id: i32) -> Vec<(i64, &'static str)> {
    let log = &w.node(id).unwrap().disk.metadata_log;
    let mut out = Vec::new();
    for b in log.batches() {
        for (i, r) in b.records.iter().enumerate() {
            out.push((b.base_offset + i as i64, r.short_name()));
        }
    }
    out
}

/// Controller `id`'s in-memory state: its control managers' TimelineHashMaps.
pub fn controller_state(w: &World, id: i32) -> &ControllerState {
    &w.node(id).unwrap().controller.as_ref().unwrap().state
}

/// Controller `id`'s in-memory state, summarised.
pub fn controller_summary(w: &World, id: i32) -> String {
    controller_state(w, id).summary()
}

/// A CreateTopics entry without configs.
pub fn topic(name: &str, partitions: i32, rf: i16) -> CreatableTopic {
    CreatableTopic {
        name: name.into(),
        num_partitions: partitions,
        replication_factor: rf,
        configs: Vec::new(),
    }
}

/// Send from the admin client and run until the answer arrives.
pub fn admin(
    w: &mut World,
    c: &mut InvariantChecker,
    to: i32,
    req: ControllerRequest,
) -> ControllerResponse {
    let cid = w.admin_send(to, req).unwrap();
    for _ in 0..200 {
        run_checked(w, c, 50);
        if let Some(r) = w.admin_response(cid) {
            return r.clone();
        }
    }
    panic!("no response to admin request {cid}");
}

/// Create one topic through controller `to` with [`admin`]; the new topic's id.
pub fn create_topic_on(
    w: &mut World,
    c: &mut InvariantChecker,
    to: i32,
    name: &str,
    partitions: i32,
    rf: i16,
) -> Uuid {
    let r = admin(
        w,
        c,
        to,
        ControllerRequest::CreateTopics {
            topics: vec![topic(name, partitions, rf)],
        },
    );
    let ControllerResponse::CreateTopics { topics, .. } = r else {
        panic!("{r:?}")
    };
    topics[0].topic_id
}

// ----- Kafka's tools -----

/// Runs one of Kafka's tools (or `ls`, `cat`, ...) against the world.
pub fn tool_result(w: &mut World, line: &str) -> Result<String, ToolError> {
    if let Some(r) = tools::pipe::run_line(w, line) {
        return r;
    }
    tools::run(w, &tools::split_command_line(line))
}

/// What a tool printed; fails the test if the tool failed.
pub fn tool(w: &mut World, line: &str) -> String {
    match tool_result(w, line) {
        Ok(s) => s,
        Err(e) => panic!("`{line}` failed:\n{e}"),
    }
}

/// A tool's error; fails the test if the tool succeeded.
pub fn tool_err(w: &mut World, line: &str) -> ToolError {
    match tool_result(w, line) {
        Ok(s) => panic!("`{line}` should fail, printed:\n{s}"),
        Err(e) => e,
    }
}
