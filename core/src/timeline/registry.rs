//! The snapshot registry: the ordered list of snapshot epochs, and the [`Revertable`] contract.

use serde::Serialize;
use std::fmt;

/// A registry operation that failed; the messages are Kafka's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimelineError {
    /// The epoch is not a snapshot in the registry (Kafka's `getSnapshot`).
    NoSnapshot {
        /// The epoch that was asked for.
        epoch: i64,
        /// The registry's snapshot epochs at the time.
        epochs: Vec<i64>,
    },
    /// A snapshot can't be created below the latest one (Kafka's `getOrCreateSnapshot`).
    EpochBehindLatest {
        /// The epoch that was asked for.
        epoch: i64,
        /// The latest snapshot epoch.
        latest: i64,
        /// The registry's snapshot epochs at the time.
        epochs: Vec<i64>,
    },
}

fn join(epochs: &[i64]) -> String {
    epochs
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for TimelineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimelineError::NoSnapshot { epoch, epochs } => write!(
                f,
                "No in-memory snapshot for epoch {epoch}. Snapshot epochs are: {}",
                join(epochs)
            ),
            TimelineError::EpochBehindLatest {
                epoch,
                latest,
                epochs,
            } => write!(
                f,
                "Can't create a new in-memory snapshot at epoch {epoch} because there is already \
                 a snapshot with epoch {latest}. Snapshot epochs are {}",
                join(epochs)
            ),
        }
    }
}

impl std::error::Error for TimelineError {}

/// A timeline structure whose history follows a [`SnapshotRegistry`].
///
/// The registry calls these when its snapshots change; owners normally don't call them directly
/// but pass their objects to [`SnapshotRegistry::revert_to_snapshot`],
/// [`SnapshotRegistry::delete_snapshot`] and [`SnapshotRegistry::delete_snapshots_up_to`].
/// A struct holding several timeline objects may implement it by forwarding to each of them.
pub trait Revertable {
    /// Restores the state as of snapshot `epoch` and forgets every tier at or after it.
    fn revert_to_snapshot(&mut self, epoch: i64);
    /// Forgets snapshot `epoch`; its saved values merge into snapshot `previous` (the registry's
    /// snapshot just before it) for keys that tier doesn't hold yet, or are dropped if `None`.
    fn delete_snapshot(&mut self, epoch: i64, previous: Option<i64>);
    /// Forgets every snapshot with an epoch below `epoch`.
    fn delete_snapshots_up_to(&mut self, epoch: i64);
}

/// The ordered list of in-memory snapshot epochs (Kafka's `SnapshotRegistry`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SnapshotRegistry {
    epochs: Vec<i64>,
}

impl SnapshotRegistry {
    /// An empty registry: no snapshots.
    pub fn new() -> Self {
        Self::default()
    }

    /// The snapshot epochs, oldest first (Kafka's `epochsList`).
    pub fn epochs_list(&self) -> Vec<i64> {
        self.epochs.clone()
    }

    /// The snapshot epochs, oldest first, borrowed.
    pub fn epochs(&self) -> &[i64] {
        &self.epochs
    }

    /// The newest snapshot's epoch, if there is one.
    pub fn latest_epoch(&self) -> Option<i64> {
        self.epochs.last().copied()
    }

    /// Whether there is a snapshot at `epoch`.
    pub fn has_snapshot(&self, epoch: i64) -> bool {
        self.epochs.binary_search(&epoch).is_ok()
    }

    /// `Ok` if there is a snapshot at `epoch`, else Kafka's "No in-memory snapshot" error.
    pub fn check_snapshot(&self, epoch: i64) -> Result<(), TimelineError> {
        self.index_of(epoch).map(|_| ())
    }

    fn index_of(&self, epoch: i64) -> Result<usize, TimelineError> {
        self.epochs
            .binary_search(&epoch)
            .map_err(|_| TimelineError::NoSnapshot {
                epoch,
                epochs: self.epochs.clone(),
            })
    }

    /// Creates a snapshot at `epoch`, or returns it if it is already the latest one; an epoch
    /// below the latest is an error. Returns the epoch.
    pub fn get_or_create_snapshot(&mut self, epoch: i64) -> Result<i64, TimelineError> {
        match self.latest_epoch() {
            Some(latest) if latest > epoch => Err(TimelineError::EpochBehindLatest {
                epoch,
                latest,
                epochs: self.epochs.clone(),
            }),
            Some(latest) if latest == epoch => Ok(epoch),
            _ => {
                self.epochs.push(epoch);
                Ok(epoch)
            }
        }
    }

    /// Creates a snapshot at `epoch`; a no-op if the latest snapshot already has that epoch.
    pub fn idempotent_create_snapshot(&mut self, epoch: i64) -> Result<(), TimelineError> {
        self.get_or_create_snapshot(epoch).map(|_| ())
    }

    /// Reverts `objects` to their state at snapshot `epoch` and deletes every later snapshot;
    /// `epoch` itself stays. Gives the epochs deleted, oldest first. Errors, changing nothing,
    /// if there is no such snapshot.
    pub fn revert_to_snapshot(
        &mut self,
        epoch: i64,
        objects: &mut [&mut dyn Revertable],
    ) -> Result<Vec<i64>, TimelineError> {
        let index = self.index_of(epoch)?;
        for object in objects.iter_mut() {
            object.revert_to_snapshot(epoch);
        }
        Ok(self.epochs.split_off(index + 1))
    }

    /// Deletes snapshot `epoch`, merging the objects' saved values into the previous snapshot.
    /// Errors, changing nothing, if there is no such snapshot.
    pub fn delete_snapshot(
        &mut self,
        epoch: i64,
        objects: &mut [&mut dyn Revertable],
    ) -> Result<(), TimelineError> {
        let index = self.index_of(epoch)?;
        let previous = index.checked_sub(1).map(|i| self.epochs[i]);
        for object in objects.iter_mut() {
            object.delete_snapshot(epoch, previous);
        }
        self.epochs.remove(index);
        Ok(())
    }

    /// Deletes every snapshot with an epoch strictly below `epoch` (a snapshot at `epoch` stays).
    pub fn delete_snapshots_up_to(&mut self, epoch: i64, objects: &mut [&mut dyn Revertable]) {
        for object in objects.iter_mut() {
            object.delete_snapshots_up_to(epoch);
        }
        self.epochs.retain(|&e| e >= epoch);
    }
}

/// One `revertToSnapshot`: the snapshot reverted to and the later snapshots it dropped.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Revert {
    /// The snapshot epoch the objects went back to.
    pub to: i64,
    /// The snapshot epochs after it that the revert deleted, oldest first.
    pub dropped: Vec<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn create_is_idempotent_only_for_the_latest() {
        let mut r = SnapshotRegistry::new();
        assert_eq!(r.latest_epoch(), None);
        r.idempotent_create_snapshot(10).unwrap();
        r.idempotent_create_snapshot(10).unwrap();
        assert_eq!(r.get_or_create_snapshot(12), Ok(12));
        assert_eq!(r.epochs_list(), vec![10, 12]);
        assert_eq!(r.latest_epoch(), Some(12));
        let err = r.idempotent_create_snapshot(10).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Can't create a new in-memory snapshot at epoch 10 because there is already a \
             snapshot with epoch 12. Snapshot epochs are 10, 12"
        );
        assert_eq!(r.epochs(), &[10, 12]);
        assert!(r.has_snapshot(10) && !r.has_snapshot(11));
    }

    #[test]
    fn missing_snapshots_are_errors_not_panics() {
        let mut r = SnapshotRegistry::new();
        r.idempotent_create_snapshot(3).unwrap();
        r.idempotent_create_snapshot(5).unwrap();
        let err = r.revert_to_snapshot(4, &mut []).unwrap_err();
        assert_eq!(
            err.to_string(),
            "No in-memory snapshot for epoch 4. Snapshot epochs are: 3, 5"
        );
        assert_eq!(
            r.delete_snapshot(7, &mut []),
            Err(TimelineError::NoSnapshot {
                epoch: 7,
                epochs: vec![3, 5]
            })
        );
        assert!(r.check_snapshot(5).is_ok());
        assert!(r.check_snapshot(6).is_err());
        assert_eq!(r.epochs_list(), vec![3, 5]);
    }

    #[test]
    fn delete_and_revert_edit_the_list() {
        let mut r = SnapshotRegistry::new();
        for e in [1, 2, 3, 4, 5] {
            r.idempotent_create_snapshot(e).unwrap();
        }
        r.delete_snapshots_up_to(3, &mut []);
        assert_eq!(r.epochs_list(), vec![3, 4, 5]);
        r.delete_snapshot(4, &mut []).unwrap();
        assert_eq!(r.epochs_list(), vec![3, 5]);
        r.idempotent_create_snapshot(9).unwrap();
        assert_eq!(r.revert_to_snapshot(5, &mut []).unwrap(), vec![9]);
        assert_eq!(r.epochs_list(), vec![3, 5]);
        assert_eq!(r.revert_to_snapshot(3, &mut []).unwrap(), vec![5]);
        assert_eq!(r.epochs_list(), vec![3]);
        // After a revert, new snapshots may reuse epochs above the target.
        r.idempotent_create_snapshot(4).unwrap();
        assert_eq!(r.epochs_list(), vec![3, 4]);
        r.delete_snapshots_up_to(i64::MAX, &mut []);
        assert!(r.epochs().is_empty());
    }
}
