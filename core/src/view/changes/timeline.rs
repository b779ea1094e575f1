//! What a step of the console's standalone TimelineHashMap (`timeline put|remove|snapshot|
//! commit|revert`, the article's example 3) changed: entries, snapshots made, committed ones
//! dropped, reverts.

use super::kafka;
use super::{Change, ChangeKind};
use crate::view::TimelineView;

/// The changes from `before` (none: an empty map) to `after`.
pub fn timeline_changes(before: Option<&TimelineView>, after: &TimelineView) -> Vec<Change> {
    let empty = TimelineView::default();
    let before = before.unwrap_or(&empty);
    let mut out = Vec::new();
    let change = |by, en: String, ko: String, tag: &str| {
        Change::new(ChangeKind::Registry, Vec::new(), Some(by), en, ko).tagged(tag)
    };
    let reverted = after
        .last_revert
        .as_ref()
        .filter(|r| Some(*r) != before.last_revert.as_ref());
    // What a revert brings back or takes away is the revert's doing, not a put or a remove.
    let (by, put, remove) = match reverted {
        Some(_) => (kafka::TIMELINE_REVERT, "restored", "undone"),
        None => (kafka::TIMELINE_CHANGE, "put", "remove"),
    };
    for (k, v) in &after.current {
        match before.current.iter().find(|(bk, _)| bk == k) {
            Some((_, old)) if old == v => {}
            Some((_, old)) => out.push(change(
                by,
                format!("{put}({k}): {old} → {v}"),
                format!("{put}({k}): {old} → {v}"),
                put,
            )),
            None => out.push(change(
                by,
                format!("{put}({k}, {v})"),
                format!("{put}({k}, {v})"),
                put,
            )),
        }
    }
    for (k, v) in &before.current {
        if !after.current.iter().any(|(ak, _)| ak == k) {
            out.push(change(
                by,
                format!("{remove}({k}) (was {v})"),
                format!("{remove}({k}) ({v} 였음)"),
                remove,
            ));
        }
    }
    for e in after
        .snapshots
        .iter()
        .filter(|e| !before.snapshots.contains(e))
    {
        out.push(change(
            kafka::TIMELINE_SNAPSHOT,
            format!("snapshot {e} created"),
            format!("스냅숏 {e} 생성"),
            "snapshot",
        ));
    }
    let dropped: &[i64] = reverted.map_or(&[], |r| &r.dropped);
    let deleted: Vec<String> = before
        .snapshots
        .iter()
        .filter(|e| !after.snapshots.contains(e) && !dropped.contains(e))
        .map(|e| e.to_string())
        .collect();
    if !deleted.is_empty() {
        let list = deleted.join(", ");
        out.push(change(
            kafka::TIMELINE_DELETE,
            format!("committed: snapshot(s) {list} deleted"),
            format!("커밋: 스냅숏 {list} 삭제"),
            "deleted",
        ));
    }
    if let Some(r) = reverted {
        let list = r
            .dropped
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        out.push(change(
            kafka::TIMELINE_REVERT,
            format!("reverted to snapshot {} (dropped [{list}])", r.to),
            format!("스냅숏 {} 으로 되돌림 ([{list}] 버림)", r.to),
            "revert",
        ));
    }
    out
}
