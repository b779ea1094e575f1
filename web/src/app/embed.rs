//! The embedded stage (`?embed=1&lesson=..&step=..`, for an iframe in slides): no header, a
//! small ◀ k/n ▶ in a corner with a link to the full page, and for a broken address a card
//! saying what is wrong instead of the stage.

use yew::prelude::*;

use crate::address::{self, with_params, Param};
use crate::components::lesson_panel::LessonNav;
use crate::i18n::EmbedText;
use crate::lessons;
use crate::state::{Action, Lang, Playground};

/// The card of a broken embed address: what is wrong and how an embed address is written.
pub(super) fn embed_error(problem: &str, lang: Lang) -> Html {
    let names: Vec<&str> = lessons::LESSONS.iter().map(|(n, _)| *n).collect();
    let &EmbedText { title, usage } = EmbedText::of(lang);
    html! {
        <main class="embed-error" id="embed-error" role="alert">
            <h1>{ title }</h1>
            <p id="error" class="error">{ problem.to_string() }</p>
            <p>{ usage }{" "}<code>{ "?embed=1&lesson=02-election&step=3" }</code></p>
            <p class="lessons">{ format!("lesson = {}", names.join(" · ")) }</p>
        </main>
    }
}

/// The embedded stage's corner: the lesson's ◀ k/n ▶ and a link opening the full page there.
pub(super) fn embed_nav(state: &Playground, on_action: &Callback<Action>) -> Html {
    let full = with_params(&address::current(), &[(Param::Embed, None)]);
    let full = if full.is_empty() {
        "?".to_string()
    } else {
        full
    };
    html! {
        <nav class="embed-nav" id="embed-nav">
            if let Some(run) = &state.lesson {
                <LessonNav run={run.clone()} lang={state.lang} on_action={on_action.clone()} />
            }
            <a id="embed-open" href={full} target="_blank" rel="noopener" title="KRaft Playground">{"↗"}</a>
        </nav>
    }
}
