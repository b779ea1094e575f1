//! The root component: owns the reducer and the play timer, and lays out the panels.
//!
//! [`Playfield`] holds the page's state and wires its parts together; the parts live beside it:
//! `keys` (the keyboard), `frames` (the play timer), `session` (the address and `localStorage`),
//! `header` and `body` (the stage or the dashboard).

use std::collections::BTreeMap;
use std::rc::Rc;

use kraft_core::lesson::stage::Panel;
use kraft_core::view::ClusterView;
use yew::prelude::*;

use crate::address::{self, Param};
use crate::components::help::HelpOverlay;
use crate::components::image_panel::Toggled;
use crate::components::layout::{save_split, stored_split};
use crate::components::welcome::{Welcome, WelcomeCard};
use crate::state::{Action, Lang, PageConfig, Playground};

mod body;
mod embed;
mod frames;
mod header;
mod keys;
mod lecture;
mod publish;
mod session;

use body::{scroll_focused_into_view, Body};
use frames::use_frames;
use header::header;
use keys::{use_help_keys, use_page_keys};
use lecture::use_lecture;
use publish::use_publish;
use session::{mark_visited, page_query, restored_banner, use_saved_address, use_welcome};

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
        .find(|n| n.roles.has_controller())
        .or(view.nodes.first())
        .map(|n| n.id)
        .unwrap_or_default()
}

/// The panels a stage offers: every panel, the TimelineHashMap only once there is one, the two
/// high watermarks once a data partition holds data or when the step asks for them (the tab row
/// keeps to two lines at 1280×720 until then).
fn stage_panels(has_timeline: bool, has_data: bool, asked: Option<Panel>) -> Vec<Panel> {
    Panel::ALL
        .into_iter()
        .filter(|p| *p != Panel::Timeline || has_timeline)
        .filter(|p| *p != Panel::HwTwo || has_data || asked == Some(Panel::HwTwo))
        .collect()
}

/// The panels the stage offers for `state`, with the one the step `asked` for.
fn offered_panels(state: &Playground, asked: Option<Panel>) -> Vec<Panel> {
    stage_panels(
        state.timeline.is_some(),
        holds_data(state.view.as_deref()),
        asked,
    )
}

/// Whether a data partition of `view` holds records.
fn holds_data(view: Option<&ClusterView>) -> bool {
    view.is_some_and(|v| v.data_partitions.iter().any(|p| p.max_log_end_offset() > 0))
}

/// The node the panels show: the one the lecturer clicked (`selected`, with the focus the lesson
/// had then) while the lesson keeps that focus, else the stage's `focus`, else the default node.
fn shown_node(view: &ClusterView, selected: Option<(Option<i32>, i32)>, focus: Option<i32>) -> i32 {
    selected
        .filter(|(asked, id)| *asked == focus && view.nodes.iter().any(|n| n.id == *id))
        .map(|(_, id)| id)
        .or(focus.filter(|id| view.nodes.iter().any(|n| n.id == *id)))
        .unwrap_or_else(|| default_node(view))
}

/// The tab the stage shows: the one the lecturer `picked` while the lesson still asks for the
/// panel it `asked` for then, else the one the step asks for, else the Raft states.
fn current_panel(
    picked: Option<(Option<Panel>, Panel)>,
    asked: Option<Panel>,
    panels: &[Panel],
) -> Panel {
    picked
        .filter(|(then, p)| *then == asked && panels.contains(p))
        .map(|(_, p)| p)
        .or(asked.filter(|p| panels.contains(p)))
        .unwrap_or(Panel::States)
}

/// Holds the lecturer's choice (a node, a tab) in `choice`, with what the lesson `asked` for
/// then: the choice holds until the lesson asks for something else.
fn hold<A: Copy + 'static, T: 'static>(
    choice: &UseStateHandle<Option<(A, T)>>,
    asked: A,
) -> Callback<T> {
    let choice = choice.clone();
    Callback::from(move |picked: T| choice.set(Some((asked, picked))))
}

/// Moves the splitter: the cluster column's share of the width, kept in localStorage.
fn on_split(split: &UseStateHandle<u32>) -> Callback<u32> {
    let split = split.clone();
    Callback::from(move |p: u32| {
        save_split(p);
        split.set(p);
    })
}

/// Closes the keyboard help.
fn close_help(help_open: &UseStateHandle<bool>) -> Callback<()> {
    let help_open = help_open.clone();
    Callback::from(move |()| help_open.set(false))
}

/// What the first-visit card's choice does: a lesson opens it, the keys open the keyboard help;
/// any choice marks the card seen.
fn on_welcome_choice(
    welcome: &UseStateHandle<bool>,
    state: &UseReducerHandle<Playground>,
    help_open: &UseStateHandle<bool>,
) -> Callback<Welcome> {
    let welcome = welcome.clone();
    let dispatcher = state.dispatcher();
    let help_open = help_open.clone();
    Callback::from(move |choice: Welcome| {
        mark_visited();
        welcome.set(false);
        match choice {
            Welcome::Lesson(name) => {
                address::set_param(Param::Lesson, Some(name));
                dispatcher.dispatch(Action::ChooseLesson(crate::lessons::find(name)));
            }
            Welcome::FreePlay => {}
            Welcome::Keys => help_open.set(true),
        }
    })
}

/// A callback that sends its action to `state`'s reducer.
fn dispatch(state: &UseReducerHandle<Playground>) -> Callback<Action> {
    let dispatcher = state.dispatcher();
    Callback::from(move |action: Action| dispatcher.dispatch(action))
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
    let image_dirs = Toggled(use_mut_ref(BTreeMap::new));
    // The stage layout in free play (`?present=1` or the header's switch).
    let present = use_state(|| props.initial.config.present);
    use_frames(&state);
    use_saved_address(&state);
    use_publish(&state);
    let restored = use_state(|| props.restored);
    let lecture = use_lecture(&props.initial, &state);
    // The keyboard help overlay and its keys (`?`, Escape), on every page.
    let help_open = use_state(|| false);
    use_help_keys(&help_open);
    // The first-visit card: on a bare address, once per browser.
    let welcome = use_welcome(&props.initial, props.restored);

    let stage_mode = state.lesson.is_some() || *present || lecture.forces_stage();
    let stage = state.lesson.as_ref().map(|l| l.stage()).unwrap_or_default();
    let panels = offered_panels(&state, stage.panel);
    let panel = current_panel(*picked, stage.panel, &panels);
    // The lesson keys while a lesson is open, the free-play keys while there is a world; the
    // stage's digit keys pick a tab; none while the keyboard help covers the page.
    let keys_active = !*help_open && !*welcome && (state.lesson.is_some() || state.view.is_some());
    use_page_keys(
        &state,
        keys_active,
        stage_mode,
        stage.panel,
        &panels,
        &picked,
    );
    // What a step lights is brought into view inside the side panel (a lit batch far down the
    // log, a partition row): the page itself never scrolls on the stage.
    use_effect_with((step_key, panel), |_| scroll_focused_into_view());
    // The cluster column's share of the width, kept in localStorage.
    let split = use_state(stored_split);

    let on_action = dispatch(&state);
    let t = crate::i18n::Chrome::of(state.lang);
    let body = Body {
        speaker: lecture.speaker(&state, &on_action),
        state: &state,
        stage: &stage,
        step_key,
        stage_mode,
        shown: state
            .view
            .as_ref()
            .map(|v| shown_node(v, *selected, stage.focus)),
        highlights: Rc::new(stage.highlights.clone()),
        label_kinds: Rc::new(stage.labels.clone()),
        image_dirs,
        panels,
        panel,
        split: *split,
        on_split: on_split(&split),
        on_pick: hold(&picked, stage.panel),
        on_action: on_action.clone(),
        on_select: hold(&selected, stage.focus),
        t,
    }
    .html();
    let layout = if stage_mode { "stage" } else { "dashboard" };
    let body = lecture.body(body, &state);
    html! {
        <ContextProvider<Lang> context={state.lang}>
        <div class={classes!("page", layout, lecture.classes())} id="playground" data-ready="true"
             data-lang={state.lang.code()} data-layout={layout}
             data-presenter={lecture.role.map(|r| r.name())} data-embed={lecture.embed.then_some("true")}
             data-mode={if state.lesson.is_some() { "lesson" } else { "free" }}>
            { for (!lecture.chromeless()).then(|| header(&state, &present, &help_open, &on_action, t)) }
            { lecture.corner(&state, &on_action) }
            if *help_open {
                <HelpOverlay lang={state.lang} on_close={close_help(&help_open)} />
            }
            if *welcome {
                <WelcomeCard lang={state.lang} on_choice={on_welcome_choice(&welcome, &state, &help_open)} />
            }
            if *restored {
                { restored_banner(&restored, t) }
            }
            { body }
        </div>
        </ContextProvider<Lang>>
    }
}
