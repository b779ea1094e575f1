//! The console's waits (`sleep 15s`, `run 2s`, `run until=leader timeout=10s`) as values that can
//! run in pieces: the page plays a wait over many animation frames, a test or the CLI runs it in
//! one go, and both run the same events in the same order (a run cut in pieces is the run in one
//! go), so a lesson's pinned output is the same either way.

use crate::common::clock::{duration_text, human_ms};
use crate::sim::args::parse_duration_ms;
use crate::sim::World;
use crate::view::pace::Pace;

/// What `run until=` waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    /// `leader`: some voter leads.
    Leader,
    /// `leader-changed`: a leader other than the one at the start, in a higher epoch.
    LeaderChanged {
        /// The leader and epoch when the wait began.
        before: Option<(i32, i32)>,
    },
    /// `active-controller`: some controller is active.
    ActiveController,
    /// `leader=N`: node N leads.
    LeaderIs(i32),
    /// `epoch=N`: a leader in epoch N or later.
    Epoch(i32),
    /// `fenced=N` / `unfenced=N`: the active controller has committed broker N's current
    /// incarnation as fenced (or unfenced), as the broker learns it from its heartbeat
    /// response. While broker N's process runs, that is the incarnation it registers: an
    /// earlier incarnation's registration does not count.
    Fenced {
        /// The broker.
        broker: i32,
        /// `true` for `fenced=`, `false` for `unfenced=`.
        fenced: bool,
    },
}

/// The conditions `run until=` knows, for its error message.
pub const CONDITIONS: &str =
    "leader, leader-changed, leader=N, epoch=N, active-controller, fenced=N, unfenced=N";

impl Condition {
    /// Reads `cond` (the text after `until=`) against the world as it is now.
    pub fn parse(cond: &str, world: &World) -> Result<Condition, String> {
        let id = |v: &str| {
            v.parse::<i32>()
                .map_err(|_| format!("'{v}' is not a node id"))
        };
        Ok(match cond.split_once('=') {
            None if cond == "leader" => Condition::Leader,
            None if cond == "leader-changed" => Condition::LeaderChanged {
                before: world.leader(),
            },
            None if cond == "active-controller" => Condition::ActiveController,
            Some(("leader", v)) => Condition::LeaderIs(id(v)?),
            Some(("epoch", v)) => {
                Condition::Epoch(v.parse().map_err(|_| format!("'{v}' is not an epoch"))?)
            }
            Some((k @ ("fenced" | "unfenced"), v)) => Condition::Fenced {
                broker: id(v)?,
                fenced: k == "fenced",
            },
            _ => return Err(format!("run: unknown condition '{cond}' ({CONDITIONS})")),
        })
    }

    /// Whether it holds in `w`.
    pub fn holds(&self, w: &World) -> bool {
        match *self {
            Condition::Leader => w.leader().is_some(),
            Condition::LeaderChanged { before } => w
                .leader()
                .is_some_and(|l| Some(l) != before && before.is_none_or(|b| l.1 > b.1)),
            Condition::ActiveController => w.active_controller().is_some(),
            Condition::LeaderIs(id) => w.leader().is_some_and(|l| l.0 == id),
            Condition::Epoch(e) => w.leader().is_some_and(|l| l.1 >= e),
            Condition::Fenced { broker, fenced } => {
                let running = w
                    .node(broker)
                    .and_then(|n| n.broker.as_ref())
                    .map(|b| b.incarnation_id());
                w.active_registration(broker)
                    .filter(|b| running.is_none_or(|i| i == b.record.incarnation_id))
                    .map(|b| b.record.fenced)
                    == Some(fenced)
            }
        }
    }

    /// What the console prints once it holds (`leader 102 epoch 2`, `broker 3 fenced`, ...).
    pub fn describe(&self, w: &World) -> String {
        let leader = || {
            w.leader()
                .map(|(id, e)| format!("leader {id} epoch {e}"))
                .unwrap_or_default()
        };
        match *self {
            Condition::ActiveController => {
                format!("active controller {}", w.active_controller().unwrap_or(-1))
            }
            Condition::Fenced { broker, fenced } => {
                format!(
                    "broker {broker} {}",
                    if fenced { "fenced" } else { "unfenced" }
                )
            }
            _ => leader(),
        }
    }
}

/// A wait the console began: `sleep`/`run DURATION` runs to its end; `run until=` runs until its
/// condition holds (checked after every event) or the timeout passes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wait {
    /// The command line, as typed.
    pub command: String,
    /// Virtual time (ms) when it began.
    pub start_ms: u64,
    /// Virtual time (ms) at which it ends at the latest.
    pub end_ms: u64,
    /// The condition of `run until=`; `None` for a plain duration.
    pub until: Option<Condition>,
    /// The text after `until=`, for the timeout message.
    cond_text: String,
    /// `events_run` when it began.
    start_events: u64,
    /// The most events it may run (`command.max.events`).
    max_events: u64,
}

/// What one command may run at most: `command.max.ms` of virtual time and
/// `command.max.events` events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Virtual ms.
    pub max_ms: u64,
    /// Events.
    pub max_events: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_ms: super::settings::DEFAULT_COMMAND_MAX_MS,
            max_events: super::settings::DEFAULT_COMMAND_MAX_EVENTS,
        }
    }
}

impl Budget {
    /// `Err` when `ms` of virtual time is more than one command may run.
    pub fn check_ms(&self, what: &str, ms: u64) -> Result<u64, String> {
        if ms > self.max_ms {
            return Err(format!(
                "{what}: {} is longer than one command may run ({}; `set command.max.ms=...` allows more, or split it)",
                duration_text(ms),
                duration_text(self.max_ms)
            ));
        }
        Ok(ms)
    }

    /// The error of a command stopped by its event budget.
    pub fn exhausted(&self, what: &str, world: &World) -> String {
        out_of_events(what, world, self.max_events)
    }
}

/// The error of a command `what` stopped after `max_events` events.
pub fn out_of_events(what: &str, world: &World, max_events: u64) -> String {
    format!(
        "{what}: stopped at {} of virtual time after {max_events} events, the most one command may run (`set command.max.events=...` allows more); the cluster may be livelocked",
        human_ms(world.now_ms())
    )
}

/// The default `timeout=` of `run until=`.
pub const DEFAULT_UNTIL_TIMEOUT_MS: u64 = 30_000;

impl Wait {
    /// The wait `words` (a `sleep` or `run` command) asks for, begun now; `Ok(None)` when the
    /// command is not a wait.
    pub fn parse(
        line: &str,
        words: &[String],
        world: &World,
        budget: Budget,
    ) -> Result<Option<Wait>, String> {
        let Some(cmd @ ("sleep" | "run")) = words.first().map(String::as_str) else {
            return Ok(None);
        };
        let args = &words[1..];
        let start_ms = world.now_ms();
        let wait = |end_ms: u64, until: Option<Condition>, cond_text: &str| Wait {
            command: line.to_string(),
            start_ms,
            end_ms,
            until,
            cond_text: cond_text.to_string(),
            start_events: world.events_run(),
            max_events: budget.max_events,
        };
        if let Some(cond) = args.iter().find_map(|a| a.strip_prefix("until=")) {
            if let Some(bad) = args
                .iter()
                .find(|a| !a.starts_with("until=") && !a.starts_with("timeout="))
            {
                return Err(format!(
                    "run: unexpected '{bad}' (run until=CONDITION [timeout=DURATION])"
                ));
            }
            let timeout = args
                .iter()
                .find_map(|a| a.strip_prefix("timeout="))
                .map(parse_duration_ms)
                .transpose()?
                .unwrap_or(DEFAULT_UNTIL_TIMEOUT_MS.min(budget.max_ms));
            let timeout = budget.check_ms("run", timeout)?;
            let until = Condition::parse(cond, world)?;
            return Ok(Some(wait(
                start_ms.saturating_add(timeout),
                Some(until),
                cond,
            )));
        }
        let (d, extra) = match args {
            [d] => (d, None),
            [_, extra, ..] => (&args[0], Some(extra)),
            [] => {
                return Err(format!(
                    "usage: {cmd} DURATION (e.g. {cmd} 15s) or run until=leader"
                ))
            }
        };
        if let Some(extra) = extra {
            return Err(format!(
                "{cmd}: unexpected '{extra}' (usage: {cmd} DURATION)"
            ));
        }
        let ms = budget.check_ms(cmd, parse_duration_ms(d)?)?;
        Ok(Some(wait(start_ms.saturating_add(ms), None, "")))
    }

    /// Whether it is over before running anything (`run until=` whose condition holds now).
    pub fn done_at_start(&self, world: &World) -> Option<Result<String, String>> {
        self.until
            .as_ref()
            .filter(|c| c.holds(world))
            .map(|_| Ok(self.outcome(world)))
    }

    /// Runs events up to virtual time `until_ms` (never past the wait's end), checking the
    /// condition after every event; stops early, between two events, as soon as `pause` says so
    /// (the page slowing down for what comes next). `Some` with the command's output once the
    /// wait is over; `None` while it has more to run.
    pub fn advance(
        &self,
        world: &mut World,
        until_ms: u64,
        pause: impl FnMut(&World) -> bool,
    ) -> Option<Result<String, String>> {
        self.advance_capped(world, until_ms, u64::MAX, pause)
    }

    /// [`Wait::advance`] running at most `cap` events this time (a frame's worth of work for
    /// the page); the wait's own budget counts over all the pieces.
    pub fn advance_capped(
        &self,
        world: &mut World,
        until_ms: u64,
        cap: u64,
        pause: impl FnMut(&World) -> bool,
    ) -> Option<Result<String, String>> {
        if let Some(done) = self.done_at_start(world) {
            return Some(done);
        }
        let used = world.events_run().saturating_sub(self.start_events);
        let remaining = self.max_events.saturating_sub(used);
        world.limit_events(Some(remaining.min(cap)));
        let out = self.advance_within_budget(world, until_ms, pause);
        let out = match out {
            None if world.out_of_events() && cap >= remaining => Some(Err(out_of_events(
                self.command.split_whitespace().next().unwrap_or("run"),
                world,
                self.max_events,
            ))),
            out => out,
        };
        world.limit_events(None);
        out
    }

    fn advance_within_budget(
        &self,
        world: &mut World,
        until_ms: u64,
        mut pause: impl FnMut(&World) -> bool,
    ) -> Option<Result<String, String>> {
        let limit = until_ms.min(self.end_ms);
        while let Some(t) = world.next_event_time() {
            if t > limit {
                break;
            }
            world.step();
            if self.until.as_ref().is_some_and(|c| c.holds(world)) {
                return Some(Ok(self.outcome(world)));
            }
            // Cut only between two milliseconds: every event of this one has run.
            if world.next_event_time() != Some(world.now_ms()) && pause(world) {
                return None;
            }
        }
        if world.out_of_events() {
            return None;
        }
        // No event left before `limit`: time moves on to it.
        world.run_for(limit.saturating_sub(world.now_ms()));
        (world.now_ms() >= self.end_ms).then(|| match &self.until {
            None => Ok(String::new()),
            Some(_) => Err(format!(
                "timed out after {} waiting for until={}",
                human_ms(self.end_ms - self.start_ms),
                self.cond_text
            )),
        })
    }

    /// Runs the rest of the wait in one go.
    pub fn finish(&self, world: &mut World) -> Result<String, String> {
        loop {
            if let Some(out) = self.advance(world, u64::MAX, |_| false) {
                return out;
            }
        }
    }

    fn outcome(&self, world: &World) -> String {
        let c = self.until.as_ref().expect("only a `run until=` holds");
        format!(
            "{} after {}",
            c.describe(world),
            human_ms(world.now_ms() - self.start_ms)
        )
    }

    /// The share of the wait done at virtual time `now_ms`, in [0, 1] (a `run until=` may end
    /// before its timeout).
    pub fn progress(&self, now_ms: f64) -> f64 {
        let span = self.end_ms.saturating_sub(self.start_ms).max(1) as f64;
        ((now_ms - self.start_ms as f64) / span).clamp(0.0, 1.0)
    }
}

/// The most events one animation frame runs (a few ms of engine work in the page): a busy
/// cluster is played slower rather than freezing the page.
pub const FRAME_MAX_EVENTS: u64 = 20_000;

/// A wait played frame by frame with adaptive time ([`Pace`]): what the page does with a lesson's
/// `sleep` or `run until=` step, so that the room sees the election or the fencing happen.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedWait {
    /// The wait.
    pub wait: Wait,
    /// Its playing speed.
    pub pace: Pace,
}

impl PlayedWait {
    /// Starts playing `wait` on `world`.
    pub fn new(wait: Wait, world: &World) -> PlayedWait {
        let pace = Pace::for_span(world, wait.end_ms.saturating_sub(wait.start_ms));
        PlayedWait { wait, pace }
    }

    /// Plays one frame of `wall_ms` wall-clock ms; `Some` with the command's output once the wait
    /// is over.
    pub fn frame(&mut self, world: &mut World, wall_ms: f64) -> Option<Result<String, String>> {
        let until = self.pace.frame(world, wall_ms);
        let pace = &self.pace;
        let out = self
            .wait
            .advance_capped(world, until, FRAME_MAX_EVENTS, |w| pace.should_pause(w));
        self.pace.settle(world);
        out
    }

    /// The played clock (virtual ms, with a fraction) the drawing interpolates to.
    pub fn clock_ms(&self) -> f64 {
        self.pace.clock_ms
    }
}
