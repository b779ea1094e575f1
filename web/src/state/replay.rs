//! Rebuilding the state an address asks for: [`PageConfig::build`] opens the lesson or the
//! free-play world and replays `step=` and `cmds=` (see [`crate::address`] for the address
//! itself), and [`Playground::share_params`] gives the parameters that rebuild a state.

use std::rc::Rc;

use kraft_core::lesson::rewind::Input;

use super::play;
use super::{Playground, PLAY_PREFIX};
use crate::address::{encode_cmds, PageConfig, NEXT_STEP_LINE};
use crate::lessons;

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
        let cmds = (!self.history.is_empty()).then(|| encode_cmds(&self.history));
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
            } else if line.starts_with(super::produce_line::PRODUCE_PREFIX) {
                self.replay_produce(line, &mut errors);
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
