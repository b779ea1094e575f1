//! The page's header: the title, the lesson picker, the lesson's controls (or, in free play,
//! the seed and the stage/dashboard switch), the language, text size, theme and projector
//! switches, and the keyboard help button.

use yew::prelude::*;

use crate::address::{self, Param};
use crate::components::layout::{ProjectorButton, TextSize};
use crate::components::lesson_editor::{LessonEditorButton, Session};
use crate::components::lesson_panel::{LangToggle, LessonNav, LessonPicker};
use crate::components::qr::QrButton;
use crate::components::theme::ThemeToggle;
use crate::i18n::Chrome;
use crate::state::{Action, Playground};

/// The header of the page showing `state`; `present` is free play's stage layout (its switch
/// writes `?present=1`), `help_open` the keyboard help its `?` button opens.
pub(super) fn header(
    state: &Playground,
    present: &UseStateHandle<bool>,
    help_open: &UseStateHandle<bool>,
    on_action: &Callback<Action>,
    t: &'static Chrome,
) -> Html {
    let on_present = {
        let present = present.clone();
        Callback::from(move |_: MouseEvent| {
            let next = !*present;
            address::set_param(Param::Present, next.then_some("1"));
            present.set(next);
        })
    };
    let on_help_open = {
        let help_open = help_open.clone();
        Callback::from(move |_: MouseEvent| help_open.set(true))
    };
    html! {
            <header class="top">
                <h1>{"KRaft Playground"}</h1>
                <LessonPicker current={state.lesson.as_ref().filter(|l| l.custom.is_none()).map(|l| l.index)} lang={state.lang}
                              on_action={on_action.clone()} />
                if let Some(run) = &state.lesson {
                    <LessonNav run={run.clone()} lang={state.lang} on_action={on_action.clone()} />
                } else if let Some(view) = &state.view {
                    <span class="seed">{ format!("seed {}", view.seed) }</span>
                    <button id="btn-present" class="present-toggle" onclick={on_present}
                            aria-pressed={present.to_string()}>{ if **present { t.dashboard } else { t.present } }</button>
                }
                <span class="spacer"></span>
                <LangToggle lang={state.lang} on_action={on_action.clone()} />
                <TextSize />
                <ThemeToggle />
                <ProjectorButton label={t.projector} />
                <LessonEditorButton lang={state.lang} on_action={on_action.clone()} session={session(state)} />
                <QrButton lang={state.lang} />
                <button id="btn-help" class="help-button" onclick={on_help_open}
                        title="Keyboard shortcuts (?)" aria-label={t.keys}>{"?"}</button>
            </header>
    }
}

/// Free play's session for the editor's *This session as a lesson* (`None` in a lesson).
fn session(state: &crate::state::Playground) -> Option<Session> {
    if state.lesson.is_some() {
        return None;
    }
    let c = &state.config;
    Some(Session {
        cluster: crate::state::cluster_command(c.seed, &c.controllers, &c.brokers),
        seed: c.seed,
        history: state.history.clone(),
    })
}
