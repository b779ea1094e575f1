//! The commands that look at the cluster: `status`, `invariants`, `mark`, `transitions`,
//! `records`, `record-types`, `controller` and `expect`.

use super::{key_values, Call, Console};
use crate::common::clock::log4j_timestamp;
use crate::lesson::quiz::Fact;
use std::collections::BTreeMap;

impl Console {
    /// `status`: every node's role, state, epoch, leader, LEO and HW.
    pub(super) fn status(&mut self, _call: &Call) -> Result<String, String> {
        Ok(crate::view::status::status_table(self.world()?)
            .trim_end()
            .to_string())
    }

    /// `invariants`: one line per invariant, `ok` while it holds, else `FAIL` with its first
    /// violation (event count, virtual time, nodes, what), as the monitor `cluster` installed
    /// saw it after every event; then the rules switched off, if any.
    pub(super) fn invariants(&mut self, _call: &Call) -> Result<String, String> {
        let world = self.world()?;
        let monitor = crate::invariants::InvariantMonitor::of(world)
            .ok_or("invariants: this cluster runs without the invariant monitor")?;
        let mut out = crate::invariants::status_text(monitor.statuses());
        let off = world.rules().off();
        if !off.is_empty() {
            let names: Vec<&str> = off.iter().map(|r| r.name()).collect();
            out.push_str(&format!("\nrules off: {}", names.join(", ")));
        }
        Ok(out)
    }

    /// `mark NAME`: remember the virtual time now, for `transitions after=` and `records since=`.
    pub(super) fn mark(&mut self, call: &Call) -> Result<String, String> {
        let name = call.args.first().ok_or("usage: mark NAME")?.clone();
        let now = self.world()?.now_ms();
        self.marks.insert(name, now);
        Ok(String::new())
    }

    /// `transitions N [after=MARK]`: N's Raft transitions (`from -> to epoch=E`), since MARK.
    pub(super) fn transitions(&mut self, call: &Call) -> Result<String, String> {
        let args = call.args;
        let id_text = args
            .first()
            .ok_or("usage: transitions NODE [after=MARK]")?
            .clone();
        let id = self.node_id(&id_text)?;
        let after = match args.get(1).and_then(|a| a.strip_prefix("after=")) {
            Some(m) => *self
                .marks
                .get(m)
                .ok_or_else(|| format!("no mark '{m}' (set one with `mark {m}`)"))?,
            None => 0,
        };
        let w = self.world()?;
        let node = w.node(id).expect("checked");
        let mut out = Vec::new();
        for l in node.log.lines().filter(|l| l.time_ms >= after) {
            let Some(rest) = l.message.strip_prefix("Completed transition to ") else {
                continue;
            };
            let to = rest.split('(').next().unwrap_or("");
            let from = rest
                .rsplit_once(" from ")
                .map(|(_, f)| f.split('(').next().unwrap_or(f))
                .unwrap_or("");
            let epoch = rest
                .split("epoch=")
                .nth(1)
                .and_then(|e| e.split([',', ')']).next())
                .unwrap_or("?");
            out.push(format!(
                "{} {from} -> {to} epoch={epoch}",
                &log4j_timestamp(l.time_ms)[11..]
            ));
        }
        Ok(out.join("\n"))
    }

    /// `records NODE [since=MARK] [all] [control]`: the metadata records in NODE's log as
    /// `offset N {json}` (NoOpRecords left out unless `all`; the control records, LeaderChange,
    /// KRaftVersion and KRaftVoters, only with `control`), written at or after MARK.
    pub(super) fn records(&mut self, call: &Call) -> Result<String, String> {
        let args = call.args;
        let usage = "usage: records NODE [since=MARK] [all] [control]";
        let id_text = args.first().ok_or(usage)?.clone();
        let id = self.node_id(&id_text)?;
        let mut since = 0;
        let mut all = false;
        let mut control = false;
        for a in &args[1..] {
            if let Some(m) = a.strip_prefix("since=") {
                since = *self
                    .marks
                    .get(m)
                    .ok_or_else(|| format!("no mark '{m}' (set one with `mark {m}`)"))?;
            } else if a == "all" {
                all = true;
            } else if a == "control" {
                control = true;
            } else {
                return Err(format!(
                    "records: unknown argument '{a}' (since=MARK, all, control)"
                ));
            }
        }
        let w = self.world()?;
        let log = &w.node(id).expect("checked").disk.metadata_log;
        let mut out = Vec::new();
        for b in log
            .batches()
            .iter()
            .filter(|b| (control || !b.is_control) && b.create_time_ms >= since)
        {
            for (i, r) in b.records.iter().enumerate() {
                let offset = b.base_offset + i as i64;
                match r {
                    crate::raft::batch::Record::Metadata(m) => {
                        if all || m.type_name() != "NO_OP_RECORD" {
                            out.push(format!("offset {offset} {}", m.to_json()));
                        }
                    }
                    // LeaderChange, KRaftVersion, KRaftVoters as kafka-dump-log prints them.
                    r => out.push(format!("offset {offset}{}", r.dump_suffix())),
                }
            }
        }
        Ok(out.join("\n"))
    }

    /// `controller NODE`: a QuorumController's offsets, SnapshotRegistry, purgatory and
    /// topicsByName (what the page's controller panel shows).
    pub(super) fn controller(&mut self, call: &Call) -> Result<String, String> {
        let args = call.args;
        let id_text = args.first().ok_or("usage: controller NODE")?.clone();
        let id = self.node_id(&id_text)?;
        let w = self.world()?;
        let n = w.node(id).expect("checked");
        let c = n
            .controller
            .as_ref()
            .ok_or_else(|| format!("node {id} runs no QuorumController ({})", n.process.name()))?;
        let oc = &c.offset_control;
        let role = match c.active_epoch() {
            Some(e) => format!("active in epoch {e}"),
            None => "standby".to_string(),
        };
        let epochs: Vec<String> = oc
            .snapshot_registry
            .epochs_list()
            .iter()
            .map(|e| e.to_string())
            .collect();
        let purgatory: Vec<String> = c
            .purgatory
            .iter()
            .map(|(o, p)| format!("{}@{o}", p.name))
            .collect();
        Ok(format!(
            "QuorumController {id}: {role}\nlastCommittedOffset={} lastStableOffset={} nextWriteOffset={}\nsnapshots=[{}]\npurgatory=[{}]\ntopicsByName={}",
            oc.last_committed_offset,
            oc.last_stable_offset,
            oc.next_write_offset,
            epochs.join(", "),
            purgatory.join(", "),
            c.state.replication.topics_by_name
        ))
    }

    /// `record-types NODE`: how many records of each type NODE's log holds, most first, as
    /// `grep -o '"type":"[A-Z_]*"' | sort | uniq -c | sort -rn` prints them.
    pub(super) fn record_types(&mut self, call: &Call) -> Result<String, String> {
        let args = call.args;
        let id_text = args.first().ok_or("usage: record-types NODE")?.clone();
        let id = self.node_id(&id_text)?;
        let w = self.world()?;
        let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
        for b in w.node(id).expect("checked").disk.metadata_log.batches() {
            for r in &b.records {
                if let crate::raft::batch::Record::Metadata(m) = r {
                    *counts.entry(m.type_name()).or_default() += 1;
                }
            }
        }
        let mut rows: Vec<(usize, &str)> = counts.into_iter().map(|(t, n)| (n, t)).collect();
        rows.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(a.1)));
        Ok(rows
            .iter()
            .map(|(n, t)| format!("{n:>7} \"type\":\"{t}\""))
            .collect::<Vec<_>>()
            .join("\n"))
    }

    /// `expect leader=102 epoch=2 active=102 state(103)=Follower fenced(1)=no`: check facts
    /// (the quiz's [`Fact`]s but `hw-moves`).
    pub(super) fn expect(&mut self, call: &Call) -> Result<String, String> {
        let args = call.args;
        let w = self.world()?;
        for (k, v) in key_values(args)? {
            let fact = Fact::parse(&k).map_err(|e| format!("expect: {e}"))?;
            if fact == Fact::HwMoves {
                return Err("expect: hw-moves compares two moments; it is a quiz fact".into());
            }
            if let Some(id) = fact.node().filter(|id| w.node(*id).is_none()) {
                return Err(format!("expect: no node {id}"));
            }
            let actual = fact.read(Some(w), None);
            if actual != v {
                return Err(format!("expected {k}={v}, but {k}={actual}"));
            }
        }
        Ok(String::new())
    }
}
