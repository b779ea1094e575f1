//! MetadataLoader: committed batches from Raft are replayed into a MetadataDelta; a new
//! MetadataImage is published per batch once the loader has caught up with the high watermark
//! (before that, everything it read is published at once when it catches up).

use super::delta::MetadataDelta;
use super::metadata_image::{MetadataImage, MetadataProvenance};
use crate::raft::batch::{Record, RecordBatch};
use crate::raft::snapshot::{snapshot_name, RawSnapshot};
use std::sync::Arc;

/// What kind of manifest came with a publication.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ManifestType {
    /// LogDeltaManifest: committed batches from the log.
    LogDelta,
    /// SnapshotManifest: a snapshot was loaded.
    Snapshot,
}

/// What a publisher was given: the delta's changed areas and the new image.
#[derive(Clone, Debug)]
pub struct Publication {
    /// LogDelta or Snapshot.
    pub manifest: ManifestType,
    /// numBytes of a LogDeltaManifest: the size of the batches in the delta.
    pub bytes: u64,
    /// Areas changed (`topics`, `cluster`, ...).
    pub changed: Vec<&'static str>,
    /// Records in the delta.
    pub records: usize,
    /// The image published.
    pub image: MetadataImage,
}

/// The broker's (or combined node's) MetadataLoader.
#[derive(Clone, Debug, Default)]
pub struct MetadataLoader {
    /// The image publishers have (the last published one).
    pub image: MetadataImage,
    delta: Option<MetadataDelta>,
    pending_provenance: Option<MetadataProvenance>,
    pending_bytes: u64,
    pending_manifest: Option<ManifestType>,
    /// Publications not yet taken by the node's other publishers (the SnapshotGenerator).
    pub unread: Vec<Publication>,
    /// Whether the initial catch-up with the high watermark is done.
    pub caught_up: bool,
    /// How many images were published.
    pub publish_count: u64,
    /// HandleLoadSnapshotCount.
    pub snapshot_loads: u64,
    /// The last publication.
    pub last_publication: Option<Publication>,
    /// The offset of this loader's first published image (for the invariants: a restarted
    /// broker's first image is not older than what it published before).
    pub first_published_offset: Option<i64>,
    /// The `loader-catch-up` rule switched off (issue 18): publish at once, however far
    /// behind the high watermark.
    pub skip_catch_up: bool,
    /// The offset of the last image published with a change to the features: the
    /// `finalizedFeaturesEpoch` a controller's FeaturesPublisher keeps (FeaturesPublisher.java:
    /// 56-72), which ApiVersions answers `kafka-features describe` with. None before one.
    pub finalized_features_offset: Option<i64>,
}

impl MetadataLoader {
    /// `stillNeedToCatchUp`: the offset read is below the high watermark - 1.
    fn still_need_to_catch_up(&self, offset: i64, high_watermark: Option<i64>) -> bool {
        // RULE loader-catch-up (stillNeedToCatchUp): off, nothing waits for the HW.
        !self.skip_catch_up && !self.caught_up && high_watermark.is_none_or(|hw| offset < hw - 1)
    }

    /// `handleCommit`: replay the batches, publish when caught up. Errors are replay faults.
    pub fn handle_commit(
        &mut self,
        batches: &[Arc<RecordBatch>],
        high_watermark: Option<i64>,
    ) -> Result<(), String> {
        for b in batches {
            let delta = self
                .delta
                .get_or_insert_with(|| MetadataDelta::new(self.image.clone()));
            self.pending_bytes += b.size_in_bytes() as u64;
            self.pending_manifest.get_or_insert(ManifestType::LogDelta);
            for (i, r) in b.records.iter().enumerate() {
                if let Record::Metadata(m) = r {
                    delta.replay(m, b.base_offset + i as i64)?;
                }
            }
            self.pending_provenance = Some(MetadataProvenance {
                offset: b.last_offset(),
                epoch: b.partition_leader_epoch,
                time_ms: b.create_time_ms,
            });
            let offset = b.last_offset();
            if self.still_need_to_catch_up(offset, high_watermark) {
                continue;
            }
            self.caught_up = true;
            self.publish();
        }
        Ok(())
    }

    /// `handleLoadSnapshot`: the snapshot's records replayed into a delta from an empty image
    /// (everything the snapshot does not mention is gone), published as a SnapshotManifest once
    /// caught up. Returns the log lines to write.
    pub fn handle_load_snapshot(
        &mut self,
        snapshot: &RawSnapshot,
        high_watermark: Option<i64>,
    ) -> Result<Vec<String>, String> {
        self.snapshot_loads += 1;
        let name = snapshot_name(snapshot.id);
        let mut lines = vec![format!(
            "handleLoadSnapshot({name}): incrementing HandleLoadSnapshotCount to {}.",
            self.snapshot_loads
        )];
        let mut delta = MetadataDelta::new(MetadataImage::default());
        for (i, r) in snapshot.metadata_records().enumerate() {
            delta.replay(r, snapshot.id.offset - 1).map_err(|e| {
                format!(
                    "Error loading metadata log record {i} in snapshot at offset {}: {e}",
                    snapshot.id.offset - 1
                )
            })?;
        }
        lines.push(format!(
            "handleLoadSnapshot({name}): generated a metadata delta between offset {} and this snapshot in 0 us.",
            self.published_offset()
        ));
        self.delta = Some(delta);
        self.pending_bytes = 0;
        self.pending_manifest = Some(ManifestType::Snapshot);
        let offset = snapshot.id.offset - 1;
        self.pending_provenance = Some(MetadataProvenance {
            offset,
            epoch: snapshot.id.epoch,
            time_ms: snapshot.last_contained_log_timestamp,
        });
        if !self.still_need_to_catch_up(offset, high_watermark) {
            self.caught_up = true;
            self.publish();
        }
        Ok(lines)
    }

    fn publish(&mut self) {
        let (Some(delta), Some(p)) = (self.delta.take(), self.pending_provenance.take()) else {
            return;
        };
        let image = delta.apply(p);
        self.publish_count += 1;
        self.first_published_offset
            .get_or_insert(image.provenance.offset);
        let changed = delta.changed_areas();
        if changed.contains(&"features") {
            self.finalized_features_offset = Some(image.provenance.offset);
        }
        let publication = Publication {
            manifest: self
                .pending_manifest
                .take()
                .unwrap_or(ManifestType::LogDelta),
            bytes: std::mem::take(&mut self.pending_bytes),
            changed,
            records: delta.records,
            image: image.clone(),
        };
        self.unread.push(publication.clone());
        self.last_publication = Some(publication);
        self.image = image;
    }

    /// The offset of the last published image (-1 before the first).
    pub fn published_offset(&self) -> i64 {
        if self.publish_count == 0 {
            -1
        } else {
            self.image.provenance.offset
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::uuid::Uuid;
    use crate::metadata::{FeatureLevelRecord, MetadataRecord, TopicRecord};

    fn batch(base: i64, records: Vec<MetadataRecord>) -> Arc<RecordBatch> {
        Arc::new(RecordBatch {
            base_offset: base,
            partition_leader_epoch: 1,
            is_control: false,
            create_time_ms: 5,
            records: records.into_iter().map(Record::Metadata).collect(),
            producer: crate::raft::batch::ProducerStamp::NONE,
        })
    }

    #[test]
    fn no_publish_before_catching_up_then_structural_sharing() {
        let mut l = MetadataLoader::default();
        let f = MetadataRecord::FeatureLevel(FeatureLevelRecord {
            name: "metadata.version".into(),
            feature_level: 33,
        });
        l.handle_commit(&[batch(0, vec![f])], Some(10)).unwrap();
        assert_eq!(l.publish_count, 0, "still catching up to HW 10");
        l.handle_commit(&[batch(1, vec![MetadataRecord::NoOp; 9])], Some(10))
            .unwrap();
        assert_eq!(
            l.publish_count, 1,
            "caught up at offset 9 = HW - 1: all in one image"
        );
        assert_eq!(l.image.provenance.offset, 9);
        let before = l.image.clone();
        let t = MetadataRecord::Topic(TopicRecord {
            name: "orders".into(),
            topic_id: Uuid([1; 16]),
        });
        l.handle_commit(&[batch(10, vec![t])], Some(11)).unwrap();
        assert_eq!(l.publish_count, 2);
        assert!(
            Arc::ptr_eq(&before.features, &l.image.features),
            "features shared"
        );
        assert!(!Arc::ptr_eq(&before.topics, &l.image.topics));
        assert_eq!(l.last_publication.as_ref().unwrap().changed, vec!["topics"]);
        assert!(l.image.summary().contains("topic orders"));
    }
}
