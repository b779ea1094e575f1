//! The leader side of Fetch: `handleFetchRequest` validates and reads, parks a fetch with
//! nothing new in the purgatory until data arrives, the high watermark moves or `maxWaitMs`
//! passes.

use super::{KafkaRaftClient, RaftResult, ValidOffsetAndEpoch};
use crate::common::node_log::Level;
use crate::common::protocol::Errors;
use crate::raft::io::{loggers, RaftIo};
use crate::raft::messages::*;
use crate::raft::replica_key::ReplicaKey;
use crate::raft::state::leader::HighWatermarkUpdate;
use crate::raft::state::EpochState;

/// A fetch the leader holds until new data arrives or `maxWaitMs` passes.
#[derive(Clone, Debug)]
pub(super) struct ParkedFetch {
    pub(super) from: i32,
    pub(super) correlation_id: u64,
    pub(super) request: FetchRequest,
    deadline_ms: u64,
    original: FetchResponse,
}

impl KafkaRaftClient {
    /// A Fetch response with `error` and this replica's epoch, leader and high watermark.
    pub(super) fn fetch_error_response(&self, error: Errors, io: &RaftIo) -> FetchResponse {
        FetchResponse {
            error,
            leader_epoch: self.quorum.epoch(),
            leader_id: self.leader_or_sentinel(),
            high_watermark: self.high_watermark().unwrap_or(-1),
            log_start_offset: io.disk.metadata_log.start_offset(),
            diverging_epoch: None,
            snapshot_id: None,
            records: Vec::new(),
        }
    }

    /// Handle a fetch; None when it was parked in the purgatory.
    pub(super) fn handle_fetch_request(
        &mut self,
        from: i32,
        correlation_id: u64,
        r: FetchRequest,
        io: &mut RaftIo,
    ) -> RaftResult<Option<FetchResponse>> {
        let epoch = self.quorum.epoch();
        let error = if r.current_leader_epoch < epoch {
            Some(Errors::FencedLeaderEpoch)
        } else if r.current_leader_epoch > epoch {
            Some(Errors::UnknownLeaderEpoch)
        } else if !matches!(self.quorum.state, EpochState::Leader(_)) {
            Some(Errors::NotLeaderOrFollower)
        } else {
            None
        };
        if let Some(e) = error {
            return Ok(Some(self.fetch_error_response(e, io)));
        }
        let response = self.try_complete_fetch(from, &r, io);
        // KAFKA-14145: a fetch whose high watermark is older than the leader's is answered at
        // once, so that followers and brokers learn of a commit within a round trip.
        let must_answer = !response.records.is_empty()
            || response.diverging_epoch.is_some()
            || response.snapshot_id.is_some()
            || r.max_wait_ms == 0
            || r.high_watermark < response.high_watermark;
        if must_answer {
            return Ok(Some(response));
        }
        self.fetch_purgatory.push(ParkedFetch {
            from,
            correlation_id,
            request: r.clone(),
            deadline_ms: io.now_ms + r.max_wait_ms,
            original: response,
        });
        Ok(None)
    }

    /// `tryCompleteFetchRequest`: validate the fetch position, read, update the replica state.
    pub(super) fn try_complete_fetch(
        &mut self,
        from: i32,
        r: &FetchRequest,
        io: &mut RaftIo,
    ) -> FetchResponse {
        let mut resp = self.fetch_error_response(Errors::None, io);
        match self.validate_fetch(r.fetch_offset, r.last_fetched_epoch, io) {
            ValidOffsetAndEpoch::Valid => {}
            ValidOffsetAndEpoch::Diverging(d) => {
                resp.diverging_epoch = Some(d);
                return resp;
            }
            ValidOffsetAndEpoch::Snapshot(id) => {
                resp.snapshot_id = Some(id);
                return resp;
            }
        }
        let records = io
            .disk
            .metadata_log
            .read(r.fetch_offset, self.config.fetch_max_bytes);
        let leader_end = io.disk.metadata_log.end_offset();
        let key = ReplicaKey {
            id: from,
            directory_id: r.replica_directory_id,
        };
        let now = io.now_ms;
        let update = match &mut self.quorum.state {
            EpochState::Leader(l) => {
                l.hw_epoch_start_rule = io.rules.hw_epoch_start;
                l.update_replica_state(key, now, r.fetch_offset, leader_end)
            }
            _ => None,
        };
        resp.high_watermark = self.high_watermark().unwrap_or(-1);
        resp.records = records;
        if let Some(u) = update {
            self.log_leader_hw(u, io);
            self.on_update_leader_high_watermark(io);
        }
        resp
    }

    /// `onUpdateLeaderHighWatermark`: every high-watermark advance completes all the parked
    /// fetches (each answered with the new high watermark).
    pub(super) fn on_update_leader_high_watermark(&mut self, io: &mut RaftIo) {
        // KafkaRaftClient.java:398-400: the voter changes waiting for this commit.
        self.voter_changes_on_high_watermark(io);
        let parked = std::mem::take(&mut self.fetch_purgatory);
        for p in parked {
            let resp = self.try_complete_fetch(p.from, &p.request, io);
            self.respond(p.from, p.correlation_id, RaftResponse::Fetch(resp), io);
        }
    }

    /// LeaderState's log line for a high-watermark advance (INFO the first time in an epoch).
    pub(super) fn log_leader_hw(&self, u: HighWatermarkUpdate, io: &mut RaftIo) {
        if let EpochState::Leader(l) = &self.quorum.state {
            let text = l.voter_states_text();
            let message = if u.first_time {
                format!(
                    "High watermark set to LogOffsetMetadata(offset={}, metadata=Optional.empty) for the first time for epoch {} based on indexOfHw {} and voters {}",
                    u.offset, l.epoch, u.index_of_hw, text
                )
            } else {
                format!(
                    "High watermark set to LogOffsetMetadata(offset={}, metadata=Optional.empty) based on indexOfHw {} and voters {}",
                    u.offset, u.index_of_hw, text
                )
            };
            let level = if u.first_time {
                Level::Info
            } else {
                Level::Debug
            };
            io.log_line(level, &self.prefix, loggers::LEADER_STATE, message);
        }
    }

    /// Answer the parked fetches whose `maxWaitMs` passed; returns the time until the next
    /// one expires.
    pub(super) fn expire_parked_fetches(&mut self, io: &mut RaftIo) -> u64 {
        let now = io.now_ms;
        let parked = std::mem::take(&mut self.fetch_purgatory);
        let mut wait = u64::MAX;
        for p in parked {
            if now >= p.deadline_ms {
                // On timeout the original response (with the HW of its arrival) is sent.
                self.respond(
                    p.from,
                    p.correlation_id,
                    RaftResponse::Fetch(p.original),
                    io,
                );
            } else {
                wait = wait.min(p.deadline_ms - now);
                self.fetch_purgatory.push(p);
            }
        }
        wait
    }
}
