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

    /// `replay(record)` at `offset`.
    pub fn replay(&mut self, r: &MetadataRecord, offset: i64) -> Result<(), String> {
        self.records += 1;
        match r {
            MetadataRecord::FeatureLevel(f) => {
                let base = &self.base;
                let d = self
                    .features
                    .get_or_insert_with(|| (*base.features).clone());
                if f.feature_level == 0 {
                    d.levels.remove(&f.name);
                } else {
                    d.levels.insert(f.name.clone(), f.feature_level);
                }
            }
            MetadataRecord::Config(c) => {
                let base = &self.base;
                let d = self.configs.get_or_insert_with(|| (*base.configs).clone());
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
            MetadataRecord::RegisterBroker(b) => {
                self.cluster_mut().brokers.insert(
                    b.broker_id,
                    BrokerRegistration {
                        record: b.clone(),
                        register_offset: offset,
                    },
                );
            }
            MetadataRecord::BrokerRegistrationChange(c) => {
                let cl = self.cluster_mut();
                let reg = cl
                    .brokers
                    .get_mut(&c.broker_id)
                    .ok_or_else(|| format!("no broker {} to change", c.broker_id))?;
                c.apply_to(&mut reg.record);
            }
            MetadataRecord::RegisterController(c) => {
                self.cluster_mut()
                    .controllers
                    .insert(c.controller_id, c.clone());
            }
            MetadataRecord::Topic(t) => {
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
            MetadataRecord::Partition(p) => {
                self.changed_topics.push(p.topic_id);
                let d = self.topics_mut();
                let t = d
                    .by_id
                    .get_mut(&p.topic_id)
                    .ok_or_else(|| format!("no topic {} for a partition", p.topic_id))?;
                Arc::make_mut(t)
                    .partitions
                    .insert(p.partition_id, p.clone());
            }
            MetadataRecord::PartitionChange(c) => {
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
            }
            MetadataRecord::RemoveTopic(r) => {
                self.changed_topics.push(r.topic_id);
                let d = self.topics_mut();
                if let Some(t) = d.by_id.remove(&r.topic_id) {
                    d.by_name.remove(&t.name);
                    let name = t.name.clone();
                    let base = &self.base;
                    let c = self.configs.get_or_insert_with(|| (*base.configs).clone());
                    c.configs
                        .retain(|(ty, n, _), _| !(*ty == RESOURCE_TYPE_TOPIC && *n == name));
                }
            }
            MetadataRecord::NoOp
            | MetadataRecord::BeginTransaction(_)
            | MetadataRecord::EndTransaction(_) => {}
        }
        Ok(())
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
