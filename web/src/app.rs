//! The root component: owns the reducer and the play timer, and lays out the panels.

use gloo_timers::callback::Interval;
use yew::prelude::*;

use crate::components::broker_panel::BrokerPanel;
use crate::components::cluster_view::ClusterDiagram;
use crate::components::controller_panel::ControllerPanel;
use crate::components::controls::{Controls, ProcessTable};
use crate::components::log_tail::LogTail;
use crate::components::node_log::NodeLogs;
use crate::state::{Action, PageConfig, Playground, FRAME_WALL_MS};

fn page_query() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// The whole page.
#[component]
pub fn App() -> Html {
    let built = use_memo((), |_| PageConfig::from_query(&page_query())?.build());
    match &*built {
        Ok(initial) => html! { <Playfield initial={initial.clone()} /> },
        Err(e) => {
            html! { <main class="fatal"><h1>{"KRaft Playground"}</h1><p id="error">{ e.clone() }</p></main> }
        }
    }
}

/// Properties of [`Playfield`].
#[derive(Properties, PartialEq)]
pub struct PlayfieldProps {
    /// The state to start from.
    pub initial: Playground,
}

/// The page once the world is built.
#[component]
pub fn Playfield(props: &PlayfieldProps) -> Html {
    let state = use_reducer({
        let initial = props.initial.clone();
        move || initial
    });
    let selected = use_state({
        let view = props.initial.view.clone();
        move || {
            // The first controller, else the first node.
            view.nodes
                .iter()
                .find(|n| n.roles.contains("controller"))
                .or(view.nodes.first())
                .map(|n| n.id)
                .unwrap_or_default()
        }
    });

    // The play timer: one Tick every FRAME_WALL_MS while playing.
    {
        let dispatcher = state.dispatcher();
        use_effect_with(state.playing, move |playing| {
            let interval = playing
                .then(|| Interval::new(FRAME_WALL_MS, move || dispatcher.dispatch(Action::Tick)));
            move || drop(interval)
        });
    }

    let on_action = {
        let dispatcher = state.dispatcher();
        Callback::from(move |action: Action| dispatcher.dispatch(action))
    };
    let on_select = {
        let selected = selected.clone();
        Callback::from(move |id: i32| selected.set(id))
    };
    let view = state.view.clone();

    html! {
        <div class="page" id="playground" data-ready="true">
            <header class="top">
                <h1>{"KRaft Playground"}</h1>
                <span class="seed">{ format!("seed {}", view.seed) }</span>
            </header>
            <Controls
                view={view.clone()}
                playing={state.playing}
                sim_ms_per_frame={state.sim_ms_per_frame}
                last_error={state.last_error.clone()}
                on_action={on_action.clone()}
            />
            <div class="panels">
                <ClusterDiagram view={view.clone()} selected={*selected} on_select={on_select.clone()} />
                <div class="side">
                    <LogTail view={view.clone()} selected={*selected} on_select={on_select} />
                    <BrokerPanel view={view.clone()} />
                </div>
            </div>
            <ControllerPanel view={view.clone()} />
            <ProcessTable view={view.clone()} on_action={on_action} />
            <NodeLogs view={view} />
        </div>
    }
}
