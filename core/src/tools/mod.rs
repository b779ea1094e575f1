//! The command-line tools a lecturer types against the simulated cluster, printing exactly what
//! the real ones print:
//!
//! - `kafka-metadata-quorum.sh --bootstrap-server localhost:9092 describe --status` and
//!   `describe --replication [--human-readable]` ([`metadata_quorum`]),
//! - `kafka-metadata-quorum.sh --bootstrap-controller localhost:9093 --command-config
//!   104/controller.properties add-controller` and `remove-controller --controller-id N
//!   --controller-directory-id D` ([`quorum_change`]),
//! - `kafka-storage.sh format --cluster-id ID --config 104/controller.properties
//!   [--standalone | --initial-controllers ... | --no-initial-controllers]` and `random-uuid`
//!   ([`storage`]),
//! - `kafka-features.sh --bootstrap-controller localhost:9093 describe | upgrade --feature
//!   kraft.version=1` ([`features`]),
//! - `kafka-topics.sh --bootstrap-server localhost:9092 --create|--describe|--delete|--list`
//!   ([`topics`]),
//! - `kafka-configs.sh --bootstrap-server localhost:9092 --alter|--describe --entity-type topics
//!   --entity-name orders [--add-config k=v,... | --delete-config k,...]` ([`configs`]),
//! - `kafka-dump-log.sh --cluster-metadata-decoder --files 101/__cluster_metadata-0/00000000000000000000.log`
//!   ([`dump_log`], with Kafka's record batch v2 encoding in [`record_batch`]),
//! - `ls`, `cat`, `grep`, `head` and `tail` over a node's disk and log files ([`shell`]),
//! - `timeout 2 kafka-metadata-quorum.sh ...`: a tool killed after a while ([`timeout`]).
//!
//! Paths start with the node id whose disk is read: `101/__cluster_metadata-0/quorum-state`,
//! `1/server.log`.
//!
//! ```
//! use kraft_core::sim::{World, WorldConfig};
//! use kraft_core::tools;
//! let mut world = World::new(WorldConfig::new(7, vec![101, 102, 103], vec![1])).unwrap();
//! world.run_for(5_000);
//! let argv: Vec<String> = ["kafka-metadata-quorum.sh", "--bootstrap-server", "localhost:9092",
//!     "describe", "--status"].iter().map(|s| s.to_string()).collect();
//! let out = tools::run(&mut world, &argv).unwrap();
//! assert!(out.starts_with("ClusterId:              "));
//! ```

pub mod argparse;
pub mod bootstrap;
pub mod client;
pub mod configs;
pub mod console_consumer;
pub mod console_producer;
pub mod dump_log;
pub mod feature_levels;
pub mod feature_update;
pub mod features;
pub mod get_offsets;
pub mod grep;
pub mod java_uuid;
pub mod jopt;
pub mod metadata_quorum;
pub mod metadata_shell;
pub mod perf_stats;
pub mod pipe;
pub mod producer;
pub mod producer_config;
pub mod producer_perf;
pub mod properties;
pub mod quorum_change;
pub mod record_batch;
pub mod shell;
pub mod storage;
pub mod timeout;
pub mod topics;

use crate::common::clock::{log4j_timestamp, to_epoch_ms};
use crate::common::message::controller::{ApiError, ControllerRequest, ControllerResponse};
use crate::sim::node::{ProcessState, Roles};
use crate::sim::World;
use std::fmt;

/// What a tool prints when it fails: what it had written to stdout before failing, the error
/// text (stderr, or for kafka-topics the stdout `Error while executing topic command : ...` line
/// followed by the logged exception; for kafka-configs `Error while executing config command
/// with args '...'` and the exception), and the exit code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolError {
    /// stdout written before the failure (e.g. `Dumping <file>`).
    pub stdout: String,
    /// The error text, ending with a newline.
    pub message: String,
    /// The process exit code (1 for most failures, 127 for an unknown command).
    pub exit_code: i32,
}

impl ToolError {
    /// An error with exit code 1 and nothing printed before it. A newline is added if missing.
    pub fn new(message: impl Into<String>) -> ToolError {
        let mut message = message.into();
        if !message.ends_with('\n') {
            message.push('\n');
        }
        ToolError {
            stdout: String::new(),
            message,
            exit_code: 1,
        }
    }

    /// The same error with exit code `code`.
    pub fn code(mut self, code: i32) -> ToolError {
        self.exit_code = code;
        self
    }

    /// The same error after `stdout` had been printed.
    pub fn after(mut self, stdout: String) -> ToolError {
        self.stdout = stdout + &self.stdout;
        self
    }

    /// Everything the terminal shows: stdout so far, then the error text.
    pub fn text(&self) -> String {
        format!("{}{}", self.stdout, self.message)
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

impl std::error::Error for ToolError {}

/// How long the admin client waits for an answer (virtual ms). Kafka's `default.api.timeout.ms`
/// is 60 s; the playground gives up after 30 s (`request.timeout.ms`) so a failed command does
/// not jump the clock a whole minute.
pub const ADMIN_TIMEOUT_MS: u64 = 30_000;

/// `retry.backoff.ms` of the admin client.
pub const ADMIN_RETRY_BACKOFF_MS: u64 = 100;

/// The tool names [`run`] knows.
pub const COMMANDS: &[&str] = &[
    "kafka-metadata-quorum.sh",
    "kafka-storage.sh",
    "kafka-features.sh",
    "kafka-topics.sh",
    "kafka-configs.sh",
    "kafka-dump-log.sh",
    "kafka-console-producer.sh",
    "kafka-console-consumer.sh",
    "kafka-get-offsets.sh",
    "kafka-producer-perf-test.sh",
    "kafka-metadata-shell.sh",
    "ls",
    "cat",
    "grep",
    "head",
    "tail",
    "timeout",
    "echo",
    "printf",
];

/// Run the tool `argv[0]` with arguments `argv[1..]` against `world`; returns its stdout.
/// The tool may run the world (the admin tools wait for the controller's answer). The `.sh`
/// suffix and a leading `bin/` or `./bin/` are optional.
pub fn run(world: &mut World, argv: &[String]) -> Result<String, ToolError> {
    run_with_stdin(world, argv, None)
}

/// [`run`] with `stdin`: the text piped into the tool (`echo "v" | kafka-console-producer.sh
/// ...`), or `None` for the terminal.
pub fn run_with_stdin(
    world: &mut World,
    argv: &[String],
    stdin: Option<&str>,
) -> Result<String, ToolError> {
    let Some(cmd) = argv.first() else {
        return Ok(String::new());
    };
    let args = &argv[1..];
    let name = cmd.rsplit('/').next().unwrap_or(cmd);
    let name = name.strip_suffix(".sh").unwrap_or(name);
    match name {
        "kafka-metadata-quorum" => metadata_quorum::run(world, args),
        "kafka-storage" => storage::run(world, args),
        "kafka-features" => features::run(world, args),
        "kafka-topics" => topics::run(world, args),
        "kafka-configs" => configs::run(world, args),
        "kafka-dump-log" => dump_log::run(world, args),
        "kafka-metadata-shell" => metadata_shell::run(world, args),
        "ls" => shell::ls(world, args),
        "cat" => shell::cat(world, args),
        "grep" => grep::grep(world, args),
        "head" => shell::head_tail(world, args, true),
        "tail" => shell::head_tail(world, args, false),
        "timeout" => timeout::run(world, args),
        "kafka-console-producer" => console_producer::run(world, args, stdin),
        "kafka-console-consumer" => console_consumer::run(world, args),
        "kafka-get-offsets" => get_offsets::run(world, args),
        "kafka-producer-perf-test" => producer_perf::run(world, args),
        "echo" | "printf" => pipe::run(argv),
        _ => Err(ToolError {
            stdout: String::new(),
            message: format!("{cmd}: command not found\n"),
            exit_code: 127,
        }),
    }
}

/// Split a command line the way a shell does (whitespace, single and double quotes, backslash),
/// for front ends that have a line of text rather than an argv.
pub fn split_command_line(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) if c == q => quote = None,
            Some('"') if c == '\\' => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            Some(_) => cur.push(c),
            None => match c {
                '\'' | '"' => {
                    quote = Some(c);
                    in_word = true;
                }
                '\\' => {
                    if let Some(n) = chars.next() {
                        cur.push(n);
                    }
                    in_word = true;
                }
                c if c.is_whitespace() => {
                    if in_word {
                        out.push(std::mem::take(&mut cur));
                        in_word = false;
                    }
                }
                c => {
                    cur.push(c);
                    in_word = true;
                }
            },
        }
    }
    if in_word {
        out.push(cur);
    }
    out
}

// ----- the admin client -----

/// Why an admin call failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AdminFailure {
    /// No request could be sent before the deadline (no active controller).
    NoNode {
        /// Kafka's call name (`createTopics`).
        call: &'static str,
    },
    /// Requests were sent but none was answered usefully before the deadline.
    TimedOut {
        /// Kafka's call name.
        call: &'static str,
        /// Absolute deadline, virtual ms.
        deadline_ms: u64,
        /// Requests sent.
        tries: u32,
        /// When the next try would have been allowed, virtual ms.
        next_allowed_ms: u64,
        /// When the call gave up, virtual ms.
        now_ms: u64,
    },
}

impl AdminFailure {
    /// A call that sent `tries` requests and gave up now: the next try would have been allowed
    /// after `backoff_ms`.
    pub(crate) fn timed_out(
        call: &'static str,
        deadline_ms: u64,
        tries: u32,
        world: &World,
        backoff_ms: u64,
    ) -> AdminFailure {
        AdminFailure::TimedOut {
            call,
            deadline_ms,
            tries,
            next_allowed_ms: world.now_ms() + backoff_ms,
            now_ms: world.now_ms(),
        }
    }

    /// The TimeoutException's message.
    pub(crate) fn message(&self) -> String {
        match self {
            AdminFailure::NoNode { call } => {
                format!("Timed out waiting for a node assignment. Call: {call}")
            }
            AdminFailure::TimedOut {
                call,
                deadline_ms,
                tries,
                next_allowed_ms,
                now_ms,
            } => format!(
                "Call(callName={call}, deadlineMs={}, tries={tries}, nextAllowedTryMs={}) timed out at {} after {tries} attempt(s)",
                to_epoch_ms(*deadline_ms),
                to_epoch_ms(*next_allowed_ms),
                to_epoch_ms(*now_ms)
            ),
        }
    }
}

/// The exception class of a timed-out admin call.
pub(crate) const TIMEOUT_EXCEPTION: &str = "org.apache.kafka.common.errors.TimeoutException";

/// Whether a response means "ask the new active controller", as the AdminClient retries.
fn is_retriable(r: &ControllerResponse) -> bool {
    match r {
        ControllerResponse::Failed { .. } => true,
        ControllerResponse::CreateTopics { error, .. }
        | ControllerResponse::DeleteTopics { error, .. }
        | ControllerResponse::IncrementalAlterConfigs { error, .. } => {
            matches!(error, Some(ApiError::NotController))
        }
        _ => false,
    }
}

/// Wait (running the world) until a controller is active; returns it, or None at `deadline_ms`.
pub(crate) fn wait_for_active_controller(world: &mut World, deadline_ms: u64) -> Option<i32> {
    if let Some(c) = world.active_controller() {
        return Some(c);
    }
    let left = deadline_ms.saturating_sub(world.now_ms());
    if left == 0 {
        return None;
    }
    world.run_until(left, |w| w.active_controller().is_some());
    world.active_controller()
}

/// Send `request` from the admin client to the active controller and run the world until the
/// answer, retrying against the new active controller on NOT_CONTROLLER or a lost connection.
pub(crate) fn admin_call(
    world: &mut World,
    call: &'static str,
    request: &ControllerRequest,
) -> Result<ControllerResponse, AdminFailure> {
    let deadline = world.now_ms() + ADMIN_TIMEOUT_MS;
    let mut tries = 0u32;
    loop {
        let Some(target) = wait_for_active_controller(world, deadline) else {
            return Err(if tries == 0 {
                AdminFailure::NoNode { call }
            } else {
                AdminFailure::timed_out(call, deadline, tries, world, 0)
            });
        };
        let Ok(cid) = world.admin_send(target, request.clone()) else {
            return Err(AdminFailure::NoNode { call });
        };
        tries += 1;
        let left = deadline.saturating_sub(world.now_ms());
        world.run_until(left, |w| w.admin_response(cid).is_some());
        let Some(resp) = world.admin_response(cid).cloned() else {
            return Err(AdminFailure::timed_out(
                call,
                deadline,
                tries,
                world,
                ADMIN_RETRY_BACKOFF_MS,
            ));
        };
        if !is_retriable(&resp) {
            return Ok(resp);
        }
        if world.now_ms() + ADMIN_RETRY_BACKOFF_MS >= deadline {
            world.run_for(deadline.saturating_sub(world.now_ms()));
            return Err(AdminFailure::timed_out(
                call,
                deadline,
                tries,
                world,
                ADMIN_RETRY_BACKOFF_MS,
            ));
        }
        world.run_for(ADMIN_RETRY_BACKOFF_MS);
    }
}

/// A `host:port` list given to `--bootstrap-server` / `--bootstrap-controller`: whether some
/// running node listens on one of its ports (a controller on its CONTROLLER port, a broker on
/// its PLAINTEXT port).
pub(crate) fn bootstrap_reachable(world: &World, list: &str, controller: bool) -> bool {
    client::ports(list).into_iter().any(|port| {
        world.nodes().any(|n| {
            n.process == ProcessState::Running
                && if controller {
                    n.roles.has_controller() && n.controller_port == port
                } else {
                    n.roles != Roles::Controller && n.broker_port == port
                }
        })
    })
}

/// log4j's ERROR line of a tool (`[time] ERROR <text> (<logger>)`) at the world's time.
pub(crate) fn tool_error_log_line(world: &World, text: &str, logger: &str) -> String {
    format!(
        "[{}] ERROR {text} ({logger})\n",
        log4j_timestamp(world.now_ms())
    )
}

/// Parse a `<node>/<path>` argument: the node id and the path on its disk (may be empty).
pub(crate) fn split_node_path(arg: &str) -> Option<(i32, String)> {
    let arg = arg.strip_prefix("./").unwrap_or(arg);
    let (node, rest) = match arg.split_once('/') {
        Some((n, r)) => (n, r),
        None => (arg, ""),
    };
    let id: i32 = node.parse().ok()?;
    Some((id, rest.trim_matches('/').to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(
            split_command_line(r#"grep -c "Replayed TopicRecord" 101/controller.log"#),
            vec!["grep", "-c", "Replayed TopicRecord", "101/controller.log"]
        );
        assert_eq!(
            split_command_line("  a  'b c' d\\ e"),
            vec!["a", "b c", "d e"]
        );
        assert_eq!(split_command_line("x ''"), vec!["x", ""]);
    }

    #[test]
    fn node_paths() {
        assert_eq!(
            split_node_path("101/__cluster_metadata-0/"),
            Some((101, "__cluster_metadata-0".to_string()))
        );
        assert_eq!(split_node_path("1"), Some((1, String::new())));
        assert_eq!(split_node_path("x/y"), None);
    }
}
