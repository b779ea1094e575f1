//! One QuorumController from the inside: active or standby, its event queue and deferred events,
//! the purgatory, the last ControllerResult, the offsets, the SnapshotRegistry and the
//! TimelineHashMap `topicsByName` with its snapshot tiers, and the registered brokers and controllers.

use std::rc::Rc;

use kraft_core::view::{ClusterView, ControllerView, NodeView};
use yew::prelude::*;

use super::timeline_panel::TimelineMap;
use super::write_life::WriteLifeCard;
use crate::i18n::Chrome;

/// Properties of [`ControllerPanel`].
#[derive(Properties, PartialEq)]
pub struct ControllerPanelProps {
    /// The view the controller comes from.
    pub view: Rc<ClusterView>,
}

/// The node whose controller is shown: the picked one, else the active controller, else the first
/// controller node.
pub fn shown_controller(view: &ClusterView, picked: Option<i32>) -> Option<&NodeView> {
    let controllers = || view.nodes.iter().filter(|n| is_controller_node(n));
    match picked {
        Some(id) => controllers().find(|n| n.id == id),
        None => controllers()
            .find(|n| n.controller.as_ref().is_some_and(|c| c.active))
            .or_else(|| controllers().next()),
    }
}

/// Whether the node runs (or would run) a QuorumController.
pub fn is_controller_node(node: &NodeView) -> bool {
    node.roles.has_controller()
}

/// `in 127 ms`, or `due` once the deadline has passed.
pub fn due_in(deadline_ms: u64, now_ms: u64) -> String {
    if deadline_ms > now_ms {
        format!("in {} ms", deadline_ms - now_ms)
    } else {
        "due".to_string()
    }
}

/// The controller panel, with a tab per controller node and an "active" tab that follows the
/// active controller.
#[component]
pub fn ControllerPanel(props: &ControllerPanelProps) -> Html {
    let t = crate::i18n::use_chrome();
    // None: follow the active controller.
    let picked = use_state(|| None::<i32>);
    let view = &props.view;
    let node = shown_controller(view, *picked);
    let pick = |choice: Option<i32>| {
        let picked = picked.clone();
        Callback::from(move |_: MouseEvent| picked.set(choice))
    };
    let ctrl = node.and_then(|n| n.controller.as_ref());
    let active = ctrl.is_some_and(|c| c.active);
    html! {
        <section class="panel controller-panel" id="controller-panel" aria-label="QuorumController"
                 data-node-id={node.map(|n| n.id.to_string()).unwrap_or_default()}
                 data-active={active.to_string()}
                 data-follows-active={picked.is_none().to_string()}>
            <div class="panel-head">
                <h2>{"QuorumController"}</h2>
                <div class="tabs" role="tablist">
                    <button id="ctrl-tab-auto" role="tab"
                            class={classes!("tab", picked.is_none().then_some("active"))}
                            onclick={pick(None)} title="Follow the active controller">{"active"}</button>
                    { for view.nodes.iter().filter(|n| is_controller_node(n)).map(|n| {
                        let is_active = n.controller.as_ref().is_some_and(|c| c.active);
                        html! {
                            <button id={format!("ctrl-tab-{}", n.id)} role="tab" data-node-id={n.id.to_string()}
                                    class={classes!("tab", (*picked == Some(n.id)).then_some("active"),
                                                    is_active.then_some("is-active"))}
                                    onclick={pick(Some(n.id))}>
                                { n.id }{ if is_active { " ★" } else { "" } }
                            </button>
                        }
                    }) }
                </div>
                { match (node, ctrl) {
                    (Some(n), Some(c)) => status_badge(n, c),
                    _ => html! {},
                } }
            </div>
            { match (node, ctrl) {
                (Some(_), Some(c)) => body(c, view.now_ms, t),
                (Some(n), None) => html! {
                    <p class="empty" id="controller-down">
                        { format!("node {} is {}: no QuorumController runs", n.id, n.process) }
                    </p>
                },
                (None, _) => html! { <p class="empty">{"no controller nodes"}</p> },
            } }
        </section>
    }
}

fn status_badge(node: &NodeView, c: &ControllerView) -> Html {
    let text = match (c.active, c.active_epoch) {
        (true, Some(e)) => format!("node {} · ACTIVE · epoch {e}", node.id),
        (true, None) => format!("node {} · ACTIVE", node.id),
        (false, _) => format!("node {} · standby", node.id),
    };
    html! {
        <span id="controller-status" class={classes!("badge", if c.active { "active" } else { "standby" })}
              data-epoch={c.active_epoch.map(|e| e.to_string()).unwrap_or_default()}>{ text }</span>
    }
}

/// The body of controller `c` at `now_ms`: its events, its offsets and last result, its
/// registries.
fn body(c: &ControllerView, now_ms: u64, t: &Chrome) -> Html {
    html! {
        <div class="ctrl-grid">
            if !c.write_lives.is_empty() {
                <WriteLifeCard lives={c.write_lives.clone()} />
            }
            { events_card(c, now_ms, t) }
            { offsets_card(c, t) }
            { registries_card(c, t) }
        </div>
    }
}

/// The event queue with the last event run, the deferred events with when they are due, and the
/// purgatory (each write committed once the last stable offset reaches it).
fn events_card(c: &ControllerView, now_ms: u64, t: &Chrome) -> Html {
    let lso = c.last_stable_offset;
    html! {
        <div class="card">
            <h3>{ t.event_queue }</h3>
            if c.queue.is_empty() {
                <p class="empty">{"(empty)"}</p>
            }
            <ol class="event-queue">
                { for c.queue.iter().map(|e| html! { <li data-name={e.clone()}>{ e.clone() }</li> }) }
            </ol>
            <p class="last-run">{"last run: "}
                <code id="last-event">{ c.last_event.clone().unwrap_or_else(|| "-".into()) }</code>
            </p>
            <h3>{ t.deferred }</h3>
            if c.deferred.is_empty() {
                <p class="empty">{"(none)"}</p>
            }
            <ul class="deferred">
                { for c.deferred.iter().map(|(name, deadline)| html! {
                    <li data-name={name.clone()} data-deadline={deadline.to_string()}>
                        <code>{ name.clone() }</code>
                        <span class="due">{ due_in(*deadline, now_ms) }</span>
                    </li>
                }) }
            </ul>
            <h3>{ t.purgatory }</h3>
            if c.purgatory.is_empty() {
                <p class="empty">{"(no writes waiting)"}</p>
            }
            <ul class="purgatory">
                { for c.purgatory.iter().map(|(name, offset)| {
                    let committed = *offset <= lso;
                    html! {
                        <li data-name={name.clone()} data-offset={offset.to_string()} data-committed={committed.to_string()}
                            class={if committed { "committed" } else { "uncommitted" }}>
                            <code>{ name.clone() }</code>
                            <span>{ format!("→ waits for offset {offset}") }</span>
                        </li>
                    }
                }) }
            </ul>
        </div>
    }
}

/// The offsets, the SnapshotRegistry's epochs (committed ones marked) and the last
/// ControllerResult.
fn offsets_card(c: &ControllerView, t: &Chrome) -> Html {
    let lso = c.last_stable_offset;
    html! {
        <div class="card">
            <h3>{ t.offsets }</h3>
            <div class="offsets-row">
                { offset_box("offset-last-committed", "lastCommitted", c.last_committed_offset) }
                { offset_box("offset-last-stable", "lastStable", c.last_stable_offset) }
                { offset_box("offset-next-write", "nextWrite", c.next_write_offset) }
            </div>
            <h3>{"SnapshotRegistry epochs"}</h3>
            <div id="snapshot-epochs" class="chips">
                if c.snapshots.is_empty() {
                    <span class="empty">{"(none)"}</span>
                }
                { for c.snapshots.iter().map(|e| html! {
                    <span class={classes!("chip", (*e <= lso).then_some("committed"))} data-epoch={e.to_string()}>{ e }</span>
                }) }
            </div>
            <h3>{"last ControllerResult"}</h3>
            { match &c.last_result {
                Some((records, atomic)) => html! {
                    <div id="last-result" data-atomic={atomic.to_string()} data-records={records.len().to_string()}>
                        <p class="atomic">{ format!("{} record{} · atomic: {}", records.len(),
                                                    if records.len() == 1 { "" } else { "s" },
                                                    if *atomic { "yes" } else { "no" }) }</p>
                        <pre class="records">{ if records.is_empty() { "(no records)".to_string() } else { records.join("\n") } }</pre>
                    </div>
                },
                None => html! { <p class="empty" id="last-result">{"(none yet)"}</p> },
            } }
        </div>
    }
}

/// The TimelineHashMap `topicsByName` and the registered brokers and controllers.
fn registries_card(c: &ControllerView, t: &Chrome) -> Html {
    html! {
        <div class="card">
            <h3>{"topicsByName (TimelineHashMap)"}</h3>
            <TimelineMap timeline={c.topics_by_name.clone()} id_prefix="ctrl" />
            <h3>{ t.registered_brokers }</h3>
            <div id="registered-brokers" class="chips">
                if c.brokers.is_empty() {
                    <span class="empty">{"(none)"}</span>
                }
                { for c.brokers.iter().map(|(id, epoch, fenced)| html! {
                    <span class={classes!("chip", if *fenced { "fenced" } else { "unfenced" })}
                          data-broker-id={id.to_string()} data-fenced={fenced.to_string()}>
                        { format!("{id} · e{epoch} · {}", if *fenced { "fenced" } else { "unfenced" }) }
                    </span>
                }) }
            </div>
            <h3>{ t.registered_controllers }</h3>
            <div id="registered-controllers" class="chips">
                if c.controllers.is_empty() {
                    <span class="empty">{"(none)"}</span>
                }
                { for c.controllers.iter().map(|id| html! {
                    <span class="chip" data-controller-id={id.to_string()}>{ id }</span>
                }) }
            </div>
        </div>
    }
}

fn offset_box(id: &str, label: &str, value: i64) -> Html {
    html! {
        <div class="offset-box">
            <span class="label">{ label.to_string() }</span>
            <strong id={id.to_string()} data-offset={value.to_string()}>{ value }</strong>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_read_as_in_n_ms() {
        assert_eq!(due_in(5127, 5000), "in 127 ms");
        assert_eq!(due_in(5000, 5000), "due");
        assert_eq!(due_in(10, 5000), "due");
    }

    #[test]
    fn the_active_controller_is_shown_by_default() {
        let mut s = crate::state::Playground::new(42).expect("world");
        for _ in 0..100 {
            s = std::rc::Rc::unwrap_or_clone(yew::Reducible::reduce(
                std::rc::Rc::new(s),
                crate::state::Action::StepTick,
            ));
        }
        let view = s.view.as_deref().expect("a world");
        let shown = shown_controller(view, None).expect("a controller");
        let c = shown.controller.as_ref().expect("it runs");
        assert!(c.active, "node {} is not active", shown.id);
        assert!(c.deferred.iter().any(|(n, _)| n == "writeNoOpRecord"));
        let other = if shown.id == 101 { 102 } else { 101 };
        assert_eq!(
            shown_controller(view, Some(other)).map(|n| n.id),
            Some(other)
        );
        assert_eq!(shown_controller(view, Some(1)).map(|n| n.id), None);
    }
}
