//! ReplicationControlManager: topics and partitions — creation (with StripedReplicaPlacer
//! placement over usable brokers), deletion, and the replay of their records.

use super::placement::{self, UsableBroker};
use crate::common::message::controller::{ApiError, CreatableTopic, TopicResult};
use crate::common::node_log::Level;
use crate::common::rng::SimRng;
use crate::common::uuid::Uuid;
use crate::metadata::wire::java_list;
use crate::metadata::{
    ConfigRecord, MetadataRecord, PartitionChangeRecord, PartitionRecord, RemoveTopicRecord,
    TopicRecord, RESOURCE_TYPE_TOPIC,
};
use crate::timeline::{Revertable, SnapshotRegistry, TimelineHashMap};
use std::collections::{BTreeMap, BTreeSet};

/// What the controller holds for one topic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicControlInfo {
    /// name
    pub name: String,
    /// topic id
    pub id: Uuid,
    /// Partitions by id, each as its latest PartitionRecord.
    pub parts: BTreeMap<i32, PartitionRecord>,
}

/// Topics and partitions.
#[derive(Clone, Debug, Default)]
pub struct ReplicationControlManager {
    /// Topic name to topic id.
    pub topics_by_name: TimelineHashMap<String, Uuid>,
    /// Topic id to topic.
    pub topics: TimelineHashMap<Uuid, TopicControlInfo>,
}

/// `num.partitions` and `default.replication.factor` of the simulated cluster.
pub const DEFAULT_NUM_PARTITIONS: i32 = 1;
/// See [`DEFAULT_NUM_PARTITIONS`].
pub const DEFAULT_REPLICATION_FACTOR: i16 = 1;

/// Kafka's `Topic.validate`: 1..=249 characters of `[a-zA-Z0-9._-]`, not `.` or `..`.
pub fn validate_topic_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("Topic name is illegal, it can't be empty".into());
    }
    if name == "." || name == ".." {
        return Err("Topic name cannot be \".\" or \"..\"".into());
    }
    if name.len() > 249 {
        return Err(format!(
            "Topic name is illegal, it can't be longer than 249 characters, topic name: {name}"
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-')
    {
        return Err(format!(
            "Topic name \"{name}\" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'"
        ));
    }
    Ok(())
}

/// `ReplicationControlManager.MAX_PARTITIONS_PER_BATCH`: most partitions one CreateTopics
/// request may create (more once ran controllers out of memory).
pub const MAX_PARTITIONS_PER_BATCH: i64 = 10_000;

/// `validateTotalNumberOfPartitions`: the partitions a request would create (the default for
/// -1, nothing for a non-positive count) may not pass [`MAX_PARTITIONS_PER_BATCH`].
fn validate_total_number_of_partitions(topics: &[CreatableTopic]) -> Result<(), String> {
    let mut total: i64 = 0;
    for t in topics {
        if t.num_partitions == -1 {
            total += DEFAULT_NUM_PARTITIONS as i64;
        } else if t.num_partitions > 0 {
            total += t.num_partitions as i64;
        }
        if total > MAX_PARTITIONS_PER_BATCH {
            return Err("Excessively large number of partitions per request.".into());
        }
    }
    Ok(())
}

/// One partition of a new topic: its replicas and its ISR.
type PlacedPartition = (Vec<i32>, Vec<i32>);

/// StripedReplicaPlacer over the usable brokers (fenced ones included): each partition's
/// replicas and its ISR, the active replicas (`is_active`), whose first is the leader. An
/// empty ISR (every replica fenced or in controlled shutdown) fails the topic.
fn place_partitions(
    rng: &mut SimRng,
    partitions: i32,
    rf: i16,
    brokers: &[UsableBroker],
    is_active: &impl Fn(i32) -> bool,
) -> Result<Vec<PlacedPartition>, (ApiError, String)> {
    let placed = placement::place(rng, partitions, rf, brokers).map_err(|m| {
        (
            ApiError::InvalidReplicationFactor,
            format!("Unable to replicate the partition {rf} time(s): {m}"),
        )
    })?;
    let mut parts = Vec::with_capacity(placed.len());
    for replicas in placed {
        let isr: Vec<i32> = replicas.iter().copied().filter(|r| is_active(*r)).collect();
        if isr.is_empty() {
            break;
        }
        parts.push((replicas, isr));
    }
    if parts.len() != partitions as usize {
        // An empty ISR: every replica fenced or in controlled shutdown.
        return Err((
            ApiError::InvalidReplicationFactor,
            format!("Unable to replicate the partition {rf} time(s): All brokers are currently fenced or in controlled shutdown."),
        ));
    }
    Ok(parts)
}

/// A new topic's records: its TopicRecord, a ConfigRecord per config, and a PartitionRecord
/// per placed partition (replicas in their `default_dir`, the first ISR member leading).
fn topic_records(
    t: &CreatableTopic,
    topic_id: Uuid,
    parts: Vec<PlacedPartition>,
    default_dir: &impl Fn(i32) -> Uuid,
) -> Vec<MetadataRecord> {
    let mut records = vec![MetadataRecord::Topic(TopicRecord {
        name: t.name.clone(),
        topic_id,
    })];
    for (k, v) in &t.configs {
        records.push(MetadataRecord::Config(ConfigRecord {
            resource_type: RESOURCE_TYPE_TOPIC,
            resource_name: t.name.clone(),
            name: k.clone(),
            value: Some(v.clone()),
        }));
    }
    for (p, (replicas, isr)) in parts.into_iter().enumerate() {
        records.push(MetadataRecord::Partition(PartitionRecord {
            partition_id: p as i32,
            topic_id,
            directories: replicas.iter().map(|r| default_dir(*r)).collect(),
            replicas,
            leader: isr[0],
            isr,
            leader_epoch: 0,
            partition_epoch: 0,
            ..Default::default()
        }));
    }
    records
}

impl ReplicationControlManager {
    /// `createTopics`: the records to write and the per-topic results. Replicas are placed over
    /// the usable `brokers` ([`placement::place`]); `is_active` is
    /// `ClusterControlManager.isActive` (the ISR), `default_dir` its `defaultDir` (each
    /// replica's directory). `validate_configs` is ConfigurationControlManager's check of a new
    /// topic's configs.
    pub fn create_topics(
        &self,
        topics: &[CreatableTopic],
        brokers: &[UsableBroker],
        is_active: impl Fn(i32) -> bool,
        default_dir: impl Fn(i32) -> Uuid,
        rng: &mut SimRng,
        validate_configs: impl Fn(&CreatableTopic) -> Result<(), (ApiError, String)>,
    ) -> (Vec<MetadataRecord>, Vec<TopicResult>) {
        let mut records = Vec::new();
        let mut results = Vec::new();
        if let Err(message) = validate_total_number_of_partitions(topics) {
            // A PolicyViolationException fails the whole request: ControllerApis answers every
            // topic with it (CreateTopicsRequest.getErrorResponse).
            let results = topics
                .iter()
                .map(|t| TopicResult {
                    name: t.name.clone(),
                    topic_id: Uuid::ZERO,
                    error: Some((ApiError::PolicyViolation, message.clone())),
                })
                .collect();
            return (records, results);
        }
        let mut seen = BTreeSet::new();
        for t in topics {
            let created = if seen.insert(t.name.clone()) {
                self.create_topic(t, brokers, &is_active, &default_dir, rng, &validate_configs)
            } else {
                Err((
                    ApiError::InvalidTopic,
                    format!("Duplicate topic name {}.", t.name),
                ))
            };
            results.push(match created {
                Ok((topic_id, topic_records)) => {
                    records.extend(topic_records);
                    TopicResult {
                        name: t.name.clone(),
                        topic_id,
                        error: None,
                    }
                }
                Err(error) => TopicResult {
                    name: t.name.clone(),
                    topic_id: Uuid::ZERO,
                    error: Some(error),
                },
            });
        }
        (records, results)
    }

    /// `createTopic`: one topic of the request, checked ([`Self::validate_new_topic`]) and
    /// placed ([`place_partitions`]); its id and records, or the error it is answered with.
    fn create_topic(
        &self,
        t: &CreatableTopic,
        brokers: &[UsableBroker],
        is_active: &impl Fn(i32) -> bool,
        default_dir: &impl Fn(i32) -> Uuid,
        rng: &mut SimRng,
        validate_configs: &impl Fn(&CreatableTopic) -> Result<(), (ApiError, String)>,
    ) -> Result<(Uuid, Vec<MetadataRecord>), (ApiError, String)> {
        let (partitions, rf) = self.validate_new_topic(t, validate_configs)?;
        let parts = place_partitions(rng, partitions, rf, brokers, is_active)?;
        let topic_id = Uuid::random(rng);
        Ok((topic_id, topic_records(t, topic_id, parts, default_dir)))
    }

    /// The checks of a new topic, in Kafka's order: a legal name, not an existing topic,
    /// valid configs, then a positive partition count and replication factor (-1 for the
    /// defaults). Both counts, the defaults applied.
    fn validate_new_topic(
        &self,
        t: &CreatableTopic,
        validate_configs: &impl Fn(&CreatableTopic) -> Result<(), (ApiError, String)>,
    ) -> Result<(i32, i16), (ApiError, String)> {
        validate_topic_name(&t.name).map_err(|m| (ApiError::InvalidTopic, m))?;
        if self.topics_by_name.contains_key(&t.name) {
            return Err((
                ApiError::TopicAlreadyExists,
                format!("Topic '{}' already exists.", t.name),
            ));
        }
        validate_configs(t)?;
        let partitions = if t.num_partitions == -1 {
            DEFAULT_NUM_PARTITIONS
        } else {
            t.num_partitions
        };
        if partitions <= 0 {
            return Err((
                ApiError::InvalidPartitions,
                "Number of partitions was set to an invalid non-positive value.".into(),
            ));
        }
        let rf = if t.replication_factor == -1 {
            DEFAULT_REPLICATION_FACTOR
        } else {
            t.replication_factor
        };
        if rf <= 0 {
            return Err((
                ApiError::InvalidReplicationFactor,
                "Replication factor must be larger than 0, or -1 to use the default value.".into(),
            ));
        }
        Ok((partitions, rf))
    }

    /// `deleteTopics`: RemoveTopicRecords and per-topic results.
    pub fn delete_topics(&self, names: &[String]) -> (Vec<MetadataRecord>, Vec<TopicResult>) {
        let mut records = Vec::new();
        let mut results = Vec::new();
        for name in names {
            match self.topics_by_name.get(name) {
                Some(id) => {
                    records.push(MetadataRecord::RemoveTopic(RemoveTopicRecord {
                        topic_id: *id,
                    }));
                    results.push(TopicResult {
                        name: name.clone(),
                        topic_id: *id,
                        error: None,
                    });
                }
                None => results.push(TopicResult {
                    name: name.clone(),
                    topic_id: Uuid::ZERO,
                    error: Some((
                        ApiError::UnknownTopicOrPartition,
                        "This server does not host this topic-partition.".into(),
                    )),
                }),
            }
        }
        (records, results)
    }

    /// `replay(TopicRecord)`.
    pub fn replay_topic(&mut self, registry: &SnapshotRegistry, r: &TopicRecord) -> String {
        self.topics_by_name
            .put(registry, r.name.clone(), r.topic_id);
        self.topics.put(
            registry,
            r.topic_id,
            TopicControlInfo {
                name: r.name.clone(),
                id: r.topic_id,
                parts: BTreeMap::new(),
            },
        );
        format!(
            "Replayed TopicRecord for topic {} with topic ID {}.",
            r.name, r.topic_id
        )
    }

    /// `replay(PartitionRecord)`.
    pub fn replay_partition(
        &mut self,
        registry: &SnapshotRegistry,
        r: &PartitionRecord,
    ) -> Result<String, String> {
        let mut info = self.topics.get(&r.topic_id).cloned().ok_or_else(|| {
            format!(
                "Tried to create partition {}:{}, but no topic with that ID was found.",
                r.topic_id, r.partition_id
            )
        })?;
        let new = !info.parts.contains_key(&r.partition_id);
        info.parts.insert(r.partition_id, r.clone());
        let line = format!(
            "Replayed PartitionRecord for {} partition {}-{} with topic ID {} and {}.",
            if new { "new" } else { "existing" },
            info.name,
            r.partition_id,
            r.topic_id,
            r.partition_registration_text()
        );
        self.topics.put(registry, r.topic_id, info);
        Ok(line)
    }

    /// `replay(PartitionChangeRecord)`; returns the lines it logs: `maybeLogPartitionChange`
    /// (INFO "UNCLEAN partition change for ..." when the new leader is RECOVERING, else a DEBUG
    /// diff), then INFO "Replayed partition assignment change ..." for a reassignment or DEBUG
    /// "Replayed partition change ...".
    pub fn replay_partition_change(
        &mut self,
        registry: &SnapshotRegistry,
        r: &PartitionChangeRecord,
    ) -> Result<Vec<(Level, String)>, String> {
        let mut info = self.topics.get(&r.topic_id).cloned().ok_or_else(|| {
            format!(
                "Tried to create partition {}:{}, but no topic with that ID was found.",
                r.topic_id, r.partition_id
            )
        })?;
        let part = info.parts.get_mut(&r.partition_id).ok_or_else(|| {
            format!(
                "Tried to create partition {}:{}, but no partition with that id was found.",
                r.topic_id, r.partition_id
            )
        })?;
        let prev = part.clone();
        part.apply_change(r);
        let next = part.clone();
        let description = format!(
            "{}-{} with topic ID {}",
            info.name, r.partition_id, r.topic_id
        );
        let mut lines = Vec::new();
        if next.leader_recovery_state == crate::metadata::LEADER_RECOVERY_RECOVERING {
            lines.push((
                Level::Info,
                format!(
                    "UNCLEAN partition change for {description}: {}",
                    next.registration_diff(&prev)
                ),
            ));
        } else {
            lines.push((
                Level::Debug,
                format!(
                    "partition change for {description}: {}",
                    next.registration_diff(&prev)
                ),
            ));
        }
        let reassignment = r.removing_replicas.is_some() || r.adding_replicas.is_some();
        lines.push((
            if reassignment {
                Level::Info
            } else {
                Level::Debug
            },
            format!(
                "Replayed partition {}change {} for topic {}. (isr: {} -> {}, replicaSet: {} -> {}, partitionEpoch: {}, leaderEpoch: {})",
                if reassignment { "assignment " } else { "" },
                r.java_to_string(),
                info.name,
                java_list(&prev.isr),
                java_list(&next.isr),
                java_list(&prev.replicas),
                java_list(&next.replicas),
                next.partition_epoch,
                next.leader_epoch
            ),
        ));
        self.topics.put(registry, r.topic_id, info);
        Ok(lines)
    }

    /// `replay(RemoveTopicRecord)`; returns the line and the removed topic's name.
    pub fn replay_remove_topic(
        &mut self,
        registry: &SnapshotRegistry,
        r: &RemoveTopicRecord,
    ) -> Result<(String, String), String> {
        let info = self
            .topics
            .remove(registry, &r.topic_id)
            .ok_or_else(|| format!("Can't find topic with ID {} to remove", r.topic_id))?;
        self.topics_by_name.remove(registry, &info.name);
        Ok((
            format!(
                "Replayed RemoveTopicRecord for topic {} with ID {}.",
                info.name, r.topic_id
            ),
            info.name,
        ))
    }
}

impl Revertable for ReplicationControlManager {
    fn revert_to_snapshot(&mut self, epoch: i64) {
        self.topics_by_name.revert_to_snapshot(epoch);
        self.topics.revert_to_snapshot(epoch);
    }
    fn delete_snapshot(&mut self, epoch: i64, previous: Option<i64>) {
        self.topics_by_name.delete_snapshot(epoch, previous);
        self.topics.delete_snapshot(epoch, previous);
    }
    fn delete_snapshots_up_to(&mut self, epoch: i64) {
        self.topics_by_name.delete_snapshots_up_to(epoch);
        self.topics.delete_snapshots_up_to(epoch);
    }
}
