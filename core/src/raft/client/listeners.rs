//! The listener (QuorumController or MetadataLoader): Kafka's `pollListeners`,
//! `updateListenersProgress` and `ListenerContext.maybeFireLeaderChange`.

use super::{KafkaRaftClient, RaftResult};
use crate::raft::io::RaftIo;
use crate::raft::listener::{LeaderAndEpoch, RaftEvent, STARTING_NEXT_OFFSET};
use crate::raft::state::EpochState;

impl KafkaRaftClient {
    /// `pollListeners`: committed batches not yet delivered (whole batches below the high
    /// watermark), then a leader change if there is one to tell. A leader tells its own
    /// listener only once the listener has caught up to the epoch start offset.
    pub fn poll_listener(&mut self, io: &RaftIo) -> RaftResult<Vec<RaftEvent>> {
        let mut out = Vec::new();
        // Without a snapshot to give, a new listener starts at offset 0 at once.
        let log = &io.disk.metadata_log;
        if self.listener.next_offset == STARTING_NEXT_OFFSET
            && log.latest_snapshot().is_none_or(|s| s.is_bootstrap())
        {
            self.listener.next_offset = 0;
        }
        if let Some(hw) = self.high_watermark() {
            let log = &io.disk.metadata_log;
            // updateListenersProgress: a new listener, or one behind the log start, is given
            // the latest snapshot. (The bootstrap snapshot 0-0 is not handed to listeners here:
            // the active controller writes the bootstrap records into the log, as example 1
            // of the article shows.)
            let next = self.listener.next_offset;
            let snapshot = log.latest_snapshot().filter(|s| !s.is_bootstrap());
            if let Some(s) = snapshot.filter(|_| {
                next < hw && (next == STARTING_NEXT_OFFSET || next < log.start_offset())
            }) {
                self.listener.next_offset = s.id.offset;
                out.push(RaftEvent::LoadSnapshot(s.clone()));
            } else if next == STARTING_NEXT_OFFSET {
                self.listener.next_offset = 0;
            } else if next < log.start_offset() {
                return Err(format!(
                    "Snapshot expected since next offset of listener is {next}, log start offset is {} and high-watermark is {hw}",
                    log.start_offset()
                ));
            }
            let from = self.listener.next_offset;
            if from < hw {
                let all = log.batches();
                let start = all.partition_point(|b| b.next_offset() <= from);
                let batches: Vec<_> = all[start..]
                    .iter()
                    .take_while(|b| b.last_offset() < hw)
                    .cloned()
                    .collect();
                if let Some(last) = batches.last() {
                    self.listener.next_offset = last.next_offset();
                    out.push(RaftEvent::Commit(batches));
                }
            }
        }
        let current = LeaderAndEpoch {
            leader_id: self.quorum.leader_id(),
            epoch: self.quorum.epoch(),
        };
        // ListenerContext.maybeFireLeaderChange: a leader tells its own listener only once the
        // listener has consumed past the epoch start offset (so the high watermark of the new
        // epoch is established first); a Resigned replica never tells.
        let fire = match &self.quorum.state {
            EpochState::Leader(l) => {
                self.listener.should_fire(current)
                    && self.listener.next_offset > l.epoch_start_offset
            }
            EpochState::Resigned(_) => false,
            _ => self.listener.should_fire(current),
        };
        if fire {
            self.listener.last_fired = current;
            out.push(RaftEvent::LeaderChange(current));
        }
        Ok(out)
    }

    /// The offset the listener will be given next.
    pub fn listener_next_offset(&self) -> i64 {
        self.listener.next_offset
    }
}
