//! The broker's ReplicaManager (core/src/main/scala/kafka/server/ReplicaManager.scala at
//! confluentinc/kafka 06d492d8): it takes the partitions the MetadataImage gives this broker
//! (`applyDelta`: make leader, make follower, create or delete the logs), answers Produce,
//! Fetch and ListOffsets, keeps acks=all produces and long-polling fetches in purgatory, runs
//! the follower's fetcher, and sends the leader's ISR changes to the controller with
//! AlterPartition. The `isr-expiration` task checks for followers that fell behind every
//! replica.lag.time.max.ms / 2 (ReplicaManager.startup); the high watermarks are checkpointed
//! every replica.high.watermark.checkpoint.interval.ms.

use std::collections::BTreeMap;

use super::data_io::DataIo;
use super::delayed::{DelayedFetch, DelayedProduce};
use super::fetcher::ReplicaFetcher;
use super::forwarding::ForwardingManager;
use super::log_manager;
use super::messages::{
    DataMessage, DataRequest, DataResponse, ListOffsetsRequest, ListOffsetsResponse,
};
use super::partition::{partition_name, state_change_line, BrokerInfo, Partition};
use super::replica_config::{
    ALTER_PARTITION_TIMEOUT_MS, REPLICA_CORRELATION_BASE, REPLICA_LAG_TIME_MAX_MS,
};
use crate::common::message::controller::{
    AlterPartitionState, ApiError, ControllerMessage, ControllerRequest, ControllerResponse,
};
use crate::common::message::replica::TopicPartition;
use crate::common::protocol::Errors;
use crate::common::uuid::Uuid;
use crate::image::MetadataImage;

/// What the broker knows of the other brokers, from its image (for ISR eligibility).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImageBrokers {
    /// Broker id to (broker epoch, fenced, in controlled shutdown).
    pub brokers: BTreeMap<i32, (i64, bool, bool)>,
}

impl BrokerInfo for ImageBrokers {
    fn isr_eligible(&self, broker: i32, fetch_epoch: Option<i64>) -> bool {
        let Some(&(epoch, fenced, shutting_down)) = self.brokers.get(&broker) else {
            return false;
        };
        !fenced && !shutting_down && fetch_epoch.is_some_and(|e| e == -1 || e == epoch)
    }
}

/// The broker's partitions and their work.
#[derive(Clone, Debug, Default)]
pub struct ReplicaManager {
    node_id: i32,
    /// The log dir (log.dirs: the node's directory).
    log_dir: String,
    /// The partitions this broker hosts.
    pub partitions: BTreeMap<TopicPartition, Partition>,
    /// The image last taken (for Metadata requests and ISR eligibility).
    pub image: MetadataImage,
    image_version: Option<u64>,
    brokers: ImageBrokers,
    /// The follower side: fetches from the leaders.
    pub fetcher: ReplicaFetcher,
    /// acks=all produces waiting for the ISR.
    pub delayed_produce: Vec<DelayedProduce>,
    /// Fetches waiting for data.
    pub delayed_fetch: Vec<DelayedFetch>,
    /// AlterPartition requests in flight, by correlation id, with when they went.
    alters_in_flight: BTreeMap<u64, (TopicPartition, u64)>,
    next_correlation_id: u64,
    next_isr_expiration_ms: u64,
    next_hw_checkpoint_ms: u64,
    /// Renamed logs and when they go.
    deletions: Vec<(String, u64)>,
    /// The admin requests forwarded to the controller (kept here, with the broker's other
    /// request handling: KafkaApis hands them to the ForwardingManager).
    pub forwarding: ForwardingManager,
}

impl ReplicaManager {
    /// The manager of broker `node_id`, whose log dir is `log_dir`.
    pub fn new(node_id: i32, log_dir: &str, now_ms: u64) -> Self {
        ReplicaManager {
            node_id,
            log_dir: log_dir.to_string(),
            next_correlation_id: REPLICA_CORRELATION_BASE,
            next_isr_expiration_ms: now_ms + REPLICA_LAG_TIME_MAX_MS / 2,
            next_hw_checkpoint_ms: now_ms + log_manager::HW_CHECKPOINT_INTERVAL_MS,
            fetcher: ReplicaFetcher::new(node_id),
            forwarding: ForwardingManager::new(node_id),
            ..Default::default()
        }
    }

    /// This broker's id.
    pub fn node_id(&self) -> i32 {
        self.node_id
    }

    /// The ISR eligibility the image gives.
    pub fn brokers(&self) -> &ImageBrokers {
        &self.brokers
    }

    /// The rule switches that act in the partitions (isr-high-watermark), as the world has
    /// them at this event.
    pub fn apply_rules(&mut self, rules: &crate::common::rules::Rules) {
        for p in self.partitions.values_mut() {
            p.hw_from_isr = rules.isr_high_watermark;
        }
    }

    /// A fresh correlation id.
    pub(super) fn next_cid(&mut self) -> u64 {
        let c = self.next_correlation_id;
        self.next_correlation_id += 1;
        c
    }

    /// min.insync.replicas of `topic`: its own config, else the cluster default (the
    /// bootstrap ConfigRecord), else 1.
    fn min_isr(image: &MetadataImage, topic: &str) -> i32 {
        let c = &image.configs.configs;
        let get = |t: i8, n: &str| c.get(&(t, n.to_string(), "min.insync.replicas".to_string()));
        get(crate::metadata::RESOURCE_TYPE_TOPIC, topic)
            .or_else(|| get(crate::metadata::RESOURCE_TYPE_BROKER, ""))
            .and_then(|v| v.parse().ok())
            .unwrap_or(1)
    }

    /// `applyDelta` (ReplicaManager.applyDelta): take the partitions of the image published
    /// as `version`: create the logs of new ones, make this broker their leader or follower,
    /// delete the logs of those it no longer hosts.
    pub fn sync(&mut self, image: &MetadataImage, version: u64, io: &mut DataIo) {
        if self.image_version == Some(version) {
            return;
        }
        self.image_version = Some(version);
        self.image = image.clone();
        self.brokers = ImageBrokers {
            brokers: image
                .cluster
                .brokers
                .iter()
                .map(|(id, b)| {
                    (
                        *id,
                        (
                            b.record.broker_epoch,
                            b.record.fenced,
                            b.record.in_controlled_shutdown,
                        ),
                    )
                })
                .collect(),
        };
        let me = self.node_id;
        let mut hosted = Vec::new();
        // applyDelta: the local leaders first, then the local followers (ReplicaManager.scala,
        // applyLocalLeadersDelta / applyLocalFollowersDelta), each announced in
        // state-change.log; the others (unchanged) only take their configs.
        let (mut leaders, mut followers, mut unchanged) = (Vec::new(), Vec::new(), Vec::new());
        for t in image.topics.by_id.values() {
            for reg in t.partitions.values().filter(|p| p.replicas.contains(&me)) {
                let tp = (t.id, reg.partition_id);
                hosted.push(tp);
                let changed = self.partitions.get(&tp).is_none_or(|p| {
                    p.leader_epoch != reg.leader_epoch || p.partition_epoch != reg.partition_epoch
                });
                match (changed, reg.leader == me) {
                    (false, _) => unchanged.push((t, reg)),
                    (true, true) => leaders.push((t, reg)),
                    (true, false) => followers.push((t, reg)),
                }
            }
        }
        for (group, kind) in [(leaders, "leaders"), (followers, "followers")] {
            if group.is_empty() {
                continue;
            }
            let m = format!(
                "Transitioning {} partition(s) to local {kind}.",
                group.len()
            );
            state_change_line(io.log, io.now_ms, me, m);
            if kind == "leaders" {
                let names: Vec<String> = group
                    .iter()
                    .map(|(t, r)| partition_name(&t.name, r.partition_id))
                    .collect();
                self.fetcher_line(io, &names);
            }
            for (t, reg) in group {
                self.apply_partition(&t.name, t.id, reg, image, io);
            }
        }
        for (t, reg) in unchanged {
            self.apply_partition(&t.name, t.id, reg, image, io);
        }
        let gone: Vec<TopicPartition> = self
            .partitions
            .keys()
            .filter(|tp| !hosted.contains(tp))
            .copied()
            .collect();
        for tp in gone {
            if let Some(p) = self.partitions.remove(&tp) {
                self.fetcher.remove(tp);
                if let Some(d) = log_manager::async_delete(io, &p.name(), &self.log_dir) {
                    self.deletions.push(d);
                }
            }
        }
        self.complete_delayed(io);
    }

    /// ReplicaFetcherManager's "Removed fetcher for partitions Set(...)" (server.log): a
    /// partition that becomes a local leader stops being fetched
    /// (AbstractFetcherManager.removeFetcherForPartitions).
    fn fetcher_line(&self, io: &mut DataIo, names: &[String]) {
        io.log.push(crate::common::node_log::LogLine {
            time_ms: io.now_ms,
            level: crate::common::node_log::Level::Info,
            file: crate::common::node_log::LogFile::Server,
            prefix: format!("[ReplicaFetcherManager on broker {}] ", self.node_id),
            message: format!("Removed fetcher for partitions Set({})", names.join(", ")),
            logger: "kafka.server.ReplicaFetcherManager",
        });
    }

    /// One partition of the image: its log, and a leader or follower state change when the
    /// registration moved on.
    fn apply_partition(
        &mut self,
        topic: &str,
        topic_id: Uuid,
        reg: &crate::metadata::PartitionRecord,
        image: &MetadataImage,
        io: &mut DataIo,
    ) {
        let tp = (topic_id, reg.partition_id);
        let dir = partition_name(topic, reg.partition_id);
        if !self.partitions.contains_key(&tp) {
            // getOrCreatePartition, before makeLeader / makeFollower create the log.
            let m = format!("Creating new partition {dir} with topic id {topic_id}.");
            state_change_line(io.log, io.now_ms, self.node_id, m);
        }
        let overrides = topic_overrides(image, topic);
        log_manager::get_or_create_log(io, &dir, topic_id, &self.log_dir, &overrides);
        let hw = log_manager::read_hw_checkpoint(
            io.disk.read_file(log_manager::HW_CHECKPOINT_FILE),
            topic,
            reg.partition_id,
        );
        let me = self.node_id;
        let p = self.partitions.entry(tp).or_insert_with(|| {
            let p = Partition::new(topic, topic_id, reg.partition_id, me, hw.unwrap_or(0));
            p.log_loaded(io.log, io.now_ms, hw);
            p
        });
        p.min_insync_replicas = Self::min_isr(image, topic);
        let changed =
            p.leader_epoch != reg.leader_epoch || p.partition_epoch != reg.partition_epoch;
        if !changed {
            return;
        }
        let Some(data) = io.disk.data_logs.get_mut(&dir) else {
            return;
        };
        if reg.leader == me {
            self.fetcher.remove(tp);
            p.make_leader(reg, data, io.log, io.now_ms, &self.brokers);
        } else {
            let new_epoch = p.make_follower(reg, data, io.log, io.now_ms);
            if reg.leader >= 0 && new_epoch {
                self.fetcher.add(tp, reg.leader);
            } else if reg.leader < 0 {
                self.fetcher.remove(tp);
            }
        }
    }

    /// A request from a client or a follower: answered now or kept in purgatory.
    pub fn handle_request(
        &mut self,
        from: i32,
        correlation_id: u64,
        body: DataRequest,
        io: &mut DataIo,
    ) {
        match body {
            DataRequest::Produce(r) => self.handle_produce(from, correlation_id, r, io),
            DataRequest::Admin(r) => self.forwarding.forward(from, correlation_id, r, io.now_ms),
            DataRequest::Fetch(r) => self.handle_fetch(from, correlation_id, r, io),
            DataRequest::ListOffsets(r) => {
                let resp = self.list_offsets(&r, io);
                io.out.push((
                    from,
                    DataMessage::Response {
                        correlation_id,
                        body: DataResponse::ListOffsets(resp),
                    },
                ));
            }
            DataRequest::Metadata(r) => {
                let resp = super::metadata_cache::metadata_response(&self.image, &r, io.rng);
                io.out.push((
                    from,
                    DataMessage::Response {
                        correlation_id,
                        body: DataResponse::Metadata(resp),
                    },
                ));
            }
        }
        self.complete_delayed(io);
    }

    /// A response to this broker's own fetch (it follows the sender).
    pub fn handle_response(
        &mut self,
        from: i32,
        correlation_id: u64,
        body: DataResponse,
        io: &mut DataIo,
    ) {
        let mut fetcher = std::mem::take(&mut self.fetcher);
        fetcher.handle_response(from, correlation_id, body, &mut self.partitions, io);
        self.fetcher = fetcher;
    }

    /// `ListOffsets` on the leader: the latest offset a consumer sees (the HW) or the
    /// earliest.
    fn list_offsets(&self, r: &ListOffsetsRequest, io: &mut DataIo) -> ListOffsetsResponse {
        let fail = |error| ListOffsetsResponse {
            partition: r.partition,
            error,
            offset: -1,
            leader_epoch: -1,
        };
        let Some(p) = self.partitions.get(&r.partition) else {
            return fail(Errors::UnknownTopicOrPartition);
        };
        if !p.is_leader() {
            return fail(Errors::NotLeaderOrFollower);
        }
        let start = io
            .disk
            .data_logs
            .get(&p.name())
            .map(|l| l.start_offset())
            .unwrap_or(0);
        ListOffsetsResponse {
            partition: r.partition,
            error: Errors::None,
            offset: if r.timestamp == -2 {
                start
            } else {
                p.high_watermark
            },
            leader_epoch: p.leader_epoch,
        }
    }

    /// The forwarding channel's work (`controller`: Raft's leader and its CONTROLLER port):
    /// the request it sends and the clients' answers that timed out. Returns when it next
    /// has work of its own.
    pub fn poll_forwarding(&mut self, controller: Option<(i32, u16)>, io: &mut DataIo) -> u64 {
        let (message, answers) = self.forwarding.poll(io.now_ms, controller, io.log);
        io.cout.extend(message);
        io.out.extend(answers);
        self.forwarding.next_wake_ms(io.now_ms).unwrap_or(u64::MAX)
    }

    /// The controller answered a forwarded request (or the connection failed).
    pub fn handle_forwarded_response(
        &mut self,
        correlation_id: u64,
        body: ControllerResponse,
        io: &mut DataIo,
    ) {
        let answer = self
            .forwarding
            .handle_response(correlation_id, body, io.now_ms, io.log);
        io.out.extend(answer);
    }

    /// The controller answered an AlterPartition (or the request failed).
    pub fn handle_alter_response(
        &mut self,
        correlation_id: u64,
        body: &ControllerResponse,
        io: &mut DataIo,
    ) {
        let Some((tp, _)) = self.alters_in_flight.remove(&correlation_id) else {
            return;
        };
        let Some(p) = self.partitions.get_mut(&tp) else {
            return;
        };
        let end = io
            .disk
            .data_logs
            .get(&p.name())
            .map(|l| l.end_offset())
            .unwrap_or(0);
        match body {
            ControllerResponse::AlterPartition {
                error: None,
                state:
                    Some(AlterPartitionState {
                        leader_epoch,
                        isr,
                        partition_epoch,
                        ..
                    }),
            } => {
                p.alter_partition_done(
                    *leader_epoch,
                    isr,
                    *partition_epoch,
                    end,
                    io.log,
                    io.now_ms,
                    &self.brokers,
                );
            }
            ControllerResponse::AlterPartition { error: Some(e), .. } => {
                let error = match e {
                    ApiError::IneligibleReplica => {
                        // The controller did not apply it: back to the committed state.
                        p.pending = None;
                        Errors::InvalidRequest
                    }
                    ApiError::UnknownTopicOrPartition => Errors::UnknownTopicOrPartition,
                    ApiError::FencedLeaderEpoch => Errors::FencedLeaderEpoch,
                    _ => Errors::InvalidRequest,
                };
                p.alter_partition_failed(error, io.log, io.now_ms);
            }
            _ => {
                // NOT_CONTROLLER or no answer: sent again once the controller is known.
            }
        }
        self.complete_delayed(io);
    }

    /// The periodic work: the follower's fetches, ISR expiration, AlterPartition requests,
    /// purgatory timeouts, HW checkpoints and log deletions. `controller` is the active
    /// controller, `broker_epoch` this broker's registration epoch. Returns the next wake-up.
    pub fn poll(&mut self, controller: Option<i32>, broker_epoch: i64, io: &mut DataIo) -> u64 {
        let now = io.now_ms;
        self.fetcher.poll(broker_epoch, &self.partitions, io);
        if now >= self.next_isr_expiration_ms {
            self.next_isr_expiration_ms = now + REPLICA_LAG_TIME_MAX_MS / 2;
            for p in self.partitions.values_mut().filter(|p| p.is_leader()) {
                let end = io
                    .disk
                    .data_logs
                    .get(&p.name())
                    .map(|l| l.end_offset())
                    .unwrap_or(0);
                p.maybe_shrink_isr(end, now, REPLICA_LAG_TIME_MAX_MS, io.log);
            }
        }
        self.send_alters(controller, broker_epoch, io);
        if now >= self.next_hw_checkpoint_ms {
            self.next_hw_checkpoint_ms = now + log_manager::HW_CHECKPOINT_INTERVAL_MS;
            let hws = self
                .partitions
                .values()
                .map(|p| ((p.topic.clone(), p.index), p.high_watermark))
                .collect();
            log_manager::write_hw_checkpoint(io, &hws);
        }
        let log_dir = self.log_dir.clone();
        self.deletions.retain(|(name, at)| {
            if now >= *at {
                log_manager::delete_renamed(io, name, &log_dir);
                false
            } else {
                true
            }
        });
        self.complete_delayed(io);
        self.next_wake_ms(now)
    }

    /// Send the ISR changes not in flight yet (AlterPartitionManager).
    fn send_alters(&mut self, controller: Option<i32>, broker_epoch: i64, io: &mut DataIo) {
        // An AlterPartition unanswered for request.timeout.ms is sent again.
        let now = io.now_ms;
        self.alters_in_flight
            .retain(|_, (_, sent)| now < *sent + ALTER_PARTITION_TIMEOUT_MS);
        let (Some(controller), true) = (controller, broker_epoch >= 0) else {
            return;
        };
        let waiting: Vec<TopicPartition> = self
            .partitions
            .iter()
            .filter(|(tp, p)| {
                p.pending.is_some() && !self.alters_in_flight.values().any(|(t, _)| t == *tp)
            })
            .map(|(tp, _)| *tp)
            .collect();
        for tp in waiting {
            let p = &self.partitions[&tp];
            let Some(pending) = &p.pending else { continue };
            let request = ControllerRequest::AlterPartition {
                broker_id: self.node_id,
                broker_epoch,
                topic_id: tp.0,
                partition_id: tp.1,
                leader_epoch: p.leader_epoch,
                partition_epoch: p.partition_epoch,
                new_isr: pending.isr.clone(),
            };
            let cid = self.next_cid();
            self.alters_in_flight.insert(cid, (tp, now));
            io.cout.push((
                controller,
                ControllerMessage::Request {
                    correlation_id: cid,
                    body: request,
                },
            ));
        }
    }

    /// When the manager next wants to run.
    pub fn next_wake_ms(&self, now_ms: u64) -> u64 {
        let mut t = self.next_hw_checkpoint_ms.min(self.next_isr_expiration_ms);
        t = t.min(self.fetcher.next_wake_ms());
        for d in &self.delayed_produce {
            t = t.min(d.deadline_ms);
        }
        for d in &self.delayed_fetch {
            t = t.min(d.deadline_ms);
        }
        for (_, at) in &self.deletions {
            t = t.min(*at);
        }
        for (_, sent) in self.alters_in_flight.values() {
            t = t.min(sent + ALTER_PARTITION_TIMEOUT_MS);
        }
        t.max(now_ms + 1)
    }
}

/// A topic's overridden configs as LogConfig.overriddenConfigsAsLoggableString prints them
/// (`{k=v, ...}`, in name order here).
fn topic_overrides(image: &MetadataImage, topic: &str) -> String {
    let items: Vec<String> = image
        .configs
        .configs
        .iter()
        .filter(|((t, n, _), _)| *t == crate::metadata::RESOURCE_TYPE_TOPIC && n == topic)
        .map(|((_, _, k), v)| format!("{k}={v}"))
        .collect();
    format!("{{{}}}", items.join(", "))
}
