//! The controller's events and their queue glue: `appendRaftEvent` (what the Raft listener was
//! told), requests arriving as `ControllerWriteEvent`s, the event handler running one event,
//! and `handleEventException`'s log line.

use super::{QuorumController, QUORUM_CONTROLLER_LOGGER};
use crate::common::message::controller::{ControllerMessage, ControllerRequest};
use crate::common::node_log::Level;
use crate::controller::event_handler_exception_info::{
    event_duration_us, EventHandlerExceptionInfo,
};
use crate::raft::batch::RecordBatch;
use crate::raft::io::RaftIo;
use crate::raft::listener::{LeaderAndEpoch, RaftEvent};
use crate::raft::KafkaRaftClient;
use std::sync::Arc;

/// Who to answer when a write completes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The requesting node (or the admin client).
    pub client: i32,
    /// Its correlation id.
    pub correlation_id: u64,
}

/// The write operations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteOp {
    /// completeActivation: bootstrap records on an empty log.
    CompleteActivation,
    /// writeNoOpRecord (periodic).
    WriteNoOp,
    /// maybeFenceStaleBroker (periodic).
    MaybeFenceStaleBroker,
    /// A client request: registerController, createTopics, deleteTopics,
    /// incrementalAlterConfigs, registerBroker, alterPartition, processBrokerHeartbeat.
    Request(ControllerRequest),
}

impl WriteOp {
    /// The event name: `completeActivation[epoch]`, the periodic task's, or the request's.
    pub(super) fn name(&self, epoch: i32) -> String {
        match self {
            WriteOp::CompleteActivation => format!("completeActivation[{epoch}]"),
            WriteOp::WriteNoOp => "writeNoOpRecord".into(),
            WriteOp::MaybeFenceStaleBroker => "maybeFenceStaleBroker".into(),
            WriteOp::Request(r) => r.write_event_name().into(),
        }
    }
}

/// An event of the controller's queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ControllerEvent {
    /// A ControllerWriteEvent.
    Write {
        /// The operation.
        op: WriteOp,
        /// Who waits for the response.
        reply: Option<Reply>,
    },
    /// handleCommit, queued by the Raft listener.
    Commit(Vec<Arc<RecordBatch>>),
    /// handleLeaderChange, queued by the Raft listener.
    LeaderChange(LeaderAndEpoch),
    /// handleLoadSnapshot, queued by the Raft listener.
    LoadSnapshot(Arc<crate::raft::snapshot::RawSnapshot>),
}

impl QuorumController {
    /// Queue what the Raft listener was told (`appendRaftEvent`).
    pub fn handle_raft_events(&mut self, events: Vec<RaftEvent>, now_ms: u64) {
        for e in events {
            match e {
                RaftEvent::Commit(batches) => {
                    let base = batches.first().map(|b| b.base_offset).unwrap_or(0);
                    self.queue.append(
                        format!("handleCommit[baseOffset={base}]"),
                        ControllerEvent::Commit(batches),
                        now_ms,
                    );
                }
                RaftEvent::LeaderChange(le) => {
                    self.queue.append(
                        format!("handleLeaderChange[{}]", le.epoch),
                        ControllerEvent::LeaderChange(le),
                        now_ms,
                    );
                }
                RaftEvent::LoadSnapshot(s) => {
                    self.queue.append(
                        format!(
                            "handleLoadSnapshot[snapshotId={}]",
                            crate::raft::client::offset_and_epoch_text(s.id)
                        ),
                        ControllerEvent::LoadSnapshot(s),
                        now_ms,
                    );
                }
            }
        }
    }

    /// A controller RPC arrived: requests become write events; registration responses settle
    /// the ControllerRegistrationManager. A heartbeat first updates its session
    /// (`trackBrokerHeartbeat`), or is answered NOT_CONTROLLER at once (to `out`) by a
    /// controller that is not active.
    pub fn handle_message(
        &mut self,
        from: i32,
        msg: ControllerMessage,
        now_ms: u64,
        out: &mut Vec<(i32, ControllerMessage)>,
    ) {
        match msg {
            ControllerMessage::Request {
                correlation_id,
                body,
            } => {
                let reply = Some(Reply {
                    client: from,
                    correlation_id,
                });
                if let ControllerRequest::BrokerHeartbeat {
                    broker_id,
                    broker_epoch,
                    ..
                } = &body
                {
                    if !self.is_active() {
                        Self::respond(out, reply, Some(body.not_controller_response()));
                        return;
                    }
                    self.heartbeats
                        .track_broker_heartbeat(*broker_id, *broker_epoch, now_ms);
                }
                let op = WriteOp::Request(body);
                let name = op.name(self.cur_claim_epoch.unwrap_or(-1));
                self.queue
                    .append(name, ControllerEvent::Write { op, reply }, now_ms);
            }
            ControllerMessage::Response {
                correlation_id,
                body,
            } => self.handle_registration_response(correlation_id, &body, now_ms),
        }
    }

    /// When the event handler next has work.
    pub fn next_run_ms(&self, now_ms: u64) -> Option<u64> {
        self.queue.next_run_ms(now_ms)
    }

    /// Run exactly one event of the queue. Responses to send go to `out`.
    pub fn run_one(
        &mut self,
        raft: &mut KafkaRaftClient,
        io: &mut RaftIo,
        out: &mut Vec<(i32, ControllerMessage)>,
    ) -> Result<(), String> {
        let Some(ev) = self.queue.poll(io.now_ms) else {
            return Ok(());
        };
        self.last_event = Some(ev.name.clone());
        match ev.event {
            ControllerEvent::Write { op, reply } => {
                self.run_write(ev.name, op, reply, raft, io, out)
            }
            ControllerEvent::Commit(batches) => self.handle_commit(batches, io, out),
            ControllerEvent::LeaderChange(le) => self.handle_leader_change(le, raft, io, out),
            ControllerEvent::LoadSnapshot(s) => self.handle_load_snapshot(&s, io),
        }
    }

    /// `handleEventException`'s INFO line for the event `name` that started at `start_ms`.
    pub(super) fn log_event_failure(
        &self,
        io: &mut RaftIo,
        name: &str,
        start_ms: u64,
        info: &EventHandlerExceptionInfo,
    ) {
        // epoch = curClaimEpoch, or the last committed epoch on a standby.
        let epoch = self
            .cur_claim_epoch
            .unwrap_or(self.offset_control.last_committed_epoch);
        let text = info.failure_message(
            epoch,
            event_duration_us(start_ms, io.now_ms),
            self.is_active(),
            self.offset_control.last_committed_offset,
        );
        self.log(
            io,
            Level::Info,
            QUORUM_CONTROLLER_LOGGER,
            format!("{name}: {text}"),
        );
    }
}
