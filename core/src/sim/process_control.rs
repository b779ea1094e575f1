//! Process control and network faults: formatting and starting a node, crashes and fatal
//! faults, `kill -9`, `kill -TERM`, `start`, `kill -STOP`/`-CONT`, `slow`, adding a broker,
//! and the partitions, blocked links, latencies and drop rules of the network.

use super::admin_client::ADMIN_CLIENT_ID;
use super::history::{ProcessEvent, ProcessMark};
use super::message::Message;
use super::node::{Node, ProcessState, Roles};
use super::world::{Event, SimError, World, GRACEFUL_SHUTDOWN_TIMEOUT_MS, MAX_NODES};
use crate::broker::replica_manager::ReplicaManager;
use crate::broker::BrokerLifecycleManager;
use crate::common::node_log::{Level, LogFile, LogLine};
use crate::common::protocol::Errors;
use crate::common::uuid::Uuid;
use crate::controller::QuorumController;
use crate::image::MetadataLoader;
use crate::raft::disk::{read_clean_shutdown_epoch, CLEAN_SHUTDOWN_FILE};
use crate::raft::io::RaftIo;
use crate::raft::KafkaRaftClient;

impl Node {
    /// What its Raft client starts with: `controller.quorum.voters` is the static set (no
    /// directory ids, kraft.version 0); with `controller.quorum.bootstrap.servers` there is
    /// none and the voter set comes from the checkpoint and the log.
    fn raft_settings(&self) -> crate::raft::client::RaftSettings {
        let static_voters = match &self.quorum_props {
            super::node_config::QuorumProps::Voters(v) => {
                crate::raft::voter_set::VoterSet::new(v.iter().map(|(vid, port)| {
                    crate::raft::voter_set::VoterNode::new(
                        crate::raft::replica_key::ReplicaKey {
                            id: *vid,
                            directory_id: None,
                        },
                        *port,
                    )
                }))
            }
            super::node_config::QuorumProps::BootstrapServers(_) => Default::default(),
        };
        crate::raft::client::RaftSettings {
            local_id: self.id,
            directory_id: self.directory_id,
            local_port: self.controller_port,
            static_voters,
            bootstrap_servers: self.quorum_props.bootstrap(),
            can_become_voter: self.roles.has_controller(),
        }
    }
}

impl World {
    /// Keeps a process event of node `id` in the history (for views only).
    pub(super) fn mark_process(&mut self, id: i32, what: ProcessEvent) {
        self.network.history.push_mark(ProcessMark {
            time_ms: self.now_ms,
            node: id,
            what,
            at_event: self.events_run,
        });
    }

    /// A fatal fault: log it and end the process, as Kafka's fatal fault handler does.
    pub(super) fn fatal(&mut self, id: i32, fault: String) {
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
        self.mark_process(id, ProcessEvent::Crash);
        self.crash(id);
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
        let controllers: Vec<(i32, u16)> = self
            .nodes
            .values()
            .filter(|n| n.roles.has_controller())
            .map(|n| (n.id, n.controller_port))
            .collect();
        if let Some(n) = self.nodes.get_mut(&id) {
            n.quorum_props = match self.config.quorum_mode {
                super::node_config::QuorumMode::Static => {
                    super::node_config::QuorumProps::Voters(controllers)
                }
                _ => super::node_config::QuorumProps::BootstrapServers(controllers),
            };
        }
        self.write_properties(id);
        self.format(id, &super::node_config::Bootstrap::Broker);
        self.mark_process(id, ProcessEvent::Start);
        self.start_process(id);
        Ok(())
    }

    // ----- processes -----

    /// Start node `id`'s process from its disk: a new incarnation of its broker lifecycle,
    /// loader, ReplicaManager, QuorumController and Raft client, then its first poll.
    pub(super) fn start_process(&mut self, id: i32) {
        let now = self.now_ms;
        let quorum = self.config.quorum.clone();
        let cluster_id = self.cluster_id.to_string();
        let controller_config = self.config.controller.clone();
        let run_controllers = self.config.run_controllers;
        let mut outbox = Vec::new();
        let result = {
            let node = self.nodes.get_mut(&id).expect("node exists");
            let settings = node.raft_settings();
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
                rules: self.config.rules,
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
            node.replicas = (node.roles != Roles::Controller)
                .then(|| ReplicaManager::new(id, crate::raft::disk::LOG_DIRS, now));
            node.controller = if node.roles.has_controller() && run_controllers {
                let port = node.controller_port;
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
            let created = KafkaRaftClient::new(settings, quorum, cluster_id, &mut io);
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
    pub(super) fn crash(&mut self, id: i32) {
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
            self.network.record_lost(&m, self.now_ms);
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
        self.mark_process(id, ProcessEvent::Kill);
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
        self.mark_process(id, ProcessEvent::Terminate);
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

    /// Start a killed node again (`start N`): it recovers from its disk. A node that was never
    /// formatted cannot start, as Kafka cannot without meta.properties.
    pub fn restart(&mut self, id: i32) -> Result<(), SimError> {
        let node = self.node_mut(id)?;
        if node.process != ProcessState::Killed {
            return Err(SimError::BadProcessState {
                node: id,
                state: node.process.name(),
                action: "start",
            });
        }
        if !node.formatted {
            return Err(SimError::BadConfig(format!(
                "node {id} is not formatted: no meta.properties in {id} (run kafka-storage.sh format --config {id}/{} first)",
                super::node_config::properties_file(node.roles)
            )));
        }
        self.mark_process(id, ProcessEvent::Start);
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
        self.mark_process(id, ProcessEvent::Stop);
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
        self.mark_process(id, ProcessEvent::Cont);
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
}
