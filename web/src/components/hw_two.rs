//! Two high watermarks side by side: on the left the metadata log's voters by end offset with
//! the majority's line (its HW is the offset a majority holds, `LeaderState`), on the right a
//! data partition's replicas by log end offset with the ISR's minimum (its HW is the smallest
//! LEO in the ISR, `Partition.maybeIncrementLeaderHW`), the replicas out of the ISR drawn
//! apart. The two rules differ on purpose; the figure puts them where a room compares them.

use std::rc::Rc;

use kraft_core::lesson::stage::Highlight;
use kraft_core::view::{ClusterView, DataPartitionView};
use yew::prelude::*;

use super::hw_panel::{leader_calc, offset};
use super::hw_two_bars::{draw_chart, Bar, Chart};
use crate::i18n::{fill, HwTwoText};

/// Properties of [`HwTwoPanel`].
#[derive(Properties, PartialEq)]
pub struct HwTwoPanelProps {
    /// The view the offsets come from.
    pub view: Rc<ClusterView>,
    /// What the stage lights: a lit partition is the one drawn.
    #[prop_or_default]
    pub highlights: Rc<Vec<Highlight>>,
}

/// The data partition drawn: the one `picked`, else the one the stage lights, else the one
/// holding the most data (the first of equals).
pub fn chosen_partition<'a>(
    parts: &'a [DataPartitionView],
    picked: Option<&str>,
    highlights: &[Highlight],
) -> Option<&'a DataPartitionView> {
    let lit = highlights.iter().find_map(|h| match h {
        Highlight::Partition { topic, partition } => parts
            .iter()
            .find(|p| p.topic == *topic && p.partition == *partition),
        _ => None,
    });
    picked
        .and_then(|name| parts.iter().find(|p| p.name() == name))
        .or(lit)
        .or_else(|| parts.iter().rev().max_by_key(|p| p.max_log_end_offset()))
}

/// The metadata log's half: the leader's voters by end offset, the picked one and the line at
/// its offset.
fn metadata_chart(view: &ClusterView, t: &HwTwoText) -> Option<(Chart, String, String)> {
    let (leader, calc) = leader_calc(view)?;
    let bars = calc
        .voters
        .iter()
        .enumerate()
        .map(|(i, (id, end))| Bar {
            id: *id,
            end: *end,
            note: (*id == leader.id).then(|| t.leader.to_string()),
            class: [
                (i == calc.index_of_hw).then_some("picked"),
                (*id == leader.id).then_some("leader"),
            ]
            .into_iter()
            .flatten()
            .collect(),
            apart: false,
        })
        .collect::<Vec<_>>();
    let majority = format!("{}/{}", calc.voters.len() / 2 + 1, calc.voters.len());
    let listed = bars
        .iter()
        .map(|b| format!("{} {}", b.id, offset(b.end)))
        .collect::<Vec<_>>()
        .join(", ");
    let rule = format!(
        "HW {} = {}",
        offset(calc.high_watermark),
        fill(t.majority_rule, &majority)
    );
    let chart = Chart {
        bars,
        line: calc.candidate,
        line_class: "majority-line",
        apart_label: "",
        id: "hw-two-metadata",
        aria: fill(t.aria_metadata, format!("{listed}; {rule}")),
    };
    let caption = format!("{} {} · epoch {}", t.leader, leader.id, leader.epoch);
    Some((chart, caption, rule))
}

/// The data partition's half: its replicas in the ISR by LEO (largest first), then those out
/// of it apart, each with the HW its own broker knows; the line at the ISR's smallest LEO.
fn data_chart(p: &DataPartitionView, t: &HwTwoText) -> (Chart, String, String) {
    let mut replicas: Vec<_> = p.replicas.iter().collect();
    replicas.sort_by_key(|r| (!r.in_isr, std::cmp::Reverse(r.log_end_offset)));
    let bars: Vec<Bar> = replicas
        .iter()
        .map(|r| Bar {
            id: r.broker,
            end: r.log_end_offset,
            note: Some(format!("{} {}", t.own_hw, offset(r.high_watermark))),
            class: [
                (p.leader == Some(r.broker)).then_some("leader"),
                (!r.in_isr).then_some("apart"),
                (!r.running).then_some("down"),
            ]
            .into_iter()
            .flatten()
            .collect(),
            apart: !r.in_isr,
        })
        .collect();
    let listed = bars
        .iter()
        .map(|b| {
            let out = if b.apart {
                format!(" ({})", t.out_of_isr)
            } else {
                String::new()
            };
            format!("{} LEO {}{out}", b.id, offset(b.end))
        })
        .collect::<Vec<_>>()
        .join(", ");
    let rule = format!("HW {} = {}", offset(p.leader_high_watermark), t.isr_rule);
    let chart = Chart {
        bars,
        line: p.isr_min_log_end_offset,
        line_class: "isr-line",
        apart_label: t.out_of_isr,
        id: "hw-two-data",
        aria: fill(
            t.aria_data,
            format!(
                "{} {listed}; {rule} ({} {})",
                p.name(),
                t.isr_min,
                offset(p.isr_min_log_end_offset)
            ),
        ),
    };
    let caption = match p.leader {
        Some(l) => format!("{} {l} · epoch {}", t.leader, p.leader_epoch),
        None => format!("{} –", t.leader),
    };
    (chart, caption, rule)
}

/// The picker of the data partition drawn (only when there are several).
fn picker(
    parts: &[DataPartitionView],
    shown: &str,
    picked: &UseStateHandle<Option<String>>,
    t: &HwTwoText,
) -> Html {
    if parts.len() < 2 {
        return html! { <strong class="hw-two-name">{ shown.to_string() }</strong> };
    }
    let on_change = {
        let picked = picked.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            picked.set(Some(v));
        })
    };
    html! {
        <select id="hw-two-pick" aria-label={t.pick} onchange={on_change}>
            { for parts.iter().map(|p| {
                let name = p.name();
                html! { <option value={name.clone()} selected={name == shown}>{ name.clone() }</option> }
            }) }
        </select>
    }
}

/// The figure.
#[component]
pub fn HwTwoPanel(props: &HwTwoPanelProps) -> Html {
    let t = HwTwoText::of(crate::i18n::use_lang());
    let picked = use_state(|| None::<String>);
    let view = &props.view;
    let metadata = metadata_chart(view, t);
    let part = chosen_partition(&view.data_partitions, picked.as_deref(), &props.highlights);
    let data = part.map(|p| data_chart(p, t));
    let half = |body: Option<(Chart, String, String)>, empty: &str| match body {
        Some((chart, caption, rule)) => html! {
            <>
                <p class="hw-two-caption">{ caption }</p>
                { draw_chart(&chart) }
                <p class="hw-two-rule">{ rule }</p>
            </>
        },
        None => html! { <p class="empty">{ empty.to_string() }</p> },
    };
    html! {
        <section class="panel hw-two-panel" id="hw-two"
                 data-metadata-hw={metadata.as_ref().and_then(|_| leader_calc(view)).and_then(|(_, c)| c.high_watermark).map(|h| h.to_string()).unwrap_or_default()}
                 data-data-hw={part.and_then(|p| p.leader_high_watermark).map(|h| h.to_string()).unwrap_or_default()}
                 data-partition={part.map(|p| p.name()).unwrap_or_default()}>
            <h2>{ t.title }</h2>
            <div class="hw-two-halves">
                <figure class="hw-two-half" id="hw-two-left">
                    <figcaption><strong>{ t.metadata }</strong></figcaption>
                    { half(metadata, t.no_leader) }
                </figure>
                <figure class="hw-two-half" id="hw-two-right">
                    <figcaption>
                        <strong>{ t.data }</strong>{" "}
                        { part.map(|p| picker(&view.data_partitions, &p.name(), &picked, t)).unwrap_or_default() }
                    </figcaption>
                    { half(data, t.no_partition) }
                </figure>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kraft_core::view::ReplicaOffsetsView;

    fn part(topic: &str, leo: i64) -> DataPartitionView {
        DataPartitionView {
            topic: topic.into(),
            partition: 0,
            leader: Some(1),
            leader_epoch: 0,
            isr: vec![1, 2],
            replicas: [1, 2, 3]
                .map(|b| ReplicaOffsetsView {
                    broker: b,
                    log_end_offset: Some(if b == 3 { 0 } else { leo }),
                    high_watermark: Some(leo),
                    end_offset_at_leader: Some(leo),
                    in_isr: b != 3,
                    running: true,
                })
                .to_vec(),
            leader_high_watermark: Some(leo),
            isr_min_log_end_offset: Some(leo),
        }
    }

    #[test]
    fn the_partition_drawn_is_the_picked_then_the_lit_then_the_fullest() {
        let parts = [part("a", 0), part("b", 5), part("c", 5)];
        let name = |p: Option<&DataPartitionView>| p.map(|p| p.topic.clone());
        assert_eq!(name(chosen_partition(&parts, None, &[])), Some("b".into()));
        let lit = [Highlight::Partition {
            topic: "a".into(),
            partition: 0,
        }];
        assert_eq!(name(chosen_partition(&parts, None, &lit)), Some("a".into()));
        assert_eq!(
            name(chosen_partition(&parts, Some("c-0"), &lit)),
            Some("c".into())
        );
        assert_eq!(chosen_partition(&[], None, &lit), None);
    }

    #[test]
    fn replicas_out_of_the_isr_are_drawn_apart_and_named_in_both_languages() {
        for t in [&HwTwoText::KO, &HwTwoText::EN] {
            let (chart, _, rule) = data_chart(&part("orders", 4), t);
            let order: Vec<(i32, bool)> = chart.bars.iter().map(|b| (b.id, b.apart)).collect();
            assert_eq!(order, [(1, false), (2, false), (3, true)]);
            assert!(chart.aria.contains(t.out_of_isr));
            assert!(rule.starts_with("HW 4 = "));
            assert_eq!(chart.line, Some(4));
        }
    }
}
