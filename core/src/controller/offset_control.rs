//! OffsetControlManager: the last committed and last stable offsets, metadata transactions, and
//! when the in-memory snapshots are created, deleted and reverted (the article's section 4).

use crate::timeline::{Revertable, SnapshotRegistry};

/// Offsets and snapshots of one controller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OffsetControlManager {
    /// The in-memory snapshots (one per appended batch on the active controller).
    pub snapshot_registry: SnapshotRegistry,
    /// lastCommittedOffset
    pub last_committed_offset: i64,
    /// lastCommittedEpoch
    pub last_committed_epoch: i32,
    /// lastStableOffset: committed and not inside an open metadata transaction.
    pub last_stable_offset: i64,
    /// transactionStartOffset (-1 when no metadata transaction is open).
    pub transaction_start_offset: i64,
    /// nextWriteOffset (-1 on a standby).
    pub next_write_offset: i64,
}

impl Default for OffsetControlManager {
    fn default() -> Self {
        let mut snapshot_registry = SnapshotRegistry::new();
        // A standby always keeps a snapshot at its last stable offset.
        snapshot_registry
            .idempotent_create_snapshot(-1)
            .expect("first snapshot");
        OffsetControlManager {
            snapshot_registry,
            last_committed_offset: -1,
            last_committed_epoch: -1,
            last_stable_offset: -1,
            transaction_start_offset: -1,
            next_write_offset: -1,
        }
    }
}

impl OffsetControlManager {
    /// Whether this controller is active (has a next write offset).
    pub fn active(&self) -> bool {
        self.next_write_offset != -1
    }

    /// `activate`: before becoming active, snapshot the last committed state.
    pub fn activate(&mut self, new_next_write_offset: i64) -> Result<(), String> {
        if self.active() {
            return Err("Can't activate already active OffsetControlManager.".into());
        }
        self.snapshot_registry
            .idempotent_create_snapshot(self.last_stable_offset)
            .map_err(|e| e.to_string())?;
        self.next_write_offset = new_next_write_offset;
        Ok(())
    }

    /// `deactivate`: revert every timeline object to the last stable offset. Gives the
    /// snapshot epochs the revert deleted.
    pub fn deactivate(&mut self, objects: &mut [&mut dyn Revertable]) -> Result<Vec<i64>, String> {
        if !self.active() {
            return Err("Can't deactivate inactive OffsetControlManager.".into());
        }
        let dropped = self
            .snapshot_registry
            .revert_to_snapshot(self.last_stable_offset, objects)
            .map_err(|e| e.to_string())?;
        self.transaction_start_offset = -1;
        self.next_write_offset = -1;
        Ok(dropped)
    }

    /// `deactivate` with the `revert-on-renounce` rule off (issue 18): the snapshots after
    /// the last stable offset are deleted, their saved values merged away, so the state keeps
    /// every uncommitted write. Gives the snapshot epochs deleted.
    pub fn deactivate_keeping_state(
        &mut self,
        objects: &mut [&mut dyn Revertable],
    ) -> Result<Vec<i64>, String> {
        if !self.active() {
            return Err("Can't deactivate inactive OffsetControlManager.".into());
        }
        let dropped: Vec<i64> = self
            .snapshot_registry
            .epochs()
            .iter()
            .copied()
            .filter(|e| *e > self.last_stable_offset)
            .collect();
        for e in dropped.iter().rev() {
            self.snapshot_registry
                .delete_snapshot(*e, objects)
                .map_err(|e| e.to_string())?;
        }
        self.transaction_start_offset = -1;
        self.next_write_offset = -1;
        Ok(dropped)
    }

    /// `handleScheduleAppend(lastOffset)`: records up to `last_offset` were replayed in memory;
    /// snapshot the state after them.
    pub fn handle_schedule_append(&mut self, last_offset: i64) -> Result<(), String> {
        self.next_write_offset = last_offset + 1;
        self.snapshot_registry
            .idempotent_create_snapshot(last_offset)
            .map_err(|e| e.to_string())
    }

    /// `handleCommitBatch`: a batch ending at `last_offset` was committed.
    pub fn handle_commit_batch(
        &mut self,
        last_offset: i64,
        epoch: i32,
        objects: &mut [&mut dyn Revertable],
    ) -> Result<(), String> {
        self.last_committed_offset = last_offset;
        self.last_committed_epoch = epoch;
        self.maybe_advance_last_stable_offset(objects)
    }

    /// `maybeAdvanceLastStableOffset`: drop snapshots that can no longer be reverted to.
    fn maybe_advance_last_stable_offset(
        &mut self,
        objects: &mut [&mut dyn Revertable],
    ) -> Result<(), String> {
        let new_lso = if self.transaction_start_offset == -1 {
            self.last_committed_offset
        } else {
            (self.transaction_start_offset - 1).min(self.last_committed_offset)
        };
        if self.last_stable_offset < new_lso {
            self.last_stable_offset = new_lso;
            self.snapshot_registry
                .delete_snapshots_up_to(self.last_stable_offset, objects);
            if !self.active() {
                self.snapshot_registry
                    .idempotent_create_snapshot(self.last_stable_offset)
                    .map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }

    /// `replay(BeginTransactionRecord)`.
    pub fn replay_begin_transaction(&mut self, offset: i64) {
        self.transaction_start_offset = offset;
    }

    /// `replay(EndTransactionRecord)`.
    pub fn replay_end_transaction(
        &mut self,
        objects: &mut [&mut dyn Revertable],
    ) -> Result<(), String> {
        self.transaction_start_offset = -1;
        self.maybe_advance_last_stable_offset(objects)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::TimelineHashMap;

    /// The article's section 4 sequence on a live map: snapshots created per append, deleted on
    /// commit, reverted on deactivation.
    #[test]
    fn snapshots_follow_appends_commits_and_renounce() {
        let mut oc = OffsetControlManager::default();
        let mut topics: TimelineHashMap<String, String> = TimelineHashMap::new();
        topics.put(&oc.snapshot_registry, "orders".into(), "id-A".into());
        oc.handle_commit_batch(10, 1, &mut [&mut topics]).unwrap();
        oc.activate(11).unwrap();
        assert_eq!(oc.snapshot_registry.epochs_list(), vec![10]);
        topics.put(&oc.snapshot_registry, "payments".into(), "id-B".into());
        oc.handle_schedule_append(11).unwrap();
        topics.remove(&oc.snapshot_registry, "orders");
        oc.handle_schedule_append(12).unwrap();
        assert_eq!(oc.snapshot_registry.epochs_list(), vec![10, 11, 12]);
        oc.handle_commit_batch(11, 1, &mut [&mut topics]).unwrap();
        assert_eq!(oc.snapshot_registry.epochs_list(), vec![11, 12]);
        oc.deactivate(&mut [&mut topics]).unwrap();
        assert_eq!(oc.snapshot_registry.epochs_list(), vec![11]);
        assert_eq!(topics.to_string(), "{orders=id-A, payments=id-B}");
        assert!(!oc.active());
    }

    #[test]
    fn an_open_transaction_holds_the_last_stable_offset_back() {
        let mut oc = OffsetControlManager::default();
        oc.activate(0).unwrap();
        oc.replay_begin_transaction(3);
        oc.handle_commit_batch(5, 1, &mut []).unwrap();
        assert_eq!(oc.last_stable_offset, 2);
        oc.replay_end_transaction(&mut []).unwrap();
        assert_eq!(oc.last_stable_offset, 5);
    }
}
