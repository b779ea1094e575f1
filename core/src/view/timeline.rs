//! A TimelineHashMap and its SnapshotRegistry as the page's TimelineHashMap panel draws them:
//! the map now, the snapshot epochs, each tier's saved values, the map read as of each
//! snapshot, and the last revert.

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
        }
    }

    /// Whether there is nothing to draw: no entries, snapshots, saved values or revert.
    pub fn is_empty(&self) -> bool {
        self.current.is_empty()
            && self.snapshots.is_empty()
            && self.tiers.is_empty()
            && self.last_revert.is_none()
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
