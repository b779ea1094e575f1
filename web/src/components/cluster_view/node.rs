//! A node as drawn: a controller's circle or a broker's box with its id and epoch, its state
//! caption on its side of the ring (a broker's BrokerState, a controller's Raft state, an
//! Unattached voter's vote) and, on a broker, its data partitions; and the layer of every node.

use std::collections::BTreeMap;

use kraft_core::lesson::stage::Highlight;
use kraft_core::view::{NodeView, PartitionView, ProcessState, StateKind};
use yew::prelude::*;

use super::geometry::{
    fmt, on_ring, Geometry, BROKER_HALF_H, BROKER_HALF_W, CAPTION_GAP, CAPTION_LINE, NODE_RADIUS,
    SESSION_RADIUS, TIMER_RADIUS, WIDTH,
};
use super::labels::label_width;
use super::partitions::draw_partitions;
use super::ClusterDiagramProps;
use crate::components::{role_class, state_name};

/// What a node's label under it says: a broker's BrokerState (FENCED when the active controller
/// fenced it, also while its process is stopped), a controller's Raft state; KILLED or STOPPED
/// when the process is not running.
fn state_text(node: &NodeView, fenced: Option<bool>) -> String {
    let broker_only = !node.roles.has_controller();
    let fenced = broker_only && fenced == Some(true) && node.process != ProcessState::Killed;
    match (node.process, fenced) {
        (ProcessState::Running, true) => "FENCED".into(),
        (ProcessState::Running, false) if broker_only => node
            .broker
            .as_ref()
            .map_or_else(|| state_name(node), |b| b.state.name())
            .to_string(),
        (ProcessState::Running, false) => state_name(node).to_string(),
        (process, true) => format!("FENCED · {}", process.name().to_ascii_uppercase()),
        (process, false) => process.name().to_ascii_uppercase(),
    }
}

/// What one node looks like and how it reacts.
struct NodeLook<'a> {
    /// The nodes' size (see [`Geometry::scale`]).
    scale: f64,
    /// Which way the caption goes: -1 up, 1 down.
    dir: f64,
    selected: bool,
    dim: bool,
    focused: bool,
    fenced: Option<bool>,
    partitions: &'a [PartitionView],
    highlights: &'a [Highlight],
}

/// The nodes' layer: every node of the view, the focus's others dimmed, the lit ones lit.
pub(super) fn draw_nodes(
    props: &ClusterDiagramProps,
    geo: &Geometry,
    fenced: &BTreeMap<i32, bool>,
    on_open: &Callback<i32>,
    on_close: &Callback<()>,
) -> Html {
    let view = &props.view;
    let lit = &props.highlights;
    let lit_node = |id: i32| {
        props.focus == Some(id)
            || lit
                .iter()
                .any(|h| matches!(h, Highlight::Node(n) if *n == id))
    };
    html! {
        <g class="nodes">
            { for view.nodes.iter().map(|n| {
                let look = NodeLook {
                    scale: geo.scale,
                    dir: geo.dir.get(&n.id).copied().unwrap_or(1.0),
                    selected: n.id == props.selected,
                    dim: props.focus.is_some_and(|f| f != n.id) && !lit_node(n.id),
                    focused: lit_node(n.id),
                    fenced: fenced.get(&n.id).copied(),
                    partitions: &view.partitions,
                    highlights: lit,
                };
                draw_node(n, geo.pos[&n.id], look, on_open, on_close)
            }) }
        </g>
    }
}

/// Clicking a node (or Enter on it) selects it and opens its menu, or closes the menu it has;
/// Escape on it closes the menu.
fn draw_node(
    node: &NodeView,
    (x, y): (f64, f64),
    look: NodeLook,
    on_open: &Callback<i32>,
    on_close: &Callback<()>,
) -> Html {
    let id = node.id;
    let onclick = on_open.reform(move |_: MouseEvent| id);
    let onkeydown = node_keys(id, on_open, on_close);
    let broker_only = !node.roles.has_controller();
    let s = look.scale;
    let half_h = s * if broker_only {
        BROKER_HALF_H
    } else {
        NODE_RADIUS
    };
    let outer = s * if broker_only {
        SESSION_RADIUS
    } else {
        TIMER_RADIUS
    };
    // On its side of the ring (outward): its state (and a voter's vote), then (brokers) its
    // partitions.
    let line = |k: usize| y + look.dir * (outer + CAPTION_GAP + CAPTION_LINE * (k as f64 + 0.5));
    let state = state_text(node, look.fenced);
    html! {
        <g class={node_class(node, &look)} id={format!("node-{id}")} data-node-id={id.to_string()}
           data-role={state_name(node)} data-epoch={node.epoch.to_string()}
           data-process={node.process.name()} data-leader-id={node.leader_id.map(|l| l.to_string()).unwrap_or_default()}
           data-voted-id={node.voted_id.map(|v| v.to_string()).unwrap_or_default()}
           data-fenced={look.fenced.map(|f| f.to_string()).unwrap_or_default()}
           data-state-text={state.clone()} data-focused={look.focused.then_some("true")}
           data-voter={node.is_voter.to_string()} data-observer={(!on_ring(node)).then_some("true")}
           onclick={onclick} onkeydown={onkeydown} tabindex="0" role="button"
           aria-label={format!("node {id}: open its menu")}>
            <title>{ node_title(node) }</title>
            { node_shape(broker_only, (x, y), s) }
            <text class="node-id" x={fmt(x)} y={fmt(y - half_h * 0.18)} text-anchor="middle" dominant-baseline="central"
                  style={(s < 1.0).then(|| format!("font-size: {:.2}rem", 1.7 * s.max(0.8)))}>{ id }</text>
            // A crowded ring has smaller nodes: the epoch line shortens to fit inside.
            <text class="node-epoch" x={fmt(x)} y={fmt(y + half_h * 0.5)} text-anchor="middle" dominant-baseline="central">
                { if s < 0.95 { format!("e{}", node.epoch) } else { format!("epoch {}", node.epoch) } }
            </text>
            { state_caption(node, &state, x, line(0)) }
            if node.roles.has_broker() {
                { draw_partitions(id, x, &|k| line(1 + k), look.partitions, look.highlights) }
            }
        </g>
    }
}

/// A node's keys: Enter selects it and opens its menu (or closes the one it has), Escape closes
/// the menu.
fn node_keys(id: i32, on_open: &Callback<i32>, on_close: &Callback<()>) -> Callback<KeyboardEvent> {
    let (on_open, on_close) = (on_open.clone(), on_close.clone());
    Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
        "Enter" => {
            e.prevent_default();
            on_open.emit(id);
        }
        "Escape" => on_close.emit(()),
        _ => {}
    })
}

/// A node's CSS classes: its role, broker or combined, a controller observing apart from the
/// voters, and how the stage shows it.
fn node_class(node: &NodeView, look: &NodeLook) -> Classes {
    let broker_only = !node.roles.has_controller();
    let combined = node.roles.has_broker() && !broker_only;
    let fenced = look.fenced == Some(true) && node.process == ProcessState::Running;
    classes!(
        "node",
        role_class(node),
        broker_only.then_some("broker"),
        (!on_ring(node)).then_some("observer"),
        combined.then_some("combined"),
        look.selected.then_some("selected"),
        look.dim.then_some("dim"),
        look.focused.then_some("lit"),
        fenced.then_some("fenced")
    )
}

/// A broker's box or a controller's circle around `(x, y)`, at scale `s`.
fn node_shape(broker_only: bool, (x, y): (f64, f64), s: f64) -> Html {
    if broker_only {
        html! { <rect class="shape" x={fmt(x - BROKER_HALF_W * s)} y={fmt(y - BROKER_HALF_H * s)}
        width={fmt(BROKER_HALF_W * 2.0 * s)} height={fmt(BROKER_HALF_H * 2.0 * s)} rx="12" /> }
    } else {
        html! { <circle class="shape" cx={fmt(x)} cy={fmt(y)} r={fmt(NODE_RADIUS * s)} /> }
    }
}

/// A node's tooltip: its roles, state, epoch, leader and vote, and what clicking it offers.
fn node_title(node: &NodeView) -> String {
    let leader = node
        .leader_id
        .map(|l| format!("leader {l}"))
        .unwrap_or_else(|| "no leader".into());
    format!("node {} ({}), {} in epoch {}, {}, voted {} — click for kill -9, STOP, CONT, restart, isolate",
            node.id, node.roles, state_name(node), node.epoch, leader,
            node.voted_id.map(|v| v.to_string()).unwrap_or_else(|| "-".into()))
}

/// The state caption of a node at `x`, its line at `state_y`: `state` (see [`state_text`]) and
/// an Unattached voter's vote in this epoch (103 remembers "votedId":102 and grants no other
/// candidate), centred under the node but kept inside the drawing.
fn state_caption(node: &NodeView, state: &str, x: f64, state_y: f64) -> Html {
    let caption_x = |text_chars: usize| {
        let half = label_width(&"x".repeat(text_chars)) / 2.0 + 4.0;
        x.clamp(half.min(WIDTH / 2.0), (WIDTH - half).max(WIDTH / 2.0))
    };
    let voted = node.voted_id.filter(|_| {
        node.is_voter
            && node.process == ProcessState::Running
            && node.raft_state == Some(StateKind::Unattached)
    });
    let state_chars = state.chars().count() + voted.map_or(0, |v| format!(" · voted {v}").len());
    html! {
        <text class={classes!("node-role", format!("st-{}", state.split(' ').next().unwrap_or_default().to_ascii_lowercase().replace('_', "-")))}
              x={fmt(caption_x(state_chars))} y={fmt(state_y)} text-anchor="middle" dominant-baseline="central">
            { state.to_string() }
            if let Some(v) = voted {
                <tspan class="node-voted" data-voted-id={v.to_string()}>{ format!(" · voted {v}") }</tspan>
            }
        </text>
    }
}
