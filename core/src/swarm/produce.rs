//! The swarm's produce load (issue 31): once topics exist, a client writes acks=all batches to
//! partition leaders every few hundred virtual ms, as a producer would (its Metadata answered
//! by any broker that leads the partition now), so the data partitions' HW, ISR shrink and
//! expand, leader changes and truncation run under the seed's faults, and every acknowledged
//! record is held to AckedRecordNeverLost.

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
        let batch = RecordBatch::from_producer(records, world.now_ms(), ProducerStamp::NONE);
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

/// `kraft bench`'s produce figure: 3 controllers + 3 brokers, topic `orders` (one partition,
/// replication factor 3), one acks=all record every 10 ms (100 records/s) to its leader for
/// `minutes` simulated minutes; prints simulated s per wall s and what was acknowledged.
pub fn bench_produce(minutes: u64) -> Result<(), String> {
    use crate::common::message::controller::{ControllerRequest, CreatableTopic};
    let mut w = World::new(crate::sim::WorldConfig::new(
        1,
        vec![101, 102, 103],
        vec![1, 2, 3],
    ))
    .map_err(|e| e.to_string())?;
    w.run_until(20_000, |w| {
        (1..=3).all(|b| w.active_registration(b).is_some_and(|r| !r.record.fenced))
    });
    let active = w.active_controller().ok_or("no active controller")?;
    let topic = CreatableTopic {
        name: "orders".into(),
        num_partitions: 1,
        replication_factor: 3,
        configs: Vec::new(),
    };
    let cid = w
        .admin_send(
            active,
            ControllerRequest::CreateTopics {
                topics: vec![topic],
            },
        )
        .map_err(|e| e.to_string())?;
    w.run_until(10_000, |w| w.admin_response(cid).is_some());
    w.run_for(2_000);
    let started = std::time::Instant::now();
    let (start_ms, end_ms) = (w.now_ms(), w.now_ms() + minutes * 60_000);
    let mut sent = 0u64;
    while w.now_ms() < end_ms {
        let leader = w.nodes().find_map(|n| {
            let rm = n.replicas.as_ref()?;
            let (tp, _) = rm.partitions.iter().find(|(_, p)| p.is_leader())?;
            Some((n.id, *tp))
        });
        if let Some((to, partition)) = leader {
            let batch = RecordBatch::from_producer(
                vec![Record::Data(DataRecord {
                    key: None,
                    value: format!("r{sent}"),
                })],
                w.now_ms(),
                ProducerStamp::NONE,
            );
            let request = DataRequest::Produce(ProduceRequest {
                acks: -1,
                timeout_ms: PRODUCE_TIMEOUT_MS,
                partition,
                topic: "orders".into(),
                batch,
            });
            if w.client_send(to, request).is_ok() {
                sent += 1;
            }
        }
        w.run_for(10);
    }
    let wall = started.elapsed().as_secs_f64();
    let sim_s = (w.now_ms() - start_ms) as f64 / 1000.0;
    println!("bench: produce load, 3 controllers + 3 brokers, orders-0 with replication factor 3, acks=all, 100 records/s, {minutes} simulated minute(s)");
    println!(
        "  records sent / acknowledged: {sent} / {}",
        w.acked_writes().len()
    );
    println!("  events run:             {}", w.events_run());
    println!("  wall time:              {wall:.3} s");
    println!(
        "  simulated s per wall s: {:.0}  (target >= 5000)",
        sim_s / wall.max(1e-9)
    );
    Ok(())
}
