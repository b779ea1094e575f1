//! MetadataDelta: the changes that records make to an image; `apply` builds the next image,
//! reusing every part the delta did not touch.

use super::metadata_image::*;
use crate::metadata::broker_registration::BrokerRegistration;
use crate::metadata::*;
use std::sync::Arc;

/// The changed part if there is one, else the base's part, shared.
fn pick<T: Clone>(changed: &Option<T>, base: &Arc<T>) -> Arc<T> {
    match changed {
        Some(x) => Arc::new(x.clone()),
        None => Arc::clone(base),
    }
}

/// Changes since `base`, by area; `None` means the area is unchanged.
#[derive(Clone, Debug)]
pub struct MetadataDelta {
    base: MetadataImage,
    features: Option<FeaturesImage>,
    cluster: Option<ClusterImage>,
    topics: Option<TopicsImage>,
    configs: Option<ConfigurationsImage>,
    /// Ids of the topics changed (for publishers such as the ReplicaManager).
    pub changed_topics: Vec<crate::common::uuid::Uuid>,
    /// How many records were replayed into the delta.
    pub records: usize,
}

impl MetadataDelta {
    /// An empty delta on top of `base`.
    pub fn new(base: MetadataImage) -> Self {
        MetadataDelta {
            base,
            features: None,
            cluster: None,
            topics: None,
            configs: None,
            changed_topics: Vec::new(),
            records: 0,
        }
    }

    /// Which areas changed, by their /image names.
    pub fn changed_areas(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.cluster.is_some() {
            v.push("cluster");
        }
        if self.configs.is_some() {
            v.push("configs");
        }
        if self.features.is_some() {
            v.push("features");
        }
        if self.topics.is_some() {
            v.push("topics");
        }
        v
    }

    fn topics_mut(&mut self) -> &mut TopicsImage {
        let base = &self.base;
        self.topics.get_or_insert_with(|| (*base.topics).clone())
    }

    fn cluster_mut(&mut self) -> &mut ClusterImage {
        let base = &self.base;
        self.cluster.get_or_insert_with(|| (*base.cluster).clone())
    }

    fn features_mut(&mut self) -> &mut FeaturesImage {
        let base = &self.base;
        self.features
            .get_or_insert_with(|| (*base.features).clone())
    }

    fn configs_mut(&mut self) -> &mut ConfigurationsImage {
        let base = &self.base;
        self.configs.get_or_insert_with(|| (*base.configs).clone())
    }

    /// `replay(record)` at `offset`: each record type changes its area, as Kafka's
    /// `replay(XxxRecord)` overloads do.
    pub fn replay(&mut self, r: &MetadataRecord, offset: i64) -> Result<(), String> {
        self.records += 1;
        match r {
            MetadataRecord::FeatureLevel(f) => self.replay_feature_level(f),
            MetadataRecord::Config(c) => self.replay_config(c),
            MetadataRecord::RegisterBroker(b) => self.replay_register_broker(b, offset),
            MetadataRecord::BrokerRegistrationChange(c) => {
                self.replay_broker_registration_change(c)?
            }
            MetadataRecord::RegisterController(c) => self.replay_register_controller(c),
            MetadataRecord::Topic(t) => self.replay_topic(t),
            MetadataRecord::Partition(p) => self.replay_partition(p)?,
            MetadataRecord::PartitionChange(c) => self.replay_partition_change(c)?,
            MetadataRecord::RemoveTopic(r) => self.replay_remove_topic(r),
            MetadataRecord::NoOp
            | MetadataRecord::BeginTransaction(_)
            | MetadataRecord::EndTransaction(_) => {}
        }
        Ok(())
    }

    /// A FeatureLevelRecord: sets the feature's level (level 0 removes it).
    fn replay_feature_level(&mut self, f: &FeatureLevelRecord) {
        let d = self.features_mut();
        if f.feature_level == 0 {
            d.levels.remove(&f.name);
        } else {
            d.levels.insert(f.name.clone(), f.feature_level);
        }
    }

    /// A ConfigRecord: sets the config (a null value removes it).
    fn replay_config(&mut self, c: &ConfigRecord) {
        let d = self.configs_mut();
        let key = (c.resource_type, c.resource_name.clone(), c.name.clone());
        match &c.value {
            Some(v) => {
                d.configs.insert(key, v.clone());
            }
            None => {
                d.configs.remove(&key);
            }
        }
    }

    /// A RegisterBrokerRecord: the broker's registration, registered at `offset`.
    fn replay_register_broker(&mut self, b: &RegisterBrokerRecord, offset: i64) {
        self.cluster_mut().brokers.insert(
            b.broker_id,
            BrokerRegistration {
                record: b.clone(),
                register_offset: offset,
            },
        );
    }

    /// A BrokerRegistrationChangeRecord: changes a registered broker.
    fn replay_broker_registration_change(
        &mut self,
        c: &BrokerRegistrationChangeRecord,
    ) -> Result<(), String> {
        let cl = self.cluster_mut();
        let reg = cl
            .brokers
            .get_mut(&c.broker_id)
            .ok_or_else(|| format!("no broker {} to change", c.broker_id))?;
        c.apply_to(&mut reg.record);
        Ok(())
    }

    /// A RegisterControllerRecord: the controller's registration.
    fn replay_register_controller(&mut self, c: &RegisterControllerRecord) {
        self.cluster_mut()
            .controllers
            .insert(c.controller_id, c.clone());
    }

    /// A TopicRecord: a new topic without partitions.
    fn replay_topic(&mut self, t: &TopicRecord) {
        self.changed_topics.push(t.topic_id);
        let d = self.topics_mut();
        d.by_name.insert(t.name.clone(), t.topic_id);
        d.by_id.insert(
            t.topic_id,
            Arc::new(TopicImage {
                name: t.name.clone(),
                id: t.topic_id,
                partitions: Default::default(),
            }),
        );
    }

    /// A PartitionRecord: a partition of an existing topic.
    fn replay_partition(&mut self, p: &PartitionRecord) -> Result<(), String> {
        self.changed_topics.push(p.topic_id);
        let d = self.topics_mut();
        let t = d
            .by_id
            .get_mut(&p.topic_id)
            .ok_or_else(|| format!("no topic {} for a partition", p.topic_id))?;
        Arc::make_mut(t)
            .partitions
            .insert(p.partition_id, p.clone());
        Ok(())
    }

    /// A PartitionChangeRecord: changes an existing partition.
    fn replay_partition_change(&mut self, c: &PartitionChangeRecord) -> Result<(), String> {
        self.changed_topics.push(c.topic_id);
        let d = self.topics_mut();
        let t = d
            .by_id
            .get_mut(&c.topic_id)
            .ok_or_else(|| format!("no topic {} for a partition change", c.topic_id))?;
        let part = Arc::make_mut(t)
            .partitions
            .get_mut(&c.partition_id)
            .ok_or_else(|| format!("no partition {} to change", c.partition_id))?;
        part.apply_change(c);
        Ok(())
    }

    /// A RemoveTopicRecord: removes the topic and, if it existed, its configs.
    fn replay_remove_topic(&mut self, r: &RemoveTopicRecord) {
        self.changed_topics.push(r.topic_id);
        let d = self.topics_mut();
        if let Some(t) = d.by_id.remove(&r.topic_id) {
            d.by_name.remove(&t.name);
            let name = t.name.clone();
            let c = self.configs_mut();
            c.configs
                .retain(|(ty, n, _), _| !(*ty == RESOURCE_TYPE_TOPIC && *n == name));
        }
    }

    /// `apply(provenance)`: the next image; areas without changes are the base's, shared.
    pub fn apply(&self, provenance: MetadataProvenance) -> MetadataImage {
        MetadataImage {
            provenance,
            features: pick(&self.features, &self.base.features),
            cluster: pick(&self.cluster, &self.base.cluster),
            topics: pick(&self.topics, &self.base.topics),
            configs: pick(&self.configs, &self.base.configs),
        }
    }
}
