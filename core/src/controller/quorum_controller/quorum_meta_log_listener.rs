//! `QuorumMetaLogListener`: what the Raft client tells the controller — handleCommit (replay
//! on a standby, complete deferred writes on the active controller), handleLoadSnapshot, and
//! handleLeaderChange (`claim` or `renounce` the leadership).

use super::{
    ControllerEvent, ControllerState, QuorumController, WriteOp, QUORUM_CONTROLLER_LOGGER,
};
use crate::common::message::controller::ControllerMessage;
use crate::common::node_log::{Level, LogFile};
use crate::controller::event_handler_exception_info::EventHandlerExceptionInfo;
use crate::controller::heartbeat_manager::BrokerHeartbeatManager;
use crate::controller::offset_control::OffsetControlManager;
use crate::controller::periodic_task_control::{deactivated_line, PERIODIC_TASK_CONTROL_LOGGER};
use crate::raft::batch::{Record, RecordBatch};
use crate::raft::io::RaftIo;
use crate::raft::listener::LeaderAndEpoch;
use crate::raft::KafkaRaftClient;
use crate::timeline::Revert;
use std::sync::Arc;

/// A leader as the controller's log lines name it: its id, or `(none)`.
fn leader_name(le: LeaderAndEpoch) -> String {
    le.leader_id
        .map(|l| l.to_string())
        .unwrap_or_else(|| "(none)".into())
}

impl QuorumController {
    /// `handleCommit`: a standby replays the committed batches; the active controller (which
    /// replayed them when it wrote them) completes the writes deferred up to the last stable
    /// offset. Both move the committed offset.
    pub(super) fn handle_commit(
        &mut self,
        batches: Vec<Arc<RecordBatch>>,
        io: &mut RaftIo,
        out: &mut Vec<(i32, ControllerMessage)>,
    ) -> Result<(), String> {
        for batch in batches {
            // Control batches (LeaderChange, KRaftVersion, KRaftVoters) only update metrics in
            // Kafka: the committed and stable offsets move with metadata batches.
            if batch.is_control {
                continue;
            }
            let last = batch.last_offset();
            self.loaded_snapshot_end = None;
            if self.is_active() {
                // Already replayed when it was appended.
                self.offset_control.handle_commit_batch(
                    last,
                    batch.partition_leader_epoch,
                    &mut [&mut self.state],
                )?;
                let done = self
                    .purgatory
                    .complete_up_to(self.offset_control.last_stable_offset);
                for w in done {
                    Self::respond(out, w.reply, w.response);
                }
                let lso = self.offset_control.last_stable_offset;
                self.write_lives.committed(last, lso, io.now_ms);
            } else {
                for (i, r) in batch.records.iter().enumerate() {
                    if let Record::Metadata(m) = r {
                        self.replay(m, batch.base_offset + i as i64, io)?;
                    }
                }
                self.offset_control.handle_commit_batch(
                    last,
                    batch.partition_leader_epoch,
                    &mut [&mut self.state],
                )?;
            }
        }
        Ok(())
    }

    /// `handleLoadSnapshot` on a standby: OffsetControlManager.beginLoadSnapshot resets every
    /// timeline structure, the snapshot's records are replayed, endLoadSnapshot takes an
    /// in-memory snapshot at the snapshot's end offset.
    pub(super) fn handle_load_snapshot(
        &mut self,
        snapshot: &crate::raft::snapshot::RawSnapshot,
        io: &mut RaftIo,
    ) -> Result<(), String> {
        const OFFSETS: &str = "org.apache.kafka.controller.OffsetControlManager";
        let name = crate::raft::snapshot::snapshot_name(snapshot.id);
        if let Some(epoch) = self.cur_claim_epoch {
            return Err(format!(
                "Asked to load snapshot {name}, but we are the active controller at epoch {epoch}"
            ));
        }
        let oc = &self.offset_control;
        let line = format!(
            "Starting to load snapshot {name}. Previous lastCommittedOffset was {}. Previous transactionStartOffset was {}.",
            oc.last_committed_offset, oc.transaction_start_offset
        );
        self.log(io, Level::Info, OFFSETS, line);
        self.state = ControllerState::default();
        self.offset_control = OffsetControlManager::default();
        self.offset_control.snapshot_registry = crate::timeline::SnapshotRegistry::new();
        let last_contained = snapshot.id.offset - 1;
        for r in snapshot.metadata_records() {
            self.replay(r, last_contained, io).map_err(|e| {
                format!(
                    "Unable to apply {} record from snapshot {name} on standby controller: {e}",
                    r.type_name()
                )
            })?;
        }
        self.log(
            io,
            Level::Info,
            OFFSETS,
            format!("Successfully loaded snapshot {name}."),
        );
        let oc = &mut self.offset_control;
        oc.snapshot_registry
            .idempotent_create_snapshot(snapshot.id.offset)
            .map_err(|e| e.to_string())?;
        oc.last_committed_offset = snapshot.id.offset;
        oc.last_committed_epoch = snapshot.id.epoch;
        oc.last_stable_offset = snapshot.id.offset;
        oc.transaction_start_offset = -1;
        oc.next_write_offset = -1;
        self.loaded_snapshot_end = Some(snapshot.id.offset);
        Ok(())
    }

    /// `handleLeaderChange`: the active controller renounces when another node leads the new
    /// epoch (or just moves to the new epoch while it still leads); a standby that now leads
    /// claims the leadership; any other change is logged.
    pub(super) fn handle_leader_change(
        &mut self,
        le: LeaderAndEpoch,
        raft: &mut KafkaRaftClient,
        io: &mut RaftIo,
        out: &mut Vec<(i32, ControllerMessage)>,
    ) -> Result<(), String> {
        self.last_leader = Some(le);
        let me = Some(self.node_id);
        // (Raft never tells of its own leadership while Resigned, nor before the high watermark
        // of the new epoch is established.)
        if let Some(active) = self.cur_claim_epoch {
            if le.leader_id == me {
                if le.epoch != active {
                    self.log(
                        io,
                        Level::Warn,
                        QUORUM_CONTROLLER_LOGGER,
                        format!("We were the leader in epoch {active}, and are still the leader in the new epoch {}.", le.epoch),
                    );
                    self.cur_claim_epoch = Some(le.epoch);
                }
            } else {
                let leader = leader_name(le);
                self.log(
                    io,
                    Level::Warn,
                    QUORUM_CONTROLLER_LOGGER,
                    format!(
                        "Renouncing the leadership due to a metadata log event. We were the leader at epoch {active}, but in the new epoch {}, the leader is {leader}. Reverting to last stable offset {}.",
                        le.epoch, self.offset_control.last_stable_offset
                    ),
                );
                self.renounce(io, out)?;
            }
            return Ok(());
        }
        if le.leader_id == me && self.cur_claim_epoch.is_none() {
            self.claim(le, raft, io)?;
        } else {
            let leader = leader_name(le);
            self.log(
                io,
                Level::Info,
                QUORUM_CONTROLLER_LOGGER,
                format!("In the new epoch {}, the leader is {leader}.", le.epoch),
            );
        }
        Ok(())
    }

    /// `claim`: become the active controller of `le`'s epoch, writing from the log end offset;
    /// ClusterControlManager.activate starts a new heartbeat manager, and completeActivation
    /// goes first in the queue.
    fn claim(
        &mut self,
        le: LeaderAndEpoch,
        raft: &KafkaRaftClient,
        io: &mut RaftIo,
    ) -> Result<(), String> {
        // raftClient.logEndOffset()
        let next = io.disk.metadata_log.end_offset();
        debug_assert_eq!(
            raft.pending_records(),
            0,
            "the epoch's control records are in the log"
        );
        self.log(
            io,
            Level::Info,
            QUORUM_CONTROLLER_LOGGER,
            format!(
                "Becoming the active controller at epoch {}, next write offset {}.",
                le.epoch, next
            ),
        );
        self.offset_control.activate(next)?;
        self.cur_claim_epoch = Some(le.epoch);
        let now = io.now_ms;
        // ClusterControlManager.activate: a new heartbeat manager.
        self.heartbeats = BrokerHeartbeatManager::activate(
            self.state
                .cluster
                .brokers
                .iter()
                .map(|(id, b)| (*id, b.record.broker_epoch, b.record.fenced)),
            self.config.session_timeout_ms,
            now,
        );
        self.queue.prepend(
            format!("completeActivation[{}]", le.epoch),
            ControllerEvent::Write {
                op: WriteOp::CompleteActivation,
                reply: None,
            },
            now,
        );
        Ok(())
    }

    /// `renounce`: fail every write waiting in the purgatory (NOT_CONTROLLER), revert to the
    /// last stable offset, and deactivate the periodic tasks. Its callers log why.
    pub(super) fn renounce(
        &mut self,
        io: &mut RaftIo,
        out: &mut Vec<(i32, ControllerMessage)>,
    ) -> Result<(), String> {
        self.cur_claim_epoch = None;
        // deferredEventQueue.failAll(newWrongControllerException(OptionalInt.empty()))
        let failure = EventHandlerExceptionInfo::wrong_controller(None);
        for w in self.purgatory.fail_all() {
            self.log_to(
                io,
                LogFile::Server,
                Level::Info,
                "org.apache.kafka.deferred.DeferredEventQueue",
                format!(
                    "failAll({}): failing {}({}).",
                    failure.internal, w.name, w.identity
                ),
            );
            self.log_event_failure(io, &w.name, w.start_ms, &failure);
            Self::respond(out, w.reply, w.failure);
        }
        self.write_lives.failed(io.now_ms);
        let to = self.offset_control.last_stable_offset;
        // RULE revert-on-renounce (renounce -> revertToSnapshot(lastStableOffset)): off, the
        // uncommitted writes stay in the state.
        let dropped = if io.rules.revert_on_renounce {
            self.offset_control.deactivate(&mut [&mut self.state])?
        } else {
            self.offset_control
                .deactivate_keeping_state(&mut [&mut self.state])?
        };
        self.last_revert = Some(Revert { to, dropped });
        self.queue.cancel_deferred("writeNoOpRecord");
        self.queue.cancel_deferred("maybeFenceStaleBroker");
        self.log(
            io,
            Level::Info,
            PERIODIC_TASK_CONTROL_LOGGER,
            deactivated_line(self.config.no_op_interval_ms > 0),
        );
        Ok(())
    }
}
