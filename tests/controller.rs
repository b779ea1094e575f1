//! The QuorumController on top of the Raft quorum: bootstrap, the write lifecycle, standbys
//! replaying, and the revert of uncommitted state when leadership is lost (article sections 3-4).

mod common;

use common::{
    admin, controller_lines, controller_state, controller_summary, create_topic_on,
    lifecycle_lines, metadata_types, run_checked, topic, world, world_from,
};
use kraft_core::common::api_keys::MessageKind;
use kraft_core::common::message::controller::{ApiError, ControllerRequest, ControllerResponse};
use kraft_core::common::uuid::Uuid;
use kraft_core::invariants::InvariantChecker;
use kraft_core::raft::batch::Record;
use kraft_core::sim::World;

#[test]
fn the_first_active_controller_bootstraps_an_empty_log_in_a_transaction() {
    let mut w = world(7, &[101, 102, 103], &[]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 4_000);
    let active = w.active_controller().expect("active controller");
    let types = metadata_types(&w, active);
    let names: Vec<&str> = types.iter().map(|t| t.1).collect();
    assert_eq!(
        &names[..12],
        &[
            "LeaderChange",
            "KRaftVersion",
            "KRaftVoters",
            "BEGIN_TRANSACTION_RECORD",
            "FEATURE_LEVEL_RECORD",
            "FEATURE_LEVEL_RECORD",
            "FEATURE_LEVEL_RECORD",
            "FEATURE_LEVEL_RECORD",
            "FEATURE_LEVEL_RECORD",
            "FEATURE_LEVEL_RECORD",
            "CONFIG_RECORD",
            "END_TRANSACTION_RECORD",
        ]
    );
    let registrations = names
        .iter()
        .filter(|n| **n == "REGISTER_CONTROLLER_RECORD")
        .count();
    assert_eq!(registrations, 3, "{names:?}");
    assert!(
        names.iter().filter(|n| **n == "NO_OP_RECORD").count() >= 4,
        "{names:?}"
    );
    let lines = controller_lines(&w, active).join("\n");
    assert!(
        lines.contains("Becoming the active controller at epoch 1, next write offset 3."),
        "{lines}"
    );
    assert!(lines.contains("Performing controller activation. The metadata log appears to be empty. Appending 6 bootstrap record(s) in metadata transaction at metadata.version 4.4-IV2 from bootstrap source 'bootstrap'."), "{lines}");
    // Every controller, standbys included, replayed the same records into the same state.
    let state = |id: i32| controller_summary(&w, id);
    for id in [101, 102, 103] {
        let l = controller_lines(&w, id).join("\n");
        assert!(
            l.contains("Replayed BeginTransactionRecord(name='Bootstrap records') at offset 3."),
            "{l}"
        );
        assert!(
            l.contains("Replayed a FeatureLevelRecord setting metadata.version to 4.4-IV2"),
            "{l}"
        );
        assert!(l.contains("Replayed ConfigRecord for ConfigResource(type=BROKER, name='') which set configuration min.insync.replicas to 1"), "{l}");
    }
    assert!(state(101).contains("feature metadata.version=33"));
}

#[test]
fn create_topics_writes_one_batch_that_every_controller_replays() {
    let mut w = world(7, &[101, 102, 103], &[1, 2, 3]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 5_000);
    let active = w.active_controller().unwrap();
    let r = admin(
        &mut w,
        &mut c,
        active,
        ControllerRequest::CreateTopics {
            topics: vec![topic("orders", 3, 3)],
        },
    );
    let ControllerResponse::CreateTopics {
        topics,
        error: None,
    } = r
    else {
        panic!("{r:?}")
    };
    assert_eq!(topics[0].error, None);
    let id = topics[0].topic_id.to_string();
    // TopicRecord and its PartitionRecords are one batch.
    let log = &w.node(active).unwrap().disk.metadata_log;
    let batch = log
        .batches()
        .iter()
        .find(|b| b.records.iter().any(|r| r.short_name() == "TOPIC_RECORD"))
        .unwrap();
    let names: Vec<&str> = batch.records.iter().map(|r| r.short_name()).collect();
    assert_eq!(
        names,
        [
            "TOPIC_RECORD",
            "PARTITION_RECORD",
            "PARTITION_RECORD",
            "PARTITION_RECORD"
        ]
    );
    if let Record::Metadata(m) = &batch.records[1] {
        let json = m.to_json();
        assert!(json.starts_with(&format!("{{\"type\":\"PARTITION_RECORD\",\"version\":2,\"data\":{{\"partitionId\":0,\"topicId\":\"{id}\",\"replicas\":[")), "{json}");
    }
    run_checked(&mut w, &mut c, 1_000);
    for n in [101, 102, 103] {
        let l = controller_lines(&w, n).join("\n");
        assert!(
            l.contains(&format!(
                "Replayed TopicRecord for topic orders with topic ID {id}."
            )),
            "{l}"
        );
        assert!(l.contains(&format!("Replayed PartitionRecord for new partition orders-0 with topic ID {id} and PartitionRegistration(replicas=[")), "{l}");
    }
    // Errors, as Kafka words them.
    let again = admin(
        &mut w,
        &mut c,
        active,
        ControllerRequest::CreateTopics {
            topics: vec![
                topic("orders", 1, 1),
                topic("bad name", 1, 1),
                topic("wide", 1, 4),
                topic("zero", 0, 1),
            ],
        },
    );
    let ControllerResponse::CreateTopics { topics, .. } = again else {
        panic!()
    };
    let errors: Vec<(ApiError, String)> = topics.into_iter().map(|t| t.error.unwrap()).collect();
    assert_eq!(
        errors[0],
        (
            ApiError::TopicAlreadyExists,
            "Topic 'orders' already exists.".into()
        )
    );
    assert_eq!(errors[1].0, ApiError::InvalidTopic);
    assert_eq!(errors[2], (ApiError::InvalidReplicationFactor, "Unable to replicate the partition 4 time(s): The target replication factor of 4 cannot be reached because only 3 broker(s) are registered or some brokers have all their log directories cordoned.".into()));
    assert_eq!(errors[3].0, ApiError::InvalidPartitions);
    // A standby refuses: NOT_CONTROLLER.
    let standby = [101, 102, 103].into_iter().find(|i| *i != active).unwrap();
    let r = admin(
        &mut w,
        &mut c,
        standby,
        ControllerRequest::CreateTopics {
            topics: vec![topic("payments", 1, 1)],
        },
    );
    assert!(
        matches!(
            r,
            ControllerResponse::CreateTopics {
                error: Some(ApiError::NotController),
                ..
            }
        ),
        "{r:?}"
    );
    // Delete.
    let r = admin(
        &mut w,
        &mut c,
        active,
        ControllerRequest::DeleteTopics {
            names: vec!["orders".into(), "nope".into()],
        },
    );
    let ControllerResponse::DeleteTopics { topics, .. } = r else {
        panic!()
    };
    assert_eq!(topics[0].error, None);
    assert_eq!(
        topics[1].error.as_ref().unwrap().0,
        ApiError::UnknownTopicOrPartition
    );
    run_checked(&mut w, &mut c, 1_000);
    for n in [101, 102, 103] {
        assert!(!controller_summary(&w, n).contains("topic orders"));
    }
}

/// Three controllers and three brokers; after 6 s the active controller is cut off from
/// everyone but the admin client, which asks it to create `payments`. Returns the world, its
/// checker, the old active controller and the request's correlation id.
fn cut_off_active_controller_creating_payments() -> (World, InvariantChecker, i32, u64) {
    let mut w = world(7, &[101, 102, 103], &[1, 2, 3]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 6_000);
    let old = w.active_controller().unwrap();
    let others: Vec<i32> = [101, 102, 103, 1, 2, 3]
        .into_iter()
        .filter(|i| *i != old)
        .collect();
    w.partition(&[vec![old], others]).unwrap();
    // The admin client still reaches the old active controller.
    let cid = w
        .admin_send(
            old,
            ControllerRequest::CreateTopics {
                topics: vec![topic("payments", 1, 1)],
            },
        )
        .unwrap();
    (w, c, old, cid)
}

#[test]
fn a_cut_off_active_controller_reverts_its_uncommitted_topic_and_the_client_gets_not_controller() {
    let (mut w, mut c, old, cid) = cut_off_active_controller_creating_payments();
    run_checked(&mut w, &mut c, 200);
    let ctrl = w.node(old).unwrap().controller.as_ref().unwrap();
    assert!(
        ctrl.state.summary().contains("topic payments"),
        "replayed before commit"
    );
    let epochs = ctrl.offset_control.snapshot_registry.epochs_list();
    assert!(
        epochs.len() >= 2,
        "a snapshot per uncommitted append: {epochs:?}"
    );
    assert!(
        w.admin_response(cid).is_none(),
        "not committed, not answered"
    );
    // The majority elects a new leader; the old one resigns (check quorum) and later learns.
    run_checked(&mut w, &mut c, 8_000);
    let new = w.active_controller().unwrap();
    assert_ne!(new, old);
    let r = w.admin_response(cid).cloned();
    assert!(
        matches!(
            r,
            Some(ControllerResponse::CreateTopics {
                error: Some(ApiError::NotController),
                ..
            })
        ),
        "{r:?}"
    );
    let old_ctrl = w.node(old).unwrap().controller.as_ref().unwrap();
    assert!(!old_ctrl.is_active());
    assert!(!old_ctrl.state.summary().contains("payments"), "reverted");
    let lines = controller_lines(&w, old).join("\n");
    assert!(lines.contains("writeNoOpRecord: event failed with NotLeaderException (treated as NotControllerException) at epoch 1 in 120 microseconds. Renouncing leadership and reverting to the last committed offset "), "{lines}");
    // The page's TimelineHashMap panel names that revert and the snapshots it dropped.
    let view = w.view();
    let tl = &view.nodes.iter().find(|n| n.id == old).unwrap();
    let tl = &tl.controller.as_ref().unwrap().topics_by_name;
    let revert = tl.last_revert.as_ref().expect("the view names the revert");
    assert!(
        lines.contains(&format!(
            "reverting to the last committed offset {}. Exception message",
            revert.to
        )),
        "{revert:?}"
    );
    for e in epochs.iter().filter(|&&e| e > revert.to) {
        assert!(revert.dropped.contains(e), "{e} not in {revert:?}");
    }
    assert!(!revert.dropped.is_empty());
    assert!(tl.current.iter().all(|(name, _)| name != "payments"));
    let new_state = controller_summary(&w, new);
    assert!(
        !new_state.contains("payments"),
        "the new leader never had it"
    );
    w.heal();
    run_checked(&mut w, &mut c, 5_000);
    assert!(!controller_summary(&w, old).contains("payments"));
    let names: Vec<&str> = metadata_types(&w, old).iter().map(|t| t.1).collect();
    assert!(
        !names.contains(&"TOPIC_RECORD"),
        "truncated away: {names:?}"
    );
}

/// The article's example 4, as far as the controller goes: a frozen broker is fenced 7-10 s
/// after the freeze (session 9 s, check every 1.125 s), first leaving the ISR, then fenced;
/// thawed, it heartbeats again and is unfenced.
#[test]
fn a_frozen_broker_is_fenced_after_its_session_times_out_and_unfenced_when_thawed() {
    let mut w = world(4, &[100], &[1, 2, 3]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 4_000);
    let topic_id = create_topic_on(&mut w, &mut c, 100, "orders", 1, 3).to_string();
    run_checked(&mut w, &mut c, 1_000);
    let frozen_at = w.now_ms();
    w.stop(3).unwrap();
    run_checked(&mut w, &mut c, 15_000);
    let fence = w
        .node(100)
        .unwrap()
        .log
        .lines()
        .find(|l| l.message.starts_with("Fencing broker 3 at epoch "))
        .expect("fenced")
        .clone();
    let after = fence.time_ms - frozen_at;
    assert!(
        (7_000..=10_200).contains(&after),
        "fenced {after} ms after the freeze"
    );
    let epoch = controller_state(&w, 100)
        .cluster
        .brokers
        .get(&3)
        .unwrap()
        .record
        .broker_epoch;
    assert_eq!(
        fence.message,
        format!("Fencing broker 3 at epoch {epoch} because its session has timed out.")
    );
    // The records, in handleBrokerFenced's order, NoOps left out.
    let json: Vec<String> = w
        .node(100)
        .unwrap()
        .disk
        .metadata_log
        .batches()
        .iter()
        .flat_map(|b| b.records.iter())
        .filter_map(|r| match r {
            Record::Metadata(m) if m.type_name() != "NO_OP_RECORD" => Some(m.to_json()),
            _ => None,
        })
        .collect();
    let at = json
        .iter()
        .position(|j| j.contains("\"fenced\":1"))
        .expect("fence record");
    let isr = json[at - 1].clone();
    assert!(isr.starts_with(&format!("{{\"type\":\"PARTITION_CHANGE_RECORD\",\"version\":2,\"data\":{{\"partitionId\":0,\"topicId\":\"{topic_id}\",\"isr\":[")), "{isr}");
    let list = &isr[isr.find("\"isr\":[").unwrap() + 7..];
    let members: Vec<&str> = list[..list.find(']').unwrap()].split(',').collect();
    assert_eq!(members.len(), 2, "{isr}");
    assert!(!members.contains(&"3"), "{isr}");
    assert_eq!(json[at], format!("{{\"type\":\"BROKER_REGISTRATION_CHANGE_RECORD\",\"version\":0,\"data\":{{\"brokerId\":3,\"brokerEpoch\":{epoch},\"fenced\":1}}}}"));
    // Thaw: the next heartbeat unfences it.
    w.cont(3).unwrap();
    run_checked(&mut w, &mut c, 5_000);
    let unfenced = w
        .node(100)
        .unwrap()
        .disk
        .metadata_log
        .batches()
        .iter()
        .flat_map(|b| b.records.iter())
        .filter_map(|r| match r {
            Record::Metadata(m) => Some(m.to_json()),
            _ => None,
        })
        .any(|j| j == format!("{{\"type\":\"BROKER_REGISTRATION_CHANGE_RECORD\",\"version\":0,\"data\":{{\"brokerId\":3,\"brokerEpoch\":{epoch},\"fenced\":-1}}}}"));
    assert!(unfenced);
}

/// An idle partition's follower that stops fetching stays in the ISR: with nothing produced
/// its end offset is the leader's, and `isCaughtUp` (ReplicaState.java:62-67) holds at the
/// leader's LEO whatever the time since its last fetch. The shrink after
/// replica.lag.time.max.ms needs writes behind it (tests/data_plane.rs shows it).
#[test]
fn an_idle_partitions_follower_that_stops_fetching_stays_in_the_isr() {
    let mut w = world(4, &[100], &[1, 2, 3]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 4_000);
    create_topic_on(&mut w, &mut c, 100, "orders", 1, 3);
    run_checked(&mut w, &mut c, 1_000);
    let isr = |w: &World| {
        let ctrl = w.node(100).unwrap().controller.as_ref().unwrap();
        let id = *ctrl.state.replication.topics_by_name.get("orders").unwrap();
        let t = ctrl.state.replication.topics.get(&id).unwrap();
        (t.parts[&0].isr.clone(), t.parts[&0].leader)
    };
    let (full, leader) = isr(&w);
    assert_eq!(full.len(), 3);
    let follower = [1, 2, 3].into_iter().find(|b| *b != leader).unwrap();
    w.add_drop_rule(kraft_core::sim::network::DropRule {
        from: Some(follower),
        to: Some(leader),
        kind: MessageKind::from_name("ReplicaFetchRequest"),
    });
    run_checked(&mut w, &mut c, 60_000);
    let (kept, _) = isr(&w);
    assert!(kept.contains(&follower), "{kept:?}");
}

/// Item 8: Raft resigns on its check-quorum timer without telling its listener; the
/// controller learns it from its next write (the NoOp), which fails with NotLeaderException:
/// handleEventException logs INFO and renounces (fails the purgatory, deactivates the periodic
/// tasks). The WARN "Renouncing the leadership due to a metadata log event" is not logged: by
/// the time Raft leaves Resigned, the controller is already in standby.
#[test]
fn resigned_raft_leader_is_renounced_by_the_failing_noop() {
    let (mut w, mut c, old, _) = cut_off_active_controller_creating_payments();
    run_checked(&mut w, &mut c, 8_000);
    let node = w.node(old).unwrap();
    let resigned_ms = node
        .log
        .lines()
        .find(|l| {
            l.message
                .starts_with("Completed transition to ResignedState")
        })
        .expect("Raft resigned")
        .time_ms;
    let lines: Vec<_> = node.log.lines().collect();
    let at = |text: &str| {
        lines
            .iter()
            .position(|l| l.message.contains(text))
            .unwrap_or_else(|| panic!("no line with {text:?}"))
    };
    assert!(lines.iter().any(|l| l.message
        == "Activated periodic tasks: electPreferred, electUnclean, expireDelegationTokens, generatePeriodicPerformanceMessage, maybeFenceStaleBroker, writeNoOpRecord"
        && l.logger == "org.apache.kafka.controller.PeriodicTaskControlManager"));
    let noop = lines[at("writeNoOpRecord: event failed with")];
    let committed = w
        .node(old)
        .unwrap()
        .controller
        .as_ref()
        .unwrap()
        .offset_control
        .last_committed_offset;
    assert_eq!(
        noop.message,
        format!("writeNoOpRecord: event failed with NotLeaderException (treated as NotControllerException) at epoch 1 in 120 microseconds. Renouncing leadership and reverting to the last committed offset {committed}. Exception message: Append failed because the replica is not the current leader")
    );
    assert_eq!(noop.logger, "org.apache.kafka.controller.QuorumController");
    assert_eq!(noop.file.name(), "controller.log");
    assert!(
        noop.time_ms > resigned_ms && noop.time_ms <= resigned_ms + 500,
        "the next NoOp (every 500 ms) fails: resigned {resigned_ms}, failed {}",
        noop.time_ms
    );
    // The write waiting in the purgatory fails with NOT_CONTROLLER.
    let fail_all = lines[at("failAll(NotControllerException): failing createTopics(")];
    assert_eq!(
        fail_all.logger,
        "org.apache.kafka.deferred.DeferredEventQueue"
    );
    assert_eq!(fail_all.file.name(), "server.log");
    assert!(fail_all.message.ends_with(").") && fail_all.time_ms == noop.time_ms);
    let failed = lines[at("createTopics: event failed with NotControllerException in ")];
    let us: u64 = failed.message
        ["createTopics: event failed with NotControllerException in ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        us > 1_000_000 && us % 1000 == 120,
        "it waited in the purgatory: {us}"
    );
    assert!(failed
        .message
        .ends_with(" microseconds. Exception message: No controller appears to be active."));
    let deactivated = at("Deactivated periodic tasks: electPreferred, electUnclean, expireDelegationTokens, generatePeriodicPerformanceMessage, maybeFenceStaleBroker, writeNoOpRecord");
    assert!(at("writeNoOpRecord: event failed") < at("failAll(") && at("failAll(") < deactivated);
    assert!(
        !lines
            .iter()
            .any(|l| l.message.contains("metadata log event")),
        "no WARN: the controller renounced before Raft left Resigned"
    );
    // Raft later leaves Resigned for the next epoch: a standby just notes it.
    assert!(lines[deactivated..]
        .iter()
        .any(|l| l.message == "In the new epoch 2, the leader is (none)."));
    // A write reaching the standby is refused and logged as Kafka does.
    let ctrl = w.node(old).unwrap().controller.as_ref().unwrap();
    assert!(!ctrl.is_active());
    w.admin_send(
        old,
        ControllerRequest::CreateTopics {
            topics: vec![topic("later", 1, 1)],
        },
    )
    .unwrap();
    run_checked(&mut w, &mut c, 100);
    let last = controller_lines(&w, old)
        .into_iter()
        .rfind(|l| l.starts_with("createTopics: event failed"))
        .unwrap();
    assert!(
        last.starts_with("createTopics: event failed with NotControllerException in 120 microseconds. Exception message: "),
        "{last}"
    );
}

/// Item 12g: the activation WARN comes from the QuorumController's logger; on an empty log it
/// counts the bootstrap records (the six feature levels, not the min.insync.replicas
/// ConfigRecord), and every later activation over a non-empty log logs the bare line.
#[test]
fn activation_warn_on_empty_and_non_empty_log() {
    let mut w = world(7, &[101, 102, 103], &[]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 4_000);
    let first = w.active_controller().unwrap();
    let warns = |w: &World, id: i32| -> Vec<(String, &'static str)> {
        w.node(id)
            .unwrap()
            .log
            .lines()
            .filter(|l| l.message.starts_with("Performing controller activation"))
            .map(|l| {
                assert_eq!(format!("{:?}", l.level), "Warn");
                assert_eq!(l.file.name(), "controller.log");
                (l.message.clone(), l.logger)
            })
            .collect()
    };
    assert_eq!(
        warns(&w, first),
        [(
            "Performing controller activation. The metadata log appears to be empty. Appending 6 bootstrap record(s) in metadata transaction at metadata.version 4.4-IV2 from bootstrap source 'bootstrap'.".to_string(),
            "org.apache.kafka.controller.QuorumController"
        )]
    );
    w.kill(first).unwrap();
    run_checked(&mut w, &mut c, 6_000);
    let second = w.active_controller().unwrap();
    assert_ne!(second, first);
    assert_eq!(
        warns(&w, second),
        [(
            "Performing controller activation.".to_string(),
            "org.apache.kafka.controller.QuorumController"
        )]
    );
}

/// Item 12f: brokers and controllers register Kafka 4.5's seven production features with
/// their ranges; the RegisterControllerRecord lists them in QuorumFeatures' HashMap order (the
/// broker record uses the same fixed order), the registrations' toString sorts them.
#[test]
fn registrations_advertise_all_production_features() {
    let mut w = world(7, &[101, 102, 103], &[1]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 6_000);
    let active = w.active_controller().unwrap();
    let features = r#""features":[{"name":"group.version","minSupportedVersion":0,"maxSupportedVersion":1},{"name":"kraft.version","minSupportedVersion":0,"maxSupportedVersion":1},{"name":"metadata.version","minSupportedVersion":7,"maxSupportedVersion":33},{"name":"share.version","minSupportedVersion":0,"maxSupportedVersion":2},{"name":"streams.version","minSupportedVersion":0,"maxSupportedVersion":1},{"name":"transaction.version","minSupportedVersion":0,"maxSupportedVersion":2},{"name":"eligible.leader.replicas.version","minSupportedVersion":0,"maxSupportedVersion":1}]"#;
    let json: Vec<String> = w
        .node(active)
        .unwrap()
        .disk
        .metadata_log
        .batches()
        .iter()
        .flat_map(|b| b.records.iter())
        .filter_map(|r| match r {
            Record::Metadata(m) => Some(m.to_json()),
            _ => None,
        })
        .collect();
    let controller = json
        .iter()
        .find(|j| j.contains("REGISTER_CONTROLLER_RECORD"))
        .unwrap();
    assert!(
        controller.ends_with(&format!("{features}}}}}")),
        "{controller}"
    );
    let broker = json
        .iter()
        .find(|j| j.contains("REGISTER_BROKER_RECORD"))
        .unwrap();
    assert!(broker.contains(features), "{broker}");
    let sorted = "supportedFeatures={eligible.leader.replicas.version: 0-1, group.version: 0-1, kraft.version: 0-1, metadata.version: 7-33, share.version: 0-2, streams.version: 0-1, transaction.version: 0-2}";
    let lines = controller_lines(&w, active).join("\n");
    let registered = lines
        .lines()
        .find(|l| {
            l.starts_with(
                "Replayed RegisterControllerRecord containing ControllerRegistration(id=101,",
            )
        })
        .unwrap();
    assert!(
        registered.ends_with(&format!("listeners=[Endpoint(listenerName='CONTROLLER', securityProtocol=PLAINTEXT, host='localhost', port=9093)], {sorted}).")),
        "{registered}"
    );
    let ctrl = w.node(active).unwrap().controller.as_ref().unwrap();
    let b = ctrl.state.cluster.brokers.get(&1).unwrap();
    let text = kraft_core::metadata::broker_registration::broker_registration_text(&b.record);
    assert!(
        text.contains(&format!("{sorted}, rack=Optional.empty, ")),
        "{text}"
    );
    // The 4.5 broker reported its (empty) cordoned dirs once caught up: no longer null.
    assert!(text.ends_with(", cordonedDirectories=[])"), "{text}");
}

/// Item 11: controller.log's INFO lines as Kafka's managers write them. ClusterControlManager
/// logs "No previous registration found ..." / "Registering a new incarnation ..." when it
/// registers a broker and prints the generated record toString when it replays
/// RegisterBrokerRecord ("initial" / "establishing a new incarnation") and
/// BrokerRegistrationChangeRecord; ReplicationControlManager logs "CreateTopics result(s)" and
/// "handleBrokerFenced/Unfenced: changing N partition(s)".
#[test]
fn controller_log_replay_lines_match_kafka() {
    let mut w = world(4, &[100], &[1]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 4_000);
    create_topic_on(&mut w, &mut c, 100, "orders", 1, 1);
    run_checked(&mut w, &mut c, 1_000);
    let reg = |w: &World| {
        controller_state(w, 100)
            .cluster
            .brokers
            .get(&1)
            .unwrap()
            .record
            .clone()
    };
    let first = reg(&w);
    let (inc, epoch) = (first.incarnation_id, first.broker_epoch);
    w.stop(1).unwrap();
    run_checked(&mut w, &mut c, 15_000);
    w.cont(1).unwrap();
    run_checked(&mut w, &mut c, 5_000);
    w.kill(1).unwrap();
    run_checked(&mut w, &mut c, 1_000);
    w.restart(1).unwrap();
    run_checked(&mut w, &mut c, 20_000);
    let second = reg(&w);
    assert_ne!(second.incarnation_id, inc);
    // kill -9 left no clean-shutdown file: one record takes 1 out of the ELR first.
    let lines = controller_lines(&w, 100);
    let has = |l: &str| lines.iter().any(|x| x == l);
    let starts = |p: &str| lines.iter().find(|x| x.starts_with(p)).cloned();
    assert!(has(&format!("No previous registration found for broker 1. New incarnation ID is {inc}.  Generated 0 record(s) to clean up previous incarnations. New broker epoch is {epoch}.")), "{lines:#?}");
    let initial = starts("Replayed initial RegisterBrokerRecord for broker 1: ").unwrap();
    assert!(initial.contains(&format!("RegisterBrokerRecord(brokerId=1, isMigratingZkBroker=false, incarnationId={inc}, brokerEpoch={epoch}, endPoints=[BrokerEndpoint(name='PLAINTEXT', host='localhost', port=9092, securityProtocol=0)], features=[BrokerFeature(name='group.version', minSupportedVersion=0, maxSupportedVersion=1), ")), "{initial}");
    assert!(initial.ends_with(&format!(", rack=null, fenced=true, inControlledShutdown=false, logDirs=[{}], cordonedLogDirs=null)", first.log_dirs[0])), "{initial}");
    for fenced in [-1, 1] {
        assert!(has(&format!("Replayed BrokerRegistrationChangeRecord modifying the registration for broker 1: BrokerRegistrationChangeRecord(brokerId=1, brokerEpoch={epoch}, fenced={fenced}, inControlledShutdown=0, logDirs=[], cordonedLogDirs=null)")), "{lines:#?}");
    }
    assert!(has("CreateTopics result(s): CreatableTopic(name='orders', numPartitions=1, replicationFactor=1, assignments=[], configs=[]): SUCCESS"));
    assert!(
        has("handleBrokerFenced: changing 1 partition(s)"),
        "{lines:#?}"
    );
    assert!(
        has("handleBrokerUnfenced: changing 1 partition(s)"),
        "{lines:#?}"
    );
    assert!(has(&format!("Registering a new incarnation of broker 1. Previous incarnation ID was {inc}; new incarnation ID is {}. Generated 1 record(s) to clean up previous incarnations. Broker epoch will become {}.", second.incarnation_id, second.broker_epoch)), "{lines:#?}");
    assert!(starts(&format!("Replayed RegisterBrokerRecord establishing a new incarnation of broker 1: RegisterBrokerRecord(brokerId=1, isMigratingZkBroker=false, incarnationId={}, brokerEpoch={}, ", second.incarnation_id, second.broker_epoch)).is_some(), "{lines:#?}");
    // PartitionChangeRecord replay is DEBUG in Kafka (INFO only for a reassignment).
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("Replayed partition change")),
        "{lines:#?}"
    );
}

/// Issue 15: `metadata.max.idle.interval.ms=0` turns the controller's NoOp writes off, as in
/// Kafka (KafkaConfig.metadataMaxIdleIntervalNs is None and QuorumController never registers
/// writeNoOpRecord): 60 virtual seconds run in a bounded number of events, the quorum still
/// elects a leader and commits a topic, and no NoOpRecord is written.
#[test]
fn no_op_writes_are_off_when_max_idle_interval_is_zero() {
    let mut config = kraft_core::sim::WorldConfig::new(3, vec![101, 102, 103], vec![1]);
    config.controller.no_op_interval_ms = 0;
    let mut w = world_from(config);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 6_000);
    let active = w.active_controller().expect("an active controller");
    let r = admin(
        &mut w,
        &mut c,
        active,
        ControllerRequest::CreateTopics {
            topics: vec![topic("orders", 1, 1)],
        },
    );
    let ControllerResponse::CreateTopics { topics, .. } = r else {
        panic!()
    };
    assert!(topics[0].error.is_none(), "{topics:?}");
    let before = w.events_run();
    run_checked(&mut w, &mut c, 60_000);
    let events = w.events_run() - before;
    assert!(events < 200_000, "{events} events in 60 s");
    let lines = controller_lines(&w, active);
    assert!(lines.contains(&"Activated periodic tasks: electPreferred, electUnclean, expireDelegationTokens, generatePeriodicPerformanceMessage, maybeFenceStaleBroker".to_string()), "{lines:#?}");
    assert!(metadata_types(&w, active)
        .iter()
        .all(|(_, t)| *t != "NO_OP_RECORD"));
    assert!(metadata_types(&w, active)
        .iter()
        .any(|(_, t)| *t == "TOPIC_RECORD"));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Replayed TopicRecord for topic orders")));
}

/// Item 12b: ELR as PartitionChangeBuilder keeps it. Fencing the sole ISR member of an rf-1
/// partition leaves `isr=[], leader=-1` with the broker as ELR and last known ELR; when it is
/// unfenced, handleBrokerUnfenced elects it from the ELR (PartitionChangeBuilder's INFO line,
/// which has no QuorumController prefix) and clears ELR and lastKnownElr.
#[test]
fn fenced_sole_replica_is_reelected_from_the_elr() {
    let mut w = world(4, &[100], &[1]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 4_000);
    let id = create_topic_on(&mut w, &mut c, 100, "orders", 1, 1);
    run_checked(&mut w, &mut c, 1_000);
    w.stop(1).unwrap();
    run_checked(&mut w, &mut c, 15_000);
    w.cont(1).unwrap();
    run_checked(&mut w, &mut c, 5_000);
    let json: Vec<String> = w
        .node(100)
        .unwrap()
        .disk
        .metadata_log
        .batches()
        .iter()
        .flat_map(|b| b.records.iter())
        .filter_map(|r| match r {
            Record::Metadata(m) if m.type_name() == "PARTITION_CHANGE_RECORD" => Some(m.to_json()),
            _ => None,
        })
        .collect();
    assert_eq!(
        json,
        vec![
            format!("{{\"type\":\"PARTITION_CHANGE_RECORD\",\"version\":2,\"data\":{{\"partitionId\":0,\"topicId\":\"{id}\",\"isr\":[],\"leader\":-1,\"eligibleLeaderReplicas\":[1],\"lastKnownElr\":[1]}}}}"),
            format!("{{\"type\":\"PARTITION_CHANGE_RECORD\",\"version\":2,\"data\":{{\"partitionId\":0,\"topicId\":\"{id}\",\"isr\":[1],\"leader\":1,\"eligibleLeaderReplicas\":[],\"lastKnownElr\":[]}}}}"),
        ]
    );
    let line = w
        .node(100)
        .unwrap()
        .log
        .lines()
        .find(|l| l.message.starts_with("Setting new leader"))
        .expect("the PCB line")
        .clone();
    assert_eq!(line.prefix, "");
    assert_eq!(
        line.logger,
        "org.apache.kafka.controller.PartitionChangeBuilder"
    );
    assert!(line.message.starts_with(&format!("Setting new leader for topicId {id}, partition 0 to 1 using ELR. Previous partition: PartitionRegistration(replicas=[1], ")), "{}", line.message);
    assert!(line.message.ends_with(&format!("change record: PartitionChangeRecord(partitionId=0, topicId={id}, isr=null, leader=-2, replicas=null, removingReplicas=null, addingReplicas=null, leaderRecoveryState=-1, directories=null, eligibleLeaderReplicas=null, lastKnownElr=null)")), "{}", line.message);
}

/// The replicas, ISR and leader of every partition of `name` on controller 100.
fn placement_of(w: &World, name: &str) -> Vec<(Vec<i32>, Vec<i32>, i32)> {
    let ctrl = w.node(100).unwrap().controller.as_ref().unwrap();
    let id = *ctrl.state.replication.topics_by_name.get(name).unwrap();
    let t = ctrl.state.replication.topics.get(&id).unwrap();
    t.parts
        .values()
        .map(|p| (p.replicas.clone(), p.isr.clone(), p.leader))
        .collect()
}

#[test]
fn placement_uses_fenced_brokers_only_as_followers() {
    let mut w = world(4, &[100], &[1, 2, 3]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 4_000);
    // Freeze broker 3 until its session times out: fenced, but still registered and usable.
    w.stop(3).unwrap();
    run_checked(&mut w, &mut c, 15_000);
    assert!(controller_lines(&w, 100)
        .iter()
        .any(|l| l.starts_with("Fencing broker 3 at epoch ")));
    let r = admin(
        &mut w,
        &mut c,
        100,
        ControllerRequest::CreateTopics {
            topics: vec![topic("orders", 4, 3)],
        },
    );
    let ControllerResponse::CreateTopics { topics, .. } = r else {
        panic!("{r:?}")
    };
    assert_eq!(topics[0].error, None);
    run_checked(&mut w, &mut c, 500);
    let parts = placement_of(&w, "orders");
    assert_eq!(parts.len(), 4);
    for (replicas, isr, leader) in parts {
        // The fenced broker counts for the factor and takes the last replica, never the first.
        assert_eq!(replicas.len(), 3);
        assert_eq!(replicas[2], 3, "{replicas:?}");
        assert!(!isr.contains(&3), "{isr:?}");
        assert_eq!(isr, replicas[..2].to_vec());
        assert_eq!(leader, replicas[0]);
    }
}

#[test]
fn placement_with_every_broker_fenced_fails_with_kafkas_text() {
    let mut w = world(4, &[100], &[1, 2]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 4_000);
    w.stop(1).unwrap();
    w.stop(2).unwrap();
    run_checked(&mut w, &mut c, 15_000);
    let r = admin(
        &mut w,
        &mut c,
        100,
        ControllerRequest::CreateTopics {
            topics: vec![topic("orders", 1, 2), topic("wide", 1, 3)],
        },
    );
    let ControllerResponse::CreateTopics { topics, .. } = r else {
        panic!("{r:?}")
    };
    // numUnfenced == 0 is checked before the factor against the registered brokers.
    for t in &topics {
        let rf = if t.name == "wide" { 3 } else { 2 };
        assert_eq!(
            t.error,
            Some((
                ApiError::InvalidReplicationFactor,
                format!("Unable to replicate the partition {rf} time(s): All brokers are currently fenced, or have all their log directories cordoned.")
            ))
        );
    }
}

/// Every metadata record on controller 100's log from `from` on, as JSON with its offset.
fn records_from(w: &World, from: i64) -> Vec<(i64, String)> {
    let mut out = Vec::new();
    for b in w.node(100).unwrap().disk.metadata_log.batches() {
        for (i, r) in b.records.iter().enumerate() {
            let offset = b.base_offset + i as i64;
            if let (true, Record::Metadata(m)) = (offset >= from, r) {
                if m.type_name() != "NO_OP_RECORD" {
                    out.push((offset, m.to_json()));
                }
            }
        }
    }
    out
}

/// A one-broker cluster with the rf-1 topic orders, settled.
fn one_broker_with_orders() -> (World, InvariantChecker, Uuid) {
    let mut w = world(4, &[100], &[1]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 4_000);
    let orders = create_topic_on(&mut w, &mut c, 100, "orders", 1, 1);
    run_checked(&mut w, &mut c, 1_000);
    (w, c, orders)
}

fn next_offset(w: &World) -> i64 {
    w.node(100).unwrap().disk.metadata_log.end_offset()
}

const DUPLICATE: &str = "registerBroker: event failed with DuplicateBrokerRegistrationException in 120 microseconds. Exception message: Another broker is registered with that broker id. If the broker was recently restarted this should self-resolve once the heartbeat manager expires the broker's session.";

#[test]
fn unclean_restart_clears_isr_and_elr_before_register_record() {
    let (mut w, mut c, id) = one_broker_with_orders();
    let from = next_offset(&w);
    // kill -9: no clean-shutdown file, so previousBrokerEpoch is -1.
    w.kill(1).unwrap();
    run_checked(&mut w, &mut c, 3_000);
    assert_eq!(
        w.node(1).unwrap().disk.read_file(".kafka_cleanshutdown"),
        None
    );
    w.restart(1).unwrap();
    run_checked(&mut w, &mut c, 20_000);
    let lines = controller_lines(&w, 100);
    // While the old incarnation's session is valid the new one is refused; the broker retries.
    let dup = lines.iter().filter(|l| *l == DUPLICATE).count();
    assert!(dup >= 1, "{lines:#?}");
    let b = lifecycle_lines(&w, 1);
    assert!(b.iter().any(|l| l
        == "Unable to register broker 1 because the controller returned error DUPLICATE_BROKER_REGISTRATION"));
    // The session expires: fenced (ISR [] and ELR [1], rf 1), then the registration succeeds
    // and first cleans up after the unclean shutdown: 1 leaves the ELR.
    let fence = lines
        .iter()
        .position(|l| l == "Fencing broker 1 at epoch 13 because its session has timed out.")
        .expect("fenced");
    let cleanup = lines
        .iter()
        .position(|l| l == "handleBrokerUncleanShutdown: changing 1 partition(s)")
        .expect("clean-up");
    assert!(fence < cleanup);
    let recs = records_from(&w, from);
    let k = recs
        .iter()
        .position(|(_, j)| j.contains("\"type\":\"REGISTER_BROKER_RECORD\""))
        .expect("registered again");
    let (pcr_offset, pcr) = &recs[k - 1];
    assert_eq!(
        pcr,
        &format!("{{\"type\":\"PARTITION_CHANGE_RECORD\",\"version\":2,\"data\":{{\"partitionId\":0,\"topicId\":\"{id}\",\"eligibleLeaderReplicas\":[]}}}}")
    );
    // The broker epoch is the offset of the result's first record, the clean-up record.
    assert_eq!(recs[k].0, pcr_offset + 1);
    assert!(recs[k]
        .1
        .contains(&format!("\"brokerEpoch\":{pcr_offset},")));
    assert!(lines.iter().any(|l| l.ends_with(&format!(
        "Generated 1 record(s) to clean up previous incarnations. Broker epoch will become {pcr_offset}."
    ))));
    // Unfenced, 1 comes back as the last known ELR member: an unclean election.
    assert!(recs.iter().any(|(_, j)| j
        == &format!("{{\"type\":\"PARTITION_CHANGE_RECORD\",\"version\":2,\"data\":{{\"partitionId\":0,\"topicId\":\"{id}\",\"isr\":[1],\"leader\":1,\"leaderRecoveryState\":1,\"lastKnownElr\":[]}}}}")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("UNCLEAN partition change for orders-0")));
    assert_eq!(
        b.last().unwrap(),
        "The broker has been unfenced. Transitioning from RECOVERY to RUNNING."
    );
}

#[test]
fn clean_restart_keeps_elr() {
    let (mut w, mut c, id) = one_broker_with_orders();
    let from = next_offset(&w);
    // kill -TERM: controlled shutdown (rf 1: ISR [] and ELR [1]), then the LogManager writes
    // the clean-shutdown file with the broker epoch.
    w.terminate(1).unwrap();
    run_checked(&mut w, &mut c, 3_000);
    assert_eq!(
        w.node(1).unwrap().disk.read_file(".kafka_cleanshutdown"),
        Some("{\"version\":0,\"brokerEpoch\":13}")
    );
    w.restart(1).unwrap();
    run_checked(&mut w, &mut c, 20_000);
    // Loading the logs deleted it.
    assert_eq!(
        w.node(1).unwrap().disk.read_file(".kafka_cleanshutdown"),
        None
    );
    let lines = controller_lines(&w, 100);
    // The old session (last heartbeat at the shutdown) still refuses the new incarnation.
    assert!(lines.iter().any(|l| l == DUPLICATE));
    // previousBrokerEpoch 13 equals the stored epoch: a clean shutdown, handled as a fencing
    // (the broker is in no ISR), so no record and the ELR stays.
    assert!(lines.iter().any(
        |l| l.starts_with("Registering a new incarnation of broker 1.")
            && l.contains("Generated 0 record(s) to clean up previous incarnations.")
    ));
    assert!(!lines
        .iter()
        .any(|l| l.contains("handleBrokerUncleanShutdown")));
    let recs = records_from(&w, from);
    let k = recs
        .iter()
        .position(|(_, j)| j.contains("\"type\":\"REGISTER_BROKER_RECORD\""))
        .expect("registered again");
    assert!(!recs[k - 1].1.contains("PARTITION_CHANGE_RECORD"));
    // Unfenced, 1 is elected from the ELR (not an unclean election).
    assert!(recs.iter().any(|(_, j)| j
        == &format!("{{\"type\":\"PARTITION_CHANGE_RECORD\",\"version\":2,\"data\":{{\"partitionId\":0,\"topicId\":\"{id}\",\"isr\":[1],\"leader\":1,\"eligibleLeaderReplicas\":[],\"lastKnownElr\":[]}}}}")));
    assert!(!lines.iter().any(|l| l.starts_with("UNCLEAN")));
    assert_eq!(
        lifecycle_lines(&w, 1).last().unwrap(),
        "The broker has been unfenced. Transitioning from RECOVERY to RUNNING."
    );
}
