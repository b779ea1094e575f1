//! The page's state: the lesson [`Console`] (whose world the panels draw), the lesson being
//! played, the console scrollback and the play/pause settings, changed only through [`Action`]s.

use std::cell::RefCell;
use std::rc::Rc;

use kraft_core::lesson::rewind::{Input, Rewind};
use kraft_core::lesson::runner::step_output;
use kraft_core::lesson::stage::Stage;
use kraft_core::lesson::wait::PlayedWait;
use kraft_core::lesson::{Console, Lesson};
use kraft_core::view::pace::Pace;
use kraft_core::view::{ClusterView, TimelineView};
use yew::Reducible;

mod play;

pub use play::{begin_step, StepStart, ADAPTIVE, PLAY_PREFIX};

use crate::lessons;
use crate::share::{self, NEXT_STEP_LINE};

/// Wall-clock milliseconds between two frames while playing.
pub const FRAME_WALL_MS: u32 = 50;
/// Virtual milliseconds run per frame unless the user picks another speed.
pub const DEFAULT_SIM_MS_PER_FRAME: u64 = 50;
/// The speeds offered in the speed menu, as virtual milliseconds per [`FRAME_WALL_MS`] of wall
/// time: [`ADAPTIVE`] (slow where the protocol acts, fast where nothing happens), then a log
/// scale (1-2.5-5 steps) from 1/50 of real time to 20 times it.
pub const SIM_MS_PER_FRAME_CHOICES: [u64; 11] =
    [ADAPTIVE, 1, 2, 5, 10, 25, 50, 100, 250, 500, 1000];
/// Seed used when the page URL has no `?seed=N`.
pub const DEFAULT_SEED: u64 = 42;
/// The controllers (voters of the metadata quorum) of the default cluster.
pub const DEFAULT_CONTROLLERS: [i32; 3] = [101, 102, 103];
/// The brokers of the default cluster.
pub const DEFAULT_BROKERS: [i32; 3] = [1, 2, 3];
/// At most this many console entries are kept in the scrollback.
pub const SCROLLBACK_LIMIT: usize = 200;
/// Most world checkpoints free play keeps for stepping back (bounded memory).
pub const REWIND_CHECKPOINTS: usize = 32;
/// Events between two rewind checkpoints at first (the spacing doubles as history grows).
pub const REWIND_EVERY_EVENTS: u64 = 2_000;

/// The language of the narration and of the lesson panel's labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lang {
    /// Korean (the default).
    #[default]
    Ko,
    /// English.
    En,
}

impl Lang {
    /// `ko` or `en`, as in `#ko:` lines and `?lang=`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Ko => "ko",
            Lang::En => "en",
        }
    }

    /// Reads `ko` or `en`.
    pub fn from_code(code: &str) -> Option<Lang> {
        match code {
            "ko" => Some(Lang::Ko),
            "en" => Some(Lang::En),
            _ => None,
        }
    }
}

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

/// A lesson being played: which one, and how far.
#[derive(Clone, Debug, PartialEq)]
pub struct LessonRun {
    /// Index in [`lessons::LESSONS`].
    pub index: usize,
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

    /// The lesson's name (`03-timeline`).
    pub fn name(&self) -> &'static str {
        lessons::LESSONS[self.index].0
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

/// One command typed into the console and what it printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsoleEntry {
    /// The line typed.
    pub command: String,
    /// What it printed, or the error (`error: ...`).
    pub output: String,
    /// Whether the command failed.
    pub failed: bool,
}

/// The reducer state.
///
/// The console (and its world) is mutated in place behind a shared `RefCell` so that a frame does
/// not clone the world; every action produces a fresh [`ClusterView`], which is what components
/// compare and draw. Rewinding a lesson swaps in a fresh console.
#[derive(Clone)]
pub struct Playground {
    console: Rc<RefCell<Console>>,
    /// The view of the world after the last action; `None` before a `cluster` command ran.
    pub view: Option<Rc<ClusterView>>,
    /// Whether the play timer is running.
    pub playing: bool,
    /// Virtual milliseconds run per frame while playing (and by [`Action::StepTick`]).
    pub sim_ms_per_frame: u64,
    /// The error of the last action, if it failed (e.g. restarting a node that runs).
    pub last_error: Option<String>,
    /// Counts the actions applied; two states are equal when they have the same count.
    pub revision: u64,
    /// The free-play cluster the address asks for.
    pub config: PageConfig,
    /// The narration language.
    pub lang: Lang,
    /// The lesson being played, if any.
    pub lesson: Option<Rc<LessonRun>>,
    /// The console's scrollback, oldest first.
    pub scrollback: Rc<Vec<ConsoleEntry>>,
    /// Every command that changed the console since it was made (typed lines, and the buttons
    /// as the console commands that do the same), with [`NEXT_STEP_LINE`] where a lesson step
    /// ran after them: replaying it rebuilds this state.
    pub history: Rc<Vec<String>>,
    /// Free play's rewind: the inputs since the cluster was built and bounded checkpoints.
    pub rewind: Rc<RefCell<Rewind>>,
    /// The map of the console's `timeline` commands, once one of them changed it.
    pub timeline: Option<Rc<TimelineView>>,
    /// The played clock (virtual ms, with the fraction not run yet) the drawing interpolates
    /// to: at least the world's time.
    pub clock_ms: f64,
    /// Whether a lesson's wait steps play on screen (`?play=0` turns it off).
    pub play_waits: bool,
    /// Free play's adaptive speed, while playing at [`ADAPTIVE`].
    pub pace: Option<Pace>,
    /// What the last Step button ran ("what just ran").
    pub last_event: Option<String>,
}

impl PartialEq for Playground {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.console, &other.console) && self.revision == other.revision
    }
}

/// The console command that builds the free-play cluster.
pub fn cluster_command(seed: u64, controllers: &[i32], brokers: &[i32]) -> String {
    let ids = |v: &[i32]| {
        v.iter()
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut cmd = format!("cluster controllers={}", ids(controllers));
    if !brokers.is_empty() {
        cmd.push_str(&format!(" brokers={}", ids(brokers)));
    }
    cmd.push_str(&format!(" seed={seed}"));
    cmd
}

impl Playground {
    /// Builds the default cluster (controllers 101, 102, 103 and brokers 1, 2, 3) from `seed`.
    pub fn new(seed: u64) -> Result<Self, String> {
        Self::with_nodes(seed, DEFAULT_CONTROLLERS.to_vec(), DEFAULT_BROKERS.to_vec())
    }

    /// Builds a cluster of `controllers` (voters) and `brokers` from `seed`.
    pub fn with_nodes(seed: u64, controllers: Vec<i32>, brokers: Vec<i32>) -> Result<Self, String> {
        PageConfig {
            seed,
            controllers,
            brokers,
            lesson: None,
            lang: Lang::default(),
            step: None,
            cmds: Vec::new(),
            url_error: None,
            present: false,
            play_waits: true,
        }
        .build()
    }

    fn empty(config: PageConfig) -> Self {
        Self {
            console: Rc::new(RefCell::new(Console::new())),
            view: None,
            playing: false,
            sim_ms_per_frame: DEFAULT_SIM_MS_PER_FRAME,
            last_error: None,
            revision: 0,
            lesson: None,
            scrollback: Rc::new(Vec::new()),
            history: Rc::new(Vec::new()),
            rewind: Rc::new(RefCell::new(new_rewind(&Console::new()))),
            timeline: None,
            clock_ms: 0.0,
            play_waits: config.play_waits,
            pace: None,
            last_event: None,
            lang: config.lang,
            config,
        }
    }

    /// Free play: a fresh console that ran the `cluster` command of the address.
    fn start_free_play(&mut self) -> Result<(), String> {
        let mut console = Console::new();
        let c = &self.config;
        let cmd = cluster_command(c.seed, &c.controllers, &c.brokers);
        console
            .exec(&cmd)
            .map_err(|e| format!("cannot build the world ({cmd}): {e}"))?;
        self.rewind = Rc::new(RefCell::new(new_rewind(&console)));
        self.console = Rc::new(RefCell::new(console));
        self.lesson = None;
        self.history = Rc::new(Vec::new());
        Ok(())
    }

    /// Lesson `index` at its start, before its first step.
    fn start_lesson(&mut self, index: usize) -> Result<(), String> {
        let lesson = lessons::parse(index).map_err(|e| e.to_string())?;
        self.console = Rc::new(RefCell::new(Console::new()));
        self.history = Rc::new(Vec::new());
        let stages = Rc::new(Stage::of_lesson(&lesson));
        self.lesson = Some(Rc::new(LessonRun {
            index,
            lesson: Rc::new(lesson),
            pos: 0,
            outputs: Vec::new(),
            stages,
            playing: None,
        }));
        Ok(())
    }

    /// Runs the lesson's steps from the start in a fresh console up to `pos` steps.
    fn lesson_goto(&mut self, pos: usize) {
        let Some(run) = self.lesson.clone() else {
            return;
        };
        let pos = pos.min(run.len());
        let mut console = Console::new();
        let outputs = run.lesson.steps[..pos]
            .iter()
            .map(|s| (!s.command.is_empty()).then(|| step_output(&mut console, &s.command)))
            .collect();
        self.console = Rc::new(RefCell::new(console));
        self.history = Rc::new(Vec::new());
        self.lesson = Some(Rc::new(LessonRun {
            pos,
            outputs,
            playing: None,
            ..(*run).clone()
        }));
    }

    /// Runs the lesson's next step on the current console: a wait step starts playing (when
    /// waits play), any other step runs at once. While a wait plays, it runs to its end at once
    /// instead (the lecturer skips it).
    fn lesson_next(&mut self, play_waits: bool) {
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
        if step.command.is_empty() {
            next.outputs.push(None);
        } else {
            let mut console = self.console.borrow_mut();
            match begin_step(&mut console, &step.command, play_waits) {
                StepStart::Ran(out) => next.outputs.push(Some(out)),
                StepStart::Plays(played) => {
                    next.outputs.push(None);
                    next.playing = Some(*played);
                }
            }
        }
        next.pos += 1;
        self.lesson = Some(Rc::new(next));
        if !self.history.is_empty() {
            Rc::make_mut(&mut self.history).push(NEXT_STEP_LINE.to_string());
        }
    }

    /// Runs a console line, shows it in the scrollback and keeps it in the history.
    fn exec_line(&mut self, line: &str) {
        let line = line.trim().to_string();
        if line.is_empty() {
            return;
        }
        let before = self.events_run();
        let result = self.console.borrow_mut().exec(&line);
        self.record_input(Input::Exec(line.clone()), before);
        let entry = match result {
            Ok(output) => ConsoleEntry {
                command: line.clone(),
                output,
                failed: false,
            },
            Err(e) => ConsoleEntry {
                command: line.clone(),
                output: format!("error: {e}"),
                failed: true,
            },
        };
        let sb = Rc::make_mut(&mut self.scrollback);
        sb.push(entry);
        if sb.len() > SCROLLBACK_LIMIT {
            sb.drain(..sb.len() - SCROLLBACK_LIMIT);
        }
        Rc::make_mut(&mut self.history).push(line);
    }

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

    fn events_run(&self) -> u64 {
        self.console
            .borrow()
            .world
            .as_ref()
            .map(|w| w.events_run())
            .unwrap_or(0)
    }

    /// Keeps `input` (already applied) in free play's rewind.
    fn record_input(&mut self, input: Input, events_before: u64) {
        if self.lesson.is_none() {
            let console = self.console.borrow();
            self.rewind
                .borrow_mut()
                .record(&console, input, events_before);
        }
    }

    /// Free play after a rewind: one event forward along what was rewound away, run in place
    /// when the next input only runs events (see [`Rewind::forward_one`]).
    fn forward_one(&mut self) -> Result<(), String> {
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
    fn rewind_to(&mut self, target: u64) -> Result<(), String> {
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

    fn refresh_view(&mut self) {
        let console = self.console.borrow();
        self.view = console.world.as_ref().map(|w| Rc::new(w.view()));
        self.timeline = console.timeline_view().map(Rc::new);
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
        let result = match action {
            _ if frame.is_some() => next.frame(frame.unwrap_or_default()),
            Action::Play => {
                next.playing = next.view.is_some();
                next.pace = None;
                Ok(())
            }
            Action::Pause => {
                next.playing = false;
                next.pace = None;
                Ok(())
            }
            Action::SetSpeed(ms) => {
                next.sim_ms_per_frame = ms;
                next.pace = None;
                Ok(())
            }
            Action::SetPlayWaits(on) => {
                next.play_waits = on;
                Ok(())
            }
            Action::StepTick => next.step_tick(),
            Action::SetLang(lang) => {
                next.lang = lang;
                Ok(())
            }
            Action::Exec(line) => {
                next.exec_line(&line);
                Ok(())
            }
            Action::LessonNext => {
                next.playing = false;
                let play = next.play_waits;
                next.lesson_next(play);
                Ok(())
            }
            Action::LessonPrev => {
                next.playing = false;
                let pos = next.lesson.as_ref().map_or(0, |l| l.pos.saturating_sub(1));
                next.lesson_goto(pos);
                Ok(())
            }
            Action::LessonGoto(pos) => {
                next.playing = false;
                next.lesson_goto(pos);
                Ok(())
            }
            Action::LessonRestart => {
                next.playing = false;
                next.lesson_goto(0);
                Ok(())
            }
            Action::ChooseLesson(choice) => {
                next.playing = false;
                match choice {
                    Some(i) if i < lessons::LESSONS.len() => next.start_lesson(i),
                    Some(i) => Err(format!("no lesson {i}")),
                    None => next.start_free_play(),
                }
            }
            // After a rewind, Step goes forward along what was rewound away (its commands
            // included) instead of starting a new branch.
            Action::Step if next.redo_end().is_some() => next.forward_one(),
            Action::StepBack => {
                next.playing = false;
                let target = next.events_run().saturating_sub(1);
                next.rewind_to(target)
            }
            Action::RewindTo(target) => {
                next.playing = false;
                next.rewind_to(target)
            }
            ref a => {
                let before = next.events_run();
                let done = next.world_action(a);
                if done.is_ok() {
                    next.record(a);
                    if let Some(input) = rewind_input(a) {
                        next.record_input(input, before);
                    }
                }
                done
            }
        };
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
}

/// In `cmds`, a line `#frames N MSms` stands for N frames of the play timer, MS virtual ms each.
pub const FRAMES_PREFIX: &str = "#frames ";
/// At most this many play frames are replayed from one `#frames` line.
pub const MAX_REPLAY_FRAMES: u64 = 200_000;
/// At most this much virtual time (ms) is replayed from one `#play` line (an hour).
pub const MAX_REPLAY_PLAY_MS: u64 = 3_600_000;

fn new_rewind(console: &Console) -> Rewind {
    Rewind::new(console, REWIND_CHECKPOINTS, REWIND_EVERY_EVENTS)
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
            Input::RunFor(ms) => match out.last().and_then(|l| play::play_line(l)) {
                Some(t) => *out.last_mut().expect("checked") = play::play_text(t + ms),
                None => out.push(play::play_text(*ms)),
            },
        }
    }
    out
}

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

/// Reads `prefix N suffix` (e.g. `run 250ms`, `step 3`; a bare `step` is 1).
fn count_arg(line: &str, prefix: &str, suffix: &str) -> Option<u64> {
    let rest = line.strip_prefix(prefix)?;
    if rest.is_empty() && suffix.is_empty() {
        return Some(1);
    }
    rest.strip_prefix(' ')?.strip_suffix(suffix)?.parse().ok()
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
        Ok(PageConfig {
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

fn query_value<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    query
        .trim_start_matches('?')
        .split('&')
        .find_map(|pair| pair.strip_prefix(key)?.strip_prefix('='))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn free_play_runs_the_cluster_command() {
        assert_eq!(
            cluster_command(7, &[101, 102], &[1]),
            "cluster controllers=101,102 brokers=1 seed=7"
        );
        let p = PageConfig::from_query("?seed=3").unwrap().build().unwrap();
        let view = p.view.as_ref().expect("a world");
        assert_eq!(view.seed, 3);
        assert_eq!(view.nodes.len(), 6);
        assert!(p.lesson.is_none());
    }

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

    fn timeline() -> Rc<Playground> {
        Rc::new(
            PageConfig::from_query("?lesson=03-timeline&lang=en")
                .unwrap()
                .build()
                .unwrap(),
        )
    }

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

    fn open(query: &str) -> Rc<Playground> {
        Rc::new(PageConfig::from_query(query).unwrap().build().unwrap())
    }

    /// What the address of `p` is, rebuilt from scratch.
    fn reopen(p: &Playground, base: &str) -> Rc<Playground> {
        let (step, cmds) = p.share_params();
        let q = crate::share::with_params(base, &[("step", step), ("cmds", cmds)]);
        open(&q)
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
            .find(|n| n.raft_state == "Leader")
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

    /// Frames until the lesson's playing wait ends (at most `limit`); how many it took.
    fn play_out(mut s: Rc<Playground>, limit: u32) -> (Rc<Playground>, u32) {
        for n in 1..=limit {
            s = s.reduce(Action::Frame { wall_us: 16_667 });
            if !s.playing_wait() {
                return (s, n);
            }
        }
        (s, limit)
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

    #[test]
    fn free_play_plays_frames_at_a_speed_or_adaptive_and_the_address_replays_them() {
        for speed in [ADAPTIVE, 50, 1000] {
            let mut s = open("?seed=5")
                .reduce(Action::SetSpeed(speed))
                .reduce(Action::Play);
            for _ in 0..90 {
                s = s.reduce(Action::Frame { wall_us: 16_667 });
            }
            s = s.reduce(Action::Pause);
            let v = s.view.clone().unwrap();
            assert!(v.now_ms > 0, "speed {speed}");
            assert!(
                s.history.iter().all(|l| l.starts_with(PLAY_PREFIX)),
                "{:?}",
                s.history
            );
            let again = reopen(&s, "?seed=5");
            assert_eq!(again.view.as_ref().unwrap(), &v, "speed {speed}");
        }
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
}
