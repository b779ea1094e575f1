//! The page's state: the lesson [`Console`] (whose world the panels draw), the lesson being
//! played, the console scrollback and the play/pause settings, changed only through [`Action`]s.
//!
//! The parts live in their own files: `reducer` (the [`Action`]s and how they change the
//! state), `replay` (rebuilding what the address asks for), `lesson_run` (the
//! lesson being played), `rewind` (free play's step back and slider) and `play` (time on
//! screen).

use std::cell::RefCell;
use std::rc::Rc;

use kraft_core::lesson::rewind::{Input, Rewind};
use kraft_core::lesson::Console;
use kraft_core::view::pace::Pace;
use kraft_core::view::{ClusterView, TimelineView};

mod changes;
mod lesson_run;
mod play;
mod produce_line;
mod reducer;
mod replay;
mod rewind;
mod session_lesson;
#[cfg(test)]
mod testing;

pub use crate::address::{PageConfig, DEFAULT_BROKERS, DEFAULT_CONTROLLERS, DEFAULT_SEED};
pub use crate::i18n::Lang;
pub use changes::{changes_since, StepBase};
pub use lesson_run::{too_big, LessonRun, MAX_LESSON_BYTES};
pub use play::{begin_step, StepStart, ADAPTIVE, PLAY_PREFIX};
pub use reducer::Action;
pub use replay::{FRAMES_PREFIX, MAX_REPLAY_FRAMES, MAX_REPLAY_PLAY_MS};
pub use session_lesson::session_lesson;

use rewind::new_rewind;

/// Wall-clock milliseconds between two frames while playing.
pub const FRAME_WALL_MS: u32 = 50;
/// Virtual milliseconds run per frame unless the user picks another speed.
pub const DEFAULT_SIM_MS_PER_FRAME: u64 = 50;
/// The speeds offered in the speed menu, as virtual milliseconds per [`FRAME_WALL_MS`] of wall
/// time: [`ADAPTIVE`] (slow where the protocol acts, fast where nothing happens), then a log
/// scale (1-2.5-5 steps) from 1/50 of real time to 20 times it.
pub const SIM_MS_PER_FRAME_CHOICES: [u64; 11] =
    [ADAPTIVE, 1, 2, 5, 10, 25, 50, 100, 250, 500, 1000];
/// At most this many console entries are kept in the scrollback.
pub const SCROLLBACK_LIMIT: usize = 200;
/// Most world checkpoints free play keeps for stepping back (bounded memory).
pub const REWIND_CHECKPOINTS: usize = 32;
/// Events between two rewind checkpoints at first (the spacing doubles as history grows).
pub const REWIND_EVERY_EVENTS: u64 = 2_000;

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
    /// as the console commands that do the same), with [`NEXT_STEP_LINE`](crate::address::NEXT_STEP_LINE) where a lesson step
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
    /// The world before the current step (`None`: no step to compare, e.g. after a rewind).
    pub step_base: Option<StepBase>,
    /// What the current step changed so far, with the Kafka code that did it.
    pub step_changes: Rc<Vec<kraft_core::view::changes::Change>>,
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
            presenter: None,
            link: None,
            embed: false,
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
            step_base: None,
            step_changes: Rc::new(Vec::new()),
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

    fn refresh_view(&mut self) {
        let console = self.console.borrow();
        self.view = console.world.as_ref().map(|w| Rc::new(w.view()));
        self.timeline = console.timeline_view().map(Rc::new);
        drop(console);
        self.refresh_changes();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
