//! The cluster drawn for a room: the nodes on a ring (controllers as circles, brokers as boxes),
//! their Raft state, epoch and vote, brokers' BrokerState (FENCED when the active controller
//! fenced them) and their data partitions (ISR members plain, out of the ISR red); fetch and
//! heartbeat chatter as steady links, the messages that matter (votes, BeginQuorumEpoch, ...)
//! moving along their links with at most one label per link; failed requests as the request
//! with ✕ at the node that did not answer; cut lines where the network is partitioned; timers
//! and sessions as arcs that drain. Positions and arcs are interpolated to the played clock, so
//! the drawing moves every animation frame, not only when an event runs.

use std::collections::{BTreeMap, BTreeSet};
use std::f64::consts::PI;
use std::rc::Rc;

use kraft_core::lesson::stage::Highlight;
use kraft_core::view::{
    ClusterView, ControllerView, MessageView, NodeView, PartitionView, RaftTimerView,
    RECENT_MESSAGE_MS,
};
use yew::prelude::*;

use super::broker_panel::active_controller;
use super::controls::{heal_button, isolate_command, process_buttons};
use super::role_class;
use crate::state::Action;

/// The drawing's user units: the ring is an ellipse, wider than tall, to fill a stage column.
const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 600.0;
const CENTER_X: f64 = WIDTH / 2.0;
/// A little below the middle: room above for the top node's arcs and vote.
const CENTER_Y: f64 = HEIGHT / 2.0 - 10.0;
const RING_RX: f64 = 290.0;
const RING_RY: f64 = 190.0;
/// The ring is never flatter than this (a crowded drawing shrinks its nodes instead).
const RING_RY_MIN: f64 = 120.0;
/// A controller's circle.
const NODE_RADIUS: f64 = 60.0;
/// Half a broker's box.
const BROKER_HALF_W: f64 = 58.0;
const BROKER_HALF_H: f64 = 42.0;
/// Messages in each direction are drawn this far to the side of the centre line.
const LANE_OFFSET: f64 = 9.0;
/// Radius of the timer arc around a controller.
const TIMER_RADIUS: f64 = NODE_RADIUS + 9.0;
/// Radius of the timer arc around a broker's box (whose corners reach 72).
const TIMER_RADIUS_BROKER: f64 = 78.0;
/// Radius of the session arc around a broker, outside its fetch timer.
const SESSION_RADIUS: f64 = TIMER_RADIUS_BROKER + 10.0;
/// How far a label sits from the middle of its link, towards the centre of the ring.
const LABEL_OFFSET: f64 = 24.0;

/// Properties of [`ClusterDiagram`].
#[derive(Properties, PartialEq)]
pub struct ClusterDiagramProps {
    /// What to draw.
    pub view: Rc<ClusterView>,
    /// The played clock (virtual ms, fractional) positions and arcs are interpolated to.
    pub clock_ms: f64,
    /// The selected node (drawn with a glow).
    pub selected: i32,
    /// The node the stage focuses on, if any: the others are dimmed.
    #[prop_or_default]
    pub focus: Option<i32>,
    /// What the stage lights (nodes, sessions, partitions).
    #[prop_or_default]
    pub highlights: Rc<Vec<Highlight>>,
    /// Message kinds the lesson draws with a label on each message (fetch and heartbeats
    /// become messages then, not links).
    #[prop_or_default]
    pub labels: Rc<Vec<String>>,
    /// Changes when a lesson step runs: the node menu closes.
    #[prop_or_default]
    pub step_key: usize,
    /// The stage: the legend folds into a button over the drawing.
    #[prop_or_default]
    pub compact: bool,
    /// Called with a node id when the user clicks a node.
    pub on_select: Callback<i32>,
    /// Sends the node menu's process actions to the reducer.
    pub on_action: Callback<Action>,
}

/// How far (user units) a node's caption block reaches beyond its outer arc: the state line
/// (with a voter's vote) and a line per topic it holds a replica of.
fn caption_extent(topics: usize) -> f64 {
    CAPTION_GAP + CAPTION_LINE * (1 + topics) as f64
}

/// The first caption line's distance from a node's outer arc.
const CAPTION_GAP: f64 = 12.0;
/// The height of a caption line.
const CAPTION_LINE: f64 = 28.0;
/// The room kept free at the drawing's top and bottom edges.
const EDGE: f64 = 6.0;

/// The outer radius of a node's drawing (its timer, or a broker's session arc), unscaled.
fn outer_radius(broker_only: bool) -> f64 {
    if broker_only {
        SESSION_RADIUS
    } else {
        TIMER_RADIUS
    }
}

/// The ring: where each node sits (by node id) and which way its caption goes (-1 up for a node
/// in the upper half, 1 down for the rest, so that two nodes one above the other on a side keep
/// their captions apart). The nodes go evenly around an ellipse, the first at the top, as tall as
/// the captions of the top and bottom nodes let it be; one node alone sits in the middle, two
/// side by side.
pub fn layout(nodes: &[NodeView], partitions: &[PartitionView]) -> BTreeMap<i32, (f64, f64, f64)> {
    let topics = |id: i32| {
        let mut t: Vec<&str> = partitions
            .iter()
            .filter(|p| p.replicas.contains(&id))
            .map(|p| p.topic.as_str())
            .collect();
        t.dedup();
        t.len()
    };
    let below = 1.0;
    match nodes {
        [] => return BTreeMap::new(),
        [one] => return BTreeMap::from([(one.id, (CENTER_X, CENTER_Y, below))]),
        [a, b] => {
            return BTreeMap::from([
                (a.id, (CENTER_X - RING_RX * 0.6, CENTER_Y, below)),
                (b.id, (CENTER_X + RING_RX * 0.6, CENTER_Y, below)),
            ])
        }
        _ => {}
    }
    let n = nodes.len() as f64;
    let angles: Vec<f64> = (0..nodes.len())
        .map(|i| -PI / 2.0 + 2.0 * PI * i as f64 / n)
        .collect();
    let dir = |a: f64| if a.sin() < -0.01 { -1.0 } else { 1.0 };
    // Each node's reach above and below its centre: its arc, and its caption on its side.
    let reach: Vec<(f64, f64, f64)> = nodes
        .iter()
        .zip(&angles)
        .map(|(node, &a)| {
            let outer = outer_radius(!node.roles.contains("controller"));
            let cap = caption_extent(topics(node.id));
            let (up, down) = if dir(a) < 0.0 {
                (outer + cap, outer)
            } else {
                (outer, outer + cap)
            };
            (a.sin(), up, down)
        })
        .collect();
    // The tallest ring (and its centre) that keeps every node and caption inside the drawing.
    let fits = |ry: f64| -> Option<f64> {
        let lo = reach
            .iter()
            .map(|&(s, up, _)| EDGE + up - ry * s)
            .fold(f64::MIN, f64::max);
        let hi = reach
            .iter()
            .map(|&(s, _, down)| HEIGHT - EDGE - down - ry * s)
            .fold(f64::MAX, f64::min);
        (lo <= hi).then_some((lo + hi) / 2.0)
    };
    let mut ry = RING_RY;
    let cy = loop {
        if let Some(cy) = fits(ry) {
            break cy;
        }
        if ry <= RING_RY_MIN {
            break CENTER_Y;
        }
        ry -= 4.0;
    };
    nodes
        .iter()
        .zip(&angles)
        .map(|(node, &a)| {
            let x = CENTER_X + RING_RX * a.cos();
            let y = cy + ry * a.sin();
            (node.id, (x, y, dir(a)))
        })
        .collect()
}

/// A message kind split into its API and direction: `("Fetch", "req")`, `("Vote", "resp")`,
/// `("Fetch", "failed")`; a kind without a known suffix is all API.
pub fn split_kind(kind: &str) -> (&str, &str) {
    for (suffix, dir) in [
        ("Request", "req"),
        ("Response", "resp"),
        ("Failed", "failed"),
    ] {
        if let Some(base) = kind.strip_suffix(suffix) {
            return (base, dir);
        }
    }
    (kind, "")
}

/// The CSS class of a message kind: `msg-vote`, `msg-prevote`, `msg-fetch`, `msg-heartbeat`, …
pub fn message_class(kind: &str) -> &'static str {
    match split_kind(kind).0 {
        "Vote" => "msg-vote",
        "PreVote" => "msg-prevote",
        "BeginQuorumEpoch" => "msg-begin",
        "EndQuorumEpoch" => "msg-end",
        "Fetch" => "msg-fetch",
        "FetchSnapshot" => "msg-snapshot",
        "BrokerHeartbeat" => "msg-heartbeat",
        "AlterPartition" => "msg-alter",
        "ReplicaFetch" => "msg-replica",
        _ => "msg-other",
    }
}

/// A short label for a message kind: a request by its API (`PreVote`, `Vote`, `heartbeat`), a
/// response with `resp` (`Vote resp`), a failed request with ✕ (`Vote ✕`).
pub fn message_label(kind: &str) -> String {
    let (base, dir) = split_kind(kind);
    let base = match base {
        "BrokerHeartbeat" => "heartbeat",
        other => other,
    };
    match dir {
        "failed" => format!("{base} ✕"),
        "resp" => format!("{base} resp"),
        _ => base.to_string(),
    }
}

/// The link kinds drawn as steady links instead of one dot per message: Raft's Fetch, the
/// brokers' heartbeats and the data replicas' fetches. Their link class.
fn chatter(base: &str) -> Option<&'static str> {
    match base {
        "Fetch" => Some("link-fetch"),
        "BrokerHeartbeat" => Some("link-heartbeat"),
        "ReplicaFetch" => Some("link-replica"),
        _ => None,
    }
}

/// A message as drawn: a failed request (a failure the sender's client made up, "from" the
/// node that did not answer) is drawn as the request, towards that node, failing at its end.
struct Drawn<'a> {
    m: &'a MessageView,
    from: i32,
    to: i32,
    base: &'a str,
    failed: bool,
    delivered: bool,
}

impl<'a> Drawn<'a> {
    fn of(m: &'a MessageView, delivered: bool) -> Drawn<'a> {
        let (base, dir) = split_kind(&m.kind);
        let failed = dir == "failed";
        let (from, to) = if failed {
            (m.to, m.from)
        } else {
            (m.from, m.to)
        };
        Drawn {
            m,
            from,
            to,
            base,
            failed,
            delivered,
        }
    }

    /// Where along its link it is at `clock` (0 at the sender, 1 at the receiver).
    fn progress(&self, clock: f64) -> f64 {
        if self.delivered || self.failed {
            return 1.0;
        }
        let span = self.m.arrive_ms.saturating_sub(self.m.send_ms).max(1) as f64;
        ((clock - self.m.send_ms as f64) / span).clamp(0.0, 1.0)
    }

    /// The unordered pair of nodes it travels between.
    fn pair(&self) -> (i32, i32) {
        (self.from.min(self.to), self.from.max(self.to))
    }
}

/// The page draws a message delivered or dropped `age` ms ago with this opacity.
fn fade(age_ms: f64) -> f64 {
    (1.0 - age_ms / RECENT_MESSAGE_MS as f64).clamp(0.25, 1.0)
}

/// How far from a node's centre its outline is, in direction (ux, uy).
fn edge_distance(broker: bool, ux: f64, uy: f64, s: f64) -> f64 {
    if broker {
        let tx = if ux.abs() > 1e-9 {
            BROKER_HALF_W * s / ux.abs()
        } else {
            f64::MAX
        };
        let ty = if uy.abs() > 1e-9 {
            BROKER_HALF_H * s / uy.abs()
        } else {
            f64::MAX
        };
        tx.min(ty) + 4.0
    } else {
        NODE_RADIUS * s + 4.0
    }
}

/// The segment of the link from `a` to `b` between their outlines, shifted `lane` to the right
/// of the direction of travel: (sx, sy, ex, ey, ox, oy) with (ox, oy) the shift.
fn segment(geo: &Geometry, a: i32, b: i32, lane: f64) -> Option<(f64, f64, f64, f64, f64, f64)> {
    let (&(x1, y1), &(x2, y2)) = (geo.pos.get(&a)?, geo.pos.get(&b)?);
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let (ox, oy) = (-uy * lane, ux * lane);
    let (da, db) = (
        edge_distance(geo.broker(a), ux, uy, geo.scale),
        edge_distance(geo.broker(b), ux, uy, geo.scale),
    );
    Some((
        x1 + ux * da + ox,
        y1 + uy * da + oy,
        x2 - ux * db + ox,
        y2 - uy * db + oy,
        ox,
        oy,
    ))
}

/// Where the nodes are, which are brokers only, and how large nodes are drawn.
struct Geometry {
    pos: BTreeMap<i32, (f64, f64)>,
    /// Which way each node's caption goes: -1 up, 1 down.
    dir: BTreeMap<i32, f64>,
    brokers: BTreeSet<i32>,
    /// The nodes' size: 1, or less when the ring is so crowded that neighbours' arcs would
    /// touch.
    scale: f64,
}

impl Geometry {
    fn of(view: &ClusterView) -> Geometry {
        let placed = layout(&view.nodes, &view.partitions);
        let pos: BTreeMap<i32, (f64, f64)> = placed
            .iter()
            .map(|(id, &(x, y, _))| (*id, (x, y)))
            .collect();
        let dir = placed.iter().map(|(id, &(_, _, d))| (*id, d)).collect();
        // Neighbours' outer arcs must not touch (their captions go outward, away from each
        // other): the tightest pair sets the nodes' size.
        let points: Vec<(f64, f64, f64)> = view
            .nodes
            .iter()
            .filter_map(|n| {
                let &(x, y) = pos.get(&n.id)?;
                Some((x, y, outer_radius(!n.roles.contains("controller")) + 4.0))
            })
            .collect();
        let closest = points
            .iter()
            .enumerate()
            .flat_map(|(i, a)| {
                points[i + 1..]
                    .iter()
                    .map(move |b| (a.0 - b.0).hypot(a.1 - b.1) / (a.2 + b.2 + 8.0))
            })
            .fold(f64::MAX, f64::min);
        Geometry {
            pos,
            dir,
            brokers: view
                .nodes
                .iter()
                .filter(|n| !n.roles.contains("controller"))
                .map(|n| n.id)
                .collect(),
            scale: closest.clamp(0.5, 1.0),
        }
    }

    fn broker(&self, id: i32) -> bool {
        self.brokers.contains(&id)
    }
}

/// A message moving along its link (a dot; ✕ when dropped or failed), with its label when it
/// carries the link's one label.
fn draw_message(d: &Drawn, clock: f64, geo: &Geometry, label_at: Option<(f64, f64)>) -> Html {
    let Some((sx, sy, ex, ey, ox, oy)) = segment(geo, d.from, d.to, LANE_OFFSET) else {
        return html! {};
    };
    let m = d.m;
    let progress = d.progress(clock);
    let (state, opacity) = if d.delivered {
        ("delivered", fade(clock - m.arrive_ms as f64))
    } else if m.dropped {
        ("dropped", fade(clock - m.send_ms as f64))
    } else if d.failed {
        ("failed", fade(clock - m.send_ms as f64))
    } else {
        ("in-flight", 1.0)
    };
    let (px, py) = (sx + (ex - sx) * progress, sy + (ey - sy) * progress);
    let class = classes!(
        "message",
        message_class(&m.kind),
        (m.dropped || d.failed).then_some("dropped"),
        d.delivered.then_some("delivered")
    );
    let title = format!(
        "{} {} → {}: {} (sent {} ms, arrives {} ms){}",
        m.kind,
        m.from,
        m.to,
        m.summary,
        m.send_ms,
        m.arrive_ms,
        match state {
            "dropped" => " DROPPED",
            "failed" => " FAILED: no answer from the node",
            "delivered" => " delivered",
            _ => "",
        }
    );
    let label = message_label(&m.kind);
    let _ = (ox, oy);
    html! {
        <g class={class} data-message-id={m.id.to_string()} data-kind={m.kind.clone()}
           data-from={m.from.to_string()} data-to={m.to.to_string()} data-state={state}
           data-drawn-from={d.from.to_string()} data-drawn-to={d.to.to_string()}
           data-progress={format!("{progress:.3}")} opacity={format!("{opacity:.2}")}>
            <title>{ title }</title>
            <line class="track" x1={fmt(sx)} y1={fmt(sy)} x2={fmt(ex)} y2={fmt(ey)} marker-end="url(#arrow)" />
            <circle class="dot" cx={fmt(px)} cy={fmt(py)} r="9" />
            if m.dropped || d.failed {
                <text class="drop-mark" x={fmt(px)} y={fmt(py)} text-anchor="middle" dominant-baseline="central">{"✕"}</text>
            }
            if let Some((lx, ly)) = label_at {
                <text class="msg-label" x={fmt(lx)} y={fmt(ly)} text-anchor="middle" dominant-baseline="central"
                      data-label={label.clone()}>{ label }</text>
            }
        </g>
    }
}

/// A rectangle of the drawing: (left, top, right, bottom).
type Rect = (f64, f64, f64, f64);

fn overlaps(a: Rect, b: Rect) -> bool {
    a.0 < b.2 && a.2 > b.0 && a.1 < b.3 && a.3 > b.1
}

/// How wide (user units) a label of `text` is drawn: 1.15rem bold at the default 20 px root.
fn label_width(text: &str) -> f64 {
    text.chars().count() as f64 * 14.5 + 8.0
}

/// The height of a label (user units).
const LABEL_HEIGHT: f64 = 28.0;

/// What a label must not cover: every node's shape and the caption under it.
fn obstacles(view: &ClusterView, geo: &Geometry) -> Vec<Rect> {
    let s = geo.scale;
    view.nodes
        .iter()
        .filter_map(|n| {
            let &(x, y) = geo.pos.get(&n.id)?;
            let broker = geo.broker(n.id);
            let (hw, hh, outer) = if broker {
                (BROKER_HALF_W * s, BROKER_HALF_H * s, SESSION_RADIUS * s)
            } else {
                (NODE_RADIUS * s, NODE_RADIUS * s, TIMER_RADIUS * s)
            };
            let dir = geo.dir.get(&n.id).copied().unwrap_or(1.0);
            let caption_y = y + dir * (outer + CAPTION_GAP + CAPTION_LINE / 2.0);
            let caption_w = label_width(&n.raft_state).max(120.0);
            Some([
                (x - hw - 6.0, y - hh - 6.0, x + hw + 6.0, y + hh + 6.0),
                (
                    x - caption_w / 2.0,
                    caption_y - 16.0,
                    x + caption_w / 2.0,
                    caption_y + 16.0,
                ),
            ])
        })
        .flatten()
        .collect()
}

/// Where a link's label goes: the middle of the link, pushed towards the centre of the ring
/// (where there are no nodes) until it covers no node, no caption and no label placed before.
fn label_position(
    (sx, sy): (f64, f64),
    (ex, ey): (f64, f64),
    text: &str,
    avoid: &[Rect],
    placed: &[Rect],
) -> (f64, f64, Rect) {
    let (mx, my) = ((sx + ex) / 2.0, (sy + ey) / 2.0);
    let (dx, dy) = (ex - sx, ey - sy);
    let len = dx.hypot(dy).max(1e-9);
    let (mut nx, mut ny) = (-dy / len, dx / len);
    if nx * (CENTER_X - mx) + ny * (CENTER_Y - my) < 0.0 {
        (nx, ny) = (-nx, -ny);
    }
    // A link through the centre: push along the ring's vertical instead.
    if (CENTER_X - mx).hypot(CENTER_Y - my) < 30.0 {
        (nx, ny) = (0.0, -1.0);
    }
    let (w, h) = (label_width(text), LABEL_HEIGHT);
    let rect_at = |x: f64, y: f64| (x - w / 2.0, y - h / 2.0, x + w / 2.0, y + h / 2.0);
    let mut first = None;
    for k in 0..16 {
        let d = LABEL_OFFSET + 14.0 * f64::from(k);
        let (x, y) = (mx + nx * d, my + ny * d);
        let r = rect_at(x, y);
        first.get_or_insert((x, y, r));
        if !avoid.iter().chain(placed).any(|o| overlaps(r, *o)) {
            return (x, y, r);
        }
    }
    first.unwrap_or((mx, my, rect_at(mx, my)))
}

/// A steady link for fetch or heartbeat chatter between two nodes: a line with dashes flowing
/// from the requester to the node it asks; dashed red with ✕ when its requests fail.
fn draw_link(from: i32, to: i32, class: &'static str, failed: bool, geo: &Geometry) -> Html {
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

/// A cut where the network is partitioned: a red bar across the link between two nodes.
fn draw_cut(a: i32, b: i32, both: bool, geo: &Geometry) -> Html {
    let (Some(&(x1, y1)), Some(&(x2, y2))) = (geo.pos.get(&a), geo.pos.get(&b)) else {
        return html! {};
    };
    let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (px, py) = (-dy / len * 22.0, dx / len * 22.0);
    html! {
        <line class={classes!("cut", (!both).then_some("one-way"))} data-cut={format!("{a}-{b}")}
              x1={fmt(mx - px)} y1={fmt(my - py)} x2={fmt(mx + px)} y2={fmt(my + py)} />
    }
}

/// The fraction of a timer still to run at `clock`, in [0, 1].
pub fn timer_fraction(t: &RaftTimerView, clock: f64) -> f64 {
    ((t.deadline_ms as f64 - clock) / t.duration_ms.max(1) as f64).clamp(0.0, 1.0)
}

/// A track circle of radius `r` around `(x, y)` and, over it, the arc of the share `frac` still
/// to run, starting at 12 o'clock and draining clockwise.
fn arc((x, y): (f64, f64), r: f64, frac: f64) -> Html {
    let circumference = 2.0 * PI * r;
    html! {
        <>
            <circle class="timer-track" cx={fmt(x)} cy={fmt(y)} r={fmt(r)} />
            <circle class="timer-arc" cx={fmt(x)} cy={fmt(y)} r={fmt(r)}
                    stroke-dasharray={format!("{:.1} {:.1}", circumference * frac, circumference)}
                    transform={format!("rotate(-90 {} {})", fmt(x), fmt(y))} />
        </>
    }
}

/// A broker's session on the active controller (`since_ms` after its last heartbeat at
/// `clock`, of `timeout_ms`) as an outer arc draining towards the fencing deadline.
fn draw_session(id: i32, p: (f64, f64), since_ms: f64, timeout_ms: u64, lit: bool, s: f64) -> Html {
    let left_ms = (timeout_ms as f64 - since_ms).max(0.0);
    let frac = left_ms / timeout_ms.max(1) as f64;
    let title = format!(
        "session on the active controller: last heartbeat {since_ms:.0} ms ago, fenced after {timeout_ms} ms (broker.session.timeout.ms)"
    );
    html! {
        <g class={classes!("timer", "timer-session", lit.then_some("lit"))} data-session-node={id.to_string()}
           data-kind="session" data-remaining-ms={format!("{left_ms:.0}")} data-duration-ms={timeout_ms.to_string()}
           data-focused={lit.then_some("true")}>
            <title>{ title }</title>
            { arc(p, SESSION_RADIUS * s, frac) }
        </g>
    }
}

/// A fenced broker's session: over, drawn as an empty red ring.
fn draw_expired_session(id: i32, (x, y): (f64, f64), lit: bool, s: f64) -> Html {
    html! {
        <g class={classes!("timer", "timer-session", "expired", lit.then_some("lit"))} data-session-node={id.to_string()}
           data-kind="session" data-remaining-ms="0" data-focused={lit.then_some("true")}>
            <title>{ "fenced: its session on the active controller is over" }</title>
            <circle class="timer-track" cx={fmt(x)} cy={fmt(y)} r={fmt(SESSION_RADIUS * s)} />
        </g>
    }
}

/// The node's Raft timer as an arc around it that drains clockwise as the deadline nears.
fn draw_timer(node: &NodeView, p: (f64, f64), clock: f64, broker_only: bool, s: f64) -> Html {
    let Some(t) = node
        .raft_timer
        .as_ref()
        .filter(|_| node.process == "running")
    else {
        return html! {};
    };
    let r = s * if broker_only {
        TIMER_RADIUS_BROKER
    } else {
        TIMER_RADIUS
    };
    let frac = timer_fraction(t, clock);
    let left_ms = (t.deadline_ms as f64 - clock).max(0.0);
    let title = format!(
        "{} timer: {left_ms:.0} ms left of {} ms (fires at {} ms)",
        t.kind, t.duration_ms, t.deadline_ms
    );
    html! {
        <g class={classes!("timer", format!("timer-{}", t.kind))} data-timer-node={node.id.to_string()}
           data-kind={t.kind.clone()} data-remaining-ms={format!("{left_ms:.0}")}
           data-duration-ms={t.duration_ms.to_string()} data-deadline-ms={t.deadline_ms.to_string()}>
            <title>{ title }</title>
            { arc(p, r, frac) }
        </g>
    }
}

/// What a node's label under it says: a broker's BrokerState (FENCED when the active controller
/// fenced it, also while its process is stopped), a controller's Raft state; KILLED or STOPPED
/// when the process is not running.
fn state_text(node: &NodeView, fenced: Option<bool>) -> String {
    let broker_only = !node.roles.contains("controller");
    let fenced = broker_only && fenced == Some(true) && node.process != "killed";
    match (node.process.as_str(), fenced) {
        ("running", true) => "FENCED".into(),
        ("running", false) if broker_only => node
            .broker
            .as_ref()
            .map_or_else(|| node.raft_state.clone(), |b| b.state.clone()),
        ("running", false) => node.raft_state.clone(),
        (process, true) => format!("FENCED · {}", process.to_uppercase()),
        (process, false) => process.to_uppercase(),
    }
}

/// The data partitions with a replica on broker `id`, one line per topic: `orders 0★ 1 2`,
/// the leader starred, a replica out of the ISR red.
fn draw_partitions(
    id: i32,
    x: f64,
    line_y: &dyn Fn(usize) -> f64,
    partitions: &[PartitionView],
    lit: &[Highlight],
) -> Html {
    let mut topics: BTreeMap<&str, Vec<&PartitionView>> = BTreeMap::new();
    for p in partitions.iter().filter(|p| p.replicas.contains(&id)) {
        topics.entry(p.topic.as_str()).or_default().push(p);
    }
    let rows = topics.into_iter().enumerate().map(|(row, (topic, parts))| {
        let chars = topic.len() + 1 + parts.iter().map(|p| p.partition.to_string().len() + 2).sum::<usize>();
        let half = label_width(&"x".repeat(chars)) / 2.0 + 4.0;
        let x = x.clamp(half.min(WIDTH / 2.0), (WIDTH - half).max(WIDTH / 2.0));
        html! {
            <text class="partitions" x={fmt(x)} y={fmt(line_y(row))} text-anchor="middle"
                  dominant-baseline="central" data-topic={topic.to_string()}>
                <tspan class="topic">{ format!("{topic} ") }</tspan>
                { for parts.iter().map(|p| {
                    let in_isr = p.isr.contains(&id);
                    let leader = p.leader == id;
                    let focused = lit.iter().any(|h| matches!(h, Highlight::Partition { topic: t, partition } if t == &p.topic && *partition == p.partition));
                    html! {
                        <tspan class={classes!("part", (!in_isr).then_some("out-of-isr"), leader.then_some("leader"), focused.then_some("lit"))}
                               data-partition={format!("{}-{}", p.topic, p.partition)} data-broker={id.to_string()}
                               data-in-isr={in_isr.to_string()} data-leader={leader.to_string()}
                               data-focused={focused.then_some("true")}>
                            { format!("{}{} ", p.partition, if leader { "★" } else { "" }) }
                        </tspan>
                    }
                }) }
            </text>
        }
    });
    html! { <g class="broker-partitions" data-broker={id.to_string()}>{ for rows }</g> }
}

/// What one node looks like and how it reacts.
struct NodeLook<'a> {
    /// The nodes' size (see [`Geometry::scale`]).
    scale: f64,
    /// Which way the caption goes: -1 up, 1 down.
    dir: f64,
    selected: bool,
    dim: bool,
    focused: bool,
    fenced: Option<bool>,
    partitions: &'a [PartitionView],
    highlights: &'a [Highlight],
}

/// Clicking a node (or Enter on it) selects it and opens its menu, or closes the menu it has;
/// Escape on it closes the menu.
fn draw_node(
    node: &NodeView,
    (x, y): (f64, f64),
    look: NodeLook,
    on_open: &Callback<i32>,
    on_close: &Callback<()>,
) -> Html {
    let id = node.id;
    let onclick = on_open.reform(move |_: MouseEvent| id);
    let onkeydown = {
        let (on_open, on_close) = (on_open.clone(), on_close.clone());
        Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
            "Enter" => {
                e.prevent_default();
                on_open.emit(id);
            }
            "Escape" => on_close.emit(()),
            _ => {}
        })
    };
    let broker_only = !node.roles.contains("controller");
    let combined = node.roles.contains("broker") && !broker_only;
    let fenced = look.fenced == Some(true) && node.process == "running";
    let class = classes!(
        "node",
        role_class(node),
        broker_only.then_some("broker"),
        combined.then_some("combined"),
        look.selected.then_some("selected"),
        look.dim.then_some("dim"),
        look.focused.then_some("lit"),
        fenced.then_some("fenced")
    );
    let s = look.scale;
    let shape = if broker_only {
        html! { <rect class="shape" x={fmt(x - BROKER_HALF_W * s)} y={fmt(y - BROKER_HALF_H * s)}
        width={fmt(BROKER_HALF_W * 2.0 * s)} height={fmt(BROKER_HALF_H * 2.0 * s)} rx="12" /> }
    } else {
        html! { <circle class="shape" cx={fmt(x)} cy={fmt(y)} r={fmt(NODE_RADIUS * s)} /> }
    };
    let leader = node
        .leader_id
        .map(|l| format!("leader {l}"))
        .unwrap_or_else(|| "no leader".into());
    let half_h = s * if broker_only {
        BROKER_HALF_H
    } else {
        NODE_RADIUS
    };
    let outer = s * if broker_only {
        SESSION_RADIUS
    } else {
        TIMER_RADIUS
    };
    // On its side of the ring (outward): its state (and a voter's vote), then (brokers) its
    // partitions.
    let line = |k: usize| y + look.dir * (outer + CAPTION_GAP + CAPTION_LINE * (k as f64 + 0.5));
    let state_y = line(0);
    // Captions are centred under the node but kept inside the drawing.
    let caption_x = |text_chars: usize| {
        let half = label_width(&"x".repeat(text_chars)) / 2.0 + 4.0;
        x.clamp(half.min(WIDTH / 2.0), (WIDTH - half).max(WIDTH / 2.0))
    };
    let state = state_text(node, look.fenced);
    // An Unattached voter's vote in this epoch (103 remembers "votedId":102 and grants no other
    // candidate).
    let voted = node
        .voted_id
        .filter(|_| node.is_voter && node.process == "running" && node.raft_state == "Unattached");
    let state_chars = state.chars().count() + voted.map_or(0, |v| format!(" · voted {v}").len());
    html! {
        <g class={class} id={format!("node-{id}")} data-node-id={id.to_string()}
           data-role={node.raft_state.clone()} data-epoch={node.epoch.to_string()}
           data-process={node.process.clone()} data-leader-id={node.leader_id.map(|l| l.to_string()).unwrap_or_default()}
           data-voted-id={node.voted_id.map(|v| v.to_string()).unwrap_or_default()}
           data-fenced={look.fenced.map(|f| f.to_string()).unwrap_or_default()}
           data-state-text={state.clone()} data-focused={look.focused.then_some("true")}
           onclick={onclick} onkeydown={onkeydown} tabindex="0" role="button"
           aria-label={format!("node {id}: open its menu")}>
            <title>{ format!("node {id} ({}), {} in epoch {}, {}, voted {} — click for kill -9, STOP, CONT, restart, isolate",
                             node.roles, node.raft_state, node.epoch, leader,
                             node.voted_id.map(|v| v.to_string()).unwrap_or_else(|| "-".into())) }</title>
            { shape }
            <text class="node-id" x={fmt(x)} y={fmt(y - half_h * 0.18)} text-anchor="middle" dominant-baseline="central"
                  style={(s < 1.0).then(|| format!("font-size: {:.2}rem", 1.7 * s.max(0.8)))}>{ id }</text>
            // A crowded ring has smaller nodes: the epoch line shortens to fit inside.
            <text class="node-epoch" x={fmt(x)} y={fmt(y + half_h * 0.5)} text-anchor="middle" dominant-baseline="central">
                { if s < 0.95 { format!("e{}", node.epoch) } else { format!("epoch {}", node.epoch) } }
            </text>
            <text class={classes!("node-role", format!("st-{}", state.split(' ').next().unwrap_or_default().to_lowercase().replace('_', "-")))}
                  x={fmt(caption_x(state_chars))} y={fmt(state_y)} text-anchor="middle" dominant-baseline="central">
                { state }
                if let Some(v) = voted {
                    <tspan class="node-voted" data-voted-id={v.to_string()}>{ format!(" · voted {v}") }</tspan>
                }
            </text>
            if node.roles.contains("broker") {
                { draw_partitions(id, x, &|k| line(1 + k), look.partitions, look.highlights) }
            }
        </g>
    }
}

fn fmt(v: f64) -> String {
    format!("{v:.1}")
}

/// The menu of node `node`, in the middle of the ring (where it covers no node): the process
/// table's kill -9 / restart / STOP / CONT / isolate, heal, and close.
fn node_menu(
    view: &ClusterView,
    node: &NodeView,
    on_action: &Callback<Action>,
    on_close: Callback<()>,
    heal_label: &'static str,
) -> Html {
    let id = node.id;
    // The ring's centre, in % of the drawing (see `layout`).
    let style = format!(
        "left: {:.2}%; top: {:.2}%;",
        CENTER_X / WIDTH * 100.0,
        CENTER_Y / HEIGHT * 100.0
    );
    let close = on_close.reform(|_: MouseEvent| ());
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Escape" {
            e.prevent_default();
            on_close.emit(());
        }
    });
    let state = if node.process == "running" {
        node.raft_state.clone()
    } else {
        node.process.to_uppercase()
    };
    html! {
        <div class={classes!("node-menu", role_class(node))} id="node-menu" data-node-id={id.to_string()}
             data-process={node.process.clone()} style={style} role="dialog"
             aria-label={format!("node {id}")} onkeydown={onkeydown}>
            <p class="node-menu-head">
                <strong>{ format!("node {id}") }</strong>
                <button id="node-menu-close" class="close" onclick={close} title="Close (Escape)">{"×"}</button>
            </p>
            <p class="node-menu-state">{ format!("{} · {state} · epoch {}", node.roles, node.epoch) }</p>
            <p class="node-menu-buttons">
                { process_buttons(node, isolate_command(view, id), on_action, "menu") }
                { heal_button(format!("menu-heal-{id}"), heal_label, on_action) }
            </p>
        </div>
    }
}

/// The kinds of the legend, as (message kind, what the legend says).
const LEGEND: [(&str, &str); 9] = [
    ("PreVote", "PreVote"),
    ("Vote", "Vote"),
    ("BeginQuorumEpoch", "BeginQuorumEpoch"),
    ("EndQuorumEpoch", "EndQuorumEpoch"),
    ("Fetch", "Fetch"),
    ("FetchSnapshot", "FetchSnapshot"),
    ("BrokerHeartbeat", "heartbeat"),
    ("AlterPartition", "AlterPartition"),
    ("ReplicaFetch", "ReplicaFetch"),
];

/// The messages of `view` as drawn: chatter folded into links (unless its kind is labelled),
/// the rest as messages, each link's one label on its newest message.
struct Traffic<'a> {
    /// (from, to, link class, failed) of each steady link.
    links: Vec<(i32, i32, &'static str, bool)>,
    /// Messages and whether each carries its link's label.
    messages: Vec<(Drawn<'a>, bool)>,
}

/// Whether `d` is a leader's routine BeginQuorumEpoch (it re-sends one every second) to a node
/// that already follows it: drawn, but without a label.
fn routine(view: &ClusterView, d: &Drawn) -> bool {
    if d.base != "BeginQuorumEpoch" {
        return false;
    }
    let (leader, other) = match split_kind(&d.m.kind).1 {
        "resp" => (d.m.to, d.m.from),
        _ => (d.m.from, d.m.to),
    };
    view.nodes
        .iter()
        .any(|n| n.id == other && n.raft_state == "Follower" && n.leader_id == Some(leader))
}

fn traffic<'a>(view: &'a ClusterView, labels: &[String]) -> Traffic<'a> {
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
        let labelled = labels.iter().any(|k| k == d.base);
        match chatter(d.base).filter(|_| !labelled) {
            Some(class) => {
                // A link points from the requester to the node it asks.
                let (from, to) = if split_kind(&d.m.kind).1 == "resp" {
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

/// Which brokers the active controller has fenced.
fn fenced_by(active: Option<&ControllerView>) -> BTreeMap<i32, bool> {
    active
        .map(|c| c.brokers.iter().map(|(id, _, f)| (*id, *f)).collect())
        .unwrap_or_default()
}

/// The SVG drawing of the cluster; clicking a node selects it and opens its menu.
#[component]
pub fn ClusterDiagram(props: &ClusterDiagramProps) -> Html {
    let view = &props.view;
    let clock = props.clock_ms.max(view.now_ms as f64);
    let geo = Geometry::of(view);
    let t = crate::chrome::use_chrome();
    // The node whose menu is open; a lesson step closes it.
    let menu = use_state(|| None::<i32>);
    {
        let menu = menu.clone();
        use_effect_with(props.step_key, move |_| menu.set(None));
    }
    // Message kinds the legend turned labels on for (besides the lesson's).
    let legend_labels = use_state(Vec::<String>::new);
    let on_open = {
        let menu = menu.clone();
        let on_select = props.on_select.clone();
        Callback::from(move |id: i32| {
            on_select.emit(id);
            menu.set(if *menu == Some(id) { None } else { Some(id) });
        })
    };
    let on_close = {
        let menu = menu.clone();
        Callback::from(move |()| menu.set(None))
    };
    let open = menu.and_then(|id| view.nodes.iter().find(|n| n.id == id));
    let active = active_controller(view).map(|(_, c)| c);
    let fenced = fenced_by(active);
    let labels: Vec<String> = props
        .labels
        .iter()
        .chain(legend_labels.iter())
        .cloned()
        .collect();
    let traffic = traffic(view, &labels);
    // Where each labelled message's label goes, placed one after the other.
    let label_spots: Vec<Option<(f64, f64)>> = {
        let avoid = obstacles(view, &geo);
        let mut placed: Vec<Rect> = Vec::new();
        traffic
            .messages
            .iter()
            .map(|(d, labelled)| {
                let (sx, sy, ex, ey, _, _) = segment(&geo, d.from, d.to, LANE_OFFSET)?;
                labelled.then(|| {
                    let (x, y, r) = label_position(
                        (sx, sy),
                        (ex, ey),
                        &message_label(&d.m.kind),
                        &avoid,
                        &placed,
                    );
                    placed.push(r);
                    (x, y)
                })
            })
            .collect()
    };
    let lit = &props.highlights;
    let lit_node = |id: i32| {
        props.focus == Some(id)
            || lit
                .iter()
                .any(|h| matches!(h, Highlight::Node(n) if *n == id))
    };
    let lit_session = |id: i32| {
        lit.iter()
            .any(|h| matches!(h, Highlight::Session(n) if *n == id))
    };
    // Pairs cut both ways, and one way only.
    let blocked: BTreeSet<(i32, i32)> = view.blocked.iter().copied().collect();
    let cuts: Vec<(i32, i32, bool)> = blocked
        .iter()
        .filter_map(|&(a, b)| {
            let both = blocked.contains(&(b, a));
            (a < b || !both).then_some((a.min(b), a.max(b), both))
        })
        .collect();
    let since_frame = clock - view.now_ms as f64;
    let legend_toggle = |kind: &'static str| {
        let legend_labels = legend_labels.clone();
        Callback::from(move |_: MouseEvent| {
            let mut next = (*legend_labels).clone();
            match next.iter().position(|k| k == kind) {
                Some(i) => {
                    next.remove(i);
                }
                None => next.push(kind.to_string()),
            }
            legend_labels.set(next);
        })
    };
    html! {
        <section class="panel cluster" aria-label="cluster" id="cluster-panel"
                 data-focus={props.focus.map(|f| f.to_string()).unwrap_or_default()}>
          <div class="cluster-stage">
            <svg id="cluster" viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img"
                 preserveAspectRatio="xMidYMid meet" data-clock-ms={format!("{clock:.1}")}>
                <defs>
                    <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-head" />
                    </marker>
                </defs>
                <g class="links" id="links" data-count={traffic.links.len().to_string()}>
                    { for traffic.links.iter().map(|&(from, to, class, failed)| draw_link(from, to, class, failed, &geo)) }
                </g>
                <g class="cuts" id="cuts" data-count={cuts.len().to_string()}>
                    { for cuts.iter().map(|&(a, b, both)| draw_cut(a, b, both, &geo)) }
                </g>
                <g class="timers" id="timers">
                    { for view.nodes.iter().map(|n| draw_timer(n, geo.pos[&n.id], clock, geo.broker(n.id), geo.scale)) }
                    { for active.into_iter().flat_map(|c| c.sessions.iter().filter(|(id, _)| fenced.get(id) != Some(&true)).filter_map(|(id, since)| geo.pos.get(id).map(|p| draw_session(*id, *p, *since as f64 + since_frame, c.session_timeout_ms, lit_session(*id), geo.scale)))) }
                    { for fenced.iter().filter(|(_, f)| **f).filter_map(|(id, _)| geo.pos.get(id).map(|p| draw_expired_session(*id, *p, lit_session(*id), geo.scale))) }
                </g>
                <g class="messages" id="messages" data-count={view.messages.len().to_string()}
                   data-recent={view.recently_delivered.len().to_string()}>
                    { for traffic.messages.iter().zip(label_spots.iter()).map(|((d, _), at)| draw_message(d, clock, &geo, *at)) }
                </g>
                <g class="nodes">
                    { for view.nodes.iter().map(|n| {
                        let look = NodeLook {
                            scale: geo.scale,
                            dir: geo.dir.get(&n.id).copied().unwrap_or(1.0),
                            selected: n.id == props.selected,
                            dim: props.focus.is_some_and(|f| f != n.id) && !lit_node(n.id),
                            focused: lit_node(n.id),
                            fenced: fenced.get(&n.id).copied(),
                            partitions: &view.partitions,
                            highlights: lit,
                        };
                        draw_node(n, geo.pos[&n.id], look, &on_open, &on_close)
                    }) }
                </g>
            </svg>
            if let Some(node) = open {
                { node_menu(view, node, &props.on_action, on_close.clone(), t.heal) }
            }
          </div>
            <details class="legend-box" id="legend-box" open={!props.compact}>
            <summary>{ t.legend }</summary>
            <p class="legend" id="legend">
                { for LEGEND.iter().map(|&(kind, text)| {
                    let on = labels.iter().any(|k| k == kind);
                    html! {
                        <button class={classes!("key", message_class(kind), on.then_some("labelled"))}
                                data-kind={kind} aria-pressed={on.to_string()} onclick={legend_toggle(kind)}
                                title="labels on every message of this kind (fetch and heartbeats: instead of a steady link)">{ text }</button>
                    }
                }) }
                <span class="key dropped-key">{"✕ failed / dropped"}</span>
                <span class="key cut-key">{ t.cut }</span>
                <span class="key timer-election">{ t.timer_election }</span>
                <span class="key timer-fetch">{ t.timer_fetch }</span>
                <span class="key timer-check-quorum">{ t.timer_check_quorum }</span>
                <span class="key timer-session">{ t.timer_session }</span>
            </p>
            </details>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_classes() {
        assert_eq!(message_label("FetchRequest"), "Fetch");
        assert_eq!(message_label("BeginQuorumEpochRequest"), "BeginQuorumEpoch");
        assert_eq!(message_label("VoteResponse"), "Vote resp");
        assert_eq!(message_class("BeginQuorumEpochRequest"), "msg-begin");
        assert_eq!(message_class("BrokerHeartbeatRequest"), "msg-heartbeat");
        assert_eq!(message_label("BrokerHeartbeatResponse"), "heartbeat resp");
        assert_eq!(message_label("PreVoteRequest"), "PreVote");
        assert_eq!(message_class("PreVoteResponse"), "msg-prevote");
        assert_eq!(message_label("VoteFailed"), "Vote ✕");
        assert_eq!(message_class("AlterPartitionRequest"), "msg-alter");
        assert_eq!(message_class("CreateTopicsRequest"), "msg-other");
    }

    fn message(id: u64, from: i32, to: i32, kind: &str, send_ms: u64) -> MessageView {
        MessageView {
            id,
            from,
            to,
            kind: kind.into(),
            summary: String::new(),
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
        let t = traffic(&view, &["Fetch".to_string()]);
        assert!(t.links.is_empty());
        assert_eq!(t.messages.len(), 5);
    }
}
