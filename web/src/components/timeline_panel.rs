//! A TimelineHashMap with its SnapshotRegistry: the map now, the snapshot epochs (committed ones
//! marked), the saved values of each tier, the map read "as of" a snapshot the lecturer picks,
//! and the last revertToSnapshot. Drawn inside the controller panel (topicsByName) and on its
//! own for the `timeline` commands of lesson 03, under the timeline figure
//! ([`super::timeline_figure`]) in a fold that starts open.

use std::rc::Rc;

use kraft_core::view::TimelineView;
use yew::prelude::*;

use super::timeline_figure::TimelineFigure;
use crate::i18n::{use_lang, TimelineText};

/// Properties of [`TimelineMap`].
#[derive(Properties, PartialEq)]
pub struct TimelineMapProps {
    /// What to draw.
    pub timeline: TimelineView,
    /// Prefix of the element ids (`ctrl` inside the controller panel, `tl` on its own).
    pub id_prefix: AttrValue,
}

/// Entries as `key = value` rows.
fn entries_table(id: String, rows: &[(String, String)], empty: &str) -> Html {
    html! {
        <table id={id} class="kv">
            <tbody>
                if rows.is_empty() {
                    <tr><td class="empty" colspan="2">{ empty.to_string() }</td></tr>
                }
                { for rows.iter().map(|(k, v)| html! {
                    <tr data-key={k.clone()}><td><code>{ k.clone() }</code></td><td><code class="uuid">{ v.clone() }</code></td></tr>
                }) }
            </tbody>
        </table>
    }
}

/// The map, its snapshots and tiers, an "as of" reader and the last revert.
#[component]
pub fn TimelineMap(props: &TimelineMapProps) -> Html {
    let t = &props.timeline;
    let p = props.id_prefix.as_str();
    // The snapshot the lecturer reads the map as of; None = now. A snapshot that is gone
    // (deleted or reverted away) reads as now.
    let picked = use_state(|| None::<i64>);
    let as_of = picked.and_then(|e| t.as_of.iter().find(|(s, _)| *s == e));
    let pick = |choice: Option<i64>| {
        let picked = picked.clone();
        Callback::from(move |_: MouseEvent| picked.set(choice))
    };
    let committed = |e: i64| t.stable_offset.is_some_and(|s| e <= s);
    let c = crate::i18n::use_chrome();
    let ft = TimelineText::of(use_lang());
    html! {
        <div class="timeline-map" id={format!("{p}-timeline")} data-snapshots={t.snapshots.len().to_string()}
             data-as-of={as_of.map(|(e, _)| e.to_string()).unwrap_or_default()}>
            <TimelineFigure timeline={t.clone()} id_prefix={props.id_prefix.clone()} />
            <details class="tf-tables" open=true>
            <summary>{ ft.tables }</summary>
            <h3>{ c.tl_now }</h3>
            { entries_table(format!("{p}-current"), &t.current, "(empty)") }
            <h3>{ c.tl_snapshots }</h3>
            <div class="chips snapshot-picker" id={format!("{p}-snapshots")}>
                if t.snapshots.is_empty() {
                    <span class="empty">{"(none)"}</span>
                }
                { for t.snapshots.iter().map(|&e| html! {
                    <button class={classes!("chip", committed(e).then_some("committed"),
                                            (as_of.map(|(s, _)| *s) == Some(e)).then_some("picked"))}
                            id={format!("{p}-as-of-{e}")} data-epoch={e.to_string()} onclick={pick(Some(e))}
                            title={format!("get(key, {e}): the map after offset {e} was applied")}>{ e }</button>
                }) }
                if as_of.is_some() {
                    <button class="chip now" id={format!("{p}-as-of-now")} onclick={pick(None)}>{"now"}</button>
                }
            </div>
            if let Some((e, rows)) = as_of {
                <div class="as-of" id={format!("{p}-as-of")} data-epoch={e.to_string()}>
                    <h3>{ format!("{}{e}", c.tl_as_of) }</h3>
                    { entries_table(format!("{p}-as-of-table"), rows, "(empty)") }
                </div>
            }
            <h3>{ c.tl_tiers }</h3>
            if t.tiers.is_empty() {
                <p class="empty">{ c.tl_nothing_saved }</p>
            }
            { for t.tiers.iter().map(|(epoch, saved)| html! {
                <div class="topic-tier" data-epoch={epoch.to_string()}>
                    <span class="chip">{ format!("@{epoch}") }</span>
                    if saved.is_empty() {
                        <span class="empty">{"(nothing)"}</span>
                    }
                    { for saved.iter().map(|(name, value)| html! {
                        <span class="saved" data-topic={name.clone()} data-absent={value.is_none().to_string()}>
                            <code>{ name.clone() }</code>{" = "}
                            { match value {
                                Some(v) => html! { <code class="uuid">{ v.clone() }</code> },
                                None => html! { <em class="absent">{"(absent)"}</em> },
                            } }
                        </span>
                    }) }
                </div>
            }) }
            if let Some(r) = &t.last_revert {
                <p class="last-revert" id={format!("{p}-last-revert")} data-to={r.to.to_string()}
                   data-dropped={r.dropped.iter().map(|e| e.to_string()).collect::<Vec<_>>().join(",")}>
                    { format!("revertToSnapshot({}) · {}: [{}]", r.to, c.tl_dropped,
                              r.dropped.iter().map(|e| e.to_string()).collect::<Vec<_>>().join(", ")) }
                </p>
            }
            </details>
        </div>
    }
}

/// Properties of [`TimelinePanel`].
#[derive(Properties, PartialEq)]
pub struct TimelinePanelProps {
    /// The console's standalone map.
    pub timeline: Rc<TimelineView>,
}

/// The map of the console's `timeline` commands (lesson 03, the article's example 3), as a
/// panel of its own.
#[component]
pub fn TimelinePanel(props: &TimelinePanelProps) -> Html {
    html! {
        <section class="panel timeline-panel" id="timeline-panel" aria-label="TimelineHashMap">
            <h2>{ format!("{} + SnapshotRegistry", props.timeline.name) }</h2>
            <TimelineMap timeline={(*props.timeline).clone()} id_prefix="tl" />
        </section>
    }
}
