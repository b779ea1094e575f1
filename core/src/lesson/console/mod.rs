//! The console language: one parser for lessons, the page's console and the CLI. Commands
//! drive the simulated cluster (`cluster`, `run`, `kill -9`, `partition`, ...) or run Kafka's
//! tools against it (`kafka-metadata-quorum.sh ...`).
//!
//! As etcd's rafttest splits its `interaction_env_handler_*.go`, this module holds the console's
//! state, [`Console::exec`] and [`Console::begin`] and a table from command name to handler; each
//! family of commands has its own file:
//!
//! - `cluster.rs`: `cluster`, `set`, `add-broker`, `add-node`
//! - `faults.rs`: `kill`, `start`, `slow`, `partition`, `heal`, `drop`
//! - `time.rs`: `step`, `tick`, `sleep`, `run`
//! - `inspect.rs`: `status`, `invariants`, `mark`, `transitions`, `records`, `record-types`, `controller`,
//!   `expect`
//! - `timeline.rs`: `timeline`
//! - `tools.rs`: any other name, run as one of Kafka's tools (`kafka-topics.sh`, `ls`, ...)

mod cluster;
mod faults;
mod inspect;
#[cfg(test)]
mod tests;
mod time;
mod timeline;
mod tools;

use crate::sim::World;
use crate::timeline::Revert;
use crate::timeline::{SnapshotRegistry, TimelineHashMap};

use super::wait::{Budget, Wait};
use std::collections::BTreeMap;

/// The console's state: the world (once `cluster` ran) and the settings for the next one.
#[derive(Clone, Debug)]
pub struct Console {
    /// The simulated cluster.
    pub world: Option<World>,
    settings: BTreeMap<String, i64>,
    /// The rule switches `set rule.NAME=...` gave (issue 18), for the next `cluster`.
    rules: crate::common::rules::Rules,
    marks: BTreeMap<String, u64>,
    /// How much virtual time one `tick` is.
    pub tick_ms: u64,
    /// `command.max.ms`: the most virtual time one command may run.
    pub max_command_ms: u64,
    /// `command.max.events`: the most events one command may run.
    pub max_command_events: u64,
    /// A standalone SnapshotRegistry and TimelineHashMap for the `timeline` commands
    /// (the article's example 3).
    pub timeline: (SnapshotRegistry, TimelineHashMap<String, String>),
    /// The last `timeline revert`, for the page's TimelineHashMap panel.
    timeline_last_revert: Option<Revert>,
    /// What the `timeline` commands did, for the page's timeline figure (read-only bookkeeping).
    timeline_history: crate::view::timeline::TimelineHistory,
}

impl Default for Console {
    fn default() -> Self {
        Console {
            world: None,
            settings: BTreeMap::new(),
            rules: Default::default(),
            marks: BTreeMap::new(),
            tick_ms: 100,
            max_command_ms: super::settings::DEFAULT_COMMAND_MAX_MS,
            max_command_events: super::settings::DEFAULT_COMMAND_MAX_EVENTS,
            timeline: (SnapshotRegistry::new(), TimelineHashMap::new()),
            timeline_last_revert: None,
            timeline_history: Default::default(),
        }
    }
}

/// A command line begun by [`Console::begin`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Begun {
    /// It ran: its output, or its error.
    Done(Result<String, String>),
    /// A wait, to be run by [`Wait::advance`] or [`Wait::finish`] on the console's world.
    Wait(Wait),
}

/// The longest `slow` pause: a week.
pub const MAX_SLOW_MS: u64 = 7 * 24 * 3_600_000;

/// The names of every console command (Kafka's tools aside: [`crate::tools::COMMANDS`]), in
/// the order `help` lists them.
pub fn command_names() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().map(|(name, _)| *name)
}

/// The most events one `step` runs (it prints a line for each).
pub const MAX_STEP_EVENTS: u64 = 100_000;

/// What `help` prints: every console command with what it does.
pub const HELP: &str = "\
cluster controllers=101,102,103 brokers=1 seed=7   start a cluster (combined=104: a broker+controller voter;
                              quorum=initial-controllers|standalone|static: how the controllers are formatted)
set KEY=VALUE                 a setting, before `cluster` (e.g. broker.session.timeout.ms=9000); `help set` lists them
set rule.NAME=off|on          switch one of KRaft's rules off to see what breaks (e.g. rule.durable-vote=off)
invariants                    every invariant by name: holds, or its first violation (event, time, nodes)
step [N]                      run the next N events, each described
tick [N]                      run N ticks of tick.ms (100 ms) of virtual time
sleep 15s | run 2s            let virtual time pass
run until=leader [timeout=10s]   also leader-changed, leader=N, epoch=N, active-controller, fenced=N, unfenced=N
kill -9|-STOP|-CONT|-TERM N   kill, freeze, thaw or stop a node cleanly
start N                       start a killed node again
add-broker N                  a new, empty broker
add-node N controller|broker|combined   a new machine: N/controller.properties, not formatted or started
kafka-storage.sh format --cluster-id ID --config N/controller.properties --standalone|--initial-controllers ..|--no-initial-controllers
kafka-metadata-quorum.sh --bootstrap-controller localhost:9093 --command-config N/controller.properties add-controller
kafka-metadata-quorum.sh ... remove-controller --controller-id N --controller-directory-id D
kafka-features.sh --bootstrap-controller localhost:9093 describe | upgrade --feature kraft.version=1
slow N 3s                     the node's event loop stalls for a while
partition 101 | 102,103       cut the network into groups (adds to earlier cuts); `heal` mends all
drop from=N to=N kind=FetchRequest | drop rate=0.1   lose messages
status                        every node: role, state, epoch, leader, LEO, HW
mark NAME / transitions N [after=NAME]   a node's Raft transitions since a mark
records N [since=NAME] [control] / record-types N / controller N   the metadata log and the controller
expect leader=102 epoch=2 state(103)=Follower fenced(1)=no   check facts
timeline put|remove|snapshot|get|delete-up-to|revert|print   a TimelineHashMap (example 3)
kafka-metadata-quorum.sh, kafka-storage.sh, kafka-features.sh, kafka-topics.sh, kafka-configs.sh,
kafka-dump-log.sh, kafka-metadata-shell.sh
echo \"v\" | kafka-console-producer.sh --bootstrap-server localhost:9092 --topic orders   produce one record a line
kafka-console-consumer.sh, kafka-get-offsets.sh, kafka-producer-perf-test.sh   the data-plane clients
ls, cat, grep, head, tail     over a node's files: 101/server.log, 101/__cluster_metadata-0/quorum-state
timeout 1 TOOL ...            kill a tool that waits after 1 s (a voter change it sent stays pending)
help                          this list";

/// What `help set` prints: every setting with its range and what it changes.
pub fn settings_help() -> String {
    super::settings::SETTINGS
        .iter()
        .map(|s| {
            let range = match (s.min, s.max) {
                _ if s.kind == super::settings::Kind::Boolean => "true|false".to_string(),
                (i64::MIN, i64::MAX) => "any".to_string(),
                (min, max) if max == i64::from(i32::MAX) || max == i64::MAX => format!("{min}.."),
                (min, max) => format!("{min}..={max}"),
            };
            format!("{:<50} {:<14} {}", s.name, range, s.doc)
        })
        .chain(crate::common::rules::Rule::ALL.iter().map(|r| {
            let when = match r.switchable() {
                crate::common::rules::Switchable::Anytime => "on|off",
                crate::common::rules::Switchable::BeforeCluster => "on|off, before cluster",
            };
            format!(
                "{:<50} {:<14} removes {}",
                format!("rule.{}", r.name()),
                when,
                r.kafka_code()
            )
        }))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Split a command line into words; `"..."` keeps spaces.
pub fn split_words(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut has = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                has = true;
            }
            c if c.is_whitespace() && !quoted => {
                if has {
                    out.push(std::mem::take(&mut cur));
                    has = false;
                }
            }
            c => {
                cur.push(c);
                has = true;
            }
        }
    }
    if quoted {
        return Err("unterminated quote".into());
    }
    if has {
        out.push(cur);
    }
    Ok(out)
}

/// `key=value` words as pairs; an error names the first word without `=`.
fn key_values(args: &[String]) -> Result<Vec<(String, String)>, String> {
    args.iter()
        .map(|a| {
            a.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| format!("'{a}' should be key=value"))
        })
        .collect()
}

impl Console {
    /// A console with no cluster yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The world, or an error saying to start one with `cluster`.
    fn world(&mut self) -> Result<&mut World, String> {
        self.world.as_mut().ok_or_else(|| {
            "no cluster yet: start one with `cluster controllers=101,102,103 brokers=1 seed=7`"
                .to_string()
        })
    }

    /// `text` as the id of a node in the world, or an error listing the nodes.
    fn node_id(&mut self, text: &str) -> Result<i32, String> {
        let id: i32 = text
            .parse()
            .map_err(|_| format!("'{text}' is not a node id"))?;
        let w = self.world()?;
        if w.node(id).is_none() {
            let ids: Vec<String> = w.node_ids().iter().map(|i| i.to_string()).collect();
            return Err(format!(
                "no node {id} in the cluster (nodes: {})",
                ids.join(", ")
            ));
        }
        Ok(id)
    }

    /// Begins one command line: a wait (`sleep`, `run`) is given back to be run, in one go or
    /// in pieces ([`Wait::advance`]); any other command runs at once.
    pub fn begin(&mut self, line: &str) -> Begun {
        let words = match split_words(line) {
            Ok(w) => w,
            Err(e) => return Begun::Done(Err(e)),
        };
        if matches!(words.first().map(String::as_str), Some("sleep" | "run")) {
            let budget = self.budget();
            let begun = self
                .world()
                .and_then(|w| Wait::parse(line, &words, w, budget))
                .map(|w| w.expect("sleep and run are waits"));
            return match begun {
                Ok(wait) => Begun::Wait(wait),
                Err(e) => Begun::Done(Err(e)),
            };
        }
        Begun::Done(self.exec(line))
    }

    /// What one command may run at most (`command.max.ms`, `command.max.events`).
    pub fn budget(&self) -> Budget {
        Budget {
            max_ms: self.max_command_ms,
            max_events: self.max_command_events,
        }
    }

    /// Run one command line within its budget ([`Console::budget`]); the text it prints, or the
    /// error it reports.
    pub fn exec(&mut self, line: &str) -> Result<String, String> {
        let budget = self.budget();
        if let Some(w) = self.world.as_mut() {
            w.limit_events(Some(budget.max_events));
        }
        let out = self.exec_command(line);
        let Some(w) = self.world.as_mut() else {
            return out;
        };
        let stopped = w.out_of_events();
        w.limit_events(None);
        if stopped {
            let what = line.split_whitespace().next().unwrap_or("");
            return Err(budget.exhausted(what, w));
        }
        out
    }

    /// Split `line` and run its handler from [`COMMANDS`] (or a tool), without a budget.
    fn exec_command(&mut self, line: &str) -> Result<String, String> {
        if crate::tools::pipe::split(line).is_some() {
            return self.piped(line);
        }
        let words = split_words(line)?;
        let Some(cmd) = words.first().map(|s| s.as_str()) else {
            return Ok(String::new());
        };
        let call = Call {
            line,
            words: &words,
            args: &words[1..],
        };
        match COMMANDS.iter().find(|(name, _)| *name == cmd) {
            Some((_, handler)) => handler(self, &call),
            None => self.tool(cmd, &call),
        }
    }

    /// `help [set]`: the command list, or the settings.
    fn help(&mut self, call: &Call) -> Result<String, String> {
        match call.args.first().map(String::as_str) {
            None => Ok(HELP.to_string()),
            Some("set") => Ok(settings_help()),
            Some(other) => Err(format!(
                "help: no topic '{other}' (try `help` or `help set`)"
            )),
        }
    }
}

/// One command line as its handler sees it.
struct Call<'a> {
    /// The line as typed.
    line: &'a str,
    /// Its words ([`split_words`]), the command first.
    words: &'a [String],
    /// The words after the command.
    args: &'a [String],
}

/// A command's handler: what it prints, or the error it reports.
type Handler = fn(&mut Console, &Call) -> Result<String, String>;

/// Every console command and its handler; a name not here runs as one of Kafka's tools.
const COMMANDS: &[(&str, Handler)] = &[
    ("help", Console::help),
    ("cluster", Console::cluster),
    ("set", Console::set),
    ("step", Console::step),
    ("tick", Console::tick),
    ("sleep", Console::wait),
    ("run", Console::wait),
    ("kill", Console::kill),
    ("start", Console::start),
    ("add-broker", Console::add_broker),
    ("add-node", Console::add_node),
    ("slow", Console::slow),
    ("partition", Console::partition),
    ("heal", Console::heal),
    ("drop", Console::drop_messages),
    ("status", Console::status),
    ("invariants", Console::invariants),
    ("mark", Console::mark),
    ("transitions", Console::transitions),
    ("records", Console::records),
    ("controller", Console::controller),
    ("record-types", Console::record_types),
    ("expect", Console::expect),
    ("timeline", Console::timeline),
];
