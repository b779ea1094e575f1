//! The root component: owns the reducer and the play timer, and lays out the panels.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use gloo_events::{EventListener, EventListenerOptions};
use gloo_render::{request_animation_frame, AnimationFrame};
use kraft_core::lesson::stage::Panel;
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
use crate::components::image_panel::{ImagePanel, Toggled};
use crate::components::layout::{
    save_split, split_style, stored_split, ProjectorButton, Splitter, TextSize,
};
use crate::components::lesson_panel::{
    labels, set_query_param, LangToggle, LessonNav, LessonPanel, LessonPicker,
};
use crate::components::log_strip::LogStrip;
use crate::components::log_tail::LogTail;
use crate::components::node_log::NodeLogs;
use crate::components::partitions_panel::PartitionsPanel;
use crate::components::stage::{panel_for_key, StageTabs};
use crate::components::state_diagram::StateDiagram;
use crate::components::theme::ThemeToggle;
use crate::components::timeline_panel::TimelinePanel;
use crate::components::welcome::{Welcome, WelcomeCard};
use crate::share;
use crate::state::{Action, Lang, PageConfig, Playground};

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

/// Whether the first-visit card was dismissed in this browser.
const VISITED_KEY: &str = "kraft-visited";

fn first_visit() -> bool {
    let storage = web_sys::window().and_then(|w| w.local_storage().ok().flatten());
    storage.is_some_and(|s| s.get_item(VISITED_KEY).ok().flatten().is_none())
}

fn mark_visited() {
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.set_item(VISITED_KEY, "1");
    }
}

/// Runs `f` with each animation frame's wall-clock ms since the last frame, until dropped.
struct FrameLoop {
    _handle: Rc<RefCell<Option<AnimationFrame>>>,
}

impl FrameLoop {
    fn start(f: impl Fn(f64) + 'static) -> FrameLoop {
        fn schedule(
            handle: Rc<RefCell<Option<AnimationFrame>>>,
            last: Rc<Cell<Option<f64>>>,
            f: Rc<dyn Fn(f64)>,
        ) {
            let next = Rc::clone(&handle);
            *handle.borrow_mut() = Some(request_animation_frame(move |ts| {
                let dt = last.get().map_or(1000.0 / 60.0, |l| ts - l);
                last.set(Some(ts));
                f(dt);
                schedule(next, last, f);
            }));
        }
        let handle = Rc::new(RefCell::new(None));
        schedule(Rc::clone(&handle), Rc::new(Cell::new(None)), Rc::new(f));
        FrameLoop { _handle: handle }
    }
}

impl Drop for FrameLoop {
    fn drop(&mut self) {
        // Cancels the pending frame and breaks the loop's cycle.
        self._handle.borrow_mut().take();
    }
}

/// The panels a stage offers: every panel, the TimelineHashMap only once there is one.
fn stage_panels(has_timeline: bool) -> Vec<Panel> {
    Panel::ALL
        .into_iter()
        .filter(|p| *p != Panel::Timeline || has_timeline)
        .collect()
}

/// The page once the world is built.
#[component]
pub fn Playfield(props: &PlayfieldProps) -> Html {
    let state = use_reducer({
        let initial = props.initial.clone();
        move || initial
    });
    // What a lesson step is: its position (a click on a node or a tab holds until it changes).
    let step_key = state.lesson.as_ref().map_or(usize::MAX, |l| l.pos);
    // The node the lecturer clicked, with the focus the lesson had then: it holds until the
    // lesson moves its focus elsewhere. None = the stage's focus or the default node.
    let selected = use_state(|| None::<(Option<i32>, i32)>);
    // The tab the lecturer picked, with the panel the lesson asked for then: it holds until the
    // lesson asks for another panel. None = the panel the step asks for.
    let picked = use_state(|| None::<(Option<Panel>, Panel)>);
    // The image tree's directories the lecturer opened or closed, outliving the panel.
    let image_dirs = use_mut_ref(BTreeMap::new);
    let image_dirs = Toggled(image_dirs);
    // The stage layout in free play (`?present=1` or the header's switch).
    let present = use_state(|| props.initial.config.present);

    // Animation frames while free play plays or a lesson's wait plays.
    {
        let dispatcher = state.dispatcher();
        use_effect_with(state.animating(), move |animating| {
            let frames = animating.then(|| {
                FrameLoop::start(move |dt| {
                    let wall_us = (dt.clamp(0.0, 250.0) * 1000.0) as u32;
                    dispatcher.dispatch(Action::Frame { wall_us });
                })
            });
            move || drop(frames)
        });
    }

    // The lesson step and the command history in the address and in localStorage; not while
    // time plays (a frame every 16 ms would flood the history API), but as soon as it stops;
    // written at most every SAVE_DELAY_MS, not on every step click.
    {
        let params = state.share_params();
        use_effect_with((params, state.animating()), |((step, cmds), animating)| {
            if !*animating {
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
    // The first-visit card: on a bare address, once per browser.
    let welcome = use_state(|| {
        props.initial.lesson.is_none() && !props.restored && bare_address() && first_visit()
    });
    let on_welcome = {
        let welcome = welcome.clone();
        let dispatcher = state.dispatcher();
        let help_open = help_open.clone();
        Callback::from(move |choice: Welcome| {
            mark_visited();
            welcome.set(false);
            match choice {
                Welcome::Lesson(name) => {
                    set_query_param("lesson", Some(name));
                    dispatcher.dispatch(Action::ChooseLesson(crate::lessons::find(name)));
                }
                Welcome::FreePlay => {}
                Welcome::Keys => help_open.set(true),
            }
        })
    };

    let stage_mode = state.lesson.is_some() || *present;
    let panels = stage_panels(state.timeline.is_some());
    let stage = state.lesson.as_ref().map(|l| l.stage()).unwrap_or_default();
    let panel = picked
        .filter(|(asked, p)| *asked == stage.panel && panels.contains(p))
        .map(|(_, p)| p)
        .or(stage.panel.filter(|p| panels.contains(p)))
        .unwrap_or(Panel::States);

    // The lesson keys while a lesson is open, the free-play keys while there is a world; the
    // stage's digit keys pick a tab; none while the keyboard help covers the page.
    {
        let dispatcher = state.dispatcher();
        let lesson = state.lesson.is_some();
        let active = !*help_open && !*welcome && (lesson || state.view.is_some());
        let picked = picked.clone();
        let panels = panels.clone();
        use_effect_with(
            (
                active,
                lesson,
                state.playing,
                stage_mode,
                stage.panel,
                panels,
            ),
            move |(active, lesson, playing, stage_mode, asked, panels)| {
                let (lesson, playing, stage_mode, asked) = (*lesson, *playing, *stage_mode, *asked);
                let panels = panels.clone();
                let listener = active
                    .then(|| {
                        window_keydown(move |e| {
                            if stage_mode && page_key(e) {
                                if let Some(p) = panel_for_key(&e.key(), &panels) {
                                    e.prevent_default();
                                    picked.set(Some((asked, p)));
                                    return;
                                }
                            }
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

    // What a step lights is brought into view inside the side panel (a lit batch far down the
    // log, a partition row): the page itself never scrolls on the stage.
    use_effect_with((step_key, panel), |_| scroll_focused_into_view());

    let on_action = {
        let dispatcher = state.dispatcher();
        Callback::from(move |action: Action| dispatcher.dispatch(action))
    };
    let on_select = {
        let selected = selected.clone();
        let asked = stage.focus;
        Callback::from(move |id: i32| selected.set(Some((asked, id))))
    };
    let on_pick = {
        let picked = picked.clone();
        let asked = stage.panel;
        Callback::from(move |p: Panel| picked.set(Some((asked, p))))
    };
    let on_present = {
        let present = present.clone();
        Callback::from(move |_: MouseEvent| {
            let next = !*present;
            set_query_param("present", next.then_some("1"));
            present.set(next);
        })
    };
    let labels = labels(state.lang);
    let t = crate::chrome::chrome(state.lang);
    // The cluster column's share of the width, kept in localStorage.
    let split = use_state(stored_split);
    let on_split = {
        let split = split.clone();
        Callback::from(move |p: u32| {
            save_split(p);
            split.set(p);
        })
    };
    let highlights = Rc::new(stage.highlights.clone());
    let label_kinds = Rc::new(stage.labels.clone());

    let shown = state.view.as_ref().map(|view| {
        selected
            .filter(|(asked, id)| *asked == stage.focus && view.nodes.iter().any(|n| n.id == *id))
            .map(|(_, id)| id)
            .or(stage
                .focus
                .filter(|id| view.nodes.iter().any(|n| n.id == *id)))
            .unwrap_or_else(|| default_node(view))
    });
    let console = html! {
        <ConsolePanel scrollback={state.scrollback.clone()} lang={state.lang}
                      lesson_mode={state.lesson.is_some()} on_action={on_action.clone()} />
    };
    let no_cluster = html! {
        <section class="panel no-cluster" id="no-cluster">
            <p>{ labels.no_cluster }</p>
            if let Some(e) = &state.last_error {
                <p id="error" class="error" role="alert">{ e.clone() }</p>
            }
        </section>
    };
    let controls = |view: &Rc<ClusterView>| {
        html! {
            <Controls view={view.clone()} playing={state.playing} sim_ms_per_frame={state.sim_ms_per_frame}
                      last_error={state.last_error.clone()} redo_end={state.redo_end()}
                      last_event={state.last_event.clone()} on_action={on_action.clone()} />
        }
    };
    let diagram = |view: &Rc<ClusterView>, shown: i32| {
        html! {
            <ClusterDiagram view={view.clone()} clock_ms={state.clock_ms} selected={shown}
                            focus={if state.lesson.is_some() { stage.focus } else { None }}
                            highlights={highlights.clone()} labels={label_kinds.clone()} step_key={step_key}
                            compact={stage_mode}
                            on_select={on_select.clone()} on_action={on_action.clone()} />
        }
    };
    // One side panel of the stage.
    let side = |panel: Panel| -> Html {
        let Some(view) = state.view.clone() else {
            return match (panel, &state.timeline) {
                (Panel::Timeline, Some(tl)) => html! { <TimelinePanel timeline={tl.clone()} /> },
                _ => console.clone(),
            };
        };
        let shown = shown.unwrap_or_default();
        let node = view.nodes.iter().find(|n| n.id == shown).cloned();
        match panel {
            Panel::States => match node {
                Some(n) => html! { <StateDiagram node={n} /> },
                None => html! { <p class="empty">{ t.no_node }</p> },
            },
            Panel::Hw => html! { <HighWatermarkPanel view={view} /> },
            Panel::Log => {
                html! { <NodeLogs view={view} only={Some(shown)} highlights={highlights.clone()} /> }
            }
            Panel::Tail => {
                html! { <LogTail view={view} selected={shown} on_select={on_select.clone()} /> }
            }
            Panel::Controller => html! { <ControllerPanel view={view} /> },
            Panel::Brokers => html! { <BrokerPanel view={view} /> },
            Panel::Image => {
                html! { <ImagePanel view={view} selected={shown} on_select={on_select.clone()} toggled={image_dirs.clone()} /> }
            }
            Panel::Timeline => match &state.timeline {
                Some(tl) => html! { <TimelinePanel timeline={tl.clone()} /> },
                None => html! { <ControllerPanel view={view} /> },
            },
            Panel::Partitions => {
                html! { <PartitionsPanel view={view} highlights={highlights.clone()} /> }
            }
            Panel::Console => console.clone(),
            Panel::Processes => html! {
                <>
                    { controls(&view) }
                    <ProcessTable view={view} on_action={on_action.clone()} />
                </>
            },
        }
    };

    let body = if stage_mode {
        let strip = match &state.lesson {
            Some(run) => html! {
                <LessonPanel run={run.clone()} lang={state.lang} clock_ms={state.clock_ms} on_action={on_action.clone()} />
            },
            None => match &state.view {
                Some(view) => controls(view),
                None => html! {},
            },
        };
        let drawing = match (&state.view, shown) {
            (Some(view), Some(shown)) => {
                let node = view.nodes.iter().find(|n| n.id == shown).cloned();
                html! {
                    <>
                        { diagram(view, shown) }
                        if let Some(node) = node {
                            <LogStrip node={node} highlights={highlights.clone()} />
                        }
                    </>
                }
            }
            _ => no_cluster.clone(),
        };
        html! {
            <>
                <div class="strip" id="strip">{ strip }</div>
                if let (Some(e), true) = (&state.last_error, state.lesson.is_some()) {
                    <p id="error" class="error stage-error" role="alert">{ e.clone() }</p>
                }
                <div class="stage-main" id="stage-main" style={split_style(*split)}>
                    <div class="stage-drawing" id="stage-drawing">{ drawing }</div>
                    <Splitter split={*split} on_split={on_split} />
                    <aside class="stage-side" id="stage-side" data-panel={panel.name()}>
                        <StageTabs panels={panels.clone()} current={panel} directed={stage.panel}
                                   on_pick={on_pick.clone()} />
                        <div class="stage-panel" id="stage-panel" data-panel={panel.name()}>{ side(panel) }</div>
                    </aside>
                </div>
            </>
        }
    } else {
        match state.view.clone() {
            Some(view) => {
                let shown = shown.unwrap_or_default();
                html! {
                    <>
                        { controls(&view) }
                        <div class="panels" id="panels" style={split_style(*split)}>
                            { diagram(&view, shown) }
                            <Splitter split={*split} on_split={on_split} />
                            <div class="side">
                                <HighWatermarkPanel view={view.clone()} />
                                if let Some(node) = view.nodes.iter().find(|n| n.id == shown) {
                                    <StateDiagram node={node.clone()} />
                                }
                                <LogTail view={view.clone()} selected={shown} on_select={on_select.clone()} />
                                <BrokerPanel view={view.clone()} />
                                <PartitionsPanel view={view.clone()} />
                                <ImagePanel view={view.clone()} selected={shown} on_select={on_select.clone()} toggled={image_dirs.clone()} />
                            </div>
                        </div>
                        { console.clone() }
                        <ControllerPanel view={view.clone()} />
                        if let Some(tl) = &state.timeline {
                            <TimelinePanel timeline={tl.clone()} />
                        }
                        <ProcessTable view={view.clone()} on_action={on_action.clone()} />
                        <NodeLogs view={view} />
                    </>
                }
            }
            None => html! {
                <>
                    { no_cluster.clone() }
                    if let Some(tl) = &state.timeline {
                        <TimelinePanel timeline={tl.clone()} />
                    }
                    { console.clone() }
                </>
            },
        }
    };

    html! {
        <ContextProvider<Lang> context={state.lang}>
        <div class={classes!("page", if stage_mode { "stage" } else { "dashboard" })} id="playground" data-ready="true"
             data-lang={state.lang.code()} data-layout={if stage_mode { "stage" } else { "dashboard" }}
             data-mode={if state.lesson.is_some() { "lesson" } else { "free" }}>
            <header class="top">
                <h1>{"KRaft Playground"}</h1>
                <LessonPicker current={state.lesson.as_ref().map(|l| l.index)} lang={state.lang}
                              on_action={on_action.clone()} />
                if let Some(run) = &state.lesson {
                    <LessonNav run={run.clone()} lang={state.lang} on_action={on_action.clone()} />
                } else if let Some(view) = &state.view {
                    <span class="seed">{ format!("seed {}", view.seed) }</span>
                    <button id="btn-present" class="present-toggle" onclick={on_present}
                            aria-pressed={present.to_string()}>{ if *present { t.dashboard } else { t.present } }</button>
                }
                <span class="spacer"></span>
                <LangToggle lang={state.lang} on_action={on_action.clone()} />
                <TextSize />
                <ThemeToggle />
                <ProjectorButton label={t.projector} />
                <button id="btn-help" class="help-button" onclick={on_help_open}
                        title="Keyboard shortcuts (?)" aria-label={t.keys}>{"?"}</button>
            </header>
            if *help_open {
                <HelpOverlay lang={state.lang} on_close={on_help_close} />
            }
            if *welcome {
                <WelcomeCard lang={state.lang} on_choice={on_welcome} />
            }
            if *restored {
                <p class="restored" id="restored" role="status">
                    { t.restored }{" "}
                    <button id="btn-fresh" onclick={on_fresh}>{ t.start_fresh }</button>
                    {" "}
                    <button id="btn-keep" onclick={on_keep}>{ t.keep_it }</button>
                </p>
            }
            { body }
        </div>
        </ContextProvider<Lang>>
    }
}

/// Scrolls every lit element of the stage's side panel and log strip into its panel's view.
fn scroll_focused_into_view() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(list) = doc
        .query_selector_all(".stage-panel [data-focused='true'], .log-strip [data-focused='true']")
    else {
        return;
    };
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(web_sys::ScrollLogicalPosition::Nearest);
    options.set_inline(web_sys::ScrollLogicalPosition::Nearest);
    for i in 0..list.length() {
        if let Some(el) = list
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
        {
            el.scroll_into_view_with_scroll_into_view_options(&options);
        }
    }
}

/// Whether the address has no query (not a shared link, not a lesson).
fn bare_address() -> bool {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_none_or(|s| s.trim_start_matches('?').is_empty())
}
