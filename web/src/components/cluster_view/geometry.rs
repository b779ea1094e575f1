//! Where things go in the drawing: its user units, the ring the nodes sit on ([`layout`]), how
//! large the nodes are drawn ([`Geometry`]) and the segment a link runs along between two nodes'
//! outlines.

use std::collections::{BTreeMap, BTreeSet};
use std::f64::consts::PI;

use kraft_core::view::{ClusterView, NodeView, PartitionView};

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
}

impl Geometry {
    /// The geometry of `view`'s nodes.
    pub(super) fn of(view: &ClusterView) -> Geometry {
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

/// A coordinate as the SVG gets it: one decimal.
pub(super) fn fmt(v: f64) -> String {
    format!("{v:.1}")
}
