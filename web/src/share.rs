//! Shareable state: the lesson step and the console command history in the page address
//! (`&step=N&cmds=...`, the commands URL-encoded and newline-separated), kept in `localStorage`
//! too. Opening such an address rebuilds the same state by deterministic replay (see
//! [`crate::state::PageConfig::build`]).

use std::cell::RefCell;

use gloo_timers::callback::Timeout;

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

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The query string kept by the last session, if any.
pub fn stored_session() -> Option<String> {
    storage()?
        .get_item(SESSION_KEY)
        .ok()
        .flatten()
        .filter(|q| !q.is_empty())
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
        let _ = s.set_item(SESSION_KEY, &kept);
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
