//! [`TimelineHashSet`]: a set whose past states, at each registry snapshot, stay readable.

use std::borrow::Borrow;
use std::fmt;

use super::map::TimelineHashMap;
use super::registry::{Revertable, SnapshotRegistry, TimelineError};

/// A snapshottable set (Kafka's `TimelineHashSet`), kept in order for stable iteration.
///
/// Equality compares the current elements *and* the saved history.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimelineHashSet<K> {
    map: TimelineHashMap<K, ()>,
}

impl<K> Default for TimelineHashSet<K> {
    fn default() -> Self {
        Self {
            map: TimelineHashMap::default(),
        }
    }
}

impl<K: Ord + Clone> TimelineHashSet<K> {
    /// An empty set with no history.
    pub fn new() -> Self {
        Self::default()
    }

    /// The number of elements now.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the set is empty now.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Whether `key` is in the set now.
    pub fn contains<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.map.contains_key(key)
    }

    /// Whether `key` was in the set as of snapshot `epoch`; an error if `epoch` is not a snapshot.
    pub fn contains_at<Q>(
        &self,
        registry: &SnapshotRegistry,
        key: &Q,
        epoch: i64,
    ) -> Result<bool, TimelineError>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.map.contains_key_at(registry, key, epoch)
    }

    /// Adds `key`; returns whether it was absent. Adding a present key changes nothing.
    pub fn add(&mut self, registry: &SnapshotRegistry, key: K) -> bool {
        if self.map.contains_key(&key) {
            return false;
        }
        self.map.put(registry, key, ());
        true
    }

    /// Removes `key`; returns whether it was present.
    pub fn remove<Q>(&mut self, registry: &SnapshotRegistry, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.map.remove(registry, key).is_some()
    }

    /// Current elements in order.
    pub fn iter(&self) -> impl Iterator<Item = &K> + '_ {
        self.map.keys()
    }

    /// The elements as of snapshot `epoch`, in order; an error if `epoch` is not a snapshot.
    pub fn iter_at(
        &self,
        registry: &SnapshotRegistry,
        epoch: i64,
    ) -> Result<impl Iterator<Item = &K> + '_, TimelineError> {
        Ok(self.map.iter_at(registry, epoch)?.map(|(k, _)| k))
    }

    /// The number of elements as of snapshot `epoch`.
    pub fn len_at(&self, registry: &SnapshotRegistry, epoch: i64) -> Result<usize, TimelineError> {
        self.map.len_at(registry, epoch)
    }

    /// Each snapshot tier's saved membership, oldest tier first: `(epoch, [(key, was present)])`.
    pub fn tiers(&self) -> Vec<(i64, Vec<(K, bool)>)> {
        self.map
            .tiers()
            .into_iter()
            .map(|(e, saved)| {
                (
                    e,
                    saved.into_iter().map(|(k, v)| (k, v.is_some())).collect(),
                )
            })
            .collect()
    }
}

impl<K: Ord + Clone> Revertable for TimelineHashSet<K> {
    fn revert_to_snapshot(&mut self, epoch: i64) {
        self.map.revert_to_snapshot(epoch);
    }

    fn delete_snapshot(&mut self, epoch: i64, previous: Option<i64>) {
        self.map.delete_snapshot(epoch, previous);
    }

    fn delete_snapshots_up_to(&mut self, epoch: i64) {
        self.map.delete_snapshots_up_to(epoch);
    }
}

/// Like Java's `HashSet.toString()`, in order: `[a, b]`.
impl<K: fmt::Display + Ord + Clone> fmt::Display for TimelineHashSet<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, k) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{k}")?;
        }
        f.write_str("]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_and_remove_save_membership_once_per_tier() {
        let mut r = SnapshotRegistry::new();
        let mut s = TimelineHashSet::new();
        assert!(s.add(&r, 1));
        assert!(!s.add(&r, 1));
        r.idempotent_create_snapshot(10).unwrap();
        assert!(!s.add(&r, 1), "re-adding is not a change");
        assert!(s.tiers().is_empty());
        assert!(s.add(&r, 2));
        assert!(s.remove(&r, &1));
        assert!(!s.remove(&r, &1));
        assert!(s.add(&r, 1));
        assert_eq!(s.tiers(), vec![(10, vec![(1, true), (2, false)])]);
        assert!(s.contains_at(&r, &1, 10).unwrap());
        assert!(!s.contains_at(&r, &2, 10).unwrap());
        assert!(s.contains(&2));
        assert_eq!(s.iter_at(&r, 10).unwrap().copied().collect::<Vec<_>>(), [1]);
        assert_eq!(s.len_at(&r, 10), Ok(1));
        assert_eq!(s.len(), 2);
        assert!(s.contains_at(&r, &1, 11).is_err());
        assert!(s.iter_at(&r, 11).is_err());
    }

    #[test]
    fn set_revert_and_delete() {
        let mut r = SnapshotRegistry::new();
        let mut s: TimelineHashSet<String> = TimelineHashSet::new();
        s.add(&r, "a".into());
        r.idempotent_create_snapshot(1).unwrap();
        s.add(&r, "b".into());
        r.idempotent_create_snapshot(2).unwrap();
        s.remove(&r, "a");
        s.add(&r, "c".into());
        assert_eq!(s.to_string(), "[b, c]");
        r.delete_snapshots_up_to(2, &mut [&mut s]);
        assert_eq!(s.tiers().len(), 1);
        r.revert_to_snapshot(2, &mut [&mut s]).unwrap();
        assert_eq!(s.to_string(), "[a, b]");
        assert_eq!(s.iter().cloned().collect::<Vec<_>>(), ["a", "b"]);
        assert!(s.tiers().is_empty());
        s.remove(&r, "b");
        r.delete_snapshot(2, &mut [&mut s]).unwrap();
        assert!(s.tiers().is_empty());
        assert_eq!(s.len(), 1);
        assert!(!s.is_empty());
    }
}
