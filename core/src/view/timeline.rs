//! A TimelineHashMap and its SnapshotRegistry as the page's TimelineHashMap panel draws them:
//! the map now, the snapshot epochs, each tier's saved values, the map read as of each
//! snapshot, and the last revert; for the console's `timeline` commands also the history the
//! timeline figure draws (every snapshot created and its fate, the committed offset, the printed
//! lines), and the figure's columns derived from it.

use std::fmt::Display;

use serde::Serialize;

use super::TopicTier;
use crate::timeline::{Revert, SnapshotRegistry, TimelineHashMap};

/// A TimelineHashMap with its registry's snapshots.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TimelineView {
    /// The map's name (`topicsByName`).
    pub name: String,
    /// The map now: (key, value), in key order.
    pub current: Vec<(String, String)>,
    /// The registry's snapshot epochs, oldest first.
    pub snapshots: Vec<i64>,
    /// Snapshots at or below this offset are committed (the controller's lastStableOffset);
    /// `None` when nothing is committed (the standalone map of example 3).
    pub stable_offset: Option<i64>,
    /// Each tier's saved values (the old values copied on the first change after the
    /// snapshot); snapshots in which nothing changed have no tier.
    pub tiers: Vec<TopicTier>,
    /// The map as `get(key, epoch)` reads it at each snapshot: (epoch, entries in key order).
    pub as_of: Vec<(i64, Vec<(String, String)>)>,
    /// The last revert, if there was one.
    pub last_revert: Option<Revert>,
    /// What the console's `timeline` commands did so far, for the timeline figure; empty for
    /// the live controller's topicsByName (its registry keeps no history).
    pub history: TimelineHistory,
}

impl TimelineView {
    /// The view of `map` under `registry`.
    pub fn of<K, V>(
        name: &str,
        registry: &SnapshotRegistry,
        map: &TimelineHashMap<K, V>,
        stable_offset: Option<i64>,
        last_revert: Option<Revert>,
    ) -> Self
    where
        K: Ord + Clone + Display,
        V: Clone + Display,
    {
        let entries = |it: &mut dyn Iterator<Item = (&K, &V)>| -> Vec<(String, String)> {
            it.map(|(k, v)| (k.to_string(), v.to_string())).collect()
        };
        TimelineView {
            name: name.to_string(),
            current: entries(&mut map.iter()),
            snapshots: registry.epochs_list(),
            stable_offset,
            tiers: map
                .tiers()
                .into_iter()
                .map(|(e, saved)| {
                    let saved = saved
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), v.map(|v| v.to_string())))
                        .collect();
                    (e, saved)
                })
                .collect(),
            as_of: registry
                .epochs()
                .iter()
                .filter_map(|&e| Some((e, entries(&mut map.iter_at(registry, e).ok()?))))
                .collect(),
            last_revert,
            history: TimelineHistory::default(),
        }
    }

    /// The view with `history` attached.
    pub fn with_history(mut self, history: TimelineHistory) -> Self {
        self.history = history;
        self
    }

    /// Whether there is nothing to draw: no entries, snapshots, saved values, revert or
    /// history.
    pub fn is_empty(&self) -> bool {
        self.current.is_empty()
            && self.snapshots.is_empty()
            && self.tiers.is_empty()
            && self.last_revert.is_none()
            && self.history.is_empty()
    }
}

/// The most snapshot columns and printed lines a [`TimelineHistory`] keeps (the oldest go).
pub const HISTORY_MAX: usize = 64;

/// Entries a revert changed, as it left them: (key, value; `None` = absent), in key order.
pub type Restored = Vec<(String, Option<String>)>;

/// What became of a snapshot the console's `timeline` commands created.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SnapshotFate {
    /// Deleted by `deleteSnapshotsUpTo(up_to)`: what a commit through `up_to` does.
    Deleted {
        /// The offset committed through.
        up_to: i64,
    },
    /// Dropped by `revertToSnapshot(to)`: what losing leadership does.
    Reverted {
        /// The snapshot reverted to.
        to: i64,
    },
}

/// One snapshot as a `timeline snapshot` created it, and what became of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SnapshotColumn {
    /// The snapshot's epoch (an offset).
    pub epoch: i64,
    /// The map when the snapshot was created: (key, value), in key order.
    pub values: Vec<(String, String)>,
    /// The number of the command that created it (see [`TimelineHistory::commands`]).
    pub created: u32,
    /// What removed it, with that command's number; `None` while it lives.
    pub fate: Option<(SnapshotFate, u32)>,
}

/// A line `timeline print` or `timeline get` printed, with that command's number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PrintedLine {
    /// The line as printed.
    pub text: String,
    /// The number of the command that printed it.
    pub command: u32,
}

/// Read-only bookkeeping of the console's `timeline` commands, for the timeline figure: it
/// changes nothing the commands do. Commands are numbered 1, 2, ... as they succeed, so that
/// the figure can light what the last one did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TimelineHistory {
    /// How many `timeline` commands succeeded: the last one's number.
    pub commands: u32,
    /// Every snapshot created, oldest first (the newest [`HISTORY_MAX`]).
    pub columns: Vec<SnapshotColumn>,
    /// The committed offset, as example 3 tells it: the first snapshot stands for the one
    /// `activate()` creates at the last committed offset; `delete-up-to N` commits through N
    /// (OffsetControlManager's handleCommitBatch calls deleteSnapshotsUpTo(lastStableOffset));
    /// a revert to N leaves N committed (`deactivate()` reverts to lastStableOffset).
    pub committed: Option<i64>,
    /// The lines `print` and `get` printed, oldest first (the newest [`HISTORY_MAX`]).
    pub lines: Vec<PrintedLine>,
    /// The key the last `put` or `remove` changed, with that command's number.
    pub changed: Option<(String, u32)>,
    /// The entries the last revert changed, as they were after it (`None`: absent), with that
    /// command's number.
    pub restored: Option<(Restored, u32)>,
}

impl TimelineHistory {
    /// Whether no command left anything to draw.
    pub fn is_empty(&self) -> bool {
        self.columns.is_empty() && self.lines.is_empty()
    }

    /// Counts one more successful command and gives its number.
    pub fn next_command(&mut self) -> u32 {
        self.commands = self.commands.saturating_add(1);
        self.commands
    }

    /// Command `at` put or removed `key`.
    pub fn changed(&mut self, key: &str, at: u32) {
        self.changed = Some((key.to_string(), at));
    }

    /// Command `at` created snapshot `epoch` of a map holding `values`; the first snapshot
    /// also sets the committed offset.
    pub fn snapshot(&mut self, epoch: i64, values: Vec<(String, String)>, at: u32) {
        self.committed.get_or_insert(epoch);
        self.columns.push(SnapshotColumn {
            epoch,
            values,
            created: at,
            fate: None,
        });
        let excess = self.columns.len().saturating_sub(HISTORY_MAX);
        self.columns.drain(..excess);
    }

    /// Command `at` removed the snapshots `gone` with `fate`: each is the newest live column
    /// of that epoch. A delete commits through its offset, a revert leaves its offset committed.
    pub fn removed(&mut self, gone: &[i64], fate: SnapshotFate, at: u32) {
        for &epoch in gone {
            if let Some(c) = self
                .columns
                .iter_mut()
                .rev()
                .find(|c| c.epoch == epoch && c.fate.is_none())
            {
                c.fate = Some((fate, at));
            }
        }
        self.committed = Some(match fate {
            SnapshotFate::Deleted { up_to } => self.committed.map_or(up_to, |c| c.max(up_to)),
            SnapshotFate::Reverted { to } => to,
        });
    }

    /// Command `at`, a revert, changed the map from `before` to `after` (entries in key order).
    pub fn reverted(&mut self, before: &[(String, String)], after: &[(String, String)], at: u32) {
        let find = |m: &[(String, String)], k: &str| {
            m.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone())
        };
        let mut keys: Vec<&String> = before.iter().chain(after).map(|(k, _)| k).collect();
        keys.sort();
        keys.dedup();
        let changed = keys
            .into_iter()
            .filter(|k| find(before, k) != find(after, k))
            .map(|k| (k.clone(), find(after, k)))
            .collect();
        self.restored = Some((changed, at));
    }

    /// Command `at` printed `text`.
    pub fn printed(&mut self, text: &str, at: u32) {
        self.lines.push(PrintedLine {
            text: text.to_string(),
            command: at,
        });
        let excess = self.lines.len().saturating_sub(HISTORY_MAX);
        self.lines.drain(..excess);
    }
}

/// How the timeline figure colours a column, as the article's figure of example 3 does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ColumnState {
    /// Committed (green): at or below the committed offset.
    Committed,
    /// Applied but not committed (yellow).
    Applied,
    /// Deleted by deleteSnapshotsUpTo, what a commit does (blue, struck through).
    Deleted,
    /// Dropped by revertToSnapshot, what losing leadership does (red, struck through).
    Reverted,
}

impl ColumnState {
    /// `committed`, `applied`, `deleted` or `reverted`.
    pub fn name(self) -> &'static str {
        match self {
            ColumnState::Committed => "committed",
            ColumnState::Applied => "applied",
            ColumnState::Deleted => "deleted",
            ColumnState::Reverted => "reverted",
        }
    }
}

/// One column of the timeline figure: a snapshot, or the map now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FigureColumn {
    /// The snapshot's epoch; `None` for the map now.
    pub epoch: Option<i64>,
    /// How it is coloured.
    pub state: ColumnState,
    /// The map as of it, in key order; `None` when unknown (a snapshot the live controller's
    /// revert dropped).
    pub values: Option<Vec<(String, String)>>,
    /// The keys whose old value this snapshot's tier holds (live snapshots only).
    pub saved: Vec<String>,
    /// The offset of the deleteSnapshotsUpTo or revertToSnapshot that struck it out.
    pub struck_by: Option<i64>,
    /// Whether the last `timeline` command created or struck it (for now: changed the map).
    pub lit: bool,
}

impl TimelineView {
    /// The offset the figure colours by: the history's committed offset, else lastStableOffset.
    pub fn committed(&self) -> Option<i64> {
        self.history.committed.or(self.stable_offset)
    }

    /// The figure's columns, oldest first, then now: every snapshot the `timeline` commands
    /// created, or (without history, the live controller) the registry's snapshots and those
    /// the last revert dropped.
    pub fn figure_columns(&self) -> Vec<FigureColumn> {
        let committed = self.committed();
        let live_state = |e: i64| match committed {
            Some(c) if e <= c => ColumnState::Committed,
            _ => ColumnState::Applied,
        };
        let saved = |e: i64| -> Vec<String> {
            self.tiers
                .iter()
                .filter(|(t, _)| *t == e)
                .flat_map(|(_, s)| s.iter().map(|(k, _)| k.clone()))
                .collect()
        };
        let h = &self.history;
        let mut columns: Vec<FigureColumn> = if h.columns.is_empty() {
            self.registry_columns(&live_state, &saved)
        } else {
            h.columns
                .iter()
                .map(|c| {
                    let (state, struck_by) = match c.fate {
                        None => (live_state(c.epoch), None),
                        Some((SnapshotFate::Deleted { up_to }, _)) => {
                            (ColumnState::Deleted, Some(up_to))
                        }
                        Some((SnapshotFate::Reverted { to }, _)) => {
                            (ColumnState::Reverted, Some(to))
                        }
                    };
                    let lit = match c.fate {
                        Some((_, at)) => at == h.commands,
                        None => c.created == h.commands,
                    };
                    FigureColumn {
                        epoch: Some(c.epoch),
                        state,
                        values: Some(c.values.clone()),
                        saved: if c.fate.is_none() {
                            saved(c.epoch)
                        } else {
                            Vec::new()
                        },
                        struck_by,
                        lit,
                    }
                })
                .collect()
        };
        columns.push(self.now_column(&columns));
        columns
    }

    /// Without history: the registry's live snapshots and the last revert's dropped ones, by
    /// epoch (a dropped one before a live one of the same epoch).
    fn registry_columns(
        &self,
        live_state: &dyn Fn(i64) -> ColumnState,
        saved: &dyn Fn(i64) -> Vec<String>,
    ) -> Vec<FigureColumn> {
        let dropped = self.last_revert.iter().flat_map(|r| {
            r.dropped.iter().map(|&e| FigureColumn {
                epoch: Some(e),
                state: ColumnState::Reverted,
                values: None,
                saved: Vec::new(),
                struck_by: Some(r.to),
                lit: false,
            })
        });
        let live = self.as_of.iter().map(|(e, values)| FigureColumn {
            epoch: Some(*e),
            state: live_state(*e),
            values: Some(values.clone()),
            saved: saved(*e),
            struck_by: None,
            lit: false,
        });
        let mut columns: Vec<FigureColumn> = dropped.chain(live).collect();
        columns.sort_by_key(|c| (c.epoch, c.state != ColumnState::Reverted));
        columns
    }

    /// The map now: committed when nothing past the committed offset is applied (no live
    /// snapshot above it, and the map as its newest live snapshot has it), else applied.
    fn now_column(&self, columns: &[FigureColumn]) -> FigureColumn {
        let live: Vec<&FigureColumn> = columns
            .iter()
            .filter(|c| matches!(c.state, ColumnState::Committed | ColumnState::Applied))
            .collect();
        let h = &self.history;
        let unsnapshotted = !h.columns.is_empty()
            && live
                .last()
                .is_some_and(|c| c.values.as_deref() != Some(&self.current[..]));
        let committed = self.committed().is_some()
            && !unsnapshotted
            && live.iter().all(|c| c.state == ColumnState::Committed);
        let lit = h.commands > 0
            && (h.changed.as_ref().is_some_and(|(_, at)| *at == h.commands)
                || h.restored.as_ref().is_some_and(|(_, at)| *at == h.commands));
        FigureColumn {
            epoch: None,
            state: if committed {
                ColumnState::Committed
            } else {
                ColumnState::Applied
            },
            values: Some(self.current.clone()),
            saved: Vec::new(),
            struck_by: None,
            lit,
        }
    }

    /// The figure's rows: every key of any column, in key order.
    pub fn figure_keys(columns: &[FigureColumn]) -> Vec<String> {
        let mut keys: Vec<String> = columns
            .iter()
            .flat_map(|c| c.values.iter().flatten().map(|(k, _)| k.clone()))
            .collect();
        keys.sort();
        keys.dedup();
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The article's example 3, read through the view.
    #[test]
    fn example_3_through_the_view() {
        let mut r = SnapshotRegistry::new();
        let mut m: TimelineHashMap<String, String> = TimelineHashMap::new();
        m.put(&r, "orders".into(), "id-A".into());
        r.idempotent_create_snapshot(10).unwrap();
        m.put(&r, "payments".into(), "id-B".into());
        r.idempotent_create_snapshot(11).unwrap();
        m.remove(&r, "orders");
        r.idempotent_create_snapshot(12).unwrap();
        let v = TimelineView::of("topicsByName", &r, &m, None, None);
        let kv = |k: &str, v: &str| (k.to_string(), v.to_string());
        assert_eq!(v.current, [kv("payments", "id-B")]);
        assert_eq!(v.snapshots, [10, 11, 12]);
        assert_eq!(
            v.as_of,
            [
                (10, vec![kv("orders", "id-A")]),
                (11, vec![kv("orders", "id-A"), kv("payments", "id-B")]),
                (12, vec![kv("payments", "id-B")]),
            ]
        );
        assert_eq!(
            v.tiers,
            [
                (10, vec![("payments".to_string(), None)]),
                (11, vec![("orders".to_string(), Some("id-A".to_string()))]),
            ]
        );
        let dropped = r.revert_to_snapshot(11, &mut [&mut m]).unwrap();
        assert_eq!(dropped, [12]);
        let revert = Revert { to: 11, dropped };
        let v = TimelineView::of("topicsByName", &r, &m, None, Some(revert.clone()));
        assert_eq!(v.current, [kv("orders", "id-A"), kv("payments", "id-B")]);
        // Snapshots before 11 stay; only the later ones go.
        assert_eq!(v.snapshots, [10, 11]);
        assert_eq!(v.last_revert, Some(revert));
        assert!(!v.is_empty());
        let empty = TimelineView::of::<String, String>(
            "m",
            &SnapshotRegistry::new(),
            &TimelineHashMap::new(),
            None,
            None,
        );
        assert!(empty.is_empty());
    }
}
