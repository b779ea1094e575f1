//! [`TimelineHashMap`]: a map whose past states, at each registry snapshot, stay readable.

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::fmt;

use super::registry::{Revertable, SnapshotRegistry, TimelineError};

/// One snapshot's saved values: each key's value as of that snapshot (`None` = absent), for the
/// keys changed while it was the latest snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Tier<K, V> {
    epoch: i64,
    saved: BTreeMap<K, Option<V>>,
}

/// One tier of [`TimelineHashMap::tiers`]: a snapshot epoch and the `(key, value as of that
/// epoch)` pairs it saved, `None` meaning the key was absent.
pub type MapTier<K, V> = (i64, Vec<(K, Option<V>)>);

/// A snapshottable map (Kafka's `TimelineHashMap`), kept in key order for stable iteration.
///
/// Equality compares the current entries *and* the saved history.
#[derive(Clone, Debug)]
pub struct TimelineHashMap<K, V> {
    current: BTreeMap<K, V>,
    /// Sorted by epoch; only snapshots in which something changed have a tier.
    tiers: Vec<Tier<K, V>>,
    /// How many times the current entries changed (a put, a remove, a revert), like
    /// java.util.HashMap's modCount; not part of equality.
    mod_count: u64,
}

impl<K, V> Default for TimelineHashMap<K, V> {
    fn default() -> Self {
        Self {
            current: BTreeMap::new(),
            tiers: Vec::new(),
            mod_count: 0,
        }
    }
}

impl<K: PartialEq, V: PartialEq> PartialEq for TimelineHashMap<K, V> {
    fn eq(&self, other: &Self) -> bool {
        self.current == other.current && self.tiers == other.tiers
    }
}

impl<K: Eq, V: Eq> Eq for TimelineHashMap<K, V> {}

impl<K: std::hash::Hash, V: std::hash::Hash> std::hash::Hash for TimelineHashMap<K, V> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.current.hash(state);
        self.tiers.hash(state);
    }
}

impl<K: Ord + Clone, V: Clone> TimelineHashMap<K, V> {
    /// An empty map with no history.
    pub fn new() -> Self {
        Self::default()
    }

    /// The number of entries now.
    pub fn len(&self) -> usize {
        self.current.len()
    }

    /// Whether the map is empty now.
    pub fn is_empty(&self) -> bool {
        self.current.is_empty()
    }

    /// Whether `key` is present now.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.current.contains_key(key)
    }

    /// The current value for `key`.
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.current.get(key)
    }

    /// The value for `key` as of snapshot `epoch`; an error if `epoch` is not a snapshot.
    pub fn get_at<Q>(
        &self,
        registry: &SnapshotRegistry,
        key: &Q,
        epoch: i64,
    ) -> Result<Option<&V>, TimelineError>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        registry.check_snapshot(epoch)?;
        for tier in self.tiers_from(epoch) {
            if let Some(saved) = tier.saved.get(key) {
                return Ok(saved.as_ref());
            }
        }
        Ok(self.current.get(key))
    }

    /// Whether `key` was present as of snapshot `epoch`.
    pub fn contains_key_at<Q>(
        &self,
        registry: &SnapshotRegistry,
        key: &Q,
        epoch: i64,
    ) -> Result<bool, TimelineError>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.get_at(registry, key, epoch).map(|v| v.is_some())
    }

    /// Sets `key` to `value`, returning the old value; saves the old value (or its absence) into
    /// the latest snapshot's tier if that tier doesn't hold `key` yet.
    pub fn put(&mut self, registry: &SnapshotRegistry, key: K, value: V) -> Option<V> {
        self.mod_count += 1;
        let old = self.current.insert(key.clone(), value);
        self.save(registry, key, &old);
        old
    }

    /// Removes `key`, returning its value; like [`put`](Self::put), saves the old value first.
    pub fn remove<Q>(&mut self, registry: &SnapshotRegistry, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let (key, old) = self.current.remove_entry(key)?;
        self.mod_count += 1;
        let old = Some(old);
        self.save(registry, key, &old);
        old
    }

    /// How many times the current entries changed: a put, a remove or a revert. Equal counts
    /// of one map mean equal current entries.
    pub fn mod_count(&self) -> u64 {
        self.mod_count
    }

    /// Current entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> + '_ {
        self.current.iter()
    }

    /// Current keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &K> + '_ {
        self.current.keys()
    }

    /// Current values in key order.
    pub fn values(&self) -> impl Iterator<Item = &V> + '_ {
        self.current.values()
    }

    /// The entries as of snapshot `epoch`, in key order; an error if `epoch` is not a snapshot.
    pub fn iter_at(
        &self,
        registry: &SnapshotRegistry,
        epoch: i64,
    ) -> Result<impl Iterator<Item = (&K, &V)> + '_, TimelineError> {
        registry.check_snapshot(epoch)?;
        let mut saved: BTreeMap<&K, Option<&V>> = BTreeMap::new();
        for tier in self.tiers_from(epoch) {
            for (k, v) in &tier.saved {
                saved.entry(k).or_insert(v.as_ref());
            }
        }
        let mut view: BTreeMap<&K, &V> = self
            .current
            .iter()
            .filter(|(k, _)| !saved.contains_key(k))
            .collect();
        view.extend(saved.into_iter().filter_map(|(k, v)| Some((k, v?))));
        Ok(view.into_iter())
    }

    /// The number of entries as of snapshot `epoch`.
    pub fn len_at(&self, registry: &SnapshotRegistry, epoch: i64) -> Result<usize, TimelineError> {
        self.iter_at(registry, epoch).map(Iterator::count)
    }

    /// Each snapshot tier's saved values, oldest tier first: `(epoch, [(key, value as of epoch)])`,
    /// `None` meaning the key was absent. Snapshots in which nothing changed have no tier.
    pub fn tiers(&self) -> Vec<MapTier<K, V>> {
        self.tiers
            .iter()
            .map(|t| {
                let saved = t
                    .saved
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                (t.epoch, saved)
            })
            .collect()
    }

    /// Tiers at or after `epoch`, oldest first.
    fn tiers_from(&self, epoch: i64) -> impl Iterator<Item = &Tier<K, V>> + '_ {
        let start = self.tiers.partition_point(|t| t.epoch < epoch);
        self.tiers[start..].iter()
    }

    /// Copy-on-write: records `old` as `key`'s value at the latest snapshot, once per tier.
    fn save(&mut self, registry: &SnapshotRegistry, key: K, old: &Option<V>) {
        let Some(latest) = registry.latest_epoch() else {
            return;
        };
        let index = match self.tiers.binary_search_by_key(&latest, |t| t.epoch) {
            Ok(i) => i,
            Err(i) => {
                let tier = Tier {
                    epoch: latest,
                    saved: BTreeMap::new(),
                };
                self.tiers.insert(i, tier);
                i
            }
        };
        self.tiers[index]
            .saved
            .entry(key)
            .or_insert_with(|| old.clone());
    }
}

impl<K: Ord + Clone, V: Clone> Revertable for TimelineHashMap<K, V> {
    fn revert_to_snapshot(&mut self, epoch: i64) {
        self.mod_count += 1;
        let start = self.tiers.partition_point(|t| t.epoch < epoch);
        let mut restore: BTreeMap<K, Option<V>> = BTreeMap::new();
        for tier in self.tiers.drain(start..) {
            for (k, v) in tier.saved {
                restore.entry(k).or_insert(v);
            }
        }
        for (k, v) in restore {
            match v {
                Some(v) => self.current.insert(k, v),
                None => self.current.remove(&k),
            };
        }
    }

    fn delete_snapshot(&mut self, epoch: i64, previous: Option<i64>) {
        let Ok(index) = self.tiers.binary_search_by_key(&epoch, |t| t.epoch) else {
            return;
        };
        let tier = self.tiers.remove(index);
        let Some(previous) = previous else {
            return;
        };
        match self.tiers.binary_search_by_key(&previous, |t| t.epoch) {
            Ok(i) => {
                let into = &mut self.tiers[i].saved;
                for (k, v) in tier.saved {
                    into.entry(k).or_insert(v);
                }
            }
            // Nothing changed between `previous` and `epoch`, so the values saved at `epoch`
            // are also the values at `previous`.
            Err(i) => self.tiers.insert(
                i,
                Tier {
                    epoch: previous,
                    saved: tier.saved,
                },
            ),
        }
    }

    fn delete_snapshots_up_to(&mut self, epoch: i64) {
        self.tiers.retain(|t| t.epoch >= epoch);
    }
}

/// Like Java's `HashMap.toString()`, in key order: `{orders=id-A, payments=id-B}`.
impl<K: fmt::Display, V: fmt::Display> fmt::Display for TimelineHashMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, (k, v)) in self.current.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{k}={v}")?;
        }
        f.write_str("}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Map = TimelineHashMap<&'static str, i32>;

    fn at(m: &Map, r: &SnapshotRegistry, k: &str, e: i64) -> Option<i32> {
        m.get_at(r, k, e).unwrap().copied()
    }

    fn entries_at(m: &Map, r: &SnapshotRegistry, e: i64) -> Vec<(&'static str, i32)> {
        m.iter_at(r, e).unwrap().map(|(k, v)| (*k, *v)).collect()
    }

    #[test]
    fn without_snapshots_nothing_is_saved() {
        let r = SnapshotRegistry::new();
        let mut m = Map::new();
        assert_eq!(m.put(&r, "a", 1), None);
        assert_eq!(m.put(&r, "a", 2), Some(1));
        assert_eq!(m.remove(&r, "a"), Some(2));
        assert_eq!(m.remove(&r, "a"), None);
        assert!(m.is_empty());
        assert!(m.tiers().is_empty());
    }

    #[test]
    fn mod_count_counts_changes_and_is_not_part_of_equality() {
        let mut r = SnapshotRegistry::new();
        let mut m = Map::new();
        m.put(&r, "a", 1);
        r.idempotent_create_snapshot(1).unwrap();
        m.put(&r, "a", 2);
        m.remove(&r, "zzz");
        assert_eq!(m.mod_count(), 2, "an absent key's remove changes nothing");
        m.remove(&r, "a");
        r.revert_to_snapshot(1, &mut [&mut m]).unwrap();
        assert_eq!(m.mod_count(), 4);
        let mut fresh = Map::new();
        fresh.put(&SnapshotRegistry::new(), "a", 1);
        assert_ne!(m.mod_count(), fresh.mod_count());
        assert_eq!(m, fresh, "equal entries and history, other counts");
    }

    #[test]
    fn copy_on_write_saves_only_the_first_change_per_tier() {
        let mut r = SnapshotRegistry::new();
        let mut m = Map::new();
        m.put(&r, "a", 1);
        m.put(&r, "b", 1);
        r.idempotent_create_snapshot(5).unwrap();
        assert!(m.tiers().is_empty(), "creating a snapshot copies nothing");
        m.put(&r, "a", 2);
        m.put(&r, "a", 3);
        m.remove(&r, "a");
        m.put(&r, "c", 9);
        m.put(&r, "c", 10);
        assert_eq!(
            m.tiers(),
            vec![(5, vec![("a", Some(1)), ("c", None)])],
            "b untouched, a keeps its value at 5, c was absent at 5"
        );
        // Removing an absent key changes nothing, so it saves nothing.
        m.remove(&r, "zzz");
        assert_eq!(m.tiers()[0].1.len(), 2);
        assert_eq!(at(&m, &r, "a", 5), Some(1));
        assert_eq!(at(&m, &r, "b", 5), Some(1));
        assert_eq!(at(&m, &r, "c", 5), None);
        assert_eq!(m.get("a"), None);
        assert_eq!(m.get("c"), Some(&10));
        assert_eq!(m.len(), 2);
    }

    #[test]
    fn get_at_after_several_snapshots() {
        let mut r = SnapshotRegistry::new();
        let mut m = Map::new();
        m.put(&r, "x", 1);
        r.idempotent_create_snapshot(1).unwrap();
        r.idempotent_create_snapshot(2).unwrap(); // nothing changes during 2
        m.put(&r, "x", 3);
        m.put(&r, "y", 3);
        r.idempotent_create_snapshot(3).unwrap();
        m.remove(&r, "x");
        r.idempotent_create_snapshot(4).unwrap();
        m.put(&r, "x", 5);
        assert_eq!(at(&m, &r, "x", 1), Some(1));
        assert_eq!(at(&m, &r, "x", 2), Some(1));
        assert_eq!(at(&m, &r, "x", 3), Some(3));
        assert_eq!(at(&m, &r, "x", 4), None);
        assert_eq!(m.get("x"), Some(&5));
        assert_eq!(at(&m, &r, "y", 1), None);
        assert_eq!(at(&m, &r, "y", 4), Some(3));
        assert_eq!(entries_at(&m, &r, 1), vec![("x", 1)]);
        assert_eq!(entries_at(&m, &r, 3), vec![("x", 3), ("y", 3)]);
        assert_eq!(entries_at(&m, &r, 4), vec![("y", 3)]);
        assert_eq!(m.len_at(&r, 4).unwrap(), 1);
        assert!(m.contains_key_at(&r, "x", 3).unwrap());
        assert!(!m.contains_key_at(&r, "x", 4).unwrap());
        let tier_epochs: Vec<i64> = m.tiers().iter().map(|t| t.0).collect();
        assert_eq!(tier_epochs, vec![2, 3, 4], "no tier for snapshot 1");
    }

    #[test]
    fn reading_at_a_missing_snapshot_is_an_error() {
        let mut r = SnapshotRegistry::new();
        let mut m = Map::new();
        m.put(&r, "a", 1);
        assert!(m.get_at(&r, "a", 0).is_err());
        r.idempotent_create_snapshot(10).unwrap();
        let err = m.get_at(&r, "a", 11).unwrap_err();
        assert_eq!(
            err.to_string(),
            "No in-memory snapshot for epoch 11. Snapshot epochs are: 10"
        );
        assert!(m.iter_at(&r, 9).is_err());
        assert!(m.len_at(&r, 9).is_err());
    }

    #[test]
    fn delete_merges_into_the_previous_tier_without_overwriting() {
        let mut r = SnapshotRegistry::new();
        let mut m = Map::new();
        m.put(&r, "a", 1);
        m.put(&r, "b", 1);
        r.idempotent_create_snapshot(10).unwrap();
        m.put(&r, "a", 2);
        r.idempotent_create_snapshot(20).unwrap();
        m.put(&r, "a", 3);
        m.put(&r, "b", 3);
        m.put(&r, "c", 3);
        r.idempotent_create_snapshot(30).unwrap();
        m.put(&r, "b", 4);
        r.delete_snapshot(20, &mut [&mut m]).unwrap();
        assert_eq!(r.epochs_list(), vec![10, 30]);
        // Tier 10 kept a=1 and gained b=1 and c=absent; tier 20's a=2 was not merged.
        assert_eq!(
            m.tiers(),
            vec![
                (10, vec![("a", Some(1)), ("b", Some(1)), ("c", None)]),
                (30, vec![("b", Some(3))]),
            ]
        );
        assert_eq!(entries_at(&m, &r, 10), vec![("a", 1), ("b", 1)]);
        assert_eq!(entries_at(&m, &r, 30), vec![("a", 3), ("b", 3), ("c", 3)]);
    }

    #[test]
    fn delete_relabels_into_a_previous_snapshot_without_a_tier() {
        let mut r = SnapshotRegistry::new();
        let mut m = Map::new();
        m.put(&r, "a", 1);
        r.idempotent_create_snapshot(1).unwrap();
        r.idempotent_create_snapshot(2).unwrap();
        m.put(&r, "a", 2);
        assert_eq!(m.tiers(), vec![(2, vec![("a", Some(1))])]);
        r.delete_snapshot(2, &mut [&mut m]).unwrap();
        assert_eq!(m.tiers(), vec![(1, vec![("a", Some(1))])]);
        assert_eq!(at(&m, &r, "a", 1), Some(1));
        // Deleting the oldest snapshot drops its tier.
        r.delete_snapshot(1, &mut [&mut m]).unwrap();
        assert!(m.tiers().is_empty());
        assert_eq!(m.get("a"), Some(&2));
    }

    #[test]
    fn delete_snapshots_up_to_keeps_the_target() {
        let mut r = SnapshotRegistry::new();
        let mut m = Map::new();
        for (e, v) in [(1, 10), (2, 20), (3, 30)] {
            r.idempotent_create_snapshot(e).unwrap();
            m.put(&r, "k", v);
        }
        r.delete_snapshots_up_to(2, &mut [&mut m]);
        assert_eq!(r.epochs_list(), vec![2, 3]);
        assert_eq!(at(&m, &r, "k", 2), Some(10));
        assert_eq!(at(&m, &r, "k", 3), Some(20));
        assert_eq!(m.tiers().len(), 2);
    }

    #[test]
    fn revert_removes_added_keys_and_restores_removed_ones() {
        let mut r = SnapshotRegistry::new();
        let mut m = Map::new();
        m.put(&r, "keep", 1);
        m.put(&r, "gone", 1);
        m.put(&r, "changed", 1);
        r.idempotent_create_snapshot(7).unwrap();
        let before = m.clone();
        m.remove(&r, "gone");
        m.put(&r, "changed", 2);
        m.put(&r, "added", 2);
        r.idempotent_create_snapshot(8).unwrap();
        m.put(&r, "changed", 3);
        m.put(&r, "later", 3);
        m.put(&r, "gone", 3);
        r.idempotent_create_snapshot(9).unwrap();
        m.remove(&r, "keep");
        r.revert_to_snapshot(7, &mut [&mut m]).unwrap();
        assert_eq!(r.epochs_list(), vec![7]);
        assert_eq!(
            m.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(),
            vec![("changed", 1), ("gone", 1), ("keep", 1)]
        );
        assert!(m.tiers().is_empty());
        assert_eq!(
            m, before,
            "history is back to the state right after snapshot 7"
        );
        // The map keeps working: changes after the revert are saved into tier 7 again.
        m.put(&r, "keep", 5);
        assert_eq!(at(&m, &r, "keep", 7), Some(1));
    }

    #[test]
    fn revert_to_a_middle_snapshot_keeps_earlier_history() {
        let mut r = SnapshotRegistry::new();
        let mut m = Map::new();
        m.put(&r, "a", 1);
        r.idempotent_create_snapshot(1).unwrap();
        m.put(&r, "a", 2);
        r.idempotent_create_snapshot(2).unwrap();
        m.put(&r, "a", 3);
        r.idempotent_create_snapshot(3).unwrap();
        m.put(&r, "a", 4);
        r.revert_to_snapshot(2, &mut [&mut m]).unwrap();
        assert_eq!(m.get("a"), Some(&2));
        assert_eq!(at(&m, &r, "a", 1), Some(1));
        assert_eq!(at(&m, &r, "a", 2), Some(2));
        assert_eq!(m.tiers(), vec![(1, vec![("a", Some(1))])]);
    }

    #[test]
    fn display_is_java_like_in_key_order() {
        let r = SnapshotRegistry::new();
        let mut m: TimelineHashMap<String, String> = TimelineHashMap::new();
        assert_eq!(m.to_string(), "{}");
        m.put(&r, "payments".into(), "id-B".into());
        m.put(&r, "orders".into(), "id-A".into());
        assert_eq!(m.to_string(), "{orders=id-A, payments=id-B}");
        assert_eq!(
            m.keys().cloned().collect::<Vec<_>>(),
            ["orders", "payments"]
        );
        assert_eq!(m.values().cloned().collect::<Vec<_>>(), ["id-A", "id-B"]);
        assert!(m.contains_key("orders"));
    }

    /// Random operations against a naive model that stores a full copy per snapshot.
    #[test]
    fn matches_a_full_copy_model_under_random_operations() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move |n: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        };
        let keys = ["a", "b", "c", "d", "e"];
        let mut r = SnapshotRegistry::new();
        let mut m = Map::new();
        let mut model: BTreeMap<&str, i32> = BTreeMap::new();
        let mut copies: Vec<(i64, BTreeMap<&str, i32>)> = Vec::new();
        let mut epoch = 0;
        for step in 0..5_000 {
            let key = keys[next(keys.len() as u64) as usize];
            let pick = |n: u64, len: usize| (n as usize) % len.max(1);
            match next(10) {
                0..=2 => {
                    let v = step;
                    assert_eq!(m.put(&r, key, v), model.insert(key, v));
                }
                3 | 4 => assert_eq!(m.remove(&r, key), model.remove(key)),
                5 | 6 => {
                    epoch += 1 + next(2) as i64;
                    r.idempotent_create_snapshot(epoch).unwrap();
                    copies.push((epoch, model.clone()));
                }
                7 if !copies.is_empty() => {
                    let i = pick(next(100), copies.len());
                    r.delete_snapshot(copies[i].0, &mut [&mut m]).unwrap();
                    copies.remove(i);
                }
                8 if !copies.is_empty() => {
                    let e = copies[pick(next(100), copies.len())].0 + next(2) as i64;
                    r.delete_snapshots_up_to(e, &mut [&mut m]);
                    copies.retain(|(c, _)| *c >= e);
                }
                9 if !copies.is_empty() && next(3) == 0 => {
                    let i = pick(next(100), copies.len());
                    r.revert_to_snapshot(copies[i].0, &mut [&mut m]).unwrap();
                    model = copies[i].1.clone();
                    copies.truncate(i + 1);
                }
                _ => {}
            }
            assert_eq!(
                r.epochs_list(),
                copies.iter().map(|c| c.0).collect::<Vec<_>>()
            );
            let now: BTreeMap<&str, i32> = m.iter().map(|(k, v)| (*k, *v)).collect();
            assert_eq!(now, model, "step {step}");
            for (e, copy) in &copies {
                let view: BTreeMap<&str, i32> =
                    m.iter_at(&r, *e).unwrap().map(|(k, v)| (*k, *v)).collect();
                assert_eq!(&view, copy, "step {step} at {e}");
                for k in keys {
                    assert_eq!(at(&m, &r, k, *e), copy.get(k).copied());
                }
            }
            assert!(
                m.tiers().iter().all(|t| r.has_snapshot(t.0)),
                "tiers follow the registry"
            );
        }
    }
}
