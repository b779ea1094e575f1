//! The quorum on the drawing (KIP-853): the majority the voters need (`majority 2 of 3`) in a
//! corner the nodes leave free, and, when controllers stand apart because they are not voters,
//! the ring's outline and the observers' area with its heading.

use kraft_core::view::ClusterView;
use yew::prelude::*;

use super::geometry::{fmt, Geometry, HEIGHT, OBSERVER_HEAD_H, WIDTH};
use super::labels::{label_width, overlaps, Rect};
use crate::i18n::{fill, QuorumText};

/// The height of the majority's line (user units).
const LINE_H: f64 = 30.0;
/// How far the majority's line stays from the drawing's edges.
const MARGIN: f64 = 12.0;

/// The majority's text: `majority 2 of 3`.
pub(super) fn majority_text(view: &ClusterView, t: &QuorumText) -> String {
    let q = &view.quorum;
    fill(&fill(t.majority, q.majority), q.voters.len())
}

/// Where the majority's line goes, clear of `avoid` (the nodes and their captions): the top
/// left corner, else the ring's top right (when nothing stands apart), else its bottom right.
/// Gives (x, y, text-anchor, its rectangle).
pub(super) fn majority_spot(
    text: &str,
    geo: &Geometry,
    avoid: &[Rect],
) -> (f64, f64, &'static str, Rect) {
    let w = label_width(text);
    let right = geo.observers_left.unwrap_or(WIDTH) - MARGIN;
    let top = MARGIN + LINE_H / 2.0;
    let bottom = HEIGHT - MARGIN - LINE_H / 2.0;
    let at = |x: f64, y: f64, anchor: &'static str| {
        let left = if anchor == "start" { x } else { x - w };
        (
            x,
            y,
            anchor,
            (left, y - LINE_H / 2.0, left + w, y + LINE_H / 2.0),
        )
    };
    let mut spots = vec![at(MARGIN, top, "start")];
    if geo.observers_left.is_none() {
        spots.push(at(right, top, "end"));
    }
    spots.push(at(right, bottom, "end"));
    spots
        .iter()
        .find(|s| !avoid.iter().any(|o| overlaps(s.3, *o)))
        .copied()
        .unwrap_or(spots[0])
}

/// The rectangle of the observers' heading, if controllers stand apart.
pub(super) fn heading_rect(geo: &Geometry) -> Option<Rect> {
    geo.observers_left
        .map(|left| (left, 0.0, WIDTH, OBSERVER_HEAD_H))
}

/// The quorum's layer under the nodes: the ring's outline and the observers' area.
pub(super) fn draw_quorum_area(geo: &Geometry, t: &QuorumText) -> Html {
    html! {
        <g class="quorum-area">
            if let Some((cx, cy, rx, ry)) = geo.ring {
                <ellipse class="voter-ring" cx={fmt(cx)} cy={fmt(cy)} rx={fmt(rx)} ry={fmt(ry)} />
            }
            if let Some(left) = geo.observers_left {
                <g class="observer-area" id="observer-area">
                    <title>{ t.observers_title }</title>
                    <rect x={fmt(left + 4.0)} y="4" width={fmt(WIDTH - left - 8.0)} height={fmt(HEIGHT - 8.0)} rx="16" />
                    <text class="observer-heading" x={fmt((left + WIDTH) / 2.0)} y={fmt(OBSERVER_HEAD_H / 2.0 + 4.0)}
                          text-anchor="middle" dominant-baseline="central">{ t.observers }</text>
                </g>
            }
        </g>
    }
}

/// The majority's line, at the spot [`majority_spot`] chose.
pub(super) fn draw_majority(
    view: &ClusterView,
    text: &str,
    spot: (f64, f64, &'static str, Rect),
    t: &QuorumText,
) -> Html {
    let q = &view.quorum;
    let voters = q
        .voters
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let (x, y, anchor, _) = spot;
    html! {
        <g class="quorum-majority-g">
            <title>{ t.majority_title }</title>
            <text class="quorum-majority" id="quorum-majority" x={fmt(x)} y={fmt(y)} text-anchor={anchor}
                  dominant-baseline="central" data-majority={q.majority.to_string()} data-voters={voters}
                  data-kraft-version={q.kraft_version.to_string()}>{ text.to_string() }</text>
        </g>
    }
}
