//! Shareable state: the lesson step and the console command history in the page address
//! (`&step=N&cmds=...`, the commands URL-encoded and newline-separated), kept in `localStorage`
//! too. Opening such an address rebuilds the same state by deterministic replay (see
//! [`crate::state::PageConfig::build`]).

use std::cell::RefCell;

use gloo_timers::callback::Timeout;
use serde::{Deserialize, Serialize};

/// The `localStorage` key that keeps the last session's query string.
pub const SESSION_KEY: &str = "kraft-session";
/// In `cmds`, the line that stands for "run the lesson's next step here".
pub const NEXT_STEP_LINE: &str = "#next";
/// At most this many command lines are replayed from an address.
pub const MAX_REPLAY_LINES: usize = 500;

/// Percent-encodes `text` for a query value: everything but `A-Z a-z 0-9 - _ . ~` as `%XX`.
pub fn encode_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decodes a percent-encoded query value (`+` is a space); an error names what is wrong.
pub fn decode_component(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = text
                    .get(i + 1..i + 3)
                    .filter(|h| h.bytes().all(|c| c.is_ascii_hexdigit()))
                    .ok_or_else(|| format!("bad percent escape at character {}", i + 1))?;
                out.push(u8::from_str_radix(hex, 16).map_err(|e| e.to_string())?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| "not UTF-8 once decoded".to_string())
}

/// The `cmds=` value for a command history (empty for none).
pub fn encode_cmds(cmds: &[String]) -> String {
    encode_component(&cmds.join("\n"))
}

/// Reads a `cmds=` value: one command per line, blank lines skipped.
pub fn decode_cmds(value: &str) -> Result<Vec<String>, String> {
    let text = decode_component(value).map_err(|e| format!("?cmds=: {e}"))?;
    let cmds: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    if cmds.len() > MAX_REPLAY_LINES {
        return Err(format!(
            "?cmds=: {} commands, at most {MAX_REPLAY_LINES} are replayed",
            cmds.len()
        ));
    }
    Ok(cmds)
}

/// `query` (with or without its `?`) with `key` set to each `Some` value, or removed for `None`;
/// the other pairs keep their order. Gives the new query with its `?`, or `""` when empty.
pub fn with_params(query: &str, changes: &[(&str, Option<String>)]) -> String {
    let mut pairs: Vec<String> = query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .filter(|p| {
            let key = p.split('=').next().unwrap_or("");
            !changes.iter().any(|(k, _)| *k == key)
        })
        .map(str::to_string)
        .collect();
    for (k, v) in changes {
        if let Some(v) = v {
            pairs.push(format!("{k}={v}"));
        }
    }
    if pairs.is_empty() {
        String::new()
    } else {
        format!("?{}", pairs.join("&"))
    }
}

/// Free play without a seed: `query` with `seed=` from `fresh` added, so that the run stays
/// reproducible from its address; `None` when the address names a seed or a lesson (a lesson
/// brings its own `cluster ... seed=`) or runs the benchmark.
pub fn with_fresh_seed(query: &str, fresh: impl FnOnce() -> u64) -> Option<String> {
    let has = |key: &str| {
        query
            .trim_start_matches('?')
            .split('&')
            .any(|p| p.split('=').next() == Some(key))
    };
    if has("seed") || has("lesson") || has("bench") {
        return None;
    }
    Some(with_params(query, &[("seed", Some(fresh().to_string()))]))
}

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

/// Replaces the address's query with `query` (no reload, no history entry) when it differs,
/// and keeps it in `localStorage`.
pub fn save_query(query: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    if location.search().unwrap_or_default() != query {
        let path = location.pathname().unwrap_or_default();
        if let Ok(history) = window.history() {
            let _ = history.replace_state_with_url(
                &wasm_bindgen::JsValue::NULL,
                "",
                Some(&format!("{path}{query}")),
            );
        }
    }
    if let (Some(s), Some(kept)) = (storage(), kept_session(query)) {
        keep_session(&s, kept);
    }
}

/// What of an address `localStorage` keeps as the session a bare address restores: not an
/// embedded stage's nor an audience window's (they would take over the lecturer's page), and
/// never the presenter pairing (`presenter=`, `link=`).
pub fn kept_session(query: &str) -> Option<String> {
    let has = |key: &str, value: Option<&str>| {
        query
            .trim_start_matches('?')
            .split('&')
            .any(|p| match p.split_once('=') {
                Some((k, v)) => k == key && value.is_none_or(|want| v == want),
                None => p == key,
            })
    };
    if has("embed", None) || has("presenter", Some("audience")) {
        return None;
    }
    Some(with_params(query, &[("presenter", None), ("link", None)]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kept_session_leaves_the_lecture_windows_out() {
        assert_eq!(
            kept_session("?lesson=02-election&presenter=1&link=ab&step=2").as_deref(),
            Some("?lesson=02-election&step=2")
        );
        assert_eq!(
            kept_session("?lesson=02-election&presenter=audience&link=ab"),
            None
        );
        assert_eq!(kept_session("?embed=1&lesson=02-election&step=3"), None);
        assert_eq!(kept_session("?seed=7").as_deref(), Some("?seed=7"));
    }

    #[test]
    fn commands_survive_the_round_trip() {
        let cmds = vec![
            "kill -9 101".to_string(),
            "partition 101 | 102,103".to_string(),
            "kafka-topics.sh --create --topic a&b=c%".to_string(),
            "한국어".to_string(),
        ];
        let enc = encode_cmds(&cmds);
        assert!(!enc.contains(['&', '=', ' ', '\n', '|']));
        assert_eq!(decode_cmds(&enc).unwrap(), cmds);
        assert_eq!(
            decode_cmds("status%0A%0Arun+1s").unwrap(),
            ["status", "run 1s"]
        );
        assert!(decode_cmds("%ZZ").is_err());
        assert!(decode_cmds("%4").is_err());
        assert!(decode_cmds("%FF").is_err());
    }

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

    #[test]
    fn free_play_without_a_seed_gets_a_fresh_one_in_its_address() {
        assert_eq!(with_fresh_seed("", || 7).as_deref(), Some("?seed=7"));
        assert_eq!(
            with_fresh_seed("?controllers=1&lang=en", || 9).as_deref(),
            Some("?controllers=1&lang=en&seed=9")
        );
        assert_eq!(with_fresh_seed("?seed=3", || 9), None);
        assert_eq!(with_fresh_seed("?lesson=02-election", || 9), None);
        assert_eq!(with_fresh_seed("?bench=5", || 9), None);
    }

    #[test]
    fn params_are_set_and_removed() {
        assert_eq!(
            with_params(
                "?seed=3&step=2",
                &[("step", None), ("cmds", Some("x".into()))]
            ),
            "?seed=3&cmds=x"
        );
        assert_eq!(with_params("?step=2", &[("step", None)]), "");
        assert_eq!(with_params("", &[("step", Some("1".into()))]), "?step=1");
    }
}
