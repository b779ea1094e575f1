//! The event queue of a world: events ordered by (virtual time, sequence number), so two events
//! at the same millisecond run in the order they were scheduled.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// An event waiting in the scheduler.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Scheduled<E> {
    /// Virtual time (ms) the event runs at.
    pub at_ms: u64,
    /// Tie-breaker: the order of scheduling.
    pub seq: u64,
    /// What happens.
    pub event: E,
}

/// A min-heap of events keyed by (time, sequence).
#[derive(Clone, Debug)]
pub struct Scheduler<E: Ord> {
    heap: BinaryHeap<Reverse<Scheduled<E>>>,
    next_seq: u64,
}

impl<E: Ord> Default for Scheduler<E> {
    fn default() -> Self {
        Scheduler {
            heap: BinaryHeap::new(),
            next_seq: 0,
        }
    }
}

impl<E: Ord> Scheduler<E> {
    /// Queue `event` to run at `at_ms`.
    pub fn schedule(&mut self, at_ms: u64, event: E) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Reverse(Scheduled { at_ms, seq, event }));
    }

    /// Time of the earliest event.
    pub fn peek_time(&self) -> Option<u64> {
        self.heap.peek().map(|Reverse(s)| s.at_ms)
    }

    /// The earliest event, left in the queue (with its place among events of the same time).
    pub fn peek(&self) -> Option<&Scheduled<E>> {
        self.heap.peek().map(|Reverse(s)| s)
    }

    /// Remove and return the earliest event.
    pub fn pop(&mut self) -> Option<Scheduled<E>> {
        self.heap.pop().map(|Reverse(s)| s)
    }

    /// Number of queued events (stale ones included).
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// True when nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_by_time_then_sequence() {
        let mut s = Scheduler::default();
        s.schedule(5, 'a');
        s.schedule(3, 'b');
        s.schedule(5, 'c');
        s.schedule(3, 'd');
        assert_eq!(s.peek().map(|e| (e.at_ms, e.event)), Some((3, 'b')));
        let order: Vec<char> = std::iter::from_fn(|| s.pop().map(|e| e.event)).collect();
        assert_eq!(order, vec!['b', 'd', 'a', 'c']);
    }
}
