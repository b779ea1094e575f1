//! The broker's lifecycle against Kafka 4.5: BrokerLifecycleManager's lines and heartbeat
//! cadence, its channel's timeouts and retries (a broker recovers by itself once its lost
//! requests get through again, and finds a new active controller through Raft), controlled
//! shutdown as BrokerHeartbeatManager grants it, the cordoned-log-dirs record, and the session
//! tracker fencing stale brokers one per run, 10 ms apart.

mod common;

use common::{controller_state, log_lines, messages, records, run_traced, run_until, topic, world};
use kraft_core::common::api_keys::MessageKind;
use kraft_core::common::message::controller::{ControllerRequest, ControllerResponse};
use kraft_core::common::node_log::{Level, LogFile, LogLine};
use kraft_core::invariants::InvariantChecker;
use kraft_core::lesson::wait::Condition;
use kraft_core::sim::network::DropRule;
use kraft_core::sim::World;

const BLM: &str = "org.apache.kafka.server.BrokerLifecycleManager";
const BHM: &str = "org.apache.kafka.controller.BrokerHeartbeatManager";
const RCM: &str = "org.apache.kafka.controller.ReplicationControlManager";

/// The first line on node `id` whose message starts with `start`.
fn line_starting(w: &World, id: i32, start: &str) -> Option<LogLine> {
    log_lines(w, id)
        .into_iter()
        .find(|l| l.message.starts_with(start))
}

fn registration(w: &World, controller: i32, broker: i32) -> (i64, bool) {
    let b = controller_state(w, controller);
    let r = &b.cluster.brokers.get(&broker).expect("registered").record;
    (r.broker_epoch, r.fenced)
}

fn broker_state(w: &World, id: i32) -> Option<&'static str> {
    w.node(id)?.broker.as_ref().map(|b| b.state.name())
}

/// Create topic `name` through the active controller and run until it answers.
fn create_topic(w: &mut World, c: &mut InvariantChecker, name: &str, partitions: i32, rf: i16) {
    let active = w.active_controller().expect("active controller");
    let cid = w
        .admin_send(
            active,
            ControllerRequest::CreateTopics {
                topics: vec![topic(name, partitions, rf)],
            },
        )
        .unwrap();
    assert!(run_until(w, c, 5_000, |w| w.admin_response(cid).is_some()));
    match w.admin_response(cid) {
        Some(ControllerResponse::CreateTopics {
            error: None,
            topics,
        }) => {
            assert_eq!(topics[0].error, None, "{topics:?}")
        }
        other => panic!("{other:?}"),
    }
}

/// The leader of partition `p` of `topic` on the active controller.
fn leader_of(w: &World, topic: &str, p: i32) -> i32 {
    let c = w.node(w.active_controller().unwrap()).unwrap();
    let r = &c.controller.as_ref().unwrap().state.replication;
    let id = r.topics_by_name.get(&topic.to_string()).unwrap();
    r.topics.get(id).unwrap().parts[&p].leader
}

/// The heartbeats `broker` sent, from a trace: (delivery time, currentMetadataOffset, text).
fn heartbeats_delivered(trace: &[String], broker: i32) -> Vec<(u64, i64)> {
    trace
        .iter()
        .filter(|t| t.contains(&format!("deliver BrokerHeartbeatRequest {broker} -> ")))
        .map(|t| {
            let at: u64 = t[1..t.find(" ms]").unwrap()].parse().unwrap();
            let offset = t
                .split("currentMetadataOffset=")
                .nth(1)
                .and_then(|s| s.split(' ').next())
                .and_then(|s| s.parse().ok())
                .unwrap();
            (at, offset)
        })
        .collect()
}

#[test]
fn broker_lifecycle_lines_and_timings_match_kafka() {
    let mut starting_gaps = 0;
    for (seed, lag) in [(0, false), (1, false), (2, false), (3, true)] {
        let mut w = world(seed, &[101, 102, 103], &[1, 2]);
        let mut c = InvariantChecker::new();
        let cluster = w.cluster_id().to_string();
        let incarnation = w.node(1).unwrap().broker.as_ref().unwrap().incarnation_id();
        // Each heartbeat sent: (time, BrokerState then, time of the answer it follows).
        let mut sent: Vec<(u64, &'static str, u64)> = Vec::new();
        let mut last_answer = 0;
        let end = w.now_ms() + 10_000;
        while w.next_event_time().is_some_and(|t| t <= end) {
            let before = w
                .node(1)
                .unwrap()
                .broker
                .as_ref()
                .unwrap()
                .last_heartbeat_ms;
            let text = w.step_described().unwrap();
            c.check(&w).unwrap();
            if text.contains("-> 1 ")
                && (text.contains("BrokerRegistrationResponse")
                    || text.contains("BrokerHeartbeatResponse"))
            {
                last_answer = w.now_ms();
            }
            let b = w.node(1).unwrap().broker.as_ref().unwrap();
            if b.last_heartbeat_ms != before {
                sent.push((w.now_ms(), b.state.name(), last_answer));
            }
            // With `lag`, broker 1's metadata falls behind while it registers: its fetch
            // answers are lost until the registration succeeds, so it is not caught up.
            let registered = b.broker_epoch >= 0;
            let knows_leader = b.channel.active_controller().is_some();
            if lag && knows_leader && !registered && w.network().drop_rules.is_empty() {
                w.add_drop_rule(DropRule {
                    from: None,
                    to: Some(1),
                    kind: MessageKind::from_name("FetchResponse"),
                });
            }
            if lag && registered {
                w.heal();
            }
        }
        let blm: Vec<LogLine> = log_lines(&w, 1)
            .into_iter()
            .filter(|l| l.logger == BLM)
            .collect();
        assert!(blm.iter().all(|l| l.file == LogFile::Server
            && l.prefix == "[BrokerLifecycleManager id=1] "
            && l.level == Level::Info));
        let epoch = registration(&w, w.active_controller().unwrap(), 1).0;
        let texts: Vec<&str> = blm.iter().map(|l| l.message.as_str()).collect();
        assert_eq!(
            texts,
            vec![
                format!(
                    "Incarnation {incarnation} of broker 1 in cluster {cluster} is now STARTING."
                ),
                format!("Successfully registered broker 1 with broker epoch {epoch}"),
                "The broker has caught up. Transitioning from STARTING to RECOVERY.".into(),
                "The broker has been unfenced. Transitioning from RECOVERY to RUNNING.".into(),
            ],
            "seed {seed}"
        );
        assert!(blm[0]
            .to_string()
            .ends_with("(org.apache.kafka.server.BrokerLifecycleManager)"));
        let at = |m: &str| {
            blm.iter()
                .find(|l| l.message.starts_with(m))
                .unwrap()
                .time_ms
        };
        let registered = at("Successfully registered");
        let caught_up = at("The broker has caught up");
        let unfenced = at("The broker has been unfenced");
        // At once after the registration, 10 ms after each answer while STARTING, at once
        // when caught up (setReadyToUnfence), then every 2 s after the answer.
        assert_eq!(sent[0].0, registered, "seed {seed}: {sent:?}");
        for &(t, state, answer) in &sent[1..] {
            let gap = t - answer;
            match state {
                "STARTING" => {
                    assert_eq!(gap, 10, "seed {seed}: {sent:?}");
                    starting_gaps += 1;
                }
                "RECOVERY" if answer == caught_up => assert_eq!(gap, 0, "{sent:?}"),
                _ => assert_eq!(gap, 2_000, "seed {seed}: {state} {sent:?}"),
            }
        }
        assert!(sent.iter().any(|s| s.0 == caught_up));
        assert!(unfenced > caught_up);
        if lag {
            assert!(
                sent.iter().filter(|s| s.1 == "STARTING").count() > 10,
                "{sent:?}"
            );
        }
        // Then SIGTERM: a RUNNING broker that leads nothing is told to shut down at once.
        let t = w.now_ms();
        w.terminate(1).unwrap();
        run_traced(&mut w, &mut c, 3_000);
        let after: Vec<(String, &'static str, String)> = log_lines(&w, 1)
            .into_iter()
            .filter(|l| l.time_ms >= t)
            .filter(|l| {
                l.logger == BLM
                    || l.logger == "org.apache.kafka.queue.KafkaEventQueue"
                    || l.logger == "org.apache.kafka.server.NodeToControllerChannelManagerImpl"
            })
            .map(|l| (l.prefix, l.logger, l.message))
            .collect();
        let p = "[BrokerLifecycleManager id=1] ".to_string();
        assert_eq!(
            after,
            vec![
                (p.clone(), BLM, "Beginning controlled shutdown.".into()),
                (
                    p.clone(),
                    BLM,
                    "The controller has asked us to exit controlled shutdown.".into()
                ),
                (
                    p.clone(),
                    "org.apache.kafka.queue.KafkaEventQueue",
                    "beginShutdown: shutting down event queue.".into()
                ),
                (
                    p.clone(),
                    BLM,
                    "Transitioning from PENDING_CONTROLLED_SHUTDOWN to SHUTTING_DOWN.".into()
                ),
                (
                    String::new(),
                    "org.apache.kafka.server.NodeToControllerChannelManagerImpl",
                    "Node to controller channel manager for heartbeat shutdown".into()
                ),
                (
                    p.clone(),
                    "org.apache.kafka.queue.KafkaEventQueue",
                    "closed event queue.".into()
                ),
            ],
            "seed {seed}"
        );
    }
    assert!(starting_gaps > 0, "no seed heartbeated while STARTING");
}

#[test]
fn a_broker_stopped_before_it_runs_skips_controlled_shutdown() {
    let mut w = world(3, &[100], &[1]);
    let mut c = InvariantChecker::new();
    // Before the controller is even elected, the broker is STARTING.
    run_traced(&mut w, &mut c, 1);
    assert_eq!(broker_state(&w, 1), Some("STARTING"));
    w.terminate(1).unwrap();
    run_traced(&mut w, &mut c, 10);
    let m = messages(&w, 1, BLM);
    assert_eq!(
        &m[m.len() - 2..],
        &[
            "Skipping controlled shutdown because we are in state STARTING.".to_string(),
            "Transitioning from STARTING to SHUTTING_DOWN.".to_string(),
        ]
    );
}

#[test]
fn controlled_shutdown_waits_for_lowest_active_offset_then_fences() {
    let mut w = world(5, &[100], &[1, 2, 3]);
    let mut c = InvariantChecker::new();
    run_traced(&mut w, &mut c, 5_000);
    create_topic(&mut w, &mut c, "orders", 1, 3);
    run_traced(&mut w, &mut c, 3_000);
    let leader = leader_of(&w, "orders", 0);
    let epoch = registration(&w, 100, leader).0;
    let before = records(&w, 100).len();
    // SIGTERM just after the other brokers heartbeated (they report again 2 s later), while
    // the leader has no heartbeat in flight (the answer to one would count as the first
    // PENDING_CONTROLLED_SHUTDOWN answer).
    let others: Vec<i32> = [1, 2, 3].into_iter().filter(|b| *b != leader).collect();
    let mut heard = Vec::new();
    let busy = |w: &World| {
        w.node(leader)
            .unwrap()
            .broker
            .as_ref()
            .unwrap()
            .communication_in_flight()
    };
    while heard.len() < others.len() || busy(&w) {
        let text = w.step_described().unwrap();
        c.check(&w).unwrap();
        for o in &others {
            if text.contains(&format!("deliver BrokerHeartbeatRequest {o} -> 100"))
                && !heard.contains(o)
            {
                heard.push(*o);
            }
        }
    }
    let t = w.now_ms();
    w.terminate(leader).unwrap();
    // The leader's heartbeats: (time sent, time of the answer before it).
    let mut sent: Vec<(u64, u64)> = Vec::new();
    if w.node(leader)
        .unwrap()
        .broker
        .as_ref()
        .unwrap()
        .last_heartbeat_ms
        == Some(t)
    {
        sent.push((t, t));
    }
    let mut last_answer = t;
    let mut trace = Vec::new();
    while w.next_event_time().is_some_and(|e| e <= t + 8_000) {
        let before = w
            .node(leader)
            .unwrap()
            .broker
            .as_ref()
            .and_then(|b| b.last_heartbeat_ms);
        let text = w.step_described().unwrap();
        c.check(&w).unwrap();
        if text.contains(&format!("BrokerHeartbeatResponse 100 -> {leader} ")) {
            last_answer = w.now_ms();
        }
        let now = w
            .node(leader)
            .unwrap()
            .broker
            .as_ref()
            .and_then(|b| b.last_heartbeat_ms);
        // (The process exits once told to: no manager, nothing sent.)
        if now.is_some() && now != before {
            sent.push((w.now_ms(), last_answer));
        }
        trace.push(text);
    }
    // At once, then 50 ms after the first PENDING_CONTROLLED_SHUTDOWN answer, then every 2 s.
    assert_eq!(sent[0].0, t, "{sent:?}");
    assert_eq!(sent[1].0 - sent[1].1, 50, "{sent:?}");
    assert!(
        sent[2..].iter().all(|(at, answer)| at - answer == 2_000),
        "{sent:?}"
    );
    assert!(sent.len() >= 3, "{sent:?}");
    let grant = line_starting(
        &w,
        100,
        &format!("Unfenced broker {leader} has requested and been granted a controlled shutdown."),
    )
    .expect("granted");
    assert_eq!(
        (grant.logger, grant.prefix.as_str(), grant.file),
        (BHM, "[QuorumController id=100] ", LogFile::Controller)
    );
    // handleBrokerInControlledShutdown: the v1 record, then leadership moved away.
    let recs = &records(&w, 100)[before..];
    let ics = recs
        .iter()
        .position(|(_, j)| j.contains("\"inControlledShutdown\":1"))
        .expect("in controlled shutdown");
    assert_eq!(recs[ics].1, format!("{{\"type\":\"BROKER_REGISTRATION_CHANGE_RECORD\",\"version\":1,\"data\":{{\"brokerId\":{leader},\"brokerEpoch\":{epoch},\"inControlledShutdown\":1}}}}"));
    let pcr = &recs[ics + 1].1;
    assert!(
        pcr.starts_with("{\"type\":\"PARTITION_CHANGE_RECORD\""),
        "{pcr}"
    );
    assert!(!pcr.contains(&format!("\"leader\":{leader}")), "{pcr}");
    let shutdown_offset = recs[ics + 1].0;
    // Released only once every other (active) broker reported that offset.
    let release = line_starting(&w, 100, &format!("The request from broker {leader} to shut down has been granted since the lowest active offset ")).expect("released");
    assert_eq!(release.logger, BHM);
    let lowest: i64 = release
        .message
        .split("lowest active offset ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        release.message.ends_with(&format!(
            "the broker's controlled shutdown offset {shutdown_offset}."
        )),
        "{}",
        release.message
    );
    assert!(lowest >= shutdown_offset);
    for &other in &others {
        let reported = heartbeats_delivered(&trace, other)
            .into_iter()
            .find(|(_, o)| *o >= shutdown_offset)
            .expect("reported");
        assert!(
            reported.0 <= release.time_ms,
            "{other} reported at {reported:?}"
        );
    }
    let waiting = messages(&w, leader, BLM)
        .iter()
        .filter(|m| m.starts_with("The broker is in PENDING_CONTROLLED_SHUTDOWN state"))
        .count();
    assert!(waiting >= 1, "it waited");
    assert!(release.time_ms > grant.time_ms + 2_000);
    // SHUTDOWN_NOW: handleBrokerFenced; out of every ISR already, so only the fence.
    let fence = recs
        .iter()
        .position(|(_, j)| j.contains("\"fenced\":1"))
        .expect("fenced");
    assert!(fence > ics);
    assert_eq!(recs[fence].1, format!("{{\"type\":\"BROKER_REGISTRATION_CHANGE_RECORD\",\"version\":0,\"data\":{{\"brokerId\":{leader},\"brokerEpoch\":{epoch},\"fenced\":1}}}}"));
    let exit = line_starting(
        &w,
        leader,
        "The controller has asked us to exit controlled shutdown.",
    )
    .expect("asked to exit");
    assert!(exit.time_ms >= release.time_ms && exit.time_ms > t);
}

#[test]
fn shutdown_of_follower_only_broker_is_immediate() {
    let mut w = world(5, &[100], &[1, 2, 3]);
    let mut c = InvariantChecker::new();
    run_traced(&mut w, &mut c, 5_000);
    create_topic(&mut w, &mut c, "orders", 1, 3);
    run_traced(&mut w, &mut c, 3_000);
    let leader = leader_of(&w, "orders", 0);
    let follower = [1, 2, 3].into_iter().find(|b| *b != leader).unwrap();
    let epoch = registration(&w, 100, follower).0;
    let before = records(&w, 100).len();
    w.terminate(follower).unwrap();
    run_traced(&mut w, &mut c, 3_000);
    assert!(messages(&w, 100, BHM).contains(&format!(
        "Unfenced broker {follower} has requested and been granted an immediate shutdown."
    )));
    assert!(!messages(&w, 100, BHM)
        .iter()
        .any(|m| m.contains("granted a controlled shutdown")));
    // handleBrokerFenced in one result: out of the ISR, then fenced.
    let recs = &records(&w, 100)[before..];
    let fence = recs
        .iter()
        .position(|(_, j)| j.contains("\"fenced\":1"))
        .expect("fenced");
    assert_eq!(recs[fence].1, format!("{{\"type\":\"BROKER_REGISTRATION_CHANGE_RECORD\",\"version\":0,\"data\":{{\"brokerId\":{follower},\"brokerEpoch\":{epoch},\"fenced\":1}}}}"));
    let pcr = &recs[fence - 1];
    assert_eq!(pcr.0 + 1, recs[fence].0);
    assert!(pcr.1.starts_with("{\"type\":\"PARTITION_CHANGE_RECORD\""));
    assert!(
        !pcr.1.contains(&format!("{follower}]")) && !pcr.1.contains(&format!("{follower},")),
        "{}",
        pcr.1
    );
    let m = messages(&w, follower, BLM);
    assert!(!m.iter().any(|m| m.contains("still waiting")), "{m:?}");
    assert!(m.contains(&"The controller has asked us to exit controlled shutdown.".to_string()));
    assert_eq!(registration(&w, 100, follower), (epoch, true));
}

#[test]
fn caught_up_broker_writes_one_cordoned_dirs_record_per_incarnation() {
    let mut w = world(2, &[101, 102, 103], &[1, 2]);
    let mut c = InvariantChecker::new();
    run_traced(&mut w, &mut c, 8_000);
    let cordoned = |w: &World| -> Vec<String> {
        let active = w.active_controller().unwrap();
        records(w, active)
            .into_iter()
            .map(|r| r.1)
            .filter(|j| j.contains("cordonedLogDirs"))
            .collect()
    };
    let active = w.active_controller().unwrap();
    let mut expected: Vec<String> = [1, 2]
        .iter()
        .map(|b| {
            let epoch = registration(&w, active, *b).0;
            format!("{{\"type\":\"BROKER_REGISTRATION_CHANGE_RECORD\",\"version\":3,\"data\":{{\"brokerId\":{b},\"brokerEpoch\":{epoch},\"cordonedLogDirs\":[]}}}}")
        })
        .collect();
    let mut got = cordoned(&w);
    got.sort();
    assert_eq!(got, expected);
    // Replicated: a new active controller does not write it again.
    w.kill(active).unwrap();
    run_traced(&mut w, &mut c, 10_000);
    let now_active = w.active_controller().unwrap();
    assert_ne!(now_active, active);
    let mut got = cordoned(&w);
    got.sort();
    assert_eq!(got, expected);
    // A new incarnation registers with cordonedLogDirs null, so it is written once again.
    w.restart(active).unwrap();
    w.kill(1).unwrap();
    run_traced(&mut w, &mut c, 500);
    w.restart(1).unwrap();
    assert!(run_until(&mut w, &mut c, 30_000, |w| {
        broker_state(w, 1) == Some("RUNNING")
    }));
    run_traced(&mut w, &mut c, 1_000);
    let new_epoch = registration(&w, w.active_controller().unwrap(), 1).0;
    expected.push(format!("{{\"type\":\"BROKER_REGISTRATION_CHANGE_RECORD\",\"version\":3,\"data\":{{\"brokerId\":1,\"brokerEpoch\":{new_epoch},\"cordonedLogDirs\":[]}}}}"));
    expected.sort();
    let mut got = cordoned(&w);
    got.sort();
    assert_eq!(got, expected);
}

#[test]
fn two_stale_brokers_are_fenced_ten_ms_apart() {
    let mut w = world(1, &[100], &[1, 2, 3]);
    let mut c = InvariantChecker::new();
    run_traced(&mut w, &mut c, 5_000);
    create_topic(&mut w, &mut c, "orders", 1, 3);
    run_traced(&mut w, &mut c, 3_000);
    let before = records(&w, 100).len();
    w.stop(2).unwrap();
    w.stop(3).unwrap();
    run_traced(&mut w, &mut c, 13_000);
    let fencing: Vec<LogLine> = log_lines(&w, 100)
        .into_iter()
        .filter(|l| l.message.starts_with("Fencing broker "))
        .collect();
    assert_eq!(fencing.len(), 2, "{fencing:?}");
    assert!(fencing.iter().all(|l| l.logger == RCM));
    assert_eq!(fencing[1].time_ms - fencing[0].time_ms, 10);
    // One broker per run: each is its own result, PartitionChangeRecord then the fence.
    let recs = &records(&w, 100)[before..];
    let fences: Vec<usize> = recs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.1.contains("\"fenced\":1"))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(fences.len(), 2);
    for (line, &at) in fencing.iter().zip(&fences) {
        let id: i32 = line.message["Fencing broker ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let epoch = registration(&w, 100, id).0;
        assert_eq!(
            line.message,
            format!("Fencing broker {id} at epoch {epoch} because its session has timed out.")
        );
        assert!(recs[at].1.contains(&format!("\"brokerId\":{id},")));
        assert!(recs[at - 1]
            .1
            .starts_with("{\"type\":\"PARTITION_CHANGE_RECORD\""));
    }
    assert_eq!(fences[1], fences[0] + 2);
    assert!(registration(&w, 100, 2).1 && registration(&w, 100, 3).1);
    assert!(!registration(&w, 100, 1).1);
}

#[test]
fn a_restarted_broker_s_old_session_is_dealt_with_once() {
    let mut w = world(4, &[100], &[1, 2]);
    let mut c = InvariantChecker::new();
    run_traced(&mut w, &mut c, 6_000);
    let old = registration(&w, 100, 1).0;
    w.terminate(1).unwrap();
    assert!(run_until(&mut w, &mut c, 5_000, |w| w
        .node(1)
        .is_some_and(|n| n.process.name() == "killed")));
    // `start N` after `kill -TERM N`: the SHUTDOWN_NOW fenced the old registration.
    assert!(registration(&w, 100, 1).1);
    w.restart(1).unwrap();
    assert!(run_until(&mut w, &mut c, 20_000, |w| {
        broker_state(w, 1) == Some("RUNNING")
    }));
    let new = registration(&w, 100, 1).0;
    assert_ne!(old, new);
    run_traced(&mut w, &mut c, 12_000);
    // The old (id, epoch) session expires once: fenced (again) while it was current, or
    // removed as a previous epoch's; the new incarnation is never fenced by it.
    let m = messages(&w, 100, RCM);
    let fenced = format!("Fencing broker 1 at epoch {old} because its session has timed out.");
    let removed = format!(
        "Removing heartbeat tracker entry for broker 1 at previous epoch {old}. Current epoch is {new}"
    );
    let n = m.iter().filter(|l| **l == fenced || **l == removed).count();
    assert_eq!(n, 1, "{m:#?}");
    assert!(!m
        .iter()
        .any(|l| l.starts_with(&format!("Fencing broker 1 at epoch {new}"))));
    assert!(!registration(&w, 100, 1).1);
}

#[test]
fn a_broker_whose_heartbeats_are_lost_recovers_after_heal() {
    for (seed, how) in [(1, "block"), (2, "drop"), (3, "partition")] {
        let mut w = world(seed, &[100], &[1, 2]);
        let mut c = InvariantChecker::new();
        run_traced(&mut w, &mut c, 6_000);
        match how {
            "block" => w.block(1, 100).unwrap(),
            "drop" => w.add_drop_rule(DropRule {
                from: Some(1),
                to: Some(100),
                kind: MessageKind::from_name("BrokerHeartbeatRequest"),
            }),
            _ => w.partition(&[vec![1], vec![100, 2]]).unwrap(),
        }
        run_traced(&mut w, &mut c, 15_000);
        assert!(registration(&w, 100, 1).1, "{how}: fenced meanwhile");
        let m = messages(&w, 1, BLM);
        assert!(m.contains(
            &"Unable to send a heartbeat because the RPC got timed out before it could be sent."
                .to_string()
        ));
        let nc = messages(&w, 1, "org.apache.kafka.clients.NetworkClient");
        assert!(nc.contains(&"Disconnecting from node 100 due to request timeout.".to_string()));
        w.heal();
        assert!(
            run_until(&mut w, &mut c, 6_000, |w| !registration(w, 100, 1).1),
            "{how}: seed {seed} not unfenced within 6 s of the heal"
        );
        assert_eq!(broker_state(&w, 1), Some("RUNNING"));
    }
}

#[test]
fn a_broker_whose_registration_is_lost_registers_after_heal() {
    let mut w = world(6, &[100], &[1]);
    let mut c = InvariantChecker::new();
    w.add_drop_rule(DropRule {
        from: Some(1),
        to: Some(100),
        kind: MessageKind::from_name("BrokerRegistrationRequest"),
    });
    run_traced(&mut w, &mut c, 8_000);
    assert_eq!(broker_state(&w, 1), Some("STARTING"));
    assert!(messages(&w, 1, BLM).contains(
        &"Unable to register the broker because the RPC got timed out before it could be sent."
            .to_string()
    ));
    w.heal();
    assert!(run_until(&mut w, &mut c, 6_000, |w| broker_state(w, 1)
        == Some("RUNNING")));
}

/// A failover where the old active controller dies (`kill -9`): the brokers' Raft clients see
/// their connections refused, find the new leader from another voter, and their channels take
/// it from Raft at the next refused request, well within the session the new controller starts
/// for every unfenced broker as it activates.
#[test]
fn a_controller_failover_does_not_fence_brokers() {
    for seed in 0..6 {
        let mut w = world(seed, &[101, 102, 103], &[1, 2, 3]);
        let mut c = InvariantChecker::new();
        run_traced(&mut w, &mut c, 8_000);
        let old = w.active_controller().unwrap();
        w.kill(old).unwrap();
        run_traced(&mut w, &mut c, 25_000);
        let new = w.active_controller().expect("a new active controller");
        assert_ne!(new, old);
        for b in [1, 2, 3] {
            assert!(!registration(&w, new, b).1, "seed {seed}: {b} fenced");
            assert_eq!(broker_state(&w, b), Some("RUNNING"));
        }
        assert!(
            !records(&w, new)
                .iter()
                .any(|r| r.1.contains("\"fenced\":1")),
            "seed {seed}"
        );
        assert!(!messages(&w, new, RCM)
            .iter()
            .any(|m| m.starts_with("Fencing broker")));
        // The broker found the new controller through its Raft client.
        assert!(log_lines(&w, 1)
            .iter()
            .any(|l| l.message.starts_with(
                "Recorded new KRaft controller, from now on will use node localhost:"
            ) && l.message.contains(&format!("(id: {new} "))));
    }
}

/// A frozen active controller (`kill -STOP`): each request to it times out (2 s) before the
/// channel asks Raft again, and an observer may pick the frozen node again when it looks for
/// the new leader, so a broker can miss the new controller's first session and be fenced, as in
/// Kafka; it is unfenced by itself as soon as its heartbeats get through.
#[test]
fn brokers_come_back_after_the_active_controller_is_frozen() {
    for seed in 0..6 {
        let mut w = world(seed, &[101, 102, 103], &[1, 2, 3]);
        let mut c = InvariantChecker::new();
        run_traced(&mut w, &mut c, 8_000);
        let old = w.active_controller().unwrap();
        w.stop(old).unwrap();
        run_traced(&mut w, &mut c, 25_000);
        let new = w.active_controller().expect("a new active controller");
        assert_ne!(new, old);
        for b in [1, 2, 3] {
            assert!(!registration(&w, new, b).1, "seed {seed}: {b} fenced");
            assert_eq!(broker_state(&w, b), Some("RUNNING"));
        }
        // Thawed, the old leader's controller answers NOT_CONTROLLER; nobody is fenced anew.
        w.cont(old).unwrap();
        let fences = |w: &World| {
            records(w, new)
                .iter()
                .filter(|r| r.1.contains("\"fenced\":1"))
                .count()
        };
        let before = fences(&w);
        run_traced(&mut w, &mut c, 12_000);
        assert_eq!(fences(&w), before, "seed {seed}");
    }
}

#[test]
fn run_until_unfenced_waits_for_the_current_incarnation() {
    let mut w = world(4, &[100], &[1, 2]);
    let mut c = InvariantChecker::new();
    run_traced(&mut w, &mut c, 6_000);
    let unfenced = Condition::parse("unfenced=1", &w).unwrap();
    let fenced = Condition::parse("fenced=1", &w).unwrap();
    assert!(unfenced.holds(&w));
    w.kill(1).unwrap();
    // Killed: the registration the controller holds is what counts.
    assert!(unfenced.holds(&w));
    w.restart(1).unwrap();
    // The running process is a new incarnation, not registered yet: neither holds.
    assert!(!unfenced.holds(&w) && !fenced.holds(&w));
    assert!(run_until(&mut w, &mut c, 30_000, |w| unfenced.holds(w)));
    let (epoch, _) = registration(&w, 100, 1);
    let incarnation = w.node(1).unwrap().broker.as_ref().unwrap().incarnation_id();
    let reg = &controller_state(&w, 100).cluster.brokers;
    assert_eq!(reg.get(&1).unwrap().record.incarnation_id, incarnation);
    assert!(epoch > 0);
}

/// The controller gets the heartbeats but its replies are lost: the session stays alive (the
/// tracker is updated on receipt), the broker's requests time out after 2 s and are retried;
/// once replies get through again it carries on, RUNNING and unfenced throughout.
#[test]
fn a_broker_whose_heartbeat_replies_are_dropped_recovers() {
    for seed in [4, 5, 6] {
        let mut w = world(seed, &[100], &[1, 2]);
        let mut c = InvariantChecker::new();
        run_traced(&mut w, &mut c, 6_000);
        assert_eq!(broker_state(&w, 1), Some("RUNNING"));
        w.add_drop_rule(DropRule {
            from: Some(100),
            to: Some(1),
            kind: MessageKind::from_name("BrokerHeartbeatResponse"),
        });
        run_traced(&mut w, &mut c, 15_000);
        assert!(!registration(&w, 100, 1).1, "seed {seed}: fenced meanwhile");
        assert!(messages(&w, 1, BLM).contains(
            &"Unable to send a heartbeat because the RPC got timed out before it could be sent."
                .to_string()
        ));
        w.heal();
        let answered = |w: &World| {
            log_lines(w, 1)
                .iter()
                .filter(|l| l.message.starts_with("Unable to send a heartbeat"))
                .count()
        };
        let before = answered(&w);
        run_traced(&mut w, &mut c, 10_000);
        assert_eq!(
            answered(&w),
            before,
            "seed {seed}: still timing out after the heal"
        );
        assert_eq!(broker_state(&w, 1), Some("RUNNING"));
        assert!(!registration(&w, 100, 1).1);
    }
}

/// The registration reaches the controller (a RegisterBrokerRecord is written) but its reply
/// is lost: the broker stays STARTING, retries, and registers once replies get through.
#[test]
fn a_broker_whose_registration_reply_is_dropped_registers_after_heal() {
    let mut w = world(7, &[100], &[1]);
    let mut c = InvariantChecker::new();
    w.add_drop_rule(DropRule {
        from: Some(100),
        to: Some(1),
        kind: MessageKind::from_name("BrokerRegistrationResponse"),
    });
    run_traced(&mut w, &mut c, 8_000);
    assert_eq!(broker_state(&w, 1), Some("STARTING"));
    assert!(records(&w, 100)
        .iter()
        .any(|r| r.1.contains("\"type\":\"REGISTER_BROKER_RECORD\"")));
    w.heal();
    assert!(run_until(&mut w, &mut c, 8_000, |w| broker_state(w, 1)
        == Some("RUNNING")));
    assert!(!registration(&w, 100, 1).1);
}

/// Random message loss (10 %) for a while: brokers may be fenced, but once the network is
/// reliable again every broker is unfenced and RUNNING without help.
#[test]
fn brokers_recover_from_random_message_loss() {
    for seed in 0..4 {
        let mut w = world(seed, &[101, 102, 103], &[1, 2, 3]);
        let mut c = InvariantChecker::new();
        run_traced(&mut w, &mut c, 6_000);
        w.set_drop_rate(0.1);
        run_traced(&mut w, &mut c, 20_000);
        w.set_drop_rate(0.0);
        w.heal();
        run_traced(&mut w, &mut c, 20_000);
        let active = w.active_controller().expect("active controller");
        for b in [1, 2, 3] {
            assert!(!registration(&w, active, b).1, "seed {seed}: {b} fenced");
            assert_eq!(broker_state(&w, b), Some("RUNNING"), "seed {seed}: {b}");
        }
    }
}
