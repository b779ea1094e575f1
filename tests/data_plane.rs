//! The data plane (issue 31): replica logs on brokers, acks=all produce waiting for the ISR,
//! followers fetching, the data HW as the ISR's smallest end offset, the ISR shrinking after
//! replica.lag.time.max.ms and growing back.

mod common;

use kraft_core::broker::messages::{DataRequest, DataResponse, ProduceRequest};
use kraft_core::common::message::controller::{ControllerRequest, CreatableTopic};
use kraft_core::common::protocol::Errors;
use kraft_core::raft::batch::{DataRecord, ProducerStamp, Record, RecordBatch};
use kraft_core::sim::{World, WorldConfig};

/// Three controllers, brokers 1-3, topic `orders` with one partition on all three.
fn cluster(seed: u64) -> World {
    let mut w = World::new(WorldConfig::new(seed, vec![101, 102, 103], vec![1, 2, 3])).unwrap();
    w.run_until(20_000, |w| {
        (1..=3).all(|b| w.active_registration(b).is_some_and(|r| !r.record.fenced))
    });
    let active = w.active_controller().unwrap();
    let cid = w
        .admin_send(
            active,
            ControllerRequest::CreateTopics {
                topics: vec![CreatableTopic {
                    name: "orders".into(),
                    num_partitions: 1,
                    replication_factor: 3,
                    configs: Vec::new(),
                }],
            },
        )
        .unwrap();
    w.run_until(10_000, |w| w.admin_response(cid).is_some());
    w.run_for(2_000);
    w
}

fn leader_of_orders(w: &World) -> (i32, kraft_core::common::message::replica::TopicPartition) {
    for b in 1..=3 {
        let rm = w.node(b).unwrap().replicas.as_ref().unwrap();
        if let Some((tp, _)) = rm.partitions.iter().find(|(_, p)| p.is_leader()) {
            return (b, *tp);
        }
    }
    panic!("no leader of orders-0");
}

fn produce(w: &mut World, acks: i16, value: &str) -> u64 {
    let (leader, tp) = leader_of_orders(w);
    let batch = RecordBatch::from_producer(
        vec![Record::Data(DataRecord {
            key: None,
            value: value.into(),
        })],
        w.now_ms(),
        ProducerStamp::NONE,
    );
    w.client_send(
        leader,
        DataRequest::Produce(ProduceRequest {
            acks,
            timeout_ms: 60_000,
            partition: tp,
            topic: "orders".into(),
            batch,
        }),
    )
    .unwrap()
}

#[test]
fn an_acks_all_write_is_answered_once_the_isr_holds_it() {
    let mut w = cluster(7);
    let (leader, _) = leader_of_orders(&w);
    for b in 1..=3 {
        assert!(
            w.node(b).unwrap().disk.data_logs.contains_key("orders-0"),
            "broker {b}"
        );
        assert!(common::log_text(&w, b).contains("Created log for partition orders-0 in"));
    }
    let cid = produce(&mut w, -1, "v1");
    assert!(w.run_until(5_000, |w| w.client_response(cid).is_some()));
    let Some(DataResponse::Produce(r)) = w.client_response(cid) else {
        panic!("a produce response")
    };
    assert_eq!(r.error, Errors::None);
    assert_eq!(r.base_offset, 0);
    // Every replica holds the record, and the leader's HW covers it.
    for b in 1..=3 {
        assert_eq!(
            w.node(b).unwrap().disk.data_logs["orders-0"].end_offset(),
            1,
            "broker {b}"
        );
    }
    let p = w
        .node(leader)
        .unwrap()
        .replicas
        .as_ref()
        .unwrap()
        .partitions
        .values()
        .next()
        .unwrap()
        .clone();
    assert_eq!(p.high_watermark, 1);
}

#[test]
fn a_follower_whose_fetches_are_lost_holds_the_hw_until_the_leader_shrinks_the_isr() {
    let mut w = cluster(7);
    let (leader, _) = leader_of_orders(&w);
    let follower = (1..=3).find(|b| *b != leader).unwrap();
    // Its heartbeats still reach the controller (no fence): only its fetches are lost.
    drop_replica_fetches(&mut w, follower);
    let cid = produce(&mut w, -1, "v1");
    // The HW waits for the lagging follower; the acks=all write is not answered.
    w.run_for(5_000);
    assert!(w.client_response(cid).is_none());
    // replica.lag.time.max.ms (30 s) later, at the next isr-expiration run (every 15 s), the
    // leader shrinks the ISR and the write is done (its timeout here is 60 s).
    assert!(w.run_until(50_000, |w| w.client_response(cid).is_some()));
    let Some(DataResponse::Produce(r)) = w.client_response(cid) else {
        panic!("a produce response")
    };
    assert_eq!(r.error, Errors::None);
    let text = common::log_text(&w, leader);
    assert!(text.contains("Shrinking ISR from"), "{text}");
    assert!(text.contains("and version updated to"), "{text}");
    assert!(!text.contains("Fencing broker"), "{text}");
    // Its fetches get through again: it catches up and joins the ISR again.
    w.heal();
    w.run_for(40_000);
    let p = w
        .node(leader)
        .unwrap()
        .replicas
        .as_ref()
        .unwrap()
        .partitions
        .values()
        .next()
        .unwrap()
        .clone();
    assert_eq!(p.isr.len(), 3, "{p:?}");
}

/// Lose every ReplicaFetch request `follower` sends.
fn drop_replica_fetches(w: &mut World, follower: i32) {
    w.add_drop_rule(kraft_core::sim::network::DropRule {
        from: Some(follower),
        to: None,
        kind: Some(kraft_core::common::api_keys::MessageKind::request(
            kraft_core::common::api_keys::ApiKeys::ReplicaFetch,
        )),
    });
}

/// The scenario of the isr-high-watermark rule: a follower's fetches are lost, a write is
/// sent with acks=all, then the leader and the other follower die, so the lagging follower is
/// the only ISR member left and the controller elects it. Returns the produce's answer and
/// every invariant the checker found broken.
fn lose_the_leader_behind_a_lagging_follower(
    rule_on: bool,
) -> (Option<Errors>, Vec<kraft_core::invariants::Invariant>) {
    let mut w = cluster(7);
    w.set_rule(kraft_core::common::rules::Rule::IsrHighWatermark, rule_on)
        .unwrap();
    let mut c = kraft_core::invariants::InvariantChecker::new();
    let (leader, _) = leader_of_orders(&w);
    let mut followers = (1..=3).filter(|b| *b != leader);
    let (lagging, other) = (followers.next().unwrap(), followers.next().unwrap());
    drop_replica_fetches(&mut w, lagging);
    // The fetch it had parked at the leader (replica.fetch.wait.max.ms) ends first.
    w.run_for(1_000);
    let cid = produce(&mut w, -1, "acked");
    let mut broken = Vec::new();
    let mut run = |w: &mut World, ms: u64| {
        let end = w.now_ms() + ms;
        while w.now_ms() < end && w.step() {
            broken.extend(c.check_each(w).into_iter().map(|v| v.invariant));
        }
    };
    run(&mut w, 2_000);
    let answer = match w.client_response(cid) {
        Some(DataResponse::Produce(r)) => Some(r.error),
        _ => None,
    };
    w.kill(leader).unwrap();
    w.kill(other).unwrap();
    w.heal();
    run(&mut w, 20_000);
    broken.sort();
    broken.dedup();
    (answer, broken)
}

#[test]
fn with_the_isr_high_watermark_rule_an_acked_write_waits_for_the_whole_isr() {
    let (answer, broken) = lose_the_leader_behind_a_lagging_follower(true);
    assert_eq!(
        answer, None,
        "not answered while a follower of the ISR lacks it"
    );
    assert!(broken.is_empty(), "{broken:?}");
}

#[test]
fn without_it_an_acked_write_is_lost_when_the_lagging_follower_is_elected() {
    use kraft_core::invariants::Invariant;
    let (answer, broken) = lose_the_leader_behind_a_lagging_follower(false);
    assert_eq!(
        answer,
        Some(Errors::None),
        "a majority held it: acknowledged"
    );
    assert!(
        broken.contains(&Invariant::DataHighWatermarkWithinIsr)
            && broken.contains(&Invariant::AckedRecordNeverLost),
        "{broken:?}"
    );
}

/// ForwardingManager: a CreateTopics sent to a broker reaches the active controller through
/// the broker's `forwarding` channel and its answer comes back to the client; with no
/// controller left the broker answers REQUEST_TIMED_OUT after the channel's 60 s retry
/// timeout (BrokerServer.scala: `retryTimeoutMs = 60000`).
#[test]
fn a_broker_forwards_admin_requests_to_the_active_controller() {
    use kraft_core::common::message::controller::{ApiError, ControllerResponse};
    let mut w = cluster(7);
    let create = |name: &str| {
        DataRequest::Admin(ControllerRequest::CreateTopics {
            topics: vec![CreatableTopic {
                name: name.into(),
                num_partitions: 1,
                replication_factor: 1,
                configs: Vec::new(),
            }],
        })
    };
    let cid = w.client_send(1, create("forwarded")).unwrap();
    assert!(w.run_until(5_000, |w| w.client_response(cid).is_some()));
    let Some(DataResponse::Admin(ControllerResponse::CreateTopics { topics, error })) =
        w.client_response(cid)
    else {
        panic!("{:?}", w.client_response(cid))
    };
    assert_eq!(*error, None);
    assert_eq!(topics[0].name, "forwarded");
    assert!(topics[0].error.is_none(), "{topics:?}");
    for c in [101, 102, 103] {
        w.kill(c).unwrap();
    }
    let cid = w.client_send(1, create("lost")).unwrap();
    w.run_for(59_000);
    assert!(w.client_response(cid).is_none(), "still retrying");
    assert!(w.run_until(2_000, |w| w.client_response(cid).is_some()));
    let Some(DataResponse::Admin(ControllerResponse::CreateTopics { error, .. })) =
        w.client_response(cid)
    else {
        panic!("{:?}", w.client_response(cid))
    };
    assert_eq!(*error, Some(ApiError::RequestTimedOut));
}
