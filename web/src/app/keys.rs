//! The page's keys: the lesson keys, the free-play keys, the stage's digit keys for a tab, and
//! the keyboard help's `?` and Escape; a key typed into a field or a menu is theirs, not the
//! page's.

use gloo_events::{EventListener, EventListenerOptions};
use kraft_core::lesson::stage::Panel;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::components::stage::panel_for_key;
use crate::state::{Action, Playground};

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

/// The keyboard help overlay's keys (`?`, Escape), on every page: they open and close
/// `help_open`.
#[hook]
pub(super) fn use_help_keys(help_open: &UseStateHandle<bool>) {
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

/// The lesson keys while a lesson is open, the free-play keys while there is a world, while
/// `active`; on the stage (`stage_mode`) a digit key picks a tab of `panels` (into `picked`,
/// with the panel the lesson `asked` for then).
#[hook]
pub(super) fn use_page_keys(
    state: &UseReducerHandle<Playground>,
    active: bool,
    stage_mode: bool,
    asked: Option<Panel>,
    panels: &[Panel],
    picked: &UseStateHandle<Option<(Option<Panel>, Panel)>>,
) {
    let dispatcher = state.dispatcher();
    let lesson = state.lesson.is_some();
    let picked = picked.clone();
    use_effect_with(
        (
            active,
            lesson,
            state.playing,
            stage_mode,
            asked,
            panels.to_vec(),
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
