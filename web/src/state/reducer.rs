//! The reducer: every [`Action`] the user can ask for, and how [`Playground::reduce`] applies
//! one to give the next state.

use std::rc::Rc;

use kraft_core::lesson::rewind::Input;
use yew::Reducible;

use super::rewind::count_arg;
use super::{Lang, Playground, FRAME_WALL_MS};
use crate::lessons;

/// Everything the user can ask the page to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Run exactly one engine event (after a rewind: the next one of what was rewound away).
    Step,
    /// Free play: back one event (checkpoint and deterministic replay).
    StepBack,
    /// Free play: to the state after this many events: back, or after a rewind forward again
    /// along what was rewound away.
    RewindTo(u64),
    /// Advance virtual time by one frame's worth (the chosen speed) while paused.
    StepTick,
    /// Start advancing virtual time at a steady rate.
    Play,
    /// Stop advancing virtual time.
    Pause,
    /// `kill -9` the node.
    Kill(i32),
    /// Start the node again after `kill -9`.
    Restart(i32),
    /// `SIGSTOP` the node.
    Stop(i32),
    /// `SIGCONT` the node.
    Cont(i32),
    /// One frame of the play timer of [`FRAME_WALL_MS`]: advance virtual time when playing.
    Tick,
    /// One animation frame, `wall_us` wall-clock microseconds after the last: plays the
    /// lesson's wait step, or free play's virtual time while playing.
    Frame {
        /// Wall-clock microseconds since the last frame.
        wall_us: u32,
    },
    /// Whether a lesson's wait steps (`sleep`, `run until=`) play on screen (else they jump to
    /// their end at once).
    SetPlayWaits(bool),
    /// Choose how many virtual milliseconds one frame runs.
    SetSpeed(u64),
    /// Run a line typed into the console.
    Exec(String),
    /// Run the lesson's next step.
    LessonNext,
    /// Go back one step (replays the lesson from the start).
    LessonPrev,
    /// Show the lesson after its first N steps ran (replays the lesson from the start).
    LessonGoto(usize),
    /// Back to the start of the lesson, before its first step.
    LessonRestart,
    /// Play lesson `index` of [`lessons::LESSONS`], or free play (`None`).
    ChooseLesson(Option<usize>),
    /// Run a lesson written in the editor (its text).
    RunLessonText(std::rc::Rc<str>),
    /// Choose the narration language.
    SetLang(Lang),
}

impl Action {
    /// Whether it changes the world (not only how the page plays or shows it).
    pub fn changes_world(&self) -> bool {
        matches!(
            self,
            Action::Step
                | Action::StepBack
                | Action::RewindTo(_)
                | Action::StepTick
                | Action::Play
                | Action::Kill(_)
                | Action::Restart(_)
                | Action::Stop(_)
                | Action::Cont(_)
                | Action::Exec(_)
        )
    }
}

impl Playground {
    /// Keeps a button's action in the history as the console command that does the same;
    /// consecutive steps and frames merge into one `step N` or `run Nms`.
    fn record(&mut self, action: &Action) {
        let history = Rc::make_mut(&mut self.history);
        let line = match *action {
            Action::Step => {
                if let Some(n) = history.last().and_then(|l| count_arg(l, "step", "")) {
                    *history.last_mut().expect("checked") = format!("step {}", n + 1);
                    return;
                }
                "step".to_string()
            }
            Action::Kill(id) => format!("kill -9 {id}"),
            Action::Restart(id) => format!("start {id}"),
            Action::Stop(id) => format!("kill -STOP {id}"),
            Action::Cont(id) => format!("kill -CONT {id}"),
            _ => return,
        };
        history.push(line);
    }

    /// Applies an action that drives the world; `Err` with what went wrong.
    fn world_action(&mut self, action: &Action) -> Result<(), String> {
        let console_rc = Rc::clone(&self.console);
        let mut console = console_rc.borrow_mut();
        let Some(world) = console.world.as_mut() else {
            return Err("no cluster yet: run a `cluster` command first".into());
        };
        match *action {
            Action::Step => match world.step_described() {
                Some(what) => {
                    self.last_event = Some(what);
                    Ok(())
                }
                None => Err("no event is pending".to_string()),
            },
            Action::Kill(id) => world.kill(id).map_err(|e| format!("kill -9 {id}: {e}")),
            Action::Restart(id) => world.restart(id).map_err(|e| format!("restart {id}: {e}")),
            Action::Stop(id) => world.stop(id).map_err(|e| format!("STOP {id}: {e}")),
            Action::Cont(id) => world.cont(id).map_err(|e| format!("CONT {id}: {e}")),
            _ => Ok(()),
        }
    }

    /// Applies `action` to this (already cloned) state: a `frame` of that many wall-clock ms,
    /// or what the action asks for; `Err` with what went wrong.
    fn apply(&mut self, action: Action, frame: Option<f64>) -> Result<(), String> {
        match action {
            _ if frame.is_some() => self.frame(frame.unwrap_or_default()),
            Action::Play => {
                self.playing = self.view.is_some();
                self.pace = None;
                Ok(())
            }
            Action::Pause => {
                self.playing = false;
                self.pace = None;
                Ok(())
            }
            Action::SetSpeed(ms) => {
                self.sim_ms_per_frame = ms;
                self.pace = None;
                Ok(())
            }
            Action::SetPlayWaits(on) => {
                self.play_waits = on;
                Ok(())
            }
            Action::StepTick => self.step_tick(),
            Action::SetLang(lang) => {
                self.lang = lang;
                Ok(())
            }
            Action::Exec(line) => {
                self.exec_line(&line);
                Ok(())
            }
            Action::LessonNext => {
                self.playing = false;
                let play = self.play_waits;
                self.lesson_next(play);
                Ok(())
            }
            Action::LessonPrev => {
                self.playing = false;
                let pos = self.lesson.as_ref().map_or(0, |l| l.pos.saturating_sub(1));
                self.lesson_goto(pos);
                Ok(())
            }
            Action::LessonGoto(pos) => {
                self.playing = false;
                self.lesson_goto(pos);
                Ok(())
            }
            Action::LessonRestart => {
                self.playing = false;
                self.lesson_goto(0);
                Ok(())
            }
            Action::RunLessonText(text) => {
                self.playing = false;
                self.start_lesson_text(&text)
            }
            Action::ChooseLesson(choice) => {
                self.playing = false;
                match choice {
                    Some(i) if i < lessons::LESSONS.len() => self.start_lesson(i),
                    Some(i) => Err(format!("no lesson {i}")),
                    None => self.start_free_play(),
                }
            }
            // After a rewind, Step goes forward along what was rewound away (its commands
            // included) instead of starting a new branch.
            Action::Step if self.redo_end().is_some() => self.forward_one(),
            Action::StepBack => {
                self.playing = false;
                let target = self.events_run().saturating_sub(1);
                self.rewind_to(target)
            }
            Action::RewindTo(target) => {
                self.playing = false;
                self.rewind_to(target)
            }
            ref a => {
                let before = self.events_run();
                let done = self.world_action(a);
                if done.is_ok() {
                    self.record(a);
                    if let Some(input) = rewind_input(a) {
                        self.record_input(input, before);
                    }
                }
                done
            }
        }
    }
}

impl Reducible for Playground {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let frame = match action {
            Action::Tick => Some(f64::from(FRAME_WALL_MS)),
            Action::Frame { wall_us } => Some(f64::from(wall_us) / 1000.0),
            _ => None,
        };
        if frame.is_some() && !self.animating() {
            // A frame that fired after Pause or a wait's end, or with no world to run.
            return self;
        }
        let mut next = (*self).clone();
        let world_before = next.world_key();
        next.revision += 1;
        next.last_error = None;
        if !matches!(action, Action::Step) {
            next.last_event = None;
        }
        // Anything else that changes the world first runs a playing wait to its end, so that
        // the address (which replays the wait at once) gives the same world.
        if next.playing_wait() && action.changes_world() {
            next.skip_wait();
        }
        next.begin_step_changes(&action);
        let result = next.apply(action, frame);
        if let Err(e) = result {
            next.last_error = Some(e);
        }
        // A frame that ran nothing keeps the view (and the panels that draw only it).
        if frame.is_none() || next.world_key() != world_before {
            next.refresh_view();
        }
        if next.view.is_none() {
            next.playing = false;
        }
        next.settle_clock();
        Rc::new(next)
    }
}

/// The rewind input a button's action is (played time is kept as it runs, see `play.rs`).
fn rewind_input(action: &Action) -> Option<Input> {
    Some(match *action {
        Action::Step => Input::Step(1),
        Action::Kill(id) => Input::Exec(format!("kill -9 {id}")),
        Action::Restart(id) => Input::Exec(format!("start {id}")),
        Action::Stop(id) => Input::Exec(format!("kill -STOP {id}")),
        Action::Cont(id) => Input::Exec(format!("kill -CONT {id}")),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::testing::timeline;
    use super::super::DEFAULT_SIM_MS_PER_FRAME;
    use super::*;

    #[test]
    fn the_console_appends_to_the_scrollback() {
        let s = Rc::new(Playground::new(1).unwrap());
        let s = s.reduce(Action::Exec("status".into()));
        let s = s.reduce(Action::Exec("bogus".into()));
        assert_eq!(s.scrollback.len(), 2);
        assert!(s.scrollback[0].output.contains("node"));
        assert!(s.scrollback[1].failed);
        assert!(s.scrollback[1].output.starts_with("error: "));
        let t = timeline().reduce(Action::Exec("cluster seed=3".into()));
        assert!(t.view.is_some(), "a cluster typed in lesson mode is drawn");
    }

    #[test]
    fn actions_drive_the_world() {
        let s = Rc::new(Playground::new(1).expect("world"));
        let s = s.reduce(Action::Step);
        assert_eq!(s.view.as_ref().unwrap().events_run, 1);
        let s = s.reduce(Action::Tick);
        assert_eq!(
            s.view.as_ref().unwrap().events_run,
            1,
            "a tick while paused does nothing"
        );
        let s = s.reduce(Action::Play).reduce(Action::Tick);
        assert!(s.view.as_ref().unwrap().now_ms >= DEFAULT_SIM_MS_PER_FRAME);
        let s = s.reduce(Action::Kill(9999));
        assert!(
            s.last_error.is_some(),
            "killing an unknown node is an error"
        );
    }
}
