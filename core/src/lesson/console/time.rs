//! The commands that let virtual time pass: `step`, `tick`, `sleep` and `run`.

use super::{Call, Console, MAX_STEP_EVENTS};
use crate::lesson::wait::Wait;

impl Console {
    /// `step [N]`: run the next N events, a line for each (at most [`MAX_STEP_EVENTS`]).
    pub(super) fn step(&mut self, call: &Call) -> Result<String, String> {
        let n: u64 = match call.args.first() {
            Some(a) => a
                .parse()
                .map_err(|_| format!("'{a}' is not a number of events"))?,
            None => 1,
        };
        if n > MAX_STEP_EVENTS {
            return Err(format!(
                "step: at most {MAX_STEP_EVENTS} events, one line each (use `sleep` or `run` for more)"
            ));
        }
        let w = self.world()?;
        let mut out = String::new();
        for _ in 0..n {
            match w.step_described() {
                Some(line) => {
                    out.push_str(&line);
                    out.push('\n');
                }
                None => {
                    out.push_str("(nothing scheduled)\n");
                    break;
                }
            }
        }
        Ok(out)
    }

    /// `tick [N]`: run N ticks of `tick.ms` of virtual time and say what ran.
    pub(super) fn tick(&mut self, call: &Call) -> Result<String, String> {
        let n: u64 = match call.args.first() {
            Some(a) => a
                .parse()
                .map_err(|_| format!("'{a}' is not a number of ticks"))?,
            None => 1,
        };
        let ms = self
            .budget()
            .check_ms("tick", n.saturating_mul(self.tick_ms))?;
        let w = self.world()?;
        let (events, delivered) = (w.events_run(), w.network().delivered);
        w.run_for(ms);
        Ok(format!(
            "[{} ms] +{ms} ms: {} events, {} messages delivered\n",
            w.now_ms(),
            w.events_run() - events,
            w.network().delivered - delivered
        ))
    }

    /// `sleep 15s`, `run 2s`, `run until=leader timeout=10s`: a [`Wait`] run in one go.
    pub(super) fn wait(&mut self, call: &Call) -> Result<String, String> {
        let budget = self.budget();
        let w = self.world()?;
        let wait = Wait::parse(call.line, call.words, w, budget)?.expect("sleep and run are waits");
        wait.finish(w)
    }
}
