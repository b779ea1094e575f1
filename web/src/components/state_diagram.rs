//! One node's Raft state machine (the article's figure, live): its states, the transitions
//! QuorumState allows as edges labelled with their triggers, the current state lit, and the
//! node's last four transitions (read from its server.log) lit and numbered 1–4 with their
//! virtual times, the newest flowing. The geometry is in [`super::state_layout`].

use kraft_core::view::{NodeView, ProcessState, StateKind, TransitionView};
use yew::prelude::*;

use super::controls::format_ms;
use super::state_layout::{
    self, label_lines, path_d, Edge, Layout, StateBox, BADGE_R, BOX_H, LINE_H, WIDTH,
};
use crate::i18n::{use_lang, StateDiagramText};

/// Properties of [`StateDiagram`].
#[derive(Properties, PartialEq)]
pub struct StateDiagramProps {
    /// The node drawn.
    pub node: NodeView,
}

/// A recent transition: its number (1 the oldest), the transition and the edge it lights.
struct Numbered<'a> {
    n: usize,
    t: &'a TransitionView,
    edge: Option<&'a Edge>,
}

fn f(v: f64) -> String {
    format!("{v:.1}")
}

/// The layout of `node`: a voter's six states, or an observer's two.
pub fn layout_of(node: &NodeView) -> &'static Layout {
    if node.is_voter {
        state_layout::voter()
    } else {
        state_layout::observer()
    }
}

/// The numbers of the recent transitions `edge` carries, as `2,3`.
fn numbers_on(recent: &[Numbered], edge: &Edge) -> String {
    recent
        .iter()
        .filter(|r| r.edge.is_some_and(|e| e.id == edge.id))
        .map(|r| r.n.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// A numbered badge (a pill wide enough for `text`) centred on `at`.
fn badge(at: (f64, f64), text: &str, last: bool, data_at: &'static str) -> Html {
    let w = (BADGE_R * 2.0).max(10.0 * text.len() as f64 + 12.0);
    html! {
        <g class={classes!("sd-badge", last.then_some("last"))} data-at={data_at} data-n={text.to_string()}>
            <rect x={f(at.0 - w / 2.0)} y={f(at.1 - BADGE_R)} width={f(w)} height={f(BADGE_R * 2.0)} rx={f(BADGE_R)} />
            <text x={f(at.0)} y={f(at.1 + 5.5)} text-anchor="middle">{ text }</text>
        </g>
    }
}

fn draw_edge(e: &Edge, recent: &[Numbered]) -> Html {
    let lit = recent.iter().any(|r| r.edge.is_some_and(|x| x.id == e.id));
    let last = recent
        .last()
        .is_some_and(|r| r.edge.is_some_and(|x| x.id == e.id));
    let marker = if last {
        "url(#sd-arrow-last)"
    } else if lit {
        "url(#sd-arrow-recent)"
    } else {
        "url(#sd-arrow)"
    };
    html! {
        <>
            <path class={classes!("sd-edge", lit.then_some("recent"), last.then_some("last"))}
                  data-edge={e.id} data-from={from_name(e.from, "*")} data-to={e.to.name()} data-trigger={e.trigger}
                  d={path_d(&e.path)} marker-end={marker}>
                <title>{ format!("{} → {}: {} ({})", from_name(e.from, "*"), e.to, e.trigger, e.kafka) }</title>
            </path>
            if e.from.is_none() {
                <circle class={classes!("sd-any", lit.then_some("recent"))} cx={f(e.path[0].0)} cy={f(e.path[0].1)} r="5" />
            }
        </>
    }
}

/// A transition's state left by name, `none` (`*` for an edge from any state, `null` at
/// start-up) when it has none.
fn from_name(from: Option<StateKind>, none: &'static str) -> &'static str {
    from.map_or(none, StateKind::name)
}

fn draw_label(e: &Edge, recent: &[Numbered], t: &StateDiagramText) -> Html {
    let lit = recent.iter().any(|r| r.edge.is_some_and(|x| x.id == e.id));
    let l = &e.label;
    html! {
        <text class={classes!("sd-label", lit.then_some("recent"))} data-edge={e.id}
              x={f(l.x)} y={f(l.y)} text-anchor={l.anchor.svg()}>
            { for label_lines(l, t).enumerate().map(|(i, line)| html! {
                <tspan x={f(l.x)} dy={if i == 0 { "0".to_string() } else { f(LINE_H) }}>{ line }</tspan>
            }) }
        </text>
    }
}

fn draw_state(s: &StateBox, current: Option<StateKind>) -> Html {
    let is_current = current == Some(s.name);
    let (x0, y0, _, _) = s.rect();
    let name = s.name.name();
    html! {
        <g class={classes!("sd-state", format!("sd-{}", name.to_ascii_lowercase()), is_current.then_some("current"))}
           data-state={name}>
            <rect x={f(x0)} y={f(y0)} width={f(s.w)} height={f(BOX_H)} rx="10" />
            <text x={f(s.cx)} y={f(s.cy + 6.0)} text-anchor="middle">{ name }</text>
        </g>
    }
}

/// The numbered list of the recent transitions: number and virtual time, the full
/// transition in its title.
fn recent_list(layout: &Layout, recent: &[Numbered]) -> Html {
    let (x, y) = layout.list_at;
    html! {
        <g class="sd-recent" id="sd-recent">
            { for recent.iter().enumerate().map(|(i, r)| {
                let cy = y + BADGE_R + 22.0 * i as f64;
                let last = i + 1 == recent.len();
                html! {
                    <g class={classes!("sd-recent-row", last.then_some("last"))} data-n={r.n.to_string()}
                       data-from={from_name(r.t.from, "null")} data-to={r.t.to.name()} data-epoch={r.t.epoch.to_string()}
                       data-time-ms={r.t.time_ms.to_string()} data-edge={r.edge.map(|e| e.id).unwrap_or_default()}>
                        <title>{ format!("{} → {} (epoch {}) at {}", from_name(r.t.from, "null"), r.t.to, r.t.epoch, format_ms(r.t.time_ms)) }</title>
                        { badge((x + BADGE_R, cy), &r.n.to_string(), last, "list") }
                        <text class="sd-time" x={f(x + 2.0 * BADGE_R + 6.0)} y={f(cy + 6.0)}>{ format_ms(r.t.time_ms) }</text>
                    </g>
                }
            }) }
        </g>
    }
}

/// Badges: one per lit edge (its numbers), and on the state entered for a transition the
/// diagram draws no edge for.
fn badges(layout: &Layout, recent: &[Numbered]) -> Html {
    let newest = recent.last().map(|r| r.n);
    let on_edges = layout.edges.iter().filter_map(|e| {
        let text = numbers_on(recent, e);
        (!text.is_empty()).then(|| {
            let last = newest.is_some_and(|n| text.split(',').any(|x| x == n.to_string()));
            badge(e.badge, &text, last, "edge")
        })
    });
    let on_states = recent.iter().filter(|r| r.edge.is_none()).filter_map(|r| {
        let s = layout.state(r.t.to)?;
        let (_, top, right, _) = s.rect();
        Some(badge(
            (right - 4.0, top),
            &r.n.to_string(),
            Some(r.n) == newest,
            "state",
        ))
    });
    html! { <g class="sd-badges">{ for on_edges }{ for on_states }</g> }
}

/// The diagram of `node`'s states.
#[component]
pub fn StateDiagram(props: &StateDiagramProps) -> Html {
    let node = &props.node;
    let t = crate::i18n::use_chrome();
    let words = StateDiagramText::of(use_lang());
    let layout = layout_of(node);
    let running = node.process == ProcessState::Running;
    let current = node.raft_state.filter(|_| running);
    let recent: Vec<Numbered> = node
        .recent_transitions
        .iter()
        .enumerate()
        .map(|(i, t)| Numbered {
            n: i + 1,
            t,
            edge: layout.edge_for(t),
        })
        .collect();
    let last = recent.last();
    // The newest transition runs along its edge once, as dashes flowing from the state left to
    // the state entered; keyed by its time, so that a new transition starts it again.
    let flow = last.and_then(|r| {
        let e = r.edge?;
        Some(html! {
            <path key={format!("{}-{}-{}", r.t.time_ms, from_name(r.t.from, "null"), r.t.to)} class="sd-flow" d={path_d(&e.path)} />
        })
    });
    let caption = match last {
        Some(r) => format!(
            "{} {} → {} (epoch {}), {}",
            t.last_transition,
            from_name(r.t.from, "null"),
            r.t.to,
            r.t.epoch,
            format_ms(r.t.time_ms)
        ),
        None => t.no_transition.to_string(),
    };
    html! {
        <section class="panel state-diagram" id="state-diagram" data-node-id={node.id.to_string()}
                 data-current={current.map_or("-", StateKind::name)} data-recent={recent.len().to_string()}
                 data-last-from={last.map(|r| from_name(r.t.from, "null")).unwrap_or_default()}
                 data-last-to={last.map(|r| r.t.to.name()).unwrap_or_default()}>
            <h2>{ format!("{} {}{}", t.raft_states, node.id, if node.is_voter { "" } else { " (observer)" }) }</h2>
            <svg viewBox={format!("0 0 {WIDTH} {}", layout.height)} role="img" aria-label="Raft state transitions">
                <defs>
                    { for [("sd-arrow", "", "5"), ("sd-arrow-recent", "recent", "3.5"), ("sd-arrow-last", "last", "3")].iter().map(|(id, class, size)| html! {
                        <marker id={*id} viewBox="0 0 10 10" refX="9" refY="5" markerWidth={*size} markerHeight={*size} orient="auto">
                            <path d="M 0 0 L 10 5 L 0 10 z" class={classes!("sd-head", (!class.is_empty()).then_some(*class))} />
                        </marker>
                    }) }
                </defs>
                <g class="sd-edges">{ for layout.edges.iter().map(|e| draw_edge(e, &recent)) }</g>
                <g class="sd-flows">{ for flow }</g>
                <g class="sd-labels">{ for layout.edges.iter().map(|e| draw_label(e, &recent, words)) }</g>
                <text class="sd-title" x={f(WIDTH - 4.0)} y="24" text-anchor="end">
                    { format!("{} {}{}", words.node, node.id, if node.is_voter { "" } else { words.observer }) }
                </text>
                { for layout.states.iter().map(|s| draw_state(s, current)) }
                { badges(layout, &recent) }
                { recent_list(layout, &recent) }
            </svg>
            <p class="sub" id="state-diagram-last">{ caption }</p>
        </section>
    }
}
