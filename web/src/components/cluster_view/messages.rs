//! The messages as drawn: a message kind's API, direction, CSS class and label, a message on its
//! link ([`Drawn`], with a failed request turned round towards the node that did not answer), and
//! the dot moving along the link with its ✕ and label.

use kraft_core::view::{ApiKeys, Direction, MessageKind, MessageView, RECENT_MESSAGE_MS};
use yew::prelude::*;

use super::geometry::{fmt, segment, Geometry, LANE_OFFSET};

/// The CSS class of an API: `msg-vote`, `msg-prevote`, `msg-fetch`, `msg-heartbeat`, …
pub fn message_class(api: ApiKeys) -> &'static str {
    match api {
        ApiKeys::Vote => "msg-vote",
        ApiKeys::PreVote => "msg-prevote",
        ApiKeys::BeginQuorumEpoch => "msg-begin",
        ApiKeys::EndQuorumEpoch => "msg-end",
        ApiKeys::Fetch => "msg-fetch",
        ApiKeys::FetchSnapshot => "msg-snapshot",
        ApiKeys::BrokerHeartbeat => "msg-heartbeat",
        ApiKeys::AlterPartition => "msg-alter",
        // The data plane shares one colour: replica fetches and the clients' requests.
        ApiKeys::ReplicaFetch
        | ApiKeys::Produce
        | ApiKeys::ConsumerFetch
        | ApiKeys::ListOffsets
        | ApiKeys::Metadata => "msg-replica",
        ApiKeys::AddRaftVoter | ApiKeys::RemoveRaftVoter | ApiKeys::UpdateRaftVoter => "msg-voters",
        ApiKeys::ApiVersions
        | ApiKeys::ControllerRegistration
        | ApiKeys::BrokerRegistration
        | ApiKeys::CreateTopics
        | ApiKeys::DeleteTopics
        | ApiKeys::IncrementalAlterConfigs => "msg-other",
    }
}

/// The short name of an API on the drawing: its name, `heartbeat` for BrokerHeartbeat.
pub fn api_label(api: ApiKeys) -> &'static str {
    match api {
        ApiKeys::BrokerHeartbeat => "heartbeat",
        other => other.name(),
    }
}

/// A short label for a message kind: a request by its API (`PreVote`, `Vote`, `heartbeat`), a
/// response with `resp` (`Vote resp`), a failed request with ✕ (`Vote ✕`).
pub fn message_label(kind: MessageKind) -> String {
    let base = api_label(kind.api);
    match kind.direction {
        Direction::Failed => format!("{base} ✕"),
        Direction::Response => format!("{base} resp"),
        Direction::Request => base.to_string(),
    }
}

/// A message as drawn: a failed request (a failure the sender's client made up, "from" the
/// node that did not answer) is drawn as the request, towards that node, failing at its end.
pub(super) struct Drawn<'a> {
    /// The message.
    pub(super) m: &'a MessageView,
    /// The node it is drawn from.
    pub(super) from: i32,
    /// The node it is drawn towards.
    pub(super) to: i32,
    /// Its API.
    pub(super) base: ApiKeys,
    /// Whether it is a failed request.
    pub(super) failed: bool,
    /// Whether it was delivered (recently: it fades out).
    pub(super) delivered: bool,
}

impl<'a> Drawn<'a> {
    /// `m` as drawn; `delivered` when it already arrived.
    pub(super) fn of(m: &'a MessageView, delivered: bool) -> Drawn<'a> {
        let base = m.kind.api;
        let failed = m.kind.direction == Direction::Failed;
        let (from, to) = if failed {
            (m.to, m.from)
        } else {
            (m.from, m.to)
        };
        Drawn {
            m,
            from,
            to,
            base,
            failed,
            delivered,
        }
    }

    /// Where along its link it is at `clock` (0 at the sender, 1 at the receiver).
    fn progress(&self, clock: f64) -> f64 {
        if self.delivered || self.failed {
            return 1.0;
        }
        let span = self.m.arrive_ms.saturating_sub(self.m.send_ms).max(1) as f64;
        ((clock - self.m.send_ms as f64) / span).clamp(0.0, 1.0)
    }

    /// The unordered pair of nodes it travels between.
    pub(super) fn pair(&self) -> (i32, i32) {
        (self.from.min(self.to), self.from.max(self.to))
    }
}

/// The page draws a message delivered or dropped `age` ms ago with this opacity.
fn fade(age_ms: f64) -> f64 {
    (1.0 - age_ms / RECENT_MESSAGE_MS as f64).clamp(0.25, 1.0)
}

/// A message moving along its link (a dot; ✕ when dropped or failed), with its label when it
/// carries the link's one label.
pub(super) fn draw_message(
    d: &Drawn,
    clock: f64,
    geo: &Geometry,
    label_at: Option<(f64, f64)>,
) -> Html {
    let Some((sx, sy, ex, ey, ox, oy)) = segment(geo, d.from, d.to, LANE_OFFSET) else {
        return html! {};
    };
    let m = d.m;
    let progress = d.progress(clock);
    let (state, opacity) = if d.delivered {
        ("delivered", fade(clock - m.arrive_ms as f64))
    } else if m.dropped {
        ("dropped", fade(clock - m.send_ms as f64))
    } else if d.failed {
        ("failed", fade(clock - m.send_ms as f64))
    } else {
        ("in-flight", 1.0)
    };
    let (px, py) = (sx + (ex - sx) * progress, sy + (ey - sy) * progress);
    let class = classes!(
        "message",
        message_class(m.kind.api),
        (m.dropped || d.failed).then_some("dropped"),
        d.delivered.then_some("delivered")
    );
    let title = format!(
        "{} {} → {}: {} (sent {} ms, arrives {} ms){}",
        m.kind.name(),
        m.from,
        m.to,
        m.summary,
        m.send_ms,
        m.arrive_ms,
        match state {
            "dropped" => " DROPPED",
            "failed" => " FAILED: no answer from the node",
            "delivered" => " delivered",
            _ => "",
        }
    );
    let label = message_label(m.kind);
    let _ = (ox, oy);
    html! {
        <g class={class} data-message-id={m.id.to_string()} data-kind={m.kind.name()}
           data-from={m.from.to_string()} data-to={m.to.to_string()} data-state={state}
           data-drawn-from={d.from.to_string()} data-drawn-to={d.to.to_string()}
           data-progress={format!("{progress:.3}")} opacity={format!("{opacity:.2}")}>
            <title>{ title }</title>
            <line class="track" x1={fmt(sx)} y1={fmt(sy)} x2={fmt(ex)} y2={fmt(ey)} marker-end="url(#arrow)" />
            <circle class="dot" cx={fmt(px)} cy={fmt(py)} r="9" />
            if m.dropped || d.failed {
                <text class="drop-mark" x={fmt(px)} y={fmt(py)} text-anchor="middle" dominant-baseline="central">{"✕"}</text>
            }
            if let Some((lx, ly)) = label_at {
                <text class="msg-label" x={fmt(lx)} y={fmt(ly)} text-anchor="middle" dominant-baseline="central"
                      data-label={label.clone()}>{ label }</text>
            }
        </g>
    }
}
