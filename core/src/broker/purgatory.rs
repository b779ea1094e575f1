//! The leader's side of Produce and Fetch (ReplicaManager.appendRecords and fetchMessages,
//! Partition.fetchRecords at confluentinc/kafka 06d492d8) and their purgatories: an acks=all
//! produce waits (DelayedProduce) until the HW reaches its last offset or its timeout; a fetch
//! with nothing to return waits (DelayedFetch) until data arrives or maxWaitMs passes.

use std::sync::Arc;

use super::data_io::DataIo;
use super::delayed::{DelayedFetch, DelayedProduce};
use super::messages::{
    DataMessage, DataResponse, FetchRequest, FetchResponse, FetchedPartition, ProduceRequest,
    ProduceResponse, CONSUMER_REPLICA_ID,
};
use super::replica_config::{MESSAGE_MAX_BYTES, REPLICA_FETCH_MAX_BYTES};
use super::replica_manager::ReplicaManager;
use crate::common::offset_and_epoch::OffsetAndEpoch;
use crate::common::protocol::Errors;
use crate::raft::batch::RecordBatch;

/// Whether `batch` repeats one this idempotent producer already wrote (same producer id and
/// base sequence among the log's recent batches): ProducerStateManager's duplicate check.
/// Returns the original's base offset.
fn duplicate_of(log: &crate::raft::log::RaftLog, batch: &RecordBatch) -> Option<i64> {
    if batch.producer.producer_id < 0 {
        return None;
    }
    log.batches()
        .iter()
        .rev()
        .take(64)
        .find(|b| b.producer == batch.producer)
        .map(|b| b.base_offset)
}

impl ReplicaManager {
    /// `appendRecords` on the leader (ReplicaManager.appendRecords, Partition.
    /// appendRecordsToLeader): checks, the append, then the answer now (acks 1, or acks all
    /// already satisfied), never (acks 0), or from purgatory.
    pub(super) fn handle_produce(
        &mut self,
        from: i32,
        cid: u64,
        r: ProduceRequest,
        io: &mut DataIo,
    ) {
        let respond = |io: &mut DataIo, error: Errors, message: Option<String>, base: i64| {
            io.out.push((
                from,
                DataMessage::Response {
                    correlation_id: cid,
                    body: DataResponse::Produce(ProduceResponse {
                        partition: r.partition,
                        error,
                        error_message: message,
                        base_offset: base,
                    }),
                },
            ));
        };
        if !matches!(r.acks, -1..=1) {
            return respond(io, Errors::InvalidRequiredAcks, None, -1);
        }
        let brokers = self.brokers().clone();
        let Some(p) = self.partitions.get_mut(&r.partition) else {
            return respond(io, Errors::UnknownTopicOrPartition, None, -1);
        };
        if let Err((error, message)) = p.check_append(r.acks) {
            return respond(io, error, Some(message), -1);
        }
        if r.batch.size_in_bytes() > MESSAGE_MAX_BYTES {
            return respond(io, Errors::MessageTooLarge, None, -1);
        }
        let Some(log) = io.disk.data_logs.get_mut(&p.name()) else {
            return respond(io, Errors::UnknownTopicOrPartition, None, -1);
        };
        let (base, last) = match duplicate_of(log, &r.batch) {
            Some(base) => (base, base + r.batch.records.len() as i64 - 1),
            None => {
                let b = log.append_batch_as_leader(
                    r.batch.records.clone(),
                    p.leader_epoch,
                    io.now_ms,
                    r.batch.producer,
                );
                (b.base_offset, b.last_offset())
            }
        };
        let end = log.end_offset();
        p.maybe_increment_leader_hw(end, io.now_ms, &brokers);
        match r.acks {
            0 => {}
            1 => respond(io, Errors::None, None, base),
            _ => {
                let (done, error) = p.check_enough_replicas_reach_offset(last + 1);
                if done {
                    respond(
                        io,
                        error,
                        None,
                        if error == Errors::None { base } else { -1 },
                    );
                } else {
                    self.delayed_produce.push(DelayedProduce {
                        from,
                        correlation_id: cid,
                        partition: r.partition,
                        base_offset: base,
                        required_offset: last + 1,
                        deadline_ms: io.now_ms + r.timeout_ms,
                    });
                }
            }
        }
    }

    /// A Fetch on the leader (ReplicaManager.fetchMessages): a follower's updates its state
    /// and reads to the log end; a consumer's reads to the HW. Answered now when there is
    /// something to say, else kept until data arrives or maxWaitMs.
    pub(super) fn handle_fetch(&mut self, from: i32, cid: u64, r: FetchRequest, io: &mut DataIo) {
        let resp = self.read_for_fetch(&r, true, io);
        let has_data = resp.partitions.iter().any(|p| {
            !p.records.is_empty() || p.error != Errors::None || p.diverging_epoch.is_some()
        });
        if has_data || r.max_wait_ms == 0 {
            io.out.push((
                from,
                DataMessage::Response {
                    correlation_id: cid,
                    body: DataResponse::Fetch(resp),
                },
            ));
        } else {
            self.delayed_fetch.push(DelayedFetch {
                from,
                correlation_id: cid,
                deadline_ms: io.now_ms + r.max_wait_ms,
                request: r,
            });
        }
    }

    /// `readFromLocalLog` for each partition of `r`; a follower's fetch state is updated
    /// when `update_state`.
    fn read_for_fetch(
        &mut self,
        r: &FetchRequest,
        update_state: bool,
        io: &mut DataIo,
    ) -> FetchResponse {
        let mut out = Vec::new();
        for fp in &r.partitions {
            out.push(self.read_partition(r, fp, update_state, io));
        }
        FetchResponse {
            replica_id: r.replica_id,
            partitions: out,
        }
    }

    fn read_partition(
        &mut self,
        r: &FetchRequest,
        fp: &super::messages::FetchPartition,
        update_state: bool,
        io: &mut DataIo,
    ) -> FetchedPartition {
        let mut result = FetchedPartition {
            partition: fp.partition,
            error: Errors::None,
            high_watermark: -1,
            log_start_offset: -1,
            diverging_epoch: None,
            records: Vec::new(),
        };
        let brokers = self.brokers().clone();
        let Some(p) = self.partitions.get_mut(&fp.partition) else {
            result.error = Errors::UnknownTopicOrPartition;
            return result;
        };
        if !p.is_leader() {
            result.error = Errors::NotLeaderOrFollower;
            return result;
        }
        if fp.current_leader_epoch >= 0 && fp.current_leader_epoch < p.leader_epoch {
            result.error = Errors::FencedLeaderEpoch;
            return result;
        }
        if fp.current_leader_epoch > p.leader_epoch {
            result.error = Errors::UnknownLeaderEpoch;
            return result;
        }
        let Some(log) = io.disk.data_logs.get(&p.name()) else {
            result.error = Errors::UnknownTopicOrPartition;
            return result;
        };
        result.log_start_offset = log.start_offset();
        let follower = r.replica_id != CONSUMER_REPLICA_ID;
        // Partition.readRecords: a follower whose last fetched epoch ends earlier here, or
        // is not in the leader's cache, diverges at the leader's end of that epoch.
        if follower && fp.last_fetched_epoch >= 0 {
            let end = log.end_offset_for_epoch(fp.last_fetched_epoch);
            if end.epoch < fp.last_fetched_epoch || end.offset < fp.fetch_offset {
                result.high_watermark = p.high_watermark;
                result.diverging_epoch = Some(OffsetAndEpoch {
                    offset: end.offset,
                    epoch: end.epoch,
                });
                return result;
            }
        }
        let end = log.end_offset();
        let max_offset = if follower { end } else { p.high_watermark };
        if fp.fetch_offset > end || fp.fetch_offset < log.start_offset() {
            result.error = Errors::OffsetOutOfRange;
            return result;
        }
        let batches: Vec<Arc<RecordBatch>> = log
            .read(fp.fetch_offset, REPLICA_FETCH_MAX_BYTES)
            .into_iter()
            .filter(|b| b.last_offset() < max_offset)
            .collect();
        if follower && update_state {
            let (_, hw_moved) = p.update_follower_fetch_state(
                r.replica_id,
                fp.fetch_offset,
                log.start_offset(),
                r.replica_epoch,
                end,
                io.now_ms,
                &brokers,
            );
            let _ = hw_moved;
        }
        result.high_watermark = p.high_watermark;
        result.records = batches;
        result
    }

    /// Complete what purgatory can: acks=all produces whose HW arrived (or whose leader left,
    /// or whose time ran out), fetches with data (or whose wait ended).
    pub(super) fn complete_delayed(&mut self, io: &mut DataIo) {
        let now = io.now_ms;
        let produces = std::mem::take(&mut self.delayed_produce);
        for d in produces {
            let (done, error) = match self.partitions.get(&d.partition) {
                Some(p) => p.check_enough_replicas_reach_offset(d.required_offset),
                None => (false, Errors::NotLeaderOrFollower),
            };
            let outcome = if error == Errors::NotLeaderOrFollower {
                Some((Errors::NotLeaderOrFollower, -1))
            } else if done {
                Some((
                    error,
                    if error == Errors::None {
                        d.base_offset
                    } else {
                        -1
                    },
                ))
            } else if now >= d.deadline_ms {
                Some((Errors::RequestTimedOut, -1))
            } else {
                None
            };
            match outcome {
                Some((error, base)) => io.out.push((
                    d.from,
                    DataMessage::Response {
                        correlation_id: d.correlation_id,
                        body: DataResponse::Produce(ProduceResponse {
                            partition: d.partition,
                            error,
                            error_message: None,
                            base_offset: base,
                        }),
                    },
                )),
                None => self.delayed_produce.push(d),
            }
        }
        let fetches = std::mem::take(&mut self.delayed_fetch);
        for d in fetches {
            let resp = self.read_for_fetch(&d.request, false, io);
            let ready = resp.partitions.iter().any(|p| {
                !p.records.is_empty() || p.error != Errors::None || p.diverging_epoch.is_some()
            });
            if ready || now >= d.deadline_ms {
                io.out.push((
                    d.from,
                    DataMessage::Response {
                        correlation_id: d.correlation_id,
                        body: DataResponse::Fetch(resp),
                    },
                ));
            } else {
                self.delayed_fetch.push(d);
            }
        }
    }
}
