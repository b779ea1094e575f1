//! The root component: owns the reducer and the play timer, and lays out the panels.

use gloo_timers::callback::Interval;
use yew::prelude::*;

use crate::components::cluster_view::ClusterDiagram;
use crate::components::controls::{Controls, ProcessTable};
use crate::components::log_tail::LogTail;
use crate::components::node_log::NodeLogs;
use crate::state::{seed_from_query, Action, Playground, DEFAULT_SEED, FRAME_WALL_MS};

fn page_seed() -> u64 {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|q| seed_from_query(&q))
        .unwrap_or(DEFAULT_SEED)
}

/// The whole page.
#[component]
pub fn App() -> Html {
    let seed = use_memo((), |_| page_seed());
    let built = use_memo((), {
        let seed = *seed;
        move |_| Playground::new(seed)
    });
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
    let selected = use_state(|| crate::state::DEFAULT_CONTROLLERS[0]);

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
                <LogTail view={view.clone()} selected={*selected} on_select={on_select} />
            </div>
            <ProcessTable view={view.clone()} on_action={on_action} />
            <NodeLogs view={view} />
        </div>
    }
}
