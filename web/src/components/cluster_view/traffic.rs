//! The traffic between the nodes: chatter (Fetch, heartbeats, replica fetches) folded into steady
//! links unless a lesson labels its kind, the rest as messages, and each link's one label on its
//! newest message.

use std::collections::BTreeMap;

use kraft_core::view::{ApiKeys, ClusterView, Direction, StateKind};
use yew::prelude::*;

use super::geometry::{fmt, segment, Geometry, CLIENT, CLIENT_RADIUS};
use super::messages::Drawn;

/// The link kinds drawn as steady links instead of one dot per message: Raft's Fetch, the
/// brokers' heartbeats, the data replicas' fetches and the clients' produce requests. Their
/// link class.
fn chatter(api: ApiKeys) -> Option<&'static str> {
    match api {
        ApiKeys::Fetch => Some("link-fetch"),
        ApiKeys::BrokerHeartbeat => Some("link-heartbeat"),
        ApiKeys::ReplicaFetch => Some("link-replica"),
        ApiKeys::Produce => Some("link-produce"),
        _ => None,
    }
}

/// The messages of `view` as drawn: chatter folded into links (unless its kind is labelled),
/// the rest as messages, each link's one label on its newest message.
pub(super) struct Traffic<'a> {
    /// (from, to, link class, failed) of each steady link.
    pub(super) links: Vec<(i32, i32, &'static str, bool)>,
    /// Messages and whether each carries its link's label.
    pub(super) messages: Vec<(Drawn<'a>, bool)>,
}

/// Whether `d` is a leader's routine BeginQuorumEpoch (it re-sends one every second) to a node
/// that already follows it: drawn, but without a label.
fn routine(view: &ClusterView, d: &Drawn) -> bool {
    if d.base != ApiKeys::BeginQuorumEpoch {
        return false;
    }
    let (leader, other) = match d.m.kind.direction {
        Direction::Response => (d.m.to, d.m.from),
        _ => (d.m.from, d.m.to),
    };
    view.nodes.iter().any(|n| {
        n.id == other && n.raft_state == Some(StateKind::Follower) && n.leader_id == Some(leader)
    })
}

/// The traffic of `view` as drawn, with the message kinds in `labels` drawn as messages.
pub(super) fn traffic<'a>(view: &'a ClusterView, labels: &[ApiKeys]) -> Traffic<'a> {
    let mut links: BTreeMap<(i32, i32, &'static str), bool> = BTreeMap::new();
    let mut messages: Vec<Drawn> = Vec::new();
    let all = view
        .recently_delivered
        .iter()
        .map(|m| Drawn::of(m, true))
        .chain(view.messages.iter().map(|m| Drawn::of(m, false)));
    // A message a node sends itself (a combined node's broker registering with its own
    // controller) crosses no link: it is not drawn.
    for d in all.filter(|d| d.from != d.to) {
        let labelled = labels.contains(&d.base);
        match chatter(d.base).filter(|_| !labelled) {
            Some(class) => {
                // A link points from the requester to the node it asks.
                let (from, to) = if d.m.kind.direction == Direction::Response {
                    (d.to, d.from)
                } else {
                    (d.from, d.to)
                };
                let failed = links.entry((from, to, class)).or_insert(false);
                // The newest message on the link says whether it fails.
                *failed = d.failed || d.m.dropped;
            }
            None => messages.push(d),
        }
    }
    // One label per link: the newest message between the pair carries it.
    let mut newest: BTreeMap<(i32, i32), (u64, u64)> = BTreeMap::new();
    for d in messages.iter().filter(|d| !routine(view, d)) {
        let key = (d.m.send_ms, d.m.id);
        let e = newest.entry(d.pair()).or_insert(key);
        if key > *e {
            *e = key;
        }
    }
    let messages = messages
        .into_iter()
        .map(|d| {
            let labelled = newest.get(&d.pair()) == Some(&(d.m.send_ms, d.m.id));
            (d, labelled)
        })
        .collect();
    Traffic {
        links: links
            .into_iter()
            .map(|((from, to, class), failed)| (from, to, class, failed))
            .collect(),
        messages,
    }
}

/// The clients' spot in the middle of the ring, while they produce: a dashed box named
/// `client` the produce links start from.
pub(super) fn draw_client(geo: &Geometry) -> Html {
    let Some(&(x, y)) = geo.pos.get(&CLIENT) else {
        return html! {};
    };
    html! {
        <g class="client-node" id="client-node" role="img" aria-label="client (producer)">
            <rect x={fmt(x - CLIENT_RADIUS * 1.6)} y={fmt(y - CLIENT_RADIUS * 0.7)} width={fmt(CLIENT_RADIUS * 3.2)}
                  height={fmt(CLIENT_RADIUS * 1.4)} rx="8" />
            <text x={fmt(x)} y={fmt(y)} text-anchor="middle" dominant-baseline="central">{"client"}</text>
        </g>
    }
}

/// A steady link for fetch or heartbeat chatter between two nodes: a line with dashes flowing
/// from the requester to the node it asks; dashed red with ✕ when its requests fail.
pub(super) fn draw_link(
    from: i32,
    to: i32,
    class: &'static str,
    failed: bool,
    geo: &Geometry,
) -> Html {
    let Some((sx, sy, ex, ey, _, _)) = segment(geo, from, to, 0.0) else {
        return html! {};
    };
    html! {
        <g class={classes!("link", class, failed.then_some("failed"))} data-from={from.to_string()}
           data-to={to.to_string()} data-link={class}>
            <line x1={fmt(sx)} y1={fmt(sy)} x2={fmt(ex)} y2={fmt(ey)} />
            if failed {
                <text class="drop-mark" x={fmt(ex)} y={fmt(ey)} text-anchor="middle" dominant-baseline="central">{"✕"}</text>
            }
        </g>
    }
}
