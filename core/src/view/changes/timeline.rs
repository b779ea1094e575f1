//! What a step of the console's standalone TimelineHashMap (`timeline put|remove|snapshot|
//! delete-up-to|revert`, the article's example 3) changed: entries, snapshots made, committed
//! ones dropped, reverts.

use super::kafka::{self, KafkaRef};
use super::{Change, ChangeKind};
use crate::view::TimelineView;

/// A change of the standalone map (no node).
fn change(by: KafkaRef, en: String, ko: String, tag: &str) -> Change {
    Change::new(ChangeKind::Registry, Vec::new(), Some(by), en, ko).tagged(tag)
}

/// The changes from `before` (none: an empty map) to `after`.
pub fn timeline_changes(before: Option<&TimelineView>, after: &TimelineView) -> Vec<Change> {
    let empty = TimelineView::default();
    let before = before.unwrap_or(&empty);
    let mut out = Vec::new();
    let reverted = after
        .last_revert
        .as_ref()
        .filter(|r| Some(*r) != before.last_revert.as_ref());
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
    entries(before, after, reverted.is_some(), &mut out);
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
    out
}

/// The entries put, changed or removed; after a revert, what it brought back or took away
/// (the revert's doing, not a put or a remove).
fn entries(before: &TimelineView, after: &TimelineView, reverted: bool, out: &mut Vec<Change>) {
    for (k, v) in &after.current {
        let old = before
            .current
            .iter()
            .find(|(bk, _)| bk == k)
            .map(|(_, o)| o);
        if old == Some(v) {
            continue;
        }
        let was = old.map_or(String::new(), |o| format!(" (was {o})"));
        let was_ko = old.map_or(String::new(), |o| format!(" ({o} 였음)"));
        out.push(if reverted {
            change(
                kafka::TIMELINE_REVERT,
                format!("{k} = {v} again{was}"),
                format!("{k} = {v} 로 돌아옴{was_ko}"),
                "restored",
            )
        } else {
            change(
                kafka::TIMELINE_CHANGE,
                format!("put {k} = {v}{was}"),
                format!("put {k} = {v}{was_ko}"),
                "put",
            )
        });
    }
    for (k, v) in &before.current {
        if after.current.iter().any(|(ak, _)| ak == k) {
            continue;
        }
        out.push(if reverted {
            change(
                kafka::TIMELINE_REVERT,
                format!("{k} gone again (was {v})"),
                format!("{k} 가 다시 없어짐 ({v} 였음)"),
                "undone",
            )
        } else {
            change(
                kafka::TIMELINE_CHANGE,
                format!("remove {k} (was {v})"),
                format!("remove {k} ({v} 였음)"),
                "remove",
            )
        });
    }
}
