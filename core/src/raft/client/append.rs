//! Appends: `scheduleAppend` (the RaftClient API the controller uses) fills the leader's
//! accumulator; `maybeAppendBatches` drains it into the log and
//! `updateLeaderEndOffsetAndTimestamp` moves the leader's end offset and high watermark.

use super::KafkaRaftClient;
use crate::raft::batch::Record;
use crate::raft::io::RaftIo;
use crate::raft::messages::*;
use crate::raft::state::EpochState;

/// Why an append was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AppendError {
    /// This replica is not the leader of `epoch` (NotLeaderException).
    NotLeader,
}

impl KafkaRaftClient {
    /// `scheduleAppend` / `prepareAppend`+`schedulePreparedAppend`: add records to the leader's
    /// accumulator in `epoch`. Returns the offset of the last record.
    pub fn append(
        &mut self,
        epoch: i32,
        records: Vec<Record>,
        atomic: bool,
        now_ms: u64,
    ) -> Result<i64, AppendError> {
        match (&self.quorum.state, self.accumulator.as_mut()) {
            (EpochState::Leader(l), Some(acc)) if l.epoch == epoch && acc.epoch == epoch => {
                Ok(acc.append(records, now_ms, atomic))
            }
            _ => Err(AppendError::NotLeader),
        }
    }

    /// `maybeAppendBatches`: drain the accumulator into the log once its linger time is up;
    /// returns the time until the next drain.
    pub(super) fn maybe_append_batches(&mut self, io: &mut RaftIo) -> u64 {
        let now = io.now_ms;
        let Some(acc) = self.accumulator.as_mut() else {
            return u64::MAX;
        };
        if acc.time_until_drain(now) > 0 {
            return acc.time_until_drain(now);
        }
        let epoch = acc.epoch;
        let batches = acc.drain(now);
        for b in batches {
            debug_assert_eq!(b.base_offset, io.disk.metadata_log.end_offset());
            io.disk.metadata_log.append_as_leader(b.records, epoch, now);
        }
        // KafkaRaftClient.appendBatch: partitionState.updateState(), then the leader's
        // updateLocalState with the voter set now in force.
        self.update_partition_state(io);
        self.update_leader_end_offset(io);
        self.accumulator
            .as_ref()
            .map(|a| a.time_until_drain(now))
            .unwrap_or(u64::MAX)
    }

    /// `updateLeaderEndOffsetAndTimestamp`: the leader's own LEO moved.
    fn update_leader_end_offset(&mut self, io: &mut RaftIo) {
        let end = io.disk.metadata_log.end_offset();
        let now = io.now_ms;
        let update = match &mut self.quorum.state {
            EpochState::Leader(l) => {
                l.hw_epoch_start_rule = io.rules.hw_epoch_start;
                l.update_local_state(end, now)
            }
            _ => None,
        };
        if let Some(u) = update {
            self.log_leader_hw(u, io);
            self.on_update_leader_high_watermark(io);
        }
        // Wake parked fetches that now have data.
        let parked = std::mem::take(&mut self.fetch_purgatory);
        for p in parked {
            if p.request.fetch_offset < end {
                let resp = self.try_complete_fetch(p.from, &p.request, io);
                self.respond(p.from, p.correlation_id, RaftResponse::Fetch(resp), io);
            } else {
                self.fetch_purgatory.push(p);
            }
        }
    }
}
