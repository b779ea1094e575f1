//! Which stretch of virtual time the sequence diagram shows: by default the last
//! [`DEFAULT_SPAN_MS`] up to a little after the newest change (a Raft transition, a kill or
//! start, a message that is not chatter nor a failure), following the present while that
//! change is recent; zoomed, scrolled back, or pinned to the present by the lecturer.

use std::collections::BTreeSet;

use kraft_core::view::sequence::{Fate, SequenceView};
use kraft_core::view::ApiKeys;

/// The time the window spans at first (virtual ms): lesson 02's kill and the election that
/// follows it (the 2 s fetch timeout, then PreVote, Vote and BeginQuorumEpoch) fit in it.
pub const DEFAULT_SPAN_MS: u64 = 2_500;
/// The narrowest window (virtual ms).
pub const MIN_SPAN_MS: u64 = 100;
/// The widest window (virtual ms).
pub const MAX_SPAN_MS: u64 = 64_000;

/// The message APIs hidden at first: the steady chatter.
pub const HIDDEN_AT_FIRST: [ApiKeys; 4] = [
    ApiKeys::Fetch,
    ApiKeys::FetchSnapshot,
    ApiKeys::BrokerHeartbeat,
    ApiKeys::ReplicaFetch,
];

/// Where the window's end is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// A little after the newest change, following the present while it is recent.
    Auto,
    /// At the present.
    Now,
    /// At this virtual time (scrolled by the lecturer).
    At(u64),
}

/// The lecturer's choice of window: its end and its span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Where it ends.
    pub anchor: Anchor,
    /// How much virtual time it spans (ms).
    pub span_ms: u64,
}

impl Default for Window {
    fn default() -> Self {
        Window {
            anchor: Anchor::Auto,
            span_ms: DEFAULT_SPAN_MS,
        }
    }
}

impl Window {
    /// The window's (start, end) in virtual ms, `now_ms` being the present.
    pub fn range(&self, seq: &SequenceView, hidden: &BTreeSet<ApiKeys>, now_ms: u64) -> (u64, u64) {
        let end = match self.anchor {
            Anchor::Now => now_ms,
            Anchor::At(t) => t.min(now_ms),
            Anchor::Auto => newest_change(seq, hidden)
                .map_or(now_ms, |c| now_ms.min(c.saturating_add(self.span_ms / 5))),
        };
        (end.saturating_sub(self.span_ms), end)
    }

    /// Half a window earlier than the window ending at `end`, not before the oldest message
    /// kept (`oldest_ms`: before it the history knows nothing).
    pub fn earlier(self, end: u64, oldest_ms: u64) -> Window {
        let floor = oldest_ms.saturating_add(self.span_ms).min(end);
        Window {
            anchor: Anchor::At(end.saturating_sub(self.span_ms / 2).max(floor)),
            ..self
        }
    }

    /// Half a window later than the window ending at `end` (pinned to the present once it
    /// reaches `now_ms`).
    pub fn later(self, end: u64, now_ms: u64) -> Window {
        let end = end.saturating_add(self.span_ms / 2);
        Window {
            anchor: if end >= now_ms {
                Anchor::Now
            } else {
                Anchor::At(end)
            },
            ..self
        }
    }

    /// Half the span (more detail), keeping the end.
    pub fn zoom_in(self) -> Window {
        Window {
            span_ms: (self.span_ms / 2).max(MIN_SPAN_MS),
            ..self
        }
    }

    /// Twice the span, keeping the end.
    pub fn zoom_out(self) -> Window {
        Window {
            span_ms: (self.span_ms * 2).min(MAX_SPAN_MS),
            ..self
        }
    }
}

/// The newest change worth a window: a Raft transition, a process event, or a message shown
/// (its API not hidden) that is neither a failure nor lost.
pub fn newest_change(seq: &SequenceView, hidden: &BTreeSet<ApiKeys>) -> Option<u64> {
    let transition = seq.transitions.last().map(|t| t.transition.time_ms);
    let mark = seq.marks.last().map(|m| m.time_ms);
    let message = seq
        .messages
        .iter()
        .rev()
        .find(|m| {
            !m.failed
                && matches!(m.fate, Fate::Delivered | Fate::InFlight)
                && !hidden.contains(&m.kind.api)
        })
        .map(|m| m.send_ms);
    transition.max(mark).max(message)
}
