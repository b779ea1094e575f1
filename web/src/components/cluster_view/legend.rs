//! The legend under the drawing: a button per message kind that turns labels on for every
//! message of that kind, and what the ✕, cut lines and arcs mean.

use yew::prelude::*;

use super::messages::message_class;
use crate::chrome::Chrome;

/// The kinds of the legend, as (message kind, what the legend says).
const LEGEND: [(&str, &str); 9] = [
    ("PreVote", "PreVote"),
    ("Vote", "Vote"),
    ("BeginQuorumEpoch", "BeginQuorumEpoch"),
    ("EndQuorumEpoch", "EndQuorumEpoch"),
    ("Fetch", "Fetch"),
    ("FetchSnapshot", "FetchSnapshot"),
    ("BrokerHeartbeat", "heartbeat"),
    ("AlterPartition", "AlterPartition"),
    ("ReplicaFetch", "ReplicaFetch"),
];

/// The legend (folded into a button over the drawing when `compact`): a kind's button lit when
/// `labels` has it, a click adding it to or taking it from `legend_labels`.
pub(super) fn legend(
    labels: &[String],
    legend_labels: &UseStateHandle<Vec<String>>,
    compact: bool,
    t: &Chrome,
) -> Html {
    let legend_toggle = |kind: &'static str| {
        let legend_labels = legend_labels.clone();
        Callback::from(move |_: MouseEvent| {
            let mut next = (*legend_labels).clone();
            match next.iter().position(|k| k == kind) {
                Some(i) => {
                    next.remove(i);
                }
                None => next.push(kind.to_string()),
            }
            legend_labels.set(next);
        })
    };
    html! {
            <details class="legend-box" id="legend-box" open={!compact}>
            <summary>{ t.legend }</summary>
            <p class="legend" id="legend">
                { for LEGEND.iter().map(|&(kind, text)| {
                    let on = labels.iter().any(|k| k == kind);
                    html! {
                        <button class={classes!("key", message_class(kind), on.then_some("labelled"))}
                                data-kind={kind} aria-pressed={on.to_string()} onclick={legend_toggle(kind)}
                                title="labels on every message of this kind (fetch and heartbeats: instead of a steady link)">{ text }</button>
                    }
                }) }
                <span class="key dropped-key">{"✕ failed / dropped"}</span>
                <span class="key cut-key">{ t.cut }</span>
                <span class="key timer-election">{ t.timer_election }</span>
                <span class="key timer-fetch">{ t.timer_fetch }</span>
                <span class="key timer-check-quorum">{ t.timer_check_quorum }</span>
                <span class="key timer-session">{ t.timer_session }</span>
            </p>
            </details>
    }
}
