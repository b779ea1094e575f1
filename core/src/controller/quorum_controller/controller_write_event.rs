//! `ControllerWriteEvent`: a write operation on the active controller —
//! generateRecordsAndResult -> ControllerResult -> prepareAppend (offset) -> replay in memory
//! before commit -> schedulePreparedAppend -> handleScheduleAppend -> deferred until
//! committed. On a standby the write fails with NOT_CONTROLLER.

use super::{ControllerResult, QuorumController, Reply, WriteOp, QUORUM_CONTROLLER_LOGGER};
use crate::common::message::controller::{
    ApiError, ControllerMessage, ControllerRequest, ControllerResponse, TopicResult,
};
use crate::common::node_log::Level;
use crate::common::uuid::Uuid;
use crate::controller::event_handler_exception_info::{
    event_duration_us, identity_hash_code, EventHandlerExceptionInfo,
};
use crate::controller::periodic_task_control::{activated_line, PERIODIC_TASK_CONTROL_LOGGER};
use crate::controller::write_life::EventSteps;
use crate::metadata::MetadataRecord;
use crate::raft::batch::Record;
use crate::raft::client::AppendError;
use crate::raft::io::RaftIo;
use crate::raft::KafkaRaftClient;

/// A write waiting in the purgatory for its offset to commit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingWrite {
    /// The event name.
    pub name: String,
    /// Who to answer.
    pub reply: Option<Reply>,
    /// The response to send on commit.
    pub response: Option<ControllerResponse>,
    /// The response to send if the leadership is lost first (NOT_CONTROLLER).
    pub failure: Option<ControllerResponse>,
    /// Virtual time the event started (`startProcessingTimeNs`).
    pub start_ms: u64,
    /// The event's `System.identityHashCode`, as its `toString()` shows it.
    pub identity: i32,
}

impl QuorumController {
    /// `generateRecordsAndResult` of the operation `op`: the records it writes and its
    /// response.
    fn generate(&mut self, op: &WriteOp, io: &mut RaftIo) -> ControllerResult {
        match op {
            WriteOp::CompleteActivation => self.generate_activation_records(io),
            WriteOp::WriteNoOp => Self::write_no_op_record(),
            WriteOp::MaybeFenceStaleBroker => self.maybe_fence_stale_broker(io),
            WriteOp::Request(request) => self.handle_request(request, io),
        }
    }

    /// `ControllerWriteEvent.run`: on a standby, fail with NOT_CONTROLLER; else generate the
    /// result, cap its records, and either complete it without records or append them.
    pub(super) fn run_write(
        &mut self,
        name: String,
        op: WriteOp,
        reply: Option<Reply>,
        raft: &mut KafkaRaftClient,
        io: &mut RaftIo,
        out: &mut Vec<(i32, ControllerMessage)>,
    ) -> Result<(), String> {
        let now = io.now_ms;
        let identity = identity_hash_code(self.node_id, self.queue.events_run);
        let Some(epoch) = self.cur_claim_epoch else {
            // newWrongControllerException(latestController()): Raft's current leader.
            let info = EventHandlerExceptionInfo::wrong_controller(raft.state().leader_id());
            self.log_event_failure(io, &name, now, &info);
            Self::respond(out, reply, Self::not_controller(&op));
            return Ok(());
        };
        // Periodic tasks reschedule themselves (maybeFenceStaleBroker once it has run).
        if matches!(op, WriteOp::WriteNoOp) {
            self.schedule_periodic(op.clone(), now);
        }
        let mut result = self.generate(&op, io);
        if result.records.len() > self.config.max_records_per_batch {
            self.fail_bounded_list_too_long(&name, &op, &mut result, now, io);
        }
        self.last_result = Some(result.clone());
        let ControllerResult {
            records,
            response,
            is_atomic,
        } = result;
        let pending = PendingWrite {
            name,
            reply,
            response,
            failure: Self::not_controller(&op),
            start_ms: now,
            identity,
        };
        if records.is_empty() {
            return self.complete_without_records(&op, pending, io, out);
        }
        // Views keep the life of a write whose records are more than a NoOpRecord.
        let life = records
            .iter()
            .any(|r| !matches!(r, MetadataRecord::NoOp))
            .then(|| {
                (
                    pending.name.clone(),
                    pending.reply.is_some() && pending.response.is_some(),
                )
            });
        let wrapped: Vec<Record> = records.iter().cloned().map(Record::Metadata).collect();
        match raft.append(epoch, wrapped, is_atomic, now) {
            Err(AppendError::NotLeader) => self.fail_not_leader(pending, io, out),
            Ok(last_offset) => {
                self.replay_and_defer(&op, &records, last_offset, pending, io)?;
                if let Some((event, responds)) = life {
                    let linger_ms = raft.append_linger_ms();
                    self.begin_write_life(event, responds, &records, last_offset, linger_ms, now);
                }
                Ok(())
            }
        }
    }

    /// More records than controller.max.records.per.batch went into a BoundedList of
    /// MAX_RECORDS_PER_USER_OP: the event fails with BoundedListTooLongException, answered as
    /// a PolicyViolationException, and writes nothing.
    fn fail_bounded_list_too_long(
        &self,
        name: &str,
        op: &WriteOp,
        result: &mut ControllerResult,
        start_ms: u64,
        io: &mut RaftIo,
    ) {
        let n = self.config.max_records_per_batch;
        result.records.clear();
        const MESSAGE: &str = "Unable to perform excessively large batch operation.";
        result.response = match op {
            WriteOp::Request(ControllerRequest::CreateTopics { topics }) => {
                // CreateTopicsRequest.getErrorResponse: every topic gets the error.
                Some(ControllerResponse::CreateTopics {
                    topics: topics
                        .iter()
                        .map(|t| TopicResult {
                            name: t.name.clone(),
                            topic_id: Uuid::ZERO,
                            error: Some((ApiError::PolicyViolation, MESSAGE.into())),
                        })
                        .collect(),
                    error: None,
                })
            }
            WriteOp::Request(r) => Some(r.error_response(ApiError::PolicyViolation)),
            _ => None,
        };
        self.log(
            io,
            Level::Info,
            QUORUM_CONTROLLER_LOGGER,
            format!(
                "{name}: event failed with BoundedListTooLongException (treated as PolicyViolationException) in {} microseconds. Exception message: Cannot add another element to the list because it would exceed the maximum length of {n}",
                event_duration_us(start_ms, io.now_ms)
            ),
        );
    }

    /// A write with no records: `processBatchEndOffset` at the last written offset, then the
    /// answer once everything written before it is committed (at once if nothing is pending).
    fn complete_without_records(
        &mut self,
        op: &WriteOp,
        pending: PendingWrite,
        io: &mut RaftIo,
        out: &mut Vec<(i32, ControllerMessage)>,
    ) -> Result<(), String> {
        self.process_batch_end_offset(op, self.offset_control.next_write_offset - 1, io)?;
        match self.purgatory.highest_pending_offset() {
            None => Self::respond(out, pending.reply, pending.response),
            Some(offset) => self.purgatory.add(offset, pending),
        }
        Ok(())
    }

    /// The append threw NotLeaderException: Raft resigned without telling its listener (it
    /// never fires a leader change while Resigned), so handleEventException renounces.
    fn fail_not_leader(
        &mut self,
        pending: PendingWrite,
        io: &mut RaftIo,
        out: &mut Vec<(i32, ControllerMessage)>,
    ) -> Result<(), String> {
        self.controlled_shutdown_broker = None;
        let info = EventHandlerExceptionInfo::not_leader();
        self.log_event_failure(io, &pending.name, pending.start_ms, &info);
        Self::respond(out, pending.reply, pending.failure);
        self.renounce(io, out)
    }

    /// The records are appended up to `last_offset`: replay them in memory before they
    /// commit, `handleScheduleAppend`, `processBatchEndOffset`, and defer the answer until
    /// `last_offset` commits.
    fn replay_and_defer(
        &mut self,
        op: &WriteOp,
        records: &[MetadataRecord],
        last_offset: i64,
        pending: PendingWrite,
        io: &mut RaftIo,
    ) -> Result<(), String> {
        let base = last_offset - records.len() as i64 + 1;
        // RULE snapshot-after-replay (replay, then handleScheduleAppend): off, the in-memory
        // snapshot N is taken before record N is replayed, so a revert to N loses record N.
        if !io.rules.snapshot_after_replay {
            self.offset_control.handle_schedule_append(last_offset)?;
        }
        for (i, r) in records.iter().enumerate() {
            self.replay(r, base + i as i64, io)?;
        }
        if io.rules.snapshot_after_replay {
            self.offset_control.handle_schedule_append(last_offset)?;
        }
        self.process_batch_end_offset(op, last_offset, io)?;
        self.purgatory.add(last_offset, pending);
        Ok(())
    }

    /// Keep the life of a write whose records are more than a NoOpRecord (views only): the
    /// steps of the event that ran at `now_ms` (virtual time stands still within an event).
    fn begin_write_life(
        &mut self,
        event: String,
        responds: bool,
        records: &[MetadataRecord],
        last_offset: i64,
        linger_ms: u64,
        now_ms: u64,
    ) {
        let Some(epoch) = self.cur_claim_epoch else {
            return;
        };
        self.write_lives.begin(EventSteps {
            event,
            controller: (self.node_id, epoch),
            record_types: records.iter().map(|r| r.type_name().to_string()).collect(),
            offsets: (last_offset - records.len() as i64 + 1, last_offset),
            linger_ms,
            responds,
            times: [now_ms; 6],
        });
    }

    /// `processBatchEndOffset`, once the operation's records (if any) are appended up to
    /// `offset`: the activation event activates the periodic tasks, now that the bootstrap
    /// records are replayed; a heartbeat that left its broker in controlled shutdown records
    /// the offset every active broker must read before the shutdown completes.
    pub(super) fn process_batch_end_offset(
        &mut self,
        op: &WriteOp,
        offset: i64,
        io: &mut RaftIo,
    ) -> Result<(), String> {
        if *op == WriteOp::CompleteActivation {
            let now = io.now_ms;
            // metadata.max.idle.interval.ms = 0: KafkaConfig.metadataMaxIdleIntervalNs is
            // None and QuorumController never registers writeNoOpRecord.
            if self.config.no_op_interval_ms > 0 {
                self.schedule_periodic(WriteOp::WriteNoOp, now);
            }
            self.schedule_periodic(WriteOp::MaybeFenceStaleBroker, now);
            self.log(
                io,
                Level::Info,
                PERIODIC_TASK_CONTROL_LOGGER,
                activated_line(self.config.no_op_interval_ms > 0),
            );
        }
        match self.controlled_shutdown_broker.take() {
            Some(id) => self
                .heartbeats
                .maybe_update_controlled_shutdown_offset(id, offset),
            None => Ok(()),
        }
    }

    /// Send `response` to whoever `reply` names (nothing when either is missing).
    pub(super) fn respond(
        out: &mut Vec<(i32, ControllerMessage)>,
        reply: Option<Reply>,
        response: Option<ControllerResponse>,
    ) {
        if let (Some(r), Some(body)) = (reply, response) {
            out.push((
                r.client,
                ControllerMessage::Response {
                    correlation_id: r.correlation_id,
                    body,
                },
            ));
        }
    }

    /// The NOT_CONTROLLER answer to `op`, if it is a client request.
    pub(super) fn not_controller(op: &WriteOp) -> Option<ControllerResponse> {
        match op {
            WriteOp::Request(r) => Some(r.not_controller_response()),
            _ => None,
        }
    }
}
