//! The world: nodes, network, clock, one RNG, one event queue. `step()` runs exactly one event.
//!
//! This file holds the event loop: building the world, running events, scheduling wake-ups and
//! controller runs, the event budget and the accessors. The rest of [`World`] lives beside it:
//! node composition and dispatch in `sim/dispatch.rs`, the admin client in `sim/admin.rs` and `sim/admin_client.rs`,
//! process control and network faults in `sim/process_control.rs`, and the view the page
//! draws in [`crate::view`].

use super::message::Message;
use super::network::{Network, NetworkConfig};
use super::node::{Node, ProcessState, Roles};
use super::scheduler::Scheduler;
use crate::common::rng::SimRng;
use crate::common::uuid::Uuid;
use crate::controller::ControllerConfig;
use crate::raft::batch::Record;
use crate::raft::disk::Disk;
use crate::raft::quorum_state::VoterNode;
use crate::raft::replica_key::ReplicaKey;
use crate::raft::QuorumConfig;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Why a world operation was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    /// No node with that id.
    UnknownNode(i32),
    /// The operation needs another process state.
    BadProcessState {
        /// The node.
        node: i32,
        /// Its state.
        state: &'static str,
        /// What was tried.
        action: &'static str,
    },
    /// The configuration is not valid.
    BadConfig(String),
    /// The tool's process was killed (`timeout`): it sends nothing more.
    ToolKilled,
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::UnknownNode(id) => write!(f, "no node with id {id}"),
            SimError::BadProcessState {
                node,
                state,
                action,
            } => write!(f, "cannot {action} node {node}: it is {state}"),
            SimError::BadConfig(m) => write!(f, "bad cluster configuration: {m}"),
            SimError::ToolKilled => write!(f, "the tool was killed by timeout"),
        }
    }
}

impl std::error::Error for SimError {}

/// The most nodes a world holds (the drawing's ring and the tables are sized for it).
pub const MAX_NODES: usize = 16;
/// The most voters (controllers and combined nodes) a world holds.
pub const MAX_VOTERS: usize = 9;

/// How to build a world.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldConfig {
    /// The seed of the one RNG.
    pub seed: u64,
    /// Controller-only node ids (voters).
    pub controllers: Vec<i32>,
    /// Broker-only node ids (observers).
    pub brokers: Vec<i32>,
    /// Combined broker+controller node ids (voters).
    pub combined: Vec<i32>,
    /// Raft settings of every node.
    pub quorum: QuorumConfig,
    /// Network settings.
    pub network: NetworkConfig,
    /// QuorumController settings of every controller.
    pub controller: ControllerConfig,
    /// Run a QuorumController on every voter (off for Raft-only tests, as Kafka's
    /// RaftEventSimulationTest runs Raft alone).
    pub run_controllers: bool,
    /// The rule switches (issue 18): all on, Kafka as it is, unless a lesson or the console
    /// turns one off.
    pub rules: crate::common::rules::Rules,
    /// How the controllers are formatted (KIP-853): `--initial-controllers` (the default),
    /// `--standalone`, or a static `controller.quorum.voters`.
    pub quorum_mode: super::node_config::QuorumMode,
}

impl WorldConfig {
    /// A cluster of `controllers` and `brokers` with Kafka's defaults.
    pub fn new(seed: u64, controllers: Vec<i32>, brokers: Vec<i32>) -> Self {
        WorldConfig {
            seed,
            controllers,
            brokers,
            combined: Vec::new(),
            quorum: QuorumConfig::default(),
            network: NetworkConfig::default(),
            controller: ControllerConfig::default(),
            run_controllers: true,
            rules: crate::common::rules::Rules::default(),
            quorum_mode: Default::default(),
        }
    }

    /// Refuse negative or repeated ids, no voter, or more voters or nodes than supported.
    fn validate(&self) -> Result<(), SimError> {
        let mut seen = BTreeSet::new();
        for id in self
            .controllers
            .iter()
            .chain(&self.brokers)
            .chain(&self.combined)
        {
            if *id < 0 {
                return Err(SimError::BadConfig(format!("node id {id} is negative")));
            }
            if !seen.insert(*id) {
                return Err(SimError::BadConfig(format!("node id {id} appears twice")));
            }
        }
        if self.controllers.is_empty() && self.combined.is_empty() {
            return Err(SimError::BadConfig(
                "at least one controller (voter) is needed".into(),
            ));
        }
        if self.controllers.len() + self.combined.len() > MAX_VOTERS {
            return Err(SimError::BadConfig(format!(
                "at most {MAX_VOTERS} voters are supported"
            )));
        }
        if seen.len() > MAX_NODES {
            return Err(SimError::BadConfig(format!(
                "at most {MAX_NODES} nodes are supported"
            )));
        }
        Ok(())
    }
}

/// What the scheduler runs.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Event {
    /// A message arrives.
    Deliver(u64),
    /// A node's Raft client asked to be polled.
    Wake { node: i32, gen: u64 },
    /// The end of a `slow` pause: SIGCONT.
    Resume { node: i32 },
    /// The QuorumController's event handler runs its next event.
    ControllerRun { node: i32, gen: u64 },
}

/// A record of a notable thing the world did, for traces and tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceEntry {
    /// When.
    pub time_ms: u64,
    /// What.
    pub text: String,
}

/// The simulated cluster.
#[derive(Clone, Debug)]
pub struct World {
    pub(super) config: WorldConfig,
    pub(super) now_ms: u64,
    pub(super) rng: SimRng,
    pub(super) scheduler: Scheduler<Event>,
    pub(super) nodes: BTreeMap<i32, Node>,
    pub(super) network: Network,
    pub(super) voters: Vec<VoterNode>,
    pub(super) cluster_id: Uuid,
    pub(super) events_run: u64,
    /// Events run per node (deliveries to it, its wake-ups, controller runs, resumes).
    pub(super) node_events: BTreeMap<i32, u64>,
    /// Requests delivered and not answered yet, by (server, client, correlation id, is Raft),
    /// with the failure their client sees if the server dies.
    pub(super) open_requests: BTreeMap<(i32, i32, u64, bool), Message>,
    /// Fatal faults seen (a bug in the engine if ever non-empty).
    pub(super) fatal_faults: Vec<String>,
    pub(super) admin: AdminClient,
    /// `events_run` at which running stops (a command's budget); `None`: no limit.
    pub(super) event_limit: Option<u64>,
    /// What looks at the world after every event (the console's invariant monitor).
    pub(super) watcher: WatcherSlot,
}

use super::admin_client::AdminClient;
pub use super::admin_client::ADMIN_CLIENT_ID;

/// Broker lifecycle requests use correlation ids from here, apart from the controller's.
pub const BROKER_CORRELATION_BASE: u64 = crate::broker::controller_channel::CORRELATION_BASE;

/// How long a graceful shutdown waits for EndQuorumEpoch acknowledgements.
pub const GRACEFUL_SHUTDOWN_TIMEOUT_MS: u64 = 5_000;

/// Ports of the CONTROLLER listeners: 9093, 9095, 9097, ... as in the article's example 2.
pub(super) fn controller_port(index: usize) -> u16 {
    9093 + 2 * index as u16
}

/// How each node of a new cluster is configured and formatted in `mode`: its properties'
/// quorum settings and its bootstrap checkpoint.
fn format_plan(
    mode: super::node_config::QuorumMode,
    all: &[(i32, Roles)],
    voters: &[VoterNode],
) -> Vec<(
    i32,
    super::node_config::QuorumProps,
    super::node_config::Bootstrap,
)> {
    use super::node_config::{Bootstrap, QuorumMode, QuorumProps};
    let endpoints: Vec<(i32, u16)> = voters.iter().map(|v| (v.key.id, v.port)).collect();
    let first = voters.first().map(|v| v.key.id);
    all.iter()
        .map(|&(id, roles)| {
            let props = match mode {
                QuorumMode::Static => QuorumProps::Voters(endpoints.clone()),
                _ => QuorumProps::BootstrapServers(endpoints.clone()),
            };
            let bootstrap = match (mode, roles.has_controller()) {
                (_, false) => Bootstrap::Broker,
                (QuorumMode::Static, true) => Bootstrap::Static,
                (QuorumMode::InitialControllers, true) => {
                    Bootstrap::InitialControllers(voters.to_vec())
                }
                (QuorumMode::Standalone, true) if Some(id) == first => Bootstrap::Standalone,
                (QuorumMode::Standalone, true) => Bootstrap::NoInitialControllers,
            };
            (id, props, bootstrap)
        })
        .collect()
}

impl World {
    /// Build and start a cluster: every node formatted (`kafka-storage format`) and started.
    pub fn new(config: WorldConfig) -> Result<World, SimError> {
        config.validate()?;
        let mut rng = SimRng::new(config.seed);
        let cluster_id = Uuid::random(&mut rng);
        let mut nodes = BTreeMap::new();
        let mut all: Vec<(i32, Roles)> = Vec::new();
        all.extend(config.controllers.iter().map(|&id| (id, Roles::Controller)));
        all.extend(config.combined.iter().map(|&id| (id, Roles::Combined)));
        all.extend(config.brokers.iter().map(|&id| (id, Roles::Broker)));
        all.sort_by_key(|(id, _)| *id);
        for (id, roles) in &all {
            let directory_id = Uuid::random(&mut rng);
            nodes.insert(*id, Node::new(*id, *roles, directory_id, 0));
        }
        for (i, (id, _)) in all
            .iter()
            .filter(|(_, r)| *r != Roles::Controller)
            .enumerate()
        {
            if let Some(n) = nodes.get_mut(id) {
                n.broker_port = 9092 + 2 * i as u16;
            }
        }
        for (i, (id, _)) in all.iter().filter(|(_, r)| r.has_controller()).enumerate() {
            if let Some(n) = nodes.get_mut(id) {
                n.controller_port = controller_port(i);
            }
        }
        let voters: Vec<VoterNode> = all
            .iter()
            .filter(|(_, r)| r.has_controller())
            .map(|(id, _)| {
                VoterNode::new(
                    ReplicaKey {
                        id: *id,
                        directory_id: Some(nodes[id].directory_id),
                    },
                    nodes[id].controller_port,
                )
            })
            .collect();
        let plan = format_plan(config.quorum_mode, &all, &voters);
        for (id, props, _) in &plan {
            if let Some(n) = nodes.get_mut(id) {
                n.quorum_props = props.clone();
            }
        }
        let mut world = World {
            network: Network::new(config.network.clone()),
            config,
            now_ms: 0,
            rng,
            scheduler: Scheduler::default(),
            nodes,
            voters,
            cluster_id,
            events_run: 0,
            node_events: BTreeMap::new(),
            open_requests: BTreeMap::new(),
            fatal_faults: Vec::new(),
            admin: AdminClient::default(),
            event_limit: None,
            watcher: Default::default(),
        };
        let ids: Vec<i32> = world.nodes.keys().copied().collect();
        for (id, _, bootstrap) in &plan {
            world.write_properties(*id);
            world.format(*id, bootstrap);
        }
        // All processes start at the same instant: none refuses another's first request.
        for n in world.nodes.values_mut() {
            n.process = ProcessState::Running;
        }
        for id in ids {
            world.start_process(id);
        }
        Ok(world)
    }

    /// Virtual time now, ms.
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// The configuration the world was built from.
    pub fn config(&self) -> &WorldConfig {
        &self.config
    }

    /// The rule switches in force.
    pub fn rules(&self) -> crate::common::rules::Rules {
        self.config.rules
    }

    /// Switch a rule while the cluster runs: it takes effect at the next event. A rule that
    /// only acts when a process starts ([`Switchable::BeforeCluster`]) is refused.
    ///
    /// [`Switchable::BeforeCluster`]: crate::common::rules::Switchable::BeforeCluster
    pub fn set_rule(&mut self, rule: crate::common::rules::Rule, on: bool) -> Result<(), String> {
        use crate::common::rules::Switchable;
        if rule.switchable() == Switchable::BeforeCluster && self.config.rules.get(rule) != on {
            return Err(format!(
                "set: rule.{} acts when a process starts; set it before `cluster`",
                rule.name()
            ));
        }
        self.config.rules.set(rule, on);
        Ok(())
    }

    /// The cluster id.
    pub fn cluster_id(&self) -> Uuid {
        self.cluster_id
    }

    /// Events run so far.
    pub fn events_run(&self) -> u64 {
        self.events_run
    }

    /// The voters the cluster was formatted with (the initial controllers).
    pub fn voters(&self) -> &[VoterNode] {
        &self.voters
    }

    /// The voter set in force as the cluster knows it (KIP-853: it changes): the running
    /// leader's, else the newest any running node has read from its log, else the voters
    /// the cluster was formatted with.
    pub fn voter_set(&self) -> crate::raft::voter_set::VoterSet {
        self.voter_set_reader()
            .map(|r| r.partition_state().last_voter_set().clone())
            .unwrap_or_else(|| crate::raft::voter_set::VoterSet::new(self.voters.iter().copied()))
    }

    /// The running replica whose log [`World::voter_set`] reads: the leader, else the one that
    /// has read the newest VotersRecord (`None` when no running replica has a voter set).
    pub fn voter_set_reader(&self) -> Option<&crate::raft::client::KafkaRaftClient> {
        let running = || {
            self.nodes
                .values()
                .filter(|n| n.process == ProcessState::Running)
                .filter_map(|n| n.raft.as_ref())
        };
        running()
            .find(|r| matches!(r.state(), crate::raft::state::EpochState::Leader(_)))
            .or_else(|| {
                running()
                    .filter(|r| !r.partition_state().last_voter_set().is_empty())
                    .max_by_key(|r| {
                        r.partition_state()
                            .last_voter_set_entry()
                            .map_or(-2, |(o, _)| o)
                    })
            })
    }

    /// Node ids, sorted.
    pub fn node_ids(&self) -> Vec<i32> {
        self.nodes.keys().copied().collect()
    }

    /// A node.
    pub fn node(&self, id: i32) -> Option<&Node> {
        self.nodes.get(&id)
    }

    /// Iterate the nodes in id order.
    pub fn nodes(&self) -> impl Iterator<Item = &Node> {
        self.nodes.values()
    }

    /// The network (read-only).
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// Fatal faults (engine bugs) seen so far.
    pub fn fatal_faults(&self) -> &[String] {
        &self.fatal_faults
    }

    /// A node's disk, for fault injection (disk corruption) in tests.
    pub fn disk_mut(&mut self, id: i32) -> Option<&mut Disk> {
        self.nodes.get_mut(&id).map(|n| &mut n.disk)
    }

    /// A node, mutably, or [`SimError::UnknownNode`].
    pub(super) fn node_mut(&mut self, id: i32) -> Result<&mut Node, SimError> {
        self.nodes.get_mut(&id).ok_or(SimError::UnknownNode(id))
    }

    // ----- running -----

    /// Allow at most `max_events` more events (a command's budget: a livelock or a huge wait
    /// stops there instead of hanging); `None` lifts the limit. Once it is reached nothing more
    /// runs and virtual time stands still until it is set again.
    pub fn limit_events(&mut self, max_events: Option<u64>) {
        self.event_limit = max_events.map(|n| self.events_run.saturating_add(n));
    }

    /// Events run so far for node `id`: messages delivered to it, its wake-ups, its controller's
    /// runs (the swarm's busy-wait check compares these over a quiet stretch).
    pub fn node_events(&self, id: i32) -> u64 {
        self.node_events.get(&id).copied().unwrap_or(0)
    }

    /// Whether the budget set by [`World::limit_events`] is used up.
    pub fn out_of_events(&self) -> bool {
        self.event_limit.is_some_and(|l| self.events_run >= l)
    }

    /// Run exactly one event. False when nothing is scheduled (or the budget is used up).
    pub fn step(&mut self) -> bool {
        if self.out_of_events() {
            return false;
        }
        while let Some(s) = self.scheduler.pop() {
            if !self.is_live(&s.event) {
                continue;
            }
            debug_assert!(s.at_ms >= self.now_ms, "time went backwards");
            self.now_ms = s.at_ms.max(self.now_ms);
            self.events_run += 1;
            self.run_event(s.event);
            return true;
        }
        false
    }

    /// Run the next live event and describe it in one line (`deliver FetchRequest 102 -> 101
    /// ...`, `wake 101`, `controller 101 runs ...`); None when nothing is scheduled.
    pub fn step_described(&mut self) -> Option<String> {
        if self.out_of_events() {
            return None;
        }
        loop {
            let s = self.scheduler.pop()?;
            if !self.is_live(&s.event) {
                continue;
            }
            let text = match &s.event {
                Event::Deliver(id) => match self.network.in_flight.get(id) {
                    Some(m) => format!(
                        "deliver {} {} -> {} {}",
                        m.message.kind(),
                        node_name(m.from),
                        node_name(m.to),
                        m.message.summary()
                    ),
                    None => "deliver (lost)".to_string(),
                },
                Event::Wake { node, .. } => format!("wake {node} (poll)"),
                Event::Resume { node } => format!("resume {node} (end of slow)"),
                Event::ControllerRun { node, .. } => format!("controller {node} runs"),
            };
            let controller = match &s.event {
                Event::ControllerRun { node, .. } => Some(*node),
                _ => None,
            };
            self.now_ms = s.at_ms.max(self.now_ms);
            self.events_run += 1;
            self.run_event(s.event);
            let mut text = format!("[{} ms] {}", self.now_ms, text.trim_end());
            if let Some(ran) = controller
                .and_then(|id| self.nodes.get(&id))
                .and_then(|n| n.controller.as_ref())
                .and_then(|c| c.last_event.clone())
            {
                text.push_str(&format!(" {ran}"));
            }
            return Some(text);
        }
    }

    /// Time of the next live event.
    pub fn next_event_time(&mut self) -> Option<u64> {
        if self.out_of_events() {
            return None;
        }
        loop {
            let s = self.scheduler.peek()?;
            if self.is_live(&s.event) {
                // Left where it is: re-queueing it would put it after the events of its
                // millisecond scheduled since, and a run cut in pieces would differ from one run.
                return Some(s.at_ms);
            }
            self.scheduler.pop();
        }
    }

    /// Run events until virtual time has advanced by `ms` (events at exactly the end run).
    pub fn run_for(&mut self, ms: u64) {
        let end = self.tool_end(self.now_ms.saturating_add(ms));
        while let Some(t) = self.next_event_time() {
            if t > end {
                break;
            }
            self.step();
        }
        if !self.out_of_events() {
            self.now_ms = self.now_ms.max(end);
        }
    }

    /// Run until `pred` holds (checked after every event) or `max_ms` of virtual time pass.
    /// Returns whether `pred` held.
    pub fn run_until(&mut self, max_ms: u64, mut pred: impl FnMut(&World) -> bool) -> bool {
        let end = self.tool_end(self.now_ms.saturating_add(max_ms));
        if pred(self) {
            return true;
        }
        while let Some(t) = self.next_event_time() {
            if t > end {
                break;
            }
            self.step();
            if pred(self) {
                return true;
            }
        }
        if !self.out_of_events() {
            self.now_ms = self.now_ms.max(end);
        }
        false
    }

    /// Whether a popped event still counts (a message still in flight, a wake-up or controller
    /// run of the current generation on a running node, a resume of a stopped one).
    fn is_live(&self, e: &Event) -> bool {
        match e {
            Event::Deliver(id) => self.network.in_flight.contains_key(id),
            Event::Wake { node, gen } => self
                .nodes
                .get(node)
                .is_some_and(|n| n.wake_gen == *gen && n.process == ProcessState::Running),
            Event::Resume { node } => self
                .nodes
                .get(node)
                .is_some_and(|n| n.process == ProcessState::Stopped),
            Event::ControllerRun { node, gen } => self
                .nodes
                .get(node)
                .is_some_and(|n| n.controller_gen == *gen && n.process == ProcessState::Running),
        }
    }

    /// Run one live event, counting it for the node it concerns.
    fn run_event(&mut self, e: Event) {
        let node = match &e {
            Event::Deliver(id) => self.network.in_flight.get(id).map(|m| m.to),
            Event::Wake { node, .. }
            | Event::Resume { node }
            | Event::ControllerRun { node, .. } => Some(*node),
        };
        if let Some(node) = node {
            *self.node_events.entry(node).or_default() += 1;
        }
        match e {
            Event::Deliver(id) => self.deliver(id),
            Event::Wake { node, .. } => {
                if let Some(n) = self.nodes.get_mut(&node) {
                    n.scheduled_wake_ms = None;
                }
                self.with_raft(node, |_, _| Ok(()));
            }
            Event::Resume { node } => {
                let _ = self.cont(node);
            }
            Event::ControllerRun { node, .. } => self.run_controller(node),
        }
        self.observe_write_lives();
        self.run_watcher();
    }

    /// Schedule node `id`'s QuorumController to run its next event at `at_ms` (a newer
    /// schedule replaces an older one).
    pub(super) fn schedule_controller_run(&mut self, id: i32, at_ms: u64) {
        let Some(node) = self.nodes.get_mut(&id) else {
            return;
        };
        if node.controller_run_ms == Some(at_ms) {
            return;
        }
        node.controller_gen += 1;
        node.controller_run_ms = Some(at_ms);
        let gen = node.controller_gen;
        self.scheduler.schedule(
            at_ms.max(self.now_ms),
            Event::ControllerRun { node: id, gen },
        );
    }

    /// Schedule a poll of node `id`'s Raft client at `wake_ms` (`u64::MAX`: none); a newer
    /// schedule replaces an older one.
    pub(super) fn schedule_wake(&mut self, id: i32, wake_ms: u64) {
        if wake_ms == u64::MAX {
            return;
        }
        let Some(node) = self.nodes.get_mut(&id) else {
            return;
        };
        if node.scheduled_wake_ms == Some(wake_ms) {
            return;
        }
        node.wake_gen += 1;
        node.scheduled_wake_ms = Some(wake_ms);
        let gen = node.wake_gen;

        self.scheduler
            .schedule(wake_ms.max(self.now_ms), Event::Wake { node: id, gen });
    }

    // ----- appends -----

    /// The running node that is leader in the highest epoch, if any: (node, epoch).
    pub fn leader(&self) -> Option<(i32, i32)> {
        self.nodes
            .values()
            .filter(|n| n.process == ProcessState::Running)
            .filter_map(|n| n.raft.as_ref().map(|r| (n.id, r)))
            .filter(|(_, r)| r.state().name() == "Leader")
            .map(|(id, r)| (id, r.quorum.epoch()))
            .max_by_key(|(_, e)| *e)
    }

    /// Append records through the current leader (as the active controller does).
    /// Returns (leader, epoch, last offset), or None without a leader.
    pub fn append_to_leader(
        &mut self,
        records: Vec<Record>,
        atomic: bool,
    ) -> Option<(i32, i32, i64)> {
        let (leader, epoch) = self.leader()?;
        let now = self.now_ms;
        let mut out = None;
        self.with_raft(leader, |raft, _| {
            if let Ok(offset) = raft.append(epoch, records, atomic, now) {
                out = Some(offset);
            }
            Ok(())
        });
        out.map(|o| (leader, epoch, o))
    }
}

/// A node id as the step description names it (`admin` for the admin client).
fn node_name(id: i32) -> String {
    if id == ADMIN_CLIENT_ID {
        "admin".to_string()
    } else {
        id.to_string()
    }
}

/// Something that looks at the world after every event.
pub trait EventWatcher: fmt::Debug {
    /// Called after every event with the world as it is now.
    fn after_event(&mut self, world: &World);
    /// A copy (worlds are cloned for checkpoints and rewinds).
    fn clone_box(&self) -> Box<dyn EventWatcher>;
    /// The watcher as `Any`, to read it back as its own type.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// The world's watcher slot: empty unless one was installed.
#[derive(Default)]
pub struct WatcherSlot(pub(super) Option<Box<dyn EventWatcher>>);

impl Clone for WatcherSlot {
    fn clone(&self) -> Self {
        WatcherSlot(self.0.as_ref().map(|w| w.clone_box()))
    }
}

impl fmt::Debug for WatcherSlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(w) => write!(f, "WatcherSlot({w:?})"),
            None => f.write_str("WatcherSlot(None)"),
        }
    }
}
