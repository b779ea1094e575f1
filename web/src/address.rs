//! The page address in one place: every parameter the page reads or writes ([`Param`]), the
//! query read ([`value`], [`PageConfig::from_query`]) and written ([`with_params`], the
//! addresses derived from it: the kept session's, the audience window's, the share link's, a
//! fresh seed's), the encoding of `cmds=`, and the browser's address bar ([`current`],
//! [`replace`], [`set_param`]).
//!
//! Nothing else in the page reads `location.search` or calls `history.replaceState`.

use crate::i18n::Lang;

/// Seed used when the page URL has no `?seed=N` (and no random source gives a fresh one).
pub const DEFAULT_SEED: u64 = 42;
/// The controllers (voters of the metadata quorum) of the default cluster.
pub const DEFAULT_CONTROLLERS: [i32; 3] = [101, 102, 103];
/// The brokers of the default cluster.
pub const DEFAULT_BROKERS: [i32; 3] = [1, 2, 3];

/// Every parameter of the page address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Param {
    /// `seed=N`: the seed of the free-play world.
    Seed,
    /// `controllers=101,102,103`: the free-play controllers.
    Controllers,
    /// `brokers=1,2,3`: the free-play brokers.
    Brokers,
    /// `lesson=02-election`: the lesson to open.
    Lesson,
    /// `lang=ko|en`: the narration and page language.
    Lang,
    /// `step=N`: how many lesson steps ran.
    Step,
    /// `cmds=`: the console commands to replay (see [`encode_cmds`]).
    Cmds,
    /// `present=1`: the lecture stage in free play too.
    Present,
    /// `play=0`: a lesson's waits jump to their end.
    Play,
    /// `presenter=1|audience`: a window of the presenter pair.
    Presenter,
    /// `link=ID`: which presenter windows pair.
    Link,
    /// `embed=1`: the stage without the page's chrome.
    Embed,
    /// `bench=SECONDS`: run the page benchmark instead of the app.
    Bench,
}

impl Param {
    /// Every parameter, in the order the docs list them.
    pub const ALL: [Param; 13] = [
        Param::Seed,
        Param::Controllers,
        Param::Brokers,
        Param::Lesson,
        Param::Lang,
        Param::Step,
        Param::Cmds,
        Param::Present,
        Param::Play,
        Param::Presenter,
        Param::Link,
        Param::Embed,
        Param::Bench,
    ];

    /// Its key in the query: `seed`, `controllers`, ...
    pub const fn key(self) -> &'static str {
        match self {
            Param::Seed => "seed",
            Param::Controllers => "controllers",
            Param::Brokers => "brokers",
            Param::Lesson => "lesson",
            Param::Lang => "lang",
            Param::Step => "step",
            Param::Cmds => "cmds",
            Param::Present => "present",
            Param::Play => "play",
            Param::Presenter => "presenter",
            Param::Link => "link",
            Param::Embed => "embed",
            Param::Bench => "bench",
        }
    }
}

/// The pairs of `query` (with or without its `?`), in order.
fn pairs(query: &str) -> impl Iterator<Item = &str> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
}

/// The value of `p` in `query` (the first one).
pub fn value(query: &str, p: Param) -> Option<&str> {
    pairs(query).find_map(|pair| pair.strip_prefix(p.key())?.strip_prefix('='))
}

/// Whether `query` names `p` (with any value, or none).
pub fn has(query: &str, p: Param) -> bool {
    pairs(query).any(|pair| pair.split('=').next() == Some(p.key()))
}

/// `query` with each `Some` parameter set (appended after the others) and each `None` one
/// removed; the other pairs (unknown ones too) keep their order. Gives the new query with its
/// `?`, or `""` when empty.
pub fn with_params(query: &str, changes: &[(Param, Option<String>)]) -> String {
    let mut out: Vec<String> = pairs(query)
        .filter(|pair| {
            let key = pair.split('=').next().unwrap_or("");
            !changes.iter().any(|(p, _)| p.key() == key)
        })
        .map(str::to_string)
        .collect();
    for (p, v) in changes {
        if let Some(v) = v {
            out.push(format!("{}={v}", p.key()));
        }
    }
    if out.is_empty() {
        String::new()
    } else {
        format!("?{}", out.join("&"))
    }
}

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

/// What a page address asks for: `?seed=7&controllers=101,102,103&brokers=1,2,3` for free play,
/// `?lesson=03-timeline` for a lesson, `&lang=en` for the narration; each part optional (the
/// defaults are [`DEFAULT_SEED`], [`DEFAULT_CONTROLLERS`], [`DEFAULT_BROKERS`], free play, `ko`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageConfig {
    /// The seed of the world.
    pub seed: u64,
    /// Controller-only node ids.
    pub controllers: Vec<i32>,
    /// Broker-only node ids.
    pub brokers: Vec<i32>,
    /// The lesson to open (its name, e.g. `03-timeline`).
    pub lesson: Option<String>,
    /// The narration language.
    pub lang: Lang,
    /// `?step=N`: how many lesson steps to run (lesson mode only).
    pub step: Option<usize>,
    /// `?cmds=`: the console commands to replay, in order.
    pub cmds: Vec<String>,
    /// What was wrong with `step=` or `cmds=` (shown on the page; the rest still loads).
    pub url_error: Option<String>,
    /// `?present=1`: the one-screen lecture stage in free play too (lessons always use it).
    pub present: bool,
    /// `?play=0`: a lesson's wait steps jump to their end instead of playing on screen.
    pub play_waits: bool,
    /// `?presenter=1` (the speaker's window) or `?presenter=audience` (the room's), as written.
    pub presenter: Option<String>,
    /// `?link=`: which speaker and audience windows pair (letters and digits).
    pub link: Option<String>,
    /// `?embed=1`: the stage without the page's chrome, for an iframe in slides.
    pub embed: bool,
}

/// The values `?presenter=` takes: the speaker's window (`1`, `speaker`) or the audience's.
pub const PRESENTER_VALUES: [&str; 3] = ["1", "speaker", "audience"];

impl PageConfig {
    /// Reads the query string; a malformed `controllers=` or `brokers=` is an error.
    pub fn from_query(query: &str) -> Result<Self, String> {
        let ids = |p: Param, default: &[i32]| -> Result<Vec<i32>, String> {
            match value(query, p) {
                Some(v) => kraft_core::cli::parse_ids(v).map_err(|e| format!("?{}=: {e}", p.key())),
                None => Ok(default.to_vec()),
            }
        };
        let mut url_errors = Vec::new();
        let step = value(query, Param::Step).and_then(|v| match v.parse::<usize>() {
            Ok(n) => Some(n),
            Err(_) => {
                url_errors.push(format!("?step={v} is not a step number"));
                None
            }
        });
        let cmds = match value(query, Param::Cmds) {
            Some(v) => decode_cmds(v).unwrap_or_else(|e| {
                url_errors.push(e);
                Vec::new()
            }),
            None => Vec::new(),
        };
        if let Some(v) = value(query, Param::Seed).filter(|v| v.parse::<u64>().is_err()) {
            url_errors.push(format!(
                "?seed={v} is not a number; seed {DEFAULT_SEED} is used"
            ));
        }
        let presenter = value(query, Param::Presenter).map(str::to_string);
        if let Some(v) = presenter
            .as_deref()
            .filter(|v| !PRESENTER_VALUES.contains(v))
        {
            url_errors.push(format!(
                "?presenter={v}: use presenter=1 (the speaker's window) or presenter=audience"
            ));
        }
        let embed = match value(query, Param::Embed) {
            None | Some("0") => false,
            Some("1") => true,
            Some(v) => {
                url_errors.push(format!("?embed={v}: use embed=1"));
                true
            }
        };
        Ok(PageConfig {
            presenter: presenter.filter(|v| PRESENTER_VALUES.contains(&v.as_str())),
            link: value(query, Param::Link).map(str::to_string),
            embed,
            step,
            cmds,
            url_error: (!url_errors.is_empty()).then(|| url_errors.join("; ")),
            seed: value(query, Param::Seed)
                .and_then(|v| v.parse().ok())
                .unwrap_or(DEFAULT_SEED),
            controllers: ids(Param::Controllers, &DEFAULT_CONTROLLERS)?,
            brokers: ids(Param::Brokers, &DEFAULT_BROKERS)?,
            lesson: value(query, Param::Lesson)
                .filter(|v| !v.is_empty())
                .map(str::to_string),
            lang: value(query, Param::Lang)
                .and_then(Lang::from_code)
                .unwrap_or_else(browser_lang),
            present: value(query, Param::Present).is_some_and(|v| v == "1"),
            play_waits: value(query, Param::Play) != Some("0"),
        })
    }
}

/// The language the browser prefers: Korean for `ko…`, English for anything else; Korean where
/// there is no browser (native tests).
fn browser_lang() -> Lang {
    #[cfg(target_arch = "wasm32")]
    if let Some(l) = web_sys::window().and_then(|w| w.navigator().language()) {
        return lang_for(&l);
    }
    Lang::default()
}

/// The page language for a browser language tag (`ko-KR` → Korean, `en-US`, `de` → English).
pub fn lang_for(tag: &str) -> Lang {
    if tag.to_ascii_lowercase().starts_with("ko") {
        Lang::Ko
    } else {
        Lang::En
    }
}

/// Free play without a seed: `query` with `seed=` from `fresh` added, so that the run stays
/// reproducible from its address; `None` when the address names a seed or a lesson (a lesson
/// brings its own `cluster ... seed=`) or runs the benchmark.
pub fn with_fresh_seed(query: &str, fresh: impl FnOnce() -> u64) -> Option<String> {
    if has(query, Param::Seed) || has(query, Param::Lesson) || has(query, Param::Bench) {
        return None;
    }
    Some(with_params(
        query,
        &[(Param::Seed, Some(fresh().to_string()))],
    ))
}

/// What of an address `localStorage` keeps as the session a bare address restores: not an
/// embedded stage's nor an audience window's (they would take over the lecturer's page), and
/// never the presenter pairing (`presenter=`, `link=`).
pub fn kept_session(query: &str) -> Option<String> {
    if has(query, Param::Embed) || value(query, Param::Presenter) == Some("audience") {
        return None;
    }
    Some(with_params(
        query,
        &[(Param::Presenter, None), (Param::Link, None)],
    ))
}

/// The audience window's address for link `link`: `search` with `presenter=audience&link=<link>`
/// in place of its own `presenter=` and `link=`.
pub fn audience_query(search: &str, link: &str) -> String {
    with_params(
        search,
        &[
            (Param::Presenter, Some("audience".into())),
            (Param::Link, Some(link.into())),
        ],
    )
}

/// The address students should open: `search` at `base`, without the presenter pairing.
pub fn share_address(base: &str, search: &str) -> String {
    let query = with_params(search, &[(Param::Presenter, None), (Param::Link, None)]);
    format!("{base}{query}")
}

/// The address bar's query now (`?...`, or `""`).
pub fn current() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// The page's address without its query: origin and path.
pub fn base() -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return String::new();
    };
    format!(
        "{}{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_default()
    )
}

/// The page's path with `query` (for a link or a window on the same page).
pub fn path_with(query: &str) -> String {
    let path = web_sys::window()
        .and_then(|w| w.location().pathname().ok())
        .unwrap_or_default();
    format!("{path}{query}")
}

/// Puts `query` in the address bar (no reload, no history entry) when it differs.
pub fn replace(query: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if current() == query {
        return;
    }
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&path_with(query)),
        );
    }
}

/// Sets (or removes, with `None`) one parameter of the address without reloading the page.
pub fn set_param(p: Param, v: Option<&str>) {
    replace(&with_params(&current(), &[(p, v.map(str::to_string))]));
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
                &[(Param::Step, None), (Param::Cmds, Some("x".into()))]
            ),
            "?seed=3&cmds=x"
        );
        assert_eq!(with_params("?step=2", &[(Param::Step, None)]), "");
        assert_eq!(
            with_params("", &[(Param::Step, Some("1".into()))]),
            "?step=1"
        );
    }
    #[test]
    fn the_audience_and_share_addresses_keep_the_lesson_and_drop_the_pairing() {
        assert_eq!(
            audience_query("?lesson=02-election&presenter=1&lang=en&step=3", "ab12"),
            "?lesson=02-election&lang=en&step=3&presenter=audience&link=ab12"
        );
        assert_eq!(
            audience_query("?presenter=1&link=old", "new9"),
            "?presenter=audience&link=new9"
        );
        assert_eq!(audience_query("", "x"), "?presenter=audience&link=x");
        assert_eq!(
            share_address(
                "http://h/p",
                "?lesson=02-election&presenter=1&link=ab&step=2"
            ),
            "http://h/p?lesson=02-election&step=2"
        );
    }

    #[test]
    fn values_are_read_by_their_parameter() {
        assert_eq!(value("?seed=7", Param::Seed), Some("7"));
        assert_eq!(value("?a=1&seed=9", Param::Seed), Some("9"));
        assert_eq!(value("", Param::Seed), None);
        assert_eq!(value("?seeds=3", Param::Seed), None);
        assert!(has("?embed", Param::Embed) && !has("?embedded=1", Param::Embed));
        let keys: Vec<&str> = Param::ALL.iter().map(|p| p.key()).collect();
        let mut unique = keys.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), keys.len());
    }

    #[test]
    fn the_manual_lists_every_parameter() {
        let manual = include_str!("../../docs/manual.md");
        let start = manual
            .find("\n## Address parameters\n")
            .expect("docs/manual.md has `## Address parameters`");
        let listed: Vec<&str> = manual[start + 1..]
            .lines()
            .skip(1)
            .take_while(|l| !l.starts_with("## "))
            .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
            .collect();
        let keys: Vec<&str> = Param::ALL.iter().map(|p| p.key()).collect();
        assert_eq!(
            listed, keys,
            "docs/manual.md's parameters differ from Param::ALL"
        );
    }

    #[test]
    fn cluster_is_read_from_the_query() {
        let d = PageConfig::from_query("").expect("defaults");
        assert_eq!(d.seed, DEFAULT_SEED);
        assert_eq!(d.controllers, DEFAULT_CONTROLLERS);
        assert_eq!(d.brokers, DEFAULT_BROKERS);
        let c = PageConfig::from_query("?seed=3&brokers=4,5&controllers=7").expect("parsed");
        assert_eq!((c.seed, c.controllers, c.brokers), (3, vec![7], vec![4, 5]));
        assert!(PageConfig::from_query("?brokers=a").is_err());
        let l = PageConfig::from_query("?lesson=03-timeline&lang=en").expect("parsed");
        assert_eq!(
            (l.lesson.as_deref(), l.lang),
            (Some("03-timeline"), Lang::En)
        );
        assert_eq!(d.lang, Lang::Ko);
    }

    #[test]
    fn the_page_speaks_the_browsers_language() {
        assert_eq!(lang_for("ko-KR"), Lang::Ko);
        assert_eq!(lang_for("ko"), Lang::Ko);
        assert_eq!(lang_for("en-US"), Lang::En);
        assert_eq!(lang_for("de"), Lang::En);
        // An address's lang= wins.
        assert_eq!(PageConfig::from_query("?lang=en").unwrap().lang, Lang::En);
        assert_eq!(PageConfig::from_query("?lang=ko").unwrap().lang, Lang::Ko);
    }
}
