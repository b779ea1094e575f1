//! The drawing's unit tests: message labels and classes, chatter folded into links.

use kraft_core::view::{ApiKeys, MessageKind, MessageView};

use super::messages::{message_class, message_label};
use super::traffic::traffic;

#[test]
fn labels_and_classes() {
    let label = |k: &str| message_label(MessageKind::from_name(k).unwrap());
    assert_eq!(label("FetchRequest"), "Fetch");
    assert_eq!(label("BeginQuorumEpochRequest"), "BeginQuorumEpoch");
    assert_eq!(label("VoteResponse"), "Vote resp");
    assert_eq!(message_class(ApiKeys::BeginQuorumEpoch), "msg-begin");
    assert_eq!(message_class(ApiKeys::BrokerHeartbeat), "msg-heartbeat");
    assert_eq!(label("BrokerHeartbeatResponse"), "heartbeat resp");
    assert_eq!(label("PreVoteRequest"), "PreVote");
    assert_eq!(message_class(ApiKeys::PreVote), "msg-prevote");
    assert_eq!(label("VoteFailed"), "Vote ✕");
    assert_eq!(message_class(ApiKeys::AlterPartition), "msg-alter");
    assert_eq!(message_class(ApiKeys::CreateTopics), "msg-other");
}

fn message(id: u64, from: i32, to: i32, kind: &str, send_ms: u64) -> MessageView {
    MessageView {
        id,
        from,
        to,
        kind: MessageKind::from_name(kind).unwrap(),
        fields: Default::default(),
        summary: "".into(),
        send_ms,
        arrive_ms: send_ms + 2,
        dropped: false,
    }
}

#[test]
fn chatter_becomes_links_and_each_link_has_one_label() {
    let mut w = kraft_core::sim::World::new(kraft_core::sim::WorldConfig::new(
        1,
        vec![101, 102, 103],
        vec![1],
    ))
    .unwrap();
    w.run_for(10);
    let mut view = w.view();
    view.messages = vec![
        message(1, 102, 101, "FetchRequest", 5),
        message(2, 101, 102, "FetchResponse", 6),
        message(3, 103, 101, "PreVoteRequest", 5),
        message(4, 101, 103, "PreVoteResponse", 7),
        message(5, 101, 102, "VoteFailed", 7),
    ];
    view.recently_delivered.clear();
    let t = traffic(&view, &[]);
    assert_eq!(t.links, [(102, 101, "link-fetch", false)]);
    let labelled: Vec<u64> = t
        .messages
        .iter()
        .filter(|(_, l)| *l)
        .map(|(d, _)| d.m.id)
        .collect();
    assert_eq!(labelled, [4, 5], "the newest message of each pair");
    let failed = t.messages.iter().find(|(d, _)| d.m.id == 5).unwrap();
    assert_eq!(
        (failed.0.from, failed.0.to, failed.0.failed),
        (102, 101, true),
        "a failed Vote is drawn as the request to the node that did not answer"
    );
    // A lesson that labels Fetch draws fetches as messages.
    let t = traffic(&view, &[ApiKeys::Fetch]);
    assert!(t.links.is_empty());
    assert_eq!(t.messages.len(), 5);
}

#[test]
fn produce_and_replica_fetches_are_steady_links_from_a_client_in_the_middle() {
    use super::geometry::{Geometry, CLIENT};
    let mut w =
        kraft_core::sim::World::new(kraft_core::sim::WorldConfig::new(1, vec![101], vec![1, 2]))
            .unwrap();
    w.run_for(10);
    let mut view = w.view();
    view.recently_delivered.clear();
    view.messages = vec![message(1, 2, 1, "ReplicaFetchRequest", 5)];
    assert!(!Geometry::of(&view).pos.contains_key(&CLIENT));
    view.messages
        .push(message(2, CLIENT, 1, "ProduceRequest", 6));
    view.messages
        .push(message(3, 1, CLIENT, "ProduceResponse", 7));
    let t = traffic(&view, &[]);
    assert_eq!(
        t.links,
        [
            (CLIENT, 1, "link-produce", false),
            (2, 1, "link-replica", false)
        ]
    );
    assert!(t.messages.is_empty());
    let geo = Geometry::of(&view);
    assert_eq!(geo.pos.get(&CLIENT), Some(&geo.center));
}

/// The console's auto-join cluster (101 `--standalone`, 102 and 103 add themselves) after
/// `ms` of virtual time.
fn auto_join(ms: &str) -> kraft_core::view::ClusterView {
    let mut c = kraft_core::lesson::Console::new();
    c.exec("set controller.quorum.auto.join.enable=true")
        .unwrap();
    c.exec("cluster controllers=101,102,103 brokers=1 quorum=standalone seed=11")
        .unwrap();
    c.exec(&format!("sleep {ms}")).unwrap();
    c.world.as_ref().unwrap().view()
}

/// The nodes' shapes and captions (what labels avoid) of `view`, after checking that none
/// covers another and all are inside the drawing.
fn nodes_apart(
    view: &kraft_core::view::ClusterView,
    geo: &super::geometry::Geometry,
    what: &str,
) -> Vec<super::labels::Rect> {
    use super::geometry::{HEIGHT, WIDTH};
    use super::labels::{obstacles, overlaps};
    let avoid = obstacles(view, geo);
    for (i, a) in avoid.iter().enumerate() {
        for b in &avoid[i + 1..] {
            assert!(!overlaps(*a, *b), "{what}: {a:?} and {b:?} overlap");
        }
        let inside = a.0 >= 0.0 && a.2 <= WIDTH && a.1 >= 0.0 && a.3 <= HEIGHT;
        assert!(inside, "{what}: {a:?} leaves the drawing");
    }
    avoid
}

#[test]
fn controllers_that_are_not_voters_stand_apart_and_nothing_overlaps() {
    use super::geometry::{Geometry, HEIGHT, WIDTH};
    use super::labels::overlaps;
    use super::quorum::{heading_rect, majority_spot, majority_text};
    let t = crate::i18n::QuorumText::of(crate::i18n::Lang::En);
    for (ms, voters, apart) in [
        ("1s", vec![101], vec![102, 103]),
        ("30s", vec![101, 102, 103], vec![]),
    ] {
        let view = auto_join(ms);
        assert_eq!(view.quorum.voters, voters, "after {ms}");
        let geo = Geometry::of(&view);
        let left = geo.observers_left;
        assert_eq!(left.is_some(), !apart.is_empty());
        for n in &view.nodes {
            let (x, y) = geo.pos[&n.id];
            assert!((0.0..=WIDTH).contains(&x) && (0.0..=HEIGHT).contains(&y));
            if let Some(left) = left {
                assert_eq!(x > left, apart.contains(&n.id), "node {} at x {x}", n.id);
            }
        }
        let avoid = nodes_apart(&view, &geo, ms);
        let text = majority_text(&view, t);
        assert_eq!(
            text,
            format!("majority {} of {}", voters.len() / 2 + 1, voters.len())
        );
        let (_, _, _, spot) = majority_spot(&text, &geo, &avoid);
        assert!(
            avoid.iter().all(|o| !overlaps(spot, *o)),
            "the majority covers a node"
        );
        if let Some(h) = heading_rect(&geo) {
            assert!(
                avoid.iter().all(|o| !overlaps(h, *o)),
                "the heading covers a node"
            );
            assert!(!overlaps(h, spot));
        }
    }
}

#[test]
fn many_observing_controllers_fit_in_columns() {
    use super::geometry::Geometry;
    for (controllers, brokers, apart) in [
        ("101,102,103,104", "1", 3),
        ("101,102,103,104,105", "1,2", 4),
    ] {
        let mut c = kraft_core::lesson::Console::new();
        c.exec(&format!(
            "cluster controllers={controllers} brokers={brokers} quorum=standalone seed=5"
        ))
        .unwrap();
        c.exec("sleep 2s").unwrap();
        let view = c.world.as_ref().unwrap().view();
        assert_eq!(view.quorum.observer_controllers.len(), apart);
        let geo = Geometry::of(&view);
        nodes_apart(&view, &geo, controllers);
    }
}
