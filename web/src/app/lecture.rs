//! What the address asks of the lecture around the page: the presenter pair
//! (`?presenter=1|audience&link=`, see [`crate::presenter`]) and the embedded stage
//! (`?embed=1`): which window this is, its header or none, the speaker's panel, the embed's
//! corner or its error.

use std::rc::Rc;

use yew::prelude::*;

use super::embed::{embed_error, embed_nav};
use crate::address::{self, Param};
use crate::components::speaker_panel::SpeakerPanel;
use crate::presenter::link::{new_link, use_presenter_link, valid_link};
use crate::presenter::Role;
use crate::state::{Action, Playground};

/// The page's part in a lecture.
pub(super) struct Lecture {
    /// The presenter window this is, if any.
    pub(super) role: Option<Role>,
    /// The pair's link id (empty outside a pair).
    link: Rc<String>,
    /// Whether the other window of the pair answered.
    peer: bool,
    /// `?embed=1`: the stage for an iframe.
    pub(super) embed: bool,
    /// What was wrong with an embed address, shown in the frame instead of the stage.
    embed_problem: Option<String>,
}

/// The lecture `initial` (the page as its address built it) asks for, paired with the other
/// window when it is a presenter window.
#[hook]
pub(super) fn use_lecture(initial: &Playground, state: &UseReducerHandle<Playground>) -> Lecture {
    let config = &initial.config;
    let role = config.presenter.as_deref().and_then(Role::from_query_value);
    // The speaker's window names the link when the address has none.
    let link = use_memo(role, |role| {
        let kept = config.link.clone().filter(|l| valid_link(l));
        match (role, kept) {
            (None, _) => String::new(),
            (Some(_), Some(kept)) => kept,
            (Some(role), None) => {
                let fresh = new_link();
                if *role == Role::Speaker {
                    address::set_param(Param::Link, Some(&fresh));
                }
                fresh
            }
        }
    });
    let peer = use_presenter_link(state, role, &link);
    let embed = config.embed;
    let embed_problem = use_memo((), |_| embed.then(|| initial.last_error.clone()).flatten());
    Lecture {
        role,
        link,
        peer,
        embed,
        embed_problem: (*embed_problem).clone(),
    }
}

impl Lecture {
    /// Whether the page goes without its header: the audience's window and an embedded stage.
    pub(super) fn chromeless(&self) -> bool {
        self.embed || self.role == Some(Role::Audience)
    }

    /// Whether the page is the stage whatever else it shows.
    pub(super) fn forces_stage(&self) -> bool {
        self.embed || self.role.is_some()
    }

    /// The speaker's panel, in the speaker's window.
    pub(super) fn speaker(&self, state: &Playground, on_action: &Callback<Action>) -> Option<Html> {
        (self.role == Some(Role::Speaker)).then(|| {
            html! {
                <SpeakerPanel run={state.lesson.clone()} lang={state.lang} clock_ms={state.clock_ms}
                              on_action={on_action.clone()} link={AttrValue::from((*self.link).clone())}
                              peer={self.peer} />
            }
        })
    }

    /// The embedded stage's corner (◀ k/n ▶, ↗), when the address was good.
    pub(super) fn corner(&self, state: &Playground, on_action: &Callback<Action>) -> Html {
        match (self.embed, &self.embed_problem) {
            (true, None) => embed_nav(state, on_action),
            _ => html! {},
        }
    }

    /// The page's body: `body`, or the error of a broken embed address instead.
    pub(super) fn body(&self, body: Html, state: &Playground) -> Html {
        match &self.embed_problem {
            Some(problem) => embed_error(problem, state.lang),
            None => body,
        }
    }

    /// The page's classes for this lecture (`chromeless`, `embed`, `speaker`, `audience`).
    pub(super) fn classes(&self) -> Classes {
        classes!(
            self.chromeless().then_some("chromeless"),
            self.embed.then_some("embed"),
            self.role.map(|r| r.name())
        )
    }
}
