//! The kept session: the address (the lesson step and the console command history, see
//! [`crate::address`]) written back as the state changes, at most every [`SAVE_DELAY_MS`], and
//! kept in `localStorage` so that a bare address restores it. Opening such an address rebuilds
//! the same state by deterministic replay (see [`crate::state::PageConfig::build`]).

use std::cell::RefCell;

use gloo_timers::callback::Timeout;
use serde::{Deserialize, Serialize};

use crate::address;

/// The `localStorage` key that keeps the last session's query string.
pub const SESSION_KEY: &str = "kraft-session";
fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The session kept in `localStorage`: a JSON object written and read with serde-wasm-bindgen
/// (`{"version": 1, "query": "?seed=7&cmds=..."}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptSession {
    /// [`KeptSession::VERSION`]: a session of another version is not restored.
    pub version: u32,
    /// The address's query that rebuilds the session.
    pub query: String,
}

impl KeptSession {
    /// The version this page writes.
    pub const VERSION: u32 = 1;

    /// The query to restore from what was kept: a session of this version; an older page's
    /// plain query text (`?seed=7&...`) is read too.
    pub fn restore(stored: &str, parsed: Option<KeptSession>) -> Option<String> {
        let query = match parsed {
            Some(k) if k.version == KeptSession::VERSION => k.query,
            Some(_) => return None,
            None if stored.starts_with('?') => stored.to_string(),
            None => return None,
        };
        (!query.trim_start_matches('?').is_empty()).then_some(query)
    }
}

/// The query string kept by the last session, if any.
pub fn stored_session() -> Option<String> {
    let stored = storage()?.get_item(SESSION_KEY).ok().flatten()?;
    let parsed = js_sys::JSON::parse(&stored)
        .ok()
        .and_then(|v| serde_wasm_bindgen::from_value::<KeptSession>(v).ok());
    KeptSession::restore(&stored, parsed)
}

/// Keeps `query` as the session in `localStorage`.
fn keep_session(storage: &web_sys::Storage, query: String) {
    let kept = KeptSession {
        version: KeptSession::VERSION,
        query,
    };
    let ser = serde_wasm_bindgen::Serializer::json_compatible();
    let text = kept
        .serialize(&ser)
        .ok()
        .and_then(|v| js_sys::JSON::stringify(&v).ok())
        .and_then(|t| t.as_string());
    if let Some(text) = text {
        let _ = storage.set_item(SESSION_KEY, &text);
    }
}

/// Forgets the kept session (and a save that has not been written yet).
pub fn forget_session() {
    PENDING.with(|p| p.borrow_mut().take());
    SAVE_TIMER.with(|t| t.borrow_mut().take());
    if let Some(s) = storage() {
        let _ = s.remove_item(SESSION_KEY);
    }
}

/// How long (wall ms) [`save_query_soon`] waits before it writes: steps clicked within it are
/// written once. `history.replaceState` costs Chromium about 3 ms, more than drawing a step.
pub const SAVE_DELAY_MS: u32 = 150;

thread_local! {
    /// The query [`save_query_soon`] will write.
    static PENDING: RefCell<Option<String>> = const { RefCell::new(None) };
    /// The timer that writes it.
    static SAVE_TIMER: RefCell<Option<Timeout>> = const { RefCell::new(None) };
}

/// [`save_query`] within [`SAVE_DELAY_MS`]: the newest query given by then is written, once.
pub fn save_query_soon(query: String) {
    PENDING.with(|p| *p.borrow_mut() = Some(query));
    SAVE_TIMER.with(|t| {
        let mut t = t.borrow_mut();
        if t.is_none() {
            *t = Some(Timeout::new(SAVE_DELAY_MS, || {
                SAVE_TIMER.with(|t| t.borrow_mut().take());
                flush_pending();
            }));
        }
    });
}

/// Writes the query [`save_query_soon`] holds now, if any (also when the page is left).
pub fn flush_pending() {
    if let Some(q) = PENDING.with(|p| p.borrow_mut().take()) {
        save_query(&q);
    }
}

/// Puts `query` in the address bar (see [`address::replace`]) and keeps what of it a session
/// keeps (see [`address::kept_session`]) in `localStorage`.
pub fn save_query(query: &str) {
    address::replace(query);
    if let (Some(s), Some(kept)) = (storage(), address::kept_session(query)) {
        keep_session(&s, kept);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kept_session_is_versioned_json_and_an_older_plain_query_still_restores() {
        let kept = KeptSession {
            version: KeptSession::VERSION,
            query: "?seed=7&cmds=sleep%201s".into(),
        };
        let text = serde_json::to_string(&kept).unwrap();
        assert_eq!(text, r#"{"version":1,"query":"?seed=7&cmds=sleep%201s"}"#);
        let parsed = serde_json::from_str::<KeptSession>(&text).ok();
        assert_eq!(
            KeptSession::restore(&text, parsed).as_deref(),
            Some("?seed=7&cmds=sleep%201s")
        );
        assert_eq!(
            KeptSession::restore("?seed=3", None).as_deref(),
            Some("?seed=3")
        );
        let future = KeptSession {
            version: 9,
            query: "?seed=1".into(),
        };
        assert_eq!(KeptSession::restore("", Some(future)), None);
        assert_eq!(KeptSession::restore("garbage", None), None);
        assert_eq!(KeptSession::restore("?", None), None);
    }
}
