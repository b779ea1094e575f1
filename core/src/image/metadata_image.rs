//! MetadataImage: the whole metadata state at one offset, immutable; unchanged parts are shared
//! (`Arc`) between consecutive images.

use crate::common::uuid::Uuid;
use crate::metadata::broker_registration::BrokerRegistration;
use crate::metadata::{
    ConfigRecord, FeatureLevelRecord, MetadataRecord, PartitionRecord, RegisterControllerRecord,
    TopicRecord,
};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Finalized feature levels.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeaturesImage {
    /// Feature name to level.
    pub levels: BTreeMap<String, i16>,
}

/// Registered brokers and controllers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClusterImage {
    /// Broker id to registration.
    pub brokers: BTreeMap<i32, BrokerRegistration>,
    /// Controller id to registration.
    pub controllers: BTreeMap<i32, RegisterControllerRecord>,
}

/// One topic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicImage {
    /// name
    pub name: String,
    /// id
    pub id: Uuid,
    /// Partitions by id.
    pub partitions: BTreeMap<i32, PartitionRecord>,
}

/// All topics; each topic is shared until it changes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TopicsImage {
    /// Topic id to topic.
    pub by_id: BTreeMap<Uuid, Arc<TopicImage>>,
    /// Topic name to id.
    pub by_name: BTreeMap<String, Uuid>,
}

/// Dynamic configs: (resource type, resource name, config name) to value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfigurationsImage {
    /// The configs.
    pub configs: BTreeMap<(i8, String, String), String>,
}

/// Where an image came from: the last offset and epoch applied, and the batch's time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MetadataProvenance {
    /// lastContainedOffset
    pub offset: i64,
    /// lastContainedEpoch
    pub epoch: i32,
    /// lastContainedLogTimeMs, virtual ms.
    pub time_ms: u64,
}

/// The metadata image.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MetadataImage {
    /// provenance
    pub provenance: MetadataProvenance,
    /// features
    pub features: Arc<FeaturesImage>,
    /// cluster
    pub cluster: Arc<ClusterImage>,
    /// topics
    pub topics: Arc<TopicsImage>,
    /// configs
    pub configs: Arc<ConfigurationsImage>,
}

impl MetadataImage {
    /// `MetadataImage.write`: the records that rebuild this image, in Kafka's order (features
    /// with metadata.version first, cluster, topics with their partitions, configs). This is
    /// what a snapshot holds.
    pub fn records(&self) -> Vec<MetadataRecord> {
        let mut out = Vec::new();
        let feature = |(k, v): (&String, &i16)| {
            MetadataRecord::FeatureLevel(FeatureLevelRecord {
                name: k.clone(),
                feature_level: *v,
            })
        };
        let levels = &self.features.levels;
        out.extend(
            levels
                .iter()
                .filter(|(k, _)| *k == "metadata.version")
                .map(feature),
        );
        out.extend(
            levels
                .iter()
                .filter(|(k, _)| *k != "metadata.version")
                .map(feature),
        );
        for b in self.cluster.brokers.values() {
            out.push(MetadataRecord::RegisterBroker(b.record.clone()));
        }
        for c in self.cluster.controllers.values() {
            out.push(MetadataRecord::RegisterController(c.clone()));
        }
        for t in self.topics.by_id.values() {
            out.push(MetadataRecord::Topic(TopicRecord {
                name: t.name.clone(),
                topic_id: t.id,
            }));
            for p in t.partitions.values() {
                out.push(MetadataRecord::Partition(p.clone()));
            }
        }
        for ((t, n, k), v) in &self.configs.configs {
            out.push(MetadataRecord::Config(ConfigRecord {
                resource_type: *t,
                resource_name: n.clone(),
                name: k.clone(),
                value: Some(v.clone()),
            }));
        }
        out
    }

    /// The same canonical text as [`crate::controller::quorum_controller::ControllerState::summary`],
    /// so an image can be compared with a controller's state at the same offset.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        for (k, v) in &self.features.levels {
            out.push_str(&format!("feature {k}={v}\n"));
        }
        for (id, c) in &self.cluster.controllers {
            out.push_str(&format!("controller {id} {}\n", c.incarnation_id));
        }
        for (id, b) in &self.cluster.brokers {
            out.push_str(&format!(
                "broker {id} epoch={} fenced={} shutdown={}\n",
                b.record.broker_epoch, b.record.fenced, b.record.in_controlled_shutdown
            ));
        }
        for ((t, n, k), v) in &self.configs.configs {
            out.push_str(&format!("config {t} '{n}' {k}={v}\n"));
        }
        for (name, id) in &self.topics.by_name {
            out.push_str(&format!("topic {name} {id}\n"));
            if let Some(t) = self.topics.by_id.get(id) {
                for p in t.partitions.values() {
                    out.push_str(&format!("  {}\n", p.partition_registration_text()));
                }
            }
        }
        out
    }
}
