//! DeferredEventQueue (the controller's purgatory): writes wait here until the offset of their
//! last record is committed (the last stable offset reaches it).

use std::collections::BTreeMap;

/// Writes waiting for offsets, completed in offset order.
#[derive(Clone, Debug)]
pub struct DeferredEventQueue<T> {
    pending: BTreeMap<i64, Vec<T>>,
}

impl<T> Default for DeferredEventQueue<T> {
    fn default() -> Self {
        DeferredEventQueue {
            pending: BTreeMap::new(),
        }
    }
}

impl<T> DeferredEventQueue<T> {
    /// `add(offset, event)`: wait until `offset` is committed.
    pub fn add(&mut self, offset: i64, event: T) {
        self.pending.entry(offset).or_default().push(event);
    }

    /// `completeUpTo(offset)`: take every write waiting for an offset <= `offset`.
    pub fn complete_up_to(&mut self, offset: i64) -> Vec<T> {
        let later = self.pending.split_off(&(offset + 1));
        let done = std::mem::replace(&mut self.pending, later);
        done.into_values().flatten().collect()
    }

    /// `failAll`: take every waiting write (they fail, e.g. with NOT_CONTROLLER).
    pub fn fail_all(&mut self) -> Vec<T> {
        std::mem::take(&mut self.pending)
            .into_values()
            .flatten()
            .collect()
    }

    /// `highestPendingOffset`
    pub fn highest_pending_offset(&self) -> Option<i64> {
        self.pending.keys().next_back().copied()
    }

    /// The waiting writes with their offsets, for views.
    pub fn iter(&self) -> impl Iterator<Item = (i64, &T)> {
        self.pending
            .iter()
            .flat_map(|(o, v)| v.iter().map(move |t| (*o, t)))
    }

    /// True when nothing waits.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completes_in_offset_order_up_to_the_committed_offset() {
        let mut q = DeferredEventQueue::default();
        q.add(12, "b");
        q.add(10, "a");
        q.add(15, "c");
        assert_eq!(q.highest_pending_offset(), Some(15));
        assert_eq!(q.complete_up_to(12), vec!["a", "b"]);
        assert_eq!(q.complete_up_to(12), Vec::<&str>::new());
        assert_eq!(q.fail_all(), vec!["c"]);
        assert!(q.is_empty());
    }
}
