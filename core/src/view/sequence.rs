//! What the sequence diagram (a spacetime view) draws: the network's recent messages with their
//! send and arrival times and fates, the processes' kills, stops and starts, and each node's
//! Raft state transitions read back from its server.log (`Completed transition to ...`), all
//! over the span the message history covers.

use serde::Serialize;

use super::transitions::transition_view;
use super::TransitionView;
use crate::sim::network::message_view;
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
    /// The sequence diagram's data: the network's history, with the kind and summary of the
    /// messages still on the wire filled in, and the transitions over the same span.
    pub fn sequence_view(&self) -> SequenceView {
        let net = self.network();
        let messages: Vec<SentMessage> = net
            .history
            .messages()
            .map(|m| {
                let mut m = m.clone();
                if m.kind.is_empty() {
                    if let Some(f) = net.in_flight.get(&m.id) {
                        let v = message_view(f, false);
                        m.kind = v.kind.into();
                        m.summary = v.summary.into();
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
