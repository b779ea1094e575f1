//! Why each rule exists (issue 18), `#rules-panel`: the rule switches, each with what it does
//! and the Kafka code it stands for (a click in free play runs `set rule.<name>=off|on` in the
//! console), and `#invariants`, each invariant green while it holds and red from its first
//! violation on, with the event, the time, the nodes and a button that rewinds there.

use std::rc::Rc;

use kraft_core::view::rules::{InvariantView, RuleView};
use kraft_core::view::ClusterView;
use yew::prelude::*;

use crate::i18n::RulesText;
use crate::state::{Action, Lang};

/// Properties of [`RulesPanel`].
#[derive(Properties, PartialEq)]
pub struct RulesPanelProps {
    /// The world's view.
    pub view: Rc<ClusterView>,
    /// Whether this is free play (switches and rewinds work; a lesson sets its own rules).
    pub free_play: bool,
    /// The narration language.
    pub lang: Lang,
    /// Runs a console command or rewinds.
    pub on_action: Callback<Action>,
}

/// The rules and the invariants; once an invariant breaks, the invariants come first with the
/// broken ones at their top, so the red row is on screen at 1280×720 without scrolling.
#[function_component]
pub fn RulesPanel(props: &RulesPanelProps) -> Html {
    let w = RulesText::of(props.lang);
    let view = &props.view;
    let broken = view.invariants.iter().filter(|i| !i.holds).count();
    let rules = html! {
        <>
            <h3>{ w.rules }<small>{ if props.free_play { w.rules_hint } else { w.lesson_hint } }</small></h3>
            <ul class="rule-list">
                { for view.rules.iter().map(|r| rule_row(r, props, w)) }
            </ul>
        </>
    };
    let mut ordered: Vec<&InvariantView> = view.invariants.iter().collect();
    ordered.sort_by_key(|i| i.holds);
    let invariants = html! {
        <>
            <h3>{ w.invariants }</h3>
            if view.invariants.is_empty() {
                <p class="empty">{ w.no_monitor }</p>
            } else {
                <ul id="invariants" class="invariant-list">
                    { for ordered.iter().map(|i| invariant_row(i, props, w)) }
                </ul>
            }
        </>
    };
    html! {
        <section id="rules-panel" class="rules-panel" data-broken={broken.to_string()}>
            if broken > 0 { { invariants } { rules } } else { { rules } { invariants } }
        </section>
    }
}

/// One rule switch.
fn rule_row(r: &RuleView, props: &RulesPanelProps, w: &RulesText) -> Html {
    let fixed = !props.free_play || r.before_cluster;
    let command = format!("set rule.{}={}", r.name, if r.on { "off" } else { "on" });
    let onclick = props
        .on_action
        .reform(move |_: MouseEvent| Action::Exec(command.clone()));
    let title = if r.before_cluster {
        format!("{} · {}", r.kafka_code, w.before_cluster)
    } else {
        r.kafka_code.to_string()
    };
    html! {
        <li class={classes!("rule", if r.on { "on" } else { "off" })} data-rule={r.name} title={title}>
            <button class="rule-switch" role="switch" aria-checked={r.on.to_string()}
                    disabled={fixed} onclick={onclick}>{ if r.on { "ON" } else { "OFF" } }</button>
            <code class="rule-name">{ r.name }</code>
            <span class="rule-gist">{ w.gist(r.name) }</span>
        </li>
    }
}

/// One invariant: green while it holds; red with its first violation and a rewind.
fn invariant_row(i: &InvariantView, props: &RulesPanelProps, w: &RulesText) -> Html {
    let rewind = match (i.event, props.free_play) {
        (Some(event), true) => {
            let onclick = props
                .on_action
                .reform(move |_: MouseEvent| Action::RewindTo(event));
            html! { <button class="invariant-rewind" onclick={onclick} title={w.rewind}>{ "⟲" }</button> }
        }
        _ => html! {},
    };
    let nodes: Vec<String> = i.nodes.iter().map(|n| n.to_string()).collect();
    html! {
        <li class={classes!("invariant", if i.holds { "holds" } else { "broken" })}
            data-invariant={i.name} data-holds={i.holds.to_string()}
            data-event={i.event.map(|e| e.to_string())}>
            <span class="invariant-mark">{ if i.holds { "✓" } else { "✗" } }</span>
            <code class="invariant-name">{ i.name }</code>
            if i.holds {
                <span class="invariant-state">{ w.holds }</span>
            } else {
                <span class="invariant-state">
                    { format!("{} · event {} · {} ms · [{}]", w.broken, i.event.unwrap_or(0),
                              i.time_ms.unwrap_or(0), nodes.join(", ")) }
                </span>
                { rewind }
                <span class="invariant-message">{ i.message.clone() }</span>
            }
        </li>
    }
}
