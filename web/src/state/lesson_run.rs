//! The lesson being played: which one, how far, what each step printed, and the steps that
//! move it (the next step, or a replay from the start to any step).

use std::cell::RefCell;
use std::rc::Rc;

use kraft_core::lesson::runner::run_step;
use kraft_core::lesson::stage::Stage;
use kraft_core::lesson::wait::PlayedWait;
use kraft_core::lesson::{Console, Lesson};

use super::{begin_step, Playground, StepBase, StepStart};
use crate::address::NEXT_STEP_LINE;
use crate::lessons;

/// The largest lesson the editor runs (its text is kept whatever its size).
pub const MAX_LESSON_BYTES: usize = 200_000;

/// The error for a lesson of `len` bytes, over [`MAX_LESSON_BYTES`].
pub fn too_big(len: usize) -> String {
    format!(
        "editor.lesson: the lesson is {} KB, over the {} KB the editor runs (the text is kept)",
        len / 1024,
        MAX_LESSON_BYTES / 1024
    )
}

/// A lesson being played: which one, and how far.
#[derive(Clone, Debug, PartialEq)]
pub struct LessonRun {
    /// Index in [`lessons::LESSONS`] (0 for a lesson from the editor).
    pub index: usize,
    /// The name of a lesson run from the editor (`None` for a compiled-in lesson).
    pub custom: Option<Rc<str>>,
    /// The parsed lesson.
    pub lesson: Rc<Lesson>,
    /// How many steps ran (0 = none yet, `steps.len()` = the end).
    pub pos: usize,
    /// What each step that ran printed (`None` for a step without a command, and for the step
    /// still playing); `pos` entries.
    pub outputs: Vec<Option<String>>,
    /// The stage after each step (see [`Stage::of_lesson`]).
    pub stages: Rc<Vec<Stage>>,
    /// The wait step being played (step `pos`), while it plays.
    pub playing: Option<PlayedWait>,
    /// Each step's quiz answer once the step ran (`pos` entries; `None` for a step without a
    /// quiz and while the step plays): what the engine did, never written in the lesson.
    pub answers: Vec<Option<String>>,
    /// What the quiz of the step being played read before it began (see `Quiz::before`).
    pub quiz_before: Option<i64>,
}

impl LessonRun {
    /// The stage now: after the last step that ran (the default stage before the first).
    pub fn stage(&self) -> Stage {
        self.pos
            .checked_sub(1)
            .and_then(|k| self.stages.get(k))
            .cloned()
            .unwrap_or_default()
    }

    /// Reads the answer of the last step's quiz once it has run, from the world after it.
    pub(super) fn settle_answer(&mut self, world: Option<&kraft_core::sim::World>) {
        let Some(k) = self.pos.checked_sub(1) else {
            return;
        };
        let Some(quiz) = self.lesson.steps.get(k).and_then(|s| s.quiz.as_ref()) else {
            return;
        };
        let answer = quiz
            .answer(self.quiz_before.take(), world)
            .unwrap_or_else(|e| format!("? ({e})"));
        if let Some(slot) = self.answers.get_mut(k) {
            *slot = Some(answer);
        }
    }

    /// The lesson's name (`03-timeline`).
    pub fn name(&self) -> &str {
        match &self.custom {
            Some(name) => name,
            None => lessons::LESSONS[self.index].0,
        }
    }

    /// The number of steps.
    pub fn len(&self) -> usize {
        self.lesson.steps.len()
    }

    /// Whether the lesson has no steps.
    pub fn is_empty(&self) -> bool {
        self.lesson.steps.is_empty()
    }
}

impl Playground {
    /// Lesson `index` at its start, before its first step.
    pub(super) fn start_lesson(&mut self, index: usize) -> Result<(), String> {
        let lesson = lessons::parse(index).map_err(|e| e.to_string())?;
        self.start_parsed(index, None, lesson);
        Ok(())
    }

    /// A lesson from the editor at its start; `Err` (the parser's, with line and column) when
    /// it does not parse or is over [`MAX_LESSON_BYTES`].
    pub(super) fn start_lesson_text(&mut self, text: &str) -> Result<(), String> {
        if text.len() > MAX_LESSON_BYTES {
            return Err(too_big(text.len()));
        }
        let lesson = Lesson::parse("editor.lesson", text).map_err(|e| e.to_string())?;
        if lesson.steps.is_empty() {
            return Err("editor.lesson: the lesson has no step".into());
        }
        self.start_parsed(0, Some(Rc::from("editor")), lesson);
        Ok(())
    }

    fn start_parsed(&mut self, index: usize, custom: Option<Rc<str>>, lesson: Lesson) {
        self.console = Rc::new(RefCell::new(Console::new()));
        self.history = Rc::new(Vec::new());
        let stages = Rc::new(Stage::of_lesson(&lesson));
        self.lesson = Some(Rc::new(LessonRun {
            index,
            custom,
            lesson: Rc::new(lesson),
            pos: 0,
            outputs: Vec::new(),
            stages,
            playing: None,
            answers: Vec::new(),
            quiz_before: None,
        }));
    }

    /// Runs the lesson's steps from the start in a fresh console up to `pos` steps.
    pub(super) fn lesson_goto(&mut self, pos: usize) {
        let Some(run) = self.lesson.clone() else {
            return;
        };
        let pos = pos.min(run.len());
        let mut console = Console::new();
        // The world before the last step, for what that step changed.
        let mut base = None;
        let mut outputs = Vec::with_capacity(pos);
        let mut answers = Vec::with_capacity(pos);
        for (i, s) in run.lesson.steps[..pos].iter().enumerate() {
            if i + 1 == pos {
                base = Some(StepBase::of(&console));
            }
            if s.command.is_empty() {
                outputs.push(None);
                answers.push(None);
            } else {
                let (out, answer) = run_step(&mut console, s);
                outputs.push(Some(out));
                answers.push(answer.map(|a| a.unwrap_or_else(|e| format!("? ({e})"))));
            }
        }
        self.step_base = base;
        self.console = Rc::new(RefCell::new(console));
        self.history = Rc::new(Vec::new());
        self.lesson = Some(Rc::new(LessonRun {
            pos,
            outputs,
            answers,
            playing: None,
            quiz_before: None,
            ..(*run).clone()
        }));
    }

    /// Runs the lesson's next step on the current console: a wait step starts playing (when
    /// waits play), any other step runs at once. While a wait plays, it runs to its end at once
    /// instead (the lecturer skips it).
    pub(super) fn lesson_next(&mut self, play_waits: bool) {
        let Some(run) = self.lesson.clone() else {
            return;
        };
        if run.playing.is_some() {
            self.skip_wait();
            return;
        }
        let Some(step) = run.lesson.steps.get(run.pos) else {
            return;
        };
        let mut next = (*run).clone();
        next.answers.push(None);
        if step.command.is_empty() {
            next.outputs.push(None);
            next.pos += 1;
        } else {
            let mut console = self.console.borrow_mut();
            next.quiz_before = step
                .quiz
                .as_ref()
                .and_then(|q| q.before(console.world.as_ref()));
            match begin_step(&mut console, &step.command, play_waits) {
                StepStart::Ran(out) => {
                    next.outputs.push(Some(out));
                    next.pos += 1;
                    next.settle_answer(console.world.as_ref());
                }
                StepStart::Plays(played) => {
                    next.outputs.push(None);
                    next.playing = Some(*played);
                    next.pos += 1;
                }
            }
        }
        self.lesson = Some(Rc::new(next));
        if !self.history.is_empty() {
            Rc::make_mut(&mut self.history).push(NEXT_STEP_LINE.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{open, play_out, reopen, timeline};
    use super::super::Action;
    use yew::Reducible;

    #[test]
    fn a_lesson_steps_forward_and_rewinds_by_replaying() {
        let mut s = timeline();
        let n = s.lesson.as_ref().unwrap().len();
        assert_eq!(s.lesson.as_ref().unwrap().pos, 0);
        assert!(s.view.is_none(), "03-timeline starts no cluster");
        for _ in 0..n + 2 {
            s = s.reduce(Action::LessonNext);
        }
        let run = s.lesson.clone().unwrap();
        assert_eq!(run.pos, n);
        let all: Vec<String> = run.outputs.iter().flatten().cloned().collect();
        assert!(all
            .iter()
            .any(|o| o == "committed up to 10 current={orders=id-A} snapshots=[10]"));
        assert!(all.iter().any(|o| {
            o
            == "lost leadership, reverted to 11 current={orders=id-A, payments=id-B} snapshots=[11]"
        }));
        let back = s.clone().reduce(Action::LessonPrev);
        let b = back.lesson.clone().unwrap();
        assert_eq!(b.pos, n - 1);
        assert_eq!(
            b.outputs[..],
            run.outputs[..n - 1],
            "replay gives the same outputs"
        );
        let again = back.reduce(Action::LessonNext);
        assert_eq!(again.lesson.as_ref().unwrap().outputs, run.outputs);
        let start = again.reduce(Action::LessonRestart);
        assert_eq!(start.lesson.as_ref().unwrap().pos, 0);
        let mid = start.reduce(Action::LessonGoto(3));
        assert_eq!(mid.lesson.as_ref().unwrap().outputs[..], run.outputs[..3]);
    }

    #[test]
    fn a_lessons_wait_plays_frame_by_frame_and_prints_the_pinned_output() {
        // States share their console (the world is changed in place), so each branch below
        // starts from a fresh page.
        let two_steps = |query: &str| {
            open(query)
                .reduce(Action::LessonNext)
                .reduce(Action::LessonNext)
        };
        let want = two_steps("?lesson=02-election&lang=en&play=0");
        let want_outputs = want.lesson.as_ref().unwrap().outputs.clone();
        // Step 2 is `run until=leader`: it plays.
        let s = two_steps("?lesson=02-election&lang=en");
        assert!(s.playing_wait() && s.animating());
        let run = s.lesson.clone().unwrap();
        assert_eq!(
            (run.pos, run.outputs[1].as_ref()),
            (2, None),
            "no output while it plays"
        );
        let (played, frames) = play_out(s, 60 * 60);
        assert!(
            frames > 60,
            "an election is played over seconds, not one frame: {frames}"
        );
        assert_eq!(played.lesson.as_ref().unwrap().outputs, want_outputs);
        assert_eq!(played.view, want.view, "the same world");
        // The address of a played lesson gives the same state.
        let again = reopen(&played, "?lesson=02-election&lang=en");
        assert_eq!(again.view, played.view);
        // → while it plays skips to its end, with the same output; so does a typed command.
        let skipped = two_steps("?lesson=02-election&lang=en")
            .reduce(Action::Frame { wall_us: 16_667 })
            .reduce(Action::LessonNext);
        assert!(!skipped.playing_wait());
        assert_eq!(
            skipped.lesson.as_ref().unwrap().pos,
            2,
            "a skip does not run the next step"
        );
        assert_eq!(skipped.lesson.as_ref().unwrap().outputs, want_outputs);
        assert_eq!(skipped.view, want.view);
        let typed = two_steps("?lesson=02-election&lang=en").reduce(Action::Exec("mark x".into()));
        assert!(!typed.playing_wait());
        assert_eq!(typed.lesson.as_ref().unwrap().outputs, want_outputs);
    }
}
