//! Free play's rewind: the inputs since the cluster was built with bounded checkpoints, for
//! stepping back, the slider, and going forward again along what was rewound away.

use std::cell::RefCell;
use std::rc::Rc;

use kraft_core::lesson::rewind::{Input, Rewind};
use kraft_core::lesson::Console;

use super::{play, Playground, REWIND_CHECKPOINTS, REWIND_EVERY_EVENTS};

impl Playground {
    /// How many events the world ran (0 before a cluster).
    pub(super) fn events_run(&self) -> u64 {
        self.console
            .borrow()
            .world
            .as_ref()
            .map(|w| w.events_run())
            .unwrap_or(0)
    }

    /// Keeps `input` (already applied) in free play's rewind.
    pub(super) fn record_input(&mut self, input: Input, events_before: u64) {
        if self.lesson.is_none() {
            let console = self.console.borrow();
            self.rewind
                .borrow_mut()
                .record(&console, input, events_before);
        }
    }

    /// Free play after a rewind: one event forward along what was rewound away, run in place
    /// when the next input only runs events (see [`Rewind::forward_one`]).
    pub(super) fn forward_one(&mut self) -> Result<(), String> {
        let lines = {
            let mut console = self.console.borrow_mut();
            let mut rewind = self.rewind.borrow_mut();
            rewind.forward_one(&mut console)?;
            history_lines(rewind.inputs())
        };
        self.history = Rc::new(lines);
        Ok(())
    }

    /// Free play after a rewind: the event count going forward can reach again (the end of what
    /// was rewound away); `None` when nothing was rewound or something new was done since.
    pub fn redo_end(&self) -> Option<u64> {
        if self.lesson.is_some() {
            return None;
        }
        self.rewind.borrow().redo_end_events()
    }

    /// Free play back to the state after `target` events: the last checkpoint before it and a
    /// deterministic replay; the history (and so the address) follows.
    pub(super) fn rewind_to(&mut self, target: u64) -> Result<(), String> {
        if self.lesson.is_some() {
            return Err("in a lesson, go back with the lesson's ◀ (Left arrow)".into());
        }
        // A copy: the state before the rewind keeps its own history.
        let mut rewind = self.rewind.borrow().clone();
        let console = rewind.rewind_to_events(target)?;
        self.console = Rc::new(RefCell::new(console));
        let lines = history_lines(rewind.inputs());
        self.rewind = Rc::new(RefCell::new(rewind));
        self.history = Rc::new(lines);
        Ok(())
    }
}

/// A fresh rewind for free play starting at `console`.
pub(super) fn new_rewind(console: &Console) -> Rewind {
    Rewind::new(console, REWIND_CHECKPOINTS, REWIND_EVERY_EVENTS)
}

/// The history lines (as [`Playground::history`] keeps them) that replay `inputs`.
fn history_lines<'a>(inputs: impl Iterator<Item = &'a Input>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for input in inputs {
        match input {
            Input::Exec(line) => out.push(line.clone()),
            Input::Step(n) => match out.last().and_then(|l| count_arg(l, "step", "")) {
                Some(m) => *out.last_mut().expect("checked") = format!("step {}", m + n),
                None => out.push(format!("step {n}")),
            },
            Input::Produce(name, count) => {
                out.push(super::produce_line::produce_text(name, *count))
            }
            Input::RunFor(ms) => match out.last().and_then(|l| play::play_line(l)) {
                Some(t) => *out.last_mut().expect("checked") = play::play_text(t + ms),
                None => out.push(play::play_text(*ms)),
            },
        }
    }
    out
}

/// Reads `prefix N suffix` (e.g. `run 250ms`, `step 3`; a bare `step` is 1).
pub(super) fn count_arg(line: &str, prefix: &str, suffix: &str) -> Option<u64> {
    let rest = line.strip_prefix(prefix)?;
    if rest.is_empty() && suffix.is_empty() {
        return Some(1);
    }
    rest.strip_prefix(' ')?.strip_suffix(suffix)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::super::testing::timeline;
    use super::super::{Action, PageConfig};
    use std::rc::Rc;
    use yew::Reducible;

    #[test]
    fn step_back_and_the_slider_give_the_states_stepping_gave() {
        let mut p = Rc::new(PageConfig::from_query("?seed=5").unwrap().build().unwrap());
        let mut seen = Vec::new();
        let actions = [
            Action::Step,
            Action::StepTick,
            Action::Exec("run 2s".into()),
            Action::Kill(101),
            Action::Step,
            Action::StepTick,
            Action::Restart(101),
            Action::Exec("sleep 1s".into()),
        ];
        for a in actions {
            p = p.reduce(a);
            assert!(p.last_error.is_none(), "{:?}", p.last_error);
            seen.push(p.view.clone().unwrap());
        }
        // The slider back to an earlier state's event count gives that state (the latest one
        // with that count), and the history replays to it.
        assert_eq!(
            seen[2].events_run, seen[3].events_run,
            "a kill runs no event"
        );
        let target = &seen[3];
        let back = p.clone().reduce(Action::RewindTo(target.events_run));
        assert_eq!(back.view.as_ref().unwrap(), target);
        let (_, cmds) = back.share_params();
        let query = format!("?seed=5&cmds={}", cmds.unwrap());
        let replayed = PageConfig::from_query(&query).unwrap().build().unwrap();
        assert_eq!(replayed.view.as_ref().unwrap(), target, "{query}");
        // Step back runs one event fewer: the same state as stepping one event less.
        let last = seen.last().unwrap().events_run;
        let one_back = p.clone().reduce(Action::StepBack);
        assert_eq!(one_back.view.as_ref().unwrap().events_run, last - 1);
        let again = one_back.reduce(Action::Step);
        assert_eq!(again.view.as_ref().unwrap().events_run, last);
        // Forward again after a rewind: Step and the slider replay what was rewound away,
        // the kill included, to the states stepping gave.
        let before_kill = &seen[2];
        let mut fwd = p
            .clone()
            .reduce(Action::RewindTo(before_kill.events_run - 3));
        assert_eq!(fwd.redo_end(), Some(last));
        for _ in 0..3 {
            fwd = fwd.reduce(Action::Step);
        }
        assert_eq!(fwd.view.as_ref().unwrap(), &seen[3], "the kill replayed");
        let end = fwd.clone().reduce(Action::RewindTo(last));
        assert_eq!(end.view.as_ref().unwrap(), seen.last().unwrap());
        assert_eq!(end.redo_end(), None, "at the end nothing is left to redo");
        // A new action starts a new branch: the rewound part is gone.
        let branch = fwd.reduce(Action::StepTick);
        assert_eq!(branch.redo_end(), None);
        // In a lesson, the lesson's own back is the way.
        let l = timeline().reduce(Action::StepBack);
        assert!(l.last_error.as_deref().unwrap_or("").contains("lesson"));
    }
}
