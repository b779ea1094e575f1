//! What the sequence diagram (a spacetime view) draws: the network's recent messages with their
//! send and arrival times and fates, the processes' kills, stops and starts, and each node's
//! Raft state transitions read back from its server.log (`Completed transition to ...`), all
//! over the span the message history covers.

use serde::Serialize;

use super::transitions::transition_view;
use super::TransitionView;
use crate::sim::World;

pub use crate::sim::history::{Fate, ProcessEvent, ProcessMark, SentMessage, MESSAGES_KEPT};

/// The messages, process events and transitions of the recent past.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SequenceView {
    /// The last messages sent (at most [`MESSAGES_KEPT`]), in send order.
    pub messages: Vec<SentMessage>,
    /// The last process events, oldest first.
    pub marks: Vec<ProcessMark>,
    /// The Raft state transitions since the oldest message kept, oldest first.
    pub transitions: Vec<TransitionMark>,
}

/// A Raft state transition of a node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TransitionMark {
    /// The node.
    pub node: i32,
    /// The transition, as its server.log line says.
    pub transition: TransitionView,
}

impl World {
    /// The sequence diagram's data: the network's history, with the summary of the messages
    /// still on the wire filled in, and the transitions over the same span.
    pub fn sequence_view(&self) -> SequenceView {
        let net = self.network();
        let messages: Vec<SentMessage> = net
            .history
            .messages()
            .map(|m| {
                let mut m = m.clone();
                if m.summary.is_empty() {
                    if let Some(f) = net.in_flight.get(&m.id) {
                        m.summary = f.message.summary().into();
                    }
                }
                m
            })
            .collect();
        let since = messages.first().map_or(0, |m| m.send_ms);
        let mut transitions: Vec<TransitionMark> = self
            .nodes()
            .flat_map(|n| {
                n.log
                    .lines()
                    .rev()
                    .take_while(move |l| l.time_ms >= since)
                    .filter_map(transition_view)
                    .map(move |transition| TransitionMark {
                        node: n.id,
                        transition,
                    })
            })
            .collect();
        // Each node's lines came newest first: put them all in time order (stable, so the
        // transitions of one node in one millisecond keep their order).
        transitions.reverse();
        transitions.sort_by_key(|t| t.transition.time_ms);
        SequenceView {
            messages,
            marks: net.history.marks().copied().collect(),
            transitions,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::api_keys::{ApiKeys, MessageKind};
    use crate::sim::WorldConfig;

    #[test]
    fn the_sequence_view_holds_the_election_after_a_kill() {
        let mut w = World::new(WorldConfig::new(5, vec![101, 102, 103], vec![1])).unwrap();
        w.run_for(5_000);
        let (leader, epoch) = w.leader().expect("a leader after 5 s");
        let killed_at = w.now_ms();
        w.kill(leader).unwrap();
        w.run_until(killed_at + 10_000, |w| {
            w.leader().is_some_and(|l| l.1 > epoch)
        });
        w.run_for(3);
        let s = w.view().sequence;
        assert!(s.messages.len() <= MESSAGES_KEPT);
        assert!(s
            .messages
            .windows(2)
            .all(|p| p[0].id < p[1].id && p[0].send_ms <= p[1].send_ms));
        assert!(
            s.messages
                .iter()
                .all(|m| !m.summary.is_empty() || m.kind.api == ApiKeys::ReplicaFetch),
            "every summary is filled in"
        );
        assert!(s
            .marks
            .iter()
            .any(|m| m.node == leader && m.what == ProcessEvent::Kill && m.time_ms == killed_at));
        let new_leader = w.leader().expect("a new leader").0;
        assert!(s.transitions.iter().any(|t| t.node == new_leader
            && t.transition.to == crate::raft::state::StateKind::Leader
            && t.transition.time_ms > killed_at));
        // Requests to the dead leader failed; votes after the kill were delivered.
        assert!(s.messages.iter().any(|m| m.failed && m.from == leader));
        assert!(s
            .messages
            .iter()
            .any(|m| m.kind == MessageKind::request(ApiKeys::Vote)
                && m.send_ms > killed_at
                && m.fate == Fate::Delivered));
        assert!(s
            .transitions
            .windows(2)
            .all(|p| p[0].transition.time_ms <= p[1].transition.time_ms));
    }
}
