//! KafkaEventQueue: the one queue the QuorumController's event handler thread takes its work
//! from. FIFO appends, plus deferred events that run at a deadline (periodic tasks) and are
//! keyed by a tag so re-scheduling replaces the earlier one.

use std::collections::{BTreeMap, VecDeque};

/// An event waiting in the queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedEvent<E> {
    /// The event's name, as Kafka names it (`createTopics`, `handleCommit[baseOffset=10]`).
    pub name: String,
    /// The work.
    pub event: E,
    /// Virtual time it was queued.
    pub enqueued_ms: u64,
}

/// A deferred event: runs once its deadline passes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeferredEvent<E> {
    /// The tag (`writeNoOpRecord`, `maybeFenceStaleBroker`); one deferred event per tag.
    pub tag: String,
    /// When it becomes runnable.
    pub deadline_ms: u64,
    /// The work.
    pub event: QueuedEvent<E>,
}

/// The queue.
#[derive(Clone, Debug)]
pub struct KafkaEventQueue<E> {
    queue: VecDeque<QueuedEvent<E>>,
    deferred: BTreeMap<(u64, u64), DeferredEvent<E>>,
    next_seq: u64,
    /// Events run so far.
    pub events_run: u64,
}

impl<E> Default for KafkaEventQueue<E> {
    fn default() -> Self {
        KafkaEventQueue {
            queue: VecDeque::new(),
            deferred: BTreeMap::new(),
            next_seq: 0,
            events_run: 0,
        }
    }
}

impl<E: Clone> KafkaEventQueue<E> {
    /// `append`: run after everything already queued.
    pub fn append(&mut self, name: impl Into<String>, event: E, now_ms: u64) {
        self.queue.push_back(QueuedEvent {
            name: name.into(),
            event,
            enqueued_ms: now_ms,
        });
    }

    /// `prepend`: run next.
    pub fn prepend(&mut self, name: impl Into<String>, event: E, now_ms: u64) {
        self.queue.push_front(QueuedEvent {
            name: name.into(),
            event,
            enqueued_ms: now_ms,
        });
    }

    /// `scheduleDeferred(tag, deadline, event)`: replaces a deferred event with the same tag.
    pub fn schedule_deferred(
        &mut self,
        tag: &str,
        deadline_ms: u64,
        name: impl Into<String>,
        event: E,
        now_ms: u64,
    ) {
        self.cancel_deferred(tag);
        let seq = self.next_seq;
        self.next_seq += 1;
        self.deferred.insert(
            (deadline_ms, seq),
            DeferredEvent {
                tag: tag.to_string(),
                deadline_ms,
                event: QueuedEvent {
                    name: name.into(),
                    event,
                    enqueued_ms: now_ms,
                },
            },
        );
    }

    /// `cancelDeferred(tag)`.
    pub fn cancel_deferred(&mut self, tag: &str) {
        self.deferred.retain(|_, d| d.tag != tag);
    }

    /// Take the next event to run at `now_ms`: an expired deferred event first, else the head.
    pub fn poll(&mut self, now_ms: u64) -> Option<QueuedEvent<E>> {
        let due = self
            .deferred
            .first_key_value()
            .filter(|(k, _)| k.0 <= now_ms)
            .map(|(k, _)| *k);
        let next = match due {
            Some(k) => self.deferred.remove(&k).map(|d| d.event),
            None => self.queue.pop_front(),
        };
        if next.is_some() {
            self.events_run += 1;
        }
        next
    }

    /// When the queue next has work: now if anything is queued, else the earliest deadline.
    pub fn next_run_ms(&self, now_ms: u64) -> Option<u64> {
        if !self.queue.is_empty() {
            return Some(now_ms);
        }
        self.deferred
            .first_key_value()
            .map(|(k, _)| k.0.max(now_ms))
    }

    /// Queued events, in order.
    pub fn queued(&self) -> impl Iterator<Item = &QueuedEvent<E>> {
        self.queue.iter()
    }

    /// Deferred events, by deadline.
    pub fn deferred(&self) -> impl Iterator<Item = &DeferredEvent<E>> {
        self.deferred.values()
    }

    /// Number of queued (not deferred) events.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// True when nothing is queued (deferred events may still wait).
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Drop every queued and deferred event.
    pub fn clear(&mut self) {
        self.queue.clear();
        self.deferred.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifo_with_deadlines_first_and_tags_replacing() {
        let mut q = KafkaEventQueue::default();
        q.append("a", 1, 0);
        q.append("b", 2, 0);
        q.schedule_deferred("noop", 500, "writeNoOpRecord", 3, 0);
        q.schedule_deferred("noop", 400, "writeNoOpRecord", 4, 0);
        assert_eq!(q.deferred().count(), 1);
        assert_eq!(q.next_run_ms(0), Some(0));
        assert_eq!(q.poll(0).unwrap().event, 1);
        assert_eq!(
            q.poll(450).unwrap().event,
            4,
            "an expired deferred event runs first"
        );
        assert_eq!(q.poll(450).unwrap().event, 2);
        assert_eq!(q.poll(450), None);
        assert_eq!(q.next_run_ms(450), None);
        q.schedule_deferred("x", 900, "x", 5, 450);
        assert_eq!(q.next_run_ms(450), Some(900));
        q.cancel_deferred("x");
        assert_eq!(q.next_run_ms(450), None);
    }
}
