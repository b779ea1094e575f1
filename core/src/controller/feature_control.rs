//! FeatureControlManager: finalized feature levels (metadata.version and the others).

use crate::metadata::FeatureLevelRecord;
use crate::timeline::{Revertable, SnapshotRegistry, TimelineHashMap};

/// The `metadata.version` feature's name (`MetadataVersion.FEATURE_NAME`).
pub const METADATA_VERSION: &str = "metadata.version";
/// `metadata.version` 4.4-IV2, the latest production level (MetadataVersion.java).
pub const METADATA_VERSION_LEVEL: i16 = 33;
/// Its name.
pub const METADATA_VERSION_NAME: &str = "4.4-IV2";
/// `metadata.version` 4.3-IV0 (IBP_4_3_IV0): from here on brokers report their cordoned log
/// dirs and the controller records them (`isCordonedLogDirsSupported`).
pub const IBP_4_3_IV0: i16 = 30;

/// `MetadataVersion.isCordonedLogDirsSupported` for the finalized `metadata.version` level.
pub fn is_cordoned_log_dirs_supported(metadata_version: Option<i16>) -> bool {
    metadata_version.is_some_and(|l| l >= IBP_4_3_IV0)
}

/// The bootstrap feature levels `kafka-storage format` writes, metadata.version first, then the
/// others sorted by name (kraft.version is not a FeatureLevelRecord).
pub fn bootstrap_features() -> Vec<FeatureLevelRecord> {
    [
        (METADATA_VERSION, METADATA_VERSION_LEVEL),
        ("eligible.leader.replicas.version", 1),
        ("group.version", 1),
        ("share.version", 2),
        ("streams.version", 1),
        ("transaction.version", 2),
    ]
    .into_iter()
    .map(|(name, level)| FeatureLevelRecord {
        name: name.to_string(),
        feature_level: level,
    })
    .collect()
}

/// The finalized features.
#[derive(Clone, Debug, Default)]
pub struct FeatureControlManager {
    /// Feature name to level.
    pub levels: TimelineHashMap<String, i16>,
}

impl FeatureControlManager {
    /// `replay(FeatureLevelRecord)`; returns the controller.log line.
    pub fn replay(&mut self, registry: &SnapshotRegistry, r: &FeatureLevelRecord) -> String {
        if r.feature_level == 0 {
            self.levels.remove(registry, &r.name);
        } else {
            self.levels.put(registry, r.name.clone(), r.feature_level);
        }
        if r.name == METADATA_VERSION {
            let text = if r.feature_level == METADATA_VERSION_LEVEL {
                METADATA_VERSION_NAME.to_string()
            } else {
                format!("level {}", r.feature_level)
            };
            format!("Replayed a FeatureLevelRecord setting metadata.version to {text}")
        } else {
            format!(
                "Replayed a FeatureLevelRecord setting feature {} to {}",
                r.name, r.feature_level
            )
        }
    }
}

impl Revertable for FeatureControlManager {
    fn revert_to_snapshot(&mut self, epoch: i64) {
        self.levels.revert_to_snapshot(epoch);
    }
    fn delete_snapshot(&mut self, epoch: i64, previous: Option<i64>) {
        self.levels.delete_snapshot(epoch, previous);
    }
    fn delete_snapshots_up_to(&mut self, epoch: i64) {
        self.levels.delete_snapshots_up_to(epoch);
    }
}
