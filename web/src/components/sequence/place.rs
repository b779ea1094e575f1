//! Where the arrows' labels go: each in turn, at the first of a few spots along its arrow
//! (above or below the line, at its middle, then nearer its ends, then a little further from
//! the line, then beside its ends) that covers none of the chips and labels already placed, or
//! the least of them, and crosses the fewest other arrows. Sizes are in `em`; a
//! character of a bold label is taken as [`CHAR_EM`] wide.

use super::label::State;
use super::shapes::{Arrow, Chip, CHIP_H};

/// The width labels are placed for while the panel is not measured yet (em).
pub const DEFAULT_WIDTH_EM: f64 = 32.0;
/// About how wide a character of a bold label is (em).
pub const CHAR_EM: f64 = 0.65;
/// How far a node's message to itself loops out to the right of its lane (em).
pub const LOOP_EM: f64 = 1.6;
/// A label's height (em).
const LABEL_H: f64 = 0.95;
/// How much room a label keeps on each side from chips and other labels (em).
const MARGIN_EM: f64 = 0.35;
/// How much room a label keeps above and below (em): a label's text reaches about 1.15 em
/// from top to bottom on the page, more than [`LABEL_H`], so two labels stacked without it
/// touch.
const MARGIN_Y_EM: f64 = 0.12;
/// The spots tried: (fraction of the arrow, above the line).
const SPOTS: [(f64, bool); 14] = [
    (0.5, true),
    (0.5, false),
    (0.35, true),
    (0.65, true),
    (0.35, false),
    (0.65, false),
    (0.2, true),
    (0.8, true),
    (0.2, false),
    (0.8, false),
    (0.05, true),
    (0.95, true),
    (0.05, false),
    (0.95, false),
];

/// A box: left, top, right, bottom (em).
type Rect = (f64, f64, f64, f64);

/// The area two boxes share (em²).
fn overlap(a: &Rect, b: &Rect) -> f64 {
    let w = a.2.min(b.2) - a.0.max(b.0);
    let h = a.3.min(b.3) - a.1.max(b.1);
    w.max(0.0) * h.max(0.0)
}

/// Whether the segment from `p` to `q` crosses the box `r` (Liang–Barsky clipping).
fn crosses(p: (f64, f64), q: (f64, f64), r: &Rect) -> bool {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (pk, qk) in [
        (-dx, p.0 - r.0),
        (dx, r.2 - p.0),
        (-dy, p.1 - r.1),
        (dy, r.3 - p.1),
    ] {
        if pk.abs() < 1e-12 {
            if qk < 0.0 {
                return false;
            }
        } else {
            let t = qk / pk;
            if pk < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    t0 <= t1
}

/// The width of a chip with `text` (em).
pub fn chip_width(text: &str) -> f64 {
    text.chars().count() as f64 * CHAR_EM + 0.8
}

/// The box of a chip on a lane at `x` (em).
fn chip_box(c: &Chip, x: f64) -> Rect {
    let w = chip_width(&c.text);
    let x = x + c.dx;
    (
        x - w / 2.0,
        c.y - CHIP_H / 2.0,
        x + w / 2.0,
        c.y + CHIP_H / 2.0,
    )
}

/// The boxes a label `lw` wide may take for the arrow `line` in a diagram `w` wide, best
/// first: along the line above or below it (`rise`: how far the line climbs under half the
/// label), then beside its end and its start, outside the lanes it joins.
fn spots(line: ((f64, f64), (f64, f64)), lw: f64, rise: f64, w: f64) -> Vec<Rect> {
    let ((x0, y0), (x1, y1)) = line;
    // Along the line, then a little further from it.
    let mut out: Vec<Rect> = [0.1, 0.7, 1.3]
        .iter()
        .flat_map(|&gap| SPOTS.iter().map(move |&(t, above)| (t, above, gap)))
        .map(|(t, above, gap)| {
            let half = lw / 2.0 + 0.2;
            let px = (x0 + (x1 - x0) * t).clamp(half, (w - half).max(half));
            let py = y0 + (y1 - y0) * t;
            let top = if above {
                py - rise - gap - LABEL_H
            } else {
                py + rise + gap
            };
            (px - lw / 2.0, top, px + lw / 2.0, top + LABEL_H)
        })
        .collect();
    let right = x1 >= x0;
    for (x, y, outward) in [(x1, y1, right), (x0, y0, !right)] {
        let left = if outward { x + 0.5 } else { x - 0.5 - lw };
        let left = left.clamp(0.0, (w - lw).max(0.0));
        out.push((left, y - LABEL_H / 2.0, left + lw, y + LABEL_H / 2.0));
    }
    out
}

/// Places the labels of `arrows` (a failure has none: its ✕ and colour say it), around the
/// `chips`, for a diagram `width_em` wide; `x_of` gives a lane's centre as a fraction.
pub fn place_labels(
    arrows: &mut [Arrow],
    chips: &[Chip],
    x_of: &dyn Fn(usize) -> f64,
    width_em: f64,
) {
    let w = if width_em > 0.0 {
        width_em
    } else {
        DEFAULT_WIDTH_EM
    };
    let mut taken: Vec<Rect> = chips
        .iter()
        .map(|c| chip_box(c, x_of(c.lane) * w))
        .collect();
    let lines: Vec<((f64, f64), (f64, f64))> = arrows
        .iter()
        .map(|a| ((a.start.0 * w, a.start.1), (a.end.0 * w, a.end.1)))
        .collect();
    for (i, a) in arrows.iter_mut().enumerate() {
        if a.state == State::Failed {
            continue;
        }
        let lw = a.label.chars().count() as f64 * CHAR_EM;
        let ((x0, y0), (x1, y1)) = lines[i];
        let slope = if (x1 - x0).abs() > 1e-6 {
            ((y1 - y0) / (x1 - x0)).abs()
        } else {
            0.0
        };
        // How far the line rises or falls under half the label.
        let rise = (slope * lw / 2.0).min(2.0);
        let mut best: Option<(f64, f64, f64, Rect)> = None;
        let candidates = if a.self_loop {
            // Right of its loop.
            let left = (x0 + LOOP_EM + 0.3).min((w - lw).max(0.0));
            let mid = (y0 + y1) / 2.0;
            vec![(left, mid - LABEL_H / 2.0, left + lw, mid + LABEL_H / 2.0)]
        } else {
            spots(lines[i], lw, rise, w)
        };
        for (k, r) in candidates.into_iter().enumerate() {
            // A margin around the label: the page's font is not exactly CHAR_EM wide.
            let padded = (
                r.0 - MARGIN_EM,
                r.1 - MARGIN_Y_EM,
                r.2 + MARGIN_EM,
                r.3 + MARGIN_Y_EM,
            );
            let covered: f64 = taken.iter().map(|b| overlap(b, &padded)).sum();
            let crossed = lines
                .iter()
                .enumerate()
                .filter(|&(j, &(p, q))| j != i && crosses(p, q, &r))
                .count();
            // Above the diagram's top (an arrow on its first row) a label is not drawn at all.
            let cut = (-r.1).max(0.0) * lw;
            // Text under text is unreadable; a line through a label is not: covering costs far
            // more than crossing, and crossing more than a spot further down the list.
            let cost = (covered + cut) * 400.0 + crossed as f64 * 3.0 + k as f64 * 0.5;
            if best.as_ref().is_none_or(|b| cost < b.0) {
                best = Some((cost, (r.0 + r.2) / 2.0, r.3 - 0.22, r));
            }
        }
        if let Some((_, px, baseline, r)) = best {
            taken.push(r);
            a.label_at = Some((px / w, baseline));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_segment_crosses_a_box_it_passes_through() {
        let r = (1.0, 1.0, 2.0, 2.0);
        assert!(crosses((0.0, 0.0), (3.0, 3.0), &r));
        assert!(crosses((1.5, 0.0), (1.5, 3.0), &r));
        assert!(!crosses((0.0, 0.0), (3.0, 0.5), &r));
        assert!(!crosses((0.0, 3.0), (0.5, 0.0), &r));
        assert_eq!(overlap(&r, &(1.5, 1.5, 3.0, 3.0)), 0.25);
        assert_eq!(overlap(&r, &(2.0, 0.0, 3.0, 1.0)), 0.0);
    }
}
