//! The legend under the drawing: a button per message kind that turns labels on for every
//! message of that kind, and what the ✕, cut lines and arcs mean.

use yew::prelude::*;

use kraft_core::view::ApiKeys;

use super::messages::{api_label, message_class};
use crate::i18n::Chrome;

/// The APIs of the legend: every API with a colour of its own (the others share
/// `msg-other` and are named by their labels), in [`ApiKeys::ALL`]'s order.
fn legend_apis() -> impl Iterator<Item = ApiKeys> {
    ApiKeys::ALL
        .iter()
        .copied()
        .filter(|a| message_class(*a) != "msg-other")
}

/// The legend (folded into a button over the drawing when `compact`): a kind's button lit when
/// `labels` has it, a click adding it to or taking it from `legend_labels`.
pub(super) fn legend(
    labels: &[ApiKeys],
    legend_labels: &UseStateHandle<Vec<ApiKeys>>,
    compact: bool,
    t: &Chrome,
) -> Html {
    let legend_toggle = |api: ApiKeys| {
        let legend_labels = legend_labels.clone();
        Callback::from(move |_: MouseEvent| {
            let mut next = (*legend_labels).clone();
            match next.iter().position(|k| *k == api) {
                Some(i) => {
                    next.remove(i);
                }
                None => next.push(api),
            }
            legend_labels.set(next);
        })
    };
    html! {
            <details class="legend-box" id="legend-box" open={!compact}>
            <summary>{ t.legend }</summary>
            <p class="legend" id="legend">
                { for legend_apis().map(|api| {
                    let on = labels.contains(&api);
                    html! {
                        <button class={classes!("key", message_class(api), on.then_some("labelled"))}
                                data-kind={api.name()} aria-pressed={on.to_string()} onclick={legend_toggle(api)}
                                title="labels on every message of this kind (fetch and heartbeats: instead of a steady link)">{ api_label(api) }</button>
                    }
                }) }
                <span class="key data-links-key" id="legend-data-links" data-links="link-replica link-produce">{ t.data_links }</span>
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
