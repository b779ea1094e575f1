//! Where things go in the drawing: its user units, the ring the nodes sit on ([`layout`]), the
//! column of observing controllers apart from it, how large the nodes are drawn ([`Geometry`])
//! and the segment a link runs along between two nodes' outlines.
//!
//! The ring holds the voters (and the brokers, as before): a controller that is not a voter
//! (KIP-853: formatted `--no-initial-controllers`, or removed) stands apart, in a column on the
//! right; the ring then keeps the rest of the width. Without such a controller the drawing is
//! laid out as it always was.

use std::collections::{BTreeMap, BTreeSet};
use std::f64::consts::PI;

use kraft_core::view::{ApiKeys, ClusterView, NodeView, PartitionView};

/// The drawing's user units: the ring is an ellipse, wider than tall, to fill a stage column.
pub(super) const WIDTH: f64 = 800.0;
pub(super) const HEIGHT: f64 = 600.0;
pub(super) const CENTER_X: f64 = WIDTH / 2.0;
/// A little below the middle: room above for the top node's arcs and vote.
pub(super) const CENTER_Y: f64 = HEIGHT / 2.0 - 10.0;
const RING_RX: f64 = 290.0;
const RING_RY: f64 = 190.0;
/// The ring is never flatter than this (a crowded drawing shrinks its nodes instead).
const RING_RY_MIN: f64 = 120.0;
/// A controller's circle.
pub(super) const NODE_RADIUS: f64 = 60.0;
/// Half a broker's box.
pub(super) const BROKER_HALF_W: f64 = 58.0;
pub(super) const BROKER_HALF_H: f64 = 42.0;
/// Messages in each direction are drawn this far to the side of the centre line.
pub(super) const LANE_OFFSET: f64 = 9.0;
/// Radius of the timer arc around a controller.
pub(super) const TIMER_RADIUS: f64 = NODE_RADIUS + 9.0;
/// Radius of the timer arc around a broker's box (whose corners reach 72).
pub(super) const TIMER_RADIUS_BROKER: f64 = 78.0;
/// Radius of the session arc around a broker, outside its fetch timer.
pub(super) const SESSION_RADIUS: f64 = TIMER_RADIUS_BROKER + 10.0;
/// How far a label sits from the middle of its link, towards the centre of the ring.
pub(super) const LABEL_OFFSET: f64 = 24.0;

/// How far (user units) a node's caption block reaches beyond its outer arc: the state line
/// (with a voter's vote) and a line per topic it holds a replica of.
fn caption_extent(topics: usize) -> f64 {
    CAPTION_GAP + CAPTION_LINE * (1 + topics) as f64
}

/// The first caption line's distance from a node's outer arc.
pub(super) const CAPTION_GAP: f64 = 12.0;
/// The height of a caption line.
pub(super) const CAPTION_LINE: f64 = 28.0;
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

/// The width of one column of observing controllers (a node, its arcs and its caption).
pub(super) const OBSERVER_COLUMN_W: f64 = 190.0;
/// The room above the observers' column for its heading.
pub(super) const OBSERVER_HEAD_H: f64 = 40.0;
/// At most this many observers one above the other in a column.
const OBSERVERS_PER_COLUMN: usize = 3;
/// How far the ring's widest nodes stay from the sides of its part of the drawing.
const RING_SIDE: f64 = WIDTH / 2.0 - RING_RX;

/// Where each node is drawn: on the ring, or (a controller that is not a voter) apart.
pub(super) fn on_ring(n: &NodeView) -> bool {
    n.is_voter || !n.roles.has_controller()
}

/// Where nodes go: (x, y, caption direction) by node id.
pub type Placed = BTreeMap<i32, (f64, f64, f64)>;

/// The ring: where each node sits (by node id) and which way its caption goes (-1 up for a node
/// in the upper half, 1 down for the rest, so that two nodes one above the other on a side keep
/// their captions apart). The nodes go evenly around an ellipse, the first at the top, as tall as
/// the captions of the top and bottom nodes let it be; one node alone sits in the middle, two
/// side by side.
pub fn layout(nodes: &[NodeView], partitions: &[PartitionView]) -> Placed {
    ring(nodes, partitions, CENTER_X, RING_RX).0
}

/// The ring of `nodes` centred on `cx`, `rx` wide each side, with its centre's height and its
/// height each side: (where, cy, ry).
fn ring(nodes: &[NodeView], partitions: &[PartitionView], cx: f64, rx: f64) -> (Placed, f64, f64) {
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
        [] => return (BTreeMap::new(), CENTER_Y, 0.0),
        [one] => {
            return (
                BTreeMap::from([(one.id, (cx, CENTER_Y, below))]),
                CENTER_Y,
                0.0,
            )
        }
        [a, b] => {
            let at = BTreeMap::from([
                (a.id, (cx - rx * 0.6, CENTER_Y, below)),
                (b.id, (cx + rx * 0.6, CENTER_Y, below)),
            ]);
            return (at, CENTER_Y, 0.0);
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
            let outer = outer_radius(!node.roles.has_controller());
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
    let at = nodes
        .iter()
        .zip(&angles)
        .map(|(node, &a)| {
            let x = cx + rx * a.cos();
            let y = cy + ry * a.sin();
            (node.id, (x, y, dir(a)))
        })
        .collect();
    (at, cy, ry)
}

/// The observing controllers' part of the drawing: its columns from `left` to the right edge,
/// each node in its slot under the heading, its caption below it.
fn observer_columns(apart: &[&NodeView], left: f64) -> Placed {
    let columns = apart.len().div_ceil(OBSERVERS_PER_COLUMN).max(1);
    let rows = apart.len().div_ceil(columns).max(1);
    let slot = (HEIGHT - OBSERVER_HEAD_H - EDGE) / rows as f64;
    apart
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let (col, row) = (i / rows, i % rows);
            let x = left + OBSERVER_COLUMN_W * (col as f64 + 0.5);
            // The node a little above its slot's middle: its caption goes below.
            let y = OBSERVER_HEAD_H + slot * (row as f64 + 0.5) - CAPTION_LINE / 2.0;
            (n.id, (x, y, 1.0))
        })
        .collect()
}

/// The ring's outline when controllers stand apart: (cx, cy, rx, ry).
pub(super) type RingOutline = (f64, f64, f64, f64);

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
pub(super) fn segment(
    geo: &Geometry,
    a: i32,
    b: i32,
    lane: f64,
) -> Option<(f64, f64, f64, f64, f64, f64)> {
    let (&(x1, y1), &(x2, y2)) = (geo.pos.get(&a)?, geo.pos.get(&b)?);
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let (ox, oy) = (-uy * lane, ux * lane);
    let reach = |id: i32| {
        if id == CLIENT {
            CLIENT_RADIUS
        } else {
            edge_distance(geo.broker(id), ux, uy, geo.scale)
        }
    };
    let (da, db) = (reach(a), reach(b));
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
pub(super) struct Geometry {
    /// Where each node's centre is, by node id.
    pub(super) pos: BTreeMap<i32, (f64, f64)>,
    /// Which way each node's caption goes: -1 up, 1 down.
    pub(super) dir: BTreeMap<i32, f64>,
    /// The nodes without a controller.
    brokers: BTreeSet<i32>,
    /// The nodes' size: 1, or less when the ring is so crowded that neighbours' arcs would
    /// touch.
    pub(super) scale: f64,
    /// The middle of the ring, where labels are pushed to.
    pub(super) center: (f64, f64),
    /// The left edge of the observing controllers' columns, when some stand apart.
    pub(super) observers_left: Option<f64>,
    /// The ring's outline, drawn when controllers stand apart.
    pub(super) ring: Option<RingOutline>,
}

impl Geometry {
    /// The geometry of `view`'s nodes: the ring of voters and brokers, the controllers that
    /// are not voters apart.
    pub(super) fn of(view: &ClusterView) -> Geometry {
        let apart: Vec<&NodeView> = view.nodes.iter().filter(|n| !on_ring(n)).collect();
        let (placed, center, observers_left, ring_outline) = if apart.is_empty() {
            let placed = layout(&view.nodes, &view.partitions);
            (placed, (CENTER_X, CENTER_Y), None, None)
        } else {
            let columns = apart.len().div_ceil(OBSERVERS_PER_COLUMN);
            let left = WIDTH - OBSERVER_COLUMN_W * columns as f64;
            let cx = left / 2.0;
            let rx = (cx - RING_SIDE).max(NODE_RADIUS);
            let ringed: Vec<NodeView> = view.nodes.iter().filter(|n| on_ring(n)).cloned().collect();
            let (mut placed, cy, ry) = ring(&ringed, &view.partitions, cx, rx);
            placed.extend(observer_columns(&apart, left));
            let outline = (ringed.len() > 2).then_some((cx, cy, rx, ry));
            (placed, (cx, CENTER_Y), Some(left), outline)
        };
        let pos: BTreeMap<i32, (f64, f64)> = placed
            .iter()
            .map(|(id, &(x, y, _))| (*id, (x, y)))
            .collect();
        let mut pos = pos;
        if clients_produce(view) {
            pos.insert(CLIENT, center);
        }
        let dir = placed.iter().map(|(id, &(_, _, d))| (*id, d)).collect();
        // Neighbours' outer arcs must not touch (their captions go outward, away from each
        // other): the tightest pair sets the nodes' size.
        let points: Vec<(f64, f64, f64)> = view
            .nodes
            .iter()
            .filter_map(|n| {
                let &(x, y) = pos.get(&n.id)?;
                Some((x, y, outer_radius(!n.roles.has_controller()) + 4.0))
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
            center,
            observers_left,
            ring: ring_outline,
            brokers: view
                .nodes
                .iter()
                .filter(|n| !n.roles.has_controller())
                .map(|n| n.id)
                .collect(),
            scale: closest.clamp(0.5, 1.0),
        }
    }

    /// Whether node `id` is a broker only (drawn as a box).
    pub(super) fn broker(&self, id: i32) -> bool {
        self.brokers.contains(&id)
    }
}

/// The clients' node id (the tools', the producer's): drawn in the middle of the ring while
/// they produce.
pub(super) const CLIENT: i32 = kraft_core::sim::world::ADMIN_CLIENT_ID;
/// How far from the clients' spot their links start.
pub(super) const CLIENT_RADIUS: f64 = 26.0;

/// Whether the clients' Produce requests (or answers) are in `view`: the clients are drawn then.
pub(super) fn clients_produce(view: &ClusterView) -> bool {
    view.messages
        .iter()
        .chain(&view.recently_delivered)
        .any(|m| m.kind.api == ApiKeys::Produce && (m.from == CLIENT || m.to == CLIENT))
}

/// A coordinate as the SVG gets it: one decimal.
pub(super) fn fmt(v: f64) -> String {
    format!("{v:.1}")
}
