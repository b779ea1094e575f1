//! [`TimelineObject`], a single snapshottable value, and its numeric wrappers
//! [`TimelineInteger`] and [`TimelineLong`].

use std::fmt;

use super::registry::{Revertable, SnapshotRegistry, TimelineError};

/// A snapshottable value (Kafka's `TimelineObject`).
///
/// Equality compares the current value *and* the saved history.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimelineObject<T> {
    value: T,
    /// `(epoch, value as of epoch)`, sorted by epoch; only snapshots with a change have one.
    tiers: Vec<(i64, T)>,
}

impl<T: Default> Default for TimelineObject<T> {
    fn default() -> Self {
        Self::new(T::default())
    }
}

impl<T> TimelineObject<T> {
    /// A value with no history.
    pub fn new(initial: T) -> Self {
        Self {
            value: initial,
            tiers: Vec::new(),
        }
    }

    /// The current value.
    pub fn get(&self) -> &T {
        &self.value
    }

    /// The value as of snapshot `epoch`; an error if `epoch` is not a snapshot.
    pub fn get_at(&self, registry: &SnapshotRegistry, epoch: i64) -> Result<&T, TimelineError> {
        registry.check_snapshot(epoch)?;
        let start = self.tiers.partition_point(|(e, _)| *e < epoch);
        Ok(self.tiers.get(start).map_or(&self.value, |(_, v)| v))
    }

    /// Sets the value; the old one is saved into the latest snapshot's tier unless that tier
    /// already holds one (even when the new value equals the old, as in Kafka).
    pub fn set(&mut self, registry: &SnapshotRegistry, value: T) {
        let old = std::mem::replace(&mut self.value, value);
        if let Some(latest) = registry.latest_epoch() {
            if let Err(i) = self.tiers.binary_search_by_key(&latest, |(e, _)| *e) {
                self.tiers.insert(i, (latest, old));
            }
        }
    }

    /// Each snapshot tier's saved value, oldest first.
    pub fn tiers(&self) -> &[(i64, T)] {
        &self.tiers
    }
}

impl<T> Revertable for TimelineObject<T> {
    fn revert_to_snapshot(&mut self, epoch: i64) {
        let start = self.tiers.partition_point(|(e, _)| *e < epoch);
        if let Some((_, saved)) = self.tiers.drain(start..).next() {
            self.value = saved;
        }
    }

    fn delete_snapshot(&mut self, epoch: i64, previous: Option<i64>) {
        let Ok(index) = self.tiers.binary_search_by_key(&epoch, |(e, _)| *e) else {
            return;
        };
        let (_, saved) = self.tiers.remove(index);
        if let Some(previous) = previous {
            // If `previous` has no tier, nothing changed in between: relabel.
            if let Err(i) = self.tiers.binary_search_by_key(&previous, |(e, _)| *e) {
                self.tiers.insert(i, (previous, saved));
            }
        }
    }

    fn delete_snapshots_up_to(&mut self, epoch: i64) {
        self.tiers.retain(|(e, _)| *e >= epoch);
    }
}

/// Prints the current value.
impl<T: fmt::Display> fmt::Display for TimelineObject<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

macro_rules! timeline_number {
    ($(#[$doc:meta])* $name:ident, $t:ty) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name(TimelineObject<$t>);

        impl $name {
            /// Zero, with no history.
            pub fn new() -> Self {
                Self::default()
            }

            /// The current value.
            pub fn get(&self) -> $t {
                *self.0.get()
            }

            /// The value as of snapshot `epoch`; an error if `epoch` is not a snapshot.
            pub fn get_at(
                &self,
                registry: &SnapshotRegistry,
                epoch: i64,
            ) -> Result<$t, TimelineError> {
                self.0.get_at(registry, epoch).copied()
            }

            /// Sets the value (see [`TimelineObject::set`]).
            pub fn set(&mut self, registry: &SnapshotRegistry, value: $t) {
                self.0.set(registry, value);
            }

            /// Adds one (wrapping on overflow, like Java).
            pub fn increment(&mut self, registry: &SnapshotRegistry) {
                self.set(registry, self.get().wrapping_add(1));
            }

            /// Subtracts one (wrapping on overflow, like Java).
            pub fn decrement(&mut self, registry: &SnapshotRegistry) {
                self.set(registry, self.get().wrapping_sub(1));
            }

            /// Each snapshot tier's saved value, oldest first.
            pub fn tiers(&self) -> &[(i64, $t)] {
                self.0.tiers()
            }
        }

        impl Revertable for $name {
            fn revert_to_snapshot(&mut self, epoch: i64) {
                self.0.revert_to_snapshot(epoch);
            }

            fn delete_snapshot(&mut self, epoch: i64, previous: Option<i64>) {
                self.0.delete_snapshot(epoch, previous);
            }

            fn delete_snapshots_up_to(&mut self, epoch: i64) {
                self.0.delete_snapshots_up_to(epoch);
            }
        }

        /// Prints the current value.
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

timeline_number!(
    /// A snapshottable `i32` starting at 0 (Kafka's `TimelineInteger`).
    TimelineInteger,
    i32
);

timeline_number!(
    /// A snapshottable `i64` starting at 0 (Kafka's `TimelineLong`).
    TimelineLong,
    i64
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_saves_the_first_old_value_per_tier() {
        let mut r = SnapshotRegistry::new();
        let mut o = TimelineObject::new("a".to_string());
        o.set(&r, "b".into());
        assert!(o.tiers().is_empty());
        r.idempotent_create_snapshot(1).unwrap();
        o.set(&r, "c".into());
        o.set(&r, "d".into());
        assert_eq!(o.tiers(), &[(1, "b".to_string())]);
        r.idempotent_create_snapshot(2).unwrap();
        r.idempotent_create_snapshot(3).unwrap();
        o.set(&r, "e".into());
        assert_eq!(o.get_at(&r, 1).unwrap(), "b");
        assert_eq!(o.get_at(&r, 2).unwrap(), "d");
        assert_eq!(o.get_at(&r, 3).unwrap(), "d");
        assert_eq!(o.get(), "e");
        assert_eq!(o.to_string(), "e");
        let err = o.get_at(&r, 4).unwrap_err();
        assert_eq!(
            err.to_string(),
            "No in-memory snapshot for epoch 4. Snapshot epochs are: 1, 2, 3"
        );
    }

    #[test]
    fn object_delete_merges_or_relabels() {
        let mut r = SnapshotRegistry::new();
        let mut o = TimelineObject::new(0u8);
        r.idempotent_create_snapshot(1).unwrap();
        o.set(&r, 1);
        r.idempotent_create_snapshot(2).unwrap();
        o.set(&r, 2);
        r.idempotent_create_snapshot(3).unwrap();
        r.idempotent_create_snapshot(4).unwrap();
        o.set(&r, 4);
        // 2 merges into 1, which already holds a value: tier 2 is dropped.
        r.delete_snapshot(2, &mut [&mut o]).unwrap();
        assert_eq!(o.tiers(), &[(1, 0), (4, 2)]);
        // 4 merges into 3, which has no tier: relabelled.
        r.delete_snapshot(4, &mut [&mut o]).unwrap();
        assert_eq!(o.tiers(), &[(1, 0), (3, 2)]);
        assert_eq!(*o.get_at(&r, 3).unwrap(), 2);
        r.delete_snapshots_up_to(3, &mut [&mut o]);
        assert_eq!(o.tiers(), &[(3, 2)]);
        r.delete_snapshot(3, &mut [&mut o]).unwrap();
        assert!(o.tiers().is_empty());
        assert_eq!(*o.get(), 4);
    }

    #[test]
    fn object_revert_restores_the_value_at_the_snapshot() {
        let mut r = SnapshotRegistry::new();
        let mut o = TimelineObject::new(10i64);
        r.idempotent_create_snapshot(5).unwrap();
        r.idempotent_create_snapshot(6).unwrap();
        o.set(&r, 11);
        r.idempotent_create_snapshot(7).unwrap();
        o.set(&r, 12);
        r.revert_to_snapshot(5, &mut [&mut o]).unwrap();
        assert_eq!(*o.get(), 10);
        assert!(o.tiers().is_empty());
        // Reverting when nothing changed since the snapshot keeps the value.
        o.set(&r, 13);
        r.delete_snapshot(5, &mut [&mut o]).unwrap();
        r.idempotent_create_snapshot(8).unwrap();
        r.revert_to_snapshot(8, &mut [&mut o]).unwrap();
        assert_eq!(*o.get(), 13);
    }

    #[test]
    fn integer_and_long_count_and_revert_together() {
        let mut r = SnapshotRegistry::new();
        let mut i = TimelineInteger::new();
        let mut l = TimelineLong::new();
        i.increment(&r);
        l.set(&r, i64::MAX);
        r.idempotent_create_snapshot(1).unwrap();
        i.increment(&r);
        i.increment(&r);
        l.increment(&r);
        assert_eq!(i.get(), 3);
        assert_eq!(l.get(), i64::MIN, "wraps like Java");
        assert_eq!(i.get_at(&r, 1), Ok(1));
        assert_eq!(l.get_at(&r, 1), Ok(i64::MAX));
        assert_eq!(i.tiers(), &[(1, 1)]);
        assert!(l.get_at(&r, 2).is_err());
        r.revert_to_snapshot(1, &mut [&mut i, &mut l]).unwrap();
        assert_eq!((i.get(), l.get()), (1, i64::MAX));
        i.decrement(&r);
        assert_eq!(i.to_string(), "0");
        assert_eq!(l.to_string(), i64::MAX.to_string());
        r.delete_snapshot(1, &mut [&mut i, &mut l]).unwrap();
        assert!(i.tiers().is_empty() && l.tiers().is_empty());
    }
}
