//! The recent history of the network and the processes, for the sequence diagram (a
//! spacetime view): the last [`MESSAGES_KEPT`] messages sent, each with when it was sent and
//! arrived, the event count it was sent at and what became of it, and the last [`MARKS_KEPT`]
//! process events (kill -9, kill -TERM, STOP, CONT, start).
//!
//! Only views read it: nothing in the simulation does, and keeping it draws nothing from the
//! RNG, so a run is the same with or without it.

use serde::Serialize;

use crate::common::api_keys::MessageKind;
use crate::common::message::fields::MessageFields;
use std::collections::VecDeque;
use std::sync::Arc;

/// How many messages the history keeps (the oldest are forgotten first).
pub const MESSAGES_KEPT: usize = 2_000;
/// How many process events the history keeps.
pub const MARKS_KEPT: usize = 256;

/// What became of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fate {
    /// On the wire: it arrives at `arrive_ms`.
    InFlight,
    /// Handed to its receiver at `arrive_ms`.
    Delivered,
    /// Lost by the network (a cut link, a drop rule, the drop rate).
    Dropped,
    /// Lost with its connection when its sender or receiver died (at `arrive_ms`, the crash).
    Lost,
}

impl Fate {
    /// `in-flight`, `delivered`, `dropped` or `lost`.
    pub fn name(self) -> &'static str {
        match self {
            Fate::InFlight => "in-flight",
            Fate::Delivered => "delivered",
            Fate::Dropped => "dropped",
            Fate::Lost => "lost",
        }
    }
}

/// One message of the history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SentMessage {
    /// The network's id, increasing with send order.
    pub id: u64,
    /// Sender (for a failure: the node that did not answer).
    pub from: i32,
    /// Receiver (for a failure: the client whose request failed).
    pub to: i32,
    /// Its API and direction.
    pub kind: MessageKind,
    /// The fields the page reads, typed.
    pub fields: MessageFields,
    /// Short summary of the interesting fields, for tooltips (display only; empty in the
    /// network's own history while it is on the wire: the view fills it in).
    pub summary: Arc<str>,
    /// Virtual time it was sent.
    pub send_ms: u64,
    /// Virtual time it arrives or arrived (would have, when dropped; the crash, when lost).
    pub arrive_ms: u64,
    /// `events_run` when it was sent: the state right after it was sent has this count.
    pub sent_at_event: u64,
    /// What became of it.
    pub fate: Fate,
    /// Whether it is a failure the sender's network client made up for a request to a node
    /// that was down or died (connection refused or reset).
    pub failed: bool,
}

/// A process event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProcessEvent {
    /// `kill -9`.
    Kill,
    /// `kill -TERM`: a graceful shutdown begins.
    Terminate,
    /// The process ended after a graceful shutdown.
    Exit,
    /// A fatal fault ended the process.
    Crash,
    /// `kill -STOP` (or the start of `slow`).
    Stop,
    /// `kill -CONT` (or the end of `slow`).
    Cont,
    /// `start` after a kill, or a broker added.
    Start,
}

impl ProcessEvent {
    /// What it is called on the page: `kill -9`, `kill -TERM`, `exit`, `crash`, `STOP`,
    /// `CONT`, `start`.
    pub fn name(self) -> &'static str {
        match self {
            ProcessEvent::Kill => "kill -9",
            ProcessEvent::Terminate => "kill -TERM",
            ProcessEvent::Exit => "exit",
            ProcessEvent::Crash => "crash",
            ProcessEvent::Stop => "STOP",
            ProcessEvent::Cont => "CONT",
            ProcessEvent::Start => "start",
        }
    }
}

/// A process event of a node, when and at which event count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ProcessMark {
    /// Virtual time.
    pub time_ms: u64,
    /// The node.
    pub node: i32,
    /// What happened.
    pub what: ProcessEvent,
    /// `events_run` when it happened.
    pub at_event: u64,
}

/// The bounded history of messages and process events.
#[derive(Clone, Debug, Default)]
pub struct SequenceHistory {
    messages: VecDeque<SentMessage>,
    marks: VecDeque<ProcessMark>,
    /// The summary of a message whose text is not written yet, shared by all of them.
    empty: Arc<str>,
}

impl SequenceHistory {
    /// An empty summary for a message just sent (a shared one: no allocation per message).
    pub fn empty_summary(&self) -> Arc<str> {
        self.empty.clone()
    }

    /// Keeps a message just sent (ids must increase from one call to the next).
    pub fn push_message(&mut self, m: SentMessage) {
        if self.messages.len() >= MESSAGES_KEPT {
            self.messages.pop_front();
        }
        self.messages.push_back(m);
    }

    /// What became of message `id` (if still kept), with its summary (a message pushed on
    /// the wire has none yet: it is written once, when it arrives or is lost); a lost message
    /// ends at `at_ms`.
    pub fn set_fate(&mut self, id: u64, fate: Fate, at_ms: Option<u64>, summary: &Arc<str>) {
        if let Some(i) = self.position(id) {
            let m = &mut self.messages[i];
            m.fate = fate;
            if let Some(t) = at_ms {
                m.arrive_ms = t;
            }
            if m.summary.is_empty() {
                m.summary = summary.clone();
            }
        }
    }

    /// Where message `id` is kept: the network numbers every message it sends and the history
    /// keeps them all, so the index is usually `id` minus the oldest id; otherwise a search.
    fn position(&self, id: u64) -> Option<usize> {
        let first = self.messages.front()?.id;
        let guess = usize::try_from(id.checked_sub(first)?).ok()?;
        if self.messages.get(guess).is_some_and(|m| m.id == id) {
            return Some(guess);
        }
        self.messages.binary_search_by_key(&id, |m| m.id).ok()
    }

    /// Keeps a process event.
    pub fn push_mark(&mut self, mark: ProcessMark) {
        if self.marks.len() >= MARKS_KEPT {
            self.marks.pop_front();
        }
        self.marks.push_back(mark);
    }

    /// The kept messages, oldest first (the view's copy, with the kind and summary of those
    /// still on the wire filled in: see [`crate::sim::World::view`]).
    pub fn messages(&self) -> impl DoubleEndedIterator<Item = &SentMessage> + ExactSizeIterator {
        self.messages.iter()
    }

    /// The kept process events, oldest first.
    pub fn marks(&self) -> impl DoubleEndedIterator<Item = &ProcessMark> + ExactSizeIterator {
        self.marks.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::api_keys::ApiKeys;

    fn message(id: u64) -> SentMessage {
        SentMessage {
            id,
            from: 101,
            to: 102,
            kind: MessageKind::request(ApiKeys::Fetch),
            fields: MessageFields::default(),
            summary: "".into(),
            send_ms: id,
            arrive_ms: id + 2,
            sent_at_event: id,
            fate: Fate::InFlight,
            failed: false,
        }
    }

    #[test]
    fn the_history_keeps_the_newest_messages_and_marks_up_to_its_bound() {
        let mut h = SequenceHistory::default();
        for id in 0..(MESSAGES_KEPT as u64 + 500) {
            h.push_message(message(id * 2));
        }
        assert_eq!(h.messages().len(), MESSAGES_KEPT);
        assert_eq!(h.messages().next().map(|m| m.id), Some(1000));
        // A fate finds its message by id; a forgotten or unknown id changes nothing.
        let summary: Arc<str> = "epoch=1".into();
        h.set_fate(1000, Fate::Delivered, None, &summary);
        h.set_fate(1002, Fate::Lost, Some(7), &summary);
        h.set_fate(998, Fate::Dropped, None, &summary);
        h.set_fate(1001, Fate::Dropped, None, &summary);
        let first: Vec<(Fate, u64, &str)> = h
            .messages()
            .take(3)
            .map(|m| (m.fate, m.arrive_ms, &*m.summary))
            .collect();
        assert_eq!(
            first,
            [
                (Fate::Delivered, 1002, "epoch=1"),
                (Fate::Lost, 7, "epoch=1"),
                (Fate::InFlight, 1006, "")
            ]
        );
        for i in 0..(MARKS_KEPT as u64 + 3) {
            h.push_mark(ProcessMark {
                time_ms: i,
                node: 1,
                what: ProcessEvent::Stop,
                at_event: i,
            });
        }
        assert_eq!(h.marks().len(), MARKS_KEPT);
        assert_eq!(h.marks().next().map(|m| m.time_ms), Some(3));
    }

    #[test]
    fn a_fate_finds_its_message_when_ids_have_no_gaps_and_when_they_do() {
        let mut h = SequenceHistory::default();
        for id in [5, 6, 7, 9, 10] {
            h.push_message(message(id));
        }
        let summary: Arc<str> = "".into();
        for id in [5, 7, 9, 10, 8, 4, 11] {
            h.set_fate(id, Fate::Delivered, None, &summary);
        }
        let delivered: Vec<u64> = h
            .messages()
            .filter(|m| m.fate == Fate::Delivered)
            .map(|m| m.id)
            .collect();
        assert_eq!(delivered, [5, 7, 9, 10]);
    }
}
