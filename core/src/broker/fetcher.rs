//! The follower's side of replication: ReplicaFetcherThread and AbstractFetcherThread
//! (core/src/main/scala/kafka/server/ at confluentinc/kafka 06d492d8). One fetch in flight per
//! leader, for every partition this broker follows on it, from its log end offset with the
//! epoch of its last batch; the leader holds the fetch until it has data
//! (replica.fetch.wait.max.ms). The answer's records are appended, the follower's HW becomes
//! the leader's (capped at its own end), and a diverging epoch makes it truncate first.

use std::collections::BTreeMap;

use super::data_io::DataIo;
use super::messages::{DataMessage, DataRequest, DataResponse, FetchPartition, FetchRequest};
use super::partition::Partition;
use super::replica_config::{
    REPLICA_CORRELATION_BASE, REPLICA_FETCH_BACKOFF_MS, REPLICA_FETCH_WAIT_MAX_MS,
};
use crate::common::message::replica::TopicPartition;
use crate::common::node_log::{Level, LogFile, LogLine};
use crate::common::protocol::Errors;

/// The logger of the fetcher's lines.
pub const FETCHER_LOGGER: &str = "kafka.server.ReplicaFetcherThread";

/// replica.socket.timeout.ms: a fetch unanswered this long is given up (the connection is
/// deemed lost) and sent again after the backoff.
pub const REPLICA_SOCKET_TIMEOUT_MS: u64 = 30_000;

/// The fetch state toward one leader.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeaderFetch {
    /// The fetch in flight.
    pub in_flight: Option<u64>,
    /// When it was sent.
    pub sent_ms: u64,
    /// When the next fetch may go.
    pub next_ms: u64,
}

/// The follower's fetchers: the partitions it follows, by leader.
#[derive(Clone, Debug, Default)]
pub struct ReplicaFetcher {
    node_id: i32,
    /// Partition to its leader.
    pub partitions: BTreeMap<TopicPartition, i32>,
    /// Per leader.
    pub leaders: BTreeMap<i32, LeaderFetch>,
    next_correlation_id: u64,
}

impl ReplicaFetcher {
    /// The fetcher of broker `node_id`.
    pub fn new(node_id: i32) -> Self {
        ReplicaFetcher {
            node_id,
            // Above the ReplicaManager's AlterPartition ids.
            next_correlation_id: REPLICA_CORRELATION_BASE + (1 << 31),
            ..Default::default()
        }
    }

    /// `addFetcherForPartitions`: follow `tp` on `leader` (a new leader epoch restarts it).
    pub fn add(&mut self, tp: TopicPartition, leader: i32) {
        self.partitions.insert(tp, leader);
        self.leaders.entry(leader).or_default();
    }

    /// `removeFetcherForPartitions`.
    pub fn remove(&mut self, tp: TopicPartition) {
        self.partitions.remove(&tp);
    }

    /// When a fetch is next due, or one in flight times out.
    pub fn next_wake_ms(&self) -> u64 {
        self.leaders
            .iter()
            .filter(|(l, _)| self.partitions.values().any(|x| x == *l))
            .map(|(_, f)| match f.in_flight {
                Some(_) => f.sent_ms + REPLICA_SOCKET_TIMEOUT_MS,
                None => f.next_ms,
            })
            .min()
            .unwrap_or(u64::MAX)
    }

    /// Send the fetches that are due: one per leader, for all its partitions.
    pub fn poll(
        &mut self,
        broker_epoch: i64,
        parts: &BTreeMap<TopicPartition, Partition>,
        io: &mut DataIo,
    ) {
        let mut by_leader: BTreeMap<i32, Vec<FetchPartition>> = BTreeMap::new();
        for (tp, leader) in &self.partitions {
            let Some(p) = parts.get(tp) else { continue };
            let Some(log) = io.disk.data_logs.get(&p.name()) else {
                continue;
            };
            let last_epoch = if log.end_offset() > log.start_offset() {
                log.last_fetched_epoch()
            } else {
                -1
            };
            by_leader.entry(*leader).or_default().push(FetchPartition {
                partition: *tp,
                current_leader_epoch: p.leader_epoch,
                fetch_offset: log.end_offset(),
                last_fetched_epoch: last_epoch,
            });
        }
        for state in self.leaders.values_mut() {
            if state.in_flight.is_some() && io.now_ms >= state.sent_ms + REPLICA_SOCKET_TIMEOUT_MS {
                state.in_flight = None;
                state.next_ms = io.now_ms + REPLICA_FETCH_BACKOFF_MS;
            }
        }
        for (leader, partitions) in by_leader {
            let state = self.leaders.entry(leader).or_default();
            if state.in_flight.is_some() || io.now_ms < state.next_ms {
                continue;
            }
            state.sent_ms = io.now_ms;
            let cid = self.next_correlation_id;
            self.next_correlation_id += 1;
            state.in_flight = Some(cid);
            io.out.push((
                leader,
                DataMessage::Request {
                    correlation_id: cid,
                    body: DataRequest::Fetch(FetchRequest {
                        replica_id: self.node_id,
                        replica_epoch: broker_epoch,
                        max_wait_ms: REPLICA_FETCH_WAIT_MAX_MS,
                        partitions,
                    }),
                },
            ));
        }
    }

    /// The leader's answer: append, truncate, take the HW; fetch again at once, or after the
    /// backoff when it failed.
    pub fn handle_response(
        &mut self,
        from: i32,
        correlation_id: u64,
        body: DataResponse,
        parts: &mut BTreeMap<TopicPartition, Partition>,
        io: &mut DataIo,
    ) {
        let Some(state) = self.leaders.get_mut(&from) else {
            return;
        };
        if state.in_flight != Some(correlation_id) {
            return;
        }
        state.in_flight = None;
        let DataResponse::Fetch(resp) = body else {
            state.next_ms = io.now_ms + REPLICA_FETCH_BACKOFF_MS;
            return;
        };
        let mut failed = false;
        for fp in resp.partitions {
            // Only partitions still followed on this leader.
            if self.partitions.get(&fp.partition) != Some(&from) {
                continue;
            }
            let Some(p) = parts.get_mut(&fp.partition) else {
                continue;
            };
            let name = p.name();
            let Some(log) = io.disk.data_logs.get_mut(&name) else {
                continue;
            };
            if fp.error != Errors::None {
                failed = true;
                continue;
            }
            if let Some(div) = fp.diverging_epoch {
                let to = log.truncate_to_end_offset(div);
                io.log.push(LogLine {
                    time_ms: io.now_ms,
                    level: Level::Info,
                    file: LogFile::Server,
                    prefix: format!("[ReplicaFetcher replicaId={}, leaderId={from}, fetcherId=0] ", self.node_id),
                    message: format!(
                        "Truncating partition {name} with TruncationState(offset={to}, completed=true) due to leader epoch and offset EpochEndOffset(errorCode=0, partition={}, leaderEpoch={}, endOffset={})",
                        fp.partition.1, div.epoch, div.offset
                    ),
                    logger: FETCHER_LOGGER,
                });
                p.high_watermark = p.high_watermark.min(log.end_offset());
                continue;
            }
            if !fp.records.is_empty() && log.append_as_follower(&fp.records).is_err() {
                failed = true;
                continue;
            }
            // The follower's HW: the leader's, never past its own end (UnifiedLog.updateHighWatermark).
            p.high_watermark = fp.high_watermark.min(log.end_offset());
        }
        let state = self.leaders.entry(from).or_default();
        state.next_ms = if failed {
            io.now_ms + REPLICA_FETCH_BACKOFF_MS
        } else {
            io.now_ms
        };
    }
}
