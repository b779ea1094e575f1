//! The page address: [`PageConfig::from_query`] reads what it asks for (the free-play cluster or
//! a lesson, the language, `step=` and `cmds=`), [`PageConfig::build`] rebuilds that state by
//! replaying it, and [`Playground::share_params`] gives the parameters that rebuild a state.

use std::rc::Rc;

use kraft_core::lesson::rewind::Input;

use super::play;
use super::{Lang, Playground, DEFAULT_BROKERS, DEFAULT_CONTROLLERS, DEFAULT_SEED, PLAY_PREFIX};
use crate::lessons;
use crate::share::{self, NEXT_STEP_LINE};

/// Reads `seed=N` from a query string like `?seed=7&x=1`.
pub fn seed_from_query(query: &str) -> Option<u64> {
    query
        .trim_start_matches('?')
        .split('&')
        .find_map(|pair| pair.strip_prefix("seed="))
        .and_then(|v| v.parse().ok())
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

/// In `cmds`, a line `#frames N MSms` stands for N frames of the play timer, MS virtual ms each.
pub const FRAMES_PREFIX: &str = "#frames ";
/// At most this many play frames are replayed from one `#frames` line.
pub const MAX_REPLAY_FRAMES: u64 = 200_000;
/// At most this much virtual time (ms) is replayed from one `#play` line (an hour).
pub const MAX_REPLAY_PLAY_MS: u64 = 3_600_000;
/// Reads `#frames N MSms`: (N, MS).
fn frames_line(line: &str) -> Result<(u64, u64), String> {
    let bad = || format!("`{line}` is not `{FRAMES_PREFIX}N MSms`");
    let rest = line.strip_prefix(FRAMES_PREFIX).ok_or_else(bad)?;
    let (n, ms) = rest.split_once(' ').ok_or_else(bad)?;
    let n: u64 = n.parse().map_err(|_| bad())?;
    let ms: u64 = ms
        .strip_suffix("ms")
        .and_then(|m| m.parse().ok())
        .filter(|m| *m > 0)
        .ok_or_else(bad)?;
    if n > MAX_REPLAY_FRAMES {
        return Err(format!(
            "`{line}`: at most {MAX_REPLAY_FRAMES} frames are replayed"
        ));
    }
    Ok((n, ms))
}

impl PageConfig {
    /// Reads the query string; a malformed `controllers=` or `brokers=` is an error.
    pub fn from_query(query: &str) -> Result<Self, String> {
        let ids = |key: &str, default: &[i32]| -> Result<Vec<i32>, String> {
            match query_value(query, key) {
                Some(v) => kraft_core::cli::parse_ids(v).map_err(|e| format!("?{key}=: {e}")),
                None => Ok(default.to_vec()),
            }
        };
        let mut url_errors = Vec::new();
        let step = query_value(query, "step").and_then(|v| match v.parse::<usize>() {
            Ok(n) => Some(n),
            Err(_) => {
                url_errors.push(format!("?step={v} is not a step number"));
                None
            }
        });
        let cmds = match query_value(query, "cmds") {
            Some(v) => share::decode_cmds(v).unwrap_or_else(|e| {
                url_errors.push(e);
                Vec::new()
            }),
            None => Vec::new(),
        };
        if let Some(v) = query_value(query, "seed").filter(|v| v.parse::<u64>().is_err()) {
            url_errors.push(format!(
                "?seed={v} is not a number; seed {DEFAULT_SEED} is used"
            ));
        }
        let presenter = query_value(query, "presenter").map(str::to_string);
        if let Some(v) = presenter
            .as_deref()
            .filter(|v| !PRESENTER_VALUES.contains(v))
        {
            url_errors.push(format!(
                "?presenter={v}: use presenter=1 (the speaker's window) or presenter=audience"
            ));
        }
        let embed = match query_value(query, "embed") {
            None | Some("0") => false,
            Some("1") => true,
            Some(v) => {
                url_errors.push(format!("?embed={v}: use embed=1"));
                true
            }
        };
        Ok(PageConfig {
            presenter: presenter.filter(|v| PRESENTER_VALUES.contains(&v.as_str())),
            link: query_value(query, "link").map(str::to_string),
            embed,
            step,
            cmds,
            url_error: (!url_errors.is_empty()).then(|| url_errors.join("; ")),
            seed: seed_from_query(query).unwrap_or(DEFAULT_SEED),
            controllers: ids("controllers", &DEFAULT_CONTROLLERS)?,
            brokers: ids("brokers", &DEFAULT_BROKERS)?,
            lesson: query_value(query, "lesson")
                .filter(|v| !v.is_empty())
                .map(str::to_string),
            lang: query_value(query, "lang")
                .and_then(Lang::from_code)
                .unwrap_or_else(browser_lang),
            present: query_value(query, "present").is_some_and(|v| v == "1"),
            play_waits: query_value(query, "play") != Some("0"),
        })
    }

    /// Builds the state this address asks for: the lesson at its start, or the free-play world.
    /// An unknown lesson falls back to free play with the error shown.
    pub fn build(&self) -> Result<Playground, String> {
        let mut p = Playground::empty(self.clone());
        let lesson = self.lesson.as_deref().map(|name| {
            lessons::find(name).ok_or_else(|| {
                let names: Vec<&str> = lessons::LESSONS.iter().map(|(n, _)| *n).collect();
                format!("no lesson '{name}' (lessons: {})", names.join(", "))
            })
        });
        match lesson {
            Some(Ok(i)) => p.start_lesson(i)?,
            Some(Err(e)) => {
                p.start_free_play()?;
                p.last_error = Some(e);
            }
            None => p.start_free_play()?,
        }
        let mut errors: Vec<String> = p.last_error.take().into_iter().collect();
        errors.extend(self.url_error.clone());
        errors.extend(p.replay(self.step, &self.cmds));
        if !errors.is_empty() {
            p.last_error = Some(format!("bad address: {}", errors.join("; ")));
        }
        p.refresh_view();
        Ok(p)
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

/// The value of `key=` in a query string.
fn query_value<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    query
        .trim_start_matches('?')
        .split('&')
        .find_map(|pair| pair.strip_prefix(key)?.strip_prefix('='))
}

impl Playground {
    /// Replays `n` play frames of `ms` each (`#frames`, or `#play` as one frame), and keeps the
    /// line.
    fn replay_frames(&mut self, line: &str, n: u64, ms: u64, errors: &mut Vec<String>) {
        if self.console.borrow().world.is_none() {
            errors.push(format!("`{line}`: no cluster yet"));
            return;
        }
        for _ in 0..n {
            let before = self.events_run();
            if let Some(world) = self.console.borrow_mut().world.as_mut() {
                world.run_for(ms);
            }
            self.record_input(Input::RunFor(ms), before);
        }
        Rc::make_mut(&mut self.history).push(line.to_string());
    }

    /// The `step=` and `cmds=` values that rebuild this state (`None` when not needed).
    pub fn share_params(&self) -> (Option<String>, Option<String>) {
        let step = self
            .lesson
            .as_ref()
            .filter(|l| l.pos > 0)
            .map(|l| l.pos.to_string());
        let cmds = (!self.history.is_empty()).then(|| share::encode_cmds(&self.history));
        (step, cmds)
    }

    /// Rebuilds the state an address asks for: the lesson to `step` (the steps marked with
    /// [`NEXT_STEP_LINE`] in `cmds` run in their place) and every command of `cmds` in order.
    /// Problems are given back as text; what could be replayed is.
    fn replay(&mut self, step: Option<usize>, cmds: &[String]) -> Vec<String> {
        let mut errors = Vec::new();
        let markers = cmds.iter().filter(|l| *l == NEXT_STEP_LINE).count();
        match self.lesson.clone() {
            Some(run) => {
                let mut target = step.unwrap_or(markers);
                if target > run.len() {
                    errors.push(format!(
                        "?step={target}: lesson {} has {} steps",
                        run.name(),
                        run.len()
                    ));
                    target = run.len();
                }
                if target < markers {
                    errors.push(format!(
                        "?step={target} is less than the {markers} lesson steps in ?cmds="
                    ));
                }
                let base = target.saturating_sub(markers);
                if base > 0 {
                    self.lesson_goto(base);
                }
            }
            None => {
                if let Some(n) = step {
                    errors.push(format!("?step={n} needs a ?lesson="));
                }
            }
        }
        for line in cmds {
            if line == NEXT_STEP_LINE {
                if self.lesson.is_some() {
                    // An address replays a lesson's waits at once.
                    self.lesson_next(false);
                }
            } else if line.starts_with(FRAMES_PREFIX) {
                match frames_line(line) {
                    Ok((n, ms)) => self.replay_frames(line, n, ms, &mut errors),
                    Err(e) => errors.push(e),
                }
            } else if line.starts_with(PLAY_PREFIX) {
                match play::play_line(line).filter(|ms| *ms <= MAX_REPLAY_PLAY_MS) {
                    Some(ms) => self.replay_frames(line, 1, ms, &mut errors),
                    None => errors.push(format!(
                        "`{line}` is not `{PLAY_PREFIX}Tms` with T at most {MAX_REPLAY_PLAY_MS}"
                    )),
                }
            } else {
                self.exec_line(line);
            }
        }
        errors
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{open, reopen};
    use super::super::Action;
    use super::*;
    use yew::Reducible;

    #[test]
    fn seed_is_read_from_the_query() {
        assert_eq!(seed_from_query("?seed=7"), Some(7));
        assert_eq!(seed_from_query("?a=1&seed=9"), Some(9));
        assert_eq!(seed_from_query(""), None);
        assert_eq!(seed_from_query("?seed=x"), None);
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
    fn the_address_replays_buttons_and_typed_commands() {
        let mut s = open("?seed=5");
        s = s.reduce(Action::Play);
        for _ in 0..40 {
            s = s.reduce(Action::Tick);
        }
        s = s
            .reduce(Action::Pause)
            .reduce(Action::Step)
            .reduce(Action::Step);
        s = s.reduce(Action::Exec("run until=leader".into()));
        let leader = s
            .view
            .as_ref()
            .unwrap()
            .nodes
            .iter()
            .find(|n| n.raft_state == Some(kraft_core::view::StateKind::Leader))
            .unwrap()
            .id;
        s = s
            .reduce(Action::Kill(leader))
            .reduce(Action::Exec("run 4s".into()));
        assert_eq!(
            s.history[..3],
            [
                "#play 2000ms".to_string(),
                "step 2".into(),
                "run until=leader".into()
            ]
        );
        let again = reopen(&s, "?seed=5");
        let (a, b) = (format!("{:?}", again.view), format!("{:?}", s.view));
        if a != b {
            let i = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
            panic!(
                "differ at {i}: replay `{}` vs live `{}`",
                &a[i.saturating_sub(300)..(i + 200).min(a.len())],
                &b[i.saturating_sub(300)..(i + 200).min(b.len())]
            );
        }
        assert_eq!(again.history, s.history);
        assert!(again.last_error.is_none());
    }

    #[test]
    fn the_address_replays_a_lesson_with_commands_between_steps() {
        let mut s = open("?lesson=02-election&lang=en&play=0");
        for _ in 0..4 {
            s = s.reduce(Action::LessonNext);
        }
        s = s.reduce(Action::Exec("run 1s".into()));
        s = s.reduce(Action::LessonNext).reduce(Action::LessonNext);
        assert_eq!(s.history[..], ["run 1s", NEXT_STEP_LINE, NEXT_STEP_LINE]);
        assert_eq!(s.share_params().0.as_deref(), Some("6"));
        let again = reopen(&s, "?lesson=02-election&lang=en&play=0");
        assert_eq!(again.lesson.as_ref().unwrap().pos, 6);
        assert_eq!(
            again.lesson.as_ref().unwrap().outputs,
            s.lesson.as_ref().unwrap().outputs
        );
        assert_eq!(again.view, s.view);
        let back = s.reduce(Action::LessonPrev);
        assert!(back.history.is_empty(), "a rewind replays the lesson alone");
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

    #[test]
    fn bad_addresses_give_an_error_not_a_panic() {
        let e = |q: &str| open(q).last_error.clone().unwrap_or_default();
        assert!(e("?lesson=03-timeline&step=abc").contains("?step=abc"));
        assert!(e("?lesson=03-timeline&step=999").contains("has"));
        assert!(e("?step=2").contains("needs a ?lesson="));
        assert!(e("?cmds=%ZZ").contains("?cmds="));
        assert!(e("?seed=x").contains("?seed=x"));
        assert!(e("?cmds=%23frames%20x").contains("#frames"));
        assert!(e("?cmds=%23frames%209999999%201ms").contains("at most"));
        let s = open("?cmds=bogus%0Astatus");
        assert!(s.last_error.is_none());
        assert!(s.scrollback[0].failed && !s.scrollback[1].failed);
    }

    #[test]
    fn embed_and_presenter_addresses_are_read_and_broken_ones_explained() {
        let c = PageConfig::from_query("?embed=1&lesson=02-election&step=3").unwrap();
        assert!(c.embed && c.presenter.is_none());
        let c = PageConfig::from_query("?presenter=audience&link=ab12").unwrap();
        assert_eq!(
            (c.presenter.as_deref(), c.link.as_deref()),
            (Some("audience"), Some("ab12"))
        );
        let e = |q: &str| open(q).last_error.clone().unwrap_or_default();
        assert!(e("?embed=1&lesson=nope").contains("no lesson 'nope'"));
        assert!(e("?embed=1&lesson=02-election&step=999").contains("has"));
        assert!(e("?embed=1&lesson=02-election&step=-2").contains("not a step number"));
        assert!(
            e("?embed=1&lesson=02-election&step=99999999999999999999999").contains("not a step")
        );
        assert!(e("?embed=yes&lesson=02-election").contains("?embed=yes"));
        assert!(e("?presenter=2&lesson=02-election").contains("?presenter=2"));
        assert!(open("?embed=1&lesson=02-election&step=3")
            .last_error
            .is_none());
    }
}
