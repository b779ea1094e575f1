//! The first-visit card: what this page is, and three ways in (lesson 02, free play, the keys).
//! Shown once per browser on a bare address; any choice (or Escape) dismisses it for good.

use yew::prelude::*;

use crate::i18n::{Lang, WelcomeText};

/// What the visitor chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Welcome {
    /// Open this lesson.
    Lesson(&'static str),
    /// Stay in free play.
    FreePlay,
    /// Show the keyboard help.
    Keys,
}

/// Properties of [`WelcomeCard`].
#[derive(Properties, PartialEq)]
pub struct WelcomeCardProps {
    /// The language.
    pub lang: Lang,
    /// Called with the visitor's choice.
    pub on_choice: Callback<Welcome>,
}

/// The card.
#[component]
pub fn WelcomeCard(props: &WelcomeCardProps) -> Html {
    let t = WelcomeText::of(props.lang);
    let choose = |c: Welcome| props.on_choice.reform(move |_: MouseEvent| c);
    html! {
        <div class="overlay" id="welcome" role="dialog" aria-modal="true" aria-labelledby="welcome-title">
            <div class="panel welcome">
                <h2 id="welcome-title">{ t.title }</h2>
                <p class="welcome-what">{ t.what }</p>
                <p class="welcome-choices">
                    <button id="welcome-lesson" class="next" onclick={choose(Welcome::Lesson("02-election"))}>{ t.lesson }</button>
                    <button id="welcome-free" onclick={choose(Welcome::FreePlay)}>{ t.free_play }</button>
                    <button id="welcome-keys" onclick={choose(Welcome::Keys)}>{ t.keys }</button>
                </p>
            </div>
        </div>
    }
}
