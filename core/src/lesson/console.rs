//! The console language: one parser for lessons, the page's console and the CLI. Commands
//! drive the simulated cluster (`cluster`, `run`, `kill -9`, `partition`, ...) or run Kafka's
//! tools against it (`kafka-metadata-quorum.sh ...`).

use crate::sim::args::{parse_duration_ms, parse_ids};
use crate::sim::clock::log4j_timestamp;
use crate::sim::network::DropRule;
use crate::sim::{World, WorldConfig};
use crate::timeline::{SnapshotRegistry, TimelineHashMap};
use crate::view::{RevertView, TimelineView};

use super::wait::{Budget, Wait};
use std::collections::BTreeMap;

/// The console's state: the world (once `cluster` ran) and the settings for the next one.
#[derive(Clone, Debug)]
pub struct Console {
    /// The simulated cluster.
    pub world: Option<World>,
    settings: BTreeMap<String, i64>,
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
    timeline_last_revert: Option<RevertView>,
}

impl Default for Console {
    fn default() -> Self {
        Console {
            world: None,
            settings: BTreeMap::new(),
            marks: BTreeMap::new(),
            tick_ms: 100,
            max_command_ms: super::settings::DEFAULT_COMMAND_MAX_MS,
            max_command_events: super::settings::DEFAULT_COMMAND_MAX_EVENTS,
            timeline: (SnapshotRegistry::new(), TimelineHashMap::new()),
            timeline_last_revert: None,
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

/// The most events one `step` runs (it prints a line for each).
pub const MAX_STEP_EVENTS: u64 = 100_000;

/// What `help` prints: every console command with what it does.
pub const HELP: &str = "\
cluster controllers=101,102,103 brokers=1 seed=7   start a cluster (combined=104: a broker+controller voter)
set KEY=VALUE                 a setting, before `cluster` (e.g. broker.session.timeout.ms=9000); `help set` lists them
step [N]                      run the next N events, each described
tick [N]                      run N ticks of tick.ms (100 ms) of virtual time
sleep 15s | run 2s            let virtual time pass
run until=leader [timeout=10s]   also leader-changed, leader=N, epoch=N, active-controller, fenced=N, unfenced=N
kill -9|-STOP|-CONT|-TERM N   kill, freeze, thaw or stop a node cleanly
start N                       start a killed node again
add-broker N                  a new, empty broker
slow N 3s                     the node's event loop stalls for a while
partition 101 | 102,103       cut the network into groups; `heal` mends it
drop from=N to=N kind=FetchRequest | drop rate=0.1   lose messages
status                        every node: role, state, epoch, leader, LEO, HW
mark NAME / transitions N [after=NAME]   a node's Raft transitions since a mark
records N [since=NAME] / record-types N / controller N   the metadata log and the controller
expect leader=102 epoch=2 state(103)=Follower active=102   check facts
timeline put|remove|snapshot|get|delete-up-to|revert|print   a TimelineHashMap (example 3)
kafka-metadata-quorum.sh, kafka-topics.sh, kafka-configs.sh, kafka-dump-log.sh, kafka-metadata-shell.sh
ls, cat, grep, head, tail     over a node's files: 101/server.log, 101/__cluster_metadata-0/quorum-state
help                          this list";

/// What `help set` prints: every setting with its range and what it changes.
pub fn settings_help() -> String {
    super::settings::SETTINGS
        .iter()
        .map(|s| {
            let range = match (s.min, s.max) {
                (i64::MIN, i64::MAX) => "any".to_string(),
                (min, max) if max == i64::from(i32::MAX) || max == i64::MAX => format!("{min}.."),
                (min, max) => format!("{min}..={max}"),
            };
            format!("{:<50} {:<14} {}", s.name, range, s.doc)
        })
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

    fn world(&mut self) -> Result<&mut World, String> {
        self.world.as_mut().ok_or_else(|| {
            "no cluster yet: start one with `cluster controllers=101,102,103 brokers=1 seed=7`"
                .to_string()
        })
    }

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

    fn exec_command(&mut self, line: &str) -> Result<String, String> {
        let words = split_words(line)?;
        let Some(cmd) = words.first().map(|s| s.as_str()) else {
            return Ok(String::new());
        };
        let args = &words[1..];
        match cmd {
            "help" => match args.first().map(String::as_str) {
                None => Ok(HELP.to_string()),
                Some("set") => Ok(settings_help()),
                Some(other) => Err(format!(
                    "help: no topic '{other}' (try `help` or `help set`)"
                )),
            },
            "cluster" => self.cluster(args),
            "set" => self.set(args),
            "step" => {
                let n: u64 = match args.first() {
                    Some(a) => a
                        .parse()
                        .map_err(|_| format!("'{a}' is not a number of events"))?,
                    None => 1,
                };
                if n > MAX_STEP_EVENTS {
                    return Err(format!(
                        "step: at most {MAX_STEP_EVENTS} events, one line each (use `sleep` or `run` for more)"
                    ));
                }
                let w = self.world()?;
                let mut out = String::new();
                for _ in 0..n {
                    match w.step_described() {
                        Some(line) => {
                            out.push_str(&line);
                            out.push('\n');
                        }
                        None => {
                            out.push_str("(nothing scheduled)\n");
                            break;
                        }
                    }
                }
                Ok(out)
            }
            "tick" => {
                let n: u64 = match args.first() {
                    Some(a) => a
                        .parse()
                        .map_err(|_| format!("'{a}' is not a number of ticks"))?,
                    None => 1,
                };
                let ms = self
                    .budget()
                    .check_ms("tick", n.saturating_mul(self.tick_ms))?;
                let w = self.world()?;
                let (events, delivered) = (w.events_run(), w.network().delivered);
                w.run_for(ms);
                Ok(format!(
                    "[{} ms] +{ms} ms: {} events, {} messages delivered\n",
                    w.now_ms(),
                    w.events_run() - events,
                    w.network().delivered - delivered
                ))
            }
            "sleep" | "run" => {
                let budget = self.budget();
                let w = self.world()?;
                let wait = Wait::parse(line, &words, w, budget)?.expect("sleep and run are waits");
                wait.finish(w)
            }
            "kill" => {
                let (sig, id) = match args {
                    [sig, id] => (sig.as_str(), id),
                    _ => return Err("usage: kill -9|-STOP|-CONT|-TERM NODE".into()),
                };
                let id = self.node_id(id)?;
                let w = self.world()?;
                match sig {
                    "-9" | "-KILL" => w.kill(id),
                    "-STOP" | "-19" => w.stop(id),
                    "-CONT" | "-18" => w.cont(id),
                    "-TERM" | "-15" => w.terminate(id),
                    other => {
                        return Err(format!(
                            "kill: unknown signal '{other}' (use -9, -STOP, -CONT or -TERM)"
                        ))
                    }
                }
                .map_err(|e| e.to_string())?;
                Ok(String::new())
            }
            "start" => {
                let id = args.first().ok_or("usage: start NODE")?.clone();
                let id = self.node_id(&id)?;
                self.world()?.restart(id).map_err(|e| e.to_string())?;
                Ok(String::new())
            }
            "add-broker" => {
                let raw = args
                    .first()
                    .ok_or("usage: add-broker NODE (a new, empty broker)")?;
                let id: i32 = raw
                    .parse()
                    .map_err(|_| format!("add-broker: '{raw}' is not a node id"))?;
                self.world()?
                    .add_broker(id)
                    .map_err(|e| format!("add-broker: {e}"))?;
                Ok(String::new())
            }
            "slow" => {
                let (id, d) = match args {
                    [id, d] => (id.clone(), d.clone()),
                    _ => return Err("usage: slow NODE DURATION (e.g. slow 101 3s)".into()),
                };
                let id = self.node_id(&id)?;
                let ms = parse_duration_ms(&d)?;
                if ms > MAX_SLOW_MS {
                    return Err(format!(
                        "slow: at most {} (for a longer pause: kill -STOP, later kill -CONT)",
                        crate::sim::clock::duration_text(MAX_SLOW_MS)
                    ));
                }
                self.world()?.slow(id, ms).map_err(|e| e.to_string())?;
                Ok(String::new())
            }
            "partition" => {
                let text = args.join(" ");
                let groups: Vec<Vec<i32>> = text
                    .split('|')
                    .map(|g| parse_ids(&g.split_whitespace().collect::<Vec<_>>().join(",")))
                    .collect::<Result<_, _>>()?;
                if groups.len() < 2 || groups.iter().any(|g| g.is_empty()) {
                    return Err("usage: partition 101 | 102,103 (groups separated by |)".into());
                }
                for g in &groups {
                    for id in g {
                        self.node_id(&id.to_string())?;
                    }
                }
                self.world()?
                    .partition(&groups)
                    .map_err(|e| e.to_string())?;
                Ok(String::new())
            }
            "heal" => {
                self.world()?.heal();
                Ok(String::new())
            }
            "drop" => {
                let mut rule = DropRule {
                    from: None,
                    to: None,
                    kind: None,
                };
                let mut rate = None;
                if args.is_empty() {
                    return Err("usage: drop from=N to=N kind=FetchRequest (at least one of them) | drop rate=0.1 (0 to 1) | heal".into());
                }
                for (k, v) in key_values(args)? {
                    match k.as_str() {
                        "from" => rule.from = Some(self.node_id(&v)?),
                        "to" => rule.to = Some(self.node_id(&v)?),
                        "kind" => rule.kind = Some(DropRule::check_kind(&v)?),
                        "rate" => {
                            let r = v
                                .parse::<f64>()
                                .ok()
                                .filter(|r| (0.0..=1.0).contains(r))
                                .ok_or_else(|| {
                                    format!("drop: rate '{v}' is not a probability from 0 to 1")
                                })?;
                            rate = Some(r)
                        }
                        other => {
                            return Err(format!(
                                "drop: unknown key '{other}' (from, to, kind, rate)"
                            ))
                        }
                    }
                }
                let has_rule = rule.from.is_some() || rule.to.is_some() || rule.kind.is_some();
                if rate.is_some() && has_rule {
                    return Err("drop: rate= applies to every link; give it alone".into());
                }
                let w = self.world()?;
                match rate {
                    Some(r) => w.set_drop_rate(r),
                    None => w.add_drop_rule(rule),
                }
                Ok(String::new())
            }
            "status" => Ok(crate::view::status::status_table(self.world()?)
                .trim_end()
                .to_string()),
            "mark" => {
                let name = args.first().ok_or("usage: mark NAME")?.clone();
                let now = self.world()?.now_ms();
                self.marks.insert(name, now);
                Ok(String::new())
            }
            "transitions" => self.transitions(args),
            "records" => self.records(args),
            "controller" => self.controller(args),
            "record-types" => self.record_types(args),
            "expect" => self.expect(args),
            "timeline" => self.timeline(args),
            _ => {
                let name = cmd.rsplit('/').next().unwrap_or(cmd);
                let known = crate::tools::COMMANDS
                    .iter()
                    .any(|c| *c == name || c.strip_suffix(".sh") == Some(name));
                if !known {
                    return Err(format!(
                        "unknown command '{cmd}' (`help` lists them; console commands: cluster, set, step, tick, sleep, run, kill, start, add-broker, slow, partition, heal, drop, status, mark, transitions, expect, timeline; tools: {})",
                        crate::tools::COMMANDS.join(", ")
                    ));
                }
                let w = self.world()?;
                match crate::tools::run(w, &words) {
                    Ok(out) => Ok(out.trim_end_matches('\n').to_string()),
                    Err(e) => Err(e.text().trim_end_matches('\n').to_string()),
                }
            }
        }
    }

    fn cluster(&mut self, args: &[String]) -> Result<String, String> {
        let mut controllers = vec![101, 102, 103];
        let mut brokers = Vec::new();
        let mut combined = Vec::new();
        let mut seed = 7u64;
        for (k, v) in key_values(args)? {
            match k.as_str() {
                "controllers" => controllers = parse_ids(&v)?,
                "brokers" => brokers = parse_ids(&v)?,
                "combined" => combined = parse_ids(&v)?,
                "seed" => {
                    seed = v
                        .parse()
                        .map_err(|_| format!("seed '{v}' is not a whole number"))?
                }
                other => {
                    return Err(format!(
                        "cluster: unknown key '{other}' (controllers, brokers, combined, seed)"
                    ))
                }
            }
        }
        let mut config = WorldConfig::new(seed, controllers, brokers);
        config.combined = combined;
        for (k, v) in &self.settings {
            super::settings::apply(&mut config, k, *v);
        }
        let world = World::new(config).map_err(|e| e.to_string())?;
        self.marks.clear();
        self.world = Some(world);
        Ok(String::new())
    }

    fn set(&mut self, args: &[String]) -> Result<String, String> {
        if args.is_empty() {
            return Err("usage: set key=value ... (`help set` lists the settings)".into());
        }
        for (k, v) in key_values(args)? {
            let setting = super::settings::find(&k).ok_or_else(|| super::settings::unknown(&k))?;
            let n = setting.parse(&v)?;
            match k.as_str() {
                "tick.ms" => self.tick_ms = n as u64,
                "command.max.ms" => self.max_command_ms = n as u64,
                "command.max.events" => self.max_command_events = n as u64,
                _ if self.world.is_some() => {
                    return Err(format!(
                        "{k} takes effect at start: put `set` before `cluster`"
                    ))
                }
                _ => {
                    self.settings.insert(k, n);
                }
            }
        }
        Ok(String::new())
    }

    fn transitions(&mut self, args: &[String]) -> Result<String, String> {
        let id_text = args
            .first()
            .ok_or("usage: transitions NODE [after=MARK]")?
            .clone();
        let id = self.node_id(&id_text)?;
        let after = match args.get(1).and_then(|a| a.strip_prefix("after=")) {
            Some(m) => *self
                .marks
                .get(m)
                .ok_or_else(|| format!("no mark '{m}' (set one with `mark {m}`)"))?,
            None => 0,
        };
        let w = self.world()?;
        let node = w.node(id).expect("checked");
        let mut out = Vec::new();
        for l in node.log.lines().filter(|l| l.time_ms >= after) {
            let Some(rest) = l.message.strip_prefix("Completed transition to ") else {
                continue;
            };
            let to = rest.split('(').next().unwrap_or("");
            let from = rest
                .rsplit_once(" from ")
                .map(|(_, f)| f.split('(').next().unwrap_or(f))
                .unwrap_or("");
            let epoch = rest
                .split("epoch=")
                .nth(1)
                .and_then(|e| e.split([',', ')']).next())
                .unwrap_or("?");
            out.push(format!(
                "{} {from} -> {to} epoch={epoch}",
                &log4j_timestamp(l.time_ms)[11..]
            ));
        }
        Ok(out.join("\n"))
    }

    /// The `timeline` commands' map for the page's panel; `None` until one of them changed it.
    pub fn timeline_view(&self) -> Option<TimelineView> {
        let (registry, map) = &self.timeline;
        let v = TimelineView::of(
            "TimelineHashMap<String, String>",
            registry,
            map,
            None,
            self.timeline_last_revert.clone(),
        );
        (!v.is_empty()).then_some(v)
    }

    /// `timeline put K V | remove K | snapshot N | get K... at=N | delete-up-to N | revert N |
    /// print LABEL`: drive a TimelineHashMap<String, String> as example 3's Timeline.java does.
    fn timeline(&mut self, args: &[String]) -> Result<String, String> {
        let (registry, map) = &mut self.timeline;
        let num = |a: Option<&String>| -> Result<i64, String> {
            let a = a.ok_or("timeline: missing offset")?;
            a.parse()
                .map_err(|_| format!("timeline: '{a}' is not an offset"))
        };
        let usage = "usage: timeline put K V | remove K | snapshot N | get K... at=N | delete-up-to N | revert N | print LABEL";
        match args.first().map(|s| s.as_str()) {
            Some("put") => match args {
                [_, k, v] => {
                    map.put(registry, k.clone(), v.clone());
                    Ok(String::new())
                }
                _ => Err(usage.into()),
            },
            Some("remove") => match args {
                [_, k] => {
                    map.remove(registry, k.as_str());
                    Ok(String::new())
                }
                _ => Err(usage.into()),
            },
            Some("snapshot") => {
                let n = num(args.get(1))?;
                registry
                    .idempotent_create_snapshot(n)
                    .map_err(|e| e.to_string())?;
                Ok(String::new())
            }
            Some("delete-up-to") => {
                let n = num(args.get(1))?;
                registry.delete_snapshots_up_to(n, &mut [map]);
                Ok(String::new())
            }
            Some("revert") => {
                let n = num(args.get(1))?;
                let dropped = registry
                    .revert_to_snapshot(n, &mut [map])
                    .map_err(|e| e.to_string())?;
                self.timeline_last_revert = Some(RevertView { to: n, dropped });
                Ok(String::new())
            }
            Some("get") => {
                let at = args
                    .iter()
                    .find_map(|a| a.strip_prefix("at="))
                    .ok_or("timeline get needs at=OFFSET")?;
                let at: i64 = at
                    .parse()
                    .map_err(|_| format!("timeline: '{at}' is not an offset"))?;
                let mut parts = Vec::new();
                for k in args[1..].iter().filter(|a| !a.starts_with("at=")) {
                    let v = map
                        .get_at(registry, k.as_str(), at)
                        .map_err(|e| e.to_string())?;
                    parts.push(format!(
                        "{k}={}",
                        v.cloned().unwrap_or_else(|| "null".into())
                    ));
                }
                Ok(format!(" as of {at}: {}", parts.join(" ")))
            }
            Some("print") => {
                let label = args[1..].join(" ");
                let epochs: Vec<String> = registry
                    .epochs_list()
                    .iter()
                    .map(|e| e.to_string())
                    .collect();
                Ok(format!(
                    "{label} current={map} snapshots=[{}]",
                    epochs.join(", ")
                ))
            }
            _ => Err(usage.into()),
        }
    }

    /// `records NODE [since=MARK] [all]`: the metadata records in NODE's log as `offset N {json}`
    /// (NoOpRecords left out unless `all`), written at or after MARK.
    fn records(&mut self, args: &[String]) -> Result<String, String> {
        let id_text = args
            .first()
            .ok_or("usage: records NODE [since=MARK] [all]")?
            .clone();
        let id = self.node_id(&id_text)?;
        let mut since = 0;
        let mut all = false;
        for a in &args[1..] {
            if let Some(m) = a.strip_prefix("since=") {
                since = *self
                    .marks
                    .get(m)
                    .ok_or_else(|| format!("no mark '{m}' (set one with `mark {m}`)"))?;
            } else if a == "all" {
                all = true;
            } else {
                return Err(format!("records: unknown argument '{a}' (since=MARK, all)"));
            }
        }
        let w = self.world()?;
        let log = &w.node(id).expect("checked").disk.metadata_log;
        let mut out = Vec::new();
        for b in log
            .batches()
            .iter()
            .filter(|b| !b.is_control && b.create_time_ms >= since)
        {
            for (i, r) in b.records.iter().enumerate() {
                if let crate::raft::batch::Record::Metadata(m) = r {
                    if all || m.type_name() != "NO_OP_RECORD" {
                        out.push(format!(
                            "offset {} {}",
                            b.base_offset + i as i64,
                            m.to_json()
                        ));
                    }
                }
            }
        }
        Ok(out.join("\n"))
    }

    /// `controller NODE`: a QuorumController's offsets, SnapshotRegistry, purgatory and
    /// topicsByName (what the page's controller panel shows).
    fn controller(&mut self, args: &[String]) -> Result<String, String> {
        let id_text = args.first().ok_or("usage: controller NODE")?.clone();
        let id = self.node_id(&id_text)?;
        let w = self.world()?;
        let n = w.node(id).expect("checked");
        let c = n
            .controller
            .as_ref()
            .ok_or_else(|| format!("node {id} runs no QuorumController ({})", n.process.name()))?;
        let oc = &c.offset_control;
        let role = match c.active_epoch() {
            Some(e) => format!("active in epoch {e}"),
            None => "standby".to_string(),
        };
        let epochs: Vec<String> = oc
            .snapshot_registry
            .epochs_list()
            .iter()
            .map(|e| e.to_string())
            .collect();
        let purgatory: Vec<String> = c
            .purgatory
            .iter()
            .map(|(o, p)| format!("{}@{o}", p.name))
            .collect();
        Ok(format!(
            "QuorumController {id}: {role}\nlastCommittedOffset={} lastStableOffset={} nextWriteOffset={}\nsnapshots=[{}]\npurgatory=[{}]\ntopicsByName={}",
            oc.last_committed_offset,
            oc.last_stable_offset,
            oc.next_write_offset,
            epochs.join(", "),
            purgatory.join(", "),
            c.state.replication.topics_by_name
        ))
    }

    /// `record-types NODE`: how many records of each type NODE's log holds, most first, as
    /// `grep -o '"type":"[A-Z_]*"' | sort | uniq -c | sort -rn` prints them.
    fn record_types(&mut self, args: &[String]) -> Result<String, String> {
        let id_text = args.first().ok_or("usage: record-types NODE")?.clone();
        let id = self.node_id(&id_text)?;
        let w = self.world()?;
        let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
        for b in w.node(id).expect("checked").disk.metadata_log.batches() {
            for r in &b.records {
                if let crate::raft::batch::Record::Metadata(m) = r {
                    *counts.entry(m.type_name()).or_default() += 1;
                }
            }
        }
        let mut rows: Vec<(usize, &str)> = counts.into_iter().map(|(t, n)| (n, t)).collect();
        rows.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(a.1)));
        Ok(rows
            .iter()
            .map(|(n, t)| format!("{n:>7} \"type\":\"{t}\""))
            .collect::<Vec<_>>()
            .join("\n"))
    }

    fn expect(&mut self, args: &[String]) -> Result<String, String> {
        let w = self.world()?;
        for (k, v) in key_values(args)? {
            let actual = match k.as_str() {
                "leader" => w
                    .leader()
                    .map(|l| l.0.to_string())
                    .unwrap_or_else(|| "none".into()),
                "epoch" => w
                    .leader()
                    .map(|l| l.1.to_string())
                    .unwrap_or_else(|| "none".into()),
                "active" => w
                    .active_controller()
                    .map(|c| c.to_string())
                    .unwrap_or_else(|| "none".into()),
                other if other.starts_with("state(") && other.ends_with(')') => {
                    let id: i32 = other[6..other.len() - 1]
                        .parse()
                        .map_err(|_| format!("expect: bad node in '{other}'"))?;
                    let n = w.node(id).ok_or_else(|| format!("expect: no node {id}"))?;
                    n.raft
                        .as_ref()
                        .map(|r| r.state().name().to_string())
                        .unwrap_or_else(|| n.process.name().to_string())
                }
                other => {
                    return Err(format!(
                        "expect: unknown fact '{other}' (leader, epoch, active, state(N))"
                    ))
                }
            };
            if actual != v {
                return Err(format!("expected {k}={v}, but {k}={actual}"));
            }
        }
        Ok(String::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kafka_configs_runs_from_the_console() {
        let mut c = Console::new();
        c.exec("cluster controllers=100 brokers=1 seed=7").unwrap();
        c.exec("run until=active-controller timeout=10s").unwrap();
        c.exec("sleep 5s").unwrap();
        c.exec("kafka-topics.sh --bootstrap-server localhost:9092 --create --topic orders")
            .unwrap();
        assert_eq!(
            c.exec("kafka-configs.sh --bootstrap-server localhost:9092 --alter --topic orders --add-config retention.ms=1000")
                .unwrap(),
            "Completed updating config for topic orders."
        );
        assert_eq!(
            c.exec("bin/kafka-configs --bootstrap-server localhost:9092 --describe --topic orders")
                .unwrap(),
            "Dynamic configs for topic orders are:\n  retention.ms=1000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:retention.ms=1000}"
        );
        assert_eq!(
            c.exec("kafka-configs.sh --bootstrap-server localhost:9092 --alter --topic orders --delete-config segment.ms")
                .unwrap_err(),
            "Invalid config(s): segment.ms"
        );
        assert!(c
            .exec("frobnicate")
            .unwrap_err()
            .contains("kafka-configs.sh"));
    }

    #[test]
    fn commands_drive_the_cluster_and_bad_input_gets_clear_errors() {
        let mut c = Console::new();
        assert!(c.exec("status").unwrap_err().contains("no cluster yet"));
        let help = c.exec("help").unwrap();
        for cmd in [
            "cluster",
            "run until=",
            "kill -9",
            "partition",
            "timeline",
            "kafka-topics.sh",
        ] {
            assert!(help.contains(cmd), "help lists {cmd}");
        }
        assert!(c.exec("bogus").unwrap_err().contains("`help` lists them"));
        c.exec("set controller.quorum.fetch.timeout.ms=2000")
            .unwrap();
        assert!(c
            .exec("set bogus=1")
            .unwrap_err()
            .contains("unknown setting 'bogus'"));
        c.exec("cluster controllers=101,102,103 brokers=1 seed=7")
            .unwrap();
        assert!(c
            .exec("set controller.quorum.fetch.timeout.ms=1")
            .unwrap_err()
            .contains("before `cluster`"));
        let out = c.exec("run until=leader timeout=10s").unwrap();
        assert!(out.starts_with("leader "), "{out}");
        assert!(c
            .exec("kill -9 999")
            .unwrap_err()
            .contains("no node 999 in the cluster (nodes: 1, 101, 102, 103)"));
        assert!(c
            .exec("kill -HUP 101")
            .unwrap_err()
            .contains("unknown signal"));
        assert!(c.exec("partition 101").unwrap_err().contains("usage"));
        assert!(c
            .exec("run until=nonsense")
            .unwrap_err()
            .contains("unknown condition"));
        assert!(c
            .exec("frobnicate")
            .unwrap_err()
            .contains("unknown command 'frobnicate'"));
        assert!(c.exec("sleep ten").unwrap_err().contains("not a duration"));
        c.exec("sleep 3s").unwrap();
        let (l, e) = c.world.as_ref().unwrap().leader().unwrap();
        c.exec(&format!("expect leader={l} epoch={e}")).unwrap();
        assert!(c
            .exec("expect leader=1")
            .unwrap_err()
            .starts_with("expected leader=1"));
        c.exec("mark kill").unwrap();
        c.exec(&format!("kill -9 {l}")).unwrap();
        let out = c.exec("run until=leader-changed").unwrap();
        let (l2, e2) = c.world.as_ref().unwrap().leader().unwrap();
        assert!(l2 != l && e2 > e, "{out}");
        let other = [101, 102, 103].into_iter().find(|i| *i != l).unwrap();
        let t = c.exec(&format!("transitions {other} after=kill")).unwrap();
        assert!(
            t.contains("FollowerState -> ProspectiveState epoch="),
            "{t}"
        );
        assert!(c
            .exec("transitions 101 after=nope")
            .unwrap_err()
            .contains("no mark 'nope'"));
    }

    #[test]
    fn step_and_tick_say_what_ran() {
        let mut c = Console::new();
        c.exec("cluster controllers=101,102,103 seed=1").unwrap();
        let out = c.exec("step 4").unwrap();
        assert_eq!(out.lines().count(), 4, "{out}");
        assert!(
            out.lines()
                .next()
                .unwrap()
                .starts_with("[2 ms] deliver FetchRequest 102 -> 101"),
            "{out}"
        );
        assert!(out.contains("deliver FetchRequest 102 -> 101"), "{out}");
        let before = c.world.as_ref().unwrap().events_run();
        let out = c.exec("tick 3").unwrap();
        let ran = c.world.as_ref().unwrap().events_run() - before;
        assert!(out.contains("+300 ms:"), "{out}");
        assert!(out.contains(&format!(" {ran} events")), "{out}");
        assert!(c.exec("step x").unwrap_err().contains("not a number"));
    }

    #[test]
    fn every_command_runs_within_its_budget() {
        let mut c = Console::new();
        c.exec("cluster controllers=101,102,103 brokers=1 seed=1")
            .unwrap();
        for (cmd, says) in [
            (
                "sleep 1000h",
                "sleep: 1000h is longer than one command may run (1h;",
            ),
            ("tick 2147483648", "tick: "),
            ("run until=leader timeout=100000h", "run: 100000h is longer"),
            ("step 18446744073709551615", "step: at most 100000 events"),
            ("step 18446744073709551616", "is not a number of events"),
            ("slow 101 18446744073709551615ms", "slow: at most 168h"),
            ("sleep 5s extra", "sleep: unexpected 'extra'"),
        ] {
            let e = c.exec(cmd).unwrap_err();
            assert!(e.contains(says), "{cmd}: {e}");
        }
        assert_eq!(c.world.as_ref().unwrap().now_ms(), 0, "nothing ran");
        // An event budget stops a command where it got to, with a clear message; the
        // cluster stays usable.
        c.exec("set command.max.events=500").unwrap();
        let e = c.exec("sleep 10s").unwrap_err();
        assert!(
            e.starts_with("sleep: stopped at ") && e.contains("after 500 events"),
            "{e}"
        );
        let w = c.world.as_ref().unwrap();
        assert!(w.now_ms() < 10_000 && w.events_run() == 500);
        assert!(c.exec("step 600").unwrap_err().contains("after 500 events"));
        assert!(c
            .exec("tick 100")
            .unwrap_err()
            .starts_with("tick: stopped at"));
        c.exec("set command.max.events=1000000 command.max.ms=7200000")
            .unwrap();
        c.exec("sleep 2h").unwrap();
        assert!(c.exec("status").is_ok());
        // The page plays a wait in pieces: the same budget, over all of them.
        c.exec("set command.max.events=300").unwrap();
        let Begun::Wait(wait) = c.begin("sleep 20s") else {
            panic!("a wait")
        };
        let w = c.world.as_mut().unwrap();
        let mut out = None;
        for frame in 1..1000 {
            out = wait.advance(w, wait.start_ms + frame * 10, |_| false);
            if out.is_some() {
                break;
            }
        }
        assert!(out.unwrap().unwrap_err().contains("after 300 events"));
    }

    #[test]
    fn settings_take_kafkas_ranges_and_texts() {
        let mut c = Console::new();
        assert_eq!(
            c.exec("set controller.quorum.retry.backoff.ms=-1").unwrap_err(),
            "Invalid value -1 for configuration controller.quorum.retry.backoff.ms: Value must be at least 0"
        );
        assert!(c
            .exec("set controller.quorum.request.timeout.ms=0")
            .unwrap_err()
            .contains("at least 1 in the playground"));
        assert!(c
            .exec("set network.latency.ms=18446744073709551615")
            .unwrap_err()
            .contains("0..=60000"));
        assert!(c
            .exec("set bogus=1")
            .unwrap_err()
            .contains("unknown setting 'bogus'"));
        c.exec("set metadata.max.idle.interval.ms=0 tick.ms=250")
            .unwrap();
        assert_eq!(c.tick_ms, 250);
        assert!(c.exec("help set").unwrap().contains("command.max.events"));
    }

    #[test]
    fn drop_rules_and_limits_are_checked() {
        let mut c = Console::new();
        c.exec("cluster controllers=101,102,103 brokers=1 seed=1")
            .unwrap();
        assert!(c.exec("drop").unwrap_err().starts_with("usage: drop"));
        assert!(c.exec("drop rate=5").unwrap_err().contains("from 0 to 1"));
        assert!(c.exec("drop rate=NaN").unwrap_err().contains("from 0 to 1"));
        assert!(c
            .exec("drop kind=Fetch")
            .unwrap_err()
            .contains("did you mean FetchRequest or FetchResponse"));
        assert!(c
            .exec("drop kind=Bogus")
            .unwrap_err()
            .contains("BrokerHeartbeat"));
        c.exec("drop kind=fetchrequest from=102").unwrap();
        assert_eq!(
            c.world.as_ref().unwrap().network().drop_rules[0]
                .kind
                .as_deref(),
            Some("FetchRequest")
        );
        for id in 2..14 {
            c.exec(&format!("add-broker {id}")).unwrap();
        }
        assert!(c
            .exec("add-broker 99")
            .unwrap_err()
            .contains("at most 16 nodes"));
    }

    #[test]
    fn every_kind_on_the_wire_is_one_a_drop_rule_may_name() {
        let kinds = crate::sim::network::message_kinds();
        let mut c = Console::new();
        c.exec("cluster controllers=101,102,103 brokers=1,2,3 seed=4")
            .unwrap();
        c.exec("sleep 10s").unwrap();
        c.exec("kafka-topics.sh --bootstrap-server localhost:9092 --create --topic t --replication-factor 3")
            .unwrap();
        c.exec("kill -9 101").unwrap();
        let w = c.world.as_mut().unwrap();
        for _ in 0..20_000 {
            let Some(line) = w.step_described() else {
                break;
            };
            if let Some(rest) = line.split("] deliver ").nth(1) {
                let kind = rest.split_whitespace().next().unwrap();
                assert!(kinds.iter().any(|k| k == kind), "{kind} not in {kinds:?}");
            }
        }
    }

    #[test]
    fn words_split_with_quotes() {
        assert_eq!(
            split_words("grep \"a b\" x").unwrap(),
            vec!["grep", "a b", "x"]
        );
        assert!(split_words("grep \"a").is_err());
    }
}
