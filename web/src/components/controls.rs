//! Buttons: step one event, play/pause, speed, and per-node process control.

use std::rc::Rc;

use kraft_core::view::{ClusterView, NodeView, ProcessState};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::state::{
    Action, ADAPTIVE, DEFAULT_SIM_MS_PER_FRAME, FRAME_WALL_MS, SIM_MS_PER_FRAME_CHOICES,
};

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
    /// After a rewind: the event count going forward can reach again.
    #[prop_or_default]
    pub redo_end: Option<u64>,
    /// What the last Step ran, described ("what just ran").
    #[prop_or_default]
    pub last_event: Option<String>,
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
            .unwrap_or(DEFAULT_SIM_MS_PER_FRAME);
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
    let t = crate::i18n::use_chrome();
    let speed_label = |ms: u64| {
        if ms == ADAPTIVE {
            return t.adaptive.to_string();
        }
        let factor = ms as f64 / f64::from(FRAME_WALL_MS);
        format!("{factor}×")
    };
    let tick_ms = if props.sim_ms_per_frame == ADAPTIVE {
        DEFAULT_SIM_MS_PER_FRAME
    } else {
        props.sim_ms_per_frame
    };
    html! {
        <section class="panel controls" aria-label="controls">
            <div class="bar">
                <button id="btn-step-back" onclick={send(Action::StepBack)} disabled={props.playing}
                        title="Back one event (free play: a checkpoint and a deterministic replay)">{ t.back }</button>
                <button id="btn-step" onclick={send(Action::Step)} disabled={props.playing}
                        title="Run exactly one event (after a rewind: forward along what happened)">{ t.step_event }</button>
                <button id="btn-step-tick" onclick={send(Action::StepTick)} disabled={props.playing}
                        title="Run one frame of virtual time">{ format!("+{tick_ms} ms") }</button>
                <button id="btn-play" class={classes!("play", props.playing.then_some("playing"))}
                        data-playing={props.playing.to_string()} onclick={send(play_action)}>
                    { if props.playing { t.pause } else { t.play } }
                </button>
                <label class="speed">{ t.speed }
                    <select id="speed" onchange={on_speed}
                            title="virtual time per wall second; adaptive: slow for elections, fencing and commits, fast when idle">
                        { for SIM_MS_PER_FRAME_CHOICES.iter().map(|&ms| html! {
                            <option value={ms.to_string()} selected={ms == props.sim_ms_per_frame}>{ speed_label(ms) }</option>
                        }) }
                    </select>
                </label>
                <span class="stat">{ t.virtual_time }<strong id="virtual-time" data-ms={view.now_ms.to_string()}>{ format_ms(view.now_ms) }</strong></span>
                <span class="stat">{ t.events_run }<strong id="events-run">{ view.events_run }</strong></span>
                <label class="stat" title="Drag back to rewind (free play)">{ t.rewind }
                    <input id="time-slider" type="range" min="0" max={props.redo_end.unwrap_or(view.events_run).max(view.events_run).to_string()}
                           value={view.events_run.to_string()} disabled={props.playing} onchange={on_slider} />
                </label>
                if let Some(end) = props.redo_end.filter(|e| *e > view.events_run) {
                    <span class="stat redo" id="redo-ahead" data-end={end.to_string()}
                          title="Rewound: Step and the slider go forward again along what happened">
                        { format!("↷ {} {}", end - view.events_run, t.events_ahead) }
                    </span>
                }
                <span class="stat">{ t.in_flight }<strong id="in-flight">{ view.messages.iter().filter(|m| !m.dropped).count() }</strong></span>
            </div>
            if let Some(what) = &props.last_event {
                <p id="just-ran" class="just-ran" role="status">{ t.just_ran }<code>{ what.clone() }</code></p>
            }
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

/// The console command that cuts node `id` off from every other node (`partition 101 |
/// 102,103,1`), or None when it is alone.
pub fn isolate_command(view: &ClusterView, id: i32) -> Option<String> {
    let others: Vec<String> = view
        .nodes
        .iter()
        .filter(|n| n.id != id)
        .map(|n| n.id.to_string())
        .collect();
    (!others.is_empty()).then(|| format!("partition {id} | {}", others.join(",")))
}

/// One row per node: its process and Raft state, and kill -9 / restart / STOP / CONT / isolate
/// buttons; `heal` ends every network partition.
#[component]
pub fn ProcessTable(props: &ProcessTableProps) -> Html {
    let view = &props.view;
    let t = crate::i18n::use_chrome();
    html! {
        <section class="panel process-panel" aria-label="process control">
                <p class="network-buttons">
                    { heal_button("btn-heal".into(), t.heal, &props.on_action) }
                </p>
                <table class="processes" id="processes">
                    <thead><tr>{ for t.process_cols.split('|').map(|c| html! { <th>{ c }</th> }) }</tr></thead>
                    <tbody>
                        { for view.nodes.iter().map(|n| node_row(n, isolate_command(view, n.id), &props.on_action)) }
                    </tbody>
                </table>
        </section>
    }
}

/// The `heal` button (the console's `heal`: end every network partition), with id `id`.
pub fn heal_button(id: String, label: &'static str, on_action: &Callback<Action>) -> Html {
    let heal = on_action.reform(|_: MouseEvent| Action::Exec("heal".into()));
    html! {
        <button id={id} class="proc heal" onclick={heal}
                title="heal: end every network partition">{ label }</button>
    }
}

/// The process-control buttons of `node`: kill -9, restart, STOP, CONT (each enabled only when
/// it applies) and, when `isolate` is given, isolate. Their ids are `{prefix}-{action}-{id}`.
pub fn process_buttons(
    node: &NodeView,
    isolate: Option<String>,
    on_action: &Callback<Action>,
    prefix: &str,
) -> Html {
    let id = node.id;
    let button = |name: &str, label: &str, action: Action, enabled: bool| {
        html! {
            <button id={format!("{prefix}-{name}-{id}")} class={classes!("proc", name.to_string())}
                    disabled={!enabled} onclick={on_action.reform(move |_: MouseEvent| action.clone())}>{ label.to_string() }</button>
        }
    };
    let running = node.process == ProcessState::Running;
    let killed = node.process == ProcessState::Killed;
    let stopped = node.process == ProcessState::Stopped;
    html! {
        <>
            { button("kill", "kill -9", Action::Kill(id), !killed) }
            { button("restart", "restart", Action::Restart(id), killed) }
            { button("stop", "STOP", Action::Stop(id), running) }
            { button("cont", "CONT", Action::Cont(id), stopped) }
            if let Some(cmd) = isolate {
                { button("isolate", "isolate", Action::Exec(cmd), true) }
            }
        </>
    }
}

fn node_row(node: &NodeView, isolate: Option<String>, on_action: &Callback<Action>) -> Html {
    let id = node.id;
    let opt = |v: Option<i32>| v.map(|v| v.to_string()).unwrap_or_else(|| "-".into());
    html! {
        <tr data-node-id={id.to_string()} data-process={node.process.name()} class={super::role_class(node)}>
            <td class="num">{ id }</td>
            <td>{ node.roles.name() }{ if node.is_voter { " (voter)" } else { "" } }</td>
            <td class="process">{ node.process.name() }</td>
            <td class="state">{ super::state_name(node) }</td>
            <td class="num">{ node.epoch }</td>
            <td class="num">{ opt(node.leader_id) }</td>
            <td class="num">{ opt(node.voted_id) }</td>
            <td class="num">{ node.next_timer_ms.map(format_ms).unwrap_or_else(|| "-".into()) }</td>
            <td class="buttons">{ process_buttons(node, isolate, on_action, "btn") }</td>
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

    #[test]
    fn isolate_cuts_one_node_from_the_rest() {
        let mut w = kraft_core::sim::World::new(kraft_core::sim::WorldConfig::new(
            1,
            vec![101, 102],
            vec![1],
        ))
        .unwrap();
        w.run_for(10);
        let v = w.view();
        assert_eq!(
            super::isolate_command(&v, 101).as_deref(),
            Some("partition 101 | 1,102")
        );
    }
}
