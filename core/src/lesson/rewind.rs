//! Rewind for the page's time controls: everything done to a [`Console`] is an [`Input`]; a
//! bounded set of checkpoints (clones of the console) plus deterministic replay of the inputs
//! after one rebuilds the state at any earlier event count.
//!
//! Memory stays bounded: at most [`Rewind::max_checkpoints`] clones are kept; when full, every
//! other checkpoint is dropped and the spacing doubles, so old history gets coarser (replay from
//! a farther checkpoint) instead of growing.

use super::Console;

/// One thing done to the console.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A console command line (`kill -9 101`, `sleep 5s`, a Kafka tool ...).
    Exec(String),
    /// Run this many engine events.
    Step(u64),
    /// Advance virtual time by this many ms.
    RunFor(u64),
    /// Write this many records to a data partition (`orders-0`) through
    /// [`super::test_records::produce_test_records`].
    Produce(String, usize),
}

/// An input and the event counts around it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Applied {
    input: Input,
    events_before: u64,
    events_after: u64,
}

/// The history of a console with checkpoints to rewind by.
#[derive(Clone, Debug)]
pub struct Rewind {
    /// Every input since the start, in order.
    history: Vec<Applied>,
    /// (number of inputs applied, console after them), oldest first; the first is the start.
    checkpoints: Vec<(usize, Console)>,
    /// Most checkpoints kept (at least 2).
    pub max_checkpoints: usize,
    /// Events between two checkpoints (doubles when the set is thinned).
    pub every_events: u64,
    /// The history as it was before the latest rewinds, while nothing new was recorded since:
    /// what going forward again replays ("redo"). Recording a new input drops it.
    redo: Option<Vec<Applied>>,
}

fn events(c: &Console) -> u64 {
    c.world.as_ref().map(|w| w.events_run()).unwrap_or(0)
}

impl Rewind {
    /// Start a history at `console` (checkpoint 0), keeping at most `max_checkpoints` clones
    /// taken every `every_events` events.
    pub fn new(console: &Console, max_checkpoints: usize, every_events: u64) -> Self {
        Rewind {
            history: Vec::new(),
            checkpoints: vec![(0, console.clone())],
            max_checkpoints: max_checkpoints.max(2),
            every_events: every_events.max(1),
            redo: None,
        }
    }

    /// The event count going forward can reach again after a rewind (the end of the history
    /// before it), or `None` when nothing was rewound or something new was done since.
    pub fn redo_end_events(&self) -> Option<u64> {
        self.redo
            .as_ref()
            .and_then(|h| h.last())
            .map(|a| a.events_after)
    }

    /// Event count of the oldest state reachable (the start).
    pub fn first_events(&self) -> u64 {
        events(&self.checkpoints[0].1)
    }

    /// Checkpoints held now.
    pub fn checkpoint_count(&self) -> usize {
        self.checkpoints.len()
    }

    /// Inputs recorded.
    pub fn len(&self) -> usize {
        self.history.len()
    }

    /// Whether nothing was recorded yet.
    pub fn is_empty(&self) -> bool {
        self.history.is_empty()
    }

    /// Apply `input` to `console` and record it; returns what a command printed.
    pub fn apply(&mut self, console: &mut Console, input: Input) -> Result<String, String> {
        let events_before = events(console);
        let result = run(console, &input);
        self.record(console, input, events_before);
        result
    }

    /// Record `input`, which was already applied to `console` (that had run `events_before`
    /// events before it), taking a checkpoint when due.
    pub fn record(&mut self, console: &Console, input: Input, events_before: u64) {
        // A new branch: what was rewound away cannot be gone forward to any more.
        self.redo = None;
        self.history.push(Applied {
            input,
            events_before,
            events_after: events(console),
        });
        let (_, last) = self.checkpoints.last().expect("checkpoint 0");
        if events(console) >= events(last) + self.every_events {
            self.checkpoints.push((self.history.len(), console.clone()));
            if self.checkpoints.len() > self.max_checkpoints {
                self.thin();
            }
        }
    }

    /// The inputs recorded, in order.
    pub fn inputs(&self) -> impl Iterator<Item = &Input> {
        self.history.iter().map(|a| &a.input)
    }

    /// Keep the first checkpoint and every other one after it; double the spacing.
    fn thin(&mut self) {
        let kept: Vec<(usize, Console)> = std::mem::take(&mut self.checkpoints)
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, c)| c)
            .collect();
        self.checkpoints = kept;
        self.every_events = self.every_events.saturating_mul(2);
    }

    /// The console as it was after the first `inputs` inputs (clamped to the history); the
    /// later history is dropped (a new action continues from there). "Step back" is
    /// `rewind_to_input(len() - 1)`.
    pub fn rewind_to_input(&mut self, inputs: usize) -> Result<Console, String> {
        self.redo = None;
        self.restore(inputs.min(self.history.len()), 0)
    }

    /// The console as it was after `target` events (clamped to the recorded range), for a
    /// time slider. Inputs that run no events (a `kill`, a tool) are kept up to the target, so
    /// among the states with the same event count this is the latest; an input spanning the
    /// target is replayed as single steps up to it. The later history is kept for going
    /// forward again ([`Rewind::redo_end_events`]): a target past the present, up to that end,
    /// replays it, until a new input is recorded.
    pub fn rewind_to_events(&mut self, target: u64) -> Result<Console, String> {
        // The whole history of this branch: the checkpoints still held all lie in the part
        // it shares with the present (nothing was recorded since the last rewind).
        let full = self.redo.take().unwrap_or_else(|| self.history.clone());
        self.history = full.clone();
        let console = self.rewind_within(target)?;
        if full
            .last()
            .is_some_and(|a| a.events_after > events(&console) || self.history.len() < full.len())
        {
            self.redo = Some(full);
        }
        Ok(console)
    }

    /// One event forward along the rewound history, on `console` (the state this rewind
    /// gave): when the next input only runs events, the event is run right there instead of
    /// restoring a checkpoint and replaying; otherwise as [`Rewind::rewind_to_events`] one
    /// event on. Gives whether there was anything to go forward to.
    pub fn forward_one(&mut self, console: &mut Console) -> Result<bool, String> {
        let Some(full) = self.redo.take() else {
            return Ok(false);
        };
        let now = events(console);
        // The input that runs the next event; the inputs before it are in the present.
        let Some(i) = full.iter().position(|a| a.events_after > now) else {
            return Ok(false);
        };
        let next = &full[i];
        let in_place = match next.input {
            // Steps are single events; the next ones of a Step are the same run in place.
            Input::Step(_) => true,
            // A RunFor also moves the clock to its end when it completes, and a command may
            // do more than run events (send a request, print): in place only strictly inside
            // them, where a rewind replays single steps too.
            Input::RunFor(_) | Input::Exec(_) | Input::Produce(..) => now + 1 < next.events_after,
        };
        if !in_place || next.events_before > now || self.history.len() < i {
            self.redo = Some(full);
            *console = self.rewind_to_events(now + 1)?;
            return Ok(true);
        }
        let w = console.world.as_mut().ok_or("no cluster yet")?;
        if !w.step() {
            self.redo = Some(full);
            return Ok(false);
        }
        let after = now + 1;
        self.history.truncate(i);
        if after < next.events_after {
            self.history.push(Applied {
                input: Input::Step(after - next.events_before),
                events_before: next.events_before,
                events_after: after,
            });
        } else {
            // The input is done; so are the inputs right after it that run no event (a kill
            // at that instant), as a rewind to this count would have them.
            self.history.push(next.clone());
            for a in full[i + 1..]
                .iter()
                .take_while(|a| a.events_before == after && a.events_after == after)
            {
                let _ = run(console, &a.input);
                self.history.push(a.clone());
            }
        }
        if self.history.len() < full.len() {
            self.redo = Some(full);
        }
        Ok(true)
    }

    fn rewind_within(&mut self, target: u64) -> Result<Console, String> {
        let target = target.max(self.first_events());
        let whole = self
            .history
            .iter()
            .take_while(|a| a.events_after <= target)
            .count();
        let base = if whole == 0 {
            self.first_events()
        } else {
            self.history[whole - 1].events_after
        };
        let spans = self
            .history
            .get(whole)
            .is_some_and(|a| a.events_before < target);
        self.restore(whole, if spans { target - base } else { 0 })
    }

    /// Restore the last checkpoint at or before input `kept`, replay the inputs up to `kept`,
    /// then run `extra_steps` single events (recorded as one `Step`).
    fn restore(&mut self, kept: usize, extra_steps: u64) -> Result<Console, String> {
        let ci = self
            .checkpoints
            .iter()
            .rposition(|(applied, _)| *applied <= kept)
            .unwrap_or(0);
        let (applied, base) = self.checkpoints[ci].clone();
        let mut console = base;
        for a in &self.history[applied..kept] {
            // Replayed whole: commands do and print the same things again, deterministically.
            let _ = run(&mut console, &a.input);
        }
        self.history.truncate(kept);
        self.checkpoints.truncate(ci + 1);
        if extra_steps > 0 {
            let before = events(&console);
            let _ = run(&mut console, &Input::Step(extra_steps));
            self.history.push(Applied {
                input: Input::Step(extra_steps),
                events_before: before,
                events_after: events(&console),
            });
        }
        Ok(console)
    }
}

fn run(console: &mut Console, input: &Input) -> Result<String, String> {
    match input {
        Input::Exec(line) => console.exec(line),
        Input::Step(n) => {
            let w = console.world.as_mut().ok_or("no cluster yet")?;
            for _ in 0..*n {
                if !w.step() {
                    break;
                }
            }
            Ok(String::new())
        }
        Input::RunFor(ms) => {
            let w = console.world.as_mut().ok_or("no cluster yet")?;
            w.run_for(*ms);
            Ok(String::new())
        }
        Input::Produce(name, count) => {
            let w = console.world.as_mut().ok_or("no cluster yet")?;
            super::test_records::produce_test_records(w, name, *count).map(|o| o.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fingerprint(c: &Console) -> String {
        let w = c.world.as_ref().unwrap();
        format!("{:?}", w.view())
    }

    #[test]
    fn rewinding_gives_the_state_that_stepping_gave_with_bounded_checkpoints() {
        let mut c = Console::new();
        c.exec("cluster controllers=101,102,103 brokers=1 seed=7")
            .unwrap();
        let mut r = Rewind::new(&c, 3, 20);
        // Record the state after every input, by event count.
        let mut seen: Vec<(u64, String)> = vec![(events(&c), fingerprint(&c))];
        let inputs = [
            Input::RunFor(2_000),
            Input::Step(7),
            Input::Exec("kill -9 101".into()),
            Input::RunFor(3_000),
            Input::Exec("start 101".into()),
            Input::Step(40),
            Input::RunFor(4_000),
        ];
        for i in inputs {
            r.apply(&mut c, i).unwrap();
            seen.push((events(&c), fingerprint(&c)));
        }
        assert!(r.checkpoint_count() <= 3, "{}", r.checkpoint_count());
        assert!(r.every_events > 20, "thinned at least once");
        // Back to each recorded position, newest first.
        for (k, (ev, fp)) in seen.iter().enumerate().rev() {
            let back = r.clone().rewind_to_input(k).unwrap();
            assert_eq!(events(&back), *ev);
            assert_eq!(&fingerprint(&back), fp, "state after {k} inputs");
        }
        // By event count: the latest state with that count (after the kill, which runs none).
        let (after_kill, fp_kill) = seen[3].clone();
        assert_eq!(seen[2].0, after_kill, "kill runs no event");
        assert_eq!(
            fingerprint(&r.clone().rewind_to_events(after_kill).unwrap()),
            fp_kill
        );
        // Mid-input: 5 events into the 40-step input equals stepping there directly.
        let (at_start_40, _) = seen[5];
        let mut direct = r.clone().rewind_to_input(5).unwrap();
        for _ in 0..5 {
            direct.world.as_mut().unwrap().step();
        }
        let mid = r.clone().rewind_to_events(at_start_40 + 5).unwrap();
        assert_eq!(fingerprint(&mid), fingerprint(&direct));
        // After a rewind the later history is gone and new inputs continue from there.
        let (ev3, fp3) = seen[3].clone();
        let mut c3 = r.rewind_to_input(3).unwrap();
        assert_eq!(fingerprint(&c3), fp3);
        assert_eq!(r.len(), 3);
        r.apply(&mut c3, Input::Step(1)).unwrap();
        assert_eq!(events(&c3), ev3 + 1);
        assert_eq!(
            r.rewind_to_events(u64::MAX).map(|c| events(&c)).unwrap(),
            ev3 + 1
        );
    }

    /// After rewinding by event count, going forward again replays what was rewound away
    /// (commands included), one event or many at a time, to the same states; a new input
    /// starts a new branch and forgets it.
    #[test]
    fn going_forward_after_a_rewind_replays_what_was_rewound_away() {
        let mut c = Console::new();
        c.exec("cluster controllers=101,102,103 brokers=1 seed=3")
            .unwrap();
        let mut r = Rewind::new(&c, 4, 25);
        let mut seen: Vec<(u64, String)> = Vec::new();
        for i in [
            Input::RunFor(1_500),
            Input::Step(30),
            Input::Exec("kill -9 102".into()),
            Input::Step(25),
            Input::Exec("run 1s".into()),
            Input::RunFor(2_500),
        ] {
            r.apply(&mut c, i).unwrap();
            seen.push((events(&c), fingerprint(&c)));
        }
        let end = events(&c);
        assert_eq!(r.redo_end_events(), None, "nothing rewound yet");
        let (before_kill, _) = seen[1];
        let back = r.rewind_to_events(before_kill - 10).unwrap();
        assert_eq!(events(&back), before_kill - 10);
        assert_eq!(r.redo_end_events(), Some(end));
        // Forward one event at a time across the kill: the states stepping gave.
        let mut now = events(&back);
        while now < seen[3].0 {
            let fwd = r.rewind_to_events(now + 1).unwrap();
            now = events(&fwd);
            // Of the states with that count the latest (after the kill, which runs none).
            if let Some((_, fp)) = seen.iter().rev().find(|(e, _)| *e == now) {
                assert!(&fingerprint(&fwd) == fp, "forward to {now}");
            }
        }
        assert_eq!(now, seen[3].0);
        // The same one event at a time in place (no checkpoint restored while the next input
        // only runs events), across the kill again.
        let mut inplace = r.rewind_to_events(seen[0].0 - 5).unwrap();
        while events(&inplace) < seen[4].0 {
            assert!(r.forward_one(&mut inplace).unwrap());
            let now = events(&inplace);
            if let Some((_, fp)) = seen.iter().rev().find(|(e, _)| *e == now) {
                assert!(&fingerprint(&inplace) == fp, "in place to {now}");
            }
            // Each state is the one a rewind to that count gives.
            let replayed = r.clone().rewind_to_events(now).unwrap();
            assert!(
                fingerprint(&replayed) == fingerprint(&inplace),
                "in place and replayed differ at {now}"
            );
        }
        // Forward to the end: the last state, and nothing left to redo.
        let last = r.rewind_to_events(u64::MAX).unwrap();
        assert!(fingerprint(&last) == seen[5].1, "forward to the end");
        assert_eq!(r.redo_end_events(), None);
        // Back again, then a new input: the rewound part is forgotten.
        let mut mid = r.rewind_to_events(before_kill).unwrap();
        assert_eq!(r.redo_end_events(), Some(end));
        r.apply(&mut mid, Input::Step(1)).unwrap();
        assert_eq!(r.redo_end_events(), None);
        assert_eq!(
            events(&r.rewind_to_events(u64::MAX).unwrap()),
            before_kill + 1
        );
    }
}
