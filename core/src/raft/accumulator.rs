//! BatchAccumulator: the leader collects appended records for `append.linger.ms` and drains
//! them as one batch, assigning offsets at append time.

use super::batch::Record;

/// A batch ready to be written to the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletedBatch {
    /// The records (control or data, never mixed).
    pub records: Vec<Record>,
    /// The offset of the first record.
    pub base_offset: i64,
}

/// The leader's accumulator for one epoch.
#[derive(Clone, Debug)]
pub struct BatchAccumulator {
    /// The epoch the batches are written in.
    pub epoch: i32,
    next_offset: i64,
    linger_ms: u64,
    max_records_per_batch: usize,
    open: Option<(Vec<Record>, i64, u64)>,
    completed: Vec<CompletedBatch>,
}

impl BatchAccumulator {
    /// An accumulator whose first record gets offset `next_offset`.
    pub fn new(epoch: i32, next_offset: i64, linger_ms: u64, max_records_per_batch: usize) -> Self {
        BatchAccumulator {
            epoch,
            next_offset,
            linger_ms,
            max_records_per_batch,
            open: None,
            completed: Vec::new(),
        }
    }

    fn complete_open(&mut self) {
        if let Some((records, base, _)) = self.open.take() {
            self.completed.push(CompletedBatch {
                records,
                base_offset: base,
            });
        }
    }

    /// Append data records; when `atomic`, they all go into one batch. Returns the offset of
    /// the last record.
    pub fn append(&mut self, records: Vec<Record>, now_ms: u64, atomic: bool) -> i64 {
        let n = records.len();
        if let Some((open, _, _)) = &self.open {
            if open.len() + n > self.max_records_per_batch && (atomic || !open.is_empty()) {
                self.complete_open();
            }
        }
        for r in records {
            if self.open.is_none() {
                self.open = Some((Vec::new(), self.next_offset, now_ms + self.linger_ms));
            }
            let open = self.open.as_mut().expect("open batch");
            open.0.push(r);
            self.next_offset += 1;
            if !atomic && open.0.len() >= self.max_records_per_batch {
                self.complete_open();
            }
        }
        self.next_offset - 1
    }

    /// Append control records as their own batch, drained at once.
    pub fn append_control(&mut self, records: Vec<Record>) -> i64 {
        self.complete_open();
        let n = records.len() as i64;
        self.completed.push(CompletedBatch {
            records,
            base_offset: self.next_offset,
        });
        self.next_offset += n;
        self.next_offset - 1
    }

    /// Time until something must be drained (0 when ready now, u64::MAX when empty).
    pub fn time_until_drain(&self, now_ms: u64) -> u64 {
        if !self.completed.is_empty() {
            return 0;
        }
        match &self.open {
            Some((_, _, drain_at)) => drain_at.saturating_sub(now_ms),
            None => u64::MAX,
        }
    }

    /// Take every batch that is due at `now_ms`.
    pub fn drain(&mut self, now_ms: u64) -> Vec<CompletedBatch> {
        if let Some((_, _, drain_at)) = &self.open {
            if now_ms >= *drain_at {
                self.complete_open();
            }
        }
        std::mem::take(&mut self.completed)
    }

    /// The offset the next appended record gets.
    pub fn next_offset(&self) -> i64 {
        self.next_offset
    }

    /// Records waiting (not yet in the log).
    pub fn pending_records(&self) -> usize {
        self.completed
            .iter()
            .map(|b| b.records.len())
            .sum::<usize>()
            + self.open.as_ref().map(|o| o.0.len()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::MetadataRecord;

    fn noop() -> Record {
        Record::Metadata(MetadataRecord::NoOp)
    }

    #[test]
    fn lingers_then_drains_one_batch() {
        let mut a = BatchAccumulator::new(1, 10, 25, 100);
        assert_eq!(a.append(vec![noop()], 0, false), 10);
        assert_eq!(a.append(vec![noop(), noop()], 5, false), 12);
        assert_eq!(a.time_until_drain(5), 20);
        assert!(a.drain(24).is_empty());
        let batches = a.drain(25);
        assert_eq!(batches.len(), 1);
        assert_eq!(batches[0].base_offset, 10);
        assert_eq!(batches[0].records.len(), 3);
    }

    #[test]
    fn control_records_close_the_open_batch() {
        let mut a = BatchAccumulator::new(1, 0, 25, 100);
        a.append(vec![noop()], 0, false);
        a.append_control(vec![Record::KRaftVersion { kraft_version: 1 }]);
        assert_eq!(a.time_until_drain(0), 0);
        let b = a.drain(0);
        assert_eq!(b.len(), 2);
        assert_eq!(b[1].base_offset, 1);
    }

    #[test]
    fn atomic_appends_stay_in_one_batch() {
        let mut a = BatchAccumulator::new(1, 0, 25, 3);
        a.append(vec![noop(), noop()], 0, false);
        a.append(vec![noop(), noop()], 0, true);
        let b = a.drain(100);
        assert_eq!(
            b.iter().map(|b| b.records.len()).collect::<Vec<_>>(),
            vec![2, 2]
        );
    }
}
