//! The shapes the sequence diagram is made of: arrows (messages) and chips (transitions and
//! process events), shared by the layout (`layout.rs`) and the label placement (`place.rs`).

use kraft_core::view::sequence::SentMessage;
use kraft_core::view::ApiKeys;

use super::label::State;

/// The height of a chip on a lane (em).
pub const CHIP_H: f64 = 1.15;

/// A message drawn as an arrow.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    /// The message.
    pub m: SentMessage,
    /// Its API as labelled (a failed Vote of a Prospective node is a PreVote).
    pub api: ApiKeys,
    /// Its label.
    pub label: String,
    /// Its CSS class (`msg-vote`, ...).
    pub class: &'static str,
    /// Whether it is a response.
    pub response: bool,
    /// How it ended.
    pub state: State,
    /// The lanes it is drawn from and towards (a failure: from the client to the node that
    /// did not answer).
    pub lanes: (usize, usize),
    /// Where it starts: (x, y).
    pub start: (f64, f64),
    /// Where it is drawn to: (x, y): its arrival, its ✕, or where it is now.
    pub end: (f64, f64),
    /// Whether it goes from a node to itself (a controller registering with itself): drawn
    /// as a loop to the right of its lane.
    pub self_loop: bool,
    /// Where its label's baseline is centred (x, y), when it has one (a failure has its ✕).
    pub label_at: Option<(f64, f64)>,
}

/// A chip on a lane: a Raft transition or a process event.
#[derive(Clone, Debug, PartialEq)]
pub struct Chip {
    /// The lane's index.
    pub lane: usize,
    /// The node.
    pub node: i32,
    /// Its centre (em).
    pub y: f64,
    /// Its text.
    pub text: String,
    /// Its text in words (`Candidate (epoch 2)`, `kill -9`), for Mermaid's notes.
    pub note: String,
    /// Its tooltip.
    pub title: String,
    /// Its CSS class (`role-candidate`, `proc-kill`, ...).
    pub class: String,
    /// How far it is moved off its lane's centre to stay inside the diagram (em).
    pub dx: f64,
    /// When.
    pub time_ms: u64,
    /// The event count of the state right after it.
    pub event: u64,
}
