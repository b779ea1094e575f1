//! Buttons: step one event, play/pause, speed, and per-node process control.

use std::rc::Rc;

use kraft_core::view::{ClusterView, NodeView};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::state::{Action, FRAME_WALL_MS, SIM_MS_PER_FRAME_CHOICES};

/// Properties of [`Controls`].
#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    /// The view the numbers come from.
    pub view: Rc<ClusterView>,
    /// Whether the play timer runs.
    pub playing: bool,
    /// Virtual ms run per frame.
    pub sim_ms_per_frame: u64,
    /// Error of the last action, shown under the buttons.
    pub last_error: Option<String>,
    /// Sends an action to the reducer.
    pub on_action: Callback<Action>,
}

/// The control bar: step, play/pause, speed, virtual time and events run.
#[component]
pub fn Controls(props: &ControlsProps) -> Html {
    let send = |action: Action| props.on_action.reform(move |_: MouseEvent| action.clone());
    let play_action = if props.playing {
        Action::Pause
    } else {
        Action::Play
    };
    let on_speed = props.on_action.reform(|e: Event| {
        let ms = e
            .target_unchecked_into::<HtmlSelectElement>()
            .value()
            .parse()
            .unwrap_or(50);
        Action::SetSpeed(ms)
    });
    let on_slider = props.on_action.reform(|e: Event| {
        let events = e
            .target_unchecked_into::<web_sys::HtmlInputElement>()
            .value()
            .parse()
            .unwrap_or(0);
        Action::RewindTo(events)
    });
    let view = &props.view;
    let speed_label = |ms: u64| {
        let factor = ms as f64 / f64::from(FRAME_WALL_MS);
        format!("{ms} ms/frame ({factor}×)")
    };
    html! {
        <section class="panel controls" aria-label="controls">
            <div class="bar">
                <button id="btn-step-back" onclick={send(Action::StepBack)} disabled={props.playing}
                        title="Back one event (free play: a checkpoint and a deterministic replay)">{"◀ Back"}</button>
                <button id="btn-step" onclick={send(Action::Step)} disabled={props.playing}
                        title="Run exactly one event">{"Step 1 event"}</button>
                <button id="btn-step-tick" onclick={send(Action::StepTick)} disabled={props.playing}
                        title="Run one frame of virtual time">{ format!("+{} ms", props.sim_ms_per_frame) }</button>
                <button id="btn-play" class={classes!("play", props.playing.then_some("playing"))}
                        data-playing={props.playing.to_string()} onclick={send(play_action)}>
                    { if props.playing { "❚❚ Pause" } else { "▶ Play" } }
                </button>
                <label class="speed">{"speed "}
                    <select id="speed" onchange={on_speed}>
                        { for SIM_MS_PER_FRAME_CHOICES.iter().map(|&ms| html! {
                            <option value={ms.to_string()} selected={ms == props.sim_ms_per_frame}>{ speed_label(ms) }</option>
                        }) }
                    </select>
                </label>
                <span class="stat">{"virtual time "}<strong id="virtual-time" data-ms={view.now_ms.to_string()}>{ format_ms(view.now_ms) }</strong></span>
                <span class="stat">{"events run "}<strong id="events-run">{ view.events_run }</strong></span>
                <label class="stat" title="Drag back to rewind (free play)">{"rewind "}
                    <input id="time-slider" type="range" min="0" max={view.events_run.to_string()}
                           value={view.events_run.to_string()} disabled={props.playing} onchange={on_slider} />
                </label>
                <span class="stat">{"in flight "}<strong id="in-flight">{ view.messages.iter().filter(|m| !m.dropped).count() }</strong></span>
            </div>
            if let Some(e) = &props.last_error {
                <p id="error" class="error" role="alert">{ e.clone() }</p>
            }
        </section>
    }
}

/// Properties of [`ProcessTable`].
#[derive(Properties, PartialEq)]
pub struct ProcessTableProps {
    /// The view the rows come from.
    pub view: Rc<ClusterView>,
    /// Sends an action to the reducer.
    pub on_action: Callback<Action>,
}

/// One row per node: its process and Raft state, and kill -9 / restart / STOP / CONT buttons.
#[component]
pub fn ProcessTable(props: &ProcessTableProps) -> Html {
    let view = &props.view;
    html! {
        <section class="panel process-panel" aria-label="process control">
                <table class="processes" id="processes">
                    <thead><tr><th>{"node"}</th><th>{"roles"}</th><th>{"process"}</th><th>{"state"}</th><th>{"epoch"}</th><th>{"leader"}</th><th>{"voted"}</th><th>{"next timer"}</th><th>{"process control"}</th></tr></thead>
                    <tbody>
                        { for view.nodes.iter().map(|n| node_row(n, &props.on_action)) }
                    </tbody>
                </table>
        </section>
    }
}

fn node_row(node: &NodeView, on_action: &Callback<Action>) -> Html {
    let id = node.id;
    let button = |name: &str, label: &str, action: Action, enabled: bool| {
        html! {
            <button id={format!("btn-{name}-{id}")} class={classes!("proc", name.to_string())}
                    disabled={!enabled} onclick={on_action.reform(move |_: MouseEvent| action.clone())}>{ label.to_string() }</button>
        }
    };
    let running = node.process == "running";
    let killed = node.process == "killed";
    let stopped = node.process == "stopped";
    let opt = |v: Option<i32>| v.map(|v| v.to_string()).unwrap_or_else(|| "-".into());
    html! {
        <tr data-node-id={id.to_string()} data-process={node.process.clone()} class={super::role_class(node)}>
            <td class="num">{ id }</td>
            <td>{ node.roles.clone() }{ if node.is_voter { " (voter)" } else { "" } }</td>
            <td class="process">{ node.process.clone() }</td>
            <td class="state">{ node.raft_state.clone() }</td>
            <td class="num">{ node.epoch }</td>
            <td class="num">{ opt(node.leader_id) }</td>
            <td class="num">{ opt(node.voted_id) }</td>
            <td class="num">{ node.next_timer_ms.map(format_ms).unwrap_or_else(|| "-".into()) }</td>
            <td class="buttons">
                { button("kill", "kill -9", Action::Kill(id), !killed) }
                { button("restart", "restart", Action::Restart(id), killed) }
                { button("stop", "STOP", Action::Stop(id), running) }
                { button("cont", "CONT", Action::Cont(id), stopped) }
            </td>
        </tr>
    }
}

/// Formats virtual milliseconds as `12.345 s`.
pub fn format_ms(ms: u64) -> String {
    format!("{}.{:03} s", ms / 1000, ms % 1000)
}

#[cfg(test)]
mod tests {
    #[test]
    fn formats_ms() {
        assert_eq!(super::format_ms(0), "0.000 s");
        assert_eq!(super::format_ms(12345), "12.345 s");
    }
}
