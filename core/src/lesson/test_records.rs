//! Records written straight through [`World::client_send`] (an acks=all Produce to the
//! partition's leader), for tests and the page's `#produce TOPIC-N COUNT` address line: the
//! console has no producer tool yet (kafka-console-producer.sh comes on its own), and the data
//! plane's figures need a partition that holds data.

use crate::broker::messages::{DataRequest, DataResponse, ProduceRequest};
use crate::common::protocol::Errors;
use crate::raft::batch::{DataRecord, ProducerStamp, Record, RecordBatch};
use crate::sim::node::ProcessState;
use crate::sim::World;

/// At most this many records in one call.
pub const MAX_TEST_RECORDS: usize = 1_000;
/// How long (virtual ms) the write may wait for its answer (the request's timeoutMs plus the
/// network's round trip).
const ANSWER_WAIT_MS: u64 = 35_000;

/// Splits `orders-0` into (`orders`, 0).
pub fn split_partition(name: &str) -> Option<(&str, i32)> {
    let (topic, index) = name.rsplit_once('-')?;
    let index: i32 = index.parse().ok()?;
    (!topic.is_empty() && index >= 0).then_some((topic, index))
}

/// Sends `count` records (`v0`, `v1`, ...) to partition `name` (`orders-0`) in one acks=all
/// batch to its running leader, without waiting. Gives the request's correlation id.
pub fn send_test_records(world: &mut World, name: &str, count: usize) -> Result<u64, String> {
    let (topic, index) =
        split_partition(name).ok_or_else(|| format!("'{name}' is not TOPIC-PARTITION"))?;
    if count == 0 || count > MAX_TEST_RECORDS {
        return Err(format!("between 1 and {MAX_TEST_RECORDS} records"));
    }
    let (leader, tp) = world
        .nodes()
        .filter(|n| n.process == ProcessState::Running)
        .find_map(|n| {
            let (tp, _) = n
                .replicas
                .as_ref()?
                .partitions
                .iter()
                .find(|(_, p)| p.topic == topic && p.index == index && p.is_leader())?;
            Some((n.id, *tp))
        })
        .ok_or_else(|| format!("no running broker leads {name}"))?;
    let records = (0..count)
        .map(|i| {
            Record::Data(DataRecord {
                key: None,
                value: format!("v{i}"),
            })
        })
        .collect();
    let batch = RecordBatch::from_producer(records, world.now_ms(), ProducerStamp::NONE);
    let request = DataRequest::Produce(ProduceRequest {
        acks: -1,
        timeout_ms: 30_000,
        partition: tp,
        topic: topic.to_string(),
        batch,
    });
    world
        .client_send(leader, request)
        .map_err(|e| e.to_string())
}

/// Writes `count` records to partition `name` as [`send_test_records`] sends them, and runs the
/// world until the answer. Gives the batch's base offset, or what went wrong.
pub fn produce_test_records(world: &mut World, name: &str, count: usize) -> Result<i64, String> {
    let cid = send_test_records(world, name, count)?;
    world.run_until(ANSWER_WAIT_MS, |w| w.client_response(cid).is_some());
    match world.client_response(cid) {
        Some(DataResponse::Produce(r)) if r.error == Errors::None => Ok(r.base_offset),
        Some(DataResponse::Produce(r)) => Err(format!("{name}: {}", r.error.name())),
        Some(other) => Err(format!("{name}: unexpected answer {other:?}")),
        None => Err(format!("{name}: no answer within {ANSWER_WAIT_MS} ms")),
    }
}

/// Three controllers, brokers 1-3, topic `orders` (one partition on all three), for tests.
#[cfg(test)]
pub(crate) fn orders_cluster() -> crate::lesson::Console {
    let mut c = crate::lesson::Console::new();
    for cmd in [
        "cluster controllers=101,102,103 brokers=1,2,3 seed=7",
        "run until=leader timeout=10s",
        "sleep 5s",
        "kafka-topics.sh --bootstrap-server localhost:9092 --create --topic orders --replication-factor 3",
        "sleep 2s",
    ] {
        if let Err(e) = c.exec(cmd) {
            panic!("{cmd}: {e}");
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_names_split_at_the_last_dash() {
        assert_eq!(split_partition("orders-0"), Some(("orders", 0)));
        assert_eq!(split_partition("my-topic-12"), Some(("my-topic", 12)));
        assert_eq!(split_partition("orders"), None);
        assert_eq!(split_partition("-1"), None);
        assert_eq!(split_partition("orders-x"), None);
    }

    #[test]
    fn records_reach_every_replica_of_the_isr() {
        let mut c = orders_cluster();
        let w = c.world.as_mut().unwrap();
        assert!(produce_test_records(w, "nope-0", 1).is_err());
        assert!(produce_test_records(w, "orders-0", 0).is_err());
        assert_eq!(produce_test_records(w, "orders-0", 3), Ok(0));
        assert_eq!(produce_test_records(w, "orders-0", 2), Ok(3));
        w.run_for(1_000);
        for b in 1..=3 {
            assert_eq!(
                w.node(b).unwrap().disk.data_logs["orders-0"].end_offset(),
                5
            );
        }
    }
}
