//! Cut lines where the network is partitioned: a red bar across the link between two nodes,
//! marked one-way when only one direction is blocked.

use std::collections::BTreeSet;

use kraft_core::view::ClusterView;
use yew::prelude::*;

use super::geometry::{fmt, Geometry};

/// The pairs `view` blocks as (lower id, higher id, cut both ways): a pair blocked both ways
/// once, a pair blocked one way only as it is blocked.
pub(super) fn cuts(view: &ClusterView) -> Vec<(i32, i32, bool)> {
    let blocked: BTreeSet<(i32, i32)> = view.blocked.iter().copied().collect();
    blocked
        .iter()
        .filter_map(|&(a, b)| {
            let both = blocked.contains(&(b, a));
            (a < b || !both).then_some((a.min(b), a.max(b), both))
        })
        .collect()
}

/// A cut where the network is partitioned: a red bar across the link between two nodes.
pub(super) fn draw_cut(a: i32, b: i32, both: bool, geo: &Geometry) -> Html {
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
