//! Publishes what the page draws to `window.kraft` (see [`crate::api`]) after every change.

use yew::prelude::*;

use crate::api::{publish, Shown};
use crate::state::Playground;

/// What `state` shows, for `window.kraft.shown()`.
pub(super) fn shown_of(state: &Playground) -> Shown {
    let lesson = state.lesson.as_ref();
    Shown {
        lesson: lesson.map(|l| l.name().to_string()),
        step: lesson.map_or(0, |l| l.pos),
        steps: lesson.map_or(0, |l| l.lesson.steps.len()),
        lang: state.lang.code(),
        seed: state.config.seed.to_string(),
        playing: state.playing || lesson.is_some_and(|l| l.playing.is_some()),
        revision: state.revision,
    }
}

/// Publishes `state` whenever it changes.
#[hook]
pub(super) fn use_publish(state: &UseReducerHandle<Playground>) {
    let shown = shown_of(state);
    let view = state.view.clone();
    use_effect_with(shown, move |shown| publish(view, shown.clone()));
}
