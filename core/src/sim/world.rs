//! The world: nodes, network, clock, one RNG, one event queue. `step()` runs exactly one event.

use super::disk::{clean_shutdown_content, read_clean_shutdown_epoch, Disk, CLEAN_SHUTDOWN_FILE};
use super::message::Message;
use super::network::{InFlight, Network, NetworkConfig};
use super::node::{Node, ProcessState, Roles};
use super::node_log::{Level, LogFile, LogLine};
use super::rng::SimRng;
use super::scheduler::Scheduler;
use super::uuid::Uuid;
use crate::broker::replica_manager::{ReplicaManager, ReplicaMessage, REPLICA_CORRELATION_BASE};
use crate::broker::BrokerLifecycleManager;
use crate::controller::rpc::{ControllerMessage, ControllerRequest, ControllerResponse};
use crate::controller::{ControllerConfig, QuorumController};
use crate::image::MetadataLoader;
use crate::raft::batch::Record;
use crate::raft::io::{Outbound, RaftIo};
use crate::raft::messages::Errors;
use crate::raft::quorum_state::VoterNode;
use crate::raft::replica_key::ReplicaKey;
use crate::raft::state::EpochState;
use crate::raft::{KafkaRaftClient, QuorumConfig};
use crate::view::{
    BatchView, BrokerView, ClusterView, ControllerView, HighWatermarkView, ImageView, MessageView,
    NodeView, PartitionView, RaftTimerView, TimelineView, TransitionView, MAX_BATCHES_IN_VIEW,
    MAX_LOG_LINES_IN_VIEW, RECENT_MESSAGE_MS,
};
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
        }
    }

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
enum Event {
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
    config: WorldConfig,
    now_ms: u64,
    rng: SimRng,
    scheduler: Scheduler<Event>,
    nodes: BTreeMap<i32, Node>,
    network: Network,
    voters: Vec<VoterNode>,
    cluster_id: Uuid,
    events_run: u64,
    /// Events run per node (deliveries to it, its wake-ups, controller runs, resumes).
    node_events: BTreeMap<i32, u64>,
    /// Requests delivered and not answered yet, by (server, client, correlation id, is Raft),
    /// with the failure their client sees if the server dies.
    open_requests: BTreeMap<(i32, i32, u64, bool), Message>,
    /// Fatal faults seen (a bug in the engine if ever non-empty).
    fatal_faults: Vec<String>,
    admin: AdminClient,
    /// `events_run` at which running stops (a command's budget); `None`: no limit.
    event_limit: Option<u64>,
}

/// Broker lifecycle requests use correlation ids from here, apart from the controller's.
pub const BROKER_CORRELATION_BASE: u64 = crate::broker::controller_channel::CORRELATION_BASE;

/// The node id the admin client (the tools) sends from.
pub const ADMIN_CLIENT_ID: i32 = -1;

/// The tools' client: requests sent and responses received.
#[derive(Clone, Debug, Default)]
struct AdminClient {
    next_correlation_id: u64,
    responses: BTreeMap<u64, ControllerResponse>,
}

/// The error response a non-controller gives to a controller request.
fn not_controller_response(body: &ControllerRequest) -> Option<ControllerResponse> {
    Some(body.not_controller_response())
}

/// How long a graceful shutdown waits for EndQuorumEpoch acknowledgements.
pub const GRACEFUL_SHUTDOWN_TIMEOUT_MS: u64 = 5_000;

/// Ports of the CONTROLLER listeners: 9093, 9095, 9097, ... as in the article's example 2.
fn controller_port(index: usize) -> u16 {
    9093 + 2 * index as u16
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
        let voters: Vec<VoterNode> = all
            .iter()
            .filter(|(_, r)| r.is_voter())
            .enumerate()
            .map(|(i, (id, _))| VoterNode {
                key: ReplicaKey {
                    id: *id,
                    directory_id: Some(nodes[id].directory_id),
                },
                port: controller_port(i),
            })
            .collect();
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
        };
        let ids: Vec<i32> = world.nodes.keys().copied().collect();
        for id in &ids {
            world.format(*id);
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

    /// The cluster id.
    pub fn cluster_id(&self) -> Uuid {
        self.cluster_id
    }

    /// Events run so far.
    pub fn events_run(&self) -> u64 {
        self.events_run
    }

    /// The voters of the quorum.
    pub fn voters(&self) -> &[VoterNode] {
        &self.voters
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

    fn node_mut(&mut self, id: i32) -> Result<&mut Node, SimError> {
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
        let end = self.now_ms.saturating_add(ms);
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
        let end = self.now_ms.saturating_add(max_ms);
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
    }

    /// Run `f` on a running node's Raft client, then the node's usual after-step work.
    fn with_raft(
        &mut self,
        id: i32,
        f: impl FnOnce(&mut KafkaRaftClient, &mut RaftIo) -> Result<(), String>,
    ) {
        self.with_node(id, |raft, _, _, io, _| f(raft, io));
    }

    /// Run `f` on a running node (its Raft client and, on controllers, its QuorumController),
    /// then poll Raft, hand committed batches and leader changes to the controller, send what
    /// was produced and schedule the next wake-ups.
    fn with_node(
        &mut self,
        id: i32,
        f: impl FnOnce(
            &mut KafkaRaftClient,
            Option<&mut QuorumController>,
            Option<&mut BrokerLifecycleManager>,
            &mut RaftIo,
            &mut Vec<(i32, ControllerMessage)>,
        ) -> Result<(), String>,
    ) {
        let now = self.now_ms;
        let mut outbox: Vec<Outbound> = Vec::new();
        let mut cout: Vec<(i32, ControllerMessage)> = Vec::new();
        let mut rout: Vec<(i32, ReplicaMessage)> = Vec::new();
        let mut controller_next: Option<u64> = None;
        let result = {
            let Some(node) = self.nodes.get_mut(&id) else {
                return;
            };
            // A frozen or dead process does nothing.
            if node.process != ProcessState::Running {
                return;
            }
            let Node {
                raft,
                controller,
                broker,
                loader,
                snapshot_generator,
                replicas,
                disk,
                log,
                ..
            } = node;
            let Some(raft) = raft.as_mut() else {
                return;
            };
            let mut io = RaftIo {
                now_ms: now,
                rng: &mut self.rng,
                disk,
                log,
                outbox: &mut outbox,
            };
            let r = f(
                raft,
                controller.as_mut(),
                broker.as_mut(),
                &mut io,
                &mut cout,
            )
            .and_then(|_| raft.poll(&mut io));
            let r = r.map(|wake| {
                // The broker's lifecycle: registration and heartbeats to the active controller
                // (the metadata log's leader).
                match broker.as_mut() {
                    Some(b) => {
                        // RaftControllerNodeProvider: the leader and its CONTROLLER port.
                        let controller = raft
                            .state()
                            .leader_id()
                            .map(|l| (l, raft.quorum.voter_port(l).unwrap_or(0)));
                        let applied = loader
                            .as_ref()
                            .map(|l| l.published_offset())
                            .unwrap_or_else(|| raft.listener_next_offset() - 1);
                        let metadata_version = loader
                            .as_ref()
                            .and_then(|l| l.image.features.levels.get("metadata.version").copied());
                        if let Some(m) = b.poll(now, controller, applied, metadata_version, io.log)
                        {
                            cout.push(m);
                        }
                        if b.load_logs() {
                            // loadLogs deletes the clean-shutdown marker (KAFKA-10471).
                            io.disk.delete_file(CLEAN_SHUTDOWN_FILE);
                        }
                        if b.state == crate::broker::BrokerState::ShuttingDown {
                            // BrokerServer.shutdown: logManager.shutdown(brokerEpoch) marks a
                            // clean shutdown in a log dir whose logs were loaded.
                            if b.close(now, io.log) && b.logs_loaded() {
                                io.disk.write_file(
                                    CLEAN_SHUTDOWN_FILE,
                                    clean_shutdown_content(b.broker_epoch()),
                                );
                            }
                            raft.shutdown(GRACEFUL_SHUTDOWN_TIMEOUT_MS, &mut io);
                            if let Ok(w) = raft.poll(&mut io) {
                                return wake.min(w);
                            }
                        }
                        wake.min(b.next_wake_ms(now).unwrap_or(u64::MAX))
                    }
                    None => wake,
                }
            });
            let r = r.and_then(|wake| {
                let events = raft.poll_listener(&io)?;
                if let Some(l) = loader.as_mut() {
                    use crate::raft::listener::RaftEvent;
                    for e in &events {
                        match e {
                            RaftEvent::Commit(batches) => {
                                l.handle_commit(batches, raft.high_watermark()).map_err(|e| {
                                    format!("Unexpected error in metadata loader: {e}")
                                })?
                            }
                            RaftEvent::LoadSnapshot(s) => {
                                let lines = l
                                    .handle_load_snapshot(s, raft.high_watermark())
                                    .map_err(|e| {
                                        format!("Unhandled fault in MetadataLoader#handleLoadSnapshot. Snapshot offset was {}: {e}", s.id.offset - 1)
                                    })?;
                                let prefix = format!("[MetadataLoader id={id}] ");
                                for line in lines {
                                    io.log_line(Level::Info, &prefix, LOADER_LOGGER, line);
                                }
                            }
                            RaftEvent::LeaderChange(_) => {}
                        }
                    }
                    // The SnapshotGenerator sees every publication.
                    for p in std::mem::take(&mut l.unread) {
                        let Some(g) = snapshot_generator.as_mut() else {
                            continue;
                        };
                        let Some(reason) = g.on_publication(&p, now) else {
                            continue;
                        };
                        emit_snapshot(id, raft, &p.image, &reason, &mut io)?;
                    }
                }
                // The ReplicaManager follows the published image.
                let mut wake = wake;
                if let (Some(rm), Some(l)) = (replicas.as_mut(), loader.as_ref()) {
                    rm.sync(&l.image, now);
                    let epoch = broker.as_ref().map(|b| b.broker_epoch).unwrap_or(-1);
                    let (fetches, alters) = rm.poll(now, epoch, raft.state().leader_id());
                    rout.extend(fetches);
                    cout.extend(alters);
                    wake = wake.min(rm.next_wake_ms(now).unwrap_or(u64::MAX));
                }
                Ok((wake, events))
            });
            r.map(|(wake, events)| {
                if let Some(c) = controller.as_mut() {
                    c.handle_raft_events(events, now);
                    if let Some(m) = c.poll_registration(now) {
                        cout.push(m);
                    }
                    controller_next = c.next_run_ms(now);
                }
                wake
            })
        };
        for o in outbox {
            self.send(id, o.to, Message::Raft(o.message));
        }
        for (to, m) in cout {
            self.send(id, to, Message::Controller(m));
        }
        for (to, m) in rout {
            self.send(id, to, Message::Replica(m));
        }
        match result {
            Ok(wake) => {
                self.schedule_wake(id, wake);
                if let Some(t) = controller_next {
                    self.schedule_controller_run(id, t);
                }
            }
            Err(fault) => self.fatal(id, fault),
        }
        let exited = self
            .nodes
            .get(&id)
            .and_then(|n| n.raft.as_ref())
            .is_some_and(|r| r.is_shutdown_complete());
        if exited {
            self.crash(id);
        }
    }

    fn schedule_controller_run(&mut self, id: i32, at_ms: u64) {
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

    fn run_controller(&mut self, id: i32) {
        if let Some(n) = self.nodes.get_mut(&id) {
            n.controller_run_ms = None;
        }
        self.with_node(id, |raft, ctrl, _, io, cout| match ctrl {
            Some(c) => c.run_one(raft, io, cout),
            None => Ok(()),
        });
    }

    fn handle_controller_message(&mut self, to: i32, from: i32, msg: ControllerMessage) {
        let now = self.now_ms;
        if let ControllerMessage::Response {
            correlation_id,
            body,
        } = &msg
        {
            if *correlation_id >= REPLICA_CORRELATION_BASE {
                if let Some(rm) = self.nodes.get_mut(&to).and_then(|n| n.replicas.as_mut()) {
                    rm.handle_alter_response(*correlation_id, body);
                }
                self.with_node(to, |_, _, _, _, _| Ok(()));
                return;
            }
        }
        self.with_node(to, |_, ctrl, broker, io, cout| {
            if let (
                Some(b),
                ControllerMessage::Response {
                    correlation_id,
                    body,
                },
            ) = (broker, &msg)
            {
                if *correlation_id >= BROKER_CORRELATION_BASE {
                    b.handle_response(*correlation_id, body.clone(), now, io.log);
                    return Ok(());
                }
            }
            match ctrl {
                Some(c) => match &msg {
                    ControllerMessage::Response {
                        correlation_id,
                        body: ControllerResponse::Failed { .. },
                    } => c.registration_failed(*correlation_id, now),
                    _ => c.handle_message(from, msg, now, cout),
                },
                None => {
                    // Not a controller: refuse requests as a broker without a channel would.
                    if let ControllerMessage::Request {
                        correlation_id,
                        body,
                    } = &msg
                    {
                        if let Some(r) = not_controller_response(body) {
                            cout.push((
                                from,
                                ControllerMessage::Response {
                                    correlation_id: *correlation_id,
                                    body: r,
                                },
                            ));
                        }
                    }
                }
            }
            Ok(())
        });
    }

    // ----- the admin client (kafka-topics.sh and friends) -----

    /// Send a controller request from the admin client to node `to` (as
    /// `--bootstrap-controller` does). Returns the correlation id to wait for.
    pub fn admin_send(&mut self, to: i32, request: ControllerRequest) -> Result<u64, SimError> {
        if !self.nodes.contains_key(&to) {
            return Err(SimError::UnknownNode(to));
        }
        let cid = self.admin.next_correlation_id;
        self.admin.next_correlation_id += 1;
        self.send(
            ADMIN_CLIENT_ID,
            to,
            Message::Controller(ControllerMessage::Request {
                correlation_id: cid,
                body: request,
            }),
        );
        Ok(cid)
    }

    /// The admin client's response to request `cid`, once it arrived.
    pub fn admin_response(&self, cid: u64) -> Option<&ControllerResponse> {
        self.admin.responses.get(&cid)
    }

    /// The running node whose QuorumController is active, if any.
    pub fn active_controller(&self) -> Option<i32> {
        self.nodes
            .values()
            .filter(|n| n.process == ProcessState::Running)
            .find(|n| n.controller.as_ref().is_some_and(|c| c.is_active()))
            .map(|n| n.id)
    }

    fn schedule_wake(&mut self, id: i32, wake_ms: u64) {
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

    /// A fatal fault: log it and end the process, as Kafka's fatal fault handler does.
    fn fatal(&mut self, id: i32, fault: String) {
        let now = self.now_ms;
        self.fatal_faults
            .push(format!("node {id} at {now} ms: {fault}"));
        if let Some(n) = self.nodes.get_mut(&id) {
            n.log.push(LogLine {
                time_ms: now,
                level: Level::Error,
                file: LogFile::Server,
                prefix: format!("[RaftManager id={id}] "),
                message: format!("Unexpected error in raft IO thread: {fault}"),
                logger: "org.apache.kafka.raft.KafkaRaftClientDriver",
            });
        }
        self.crash(id);
    }

    // ----- the network -----

    fn is_raft_message(m: &Message) -> bool {
        matches!(m, Message::Raft(_))
    }

    /// Send `message` from `from` to `to` over the simulated network.
    fn send(&mut self, from: i32, to: i32, message: Message) {
        let now = self.now_ms;
        if let Some(cid) = message.response_id() {
            let raft = Self::is_raft_message(&message);
            self.open_requests.remove(&(from, to, cid, raft));
        }
        let id = self.network.next_id();
        // Every message takes at least 1 ms, so virtual time always moves on.
        let latency = (self.network.base_latency(from, to)
            + self.rng.below(self.network.config.jitter_ms + 1))
        .max(1);
        let mut m = InFlight {
            id,
            from,
            to,
            message,
            send_ms: now,
            arrive_ms: now + latency,
        };
        self.network.sent += 1;
        let dest_down = to != ADMIN_CLIENT_ID
            && self
                .nodes
                .get(&to)
                .is_none_or(|n| n.process == ProcessState::Killed);
        let rule_drop = self
            .network
            .drop_rules
            .iter()
            .any(|r| r.matches(from, to, &m.message));
        let random_drop = self.rng.chance(self.network.config.drop_rate);
        if self.network.is_blocked(from, to) || rule_drop || random_drop {
            self.network.record_drop(m);
            return;
        }
        if dest_down {
            // Connection refused: the sender's network client fails the request.
            if let Some(failure) = m.message.failure_response(Errors::BrokerNotAvailable) {
                self.send_failure(to, from, failure, latency);
            }
            return;
        }
        m.arrive_ms = self.network.arrival_time(from, to, now, latency);
        self.scheduler.schedule(m.arrive_ms, Event::Deliver(id));
        self.network.in_flight.insert(id, m);
    }

    /// Deliver a synthesized failure response to `client` for its request to `server`.
    fn send_failure(&mut self, server: i32, client: i32, failure: Message, delay_ms: u64) {
        let id = self.network.next_id();
        let m = InFlight {
            id,
            from: server,
            to: client,
            message: failure,
            send_ms: self.now_ms,
            arrive_ms: self.now_ms + delay_ms,
        };
        self.scheduler.schedule(m.arrive_ms, Event::Deliver(id));
        self.network.in_flight.insert(id, m);
    }

    fn deliver(&mut self, id: u64) {
        let Some(m) = self.network.in_flight.remove(&id) else {
            return;
        };
        // A partition installed while the message was in flight loses it.
        if !m.message.is_synthesized_failure() && self.network.is_blocked(m.from, m.to) {
            self.network.record_drop(m);
            return;
        }
        self.network.record_delivery(message_view(&m, false));
        if m.to == ADMIN_CLIENT_ID {
            self.network.delivered += 1;
            if let Message::Controller(ControllerMessage::Response {
                correlation_id,
                body,
            }) = m.message
            {
                self.admin.responses.insert(correlation_id, body);
            }
            return;
        }
        let Some(node) = self.nodes.get_mut(&m.to) else {
            return;
        };
        match node.process {
            ProcessState::Killed => {}
            ProcessState::Stopped => {
                self.network.delivered += 1;
                node.stopped_inbox.push((m.from, m.message));
            }
            ProcessState::Running => {
                self.network.delivered += 1;
                self.dispatch(m.to, m.from, m.message);
            }
        }
    }

    /// Hand a delivered message to the part of the process that handles it.
    fn dispatch(&mut self, to: i32, from: i32, message: Message) {
        if let Some(cid) = message.request_id() {
            if let Some(failure) = message.failure_response(Errors::BrokerNotAvailable) {
                let raft = Self::is_raft_message(&message);
                self.open_requests.insert((to, from, cid, raft), failure);
            }
        }
        match message {
            Message::Raft(msg) => self.with_raft(to, move |raft, io| raft.handle(from, msg, io)),
            Message::Controller(msg) => self.handle_controller_message(to, from, msg),
            Message::Replica(msg) => self.handle_replica_message(to, from, msg),
        }
    }

    fn handle_replica_message(&mut self, to: i32, from: i32, msg: ReplicaMessage) {
        let now = self.now_ms;
        let reply = match (
            self.nodes.get_mut(&to).and_then(|n| n.replicas.as_mut()),
            &msg,
        ) {
            (
                Some(rm),
                ReplicaMessage::Fetch {
                    correlation_id,
                    partitions,
                },
            ) => Some(rm.handle_fetch(from, *correlation_id, partitions, now)),
            _ => None,
        };
        if let Some(r) = reply {
            self.send(to, from, Message::Replica(r));
        }
        self.with_node(to, |_, _, _, _, _| Ok(()));
    }

    /// A new broker joins the running cluster: node `id` is formatted (an empty metadata log)
    /// and started as an observer. Its directory id comes from the world's RNG.
    pub fn add_broker(&mut self, id: i32) -> Result<(), SimError> {
        if self.nodes.contains_key(&id) {
            return Err(SimError::BadConfig(format!("node {id} already exists")));
        }
        if self.nodes.len() >= MAX_NODES {
            return Err(SimError::BadConfig(format!(
                "at most {MAX_NODES} nodes are supported"
            )));
        }
        if id < 0 {
            return Err(SimError::BadConfig(format!(
                "node id {id} must not be negative"
            )));
        }
        let directory_id = Uuid::random(&mut self.rng);
        let brokers = self
            .nodes
            .values()
            .filter(|n| n.roles != Roles::Controller)
            .count();
        self.nodes.insert(
            id,
            Node::new(id, Roles::Broker, directory_id, 9092 + 2 * brokers as u16),
        );
        self.config.brokers.push(id);
        self.format(id);
        self.start_process(id);
        Ok(())
    }

    // ----- processes -----

    /// `kafka-storage format`: meta.properties, the metadata partition's files and (on
    /// controllers) the bootstrap checkpoint with the bootstrap feature levels.
    fn format(&mut self, id: i32) {
        let cluster_id = self.cluster_id;
        let Some(n) = self.nodes.get_mut(&id) else {
            return;
        };
        n.disk.write_file(
            "meta.properties",
            format!(
                "#\n#{}\ncluster.id={cluster_id}\ndirectory.id={}\nnode.id={id}\nversion=1\n",
                crate::sim::clock::iso_utc(0),
                n.directory_id
            ),
        );
        n.disk.write_file(
            &format!("{}/partition.metadata", super::disk::METADATA_DIR),
            "version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAQ\n".to_string(),
        );
        n.disk
            .metadata_log
            .set_segment_bytes(self.config.quorum.metadata_log.segment_bytes);
        if n.roles.is_voter() {
            // The bootstrap snapshot 0-0: kraft.version 1 with the initial voters, then the
            // bootstrap feature levels.
            let records: Vec<crate::metadata::MetadataRecord> =
                crate::controller::feature_control::bootstrap_features()
                    .into_iter()
                    .map(crate::metadata::MetadataRecord::FeatureLevel)
                    .collect();
            let voters = self
                .voters
                .iter()
                .map(|v| crate::raft::batch::VoterEntry {
                    voter_id: v.key.id,
                    voter_directory_id: v.key.directory_id.unwrap_or(Uuid::ZERO),
                    port: v.port,
                })
                .collect();
            let control = vec![
                Record::KRaftVersion { kraft_version: 1 },
                Record::KRaftVoters { voters },
            ];
            let snapshot = crate::raft::snapshot::RawSnapshot::write(
                crate::raft::log::OffsetAndEpoch {
                    offset: 0,
                    epoch: 0,
                },
                0,
                control,
                records,
                0,
            );
            n.disk
                .metadata_log
                .store_snapshot(std::sync::Arc::new(snapshot));
        }
    }

    fn start_process(&mut self, id: i32) {
        let now = self.now_ms;
        let voters = self.voters.clone();
        let quorum = self.config.quorum.clone();
        let cluster_id = self.cluster_id.to_string();
        let controller_config = self.config.controller.clone();
        let run_controllers = self.config.run_controllers;
        let mut outbox = Vec::new();
        let result = {
            let node = self.nodes.get_mut(&id).expect("node exists");
            node.process = ProcessState::Running;
            node.incarnation += 1;
            node.stopped_inbox.clear();
            node.scheduled_wake_ms = None;
            node.wake_gen += 1;
            let mut io = RaftIo {
                now_ms: now,
                rng: &mut self.rng,
                disk: &mut node.disk,
                log: &mut node.log,
                outbox: &mut outbox,
            };
            node.controller_run_ms = None;
            node.controller_gen += 1;
            node.broker = if node.roles != Roles::Controller {
                // readBrokerEpochFromCleanShutdownFiles, before the logs load.
                let previous_epoch = io
                    .disk
                    .read_file(CLEAN_SHUTDOWN_FILE)
                    .and_then(read_clean_shutdown_epoch);
                Some(BrokerLifecycleManager::new(
                    id,
                    Uuid::random(io.rng),
                    node.broker_port,
                    node.directory_id,
                    cluster_id.clone(),
                    previous_epoch,
                ))
            } else {
                None
            };
            let has_loader = node.roles != Roles::Controller || run_controllers;
            node.loader = has_loader.then(MetadataLoader::default);
            node.snapshot_generator =
                has_loader.then(|| crate::image::SnapshotGenerator::new(&quorum.metadata_log, now));
            node.replicas = (node.roles != Roles::Controller).then(|| ReplicaManager::new(id));
            node.controller = if node.roles.is_voter() && run_controllers {
                let port = voters
                    .iter()
                    .find(|v| v.key.id == id)
                    .map(|v| v.port)
                    .unwrap_or(0);
                let incarnation = Uuid::random(io.rng);
                Some(QuorumController::new(
                    id,
                    port,
                    incarnation,
                    controller_config.clone(),
                ))
            } else {
                None
            };
            let created =
                KafkaRaftClient::new(id, node.directory_id, voters, quorum, cluster_id, &mut io);
            match created {
                Ok(mut raft) => {
                    let polled = raft.poll(&mut io);
                    node.raft = Some(raft);
                    polled
                }
                Err(e) => Err(e),
            }
        };
        for o in outbox {
            self.send(id, o.to, Message::Raft(o.message));
        }
        match result {
            Ok(wake) => self.schedule_wake(id, wake),
            Err(fault) => self.fatal(id, fault),
        }
        // Let the listener and the controller see the initial state.
        self.with_node(id, |_, _, _, _, _| Ok(()));
    }

    /// End a process at once: volatile state gone, connections reset (peers see their
    /// requests to it fail), disk and log files kept.
    fn crash(&mut self, id: i32) {
        if let Some(n) = self.nodes.get_mut(&id) {
            n.process = ProcessState::Killed;
            n.raft = None;
            n.controller = None;
            n.broker = None;
            n.loader = None;
            n.snapshot_generator = None;
            n.replicas = None;
            n.controller_run_ms = None;
            n.controller_gen += 1;
            n.stopped_inbox.clear();
            n.scheduled_wake_ms = None;
            n.wake_gen += 1;
        }
        // Messages on the wire to or from it are lost with the connections.
        let lost: Vec<u64> = self
            .network
            .in_flight
            .values()
            .filter(|m| m.from == id || m.to == id)
            .map(|m| m.id)
            .collect();
        let mut failed: Vec<(i32, Message)> = Vec::new();
        for mid in lost {
            let m = self.network.in_flight.remove(&mid).expect("in flight");
            if m.to == id {
                if let Some(f) = m.message.failure_response(Errors::BrokerNotAvailable) {
                    failed.push((m.from, f));
                }
            }
        }
        // Requests it had received and not answered fail too (connection reset).
        let open: Vec<(i32, i32, u64, bool)> = self
            .open_requests
            .keys()
            .filter(|(server, _, _, _)| *server == id)
            .copied()
            .collect();
        for key in open {
            if let Some(f) = self.open_requests.remove(&key) {
                failed.push((key.1, f));
            }
        }
        self.open_requests
            .retain(|(_, client, _, _), _| *client != id);
        let latency = self.network.config.latency_ms.max(1);
        for (client, f) in failed {
            let alive = client == ADMIN_CLIENT_ID
                || self
                    .nodes
                    .get(&client)
                    .is_some_and(|n| n.process != ProcessState::Killed);
            if alive {
                self.send_failure(id, client, f, latency);
            }
        }
    }

    /// `kill -9 N`.
    pub fn kill(&mut self, id: i32) -> Result<(), SimError> {
        let node = self.node_mut(id)?;
        if node.process == ProcessState::Killed {
            return Err(SimError::BadProcessState {
                node: id,
                state: "not running",
                action: "kill",
            });
        }
        self.crash(id);
        Ok(())
    }

    /// `kill -TERM N`: a graceful shutdown; a leader resigns with EndQuorumEpoch first.
    pub fn terminate(&mut self, id: i32) -> Result<(), SimError> {
        let node = self.node_mut(id)?;
        if node.process != ProcessState::Running {
            return Err(SimError::BadProcessState {
                node: id,
                state: node.process.name(),
                action: "terminate",
            });
        }
        // A broker first shuts down in a controlled way; Raft's own shutdown follows.
        self.with_node(id, |raft, _, broker, io, _| {
            match broker {
                Some(b) => b.begin_controlled_shutdown(io.now_ms, io.log),
                None => raft.shutdown(GRACEFUL_SHUTDOWN_TIMEOUT_MS, io),
            }
            Ok(())
        });
        Ok(())
    }

    /// Start a killed node again (`start N`): it recovers from its disk.
    pub fn restart(&mut self, id: i32) -> Result<(), SimError> {
        let node = self.node_mut(id)?;
        if node.process != ProcessState::Killed {
            return Err(SimError::BadProcessState {
                node: id,
                state: node.process.name(),
                action: "start",
            });
        }
        self.start_process(id);
        Ok(())
    }

    /// `kill -STOP N`: freeze the process.
    pub fn stop(&mut self, id: i32) -> Result<(), SimError> {
        let node = self.node_mut(id)?;
        if node.process != ProcessState::Running {
            return Err(SimError::BadProcessState {
                node: id,
                state: node.process.name(),
                action: "stop",
            });
        }
        node.process = ProcessState::Stopped;
        node.scheduled_wake_ms = None;
        node.wake_gen += 1;
        node.controller_run_ms = None;
        node.controller_gen += 1;
        Ok(())
    }

    /// `kill -CONT N`: thaw; queued messages are handled in order, then overdue timers fire.
    pub fn cont(&mut self, id: i32) -> Result<(), SimError> {
        let node = self.node_mut(id)?;
        if node.process != ProcessState::Stopped {
            return Err(SimError::BadProcessState {
                node: id,
                state: node.process.name(),
                action: "continue",
            });
        }
        node.process = ProcessState::Running;
        let inbox = std::mem::take(&mut node.stopped_inbox);
        // The threads wake with their timers long expired: the Raft poll runs before the
        // network thread hands over what queued up meanwhile (a fetch timeout fires first).
        self.with_raft(id, |_, _| Ok(()));
        for (from, msg) in inbox {
            if self.nodes[&id].process != ProcessState::Running {
                break;
            }
            self.dispatch(id, from, msg);
        }
        Ok(())
    }

    /// A pause of `ms` (a long GC or an overloaded machine): STOP now, CONT later.
    pub fn slow(&mut self, id: i32, ms: u64) -> Result<(), SimError> {
        self.stop(id)?;
        self.scheduler
            .schedule(self.now_ms.saturating_add(ms), Event::Resume { node: id });
        Ok(())
    }

    // ----- network faults -----

    /// Cut every link between different groups, both ways (`partition 101 | 102,103`).
    pub fn partition(&mut self, groups: &[Vec<i32>]) -> Result<(), SimError> {
        for g in groups {
            for id in g {
                if !self.nodes.contains_key(id) {
                    return Err(SimError::UnknownNode(*id));
                }
            }
        }
        for (i, a) in groups.iter().enumerate() {
            for (j, b) in groups.iter().enumerate() {
                if i != j {
                    for x in a {
                        for y in b {
                            self.network.blocked.insert((*x, *y));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Cut one direction only: nothing from `from` reaches `to`.
    pub fn block(&mut self, from: i32, to: i32) -> Result<(), SimError> {
        for id in [from, to] {
            if !self.nodes.contains_key(&id) {
                return Err(SimError::UnknownNode(id));
            }
        }
        self.network.blocked.insert((from, to));
        Ok(())
    }

    /// Set the base latency of `from -> to` (both directions when `symmetric`).
    pub fn set_link_latency(
        &mut self,
        from: i32,
        to: i32,
        ms: u64,
        symmetric: bool,
    ) -> Result<(), SimError> {
        for id in [from, to] {
            if !self.nodes.contains_key(&id) {
                return Err(SimError::UnknownNode(id));
            }
        }
        self.network.link_latency_ms.insert((from, to), ms);
        if symmetric {
            self.network.link_latency_ms.insert((to, from), ms);
        }
        Ok(())
    }

    /// Remove every partition and drop rule.
    pub fn heal(&mut self) {
        self.network.blocked.clear();
        self.network.drop_rules.clear();
    }

    /// Add a drop rule.
    pub fn add_drop_rule(&mut self, rule: super::network::DropRule) {
        self.network.drop_rules.push(rule);
    }

    /// Set the random drop rate (0.0 ..= 1.0).
    pub fn set_drop_rate(&mut self, p: f64) {
        self.network.config.drop_rate = p.clamp(0.0, 1.0);
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

    // ----- views -----

    /// The view the page draws.
    pub fn view(&self) -> ClusterView {
        let nodes = self.nodes.values().map(|n| self.node_view(n)).collect();
        let mut messages: Vec<MessageView> = self
            .network
            .in_flight
            .values()
            .map(|m| message_view(m, false))
            .collect();
        messages.extend(
            self.network
                .dropped
                .iter()
                .filter(|m| m.send_ms + RECENT_MESSAGE_MS >= self.now_ms)
                .map(|m| message_view(m, true)),
        );
        messages.sort_by_key(|m| (m.send_ms, m.id));
        let recently_delivered = self
            .network
            .recently_delivered
            .iter()
            .filter(|m| m.arrive_ms + RECENT_MESSAGE_MS >= self.now_ms)
            .cloned()
            .collect();
        ClusterView {
            now_ms: self.now_ms,
            seed: self.config.seed,
            events_run: self.events_run,
            nodes,
            messages,
            recently_delivered,
            blocked: self.network.blocked.iter().copied().collect(),
            partitions: self.partition_views(),
        }
    }

    /// The data partitions of the active controller, by topic name then partition.
    fn partition_views(&self) -> Vec<PartitionView> {
        let Some(c) = self
            .active_controller()
            .and_then(|id| self.nodes.get(&id))
            .and_then(|n| n.controller.as_ref())
        else {
            return Vec::new();
        };
        let r = &c.state.replication;
        let mut out = Vec::new();
        for (name, id) in r.topics_by_name.iter() {
            let Some(topic) = r.topics.get(id) else {
                continue;
            };
            for (p, rec) in &topic.parts {
                out.push(PartitionView {
                    topic: name.clone(),
                    partition: *p,
                    leader: rec.leader,
                    replicas: rec.replicas.clone(),
                    isr: rec.isr.clone(),
                });
            }
        }
        out.sort_by(|a, b| (&a.topic, a.partition).cmp(&(&b.topic, b.partition)));
        out
    }

    fn node_view(&self, n: &Node) -> NodeView {
        let log = &n.disk.metadata_log;
        let (raft_state, epoch, leader_id, voted_id, hw, next_timer) = match &n.raft {
            Some(r) => {
                let s = r.state();
                (
                    s.name().to_string(),
                    s.epoch(),
                    s.leader_id(),
                    s.voted_key().map(|k| k.id),
                    s.high_watermark(),
                    n.scheduled_wake_ms,
                )
            }
            None => {
                let stored = n
                    .disk
                    .read_file(&crate::raft::quorum_state::quorum_state_path())
                    .and_then(|t| crate::raft::replica_key::ElectionState::from_json(t, &[]).ok());
                (
                    "-".to_string(),
                    stored.as_ref().map(|s| s.epoch).unwrap_or(0),
                    stored.as_ref().and_then(|s| s.leader_id),
                    stored.as_ref().and_then(|s| s.voted_key.map(|k| k.id)),
                    None,
                    None,
                )
            }
        };
        let (raft_timer, high_watermark_calc) = match &n.raft {
            Some(r) => (raft_timer_view(r.state()), high_watermark_view(r.state())),
            None => (None, None),
        };
        let batches = log.batches();
        let start = batches.len().saturating_sub(MAX_BATCHES_IN_VIEW);
        let batches = batches[start..]
            .iter()
            .map(|b| BatchView {
                base_offset: b.base_offset,
                last_offset: b.last_offset(),
                epoch: b.partition_leader_epoch,
                is_control: b.is_control,
                committed: hw.is_some_and(|hw| b.last_offset() < hw),
                records: b
                    .records
                    .iter()
                    .map(|r| r.short_name().to_string())
                    .collect(),
            })
            .collect();
        let lines: Vec<String> = n
            .log
            .lines()
            .rev()
            .take(MAX_LOG_LINES_IN_VIEW)
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        NodeView {
            id: n.id,
            roles: n.roles.name().to_string(),
            is_voter: n.roles.is_voter(),
            process: n.process.name().to_string(),
            raft_state,
            epoch,
            leader_id,
            voted_id,
            log_start_offset: log.start_offset(),
            log_end_offset: log.end_offset(),
            high_watermark: hw,
            batches,
            segments: log.segment_bases().to_vec(),
            snapshots: log.snapshots().iter().map(|s| s.file_name()).collect(),
            fetching_snapshot: log
                .partial_snapshot
                .as_ref()
                .map(|p| (p.file_name(), p.received)),
            log_tail: lines,
            next_timer_ms: next_timer,
            raft_timer,
            high_watermark_calc,
            last_transition: n.log.lines().rev().find_map(transition_view),
            controller: n
                .controller
                .as_ref()
                .map(|c| controller_view(c, self.now_ms)),
            broker: n.broker.as_ref().map(|b| BrokerView {
                state: b.state.name().to_string(),
                broker_epoch: b.broker_epoch,
                fenced: b.fenced,
                last_heartbeat_ms: b.last_heartbeat_ms,
            }),
            image: n.loader.as_ref().map(|l| {
                // MetadataProvenance.EMPTY is (-1, -1) before the first publication.
                let (offset, epoch) = if l.publish_count == 0 {
                    (-1, -1)
                } else {
                    (l.image.provenance.offset, l.image.provenance.epoch)
                };
                ImageView {
                    offset,
                    epoch,
                    publish_count: l.publish_count,
                    changed: l
                        .last_publication
                        .as_ref()
                        .map(|p| p.changed.iter().map(|c| c.to_string()).collect())
                        .unwrap_or_default(),
                    image: l.image.clone(),
                }
            }),
        }
    }
}

/// The timer of a Raft state, for the view.
pub(crate) fn raft_timer_view(s: &EpochState) -> Option<RaftTimerView> {
    let (kind, deadline_ms, duration_ms) = match s {
        EpochState::Unattached(u) => ("election", u.election_deadline_ms?, u.election_timeout_ms),
        EpochState::Prospective(p) => ("election", p.election_deadline_ms, p.election_timeout_ms),
        EpochState::Candidate(c) => ("election", c.election_deadline_ms, c.election_timeout_ms),
        EpochState::Resigned(r) => ("election", r.election_deadline_ms, r.election_timeout_ms),
        EpochState::Follower(f) => ("fetch", f.fetch_deadline_ms, f.fetch_timeout_ms),
        EpochState::Leader(l) if l.voter_states.len() > 1 => (
            "check-quorum",
            l.check_quorum_deadline_ms,
            l.check_quorum_timeout_ms,
        ),
        EpochState::Leader(_) => return None,
    };
    Some(RaftTimerView {
        kind: kind.to_string(),
        deadline_ms,
        duration_ms,
    })
}

/// The leader's high-watermark computation, for the view.
fn high_watermark_view(s: &EpochState) -> Option<HighWatermarkView> {
    let EpochState::Leader(l) = s else {
        return None;
    };
    let voters = l.voters_by_descending_end_offset();
    let index_of_hw = voters.len() / 2;
    let candidate = voters.get(index_of_hw).and_then(|v| v.1);
    Some(HighWatermarkView {
        index_of_hw,
        candidate,
        epoch_start_offset: l.epoch_start_offset,
        past_epoch_start: candidate.is_some_and(|c| c > l.epoch_start_offset),
        high_watermark: l.high_watermark,
        voters,
    })
}

/// Reads a `Completed transition to XState(..) from YState(..)` line, as the console's
/// `transitions` command does.
fn transition_view(l: &LogLine) -> Option<TransitionView> {
    let rest = l.message.strip_prefix("Completed transition to ")?;
    let name = |t: &str| {
        let t = t.split('(').next().unwrap_or(t);
        t.strip_suffix("State").unwrap_or(t).to_string()
    };
    let from = rest
        .rsplit_once(" from ")
        .map(|(_, f)| name(f))
        .unwrap_or_default();
    let epoch = rest
        .split("epoch=")
        .nth(1)
        .and_then(|e| e.split([',', ')']).next())
        .and_then(|e| e.parse().ok())
        .unwrap_or(0);
    Some(TransitionView {
        time_ms: l.time_ms,
        from,
        to: name(rest),
        epoch,
    })
}

fn controller_view(c: &QuorumController, now_ms: u64) -> ControllerView {
    let oc = &c.offset_control;
    ControllerView {
        active: c.is_active(),
        active_epoch: c.active_epoch(),
        queue: c.queue.queued().map(|e| e.name.clone()).collect(),
        deferred: c
            .queue
            .deferred()
            .map(|d| (d.event.name.clone(), d.deadline_ms))
            .collect(),
        purgatory: c
            .purgatory
            .iter()
            .map(|(o, w)| (w.name.clone(), o))
            .collect(),
        last_event: c.last_event.clone(),
        last_result: c
            .last_result
            .as_ref()
            .map(|r| (r.records.iter().map(|m| m.to_json()).collect(), r.is_atomic)),
        last_committed_offset: oc.last_committed_offset,
        last_stable_offset: oc.last_stable_offset,
        next_write_offset: oc.next_write_offset,
        snapshots: oc.snapshot_registry.epochs_list(),
        topics_by_name: TimelineView::of(
            "topicsByName",
            &oc.snapshot_registry,
            &c.state.replication.topics_by_name,
            Some(oc.last_stable_offset),
            c.last_revert.clone(),
        ),
        brokers: c
            .state
            .cluster
            .brokers
            .iter()
            .map(|(id, b)| (*id, b.record.broker_epoch, b.record.fenced))
            .collect(),
        controllers: c.state.cluster.controllers.keys().copied().collect(),
        sessions: c
            .broker_sessions()
            .into_iter()
            .filter(|_| c.is_active())
            .map(|(id, t)| (id, now_ms.saturating_sub(t)))
            .collect(),
        session_timeout_ms: c.session_timeout_ms(),
        heartbeats: c
            .heartbeats
            .recent
            .iter()
            .filter(|_| c.is_active())
            .map(|(id, times)| (*id, times.iter().copied().collect()))
            .collect(),
    }
}

fn message_view(m: &InFlight, dropped: bool) -> MessageView {
    MessageView {
        id: m.id,
        from: m.from,
        to: m.to,
        kind: m.message.kind(),
        summary: m.message.summary(),
        send_ms: m.send_ms,
        arrive_ms: m.arrive_ms,
        dropped,
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

/// The MetadataLoader's logger.
const LOADER_LOGGER: &str = "org.apache.kafka.image.loader.MetadataLoader";

/// The SnapshotGenerator's emit event: `Creating new KRaft snapshot file ...`, then the
/// SnapshotEmitter writes the image through `createSnapshot`.
fn emit_snapshot(
    id: i32,
    raft: &mut KafkaRaftClient,
    image: &crate::image::MetadataImage,
    reason: &str,
    io: &mut RaftIo,
) -> Result<(), String> {
    use crate::image::snapshot_generator::{EMITTER_LOGGER, LOGGER};
    let p = image.provenance;
    let snapshot_id = crate::raft::log::OffsetAndEpoch {
        offset: p.offset + 1,
        epoch: p.epoch,
    };
    let name = format!(
        "snapshot {}",
        crate::raft::snapshot::snapshot_name(snapshot_id)
    );
    io.log_line(
        Level::Info,
        &format!("[SnapshotGenerator id={id}] "),
        LOGGER,
        format!("Creating new KRaft snapshot file {name} because {reason}."),
    );
    let emitter = format!("[SnapshotEmitter id={id}] ");
    if raft.create_snapshot(snapshot_id, p.time_ms, image.records(), io)? {
        io.log_line(
            Level::Info,
            &emitter,
            EMITTER_LOGGER,
            format!("Successfully wrote {name}"),
        );
    } else {
        io.log_line(
            Level::Error,
            &emitter,
            EMITTER_LOGGER,
            format!("Not generating {name} because it already exists."),
        );
    }
    Ok(())
}

#[cfg(test)]
mod view_tests {
    use super::*;
    use crate::sim::WorldConfig;

    #[test]
    fn the_view_shows_timers_the_hw_computation_and_transitions() {
        let mut w = World::new(WorldConfig::new(5, vec![101, 102, 103], vec![1])).unwrap();
        w.run_for(5_000);
        let (leader, _) = w.leader().expect("a leader after 5 s");
        let v = w.view();
        for n in &v.nodes {
            let timer = n
                .raft_timer
                .as_ref()
                .expect("every running node has a timer");
            assert!(
                timer.deadline_ms >= v.now_ms && timer.deadline_ms <= v.now_ms + timer.duration_ms
            );
            if n.id == leader {
                assert_eq!(
                    (timer.kind.as_str(), timer.duration_ms),
                    ("check-quorum", 3000)
                );
                let calc = n
                    .high_watermark_calc
                    .as_ref()
                    .expect("the leader's HW computation");
                assert_eq!(calc.voters.len(), 3);
                assert!(calc.voters.windows(2).all(|p| p[0].1 >= p[1].1));
                assert_eq!(calc.index_of_hw, 1);
                assert_eq!(calc.candidate, calc.voters[1].1);
                assert_eq!(calc.high_watermark, n.high_watermark);
                assert!(calc.past_epoch_start);
                let t = n.last_transition.as_ref().expect("a transition line");
                assert_eq!(
                    (t.from.as_str(), t.to.as_str(), t.epoch),
                    ("Candidate", "Leader", n.epoch)
                );
            } else {
                assert_eq!((timer.kind.as_str(), timer.duration_ms), ("fetch", 2000));
                assert!(n.high_watermark_calc.is_none());
                assert_eq!(
                    n.last_transition.as_ref().map(|t| t.to.as_str()),
                    Some("Follower")
                );
            }
        }
        // The next delivery is in the view at once.
        let delivered = w.network().delivered;
        while w.network().delivered == delivered {
            assert!(w.step(), "events run out");
        }
        let v = w.view();
        assert!(!v.recently_delivered.is_empty());
        assert!(v.recently_delivered.iter().all(|m| m.arrive_ms <= v.now_ms
            && m.arrive_ms + RECENT_MESSAGE_MS >= v.now_ms
            && !m.dropped));
        w.kill(leader).unwrap();
        let killed = w.view().nodes.into_iter().find(|n| n.id == leader).unwrap();
        assert!(killed.raft_timer.is_none() && killed.high_watermark_calc.is_none());
    }

    #[test]
    fn the_view_shows_the_partitions_of_the_active_controller_and_the_cut_links() {
        let mut w = World::new(WorldConfig::new(1, vec![100], vec![1, 2, 3])).unwrap();
        w.run_for(4_000);
        assert!(w.view().partitions.is_empty());
        let mut c = crate::lesson::Console::new();
        c.world = Some(w);
        c.exec("kafka-topics.sh --bootstrap-server localhost:9092 --create --topic orders --partitions 2 --replication-factor 3")
            .unwrap();
        c.exec("sleep 1s").unwrap();
        let w = c.world.as_mut().unwrap();
        let v = w.view();
        let names: Vec<(String, i32)> = v
            .partitions
            .iter()
            .map(|p| (p.topic.clone(), p.partition))
            .collect();
        assert_eq!(
            names,
            [("orders".to_string(), 0), ("orders".to_string(), 1)]
        );
        for p in &v.partitions {
            assert_eq!(p.replicas.len(), 3);
            assert_eq!(p.isr.len(), 3);
            assert!(p.replicas.contains(&p.leader));
        }
        assert!(v.blocked.is_empty());
        w.partition(&[vec![1], vec![2, 3, 100]]).unwrap();
        let v = w.view();
        assert!(v.blocked.contains(&(1, 100)) && v.blocked.contains(&(100, 1)));
        assert!(!v.blocked.contains(&(2, 100)));
        w.heal();
        assert!(w.view().blocked.is_empty());
    }

    #[test]
    fn the_view_shows_each_loaders_image_as_the_shell_tree() {
        use crate::image::shell_tree::ShellNode;
        let mut w = World::new(WorldConfig::new(5, vec![101, 102, 103], vec![1])).unwrap();
        let empty = w.view();
        let b1 = empty.nodes.iter().find(|n| n.id == 1).unwrap();
        let image = b1.image.as_ref().expect("broker 1 runs a MetadataLoader");
        assert_eq!(
            (image.offset, image.epoch, image.publish_count),
            (-1, -1, 0)
        );
        w.run_for(5_000);
        let v = w.view();
        let b1 = v.nodes.iter().find(|n| n.id == 1).unwrap();
        let image = b1.image.as_ref().unwrap();
        assert!(image.publish_count > 0 && image.offset >= 0);
        assert!(image.offset < b1.high_watermark.unwrap());
        match image.tree().lookup("/image/cluster/brokers/1") {
            Some(ShellNode::File(t)) => assert!(t.starts_with("BrokerRegistration(id=1, "), "{t}"),
            other => panic!("/image/cluster/brokers/1 is {other:?}"),
        }
        assert!(matches!(
            image.tree().lookup("/image/features/metadata.version"),
            Some(ShellNode::File(_))
        ));
        assert!(matches!(
            image.tree().lookup("/image/provenance"),
            Some(ShellNode::File(t)) if t.starts_with(&format!("offset {}, epoch {}, ", image.offset, image.epoch))
        ));
        // Loaders at the same offset hold the same image.
        for n in &v.nodes {
            if let Some(other) = n.image.as_ref().filter(|i| i.offset == image.offset) {
                assert_eq!(
                    other.tree(),
                    image.tree(),
                    "node {} at offset {}",
                    n.id,
                    image.offset
                );
            }
        }
        w.kill(1).unwrap();
        assert!(w
            .view()
            .nodes
            .iter()
            .find(|n| n.id == 1)
            .unwrap()
            .image
            .is_none());
    }
}
