//! The periodic tasks (PeriodicTaskControlManager): writeNoOpRecord every
//! metadata.max.idle.interval.ms and maybeFenceStaleBroker every session / 8, scheduled as
//! deferred write events of the queue.

use super::{ControllerEvent, ControllerResult, QuorumController, WriteOp};
use crate::metadata::MetadataRecord;
use crate::raft::io::RaftIo;

/// `PeriodicTask.immediatePeriodNs`: how soon a periodic task that did something runs again.
pub const IMMEDIATE_PERIOD_MS: u64 = 10;

impl QuorumController {
    /// `writeNoOpRecord`: one NoOpRecord, so that the log moves while nothing else happens.
    pub(super) fn write_no_op_record() -> ControllerResult {
        ControllerResult {
            records: vec![MetadataRecord::NoOp],
            response: None,
            is_atomic: false,
        }
    }

    /// The maybeFenceStaleBroker task: `maybeFenceOneStaleBroker`, then
    /// PeriodicTaskControlManager.reschedule, after the task ran: again in 10 ms
    /// (immediatePeriodNs) when it did something, else after its period.
    pub(super) fn maybe_fence_stale_broker(&mut self, io: &mut RaftIo) -> ControllerResult {
        let (records, did_work) = self.maybe_fence_one_stale_broker(io);
        let delay = if did_work {
            IMMEDIATE_PERIOD_MS
        } else {
            self.stale_broker_period_ms()
        };
        self.schedule_periodic_in(WriteOp::MaybeFenceStaleBroker, io.now_ms, delay);
        ControllerResult {
            records,
            response: None,
            is_atomic: false,
        }
    }

    /// Schedule the next run of a periodic task: writeNoOpRecord every
    /// metadata.max.idle.interval.ms, maybeFenceStaleBroker every session / 8.
    pub(super) fn schedule_periodic(&mut self, op: WriteOp, now: u64) {
        let period = match op {
            WriteOp::WriteNoOp => self.config.no_op_interval_ms,
            _ => self.stale_broker_period_ms(),
        };
        self.schedule_periodic_in(op, now, period);
    }

    /// `maybeFenceStaleBrokerPeriodNs`: max(1 ms, session / 8), 1125 ms by default.
    fn stale_broker_period_ms(&self) -> u64 {
        (self.config.session_timeout_ms / 8).max(1)
    }

    /// Schedule the next run of a periodic task `delay_ms` from `now`.
    fn schedule_periodic_in(&mut self, op: WriteOp, now: u64, delay_ms: u64) {
        let name = op.name(0);
        self.queue.schedule_deferred(
            &name,
            now + delay_ms,
            name.clone(),
            ControllerEvent::Write { op, reply: None },
            now,
        );
    }
}
