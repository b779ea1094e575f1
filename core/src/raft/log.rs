//! The metadata log of one node: batches, the leader epoch cache, truncation.
//!
//! It lives on the node's disk, so it survives `kill -9` (the page cache survives a process
//! crash; only a machine crash would lose unflushed data, which the simulator does not model).

use super::batch::{Record, RecordBatch};
use std::sync::Arc;

/// An entry of `leader-epoch-checkpoint`: the first offset written in an epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EpochEntry {
    /// The leader epoch.
    pub epoch: i32,
    /// The first offset of that epoch.
    pub start_offset: i64,
}

/// (offset, epoch), compared epoch first as Kafka's `OffsetAndEpoch` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OffsetAndEpoch {
    /// The offset.
    pub offset: i64,
    /// The epoch.
    pub epoch: i32,
}

impl PartialOrd for OffsetAndEpoch {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for OffsetAndEpoch {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.epoch, self.offset).cmp(&(other.epoch, other.offset))
    }
}

/// The log of `__cluster_metadata-0`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RaftLog {
    batches: Vec<Arc<RecordBatch>>,
    start_offset: i64,
    epoch_cache: Vec<EpochEntry>,
}

impl RaftLog {
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

    /// The epoch of the last batch, 0 for an empty log.
    pub fn last_fetched_epoch(&self) -> i32 {
        self.epoch_cache.last().map(|e| e.epoch).unwrap_or(0)
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

    /// Kafka's `endOffsetForEpoch`: the largest epoch not above `epoch`, and the offset where
    /// the next epoch starts (or the LEO). `(epoch -1, offset -1)` when no such epoch exists.
    pub fn end_offset_for_epoch(&self, epoch: i32) -> OffsetAndEpoch {
        let mut found: Option<usize> = None;
        for (i, e) in self.epoch_cache.iter().enumerate() {
            if e.epoch <= epoch {
                found = Some(i);
            }
        }
        match found {
            None => OffsetAndEpoch {
                offset: -1,
                epoch: -1,
            },
            Some(i) => {
                let end = self
                    .epoch_cache
                    .get(i + 1)
                    .map(|n| n.start_offset)
                    .unwrap_or_else(|| self.end_offset());
                OffsetAndEpoch {
                    offset: end,
                    epoch: self.epoch_cache[i].epoch,
                }
            }
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

    /// Append records written by the leader in `epoch`; returns the new batch.
    pub fn append_as_leader(
        &mut self,
        records: Vec<Record>,
        epoch: i32,
        create_time_ms: u64,
    ) -> Arc<RecordBatch> {
        assert!(!records.is_empty(), "Attempt to append an empty record set");
        let is_control = records[0].is_control();
        let batch = Arc::new(RecordBatch {
            base_offset: self.end_offset(),
            partition_leader_epoch: epoch,
            is_control,
            create_time_ms,
            records,
        });
        self.note_epoch(epoch, batch.base_offset);
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
        assert_eq!(log.end_offset_for_epoch(0).epoch, -1);
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
