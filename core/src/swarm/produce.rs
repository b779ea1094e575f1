//! The swarm's produce load (issue 31): once topics exist, a client writes acks=all batches to
//! partition leaders every few hundred virtual ms, as a producer would (its Metadata answered
//! by any broker that leads the partition now), so the data partitions' HW, ISR shrink and
//! expand, leader changes and truncation run under the seed's faults, and every acknowledged
//! record is held to AckedRecordNeverLost.

use std::sync::Arc;

use crate::broker::messages::{DataRequest, ProduceRequest};
use crate::common::rng::SimRng;
use crate::raft::batch::{DataRecord, ProducerStamp, Record, RecordBatch};
use crate::sim::node::ProcessState;
use crate::sim::World;

/// The delivery.timeout.ms-like bound a produce waits in purgatory (request.timeout.ms of the
/// producer: 30 s).
const PRODUCE_TIMEOUT_MS: u64 = 30_000;

/// The produce load's schedule and its own generator (salted from the seed, so that drawing
/// writes does not move the seed's fault plan).
pub(super) struct ProduceLoad {
    rng: SimRng,
    next_ms: u64,
    /// Batches sent.
    pub(super) sent: u64,
}

/// The salt of the produce load's generator.
const PRODUCE_SALT: u64 = 0x0031_DA7A_0F00_0031;

impl ProduceLoad {
    /// A load that starts at `start_ms`.
    pub(super) fn new(seed: u64, start_ms: u64) -> Self {
        ProduceLoad {
            rng: SimRng::new(seed ^ PRODUCE_SALT),
            next_ms: start_ms,
            sent: 0,
        }
    }

    /// When its time has come: one acks=all batch of one to three records to the leader of a
    /// partition some running broker leads (drawn among them).
    pub(super) fn tick(&mut self, world: &mut World) {
        if world.now_ms() < self.next_ms {
            return;
        }
        self.next_ms = world.now_ms() + self.rng.range_inclusive(100, 600);
        let leaders: Vec<(i32, crate::common::message::replica::TopicPartition, String)> = world
            .nodes()
            .filter(|n| n.process == ProcessState::Running)
            .filter_map(|n| Some((n.id, n.replicas.as_ref()?)))
            .flat_map(|(id, rm)| {
                rm.partitions
                    .iter()
                    .filter(|(_, p)| p.is_leader())
                    .map(move |(tp, p)| (id, *tp, p.topic.clone()))
            })
            .collect();
        if leaders.is_empty() {
            return;
        }
        let (to, partition, topic) = leaders[self.rng.below(leaders.len() as u64) as usize].clone();
        let n = 1 + self.rng.below(3);
        let records = (0..n)
            .map(|i| {
                Record::Data(DataRecord {
                    key: None,
                    value: format!("r{}-{i}", self.sent),
                })
            })
            .collect();
        let batch = Arc::new(RecordBatch {
            base_offset: 0,
            partition_leader_epoch: -1,
            is_control: false,
            create_time_ms: world.now_ms(),
            records,
            producer: ProducerStamp::NONE,
        });
        let request = DataRequest::Produce(ProduceRequest {
            acks: -1,
            timeout_ms: PRODUCE_TIMEOUT_MS,
            partition,
            topic,
            batch,
        });
        if world.client_send(to, request).is_ok() {
            self.sent += 1;
        }
    }
}
