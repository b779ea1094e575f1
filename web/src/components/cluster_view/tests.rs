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
