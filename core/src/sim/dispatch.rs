//! Node composition and dispatch: the network's send and deliver, handing a delivered message
//! to the part of a process that handles it (Raft client, QuorumController, broker lifecycle,
//! ReplicaManager), running a node's controller, and the work after every step of a node
//! (poll Raft, feed the MetadataLoader and SnapshotGenerator, send what was produced, schedule
//! the next wake-ups).

use super::admin_client::ADMIN_CLIENT_ID;
use super::history::ProcessEvent;
use super::message::Message;
use super::network::message_view;
use super::network::InFlight;
use super::node::{Node, ProcessState};
use super::world::{Event, World, BROKER_CORRELATION_BASE, GRACEFUL_SHUTDOWN_TIMEOUT_MS};
use crate::broker::data_io::DataIo;
use crate::broker::forwarding::FORWARDING_CORRELATION_BASE;
use crate::broker::messages::DataMessage;
use crate::broker::replica_config::REPLICA_CORRELATION_BASE;
use crate::broker::BrokerLifecycleManager;
use crate::common::message::controller::{
    ControllerMessage, ControllerRequest, ControllerResponse,
};
use crate::common::node_log::Level;
use crate::common::protocol::Errors;
use crate::controller::QuorumController;
use crate::image::{MetadataLoader, SnapshotGenerator};
use crate::raft::disk::{clean_shutdown_content, CLEAN_SHUTDOWN_FILE};
use crate::raft::io::{Outbound, RaftIo};
use crate::raft::listener::RaftEvent;
use crate::raft::KafkaRaftClient;

impl World {
    /// Run `f` on a running node's Raft client, then the node's usual after-step work.
    pub(super) fn with_raft(
        &mut self,
        id: i32,
        f: impl FnOnce(&mut KafkaRaftClient, &mut RaftIo) -> Result<(), String>,
    ) {
        self.with_node(id, |raft, _, _, io, _| f(raft, io));
    }

    /// Run `f` on a running node (its Raft client and, on controllers, its QuorumController),
    /// then poll Raft, hand committed batches and leader changes to the controller, send what
    /// was produced and schedule the next wake-ups.
    pub(super) fn with_node(
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
        let mut rout: Vec<(i32, DataMessage)> = Vec::new();
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
                rules: self.config.rules,
            };
            let r = f(
                raft,
                controller.as_mut(),
                broker.as_mut(),
                &mut io,
                &mut cout,
            )
            .and_then(|_| raft.poll(&mut io));
            let r = r.map(|wake| match broker.as_mut() {
                Some(b) => poll_broker(b, raft, loader.as_ref(), &mut io, &mut cout, wake),
                None => wake,
            });
            let r = r.and_then(|wake| {
                let events = raft.poll_listener(&io)?;
                if let Some(l) = loader.as_mut() {
                    feed_loader(id, l, snapshot_generator, raft, &events, &mut io)?;
                }
                // The ReplicaManager follows the published image, then does its periodic work.
                let mut wake = wake;
                if let (Some(rm), Some(l)) = (replicas.as_mut(), loader.as_ref()) {
                    let epoch = broker.as_ref().map(|b| b.broker_epoch).unwrap_or(-1);
                    let mut dio = DataIo {
                        now_ms: now,
                        disk: &mut *io.disk,
                        log: &mut *io.log,
                        rng: &mut *io.rng,
                        out: &mut rout,
                        cout: &mut cout,
                        rules: io.rules,
                    };
                    wake = wake.min(poll_data_plane(rm, l, raft, epoch, &mut dio));
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
        self.after_step(id, outbox, cout, rout, result, controller_next);
    }

    /// The end of a node's step: send what it produced (Raft, controller and replica messages,
    /// in that order), schedule its next wake-up and controller run (or end it on a fatal
    /// fault), and end the process once its Raft client has shut down.
    fn after_step(
        &mut self,
        id: i32,
        outbox: Vec<Outbound>,
        cout: Vec<(i32, ControllerMessage)>,
        rout: Vec<(i32, DataMessage)>,
        result: Result<u64, String>,
        controller_next: Option<u64>,
    ) {
        for o in outbox {
            self.send(id, o.to, Message::Raft(o.message));
        }
        for (to, m) in cout {
            self.send(id, to, Message::Controller(m));
        }
        for (to, m) in rout {
            self.send(id, to, Message::Data(m));
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
            self.mark_process(id, ProcessEvent::Exit);
            self.crash(id);
        }
    }

    /// Run the next event of node `id`'s QuorumController.
    pub(super) fn run_controller(&mut self, id: i32) {
        if let Some(n) = self.nodes.get_mut(&id) {
            n.controller_run_ms = None;
        }
        self.with_node(id, |raft, ctrl, _, io, cout| match ctrl {
            Some(c) => c.run_one(raft, io, cout),
            None => Ok(()),
        });
    }

    /// A controller message for node `to`: a response to its ReplicaManager or broker
    /// lifecycle, or a request or response for its QuorumController (refused without one).
    fn handle_controller_message(&mut self, to: i32, from: i32, msg: ControllerMessage) {
        let now = self.now_ms;
        if let ControllerMessage::Response {
            correlation_id,
            body,
        } = &msg
        {
            if *correlation_id >= FORWARDING_CORRELATION_BASE {
                let (cid, body) = (*correlation_id, body.clone());
                self.with_data_plane(to, |rm, dio| rm.handle_forwarded_response(cid, body, dio));
                self.with_node(to, |_, _, _, _, _| Ok(()));
                return;
            }
            if *correlation_id >= REPLICA_CORRELATION_BASE {
                let (cid, body) = (*correlation_id, body.clone());
                self.with_data_plane(to, |rm, dio| rm.handle_alter_response(cid, &body, dio));
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

    /// Whether `m` is a Raft RPC (its open requests are kept apart from the others').
    fn is_raft_message(m: &Message) -> bool {
        matches!(m, Message::Raft(_))
    }

    /// Send `message` from `from` to `to` over the simulated network.
    pub(super) fn send(&mut self, from: i32, to: i32, message: Message) {
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
            self.network.record_sent(&m, self.events_run);
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
        self.network.record_sent(&m, self.events_run);
        self.network.in_flight.insert(id, m);
    }

    /// Deliver a synthesized failure response to `client` for its request to `server`.
    pub(super) fn send_failure(
        &mut self,
        server: i32,
        client: i32,
        failure: Message,
        delay_ms: u64,
    ) {
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
        self.network.record_sent(&m, self.events_run);
        self.network.in_flight.insert(id, m);
    }

    /// A message arrives: lost on a cut link, queued for a frozen process, handed to a running
    /// one (or to the admin client).
    pub(super) fn deliver(&mut self, id: u64) {
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
            match m.message {
                Message::Controller(ControllerMessage::Response {
                    correlation_id,
                    body,
                }) => {
                    self.admin.responses.insert(correlation_id, body);
                }
                Message::Raft(crate::raft::messages::RaftMessage::Response {
                    correlation_id,
                    body,
                }) => {
                    self.admin.raft_responses.insert(correlation_id, body);
                }
                Message::Data(DataMessage::Response {
                    correlation_id,
                    body,
                }) => self.client_received(correlation_id, body),
                _ => {}
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
    pub(super) fn dispatch(&mut self, to: i32, from: i32, message: Message) {
        if let Some(cid) = message.request_id() {
            if let Some(failure) = message.failure_response(Errors::BrokerNotAvailable) {
                let raft = Self::is_raft_message(&message);
                self.open_requests.insert((to, from, cid, raft), failure);
            }
        }
        match message {
            Message::Raft(msg) => self.with_raft(to, move |raft, io| raft.handle(from, msg, io)),
            Message::Controller(msg) => self.handle_controller_message(to, from, msg),
            Message::Data(msg) => self.handle_data_message(to, from, msg),
        }
    }

    /// A data-plane message for node `to`'s ReplicaManager (a request from a client or a
    /// follower, or the answer to its own fetch), then the usual after-step work.
    fn handle_data_message(&mut self, to: i32, from: i32, msg: DataMessage) {
        self.with_data_plane(to, |rm, dio| match msg {
            DataMessage::Request {
                correlation_id,
                body,
            } => rm.handle_request(from, correlation_id, body, dio),
            DataMessage::Response {
                correlation_id,
                body,
            } => rm.handle_response(from, correlation_id, body, dio),
        });
        self.with_node(to, |_, _, _, _, _| Ok(()));
    }

    /// Run `f` on node `id`'s ReplicaManager with its disk and logs, and send what it
    /// produced (nothing on a node without one).
    pub(super) fn with_data_plane(
        &mut self,
        id: i32,
        f: impl FnOnce(&mut crate::broker::replica_manager::ReplicaManager, &mut DataIo),
    ) {
        let now = self.now_ms;
        let rules = self.config.rules;
        let mut rout: Vec<(i32, DataMessage)> = Vec::new();
        let mut cout: Vec<(i32, ControllerMessage)> = Vec::new();
        {
            let Some(node) = self.nodes.get_mut(&id) else {
                return;
            };
            if node.process != ProcessState::Running {
                return;
            }
            let Node {
                replicas,
                disk,
                log,
                ..
            } = node;
            let Some(rm) = replicas.as_mut() else {
                return;
            };
            let mut dio = DataIo {
                now_ms: now,
                disk,
                log,
                rng: &mut self.rng,
                out: &mut rout,
                cout: &mut cout,
                rules,
            };
            rm.apply_rules(&dio.rules);
            f(rm, &mut dio);
        }
        for (to, m) in cout {
            self.send(id, to, Message::Controller(m));
        }
        for (to, m) in rout {
            self.send(id, to, Message::Data(m));
        }
    }
}

/// The error response a non-controller gives to a controller request.
fn not_controller_response(body: &ControllerRequest) -> Option<ControllerResponse> {
    Some(body.not_controller_response())
}

/// The broker's data plane after a Raft poll: the ReplicaManager takes the published image,
/// does its periodic work, and the forwarding channel its own (to Raft's leader). Returns
/// when it next has work.
fn poll_data_plane(
    rm: &mut crate::broker::replica_manager::ReplicaManager,
    loader: &MetadataLoader,
    raft: &KafkaRaftClient,
    broker_epoch: i64,
    dio: &mut DataIo,
) -> u64 {
    rm.apply_rules(&dio.rules);
    if loader.publish_count > 0 {
        rm.sync(&loader.image, loader.publish_count, dio);
        rm.apply_rules(&dio.rules);
    }
    let leader = raft.state().leader_id();
    let wake = rm.poll(leader, broker_epoch, dio);
    let controller = leader.map(|l| (l, raft.quorum.voter_port(l).unwrap_or(0)));
    wake.min(rm.poll_forwarding(controller, dio))
}

/// The broker's lifecycle after a Raft poll: registration and heartbeats to the active
/// controller (the metadata log's leader), the clean-shutdown marker, and a controlled shutdown
/// ending in Raft's own. Returns the earlier of `wake` and the broker's next wake-up.
fn poll_broker(
    b: &mut BrokerLifecycleManager,
    raft: &mut KafkaRaftClient,
    loader: Option<&MetadataLoader>,
    io: &mut RaftIo,
    cout: &mut Vec<(i32, ControllerMessage)>,
    wake: u64,
) -> u64 {
    let now = io.now_ms;
    // RaftControllerNodeProvider: the leader and its CONTROLLER port.
    let controller = raft
        .state()
        .leader_id()
        .map(|l| (l, raft.quorum.voter_port(l).unwrap_or(0)));
    let applied = loader
        .map(|l| l.published_offset())
        .unwrap_or_else(|| raft.listener_next_offset() - 1);
    let metadata_version =
        loader.and_then(|l| l.image.features.levels.get("metadata.version").copied());
    if let Some(m) = b.poll(now, controller, applied, metadata_version, io.log) {
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
        raft.shutdown(GRACEFUL_SHUTDOWN_TIMEOUT_MS, io);
        if let Ok(w) = raft.poll(io) {
            return wake.min(w);
        }
    }
    wake.min(b.next_wake_ms(now).unwrap_or(u64::MAX))
}

/// Hand the Raft listener's events to node `id`'s MetadataLoader (commits and snapshot loads),
/// then let the SnapshotGenerator see every publication and emit the snapshots it asks for.
fn feed_loader(
    id: i32,
    l: &mut MetadataLoader,
    snapshot_generator: &mut Option<SnapshotGenerator>,
    raft: &mut KafkaRaftClient,
    events: &[RaftEvent],
    io: &mut RaftIo,
) -> Result<(), String> {
    let now = io.now_ms;
    l.skip_catch_up = !io.rules.loader_catch_up;
    for e in events {
        match e {
            RaftEvent::Commit(batches) => l
                .handle_commit(batches, raft.high_watermark())
                .map_err(|e| format!("Unexpected error in metadata loader: {e}"))?,
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
        emit_snapshot(id, raft, &p.image, &reason, io)?;
    }
    Ok(())
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
    let snapshot_id = crate::common::offset_and_epoch::OffsetAndEpoch {
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
