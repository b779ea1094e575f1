//! The metadata log of one node: batches, the leader epoch cache, truncation.
//!
//! It lives on the node's disk, so it survives `kill -9` (the page cache survives a process
//! crash; only a machine crash would lose unflushed data, which the simulator does not model).

use super::batch::{ProducerStamp, Record, RecordBatch};
use super::snapshot::{PartialSnapshot, RawSnapshot};
use crate::common::offset_and_epoch::OffsetAndEpoch;
use std::sync::Arc;

/// `metadata.log.segment.bytes`: Kafka's default, 1 GiB.
pub const DEFAULT_SEGMENT_BYTES: usize = 1024 * 1024 * 1024;

/// An entry of `leader-epoch-checkpoint`: the first offset written in an epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EpochEntry {
    /// The leader epoch.
    pub epoch: i32,
    /// The first offset of that epoch.
    pub start_offset: i64,
}

/// The log of `__cluster_metadata-0`: segments of batches, the leader epoch cache and the
/// snapshots (`.checkpoint` files) beside them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaftLog {
    batches: Vec<Arc<RecordBatch>>,
    start_offset: i64,
    epoch_cache: Vec<EpochEntry>,
    /// Base offsets of the segments, oldest first (the first is at or below the start offset).
    segments: Vec<i64>,
    /// Bytes in the active (last) segment.
    active_segment_bytes: usize,
    /// metadata.log.segment.bytes
    segment_bytes: usize,
    /// Frozen snapshots, by end offset.
    snapshots: Vec<Arc<RawSnapshot>>,
    /// A snapshot being fetched from the leader.
    pub partial_snapshot: Option<PartialSnapshot>,
    /// Snapshots marked for deletion (`.checkpoint.deleted`) and when their files go.
    pub deleted_snapshots: Vec<(OffsetAndEpoch, u64)>,
}

impl Default for RaftLog {
    fn default() -> Self {
        RaftLog {
            batches: Vec::new(),
            start_offset: 0,
            epoch_cache: Vec::new(),
            segments: vec![0],
            active_segment_bytes: 0,
            segment_bytes: DEFAULT_SEGMENT_BYTES,
            snapshots: Vec::new(),
            partial_snapshot: None,
            deleted_snapshots: Vec::new(),
        }
    }
}

impl RaftLog {
    /// A log whose segments roll after `segment_bytes` (metadata.log.segment.bytes).
    pub fn with_segment_bytes(segment_bytes: usize) -> Self {
        RaftLog {
            segment_bytes: segment_bytes.max(1),
            ..Default::default()
        }
    }

    /// metadata.log.segment.bytes
    pub fn set_segment_bytes(&mut self, segment_bytes: usize) {
        self.segment_bytes = segment_bytes.max(1);
    }

    /// Base offsets of the segments, oldest first.
    pub fn segment_bases(&self) -> &[i64] {
        &self.segments
    }

    /// The batches of the segment with base offset `base` (None if there is no such segment).
    pub fn segment_batches(&self, base: i64) -> Option<Vec<Arc<RecordBatch>>> {
        let i = self.segments.iter().position(|b| *b == base)?;
        let end = self.segments.get(i + 1).copied().unwrap_or(i64::MAX);
        Some(
            self.batches
                .iter()
                .filter(|b| b.base_offset >= base && b.base_offset < end)
                .cloned()
                .collect(),
        )
    }

    /// Roll a new segment before appending a batch of `bytes` at `base` when the active one
    /// would grow past `metadata.log.segment.bytes` (Kafka's `shouldRoll`).
    fn maybe_roll(&mut self, base: i64, bytes: usize) {
        if self.active_segment_bytes > 0 && self.active_segment_bytes + bytes > self.segment_bytes {
            self.segments.push(base);
            self.active_segment_bytes = 0;
        }
        self.active_segment_bytes += bytes;
    }

    fn recompute_segments(&mut self) {
        let end = self.end_offset();
        while self.segments.len() > 1 && *self.segments.last().expect("segment") >= end {
            self.segments.pop();
        }
        if self.segments.len() == 1 && self.segments[0] > end {
            self.segments[0] = end;
        }
        let last = *self.segments.last().expect("segment");
        self.active_segment_bytes = self
            .batches
            .iter()
            .filter(|b| b.base_offset >= last)
            .map(|b| b.size_in_bytes())
            .sum();
    }

    // ----- snapshots -----

    /// Frozen snapshots, oldest first.
    pub fn snapshots(&self) -> &[Arc<RawSnapshot>] {
        &self.snapshots
    }

    /// The latest snapshot (the one a listener or a fetching replica is given).
    pub fn latest_snapshot(&self) -> Option<&Arc<RawSnapshot>> {
        self.snapshots.last()
    }

    /// The latest snapshot's id.
    pub fn latest_snapshot_id(&self) -> Option<OffsetAndEpoch> {
        self.snapshots.last().map(|s| s.id)
    }

    /// The earliest snapshot's id.
    pub fn earliest_snapshot_id(&self) -> Option<OffsetAndEpoch> {
        self.snapshots.first().map(|s| s.id)
    }

    /// The snapshot with `id`.
    pub fn read_snapshot(&self, id: OffsetAndEpoch) -> Option<&Arc<RawSnapshot>> {
        self.snapshots.iter().find(|s| s.id == id)
    }

    /// `onSnapshotFrozen`: keep a finished snapshot (replacing one with the same id).
    pub fn store_snapshot(&mut self, snapshot: Arc<RawSnapshot>) {
        self.snapshots.retain(|s| s.id != snapshot.id);
        let at = self
            .snapshots
            .partition_point(|s| s.id.offset <= snapshot.id.offset);
        self.snapshots.insert(at, snapshot);
    }

    /// `deleteBeforeSnapshot`: advance the log start offset to the snapshot's end offset and
    /// delete the segments wholly before it. Returns the segment bases deleted.
    pub fn delete_before_snapshot(&mut self, id: OffsetAndEpoch) -> Vec<i64> {
        if id.offset <= self.start_offset || id.offset > self.end_offset() {
            return Vec::new();
        }
        self.start_offset = id.offset;
        // The epoch cache keeps the entry in force at the new start, moved to it.
        let keep_from = self
            .epoch_cache
            .iter()
            .rposition(|e| e.start_offset <= id.offset)
            .unwrap_or(0);
        self.epoch_cache.drain(..keep_from);
        if let Some(first) = self.epoch_cache.first_mut() {
            first.start_offset = first.start_offset.max(id.offset);
        }
        let mut deleted = Vec::new();
        while self.segments.len() > 1 && self.segments[1] <= id.offset {
            deleted.push(self.segments.remove(0));
        }
        let first = self.segments[0];
        self.batches
            .retain(|b| b.base_offset >= first || b.next_offset() > first);
        deleted
    }

    /// `forgetSnapshotsBefore`: drop the snapshots before `id`.
    pub fn forget_snapshots_before(&mut self, id: OffsetAndEpoch) {
        self.snapshots.retain(|s| s.id.offset >= id.offset);
    }

    /// Delete the snapshots older than the log start offset, keeping the latest
    /// (`cleanSnapshots`). Returns the ids deleted.
    pub fn delete_snapshots_before_start(&mut self) -> Vec<OffsetAndEpoch> {
        let start = self.start_offset;
        let latest = self.latest_snapshot_id();
        let (gone, kept): (Vec<_>, Vec<_>) = self
            .snapshots
            .drain(..)
            .partition(|s| s.id.offset < start && Some(s.id) != latest);
        self.snapshots = kept;
        gone.into_iter().map(|s| s.id).collect()
    }

    /// `truncateToLatestSnapshot`: when the latest snapshot is past the log end (or the log
    /// disagrees with it), drop the whole log and start it at the snapshot's end offset.
    /// Returns whether the log was truncated.
    pub fn truncate_to_latest_snapshot(&mut self) -> bool {
        let Some(id) = self.latest_snapshot_id() else {
            return false;
        };
        let latest_epoch = self.epoch_cache.last().map(|e| e.epoch).unwrap_or(0);
        if id.epoch > latest_epoch || (id.epoch == latest_epoch && id.offset > self.end_offset()) {
            self.batches.clear();
            self.epoch_cache.clear();
            self.start_offset = id.offset;
            self.segments = vec![id.offset];
            self.active_segment_bytes = 0;
            return true;
        }
        false
    }

    /// The log start offset.
    pub fn start_offset(&self) -> i64 {
        self.start_offset
    }
    /// The log end offset (LEO): the offset the next record gets.
    pub fn end_offset(&self) -> i64 {
        self.batches
            .last()
            .map(|b| b.next_offset())
            .unwrap_or(self.start_offset)
    }

    /// The epoch of the last batch; for an empty log the latest snapshot's epoch, else 0.
    pub fn last_fetched_epoch(&self) -> i32 {
        self.epoch_cache
            .last()
            .map(|e| e.epoch)
            .or_else(|| self.latest_snapshot_id().map(|s| s.epoch))
            .unwrap_or(0)
    }

    /// The log end as (offset, epoch), what a vote compares.
    pub fn end_offset_and_epoch(&self) -> OffsetAndEpoch {
        OffsetAndEpoch {
            offset: self.end_offset(),
            epoch: self.last_fetched_epoch(),
        }
    }

    /// The leader epoch cache (the content of `leader-epoch-checkpoint`).
    pub fn epoch_entries(&self) -> &[EpochEntry] {
        &self.epoch_cache
    }

    /// All batches, oldest first.
    pub fn batches(&self) -> &[Arc<RecordBatch>] {
        &self.batches
    }

    /// KafkaRaftLog's `endOffsetForEpoch`: from the leader epoch cache, the largest epoch not
    /// above `epoch` and the offset where the next epoch starts (or the LEO); an epoch below
    /// every cached one ends where the cache starts, and if that is the earliest snapshot's
    /// offset the snapshot's id is the answer. With nothing cached: (LEO, last fetched epoch).
    pub fn end_offset_for_epoch(&self, epoch: i32) -> OffsetAndEpoch {
        let answer = match self.epoch_cache.last() {
            None => None,
            Some(last) if last.epoch == epoch => Some(OffsetAndEpoch {
                offset: self.end_offset(),
                epoch,
            }),
            Some(_) => {
                let higher = self.epoch_cache.iter().find(|e| e.epoch > epoch);
                let floor = self.epoch_cache.iter().rev().find(|e| e.epoch <= epoch);
                higher.map(|h| OffsetAndEpoch {
                    offset: h.start_offset,
                    epoch: floor.map(|f| f.epoch).unwrap_or(epoch),
                })
            }
        };
        match (answer, self.snapshots.first()) {
            (Some(a), Some(s)) if a.offset == s.id.offset && a.epoch < epoch => s.id,
            (Some(a), _) => a,
            (None, _) => OffsetAndEpoch {
                offset: self.end_offset(),
                epoch: self.last_fetched_epoch(),
            },
        }
    }

    fn note_epoch(&mut self, epoch: i32, start_offset: i64) {
        if self.epoch_cache.last().map(|e| e.epoch) != Some(epoch) {
            self.epoch_cache.push(EpochEntry {
                epoch,
                start_offset,
            });
        }
    }

    /// `assignEpochStartOffset`: a new leader caches its epoch at its log end offset at once
    /// (Partition.makeLeader, Partition.scala:639-644), so that followers with entries of a
    /// later epoch find where to truncate.
    pub fn assign_epoch_start_offset(&mut self, epoch: i32, start_offset: i64) {
        if self.epoch_cache.last().is_none_or(|e| e.epoch < epoch) {
            self.epoch_cache.push(EpochEntry {
                epoch,
                start_offset,
            });
        }
    }

    /// Append records written by the leader in `epoch`; returns the new batch.
    pub fn append_as_leader(
        &mut self,
        records: Vec<Record>,
        epoch: i32,
        create_time_ms: u64,
    ) -> Arc<RecordBatch> {
        self.append_batch_as_leader(records, epoch, create_time_ms, ProducerStamp::NONE)
    }

    /// Append a producer's records as the leader in `epoch`, with its producer id, epoch and
    /// base sequence; returns the new batch.
    pub fn append_batch_as_leader(
        &mut self,
        records: Vec<Record>,
        epoch: i32,
        create_time_ms: u64,
        producer: ProducerStamp,
    ) -> Arc<RecordBatch> {
        assert!(!records.is_empty(), "Attempt to append an empty record set");
        let is_control = records[0].is_control();
        let batch = Arc::new(RecordBatch {
            base_offset: self.end_offset(),
            partition_leader_epoch: epoch,
            is_control,
            create_time_ms,
            records,
            producer,
        });
        self.note_epoch(epoch, batch.base_offset);
        self.maybe_roll(batch.base_offset, batch.size_in_bytes());
        self.batches.push(batch.clone());
        batch
    }

    /// Append batches fetched from the leader; they must start at the log end.
    pub fn append_as_follower(&mut self, batches: &[Arc<RecordBatch>]) -> Result<(), String> {
        for batch in batches {
            if batch.base_offset != self.end_offset() {
                return Err(format!(
                    "batch at offset {} does not start at the log end offset {}",
                    batch.base_offset,
                    self.end_offset()
                ));
            }
            self.note_epoch(batch.partition_leader_epoch, batch.base_offset);
            self.maybe_roll(batch.base_offset, batch.size_in_bytes());
            self.batches.push(batch.clone());
        }
        Ok(())
    }

    /// Remove everything at and after `offset` (a follower truncating to the leader's log).
    pub fn truncate_to(&mut self, offset: i64) {
        while let Some(last) = self.batches.last() {
            if last.base_offset >= offset {
                self.batches.pop();
            } else if last.next_offset() > offset {
                let mut kept = (**last).clone();
                kept.records.truncate((offset - kept.base_offset) as usize);
                *self.batches.last_mut().expect("last batch") = Arc::new(kept);
                break;
            } else {
                break;
            }
        }
        let end = self.end_offset();
        self.epoch_cache.retain(|e| e.start_offset < end);
        self.recompute_segments();
    }

    /// Kafka's `truncateToEndOffset`: truncate to where this log and the leader's diverging
    /// (offset, epoch) agree. Returns the offset truncated to.
    pub fn truncate_to_end_offset(&mut self, leader_end: OffsetAndEpoch) -> i64 {
        let local = self.end_offset_for_epoch(leader_end.epoch);
        let offset = if local.epoch == leader_end.epoch {
            local.offset.min(leader_end.offset)
        } else {
            local.offset
        };
        let offset = offset.max(self.start_offset);
        self.truncate_to(offset);
        offset
    }

    /// Batches starting at `offset` (which must be a batch boundary or inside a batch), at most
    /// `max_bytes` of them (always at least one when there is data).
    pub fn read(&self, offset: i64, max_bytes: usize) -> Vec<Arc<RecordBatch>> {
        let start = self.batches.partition_point(|b| b.next_offset() <= offset);
        let mut out = Vec::new();
        let mut bytes = 0;
        for b in &self.batches[start..] {
            bytes += b.size_in_bytes();
            if !out.is_empty() && bytes > max_bytes {
                break;
            }
            out.push(b.clone());
        }
        out
    }

    /// The record at `offset`, if the log holds it.
    pub fn record_at(&self, offset: i64) -> Option<&Record> {
        if offset < self.start_offset {
            return None;
        }
        let i = self.batches.partition_point(|b| b.next_offset() <= offset);
        let b = self.batches.get(i)?;
        if offset < b.base_offset {
            return None;
        }
        b.records.get((offset - b.base_offset) as usize)
    }

    /// Total bytes of all batches.
    pub fn size_in_bytes(&self) -> usize {
        self.batches.iter().map(|b| b.size_in_bytes()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::MetadataRecord;

    fn noop(n: usize) -> Vec<Record> {
        vec![Record::Metadata(MetadataRecord::NoOp); n]
    }

    #[test]
    fn end_offset_for_epoch_follows_kafka() {
        let mut log = RaftLog::default();
        log.append_as_leader(noop(3), 1, 0); // 0..2 epoch 1
        log.append_as_leader(noop(2), 1, 0); // 3..4 epoch 1
        log.append_as_leader(noop(2), 3, 0); // 5..6 epoch 3
        assert_eq!(log.end_offset(), 7);
        assert_eq!(
            log.end_offset_for_epoch(1),
            OffsetAndEpoch {
                offset: 5,
                epoch: 1
            }
        );
        // Epoch 2 was never written: the largest epoch below it is 1.
        assert_eq!(
            log.end_offset_for_epoch(2),
            OffsetAndEpoch {
                offset: 5,
                epoch: 1
            }
        );
        assert_eq!(
            log.end_offset_for_epoch(3),
            OffsetAndEpoch {
                offset: 7,
                epoch: 3
            }
        );
        // Below every cached epoch: the first epoch's start (LeaderEpochFileCache.endOffsetFor).
        assert_eq!(
            log.end_offset_for_epoch(0),
            OffsetAndEpoch {
                offset: 0,
                epoch: 0
            }
        );
    }

    #[test]
    fn truncate_drops_whole_batches_and_epochs() {
        let mut log = RaftLog::default();
        log.append_as_leader(noop(3), 1, 0);
        log.append_as_leader(noop(2), 2, 0);
        log.truncate_to(3);
        assert_eq!(log.end_offset(), 3);
        assert_eq!(log.last_fetched_epoch(), 1);
        assert_eq!(log.read(0, 1 << 20).len(), 1);
        log.truncate_to(1);
        assert_eq!(log.end_offset(), 1);
        log.truncate_to(0);
        assert_eq!(log.end_offset(), 0);
        assert!(log.epoch_entries().is_empty());
    }

    #[test]
    fn truncate_to_end_offset_finds_the_common_point() {
        let mut log = RaftLog::default();
        log.append_as_leader(noop(3), 1, 0); // 0..2 epoch 1
        log.append_as_leader(noop(3), 2, 0); // 3..5 epoch 2 (never committed)
                                             // The new leader (epoch 3) says: your epoch 2 does not exist here; epoch 1 ended at 3.
        let to = log.truncate_to_end_offset(OffsetAndEpoch {
            offset: 3,
            epoch: 1,
        });
        assert_eq!(to, 3);
        assert_eq!(log.end_offset(), 3);
        assert_eq!(log.last_fetched_epoch(), 1);
    }

    #[test]
    fn vote_comparison_is_epoch_first() {
        let a = OffsetAndEpoch {
            offset: 100,
            epoch: 1,
        };
        let b = OffsetAndEpoch {
            offset: 5,
            epoch: 2,
        };
        assert!(b > a);
    }
}
