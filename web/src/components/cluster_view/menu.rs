//! The menu of a node, opened by clicking it: the process table's kill -9 / restart / STOP /
//! CONT / isolate, heal, and close.

use kraft_core::view::{ClusterView, NodeView, ProcessState};
use yew::prelude::*;

use super::geometry::{CENTER_X, CENTER_Y, HEIGHT, WIDTH};
use crate::components::controls::{heal_button, isolate_command, process_buttons};
use crate::components::{role_class, state_name};
use crate::state::Action;

/// The menu of node `node`, in the middle of the ring (where it covers no node): the process
/// table's kill -9 / restart / STOP / CONT / isolate, heal, and close.
pub(super) fn node_menu(
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
        CENTER_X / WIDTH * 100.0,
        CENTER_Y / HEIGHT * 100.0
    );
    let close = on_close.reform(|_: MouseEvent| ());
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Escape" {
            e.prevent_default();
            on_close.emit(());
        }
    });
    let state = if node.process == ProcessState::Running {
        state_name(node).to_string()
    } else {
        node.process.name().to_ascii_uppercase()
    };
    html! {
        <div class={classes!("node-menu", role_class(node))} id="node-menu" data-node-id={id.to_string()}
             data-process={node.process.name()} style={style} role="dialog"
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
