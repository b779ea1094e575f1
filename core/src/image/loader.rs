//! MetadataLoader: committed batches from Raft are replayed into a MetadataDelta; a new
//! MetadataImage is published per batch once the loader has caught up with the high watermark
//! (before that, everything it read is published at once when it catches up).

use super::delta::MetadataDelta;
use super::metadata_image::{MetadataImage, MetadataProvenance};
use crate::raft::batch::{Record, RecordBatch};
use std::sync::Arc;

/// What a publisher was given: the delta's changed areas and the new image.
#[derive(Clone, Debug)]
pub struct Publication {
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
    /// Whether the initial catch-up with the high watermark is done.
    pub caught_up: bool,
    /// How many images were published.
    pub publish_count: u64,
    /// The last publication.
    pub last_publication: Option<Publication>,
}

impl MetadataLoader {
    /// `stillNeedToCatchUp`: the offset read is below the high watermark - 1.
    fn still_need_to_catch_up(&self, offset: i64, high_watermark: Option<i64>) -> bool {
        !self.caught_up && high_watermark.is_none_or(|hw| offset < hw - 1)
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

    fn publish(&mut self) {
        let (Some(delta), Some(p)) = (self.delta.take(), self.pending_provenance.take()) else {
            return;
        };
        let image = delta.apply(p);
        self.publish_count += 1;
        self.last_publication = Some(Publication {
            changed: delta.changed_areas(),
            records: delta.records,
            image: image.clone(),
        });
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
    use crate::metadata::{FeatureLevelRecord, MetadataRecord, TopicRecord};
    use crate::sim::uuid::Uuid;

    fn batch(base: i64, records: Vec<MetadataRecord>) -> Arc<RecordBatch> {
        Arc::new(RecordBatch {
            base_offset: base,
            partition_leader_epoch: 1,
            is_control: false,
            create_time_ms: 5,
            records: records.into_iter().map(Record::Metadata).collect(),
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
