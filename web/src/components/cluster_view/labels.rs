//! Where the messages' labels go: each at the middle of its link, pushed towards the centre of
//! the ring until it covers no node, no caption and no label placed before it.

use kraft_core::view::{ClusterView, StateKind};

use super::geometry::{
    segment, Geometry, BROKER_HALF_H, BROKER_HALF_W, CAPTION_GAP, CAPTION_LINE, HEIGHT,
    LABEL_OFFSET, LANE_OFFSET, NODE_RADIUS, SESSION_RADIUS, TIMER_RADIUS, WIDTH,
};
use super::messages::{message_label, Drawn};

/// A rectangle of the drawing: (left, top, right, bottom).
pub(super) type Rect = (f64, f64, f64, f64);

/// Whether two rectangles share some area.
pub(super) fn overlaps(a: Rect, b: Rect) -> bool {
    a.0 < b.2 && a.2 > b.0 && a.1 < b.3 && a.3 > b.1
}

/// How wide (user units) a label of `text` is drawn: 1.15rem bold at the default 20 px root.
pub(super) fn label_width(text: &str) -> f64 {
    text.chars().count() as f64 * 14.5 + 8.0
}

/// The height of a label (user units).
const LABEL_HEIGHT: f64 = 28.0;

/// What a label must not cover: every node's shape and the caption under it.
pub(super) fn obstacles(view: &ClusterView, geo: &Geometry) -> Vec<Rect> {
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
            let caption_w = label_width(n.raft_state.map_or("-", StateKind::name)).max(120.0);
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

/// Where a link's label goes: the middle of the link, pushed towards `center`, the centre of the
/// ring (where there are no nodes) until it covers no node, no caption and no label placed before;
/// failing that, from a third of the way along the link, or pushed outwards; always wholly
/// inside the drawing. A label that can only go over another label is put there; one that can
/// only go over a node or past the edge is left out (the arrow stays, and the sequence tab
/// names the message).
fn label_position(
    (sx, sy): (f64, f64),
    (ex, ey): (f64, f64),
    (cx, cy): (f64, f64),
    text: &str,
    avoid: &[Rect],
    placed: &[Rect],
) -> Option<(f64, f64, Rect)> {
    let (dx, dy) = (ex - sx, ey - sy);
    let len = dx.hypot(dy).max(1e-9);
    let (w, h) = (label_width(text), LABEL_HEIGHT);
    let rect_at = |x: f64, y: f64| (x - w / 2.0, y - h / 2.0, x + w / 2.0, y + h / 2.0);
    let spots = [0.5, 0.35, 0.65].into_iter().flat_map(|t| {
        let (mx, my) = (sx + dx * t, sy + dy * t);
        let (mut nx, mut ny) = (-dy / len, dx / len);
        if nx * (cx - mx) + ny * (cy - my) < 0.0 {
            (nx, ny) = (-nx, -ny);
        }
        // A link through the centre: push along the ring's vertical instead.
        if (cx - mx).hypot(cy - my) < 30.0 {
            (nx, ny) = (0.0, -1.0);
        }
        [1.0, -1.0].into_iter().flat_map(move |side| {
            (0..16).map(move |k| {
                let d = LABEL_OFFSET + 14.0 * f64::from(k);
                (mx + side * nx * d, my + side * ny * d)
            })
        })
    });
    // Only spots wholly inside the drawing: a label at its edge would be cut off.
    let inside = |r: &Rect| r.0 >= 2.0 && r.1 >= 2.0 && r.2 <= WIDTH - 2.0 && r.3 <= HEIGHT - 2.0;
    let spots: Vec<(f64, f64, Rect)> = spots
        .map(|(x, y)| (x, y, rect_at(x, y)))
        .filter(|(_, _, r)| inside(r))
        .collect();
    let clear = |r: &Rect, others: &[Rect]| !others.iter().any(|o| overlaps(*r, *o));
    spots
        .iter()
        .find(|(_, _, r)| clear(r, avoid) && clear(r, placed))
        .or_else(|| spots.iter().find(|(_, _, r)| clear(r, avoid)))
        .copied()
}

/// Where each labelled message's label goes (`None` for a message without one), placed one after
/// the other in the order of `messages`, clear of the nodes and captions (`avoid`, see
/// [`obstacles`]).
pub(super) fn label_spots(
    geo: &Geometry,
    messages: &[(Drawn, bool)],
    avoid: &[Rect],
) -> Vec<Option<(f64, f64)>> {
    let mut placed: Vec<Rect> = Vec::new();
    messages
        .iter()
        .map(|(d, labelled)| {
            let (sx, sy, ex, ey, _, _) = segment(geo, d.from, d.to, LANE_OFFSET)?;
            if !labelled {
                return None;
            }
            let (x, y, r) = label_position(
                (sx, sy),
                (ex, ey),
                geo.center,
                &message_label(d.m.kind),
                avoid,
                &placed,
            )?;
            placed.push(r);
            Some((x, y))
        })
        .collect()
}
