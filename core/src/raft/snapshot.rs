//! Snapshots of the metadata log: `<20-digit end offset>-<10-digit epoch>.checkpoint` files
//! holding the whole metadata image up to (not including) the end offset, as Kafka's
//! RecordsSnapshotWriter writes them: a SnapshotHeader control batch, the records, a
//! SnapshotFooter control batch. Offsets inside a snapshot start at 0.

use super::batch::{Record, RecordBatch};
use crate::common::offset_and_epoch::OffsetAndEpoch;
use crate::metadata::MetadataRecord;
use std::sync::Arc;

/// Most records in one data batch of a snapshot (the writer's batch size is bytes in Kafka;
/// a count keeps snapshots of the small lesson clusters in one or two batches).
pub const SNAPSHOT_RECORDS_PER_BATCH: usize = 1_000;

/// A frozen snapshot file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawSnapshot {
    /// The snapshot id: the end offset (the first offset not contained) and its epoch.
    pub id: OffsetAndEpoch,
    /// lastContainedLogTimestamp of the SnapshotHeader, virtual ms.
    pub last_contained_log_timestamp: u64,
    /// The batches as written, header and footer included.
    pub batches: Vec<Arc<RecordBatch>>,
}

/// Kafka's `Snapshots.filenameFromSnapshotId`: `%020d-%010d`.
pub fn snapshot_name(id: OffsetAndEpoch) -> String {
    format!("{:020}-{:010}", id.offset, id.epoch)
}

/// Parse a `.checkpoint` file name back into its id.
pub fn parse_snapshot_name(name: &str) -> Option<OffsetAndEpoch> {
    let base = name.strip_suffix(".checkpoint")?;
    let (o, e) = base.split_once('-')?;
    if o.len() != 20 || e.len() != 10 {
        return None;
    }
    Some(OffsetAndEpoch {
        offset: o.parse().ok()?,
        epoch: e.parse().ok()?,
    })
}

impl RawSnapshot {
    /// Write a snapshot of `records` (the image, as `MetadataImage.write` lists it) with id
    /// `id`. `control` are the control records written after the header (KRaftVersion and
    /// KRaftVoters when kraft.version is 1).
    pub fn write(
        id: OffsetAndEpoch,
        last_contained_log_timestamp: u64,
        control: Vec<Record>,
        records: Vec<MetadataRecord>,
        create_time_ms: u64,
    ) -> RawSnapshot {
        let mut batches = Vec::new();
        let mut next = 0i64;
        let mut push = |records: Vec<Record>, is_control: bool, batches: &mut Vec<_>| {
            let b = RecordBatch {
                base_offset: next,
                partition_leader_epoch: id.epoch,
                is_control,
                create_time_ms,
                records,
                producer: crate::raft::batch::ProducerStamp::NONE,
            };
            next = b.next_offset();
            batches.push(Arc::new(b));
        };
        let mut header = vec![Record::SnapshotHeader {
            last_contained_log_timestamp,
        }];
        header.extend(control);
        push(header, true, &mut batches);
        let records: Vec<Record> = records.into_iter().map(Record::Metadata).collect();
        for chunk in records.chunks(SNAPSHOT_RECORDS_PER_BATCH) {
            push(chunk.to_vec(), false, &mut batches);
        }
        push(vec![Record::SnapshotFooter], true, &mut batches);
        RawSnapshot {
            id,
            last_contained_log_timestamp,
            batches,
        }
    }

    /// The file name: `00000000000000000123-0000000002.checkpoint`.
    pub fn file_name(&self) -> String {
        format!("{}.checkpoint", snapshot_name(self.id))
    }

    /// Bytes of the file.
    pub fn size_in_bytes(&self) -> usize {
        self.batches.iter().map(|b| b.size_in_bytes()).sum()
    }

    /// The metadata records it holds, in order.
    pub fn metadata_records(&self) -> impl Iterator<Item = &MetadataRecord> {
        self.batches.iter().flat_map(|b| {
            b.records.iter().filter_map(|r| match r {
                Record::Metadata(m) => Some(m),
                _ => None,
            })
        })
    }

    /// Whether this is the bootstrap snapshot `kafka-storage format` writes (id 0-0).
    pub fn is_bootstrap(&self) -> bool {
        self.id.offset == 0 && self.id.epoch == 0
    }
}

/// A snapshot being fetched from the leader with FetchSnapshot (`.checkpoint.part`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartialSnapshot {
    /// The id the leader named.
    pub id: OffsetAndEpoch,
    /// The follower epoch it is fetched in (a new epoch starts over).
    pub leader_epoch: i32,
    /// Bytes received so far (the next position to ask for).
    pub received: usize,
    /// The snapshot whose bytes are arriving (known once the first chunk came).
    pub content: Option<Arc<RawSnapshot>>,
}

impl PartialSnapshot {
    /// The file name while it is written: `...checkpoint.part`.
    pub fn file_name(&self) -> String {
        format!("{}.checkpoint.part", snapshot_name(self.id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_batches_start_at_zero() {
        let id = OffsetAndEpoch {
            offset: 123,
            epoch: 2,
        };
        let s = RawSnapshot::write(id, 99, vec![], vec![MetadataRecord::NoOp; 3], 5);
        assert_eq!(s.file_name(), "00000000000000000123-0000000002.checkpoint");
        assert_eq!(parse_snapshot_name(&s.file_name()), Some(id));
        assert_eq!(parse_snapshot_name("123-2.checkpoint"), None);
        assert_eq!(s.batches[0].base_offset, 0);
        assert!(s.batches[0].is_control);
        assert_eq!(s.batches[1].base_offset, 1);
        assert_eq!(s.batches.last().unwrap().base_offset, 4);
        assert_eq!(s.metadata_records().count(), 3);
        assert!(!s.is_bootstrap());
    }
}
