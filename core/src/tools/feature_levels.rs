//! What a node answers `kafka-features describe` with and what FeatureControlManager checks
//! against: the features a Kafka 4.5 node supports, how their levels print, a node's finalized
//! levels and epoch, and the Raft client's kraft.version.

use crate::common::java::{java_hash_map_capacity, java_hash_map_order, java_string_hash};
use crate::controller::feature_control::METADATA_VERSION;
use crate::raft::state::EpochState;
use crate::sim::World;
use std::collections::BTreeMap;

/// The features a Kafka 4.5 node supports, sorted by name, with their (min, max) levels
/// (BrokerFeatures.defaultSupportedFeatures: metadata.version from 3.3-IV3 to 4.4-IV2, and
/// every production feature whose latest production level is above 0).
pub const SUPPORTED: &[(&str, i16, i16)] = &[
    ("eligible.leader.replicas.version", 0, 1),
    ("group.version", 0, 1),
    ("kraft.version", 0, 1),
    (METADATA_VERSION, 7, 33),
    ("share.version", 0, 2),
    ("streams.version", 0, 1),
    ("transaction.version", 0, 2),
];

/// `MetadataVersion.version()` of each level from 3.3-IV3 (7) to 4.4-IV2 (33)
/// (server-common/.../MetadataVersion.java:50-134).
const METADATA_VERSIONS: &[&str] = &[
    "3.3-IV3", "3.4-IV0", "3.5-IV0", "3.5-IV1", "3.5-IV2", "3.6-IV0", "3.6-IV1", "3.6-IV2",
    "3.7-IV0", "3.7-IV1", "3.7-IV2", "3.7-IV3", "3.7-IV4", "3.8-IV0", "3.9-IV0", "4.0-IV0",
    "4.0-IV1", "4.0-IV2", "4.0-IV3", "4.1-IV0", "4.1-IV1", "4.2-IV0", "4.2-IV1", "4.3-IV0",
    "4.4-IV0", "4.4-IV1", "4.4-IV2",
];

/// `levelToString` (227-236): metadata.version by its name, the others as numbers.
pub fn level_text(feature: &str, level: i16) -> String {
    if feature != METADATA_VERSION {
        return level.to_string();
    }
    usize::try_from(level - 7)
        .ok()
        .and_then(|i| METADATA_VERSIONS.get(i))
        .map_or(format!("UNKNOWN {level}"), |s| s.to_string())
}

/// The finalized levels and epoch node `id` answers ApiVersions with: a controller's
/// FeaturesPublisher with kraft.version set from its Raft client (unknown before the first
/// features image), a broker's metadata cache (kraft.version when above 0, the image's offset).
pub fn finalized_features(world: &World, id: i32) -> (BTreeMap<String, i16>, Option<i64>) {
    let Some(node) = world.node(id) else {
        return (BTreeMap::new(), None);
    };
    let kraft = node.raft.as_ref().map_or(0, kraft_version) as i16;
    let Some(loader) = node.loader.as_ref() else {
        return (BTreeMap::new(), None);
    };
    let mut levels = loader.image.features.levels.clone();
    if node.roles.has_controller() {
        let Some(epoch) = loader.finalized_features_offset else {
            return (BTreeMap::new(), None);
        };
        if kraft > 0 {
            levels.insert("kraft.version".into(), kraft);
        }
        (levels, Some(epoch))
    } else {
        if kraft > 0 {
            levels.insert("kraft.version".into(), kraft);
        }
        let epoch = loader.published_offset();
        (levels, (epoch >= 0).then_some(epoch))
    }
}

/// `KafkaRaftClient.kraftVersion()` (KafkaRaftClient.java:3860-3870): the leader's requested
/// upgrade if any, else the last kraft.version in its log.
pub fn kraft_version(raft: &crate::raft::KafkaRaftClient) -> u16 {
    match raft.state() {
        EpochState::Leader(l) if l.upgraded_kraft_version.is_some() => {
            l.upgraded_kraft_version.unwrap_or(0)
        }
        _ => raft.partition_state().last_kraft_version(),
    }
}

/// `updates` (feature name to level) in the iteration order of FeatureCommand's `HashMap`.
pub fn hash_map_order(updates: Vec<(String, i16)>) -> Vec<(String, i16)> {
    let cap = java_hash_map_capacity(updates.len(), None);
    java_hash_map_order(updates, |(n, _)| java_string_hash(n), cap)
}
