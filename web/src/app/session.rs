//! The session kept in the address and in `localStorage`: the query a bare address restores, the
//! lesson step and command history written back as they change, the banner of a restored
//! session, and the first-visit mark.

use gloo_events::EventListener;
use yew::prelude::*;

use crate::address::{self, Param};
use crate::i18n::Chrome;
use crate::share;
use crate::state::Playground;

thread_local! {
    /// Whether the address had no query when the page opened (before a kept session or a
    /// fresh seed was written into it).
    static BARE_AT_START: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The address's query; a bare address takes the session kept in `localStorage` (and shows it
/// in the address bar), and free play without a seed gets a fresh one written into the
/// address (see [`address::with_fresh_seed`]). The flag says whether the session was restored.
pub(super) fn page_query() -> (String, bool) {
    let query = address::current();
    BARE_AT_START.with(|b| b.set(query.trim_start_matches('?').is_empty()));
    let (query, restored) = if !query.is_empty() {
        (query, false)
    } else {
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
    };
    match address::with_fresh_seed(&query, fresh_seed) {
        Some(seeded) => {
            share::save_query(&seeded);
            (seeded, restored)
        }
        None => (query, restored),
    }
}

/// A fresh seed from the browser's random source (getrandom: `crypto.getRandomValues`),
/// 1 to 999,999 so that it reads aloud; the default seed if there is no random source.
fn fresh_seed() -> u64 {
    getrandom::u64().map_or(crate::state::DEFAULT_SEED, |r| 1 + r % 999_999)
}

/// Whether the address had no query when the page opened (not a shared link, not a lesson).
fn bare_address() -> bool {
    BARE_AT_START.with(|b| b.get())
}

/// Whether the first-visit card shows: on a bare address that opened free play (`initial`, not
/// a `restored` session), once per browser.
#[hook]
pub(super) fn use_welcome(initial: &Playground, restored: bool) -> UseStateHandle<bool> {
    let show = initial.lesson.is_none() && !restored && bare_address() && first_visit();
    use_state(move || show)
}

/// Whether the first-visit card was dismissed in this browser.
const VISITED_KEY: &str = "kraft-visited";

/// Whether this browser has not dismissed the first-visit card yet.
fn first_visit() -> bool {
    let storage = web_sys::window().and_then(|w| w.local_storage().ok().flatten());
    storage.is_some_and(|s| s.get_item(VISITED_KEY).ok().flatten().is_none())
}

/// Marks the first-visit card dismissed in this browser.
pub(super) fn mark_visited() {
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.set_item(VISITED_KEY, "1");
    }
}

/// The lesson step and the command history in the address and in localStorage; not while
/// time plays (a frame every 16 ms would flood the history API), but as soon as it stops;
/// written at most every SAVE_DELAY_MS, not on every step click. Leaving the page writes a save
/// still waiting.
#[hook]
pub(super) fn use_saved_address(state: &UseReducerHandle<Playground>) {
    let params = state.share_params();
    use_effect_with((params, state.animating()), |((step, cmds), animating)| {
        if !*animating {
            let query = address::with_params(
                &address::current(),
                &[(Param::Step, step.clone()), (Param::Cmds, cmds.clone())],
            );
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

/// The banner of a session restored from `localStorage`: start fresh (a bare address without
/// the kept session) or keep it (the banner goes).
pub(super) fn restored_banner(restored: &UseStateHandle<bool>, t: &Chrome) -> Html {
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
    html! {
        <p class="restored" id="restored" role="status">
            { t.restored }{" "}
            <button id="btn-fresh" onclick={on_fresh}>{ t.start_fresh }</button>
            {" "}
            <button id="btn-keep" onclick={on_keep}>{ t.keep_it }</button>
        </p>
    }
}
