//! The `timeline` command: a standalone SnapshotRegistry and TimelineHashMap (the article's
//! example 3), and the view of it the page's panel and timeline figure draw. Besides running
//! the command, each success is noted in a read-only history (snapshots created and their fate,
//! the committed offset, the lines printed) that only the view reads.

use super::{Call, Console};
use crate::timeline::Revert;
use crate::view::timeline::SnapshotFate;
use crate::view::TimelineView;

const USAGE: &str = "usage: timeline put K V | remove K | snapshot N | get K... at=N | delete-up-to N | revert N | print LABEL";

/// The offset argument `a`.
fn offset(a: Option<&String>) -> Result<i64, String> {
    let a = a.ok_or("timeline: missing offset")?;
    a.parse()
        .map_err(|_| format!("timeline: '{a}' is not an offset"))
}

impl Console {
    /// The `timeline` commands' map for the page's panel and figure; `None` until one of them
    /// changed it or printed something.
    pub fn timeline_view(&self) -> Option<TimelineView> {
        let (registry, map) = &self.timeline;
        let v = TimelineView::of(
            "TimelineHashMap<String, String>",
            registry,
            map,
            None,
            self.timeline_last_revert.clone(),
        )
        .with_history(self.timeline_history.clone());
        (!v.is_empty()).then_some(v)
    }

    /// The map now, as (key, value) in key order.
    fn timeline_entries(&self) -> Vec<(String, String)> {
        self.timeline
            .1
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// `timeline put K V | remove K | snapshot N | get K... at=N | delete-up-to N | revert N |
    /// print LABEL`: drive a TimelineHashMap<String, String> as example 3's Timeline.java does.
    pub(super) fn timeline(&mut self, call: &Call) -> Result<String, String> {
        let args = call.args;
        let out = match args.first().map(|s| s.as_str()) {
            Some("put") => self.timeline_put(args)?,
            Some("remove") => self.timeline_remove(args)?,
            Some("snapshot") => self.timeline_snapshot(offset(args.get(1))?)?,
            Some("delete-up-to") => self.timeline_delete_up_to(offset(args.get(1))?),
            Some("revert") => self.timeline_revert(offset(args.get(1))?)?,
            Some("get") => self.timeline_get(args)?,
            Some("print") => self.timeline_print(&args[1..].join(" ")),
            _ => return Err(USAGE.into()),
        };
        Ok(out)
    }

    fn timeline_put(&mut self, args: &[String]) -> Result<String, String> {
        let [_, k, v] = args else {
            return Err(USAGE.into());
        };
        let (registry, map) = &mut self.timeline;
        map.put(registry, k.clone(), v.clone());
        let at = self.timeline_history.next_command();
        self.timeline_history.changed(k, at);
        Ok(String::new())
    }

    fn timeline_remove(&mut self, args: &[String]) -> Result<String, String> {
        let [_, k] = args else {
            return Err(USAGE.into());
        };
        let (registry, map) = &mut self.timeline;
        map.remove(registry, k.as_str());
        let at = self.timeline_history.next_command();
        self.timeline_history.changed(k, at);
        Ok(String::new())
    }

    fn timeline_snapshot(&mut self, n: i64) -> Result<String, String> {
        let registry = &mut self.timeline.0;
        let existed = registry.latest_epoch() == Some(n);
        registry
            .idempotent_create_snapshot(n)
            .map_err(|e| e.to_string())?;
        let at = self.timeline_history.next_command();
        if !existed {
            let values = self.timeline_entries();
            self.timeline_history.snapshot(n, values, at);
        }
        Ok(String::new())
    }

    fn timeline_delete_up_to(&mut self, n: i64) -> String {
        let (registry, map) = &mut self.timeline;
        let before = registry.epochs_list();
        registry.delete_snapshots_up_to(n, &mut [map]);
        let gone: Vec<i64> = before
            .into_iter()
            .filter(|e| !registry.has_snapshot(*e))
            .collect();
        let at = self.timeline_history.next_command();
        self.timeline_history
            .removed(&gone, SnapshotFate::Deleted { up_to: n }, at);
        String::new()
    }

    fn timeline_revert(&mut self, n: i64) -> Result<String, String> {
        let before = self.timeline_entries();
        let (registry, map) = &mut self.timeline;
        let dropped = registry
            .revert_to_snapshot(n, &mut [map])
            .map_err(|e| e.to_string())?;
        let at = self.timeline_history.next_command();
        self.timeline_history
            .removed(&dropped, SnapshotFate::Reverted { to: n }, at);
        let after = self.timeline_entries();
        self.timeline_history.reverted(&before, &after, at);
        self.timeline_last_revert = Some(Revert { to: n, dropped });
        Ok(String::new())
    }

    fn timeline_get(&mut self, args: &[String]) -> Result<String, String> {
        let at = args
            .iter()
            .find_map(|a| a.strip_prefix("at="))
            .ok_or("timeline get needs at=OFFSET")?;
        let at: i64 = at
            .parse()
            .map_err(|_| format!("timeline: '{at}' is not an offset"))?;
        let (registry, map) = &self.timeline;
        let mut parts = Vec::new();
        for k in args[1..].iter().filter(|a| !a.starts_with("at=")) {
            let v = map
                .get_at(registry, k.as_str(), at)
                .map_err(|e| e.to_string())?;
            parts.push(format!(
                "{k}={}",
                v.cloned().unwrap_or_else(|| "null".into())
            ));
        }
        let line = format!(" as of {at}: {}", parts.join(" "));
        let n = self.timeline_history.next_command();
        self.timeline_history.printed(&line, n);
        Ok(line)
    }

    fn timeline_print(&mut self, label: &str) -> String {
        let (registry, map) = &self.timeline;
        let epochs: Vec<String> = registry
            .epochs_list()
            .iter()
            .map(|e| e.to_string())
            .collect();
        let line = format!("{label} current={map} snapshots=[{}]", epochs.join(", "));
        let n = self.timeline_history.next_command();
        self.timeline_history.printed(&line, n);
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::timeline::ColumnState;

    /// Lesson 03's commands (the article's example 3), in order.
    const LESSON_03: [&str; 12] = [
        "timeline put orders id-A",
        "timeline snapshot 10",
        "timeline print committed up to 10",
        "timeline put payments id-B",
        "timeline snapshot 11",
        "timeline remove orders",
        "timeline snapshot 12",
        "timeline print applied 11, 12 (not committed)",
        "timeline get orders payments at=10",
        "timeline get orders payments at=11",
        "timeline delete-up-to 11",
        "timeline print committed up to 11",
    ];

    fn run(c: &mut Console, lines: &[&str]) {
        for l in lines {
            c.exec(l).unwrap();
        }
    }

    fn states(v: &TimelineView) -> Vec<(Option<i64>, &'static str, bool)> {
        v.figure_columns()
            .iter()
            .map(|c| (c.epoch, c.state.name(), c.lit))
            .collect()
    }

    /// Lesson 03 gives columns 10, 11, 12: 10 deleted by delete-up-to 11, 12 dropped by revert
    /// 11, 11 committed, and the six lines example 3 prints.
    #[test]
    fn lesson_03_history() {
        let mut c = Console::new();
        assert!(c.timeline_view().is_none());
        run(&mut c, &LESSON_03[..2]);
        let v = c.timeline_view().unwrap();
        assert_eq!(v.history.committed, Some(10));
        assert_eq!(
            states(&v),
            [(Some(10), "committed", true), (None, "committed", false)]
        );
        run(&mut c, &LESSON_03[2..8]);
        let v = c.timeline_view().unwrap();
        assert_eq!(
            states(&v),
            [
                (Some(10), "committed", false),
                (Some(11), "applied", false),
                (Some(12), "applied", false),
                (None, "applied", false),
            ]
        );
        let cols = v.figure_columns();
        assert_eq!(cols[0].saved, ["payments"]);
        assert_eq!(cols[1].saved, ["orders"]);
        run(&mut c, &LESSON_03[8..11]);
        let v = c.timeline_view().unwrap();
        assert_eq!(v.history.committed, Some(11));
        assert_eq!(
            states(&v),
            [
                (Some(10), "deleted", true),
                (Some(11), "committed", false),
                (Some(12), "applied", false),
                (None, "applied", false),
            ]
        );
        run(&mut c, &LESSON_03[11..]);
        c.exec("timeline revert 11").unwrap();
        c.exec("timeline print lost leadership, reverted to 11")
            .unwrap();
        let v = c.timeline_view().unwrap();
        let h = &v.history;
        let epochs: Vec<i64> = h.columns.iter().map(|c| c.epoch).collect();
        assert_eq!(epochs, [10, 11, 12]);
        assert_eq!(
            h.columns[0].fate.map(|f| f.0),
            Some(SnapshotFate::Deleted { up_to: 11 })
        );
        assert_eq!(h.columns[1].fate, None);
        assert_eq!(
            h.columns[2].fate.map(|f| f.0),
            Some(SnapshotFate::Reverted { to: 11 })
        );
        assert_eq!(h.committed, Some(11));
        assert_eq!(
            h.restored.as_ref().map(|r| r.0.clone()),
            Some(vec![("orders".to_string(), Some("id-A".to_string()))])
        );
        let lines: Vec<&str> = h.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            lines,
            [
                "committed up to 10 current={orders=id-A} snapshots=[10]",
                "applied 11, 12 (not committed) current={payments=id-B} snapshots=[10, 11, 12]",
                " as of 10: orders=id-A payments=null",
                " as of 11: orders=id-A payments=id-B",
                "committed up to 11 current={payments=id-B} snapshots=[11, 12]",
                "lost leadership, reverted to 11 current={orders=id-A, payments=id-B} snapshots=[11]",
            ]
        );
        // Only the last line is the last command's; the revert's columns were the one before.
        let lit: Vec<bool> = h.lines.iter().map(|l| l.command == h.commands).collect();
        assert_eq!(lit, [false, false, false, false, false, true]);
        assert_eq!(
            states(&v),
            [
                (Some(10), "deleted", false),
                (Some(11), "committed", false),
                (Some(12), "reverted", false),
                (None, "committed", false),
            ]
        );
        let cols = v.figure_columns();
        assert_eq!(cols[2].struck_by, Some(11));
        assert_eq!(cols[0].struck_by, Some(11));
        assert_eq!(
            TimelineView::figure_keys(&cols),
            ["orders".to_string(), "payments".to_string()]
        );
    }

    /// The revert step itself lights the dropped column and the value that came back; failed
    /// commands, and a snapshot that already exists, add nothing.
    #[test]
    fn the_revert_lights_and_errors_change_nothing() {
        let mut c = Console::new();
        run(&mut c, &LESSON_03);
        let before = c.timeline_view().unwrap().history;
        assert!(c.exec("timeline revert 99").is_err());
        assert!(c.exec("timeline snapshot 5").is_err());
        assert!(c.exec("timeline get orders at=7").is_err());
        assert!(c.exec("timeline put x").is_err());
        assert_eq!(c.timeline_view().unwrap().history, before);
        c.exec("timeline snapshot 12").unwrap();
        assert_eq!(c.timeline_view().unwrap().history.columns, before.columns);
        c.exec("timeline revert 11").unwrap();
        let v = c.timeline_view().unwrap();
        let cols = v.figure_columns();
        let lit: Vec<(Option<i64>, ColumnState)> = cols
            .iter()
            .filter(|c| c.lit)
            .map(|c| (c.epoch, c.state))
            .collect();
        assert_eq!(
            lit,
            [
                (Some(12), ColumnState::Reverted),
                (None, ColumnState::Committed)
            ]
        );
    }

    /// The live controller's view has no history: its columns are the registry's snapshots,
    /// committed up to lastStableOffset, and the last revert's dropped ones.
    #[test]
    fn without_history_the_registry_gives_the_columns() {
        let mut c = Console::new();
        run(&mut c, &LESSON_03[..8]);
        let (registry, map) = &c.timeline;
        let revert = Revert {
            to: 9,
            dropped: vec![9, 10],
        };
        let v = TimelineView::of("topicsByName", registry, map, Some(11), Some(revert));
        assert!(v.history.is_empty());
        let got: Vec<(Option<i64>, &str, bool)> = states(&v);
        assert_eq!(
            got,
            [
                (Some(9), "reverted", false),
                (Some(10), "reverted", false),
                (Some(10), "committed", false),
                (Some(11), "committed", false),
                (Some(12), "applied", false),
                (None, "applied", false),
            ]
        );
        assert_eq!(v.figure_columns()[0].values, None);
    }
}
