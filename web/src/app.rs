//! The root component: owns the reducer and the play timer, and lays out the panels.

use gloo_events::{EventListener, EventListenerOptions};
use gloo_timers::callback::Interval;
use kraft_core::view::ClusterView;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::components::broker_panel::BrokerPanel;
use crate::components::cluster_view::ClusterDiagram;
use crate::components::console::ConsolePanel;
use crate::components::controller_panel::ControllerPanel;
use crate::components::controls::{Controls, ProcessTable};
use crate::components::help::HelpOverlay;
use crate::components::hw_panel::HighWatermarkPanel;
use crate::components::image_panel::ImagePanel;
use crate::components::layout::{save_split, split_style, stored_split, Splitter, TextSize};
use crate::components::lesson_panel::{labels, LessonPanel, LessonPicker};
use crate::components::log_tail::LogTail;
use crate::components::node_log::NodeLogs;
use crate::components::state_diagram::StateDiagram;
use crate::components::theme::ThemeToggle;
use crate::components::timeline_panel::TimelinePanel;
use crate::share;
use crate::state::{Action, Lang, PageConfig, Playground, FRAME_WALL_MS};

/// The address's query; a bare address takes the session kept in `localStorage` (and shows it
/// in the address bar). The flag says whether the session was restored that way.
fn page_query() -> (String, bool) {
    let query = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    if !query.is_empty() {
        return (query, false);
    }
    match share::stored_session() {
        Some(kept) => {
            let kept = if kept.starts_with('?') {
                kept
            } else {
                format!("?{kept}")
            };
            share::save_query(&kept);
            (kept, true)
        }
        None => (query, false),
    }
}

/// The whole page.
#[component]
pub fn App() -> Html {
    let built = use_memo((), |_| {
        let (query, restored) = page_query();
        PageConfig::from_query(&query)?
            .build()
            .map(|p| (p, restored))
    });
    match &*built {
        Ok((initial, restored)) => {
            html! { <Playfield initial={initial.clone()} restored={*restored} /> }
        }
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
    /// Whether it was rebuilt from the session kept in `localStorage` (a bare address).
    #[prop_or_default]
    pub restored: bool,
}

/// The node shown by default: the first controller, else the first node.
fn default_node(view: &ClusterView) -> i32 {
    view.nodes
        .iter()
        .find(|n| n.roles.contains("controller"))
        .or(view.nodes.first())
        .map(|n| n.id)
        .unwrap_or_default()
}

/// The lesson keys: Right arrow / Space = next step, Left arrow = previous step, Home = restart.
/// Keys typed into a text field or a menu are theirs, not the lesson's.
fn lesson_key(e: &KeyboardEvent) -> Option<Action> {
    if !page_key(e) {
        return None;
    }
    match e.key().as_str() {
        "ArrowRight" | " " | "Spacebar" => Some(Action::LessonNext),
        "ArrowLeft" => Some(Action::LessonPrev),
        "Home" => Some(Action::LessonRestart),
        _ => None,
    }
}

/// The free-play keys: Right arrow = step one event (after a rewind: forward again), Left
/// arrow = back one event, Space = play / pause, `t` = one frame of virtual time.
fn free_play_key(e: &KeyboardEvent, playing: bool) -> Option<Action> {
    if !page_key(e) {
        return None;
    }
    match e.key().as_str() {
        "ArrowRight" if !playing => Some(Action::Step),
        "ArrowLeft" if !playing => Some(Action::StepBack),
        " " | "Spacebar" => Some(if playing { Action::Pause } else { Action::Play }),
        "t" if !playing => Some(Action::StepTick),
        _ => None,
    }
}

/// Whether a key is the page's: no Ctrl/Alt/Meta chord, not typed into a field or a menu.
fn page_key(e: &KeyboardEvent) -> bool {
    !(e.ctrl_key() || e.alt_key() || e.meta_key() || typed_into_field(e))
}

/// Whether a key event was typed into a text field or a menu (those keys are theirs).
fn typed_into_field(e: &KeyboardEvent) -> bool {
    let tag = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|el| el.tag_name().to_ascii_lowercase())
        .unwrap_or_default();
    matches!(tag.as_str(), "input" | "textarea" | "select")
}

/// A `keydown` listener on the window (dropped, it stops), calling `f` with each key event.
fn window_keydown(f: impl Fn(&KeyboardEvent) + 'static) -> Option<EventListener> {
    let window = web_sys::window()?;
    Some(EventListener::new_with_options(
        &window,
        "keydown",
        EventListenerOptions::enable_prevent_default(),
        move |e| {
            if let Some(e) = e.dyn_ref::<KeyboardEvent>() {
                f(e);
            }
        },
    ))
}

/// Whether the key went to a button (which Space presses).
fn focused_button(e: &KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| el.tag_name().eq_ignore_ascii_case("button"))
}

/// The page-wide keys: `?` toggles the keyboard help, Escape closes it. Gives the new
/// open/closed state, or `None` when the key is not one of them.
fn help_key(e: &KeyboardEvent, open: bool) -> Option<bool> {
    if e.ctrl_key() || e.alt_key() || e.meta_key() {
        return None;
    }
    match e.key().as_str() {
        "?" if !typed_into_field(e) => Some(!open),
        "Escape" if open => Some(false),
        _ => None,
    }
}

/// The page once the world is built.
#[component]
pub fn Playfield(props: &PlayfieldProps) -> Html {
    let state = use_reducer({
        let initial = props.initial.clone();
        move || initial
    });
    // The node whose log tail is shown; None (or a node that is gone) = the default node.
    let selected = use_state(|| None::<i32>);

    // The play timer: one Tick every FRAME_WALL_MS while playing.
    {
        let dispatcher = state.dispatcher();
        use_effect_with(state.playing, move |playing| {
            let interval = playing
                .then(|| Interval::new(FRAME_WALL_MS, move || dispatcher.dispatch(Action::Tick)));
            move || drop(interval)
        });
    }

    // The lesson step and the command history in the address and in localStorage; not while
    // playing (a frame every 50 ms would flood the history API), but as soon as it pauses;
    // written at most every SAVE_DELAY_MS, not on every step click.
    {
        let params = state.share_params();
        use_effect_with((params, state.playing), |((step, cmds), playing)| {
            if !*playing {
                let search = web_sys::window()
                    .and_then(|w| w.location().search().ok())
                    .unwrap_or_default();
                let query =
                    share::with_params(&search, &[("step", step.clone()), ("cmds", cmds.clone())]);
                share::save_query_soon(query);
            }
        });
        // Leaving the page writes a save still waiting.
        use_effect_with((), |_| {
            let listener = web_sys::window()
                .map(|window| EventListener::new(&window, "pagehide", |_| share::flush_pending()));
            move || drop(listener)
        });
    }
    let restored = use_state(|| props.restored);
    let on_fresh = Callback::from(|_: MouseEvent| {
        share::forget_session();
        if let Some(w) = web_sys::window() {
            let path = w.location().pathname().unwrap_or_default();
            let _ = w.location().set_href(&path);
        }
    });
    let on_keep = {
        let restored = restored.clone();
        Callback::from(move |_: MouseEvent| restored.set(false))
    };

    // The keyboard help overlay and its keys (`?`, Escape), on every page.
    let help_open = use_state(|| false);
    {
        let help_open = help_open.clone();
        use_effect_with(*help_open, move |open| {
            let open = *open;
            let listener = window_keydown(move |e| {
                if let Some(next) = help_key(e, open) {
                    e.prevent_default();
                    help_open.set(next);
                }
            });
            move || drop(listener)
        });
    }
    let on_help_close = {
        let help_open = help_open.clone();
        Callback::from(move |()| help_open.set(false))
    };
    let on_help_open = {
        let help_open = help_open.clone();
        Callback::from(move |_: MouseEvent| help_open.set(true))
    };

    // The lesson keys while a lesson is open, the free-play keys while there is a world; none
    // while the keyboard help covers the page.
    {
        let dispatcher = state.dispatcher();
        let lesson = state.lesson.is_some();
        let active = !*help_open && (lesson || state.view.is_some());
        use_effect_with(
            (active, lesson, state.playing),
            move |&(active, lesson, playing)| {
                let listener = active
                    .then(|| {
                        window_keydown(move |e| {
                            let action = if lesson {
                                lesson_key(e)
                            } else if e.key() == " " && focused_button(e) {
                                // A focused button takes Space itself.
                                None
                            } else {
                                free_play_key(e, playing)
                            };
                            if let Some(action) = action {
                                e.prevent_default();
                                dispatcher.dispatch(action);
                            }
                        })
                    })
                    .flatten();
                move || drop(listener)
            },
        );
    }

    let on_action = {
        let dispatcher = state.dispatcher();
        Callback::from(move |action: Action| dispatcher.dispatch(action))
    };
    let on_select = {
        let selected = selected.clone();
        Callback::from(move |id: i32| selected.set(Some(id)))
    };
    let labels = labels(state.lang);
    // The cluster column's share of the width, kept in localStorage.
    let split = use_state(stored_split);
    let on_split = {
        let split = split.clone();
        Callback::from(move |p: u32| {
            save_split(p);
            split.set(p);
        })
    };

    let cluster = match state.view.clone() {
        Some(view) => {
            let shown = selected
                .filter(|id| view.nodes.iter().any(|n| n.id == *id))
                .unwrap_or_else(|| default_node(&view));
            html! {
                <>
                    <Controls
                        view={view.clone()}
                        playing={state.playing}
                        sim_ms_per_frame={state.sim_ms_per_frame}
                        last_error={state.last_error.clone()}
                        redo_end={state.redo_end()}
                        on_action={on_action.clone()}
                    />
                    <div class="panels" id="panels" style={split_style(*split)}>
                        <ClusterDiagram view={view.clone()} selected={shown} on_select={on_select.clone()}
                                        on_action={on_action.clone()} />
                        <Splitter split={*split} on_split={on_split} />
                        <div class="side">
                            <HighWatermarkPanel view={view.clone()} />
                            if let Some(node) = view.nodes.iter().find(|n| n.id == shown) {
                                <StateDiagram node={node.clone()} />
                            }
                            <LogTail view={view.clone()} selected={shown} on_select={on_select.clone()} />
                            <BrokerPanel view={view.clone()} />
                            <ImagePanel view={view.clone()} selected={shown} on_select={on_select} />
                        </div>
                    </div>
                    <ConsolePanel scrollback={state.scrollback.clone()} lang={state.lang}
                                  lesson_mode={state.lesson.is_some()} on_action={on_action.clone()} />
                    <ControllerPanel view={view.clone()} />
                    if let Some(t) = &state.timeline {
                        <TimelinePanel timeline={t.clone()} />
                    }
                    <ProcessTable view={view.clone()} on_action={on_action.clone()} />
                    <NodeLogs view={view} />
                </>
            }
        }
        None => html! {
            <>
                <section class="panel no-cluster" id="no-cluster">
                    <p>{ labels.no_cluster }</p>
                    if let Some(e) = &state.last_error {
                        <p id="error" class="error" role="alert">{ e.clone() }</p>
                    }
                </section>
                if let Some(t) = &state.timeline {
                    <TimelinePanel timeline={t.clone()} />
                }
                <ConsolePanel scrollback={state.scrollback.clone()} lang={state.lang}
                              lesson_mode={state.lesson.is_some()} on_action={on_action.clone()} />
            </>
        },
    };

    html! {
        <ContextProvider<Lang> context={state.lang}>
        <div class="page" id="playground" data-ready="true" data-lang={state.lang.code()}
             data-mode={if state.lesson.is_some() { "lesson" } else { "free" }}>
            <header class="top">
                <h1>{"KRaft Playground"}</h1>
                if let Some(view) = &state.view {
                    <span class="seed">{ format!("seed {}", view.seed) }</span>
                }
                <LessonPicker current={state.lesson.as_ref().map(|l| l.index)} lang={state.lang}
                              on_action={on_action.clone()} />
                <TextSize />
                <ThemeToggle />
                <button id="btn-help" class="help-button" onclick={on_help_open}
                        title="Keyboard shortcuts (?)">{"? Keys"}</button>
            </header>
            if *help_open {
                <HelpOverlay on_close={on_help_close} />
            }
            if *restored {
                <p class="restored" id="restored" role="status">
                    {"Restored the last session kept in this browser. "}
                    <button id="btn-fresh" onclick={on_fresh}>{"Start fresh"}</button>
                    {" "}
                    <button id="btn-keep" onclick={on_keep}>{"Keep it"}</button>
                </p>
            }
            if let Some(run) = &state.lesson {
                <LessonPanel run={run.clone()} lang={state.lang} on_action={on_action.clone()} />
            }
            { cluster }
        </div>
        </ContextProvider<Lang>>
    }
}
