//! The cluster drawn as a circle of nodes, with the messages in flight moving between them.

use std::collections::BTreeMap;
use std::f64::consts::PI;
use std::rc::Rc;

use kraft_core::view::{ClusterView, MessageView, NodeView, RaftTimerView, RECENT_MESSAGE_MS};
use yew::prelude::*;

use super::broker_panel::active_controller;
use super::controls::{heal_button, isolate_command, process_buttons};
use super::role_class;
use crate::state::Action;

const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 720.0;
const RING_RADIUS: f64 = 235.0;
/// The ring's centre, a little below the middle: room for the session arc of a node at the top
/// and for the label of a node at the bottom.
const CENTER_Y: f64 = HEIGHT / 2.0 - 5.0;
const NODE_RADIUS: f64 = 68.0;
/// Messages in each direction are drawn this far to the side of the centre line.
const LANE_OFFSET: f64 = 10.0;
/// Radius of the timer arc around a controller (a circle).
const TIMER_RADIUS: f64 = NODE_RADIUS + 11.0;
/// Radius of the timer arc around a broker (a rectangle, whose corners reach further).
const TIMER_RADIUS_BROKER: f64 = 94.0;

/// Properties of [`ClusterDiagram`].
#[derive(Properties, PartialEq)]
pub struct ClusterDiagramProps {
    /// What to draw.
    pub view: Rc<ClusterView>,
    /// The node whose log tail is shown (drawn with a ring).
    pub selected: i32,
    /// Called with a node id when the user clicks a node.
    pub on_select: Callback<i32>,
    /// Sends the node menu's process actions to the reducer.
    pub on_action: Callback<Action>,
}

/// Where each node sits on the ring, by node id.
pub fn layout(nodes: &[NodeView]) -> BTreeMap<i32, (f64, f64)> {
    let n = nodes.len().max(1) as f64;
    nodes
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let angle = -PI / 2.0 + 2.0 * PI * i as f64 / n;
            let x = WIDTH / 2.0 + RING_RADIUS * angle.cos();
            let y = CENTER_Y + RING_RADIUS * angle.sin();
            (node.id, (x, y))
        })
        .collect()
}

/// A message kind split into its API and direction: `("Fetch", "req")`, `("Vote", "resp")`,
/// `("Fetch", "failed")`; a kind without a known suffix is all API.
fn split_kind(kind: &str) -> (&str, &str) {
    for (suffix, dir) in [
        ("Request", "req"),
        ("Response", "resp"),
        ("Failed", "failed"),
    ] {
        if let Some(base) = kind.strip_suffix(suffix) {
            return (base, dir);
        }
    }
    (kind, "")
}

/// The CSS class of a message kind: `msg-vote`, `msg-prevote`, `msg-fetch`, `msg-heartbeat`, …
pub fn message_class(kind: &str) -> &'static str {
    match split_kind(kind).0 {
        "Vote" => "msg-vote",
        "PreVote" => "msg-prevote",
        "BeginQuorumEpoch" => "msg-begin",
        "EndQuorumEpoch" => "msg-end",
        "Fetch" => "msg-fetch",
        "FetchSnapshot" => "msg-snapshot",
        "BrokerHeartbeat" => "msg-heartbeat",
        "AlterPartition" => "msg-alter",
        "ReplicaFetch" => "msg-replica",
        _ => "msg-other",
    }
}

/// A short label for a message kind, e.g. `Fetch req`, `PreVote resp`, `heartbeat req`.
pub fn message_label(kind: &str) -> String {
    let (base, dir) = split_kind(kind);
    let base = match base {
        "BrokerHeartbeat" => "heartbeat",
        other => other,
    };
    if dir.is_empty() {
        base.to_string()
    } else {
        format!("{base} {dir}")
    }
}

/// The page draws a message delivered or dropped `age` ms ago with this opacity.
fn fade(age_ms: u64) -> f64 {
    (1.0 - age_ms as f64 / RECENT_MESSAGE_MS as f64).clamp(0.2, 1.0)
}

/// A message: on its way (a dot moving along the link), dropped (marked ✕, fading) or just
/// delivered (`delivered`: at the receiver, fading).
fn draw_message(
    m: &MessageView,
    now_ms: u64,
    pos: &BTreeMap<i32, (f64, f64)>,
    delivered: bool,
) -> Html {
    let (Some(&(x1, y1)), Some(&(x2, y2))) = (pos.get(&m.from), pos.get(&m.to)) else {
        return html! {};
    };
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    // Requests and responses between the same pair travel in separate lanes.
    let (ox, oy) = (-uy * LANE_OFFSET, ux * LANE_OFFSET);
    let (sx, sy) = (x1 + ux * NODE_RADIUS + ox, y1 + uy * NODE_RADIUS + oy);
    let (ex, ey) = (x2 - ux * NODE_RADIUS + ox, y2 - uy * NODE_RADIUS + oy);
    let span = m.arrive_ms.saturating_sub(m.send_ms).max(1) as f64;
    let progress = if delivered {
        1.0
    } else {
        (now_ms.saturating_sub(m.send_ms) as f64 / span).clamp(0.0, 1.0)
    };
    let (state, opacity) = if delivered {
        ("delivered", fade(now_ms.saturating_sub(m.arrive_ms)))
    } else if m.dropped {
        ("dropped", fade(now_ms.saturating_sub(m.send_ms)))
    } else {
        ("in-flight", 1.0)
    };
    let (px, py) = (sx + (ex - sx) * progress, sy + (ey - sy) * progress);
    let class = classes!(
        "message",
        message_class(&m.kind),
        m.dropped.then_some("dropped"),
        delivered.then_some("delivered")
    );
    let title = format!(
        "{} {} → {}: {} (sent {} ms, arrives {} ms){}",
        m.kind,
        m.from,
        m.to,
        m.summary,
        m.send_ms,
        m.arrive_ms,
        match state {
            "dropped" => " DROPPED",
            "delivered" => " delivered",
            _ => "",
        }
    );
    html! {
        <g class={class} data-message-id={m.id.to_string()} data-kind={m.kind.clone()}
           data-from={m.from.to_string()} data-to={m.to.to_string()} data-state={state}
           data-progress={format!("{progress:.3}")} opacity={format!("{opacity:.2}")}>
            <title>{ title }</title>
            <line class="track" x1={fmt(sx)} y1={fmt(sy)} x2={fmt(ex)} y2={fmt(ey)} marker-end="url(#arrow)" />
            <circle class="dot" cx={fmt(px)} cy={fmt(py)} r="9" />
            if m.dropped {
                <text class="drop-mark" x={fmt(px)} y={fmt(py + 6.0)} text-anchor="middle">{"✕"}</text>
            }
            <text class="msg-label" x={fmt(px + ox * 1.6)} y={fmt(py + oy * 1.6 - 12.0)} text-anchor="middle"
                  data-label={message_label(&m.kind)}>
                { message_label(&m.kind) }
            </text>
        </g>
    }
}

/// The fraction of a timer still to run at `now_ms`, in [0, 1].
pub fn timer_fraction(t: &RaftTimerView, now_ms: u64) -> f64 {
    (t.deadline_ms.saturating_sub(now_ms) as f64 / t.duration_ms.max(1) as f64).clamp(0.0, 1.0)
}

/// A track circle of radius `r` around `(x, y)` and, over it, the arc of the share `frac` still
/// to run, starting at 12 o'clock and draining clockwise.
fn arc((x, y): (f64, f64), r: f64, frac: f64) -> Html {
    let circumference = 2.0 * PI * r;
    html! {
        <>
            <circle class="timer-track" cx={fmt(x)} cy={fmt(y)} r={fmt(r)} />
            <circle class="timer-arc" cx={fmt(x)} cy={fmt(y)} r={fmt(r)}
                    stroke-dasharray={format!("{:.1} {:.1}", circumference * frac, circumference)}
                    transform={format!("rotate(-90 {} {})", fmt(x), fmt(y))} />
        </>
    }
}

/// Radius of the session arc around a broker, outside its fetch timer.
const SESSION_RADIUS: f64 = TIMER_RADIUS_BROKER + 13.0;

/// A broker's session on the active controller (`since_ms` after its last heartbeat, of
/// `timeout_ms`) as an outer arc draining towards the fencing deadline.
fn draw_session(id: i32, (x, y): (f64, f64), since_ms: u64, timeout_ms: u64) -> Html {
    let left_ms = timeout_ms.saturating_sub(since_ms);
    let frac = left_ms as f64 / timeout_ms.max(1) as f64;
    let title = format!(
        "session on the active controller: last heartbeat {since_ms} ms ago, fenced after {timeout_ms} ms (broker.session.timeout.ms)"
    );
    html! {
        <g class="timer timer-session" data-session-node={id.to_string()} data-kind="session"
           data-remaining-ms={left_ms.to_string()} data-duration-ms={timeout_ms.to_string()}>
            <title>{ title }</title>
            { arc((x, y), SESSION_RADIUS, frac) }
        </g>
    }
}

/// The node's Raft timer as an arc around it that drains clockwise as the deadline nears.
fn draw_timer(node: &NodeView, (x, y): (f64, f64), now_ms: u64, broker_only: bool) -> Html {
    let Some(t) = node
        .raft_timer
        .as_ref()
        .filter(|_| node.process == "running")
    else {
        return html! {};
    };
    let r = if broker_only {
        TIMER_RADIUS_BROKER
    } else {
        TIMER_RADIUS
    };
    let frac = timer_fraction(t, now_ms);
    let left_ms = t.deadline_ms.saturating_sub(now_ms);
    let title = format!(
        "{} timer: {left_ms} ms left of {} ms (fires at {} ms)",
        t.kind, t.duration_ms, t.deadline_ms
    );
    html! {
        <g class={classes!("timer", format!("timer-{}", t.kind))} data-timer-node={node.id.to_string()}
           data-kind={t.kind.clone()} data-remaining-ms={left_ms.to_string()}
           data-duration-ms={t.duration_ms.to_string()} data-deadline-ms={t.deadline_ms.to_string()}>
            <title>{ title }</title>
            { arc((x, y), r, frac) }
        </g>
    }
}

/// Clicking a node (or Enter on it) selects it and opens its menu, or closes the menu it has;
/// Escape on it closes the menu.
fn draw_node(
    node: &NodeView,
    (x, y): (f64, f64),
    selected: bool,
    on_open: &Callback<i32>,
    on_close: &Callback<()>,
) -> Html {
    let id = node.id;
    let onclick = on_open.reform(move |_: MouseEvent| id);
    let onkeydown = {
        let (on_open, on_close) = (on_open.clone(), on_close.clone());
        Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
            "Enter" => {
                e.prevent_default();
                on_open.emit(id);
            }
            "Escape" => on_close.emit(()),
            _ => {}
        })
    };
    let is_broker_only = !node.roles.contains("controller");
    let class = classes!(
        "node",
        role_class(node),
        is_broker_only.then_some("broker"),
        selected.then_some("selected")
    );
    let role_text = if node.process == "running" {
        node.raft_state.clone()
    } else {
        node.process.to_uppercase()
    };
    let shape = if is_broker_only {
        html! { <rect class="shape" x={fmt(x - NODE_RADIUS)} y={fmt(y - NODE_RADIUS * 0.8)}
        width={fmt(NODE_RADIUS * 2.0)} height={fmt(NODE_RADIUS * 1.6)} rx="14" /> }
    } else {
        html! { <circle class="shape" cx={fmt(x)} cy={fmt(y)} r={fmt(NODE_RADIUS)} /> }
    };
    let leader = node
        .leader_id
        .map(|l| format!("leader {l}"))
        .unwrap_or_else(|| "no leader".into());
    html! {
        <g class={class} id={format!("node-{id}")} data-node-id={id.to_string()}
           data-role={node.raft_state.clone()} data-epoch={node.epoch.to_string()}
           data-process={node.process.clone()} data-leader-id={node.leader_id.map(|l| l.to_string()).unwrap_or_default()}
           onclick={onclick} onkeydown={onkeydown} tabindex="0" role="button"
           aria-label={format!("node {id}: open its menu")}>
            <title>{ format!("node {id} ({}), {}, voted {:?} — click for kill -9, STOP, CONT, restart, isolate", node.roles, leader, node.voted_id) }</title>
            { shape }
            <text class="node-id" x={fmt(x)} y={fmt(y - 16.0)} text-anchor="middle">{ id }</text>
            <text class="node-role" x={fmt(x)} y={fmt(y + 12.0)} text-anchor="middle">{ role_text }</text>
            <text class="node-epoch" x={fmt(x)} y={fmt(y + 38.0)} text-anchor="middle">{ format!("epoch {}", node.epoch) }</text>
            <text class="node-roles" x={fmt(x)} y={fmt(y + if is_broker_only { SESSION_RADIUS + 20.0 } else { TIMER_RADIUS + 24.0 })} text-anchor="middle">
                { format!("{} · LEO {} · HW {}", node.roles, node.log_end_offset,
                          node.high_watermark.map(|h| h.to_string()).unwrap_or_else(|| "?".into())) }
            </text>
        </g>
    }
}

fn fmt(v: f64) -> String {
    format!("{v:.1}")
}

/// The menu of node `node`, in the middle of the ring (where it covers no node): the process
/// table's kill -9 / restart / STOP / CONT / isolate, heal, and close.
fn node_menu(
    view: &ClusterView,
    node: &NodeView,
    on_action: &Callback<Action>,
    on_close: Callback<()>,
    heal_label: &'static str,
) -> Html {
    let id = node.id;
    // The ring's centre, in % of the drawing (see `layout`).
    let style = format!(
        "left: {:.2}%; top: {:.2}%;",
        50.0,
        CENTER_Y / HEIGHT * 100.0
    );
    let close = on_close.reform(|_: MouseEvent| ());
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Escape" {
            e.prevent_default();
            on_close.emit(());
        }
    });
    let state = if node.process == "running" {
        node.raft_state.clone()
    } else {
        node.process.to_uppercase()
    };
    html! {
        <div class={classes!("node-menu", role_class(node))} id="node-menu" data-node-id={id.to_string()}
             data-process={node.process.clone()} style={style} role="dialog"
             aria-label={format!("node {id}")} onkeydown={onkeydown}>
            <p class="node-menu-head">
                <strong>{ format!("node {id}") }</strong>
                <button id="node-menu-close" class="close" onclick={close} title="Close (Escape)">{"×"}</button>
            </p>
            <p class="node-menu-state">{ format!("{} · {state} · epoch {}", node.roles, node.epoch) }</p>
            <p class="node-menu-buttons">
                { process_buttons(node, isolate_command(view, id), on_action, "menu") }
                { heal_button(format!("menu-heal-{id}"), heal_label, on_action) }
            </p>
        </div>
    }
}

/// The SVG drawing of the cluster; clicking a node selects it and opens its menu.
#[component]
pub fn ClusterDiagram(props: &ClusterDiagramProps) -> Html {
    let view = &props.view;
    let pos = layout(&view.nodes);
    let t = crate::chrome::use_chrome();
    // The node whose menu is open.
    let menu = use_state(|| None::<i32>);
    let on_open = {
        let menu = menu.clone();
        let on_select = props.on_select.clone();
        Callback::from(move |id: i32| {
            on_select.emit(id);
            menu.set(if *menu == Some(id) { None } else { Some(id) });
        })
    };
    let on_close = {
        let menu = menu.clone();
        Callback::from(move |()| menu.set(None))
    };
    let open = menu.and_then(|id| view.nodes.iter().find(|n| n.id == id));
    // The sessions the active controller holds (none without one).
    let active = active_controller(view).map(|(_, c)| c);
    html! {
        <section class="panel cluster" aria-label="cluster">
          <div class="cluster-stage">
            <svg id="cluster" viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img">
                <defs>
                    <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-head" />
                    </marker>
                </defs>
                <g class="messages recent" id="recent-messages" data-count={view.recently_delivered.len().to_string()}>
                    { for view.recently_delivered.iter().map(|m| draw_message(m, view.now_ms, &pos, true)) }
                </g>
                <g class="messages" id="messages" data-count={view.messages.len().to_string()}>
                    { for view.messages.iter().map(|m| draw_message(m, view.now_ms, &pos, false)) }
                </g>
                <g class="timers" id="timers">
                    { for view.nodes.iter().map(|n| draw_timer(n, pos[&n.id], view.now_ms, !n.roles.contains("controller"))) }
                    { for active.into_iter().flat_map(|c| c.sessions.iter().filter_map(|(id, since)| pos.get(id).map(|p| draw_session(*id, *p, *since, c.session_timeout_ms)))) }
                </g>
                <g class="nodes">
                    { for view.nodes.iter().map(|n| draw_node(n, pos[&n.id], n.id == props.selected, &on_open, &on_close)) }
                </g>
            </svg>
            if let Some(node) = open {
                { node_menu(view, node, &props.on_action, on_close.clone(), t.heal) }
            }
          </div>
            <p class="legend">
                <span class="key msg-vote">{"Vote"}</span>
                <span class="key msg-prevote">{"PreVote"}</span>
                <span class="key msg-begin">{"BeginQuorumEpoch"}</span>
                <span class="key msg-end">{"EndQuorumEpoch"}</span>
                <span class="key msg-fetch">{"Fetch"}</span>
                <span class="key msg-snapshot">{"FetchSnapshot"}</span>
                <span class="key msg-heartbeat">{"heartbeat"}</span>
                <span class="key msg-alter">{"AlterPartition"}</span>
                <span class="key msg-replica">{"ReplicaFetch"}</span>
                <span class="key dropped-key">{"✕ dropped"}</span>
                <span class="key msg-other">{"other"}</span>
                <span class="key timer-election">{"election timer"}</span>
                <span class="key timer-fetch">{"fetch timer"}</span>
                <span class="key timer-check-quorum">{"check-quorum timer"}</span>
                <span class="key timer-session">{"broker session"}</span>
            </p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_classes() {
        assert_eq!(message_label("FetchRequest"), "Fetch req");
        assert_eq!(message_label("VoteResponse"), "Vote resp");
        assert_eq!(message_class("BeginQuorumEpochRequest"), "msg-begin");
        assert_eq!(message_class("BrokerHeartbeatRequest"), "msg-heartbeat");
        assert_eq!(message_label("BrokerHeartbeatResponse"), "heartbeat resp");
        assert_eq!(message_label("PreVoteRequest"), "PreVote req");
        assert_eq!(message_class("PreVoteResponse"), "msg-prevote");
        assert_eq!(message_label("FetchFailed"), "Fetch failed");
        assert_eq!(message_class("AlterPartitionRequest"), "msg-alter");
        assert_eq!(message_class("CreateTopicsRequest"), "msg-other");
    }
}
