//! The leader's high-watermark computation, live: voters by descending end offset, the entry at
//! index `size / 2`, the candidate, and the epochStartOffset rule.

use std::rc::Rc;

use kraft_core::view::{ClusterView, HighWatermarkView, NodeView, ProcessState};
use yew::prelude::*;

/// Properties of [`HighWatermarkPanel`].
#[derive(Properties, PartialEq)]
pub struct HighWatermarkPanelProps {
    /// The view the numbers come from.
    pub view: Rc<ClusterView>,
}

fn offset(v: Option<i64>) -> String {
    v.map(|o| o.to_string()).unwrap_or_else(|| "?".into())
}

/// The running leader of the highest epoch and its computation, if any.
pub fn leader_calc(view: &ClusterView) -> Option<(&NodeView, &HighWatermarkView)> {
    view.nodes
        .iter()
        .filter(|n| n.process == ProcessState::Running)
        .filter_map(|n| n.high_watermark_calc.as_ref().map(|c| (n, c)))
        .max_by_key(|(n, _)| n.epoch)
}

/// The panel; says so when no node leads.
#[component]
pub fn HighWatermarkPanel(props: &HighWatermarkPanelProps) -> Html {
    let t = crate::i18n::use_chrome();
    let Some((leader, calc)) = leader_calc(&props.view) else {
        return html! {
            <section class="panel hw-panel" id="hw-panel" data-leader-id="">
                <h2>{"High watermark"}</h2>
                <p class="empty">{ t.hw_no_leader }</p>
            </section>
        };
    };
    let rule = if calc.past_epoch_start {
        format!(
            "{} {} > epochStartOffset {}: {}",
            t.hw_candidate,
            offset(calc.candidate),
            calc.epoch_start_offset,
            t.hw_may_advance
        )
    } else {
        format!(
            "{} {} ≤ epochStartOffset {}: {} {}",
            t.hw_candidate,
            offset(calc.candidate),
            calc.epoch_start_offset,
            t.hw_waits,
            leader.epoch
        )
    };
    html! {
        <section class="panel hw-panel" id="hw-panel" data-leader-id={leader.id.to_string()}
                 data-hw={calc.high_watermark.map(|h| h.to_string()).unwrap_or_default()}
                 data-candidate={calc.candidate.map(|h| h.to_string()).unwrap_or_default()}
                 data-epoch-start={calc.epoch_start_offset.to_string()}
                 data-index={calc.index_of_hw.to_string()}>
            <h2>{ format!("{} {} (epoch {})", t.hw_title, leader.id, leader.epoch) }</h2>
            <ol class="hw-voters" start="0">
                { for calc.voters.iter().enumerate().map(|(i, (id, end))| html! {
                    <li class={classes!("hw-voter", (i == calc.index_of_hw).then_some("picked"))}
                        data-voter-id={id.to_string()} data-end-offset={end.map(|e| e.to_string()).unwrap_or_default()}>
                        <span class="idx">{ format!("[{i}]") }</span>
                        <span class="voter">{ format!("{} {id}", t.voter) }</span>
                        <span class="end">{ format!("endOffset {}", offset(*end)) }</span>
                        if i == calc.index_of_hw { <span class="pick">{ format!("← index {}/2 = {i}", calc.voters.len()) }</span> }
                    </li>
                }) }
            </ol>
            <div class="offsets-row">
                <div class="offset-box"><span class="label">{ t.hw_candidate }</span>
                    <strong id="hw-candidate">{ offset(calc.candidate) }</strong></div>
                <div class="offset-box"><span class="label">{"epochStartOffset"}</span>
                    <strong id="hw-epoch-start">{ calc.epoch_start_offset }</strong></div>
                <div class="offset-box hw"><span class="label">{"highWatermark"}</span>
                    <strong id="hw-value">{ offset(calc.high_watermark) }</strong></div>
            </div>
            <p id="hw-rule" class={classes!("hw-rule", calc.past_epoch_start.then_some("ok"))}>{ rule }</p>
        </section>
    }
}
