//! The data partitions as the active controller has them: leader, replicas, ISR (what
//! `kafka-topics.sh --describe` prints), a replica out of the ISR in red; and each replica's
//! log end offset and high watermark as its own broker has them.

use std::rc::Rc;

use kraft_core::lesson::stage::Highlight;
use kraft_core::view::{ClusterView, DataPartitionView, PartitionView};
use yew::prelude::*;

use super::hw_panel::offset;

/// Properties of [`PartitionsPanel`].
#[derive(Properties, PartialEq)]
pub struct PartitionsPanelProps {
    /// The view the partitions come from.
    pub view: Rc<ClusterView>,
    /// What the stage lights.
    #[prop_or_default]
    pub highlights: Rc<Vec<Highlight>>,
}

/// Each replica's `id: LEO/HW`, one a line, for the partition `p` of the brokers' `data`.
fn offsets_cell(p: &PartitionView, data: &[DataPartitionView]) -> Html {
    let Some(d) = data
        .iter()
        .find(|d| d.topic == p.topic && d.partition == p.partition)
    else {
        return html! {};
    };
    html! {
        { for d.replicas.iter().map(|r| html! {
            <span class={classes!("replica-offsets", (!r.in_isr).then_some("out-of-isr"))}
                  data-broker={r.broker.to_string()}
                  data-leo={r.log_end_offset.map(|o| o.to_string()).unwrap_or_default()}
                  data-hw={r.high_watermark.map(|o| o.to_string()).unwrap_or_default()}>
                { format!("{}: {}/{}", r.broker, offset(r.log_end_offset), offset(r.high_watermark)) }
            </span>
        }) }
    }
}

/// The panel.
#[component]
pub fn PartitionsPanel(props: &PartitionsPanelProps) -> Html {
    let t = crate::i18n::use_chrome();
    let parts = &props.view.partitions;
    let ids = |v: &[i32]| {
        v.iter()
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    html! {
        <section class="panel partitions-panel" id="partitions-panel" data-count={parts.len().to_string()}>
            <h2>{ t.partitions }</h2>
            if parts.is_empty() {
                <p class="empty">{ t.no_partitions }</p>
            } else {
                <table class="partitions-table">
                    <thead><tr><th>{"Topic"}</th><th>{"Partition"}</th><th>{"Leader"}</th><th>{"Replicas"}</th><th>{"Isr"}</th><th>{ t.leo_hw }</th></tr></thead>
                    <tbody>
                        { for parts.iter().map(|p| {
                            let lit = props.highlights.iter().any(|h| matches!(h, Highlight::Partition { topic, partition } if *topic == p.topic && *partition == p.partition));
                            html! {
                                <tr data-partition={format!("{}-{}", p.topic, p.partition)} data-leader={p.leader.to_string()}
                                    data-isr={ids(&p.isr)} class={classes!(lit.then_some("lit"))} data-focused={lit.then_some("true")}>
                                    <td>{ p.topic.clone() }</td>
                                    <td class="num">{ p.partition }</td>
                                    <td class="num">{ p.leader }</td>
                                    <td class="num">{ ids(&p.replicas) }</td>
                                    <td class="num">
                                        { for p.replicas.iter().map(|r| {
                                            let inside = p.isr.contains(r);
                                            html! { <span class={classes!("isr-member", (!inside).then_some("out-of-isr"))}>{ if inside { r.to_string() } else { format!("✕{r}") } }</span> }
                                        }) }
                                    </td>
                                    <td class="num offsets">{ offsets_cell(p, &props.view.data_partitions) }</td>
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            }
        </section>
    }
}
