//! The leader's high-watermark computation, live: the voter set in force and the majority it
//! needs (KIP-853: it changes), voters by descending end offset, the entry at index
//! `size / 2`, the candidate, and the epochStartOffset rule.

use std::rc::Rc;

use kraft_core::view::{
    ClusterView, HighWatermarkView, NodeView, ProcessState, QuorumView, VoterChangeKind,
    VoterChangePhase,
};
use yew::prelude::*;

use crate::i18n::{fill, QuorumText};

/// Properties of [`HighWatermarkPanel`].
#[derive(Properties, PartialEq)]
pub struct HighWatermarkPanelProps {
    /// The view the numbers come from.
    pub view: Rc<ClusterView>,
}

/// An offset as text, `?` unknown.
pub fn offset(v: Option<i64>) -> String {
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

/// The ids joined by `sep`.
fn joined(ids: &[i32], sep: &str) -> String {
    ids.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// `101, 102, 103`, or `–` for none.
fn id_list(ids: &[i32]) -> String {
    if ids.is_empty() {
        "–".into()
    } else {
        joined(ids, ", ")
    }
}

/// The voter set in force and its majority on one line; below it only what is moving: a
/// VotersRecord in force but not committed yet, controllers observing apart, the leader's
/// voter change in progress. kraft.version and the committed VotersRecord are in its tooltip
/// and data attributes (the panel keeps its room for the HW computation at 1280×720).
fn quorum_box(q: &QuorumView, t: &QuorumText) -> Html {
    let record = match q.voters_record {
        Some(r) => format!(
            "VotersRecord @{} {}",
            r.offset,
            if r.committed {
                t.committed
            } else {
                t.uncommitted
            }
        ),
        None => t.static_set.to_string(),
    };
    let uncommitted = q.voters_record.is_some_and(|r| !r.committed);
    let pending = q.pending.map(|p| {
        let kind = match p.kind {
            VoterChangeKind::Add => t.add,
            VoterChangeKind::Remove => t.remove,
            VoterChangeKind::Update => t.update,
        };
        let phase = match p.phase {
            VoterChangePhase::WaitingForApiVersions => t.waiting_api_versions,
            VoterChangePhase::Appended => t.appended,
        };
        format!("{} {kind} {}: {phase}", t.pending, p.voter)
    });
    html! {
        <div class="hw-quorum" id="hw-quorum" data-voters={joined(&q.voters, ",")}
             data-majority={q.majority.to_string()} data-kraft-version={q.kraft_version.to_string()}
             data-voters-record={q.voters_record.map(|r| r.offset.to_string()).unwrap_or_default()}
             data-observers={joined(&q.observer_controllers, ",")}
             data-pending={q.pending.map(|p| format!("{}-{}", p.kind.name(), p.voter)).unwrap_or_default()}
             title={format!("{record} · kraft.version {}", q.kraft_version)}>
            <p class="hw-set">
                <strong class="majority">{ fill(&fill(t.majority, q.majority), q.voters.len()) }</strong>
                <span class="label">{ t.voter_set }</span>
                <strong class="ids">{ id_list(&q.voters) }</strong>
            </p>
            if uncommitted || !q.observer_controllers.is_empty() || pending.is_some() {
                <p class="hw-moving">
                    if uncommitted {
                        <span class="record">{ record }</span>
                    }
                    if !q.observer_controllers.is_empty() {
                        <span class="observers">{ format!("{} {}", t.observer_list, id_list(&q.observer_controllers)) }</span>
                    }
                    if let Some(p) = pending {
                        <span class="hw-pending">{ p }</span>
                    }
                </p>
            }
        </div>
    }
}

/// The panel; says so when no node leads.
#[component]
pub fn HighWatermarkPanel(props: &HighWatermarkPanelProps) -> Html {
    let t = crate::i18n::use_chrome();
    let qt = QuorumText::of(crate::i18n::use_lang());
    let quorum = quorum_box(&props.view.quorum, qt);
    let Some((leader, calc)) = leader_calc(&props.view) else {
        return html! {
            <section class="panel hw-panel" id="hw-panel" data-leader-id="">
                <h2>{"High watermark"}</h2>
                { quorum }
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
            { quorum }
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
