//! The session kept in the address and in `localStorage`: the query a bare address restores, the
//! lesson step and command history written back as they change, the banner of a restored
//! session, and the first-visit mark.

use gloo_events::EventListener;
use yew::prelude::*;

use crate::chrome::Chrome;
use crate::share;
use crate::state::Playground;

/// The address's query; a bare address takes the session kept in `localStorage` (and shows it
/// in the address bar). The flag says whether the session was restored that way.
pub(super) fn page_query() -> (String, bool) {
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

/// Whether the address has no query (not a shared link, not a lesson).
pub(super) fn bare_address() -> bool {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_none_or(|s| s.trim_start_matches('?').is_empty())
}

/// Whether the first-visit card was dismissed in this browser.
const VISITED_KEY: &str = "kraft-visited";

/// Whether this browser has not dismissed the first-visit card yet.
pub(super) fn first_visit() -> bool {
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
