//! Why each rule exists (issue 18), `#rules-panel`: the rule switches, each with what it does
//! and the Kafka code it stands for (a click in free play runs `set rule.<name>=off|on` in the
//! console), and `#invariants`, each invariant green while it holds and red from its first
//! violation on, with the event, the time, the nodes and a button that rewinds there.

use std::rc::Rc;

use kraft_core::view::rules::{InvariantView, RuleView};
use kraft_core::view::ClusterView;
use yew::prelude::*;

use crate::state::{Action, Lang};

/// The panel's words in one language.
struct Words {
    rules: &'static str,
    rules_hint: &'static str,
    lesson_hint: &'static str,
    before_cluster: &'static str,
    invariants: &'static str,
    holds: &'static str,
    broken: &'static str,
    rewind: &'static str,
    no_monitor: &'static str,
}

/// The words for `lang`.
fn words(lang: Lang) -> &'static Words {
    const KO: Words = Words {
        rules: "규칙",
        rules_hint: "규칙을 끄면 무엇이 깨지는지 봅니다 (set rule.이름=off)",
        lesson_hint: "레슨이 규칙을 정합니다",
        before_cluster: "cluster 전에만 바꿀 수 있습니다",
        invariants: "불변식",
        holds: "지켜짐",
        broken: "깨짐",
        rewind: "그 이벤트로 되감기",
        no_monitor: "이 클러스터는 불변식을 검사하지 않습니다",
    };
    const EN: Words = Words {
        rules: "Rules",
        rules_hint: "switch a rule off to see what breaks (set rule.NAME=off)",
        lesson_hint: "the lesson sets the rules",
        before_cluster: "can only be switched before cluster",
        invariants: "Invariants",
        holds: "holds",
        broken: "broken",
        rewind: "rewind to that event",
        no_monitor: "this cluster runs without the invariant checks",
    };
    match lang {
        Lang::Ko => &KO,
        Lang::En => &EN,
    }
}

/// What a rule does, in a few words (ko, en).
pub fn rule_gist(name: &str, lang: Lang) -> &'static str {
    let (ko, en) = match name {
        "prevote" => (
            "에포크를 올리기 전에 PreVote 로 과반을 묻는다",
            "ask a majority with PreVote before bumping the epoch",
        ),
        "durable-vote" => (
            "투표를 quorum-state 에 쓴 뒤에 응답한다",
            "write the vote to quorum-state before answering",
        ),
        "vote-log-check" => (
            "로그가 뒤처진 후보에게는 투표하지 않는다",
            "vote only for a candidate whose log is up to date",
        ),
        "hw-epoch-start" => (
            "HW 는 리더 에포크의 첫 오프셋을 넘어야 움직인다",
            "move the HW only past the leader's epochStartOffset",
        ),
        "check-quorum" => (
            "과반의 Fetch 가 끊긴 리더는 물러난다",
            "a leader without a majority's fetches resigns",
        ),
        "revert-on-renounce" => (
            "물러난 컨트롤러는 마지막 안정 오프셋으로 되돌린다",
            "a renouncing controller reverts to the last stable offset",
        ),
        "snapshot-after-replay" => (
            "레코드 N 을 적용한 뒤에 스냅숏 N 을 만든다",
            "take snapshot N after replaying record N",
        ),
        "loader-catch-up" => (
            "로더는 따라잡기 전에 이미지를 내보내지 않는다",
            "the loader publishes no image before it catches up",
        ),
        "session-fencing" => (
            "세션이 끝난 브로커는 펜스된다",
            "a broker whose session expired is fenced",
        ),
        _ => ("", ""),
    };
    match lang {
        Lang::Ko => ko,
        Lang::En => en,
    }
}

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
    let w = words(props.lang);
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
fn rule_row(r: &RuleView, props: &RulesPanelProps, w: &Words) -> Html {
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
            <span class="rule-gist">{ rule_gist(r.name, props.lang) }</span>
        </li>
    }
}

/// One invariant: green while it holds; red with its first violation and a rewind.
fn invariant_row(i: &InvariantView, props: &RulesPanelProps, w: &Words) -> Html {
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
