//! The simulated network: per-link latency with jitter, FIFO per link (TCP), drops, symmetric
//! and one-way partitions, and the messages in flight.

use std::sync::Arc;

use super::history::{Fate, SentMessage, SequenceHistory};
use super::message::Message;
use crate::common::api_keys::{ApiKeys, MessageKind};
use crate::common::message::fields::MessageFields;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Network settings.
#[derive(Clone, Debug, PartialEq)]
pub struct NetworkConfig {
    /// Smallest one-way latency of a link, ms.
    pub latency_ms: u64,
    /// Extra random latency, uniform in [0, jitter_ms], ms.
    pub jitter_ms: u64,
    /// Probability that any message is lost.
    pub drop_rate: f64,
}

impl Default for NetworkConfig {
    fn default() -> Self {
        NetworkConfig {
            latency_ms: 1,
            jitter_ms: 2,
            drop_rate: 0.0,
        }
    }
}

/// A message between two nodes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MessageView {
    /// Unique id, increasing with send order.
    pub id: u64,
    /// Sender node id.
    pub from: i32,
    /// Receiver node id.
    pub to: i32,
    /// Its API and direction, e.g. `FetchRequest`, `VoteResponse`.
    pub kind: MessageKind,
    /// The fields the page reads (epoch, ids, offsets, error), typed.
    pub fields: MessageFields,
    /// A one-line summary of the interesting fields, for tooltips and traces (display only:
    /// read [`MessageView::fields`], never parse this).
    pub summary: Arc<str>,
    /// Virtual time it was sent.
    pub send_ms: u64,
    /// Virtual time it arrives (or would have arrived).
    pub arrive_ms: u64,
    /// True when the network dropped it (shown for a short while, then forgotten).
    pub dropped: bool,
}

/// A message on the wire (or `dropped`), for the view.
pub(crate) fn message_view(m: &InFlight, dropped: bool) -> MessageView {
    MessageView {
        id: m.id,
        from: m.from,
        to: m.to,
        kind: m.message.kind(),
        fields: m.message.fields(),
        summary: m.message.summary().into(),
        send_ms: m.send_ms,
        arrive_ms: m.arrive_ms,
        dropped,
    }
}

/// A message on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InFlight {
    /// Unique id, in send order.
    pub id: u64,
    /// Sender.
    pub from: i32,
    /// Receiver.
    pub to: i32,
    /// The message.
    pub message: Message,
    /// Virtual send time.
    pub send_ms: u64,
    /// Virtual arrival time.
    pub arrive_ms: u64,
}

/// A rule that drops matching messages (`drop from=.. to=.. kind=..`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DropRule {
    /// Sender to match, any when None.
    pub from: Option<i32>,
    /// Receiver to match, any when None.
    pub to: Option<i32>,
    /// Message kind to match (e.g. `FetchRequest`), any when None.
    pub kind: Option<MessageKind>,
}

impl DropRule {
    /// The kind `text` names (case-insensitive); an error that lists the kinds otherwise.
    pub fn check_kind(text: &str) -> Result<MessageKind, String> {
        if let Some(k) = MessageKind::from_name(text) {
            return Ok(k);
        }
        let lower = text.to_ascii_lowercase();
        let close: Vec<&str> = MessageKind::all()
            .map(MessageKind::name)
            .filter(|k| k.to_ascii_lowercase().starts_with(&lower))
            .collect();
        let hint = if close.is_empty() {
            let apis: Vec<&str> = ApiKeys::ALL.iter().map(|a| a.name()).collect();
            format!(
                "one of {}, each with Request, Response or Failed",
                apis.join(", ")
            )
        } else {
            format!("did you mean {}?", close.join(" or "))
        };
        Err(format!("drop: no message kind '{text}' ({hint})"))
    }

    /// Whether the rule drops `m`.
    pub fn matches(&self, from: i32, to: i32, m: &Message) -> bool {
        self.from.is_none_or(|f| f == from)
            && self.to.is_none_or(|t| t == to)
            && self.kind.is_none_or(|k| m.kind() == k)
    }
}

/// How many dropped messages are remembered for views.
pub const DROPPED_KEPT: usize = 32;
/// How many delivered messages are remembered for views.
pub const DELIVERED_KEPT: usize = 32;

/// The network of a world.
#[derive(Clone, Debug, Default)]
pub struct Network {
    /// Settings.
    pub config: NetworkConfig,
    /// Messages in flight by id.
    pub in_flight: BTreeMap<u64, InFlight>,
    /// Recently dropped messages, newest last.
    pub dropped: VecDeque<InFlight>,
    /// Recently delivered messages as views draw them, newest last (only for views: nothing
    /// in the simulation reads it).
    pub recently_delivered: VecDeque<MessageView>,
    /// Directed links that deliver nothing.
    pub blocked: BTreeSet<(i32, i32)>,
    /// Drop rules.
    pub drop_rules: Vec<DropRule>,
    /// Per-link latency overrides (base ms) for directed links.
    pub link_latency_ms: BTreeMap<(i32, i32), u64>,
    /// The last messages sent and process events, for the sequence diagram (only for views:
    /// nothing in the simulation reads it).
    pub history: SequenceHistory,
    /// Counters: sent, delivered, dropped.
    pub sent: u64,
    /// Messages delivered.
    pub delivered: u64,
    /// Messages dropped.
    pub dropped_count: u64,
    next_id: u64,
    last_arrival: BTreeMap<(i32, i32), u64>,
}

impl Network {
    /// A network with `config`.
    pub fn new(config: NetworkConfig) -> Self {
        Network {
            config,
            ..Default::default()
        }
    }

    /// Whether `from -> to` is cut.
    pub fn is_blocked(&self, from: i32, to: i32) -> bool {
        self.blocked.contains(&(from, to))
    }

    /// Next message id.
    pub fn next_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// Arrival time for a message sent now on `from -> to`, keeping the link FIFO.
    pub fn arrival_time(&mut self, from: i32, to: i32, now_ms: u64, latency_ms: u64) -> u64 {
        let last = self.last_arrival.get(&(from, to)).copied().unwrap_or(0);
        let at = (now_ms + latency_ms).max(last);
        self.last_arrival.insert((from, to), at);
        at
    }

    /// The base latency of `from -> to`.
    pub fn base_latency(&self, from: i32, to: i32) -> u64 {
        self.link_latency_ms
            .get(&(from, to))
            .copied()
            .unwrap_or(self.config.latency_ms)
    }

    /// Keep a message put on the wire (or dropped at once) in the history, sent at event
    /// count `event`.
    pub fn record_sent(&mut self, m: &InFlight, event: u64) {
        self.history.push_message(SentMessage {
            id: m.id,
            from: m.from,
            to: m.to,
            kind: m.message.kind(),
            fields: m.message.fields(),
            summary: self.history.empty_summary(),
            send_ms: m.send_ms,
            arrive_ms: m.arrive_ms,
            sent_at_event: event,
            fate: Fate::InFlight,
            failed: m.message.is_synthesized_failure(),
        });
    }

    /// A message on the wire lost with its connection at `at_ms` (its sender or receiver died).
    pub fn record_lost(&mut self, m: &InFlight, at_ms: u64) {
        let summary: Arc<str> = m.message.summary().into();
        self.history
            .set_fate(m.id, Fate::Lost, Some(at_ms), &summary);
    }

    /// Remember a delivered message for views.
    pub fn record_delivery(&mut self, m: MessageView) {
        self.history
            .set_fate(m.id, Fate::Delivered, None, &m.summary);
        if self.recently_delivered.len() >= DELIVERED_KEPT {
            self.recently_delivered.pop_front();
        }
        self.recently_delivered.push_back(m);
    }

    /// Remember a dropped message for views.
    pub fn record_drop(&mut self, m: InFlight) {
        self.dropped_count += 1;
        let summary: Arc<str> = m.message.summary().into();
        self.history.set_fate(m.id, Fate::Dropped, None, &summary);
        if self.dropped.len() >= DROPPED_KEPT {
            self.dropped.pop_front();
        }
        self.dropped.push_back(m);
    }
}
