//! Worlds run across a kill, a topic creation and a frozen broker, and the changes read back
//! from their views.

use super::*;
use crate::lesson::Console;
use crate::sim::{World, WorldConfig};
use crate::view::TimelineView;

fn find<'a>(changes: &'a [Change], kind: ChangeKind, tag: &str) -> Vec<&'a Change> {
    changes
        .iter()
        .filter(|c| c.kind == kind && c.tag == tag)
        .collect()
}

fn console(controllers: Vec<i32>, brokers: Vec<i32>, seed: u64) -> Console {
    let mut c = Console::new();
    c.world = Some(World::new(WorldConfig::new(seed, controllers, brokers)).unwrap());
    c
}

#[test]
fn nothing_changes_between_a_view_and_itself() {
    let mut w = World::new(WorldConfig::new(5, vec![101, 102, 103], vec![1])).unwrap();
    w.run_for(3_000);
    let v = w.view();
    assert_eq!(step_changes(&v, &v), []);
}

#[test]
fn a_kill_and_an_election_name_the_raft_methods() {
    let mut w = World::new(WorldConfig::new(22, vec![101, 102, 103], vec![1])).unwrap();
    w.run_for(5_000);
    let (old, _) = w.leader().expect("a leader");
    let before = w.view();
    w.kill(old).unwrap();
    w.run_for(15_000);
    let after = w.view();
    let (new, epoch) = w.leader().expect("a new leader");
    let changes = step_changes(&before, &after);
    let killed = find(&changes, ChangeKind::Process, "killed");
    assert_eq!(killed.len(), 1);
    assert_eq!(killed[0].nodes, [old]);
    assert_eq!(killed[0].kafka, None, "no Kafka code kills a process");
    let leader = find(&changes, ChangeKind::Transition, "Leader");
    assert_eq!(leader.len(), 1, "{changes:#?}");
    let l = leader[0];
    assert_eq!(l.nodes, [new]);
    assert_eq!(
        l.kafka,
        Some(
            "KafkaRaftClient.handleVoteResponse → onBecomeLeader → QuorumState.transitionToLeader"
        )
    );
    let src = l.source.expect("the article cites onBecomeLeader");
    assert_eq!(
        src.text(),
        "raft/src/main/java/org/apache/kafka/raft/KafkaRaftClient.java:L670-L673"
    );
    assert!(
        l.en.contains(&format!("Candidate → Leader (epoch {epoch})")),
        "{}",
        l.en
    );
    assert!(l.ko.contains("에포크"), "{}", l.ko);
    // The new leader got there by a fetch timeout and a PreVote majority.
    let prospective = find(&changes, ChangeKind::Transition, "Prospective");
    assert!(prospective.iter().any(|c| c.nodes == [new]
        && c.kafka
            == Some("KafkaRaftClient.pollFollowerAsVoter → QuorumState.transitionToProspective")));
    let candidate = find(&changes, ChangeKind::Transition, "Candidate");
    assert!(candidate.iter().any(|c| c.nodes == [new]
        && c.kafka
            .is_some_and(|k| k.ends_with("transitionToCandidate"))));
    // Transitions come in time order, and each durable one wrote quorum-state.
    let times: Vec<u64> = changes.iter().filter_map(|c| c.time_ms).collect();
    assert!(times.windows(2).all(|p| p[0] <= p[1]));
    let files = find(&changes, ChangeKind::File, "quorum-state");
    assert_eq!(
        files.len(),
        1,
        "one entry for the step's quorum-state writes"
    );
    assert!(files[0].nodes.contains(&new) && files[0].source.is_some());
    assert!(
        files[0].en.contains(&format!("votedId {new}")),
        "{}",
        files[0].en
    );
    // The other survivor voted for the new leader and follows it.
    let other = [101, 102, 103]
        .into_iter()
        .find(|i| *i != old && *i != new)
        .unwrap();
    assert!(find(&changes, ChangeKind::Transition, "Unattached")
        .iter()
        .any(|c| c.nodes == [other]
            && c.kafka
                .is_some_and(|k| k.starts_with("KafkaRaftClient.handleVoteRequest"))));
    assert!(find(&changes, ChangeKind::Transition, "Follower")
        .iter()
        .any(|c| c.nodes == [other]));
    // The new active controller, its start-of-epoch batch, its NoOps and commits.
    assert_eq!(
        find(&changes, ChangeKind::Controller, "active")[0].nodes,
        [new]
    );
    let appended: Vec<&Change> = changes
        .iter()
        .filter(|c| c.kind == ChangeKind::Append)
        .collect();
    assert!(appended.iter().any(|c| c.en.contains("LeaderChange")
        && c.kafka
            == Some(
                "KafkaRaftClient.onBecomeLeader → LeaderState.appendStartOfEpochControlRecords"
            )));
    assert!(appended.iter().any(|c| c.en.contains("NO_OP_RECORD")));
    assert_eq!(
        changes
            .iter()
            .filter(|c| c.kind == ChangeKind::Commit)
            .count(),
        1
    );
}

#[test]
fn a_topic_creation_appends_and_commits_its_records() {
    let mut c = console(vec![101, 102, 103], vec![1, 2, 3], 7);
    c.exec("run until=leader timeout=10s").unwrap();
    c.exec("sleep 3s").unwrap();
    let before = c.world.as_ref().unwrap().view();
    c.exec("kafka-topics.sh --bootstrap-server localhost:9092 --create --topic orders --partitions 3 --replication-factor 3")
        .unwrap();
    c.exec("sleep 200ms").unwrap();
    let after = c.world.as_ref().unwrap().view();
    let changes = step_changes(&before, &after);
    let topic = find(&changes, ChangeKind::Topic, "orders");
    assert_eq!(topic.len(), 1, "{changes:#?}");
    assert!(topic[0].en.contains("3 partition(s), replication factor 3"));
    assert!(topic[0]
        .kafka
        .unwrap()
        .starts_with("ReplicationControlManager.createTopics"));
    let append = changes
        .iter()
        .find(|c| c.kind == ChangeKind::Append && c.en.contains("TOPIC_RECORD"))
        .expect("the topic's batch appended");
    assert!(append.en.contains("PARTITION_RECORD ×3"), "{}", append.en);
    assert_eq!(
        append.kafka,
        Some("QuorumController.ControllerWriteEvent.run → KafkaRaftClient.prepareAppend")
    );
    assert_eq!(
        append.source.unwrap().url(),
        "https://github.com/apache/kafka/blob/ab1e816411/metadata/src/main/java/org/apache/kafka/controller/QuorumController.java#L792-L853"
    );
    let commit = find(&changes, ChangeKind::Commit, "")
        .into_iter()
        .chain(changes.iter().filter(|c| c.kind == ChangeKind::Commit))
        .find(|c| c.en.contains("TOPIC_RECORD"))
        .expect("the topic's records committed");
    assert!(commit.kafka.unwrap().starts_with("LeaderState"));
    // Everyone replicated it; the controllers and the loaders took it.
    assert!(changes
        .iter()
        .any(|c| c.kind == ChangeKind::Replicate && c.tag == "leo"));
    let applied: Vec<&str> = changes
        .iter()
        .filter(|c| c.kind == ChangeKind::Apply)
        .filter_map(|c| c.kafka)
        .collect();
    assert!(applied
        .iter()
        .any(|k| k.starts_with("QuorumController.QuorumMetaLogListener.handleCommit")));
    assert!(applied
        .iter()
        .any(|k| k.starts_with("MetadataLoader.handleCommit")));
    assert!(find(&changes, ChangeKind::Registry, "created")
        .iter()
        .any(|c| c.kafka.is_some_and(|k| k.contains("handleScheduleAppend"))));
}

#[test]
fn a_frozen_broker_is_fenced_by_the_stale_broker_check() {
    let mut c = console(vec![100], vec![1, 2, 3], 1);
    c.exec("run until=active-controller timeout=10s").unwrap();
    c.exec("sleep 4050ms").unwrap();
    c.exec("kafka-topics.sh --bootstrap-server localhost:9092 --create --topic orders --partitions 1 --replication-factor 3")
        .unwrap();
    c.exec("sleep 500ms").unwrap();
    c.exec("kill -STOP 3").unwrap();
    let before = c.world.as_ref().unwrap().view();
    c.exec("run until=fenced=3 timeout=15s").unwrap();
    let after = c.world.as_ref().unwrap().view();
    let changes = step_changes(&before, &after);
    let fenced = find(&changes, ChangeKind::Broker, "fenced");
    assert_eq!(fenced.len(), 1, "{changes:#?}");
    assert_eq!(fenced[0].nodes, [3]);
    let k = fenced[0].kafka.unwrap();
    assert!(
        k.starts_with("ReplicationControlManager.maybeFenceOneStaleBroker")
            && k.contains("BrokerHeartbeatManager.fence")
    );
    assert_eq!(
        fenced[0].source.unwrap().text(),
        "metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java:L1809-L1816"
    );
    let isr = changes
        .iter()
        .find(|c| c.kind == ChangeKind::Partition)
        .expect("orders-0 lost 3 from its ISR");
    assert!(isr.en.contains("ISR [1, 2, 3] → [1, 2]"), "{}", isr.en);
    assert!(isr
        .kafka
        .unwrap()
        .starts_with("ReplicationControlManager.handleBrokerFenced"));
    // Thawed, it is unfenced.
    let before = after;
    c.exec("kill -CONT 3").unwrap();
    c.exec("sleep 3s").unwrap();
    let changes = step_changes(&before, &c.world.as_ref().unwrap().view());
    assert_eq!(find(&changes, ChangeKind::Process, "running")[0].nodes, [3]);
    let unfenced = find(&changes, ChangeKind::Broker, "unfenced");
    assert!(unfenced[0].kafka.unwrap().ends_with("handleBrokerUnfenced"));
}

#[test]
fn a_standalone_timeline_reads_as_example_3() {
    let mut c = Console::new();
    let mut last: Option<TimelineView> = None;
    let mut step = |c: &mut Console, line: &str| {
        c.exec(line).unwrap();
        let now = c.timeline_view().expect("the map");
        let changes = timeline_changes(last.as_ref(), &now);
        last = Some(now);
        changes
    };
    let put = step(&mut c, "timeline put orders id-A");
    assert_eq!(put.len(), 1);
    assert_eq!(put[0].en, "put orders = id-A");
    let snap = step(&mut c, "timeline snapshot 10");
    assert_eq!(snap[0].en, "snapshot 10 created");
    step(&mut c, "timeline put payments id-B");
    step(&mut c, "timeline snapshot 11");
    step(&mut c, "timeline remove orders");
    step(&mut c, "timeline snapshot 12");
    let commit = step(&mut c, "timeline delete-up-to 11");
    assert!(commit
        .iter()
        .any(|x| x.en == "committed: snapshot(s) 10 deleted"
            && x.source
                .is_some_and(|s| s.text().ends_with("SnapshotRegistry.java:L297-L305"))));
    let revert = step(&mut c, "timeline revert 11");
    assert_eq!(
        revert.iter().filter(|x| x.tag == "revert").count(),
        1,
        "{revert:#?}"
    );
    assert!(revert
        .iter()
        .any(|x| x.tag == "restored" && x.en == "orders = id-A again"));
    assert_eq!(
        revert[0].tag, "revert",
        "the revert first, then what it brought back"
    );
    assert!(!revert.iter().any(|x| x.tag == "remove" || x.tag == "put"));
}
