//! Example 3 of the article on the KRaft controller (section 4, "예제 3: TimelineHashMap 을 직접
//! 써서 되돌리기"): the active controller applies records before they are committed, reads old
//! values as of a snapshot, drops snapshots as commits arrive, and reverts to the last committed
//! offset when it loses leadership. This replays the article's `Timeline.java` step by step
//! (QuorumController / OffsetControlManager order) and checks its output line for line.

use kraft_core::timeline::{SnapshotRegistry, TimelineHashMap};

/// The article's `print()`: the map's contents and `registry.epochsList()` on one line.
fn print(
    out: &mut Vec<String>,
    label: &str,
    map: &TimelineHashMap<String, String>,
    registry: &SnapshotRegistry,
) {
    out.push(format!(
        "{label} current={map} snapshots={:?}",
        registry.epochs_list()
    ));
}

/// Java's string concatenation of a possibly-null `String`.
fn java(value: Option<&String>) -> &str {
    value.map_or("null", String::as_str)
}

fn run() -> Vec<String> {
    let mut out = Vec::new();
    let mut registry = SnapshotRegistry::new();
    // Like ReplicationControlManager.topicsByName: topic name -> topic id.
    let mut topics_by_name: TimelineHashMap<String, String> = TimelineHashMap::new();

    // Offsets up to 10 are already committed.
    topics_by_name.put(&registry, "orders".into(), "id-A".into());
    // activate(): snapshot at the last committed offset (10) before becoming active.
    registry.idempotent_create_snapshot(10).unwrap();
    print(&mut out, "committed up to 10", &topics_by_name, &registry);

    // Record 11: TopicRecord(payments), then handleScheduleAppend(11) snapshots 11.
    topics_by_name.put(&registry, "payments".into(), "id-B".into());
    registry.idempotent_create_snapshot(11).unwrap();
    // Record 12: RemoveTopicRecord(orders), then snapshot 12.
    topics_by_name.remove(&registry, "orders");
    registry.idempotent_create_snapshot(12).unwrap();
    print(
        &mut out,
        "applied 11, 12 (not committed)",
        &topics_by_name,
        &registry,
    );

    // Past values stay readable: get(key, epoch).
    for epoch in [10, 11] {
        let orders = topics_by_name.get_at(&registry, "orders", epoch).unwrap();
        let payments = topics_by_name.get_at(&registry, "payments", epoch).unwrap();
        out.push(format!(
            " as of {epoch}: orders={} payments={}",
            java(orders),
            java(payments)
        ));
    }

    // Raft committed up to 11: maybeAdvanceLastStableOffset() drops snapshots older than 11.
    registry.delete_snapshots_up_to(11, &mut [&mut topics_by_name]);
    print(&mut out, "committed up to 11", &topics_by_name, &registry);

    // Leadership lost before 12 was committed: deactivate() reverts to the last committed offset.
    registry
        .revert_to_snapshot(11, &mut [&mut topics_by_name])
        .unwrap();
    print(
        &mut out,
        "lost leadership, reverted to 11",
        &topics_by_name,
        &registry,
    );
    out
}

#[test]
fn example3_output_matches_the_article() {
    // `Timeline.java` prints the two "as of" lines with one leading space
    // (`System.out.println(" as of 10: orders=" + ...)`); the article's plain-text copy of the
    // output loses leading whitespace, so the trimmed lines are checked against it too.
    let expected = [
        "committed up to 10 current={orders=id-A} snapshots=[10]",
        "applied 11, 12 (not committed) current={payments=id-B} snapshots=[10, 11, 12]",
        " as of 10: orders=id-A payments=null",
        " as of 11: orders=id-A payments=id-B",
        "committed up to 11 current={payments=id-B} snapshots=[11, 12]",
        "lost leadership, reverted to 11 current={orders=id-A, payments=id-B} snapshots=[11]",
    ];
    let article = "\
committed up to 10 current={orders=id-A} snapshots=[10]
applied 11, 12 (not committed) current={payments=id-B} snapshots=[10, 11, 12]
as of 10: orders=id-A payments=null
as of 11: orders=id-A payments=id-B
committed up to 11 current={payments=id-B} snapshots=[11, 12]
lost leadership, reverted to 11 current={orders=id-A, payments=id-B} snapshots=[11]";
    let out = run();
    assert_eq!(out, expected);
    let trimmed: Vec<&str> = out.iter().map(|l| l.trim_start()).collect();
    assert_eq!(trimmed.join("\n"), article);
}

#[test]
fn example3_history_after_each_step() {
    let mut registry = SnapshotRegistry::new();
    let mut map: TimelineHashMap<String, String> = TimelineHashMap::new();
    map.put(&registry, "orders".into(), "id-A".into());
    registry.idempotent_create_snapshot(10).unwrap();
    map.put(&registry, "payments".into(), "id-B".into());
    registry.idempotent_create_snapshot(11).unwrap();
    map.remove(&registry, "orders");
    registry.idempotent_create_snapshot(12).unwrap();
    // Tier 10 remembers that payments was absent; tier 11 holds the removed orders=id-A.
    assert_eq!(
        map.tiers(),
        vec![
            (10, vec![("payments".to_string(), None)]),
            (11, vec![("orders".to_string(), Some("id-A".to_string()))]),
        ]
    );
    // Reading at an offset that is not a snapshot is an error, as in Kafka.
    assert_eq!(
        map.get_at(&registry, "orders", 9).unwrap_err().to_string(),
        "No in-memory snapshot for epoch 9. Snapshot epochs are: 10, 11, 12"
    );
    registry.delete_snapshots_up_to(11, &mut [&mut map]);
    assert_eq!(map.tiers().len(), 1);
    registry.revert_to_snapshot(11, &mut [&mut map]).unwrap();
    assert!(map.tiers().is_empty());
    let view: Vec<(String, String)> = map
        .iter_at(&registry, 11)
        .unwrap()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    assert_eq!(
        view,
        [
            ("orders".to_string(), "id-A".to_string()),
            ("payments".to_string(), "id-B".to_string())
        ]
    );
}
