//! The presenter pair's channel: a `BroadcastChannel` named after the pair's link id, the hook
//! that sends what this window shows when it changes by itself and follows what the other
//! window sends, and the audience window's address.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{BroadcastChannel, MessageEvent};
use yew::prelude::*;

use serde::Serialize;

use super::{Envelope, Message, Pairing, Role, Shown, CHANNEL_PREFIX};
use crate::address::{self, Param};
use crate::state::{Action, Playground};

/// The longest link id an address may carry.
pub const MAX_LINK_LEN: usize = 32;

/// Whether `id` is a usable link id: 1 to [`MAX_LINK_LEN`] ASCII letters and digits.
pub fn valid_link(id: &str) -> bool {
    !id.is_empty() && id.len() <= MAX_LINK_LEN && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A fresh link id (eight base-36 digits from getrandom; pairing is not security, only which
/// windows talk).
pub fn new_link() -> String {
    let mut n = getrandom::u64().unwrap_or_default() % 36u64.pow(8);
    (0..8)
        .map(|_| {
            let d = (n % 36) as u32;
            n /= 36;
            char::from_digit(d, 36).unwrap_or('0')
        })
        .collect()
}

/// Opens (or brings back) the audience window of `link`; `false` when the browser blocked it.
pub fn open_audience(link: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let url = address::path_with(&address::audience_query(&address::current(), link));
    matches!(
        window.open_with_url_and_target(&url, &format!("kraft-audience-{link}")),
        Ok(Some(_))
    )
}

/// The channel of a pair and its message listener (dropped, it stops listening).
struct Channel {
    channel: BroadcastChannel,
    _listener: EventListener,
}

impl Drop for Channel {
    fn drop(&mut self) {
        self.channel.close();
    }
}

/// Sends `msg` on `channel`, as a plain JS object.
fn post(channel: &BroadcastChannel, msg: &Message) {
    let ser = serde_wasm_bindgen::Serializer::json_compatible();
    if let Ok(value) = msg.envelope().serialize(&ser) {
        let _ = channel.post_message(&value);
    }
}

/// The message a channel event carries, if it is one of ours.
fn received(data: JsValue) -> Option<Message> {
    serde_wasm_bindgen::from_value::<Envelope>(data)
        .ok()
        .and_then(Message::open)
}

/// Carries out what following the other window asks: the URL keeps the lesson and language.
fn apply(dispatcher: &UseReducerDispatcher<Playground>, actions: Vec<Action>) {
    for action in actions {
        match &action {
            Action::ChooseLesson(i) => {
                address::set_param(Param::Lesson, i.map(|i| crate::lessons::LESSONS[i].0))
            }
            Action::SetLang(lang) => address::set_param(Param::Lang, Some(lang.code())),
            _ => {}
        }
        dispatcher.dispatch(action);
    }
}

/// Pairs this window (of `role`, `None`: not a presenter window) with the other window of
/// `link`: gives whether the other window has been heard from.
#[hook]
pub fn use_presenter_link(
    state: &UseReducerHandle<Playground>,
    role: Option<Role>,
    link: &str,
) -> bool {
    let pairing = use_mut_ref(|| Pairing::new(role.unwrap_or(Role::Speaker)));
    let channel = use_mut_ref(|| None::<Channel>);
    let peer = use_state(|| false);
    {
        let (pairing, channel, peer) = (pairing.clone(), channel.clone(), peer.clone());
        let dispatcher = state.dispatcher();
        use_effect_with((role, link.to_string()), move |(role, link)| {
            if let Some(role) = *role {
                *channel.borrow_mut() = open_channel(role, link, pairing, dispatcher, peer);
            }
            move || drop(channel.borrow_mut().take())
        });
    }
    let shown = Shown::of(state);
    use_effect_with(shown, move |shown| {
        if let Some(msg) = pairing.borrow_mut().observe(shown) {
            if let Some(c) = channel.borrow().as_ref() {
                post(&c.channel, &msg);
            }
        }
    });
    *peer
}

/// Opens the channel of `link` for a window of `role`, listens to it and says hello.
fn open_channel(
    role: Role,
    link: &str,
    pairing: Rc<RefCell<Pairing>>,
    dispatcher: UseReducerDispatcher<Playground>,
    peer: UseStateHandle<bool>,
) -> Option<Channel> {
    let channel = BroadcastChannel::new(&format!("{CHANNEL_PREFIX}{link}")).ok()?;
    let answer_on = channel.clone();
    let listener = EventListener::new(&channel, "message", move |e| {
        let Some(msg) = e.dyn_ref::<MessageEvent>().and_then(|m| received(m.data())) else {
            return;
        };
        let (actions, answer) = pairing.borrow_mut().receive(&msg);
        if pairing.borrow().peer && !*peer {
            peer.set(true);
        }
        if let Some(a) = answer {
            post(&answer_on, &a);
        }
        apply(&dispatcher, actions);
    });
    post(&channel, &Message::Hello(role));
    Some(Channel {
        channel,
        _listener: listener,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_ids_are_short_and_plain() {
        assert!(valid_link("ab12XY"));
        assert!(!valid_link(""));
        assert!(!valid_link("a b"));
        assert!(!valid_link("<script>"));
        assert!(!valid_link(&"a".repeat(MAX_LINK_LEN + 1)));
    }
}
