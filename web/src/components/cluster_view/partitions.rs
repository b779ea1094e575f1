//! A broker's data partitions under it, one line per topic: `orders 0★ 1 2`, the leader
//! starred, a replica out of the ISR red, the partitions a lesson step lights lit.

use std::collections::BTreeMap;

use kraft_core::lesson::stage::Highlight;
use kraft_core::view::PartitionView;
use yew::prelude::*;

use super::geometry::{fmt, WIDTH};
use super::labels::label_width;

/// The data partitions with a replica on broker `id`, one line per topic: `orders 0★ 1 2`,
/// the leader starred, a replica out of the ISR red.
pub(super) fn draw_partitions(
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
