//! The life of a controller write (the article's section 3), kept for views: the last few
//! writes whose records are more than the periodic NoOpRecord, each step stamped with its
//! virtual time. The controller stamps the steps of its event thread (generateRecordsAndResult,
//! prepareAppend, replay, handleScheduleAppend, deferredEventQueue.add, handleCommit,
//! completeUpTo, the response); the world stamps what it observes of Raft after each event (the
//! batch in the leader's log, each other voter's fetch and replay, the high watermark).
//! Bookkeeping only: nothing here changes what the engine does.

use serde::Serialize;
use std::collections::VecDeque;

/// How many write lives a controller keeps.
pub const WRITE_LIVES_KEPT: usize = 4;

/// What one other voter did with a write: its Fetch replicated the batch (its log end offset
/// passed the write's last offset) and, on a standby controller, handleCommit replayed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VoterStamp {
    /// The voter's node id.
    pub id: i32,
    /// When its log end offset passed the write's last offset.
    pub fetched_ms: Option<u64>,
    /// When its controller's lastCommittedOffset reached the write's last offset.
    pub replayed_ms: Option<u64>,
}

/// One controller write, step by step (virtual ms).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WriteLife {
    /// The event's name (`createTopics`, `processBrokerHeartbeat`, ...).
    pub event: String,
    /// The active controller's node id.
    pub controller_id: i32,
    /// The controller epoch it wrote in (curClaimEpoch).
    pub epoch: i32,
    /// The records' types, as kafka-dump-log prints them.
    pub record_types: Vec<String>,
    /// The offset of the first record.
    pub base_offset: i64,
    /// The offset of the last record (prepareAppend's answer).
    pub last_offset: i64,
    /// The in-memory snapshot epoch handleScheduleAppend created (= last offset).
    pub snapshot_epoch: i64,
    /// controller.quorum.append.linger.ms
    pub linger_ms: u64,
    /// The event started (ControllerWriteEvent.run).
    pub start_ms: u64,
    /// generateRecordsAndResult returned the ControllerResult.
    pub generate_ms: u64,
    /// raftClient.prepareAppend put the records into the BatchAccumulator.
    pub prepare_append_ms: u64,
    /// replay applied them in memory, before the commit.
    pub replay_ms: u64,
    /// schedulePreparedAppend and offsetControl.handleScheduleAppend(lastOffset).
    pub schedule_append_ms: u64,
    /// deferredEventQueue.add(offset): the write waits in the purgatory.
    pub purgatory_add_ms: u64,
    /// The batch reached the leader's log (after the linger).
    pub log_write_ms: Option<u64>,
    /// The other voters' fetches and replays.
    pub voters: Vec<VoterStamp>,
    /// The leader's high watermark passed the last offset.
    pub high_watermark_ms: Option<u64>,
    /// QuorumMetaLogListener.handleCommit ran for a batch covering it
    /// (offsetControl.handleCommitBatch).
    pub handle_commit_ms: Option<u64>,
    /// deferredEventQueue.completeUpTo(lastStableOffset) completed it.
    pub complete_up_to_ms: Option<u64>,
    /// Whether the write answers a client (a request; internal writes answer nobody).
    pub responds: bool,
    /// The response was sent.
    pub response_ms: Option<u64>,
    /// The controller renounced before the commit: the write failed with NOT_CONTROLLER.
    pub failed_ms: Option<u64>,
}

impl WriteLife {
    /// Whether the controller's part is over (completed or failed).
    pub fn is_done(&self) -> bool {
        self.complete_up_to_ms.is_some() || self.failed_ms.is_some()
    }

    /// Whether the world still has Raft-side steps to stamp.
    pub fn observing(&self) -> bool {
        if self.failed_ms.is_some() {
            return false;
        }
        self.log_write_ms.is_none()
            || self.high_watermark_ms.is_none()
            || self.voters.is_empty()
            || self
                .voters
                .iter()
                .any(|v| v.fetched_ms.is_none() || v.replayed_ms.is_none())
    }

    /// Stamp what the world sees after an event at `now_ms`: the leader's log end offset and
    /// high watermark, and each other voter's (id, log end offset, controller's
    /// lastCommittedOffset if it runs one).
    pub fn observe(
        &mut self,
        now_ms: u64,
        leader_end: i64,
        high_watermark: Option<i64>,
        others: &[(i32, i64, Option<i64>)],
    ) {
        let last = self.last_offset;
        let past = |o: i64| o > last;
        if self.log_write_ms.is_none() && past(leader_end) {
            self.log_write_ms = Some(now_ms);
        }
        if self.high_watermark_ms.is_none() && high_watermark.is_some_and(past) {
            self.high_watermark_ms = Some(now_ms);
        }
        for &(id, end, committed) in others {
            let i = match self.voters.iter().position(|v| v.id == id) {
                Some(i) => i,
                None => {
                    self.voters.push(VoterStamp {
                        id,
                        fetched_ms: None,
                        replayed_ms: None,
                    });
                    self.voters.len() - 1
                }
            };
            let v = &mut self.voters[i];
            if v.fetched_ms.is_none() && end > last {
                v.fetched_ms = Some(now_ms);
            }
            if v.replayed_ms.is_none() && committed.is_some_and(|c| c >= last) {
                v.replayed_ms = Some(now_ms);
            }
        }
    }
}

/// The steps of a write in the controller's event thread, as `replay_and_defer` stamps them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventSteps {
    /// The event's name.
    pub event: String,
    /// The controller's node id and epoch.
    pub controller: (i32, i32),
    /// The records' types.
    pub record_types: Vec<String>,
    /// Base and last offset.
    pub offsets: (i64, i64),
    /// controller.quorum.append.linger.ms
    pub linger_ms: u64,
    /// Whether a client waits for the answer.
    pub responds: bool,
    /// start, generate, prepareAppend, replay, handleScheduleAppend, purgatory add (ms).
    pub times: [u64; 6],
}

/// The last [`WRITE_LIVES_KEPT`] write lives of one controller, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteLives {
    lives: VecDeque<WriteLife>,
    /// How many lives, from the oldest, the world no longer stamps (a life that stops being
    /// observed never starts again), so that the check after every event skips them.
    settled: usize,
}

impl WriteLives {
    /// A write's event-thread steps are done: start its life (dropping the oldest).
    pub fn begin(&mut self, s: EventSteps) {
        let [start, generate, prepare, replay, schedule, add] = s.times;
        if self.lives.len() == WRITE_LIVES_KEPT {
            self.lives.pop_front();
            self.settled = self.settled.saturating_sub(1);
        }
        self.lives.push_back(WriteLife {
            event: s.event,
            controller_id: s.controller.0,
            epoch: s.controller.1,
            record_types: s.record_types,
            base_offset: s.offsets.0,
            last_offset: s.offsets.1,
            snapshot_epoch: s.offsets.1,
            linger_ms: s.linger_ms,
            start_ms: start,
            generate_ms: generate,
            prepare_append_ms: prepare,
            replay_ms: replay,
            schedule_append_ms: schedule,
            purgatory_add_ms: add,
            log_write_ms: None,
            voters: Vec::new(),
            high_watermark_ms: None,
            handle_commit_ms: None,
            complete_up_to_ms: None,
            responds: s.responds,
            response_ms: None,
            failed_ms: None,
        });
    }

    /// handleCommit on the active controller for a batch ending at `batch_last`, then
    /// completeUpTo(`last_stable`) at `now_ms`.
    pub fn committed(&mut self, batch_last: i64, last_stable: i64, now_ms: u64) {
        for l in self.lives.iter_mut().filter(|l| !l.is_done()) {
            if l.handle_commit_ms.is_none() && batch_last >= l.last_offset {
                l.handle_commit_ms = Some(now_ms);
            }
            if last_stable >= l.last_offset {
                l.handle_commit_ms.get_or_insert(now_ms);
                l.complete_up_to_ms = Some(now_ms);
                if l.responds {
                    l.response_ms = Some(now_ms);
                }
            }
        }
    }

    /// The controller renounced at `now_ms`: writes still waiting failed (NOT_CONTROLLER).
    pub fn failed(&mut self, now_ms: u64) {
        for l in self.lives.iter_mut().filter(|l| !l.is_done()) {
            l.failed_ms = Some(now_ms);
        }
        self.settle();
    }

    /// Whether any life still has Raft-side steps for the world to stamp.
    pub fn observing(&self) -> bool {
        self.lives
            .iter()
            .skip(self.settled)
            .any(WriteLife::observing)
    }

    /// The lives the world still stamps (call [`WriteLives::settle`] after stamping them).
    pub fn observing_mut(&mut self) -> impl Iterator<Item = &mut WriteLife> {
        self.lives
            .iter_mut()
            .skip(self.settled)
            .filter(|l| l.observing())
    }

    /// Skip, from now on, the oldest lives that are no longer observed.
    pub fn settle(&mut self) {
        while self.lives.get(self.settled).is_some_and(|l| !l.observing()) {
            self.settled += 1;
        }
    }

    /// The kept lives, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &WriteLife> {
        self.lives.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(last: i64) -> EventSteps {
        EventSteps {
            event: "createTopics".into(),
            controller: (101, 1),
            record_types: vec!["TOPIC_RECORD".into(), "PARTITION_RECORD".into()],
            offsets: (last - 1, last),
            linger_ms: 25,
            responds: true,
            times: [100; 6],
        }
    }

    #[test]
    fn stamps_the_raft_side_then_the_commit() {
        let mut w = WriteLives::default();
        w.begin(steps(11));
        assert!(w.observing());
        let l = w.observing_mut().next().unwrap();
        l.observe(110, 11, Some(10), &[(102, 10, Some(9))]);
        assert_eq!(l.log_write_ms, None);
        l.observe(125, 12, Some(10), &[(102, 10, Some(9)), (103, 10, None)]);
        l.observe(130, 12, Some(10), &[(102, 12, Some(9)), (103, 10, None)]);
        l.observe(131, 12, Some(12), &[(102, 12, Some(9)), (103, 10, None)]);
        let l = w.iter().next().unwrap();
        assert_eq!(l.log_write_ms, Some(125));
        assert_eq!(l.voters[0].fetched_ms, Some(130));
        assert_eq!(l.voters[1].fetched_ms, None);
        assert_eq!(l.high_watermark_ms, Some(131));
        w.committed(12, 12, 131);
        let l = w.iter().next().unwrap();
        assert_eq!(
            (l.handle_commit_ms, l.complete_up_to_ms, l.response_ms),
            (Some(131), Some(131), Some(131))
        );
    }

    #[test]
    fn keeps_the_last_few_and_fails_the_waiting_ones() {
        let mut w = WriteLives::default();
        for i in 0..6 {
            w.begin(steps(10 + 2 * i));
        }
        assert_eq!(w.iter().count(), WRITE_LIVES_KEPT);
        assert_eq!(w.iter().next().unwrap().last_offset, 14);
        w.failed(500);
        assert!(w.iter().all(|l| l.failed_ms == Some(500)));
        assert!(!w.observing());
    }
}
