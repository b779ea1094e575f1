//! Time on screen: a lesson's wait step played frame by frame with adaptive time, free play's
//! virtual time at a fixed speed or adaptive, and the played clock the drawing interpolates to.
//! Every frame runs whole milliseconds (the fraction waits in [`Playground::clock_ms`]), so
//! what was played is what `run_for` of the same milliseconds runs: the address replays it.

use kraft_core::lesson::rewind::Input;
use kraft_core::lesson::runner::step_output;
use kraft_core::lesson::wait::{PlayedWait, FRAME_MAX_EVENTS};
use kraft_core::lesson::{Begun, Console};
use kraft_core::view::pace::{run_paced, Pace};

use super::{Playground, FRAME_WALL_MS};

/// The speed-menu value of adaptive time (see [`Pace`]).
pub const ADAPTIVE: u64 = 0;
/// In `cmds`, a line `#play Tms` stands for T virtual ms played (`run_for(T)`).
pub const PLAY_PREFIX: &str = "#play ";

/// A lesson step begun by [`begin_step`].
pub enum StepStart {
    /// It ran at once: what it printed.
    Ran(String),
    /// A wait that plays on screen.
    Plays(Box<PlayedWait>),
}

/// Begins a lesson step's command: its output when it runs at once, or the wait to play when
/// it is a `sleep`/`run` and waits play on screen.
pub fn begin_step(console: &mut Console, command: &str, play_waits: bool) -> StepStart {
    if !play_waits {
        return StepStart::Ran(step_output(console, command));
    }
    match console.begin(command) {
        Begun::Done(r) => StepStart::Ran(r.unwrap_or_else(|e| format!("error: {e}"))),
        Begun::Wait(wait) => match console.world.as_ref() {
            Some(world) => StepStart::Plays(Box::new(PlayedWait::new(wait, world))),
            None => StepStart::Ran(step_output(console, command)),
        },
    }
}

impl Playground {
    /// Whether frames have something to do: free play is playing, or a lesson's wait plays.
    pub fn animating(&self) -> bool {
        self.view.is_some() && self.playing || self.playing_wait()
    }

    /// Whether a lesson's wait step is playing.
    pub fn playing_wait(&self) -> bool {
        self.lesson.as_ref().is_some_and(|l| l.playing.is_some())
    }

    /// The world's (events run, virtual time), to tell whether a frame changed anything.
    pub(super) fn world_key(&self) -> Option<(u64, u64)> {
        self.console
            .borrow()
            .world
            .as_ref()
            .map(|w| (w.events_run(), w.now_ms()))
    }

    /// The played clock never lags the world (after a step, a command, a rewind).
    pub(super) fn settle_clock(&mut self) {
        let now = self.view.as_ref().map_or(0.0, |v| v.now_ms as f64);
        if !self.animating() || self.clock_ms < now {
            self.clock_ms = now;
        }
    }

    /// One animation frame of `wall_ms` wall-clock ms.
    pub(super) fn frame(&mut self, wall_ms: f64) -> Result<(), String> {
        let wall_ms = wall_ms.clamp(0.0, 250.0);
        if self.playing_wait() {
            self.lesson_frame(wall_ms);
            return Ok(());
        }
        self.free_play_frame(wall_ms)
    }

    /// Plays the lesson's wait step one frame further; at its end, its output is the step's.
    fn lesson_frame(&mut self, wall_ms: f64) {
        let Some(run) = self.lesson.as_mut() else {
            return;
        };
        let run = std::rc::Rc::make_mut(run);
        let Some(played) = run.playing.as_mut() else {
            return;
        };
        let mut console = self.console.borrow_mut();
        let Some(world) = console.world.as_mut() else {
            run.playing = None;
            return;
        };
        let done = played.frame(world, wall_ms);
        self.clock_ms = played.clock_ms();
        if let Some(out) = done {
            run.playing = None;
            if let Some(slot) = run.outputs.last_mut() {
                *slot = Some(out.unwrap_or_else(|e| format!("error: {e}")));
            }
            run.settle_answer(console.world.as_ref());
        }
    }

    /// The lesson's wait step, run to its end at once (→ while it plays).
    pub(super) fn skip_wait(&mut self) {
        let Some(run) = self.lesson.as_mut() else {
            return;
        };
        let run = std::rc::Rc::make_mut(run);
        let Some(played) = run.playing.take() else {
            return;
        };
        let mut console = self.console.borrow_mut();
        let out = match console.world.as_mut() {
            Some(world) => played.wait.finish(world),
            None => Err("no cluster".into()),
        };
        if let Some(slot) = run.outputs.last_mut() {
            *slot = Some(out.unwrap_or_else(|e| format!("error: {e}")));
        }
        run.settle_answer(console.world.as_ref());
    }

    /// Free play while playing: the fixed speed's virtual ms for this much wall time, or
    /// adaptive time; whole milliseconds run, kept in the history and the rewind.
    fn free_play_frame(&mut self, wall_ms: f64) -> Result<(), String> {
        let before = self.world_key();
        let Some((events_before, now_before)) = before else {
            self.playing = false;
            return Err("no cluster yet: run a `cluster` command first".into());
        };
        let stalled = {
            let mut console = self.console.borrow_mut();
            let world = console.world.as_mut().expect("checked");
            // A frame's worth of engine work at most: a livelocked cluster stops playing.
            world.limit_events(Some(FRAME_MAX_EVENTS));
            if self.sim_ms_per_frame == ADAPTIVE {
                let pace = self.pace.get_or_insert_with(|| Pace::new(world));
                let until = pace.frame(world, wall_ms);
                let p = pace.clone();
                run_paced(world, until, |w| p.should_pause(w));
                pace.settle(world);
                self.clock_ms = pace.clock_ms;
            } else {
                let speed = self.sim_ms_per_frame as f64 / f64::from(FRAME_WALL_MS);
                self.clock_ms = self.clock_ms.max(now_before as f64) + speed * wall_ms;
                let until = self.clock_ms.floor() as u64;
                world.run_for(until.saturating_sub(now_before));
            }
            let stalled = world.out_of_events() && world.now_ms() == now_before;
            world.limit_events(None);
            stalled
        };
        self.record_played(events_before, now_before);
        if stalled {
            self.playing = false;
            return Err(format!(
                "paused: the cluster ran {FRAME_MAX_EVENTS} events without virtual time moving on (livelocked?)"
            ));
        }
        Ok(())
    }

    /// The `+N ms` button: one frame's worth of virtual time at the chosen speed (50 ms with
    /// adaptive time).
    pub(super) fn step_tick(&mut self) -> Result<(), String> {
        let Some((events_before, now_before)) = self.world_key() else {
            return Err("no cluster yet: run a `cluster` command first".into());
        };
        let ms = match self.sim_ms_per_frame {
            ADAPTIVE => super::DEFAULT_SIM_MS_PER_FRAME,
            ms => ms,
        };
        if let Some(world) = self.console.borrow_mut().world.as_mut() {
            world.run_for(ms);
        }
        self.record_played(events_before, now_before);
        Ok(())
    }

    /// Keeps the virtual time played since `now_before` in the rewind and the history (one
    /// `#play` line for consecutive frames).
    fn record_played(&mut self, events_before: u64, now_before: u64) {
        let Some((_, now)) = self.world_key() else {
            return;
        };
        let ms = now - now_before;
        if ms == 0 {
            return;
        }
        self.record_input(Input::RunFor(ms), events_before);
        let history = std::rc::Rc::make_mut(&mut self.history);
        match history.last().and_then(|l| play_line(l)) {
            Some(t) => *history.last_mut().expect("checked") = play_text(t + ms),
            None => history.push(play_text(ms)),
        }
    }
}

/// `#play Tms`.
pub fn play_text(ms: u64) -> String {
    format!("{PLAY_PREFIX}{ms}ms")
}

/// Reads `#play Tms`: T.
pub fn play_line(line: &str) -> Option<u64> {
    line.strip_prefix(PLAY_PREFIX)?
        .strip_suffix("ms")?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::super::testing::{open, reopen};
    use super::super::Action;
    use super::*;
    use yew::Reducible;

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
}
