//! Each node's metadata log (`__cluster_metadata-0`): batches with offsets and epochs, control
//! batches marked, committed vs uncommitted, and the HW and LEO markers.

use std::rc::Rc;

use kraft_core::lesson::stage::Highlight;
use kraft_core::view::{BatchView, ClusterView, NodeView};
use yew::prelude::*;

/// Properties of [`NodeLogs`].
#[derive(Properties, PartialEq)]
pub struct NodeLogsProps {
    /// The view the logs come from.
    pub view: Rc<ClusterView>,
    /// Only this node's log (the stage); every node's when `None` (the dashboard).
    #[prop_or_default]
    pub only: Option<i32>,
    /// The batches and offsets the stage lights.
    #[prop_or_default]
    pub highlights: Rc<Vec<Highlight>>,
}

/// One row per node with its log batches.
#[component]
pub fn NodeLogs(props: &NodeLogsProps) -> Html {
    let t = crate::i18n::use_chrome();
    html! {
        <section class="panel logs" aria-label="metadata logs">
            <h2>{ t.per_node_logs }</h2>
            <p class="legend">
                <span class="batch committed">{"committed"}</span>
                <span class="batch uncommitted">{"uncommitted"}</span>
                <span class="batch control committed">{"control"}</span>
                <span class="marker hw">{"HW"}</span>
                <span class="marker leo">{"LEO"}</span>
            </p>
            { for props.view.nodes.iter().filter(|n| props.only.is_none_or(|id| id == n.id)).map(|n| node_log(n, &props.highlights)) }
        </section>
    }
}

fn node_log(node: &NodeView, lit: &[Highlight]) -> Html {
    let hw = node.high_watermark;
    let first_shown = node
        .batches
        .first()
        .map(|b| b.base_offset)
        .unwrap_or(node.log_end_offset);
    // The HW marker goes before the first batch that is not wholly below the HW.
    let hw_before = hw.and_then(|hw| node.batches.iter().position(|b| b.last_offset >= hw));
    let hw_marker = |hw: i64| html! { <span class="marker hw" data-offset={hw.to_string()}>{ format!("HW {hw}") }</span> };
    let mut items: Vec<Html> = Vec::with_capacity(node.batches.len() + 2);
    for (i, b) in node.batches.iter().enumerate() {
        // The voter change's batch kept from further back: the offsets between are not shown.
        if i > 0 && b.base_offset > node.batches[i - 1].last_offset + 1 {
            items.push(html! { <span class="older">{"…"}</span> });
        }
        if hw_before == Some(i) {
            items.push(hw_marker(hw.unwrap_or_default()));
        }
        items.push(batch(b, lit));
    }
    if let (Some(hw), None) = (hw, hw_before) {
        items.push(hw_marker(hw));
    }
    let leo = node.log_end_offset;
    items.push(html! { <span class="marker leo" data-offset={leo.to_string()}>{ format!("LEO {leo}") }</span> });
    html! {
        <div class={classes!("node-log", super::role_class(node))} id={format!("log-{}", node.id)}
             data-node-id={node.id.to_string()} data-leo={leo.to_string()}
             data-hw={hw.map(|h| h.to_string()).unwrap_or_default()}>
            <div class="node-log-head">
                <strong>{ format!("node {}", node.id) }</strong>
                <span>{ format!("{} · epoch {}", super::state_name(node), node.epoch) }</span>
                <span>{ format!("start {} · LEO {} · HW {}", node.log_start_offset, leo,
                                hw.map(|h| h.to_string()).unwrap_or_else(|| "unknown".into())) }</span>
                <span class="segments" title="log segments (base offsets)">
                    { format!("{} segment{}", node.segments.len(), if node.segments.len() == 1 { "" } else { "s" }) }
                </span>
            </div>
            <div class="snapshots">
                { for node.snapshots.iter().map(|s| html! {
                    <span class="snapshot" data-snapshot={s.clone()} title="snapshot file">{ s.clone() }</span>
                }) }
                if let Some((name, bytes)) = &node.fetching_snapshot {
                    <span class="snapshot fetching" data-snapshot={name.clone()}>
                        { format!("{name} ({bytes} bytes, FetchSnapshot)") }
                    </span>
                }
            </div>
            <div class="batches">
                if first_shown > node.log_start_offset {
                    <span class="older">{ format!("… {} older offsets", first_shown - node.log_start_offset) }</span>
                }
                { for items }
            </div>
        </div>
    }
}

fn batch(b: &BatchView, lit: &[Highlight]) -> Html {
    let lit = lit
        .iter()
        .any(|h| h.lights_batch(b.base_offset, b.last_offset));
    let class = classes!(
        lit.then_some("lit"),
        "batch",
        if b.committed {
            "committed"
        } else {
            "uncommitted"
        },
        b.is_control.then_some("control"),
        b.holds_voters().then_some("voters")
    );
    let offsets = if b.base_offset == b.last_offset {
        b.base_offset.to_string()
    } else {
        format!("{}–{}", b.base_offset, b.last_offset)
    };
    let records = summarise_records(&b.records);
    html! {
        <span class={class} data-base-offset={b.base_offset.to_string()} data-last-offset={b.last_offset.to_string()}
              data-epoch={b.epoch.to_string()} data-control={b.is_control.to_string()} data-committed={b.committed.to_string()}
              data-voters={b.holds_voters().then_some("true")}
              data-focused={lit.then_some("true")}
              title={b.records.join("\n")}>
            <span class="offsets">{ offsets }</span>
            <span class="epoch">{ format!("e{}", b.epoch) }</span>
            <span class="records">{ records }</span>
        </span>
    }
}

/// `["A", "A", "B"]` → `"2×A B"`: consecutive equal records folded.
pub fn summarise_records(records: &[String]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < records.len() {
        let mut j = i;
        while j < records.len() && records[j] == records[i] {
            j += 1;
        }
        out.push(if j - i > 1 {
            format!("{}×{}", j - i, records[i])
        } else {
            records[i].clone()
        });
        i = j;
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn folds_records() {
        let r: Vec<String> = ["A", "A", "B"].iter().map(|s| s.to_string()).collect();
        assert_eq!(super::summarise_records(&r), "2×A B");
        assert_eq!(super::summarise_records(&[]), "");
    }
}
