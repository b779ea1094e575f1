//! The fault commands: `kill`, `start`, `slow`, `partition`, `heal` and `drop`.

use super::{key_values, Call, Console, MAX_SLOW_MS};
use crate::sim::args::{parse_duration_ms, parse_ids};
use crate::sim::network::DropRule;

impl Console {
    /// `kill -9|-STOP|-CONT|-TERM N`: kill, freeze, thaw or cleanly stop a node.
    pub(super) fn kill(&mut self, call: &Call) -> Result<String, String> {
        let (sig, id) = match call.args {
            [sig, id] => (sig.as_str(), id),
            _ => return Err("usage: kill -9|-STOP|-CONT|-TERM NODE".into()),
        };
        let id = self.node_id(id)?;
        let w = self.world()?;
        match sig {
            "-9" | "-KILL" => w.kill(id),
            "-STOP" | "-19" => w.stop(id),
            "-CONT" | "-18" => w.cont(id),
            "-TERM" | "-15" => w.terminate(id),
            other => {
                return Err(format!(
                    "kill: unknown signal '{other}' (use -9, -STOP, -CONT or -TERM)"
                ))
            }
        }
        .map_err(|e| e.to_string())?;
        Ok(String::new())
    }

    /// `start N`: start a killed node again.
    pub(super) fn start(&mut self, call: &Call) -> Result<String, String> {
        let id = call.args.first().ok_or("usage: start NODE")?.clone();
        let id = self.node_id(&id)?;
        self.world()?.restart(id).map_err(|e| e.to_string())?;
        Ok(String::new())
    }

    /// `slow N 3s`: the node's event loop stalls for a while (at most [`MAX_SLOW_MS`]).
    pub(super) fn slow(&mut self, call: &Call) -> Result<String, String> {
        let (id, d) = match call.args {
            [id, d] => (id.clone(), d.clone()),
            _ => return Err("usage: slow NODE DURATION (e.g. slow 101 3s)".into()),
        };
        let id = self.node_id(&id)?;
        let ms = parse_duration_ms(&d)?;
        if ms > MAX_SLOW_MS {
            return Err(format!(
                "slow: at most {} (for a longer pause: kill -STOP, later kill -CONT)",
                crate::common::clock::duration_text(MAX_SLOW_MS)
            ));
        }
        self.world()?.slow(id, ms).map_err(|e| e.to_string())?;
        Ok(String::new())
    }

    /// `partition 101 | 102,103`: cut the network into groups. The cuts add to earlier ones (as
    /// the node menu's "cut off" buttons do); the output says so when there were any.
    pub(super) fn partition(&mut self, call: &Call) -> Result<String, String> {
        let text = call.args.join(" ");
        let groups: Vec<Vec<i32>> = text
            .split('|')
            .map(|g| parse_ids(&g.split_whitespace().collect::<Vec<_>>().join(",")))
            .collect::<Result<_, _>>()?;
        if groups.len() < 2 || groups.iter().any(|g| g.is_empty()) {
            return Err("usage: partition 101 | 102,103 (groups separated by |)".into());
        }
        for g in &groups {
            for id in g {
                self.node_id(&id.to_string())?;
            }
        }
        let w = self.world()?;
        let earlier = w.network().blocked.len();
        w.partition(&groups).map_err(|e| e.to_string())?;
        Ok(if earlier == 0 {
            String::new()
        } else {
            format!(
                "the earlier cuts stay: {} one-way links are cut now (`heal` mends them all)",
                w.network().blocked.len()
            )
        })
    }

    /// `heal`: mend every partition and drop rule.
    pub(super) fn heal(&mut self, _call: &Call) -> Result<String, String> {
        self.world()?.heal();
        Ok(String::new())
    }

    /// `drop from=N to=N kind=FetchRequest` (a rule) or `drop rate=0.1` (every link): lose
    /// messages.
    pub(super) fn drop_messages(&mut self, call: &Call) -> Result<String, String> {
        let args = call.args;
        let mut rule = DropRule {
            from: None,
            to: None,
            kind: None,
        };
        let mut rate = None;
        if args.is_empty() {
            return Err("usage: drop from=N to=N kind=FetchRequest (at least one of them) | drop rate=0.1 (0 to 1) | heal".into());
        }
        for (k, v) in key_values(args)? {
            match k.as_str() {
                "from" => rule.from = Some(self.node_id(&v)?),
                "to" => rule.to = Some(self.node_id(&v)?),
                "kind" => rule.kind = Some(DropRule::check_kind(&v)?),
                "rate" => {
                    let r = v
                        .parse::<f64>()
                        .ok()
                        .filter(|r| (0.0..=1.0).contains(r))
                        .ok_or_else(|| {
                            format!("drop: rate '{v}' is not a probability from 0 to 1")
                        })?;
                    rate = Some(r)
                }
                other => {
                    return Err(format!(
                        "drop: unknown key '{other}' (from, to, kind, rate)"
                    ))
                }
            }
        }
        let has_rule = rule.from.is_some() || rule.to.is_some() || rule.kind.is_some();
        if rate.is_some() && has_rule {
            return Err("drop: rate= applies to every link; give it alone".into());
        }
        let w = self.world()?;
        match rate {
            Some(r) => w.set_drop_rate(r),
            None => w.add_drop_rule(rule),
        }
        Ok(String::new())
    }
}
