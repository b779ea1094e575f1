//! The sequence diagram's geometry, from the view alone (no DOM, so it is tested natively): a
//! lane per node (controllers, then brokers, then the tools' admin client when it talks), time
//! flowing down, each message an arrow from its send on the sender's lane to its arrival on the
//! receiver's, transitions and process events as chips on the lanes, and the present as a
//! cursor.
//!
//! Time is not drawn to a linear scale: an election takes ten milliseconds after two seconds of
//! silence. Each instant something happens gets a row, rows further apart in time a little
//! further apart (logarithmically), and a long silence a break labelled with its length. At an
//! instant, arrivals come first, then the node's transitions (the chips), then what it sends:
//! the order of one event. `x` is a fraction of the width, `y` in `em`.

use std::collections::{BTreeMap, BTreeSet};

use kraft_core::view::sequence::{Fate, ProcessEvent, SentMessage, SequenceView};
use kraft_core::view::{ApiKeys, ClusterView, Direction, StateKind};

use super::label::{arrow_label, State};
use super::place::{chip_width, place_labels, DEFAULT_WIDTH_EM};
pub use super::shapes::{Arrow, Chip, CHIP_H};
use crate::components::cluster_view::message_class;

/// Space above the first row (em).
const TOP: f64 = 0.6;
/// Space under the last row (em).
const BOTTOM: f64 = 0.6;
/// The gap between two instants 1 ms apart (em); each doubling of the gap adds [`GAP_LOG`].
const GAP_MIN: f64 = 1.05;
/// What each doubling of the time between two instants adds to their gap (em).
const GAP_LOG: f64 = 0.2;
/// The largest gap (em).
const GAP_MAX: f64 = 1.7;
/// How far the gaps are squeezed and stretched at most to fit the panel's height.
const STRETCH: (f64, f64) = (0.75, 2.2);
/// A silence at least this long (ms) is drawn as a break with its length.
pub const BREAK_MS: u64 = 200;
/// The node id of the tools' admin client (as the engine spells it).
const ADMIN: i32 = kraft_core::sim::world::ADMIN_CLIENT_ID;

/// A lane: one node.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    /// The node id.
    pub id: i32,
    /// `controller`, `broker`, `combined` or `admin`.
    pub role: &'static str,
    /// The lane's centre, as a fraction of the width.
    pub x: f64,
    /// The stretches (y from, y to, `killed` or `stopped`) where its process was not running.
    pub down: Vec<(f64, f64, &'static str)>,
}

/// The room the diagram has on the page (em; 0 when not measured yet).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Fit {
    /// The visible height: the rows' gaps stretch to fill it.
    pub height_em: f64,
    /// The width: where labels fit.
    pub width_em: f64,
}

/// The sequence diagram of one window.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagram {
    /// The lanes, left to right.
    pub lanes: Vec<Lane>,
    /// The messages, in send order.
    pub arrows: Vec<Arrow>,
    /// The chips, in time order.
    pub chips: Vec<Chip>,
    /// The long silences: (y from, y to, ms).
    pub breaks: Vec<(f64, f64, u64)>,
    /// The present, when inside the window (em).
    pub cursor: Option<f64>,
    /// The whole height (em).
    pub height: f64,
    /// Where the newest burst begins (em): the end of the last long silence, or the top.
    pub burst_y: f64,
    /// The window (virtual ms).
    pub range: (u64, u64),
    /// The present (virtual ms).
    pub now_ms: u64,
    /// The room it was laid out for.
    pub fit: Fit,
}

/// The lanes' nodes: the controllers (and combined nodes), then the brokers, by id.
fn lane_nodes(view: &ClusterView) -> Vec<(i32, &'static str)> {
    let mut out: Vec<(i32, &'static str)> = view
        .nodes
        .iter()
        .map(|n| {
            let role = match (n.roles.has_controller(), n.roles.has_broker()) {
                (true, true) => "combined",
                (true, false) => "controller",
                _ => "broker",
            };
            (n.id, role)
        })
        .collect();
    out.sort_by_key(|&(id, role)| (role == "broker", id));
    out
}

/// The gap between two instants `dt_ms` apart (em).
fn gap(dt_ms: u64) -> f64 {
    if dt_ms == 0 {
        return 0.0;
    }
    (GAP_MIN + GAP_LOG * (dt_ms as f64).log2()).min(GAP_MAX)
}

/// Where each instant of the window is drawn: arrivals at `.0`, sends after its chips at `.1`.
struct TimeAxis {
    rows: BTreeMap<u64, (f64, f64)>,
    breaks: Vec<(f64, f64, u64)>,
    height: f64,
}

impl TimeAxis {
    /// The axis of these instants, each with the most chips one lane has at it; the gaps
    /// stretched (or squeezed a little) so that the whole fits `fit_em` when it is known.
    fn of(instants: &BTreeMap<u64, usize>, fit_em: f64) -> TimeAxis {
        let times: Vec<u64> = instants.keys().copied().collect();
        let gaps: f64 = times.windows(2).map(|w| gap(w[1] - w[0])).sum();
        let chips: f64 = instants.values().map(|&c| c as f64 * CHIP_H).sum();
        let stretch = if fit_em > 0.0 && gaps > 0.0 {
            ((fit_em - chips - TOP - BOTTOM) / gaps).clamp(STRETCH.0, STRETCH.1)
        } else {
            1.0
        };
        let mut rows = BTreeMap::new();
        let mut breaks = Vec::new();
        let mut y = TOP;
        let mut prev: Option<u64> = None;
        for (&t, &chips) in instants {
            if let Some(p) = prev {
                let d = gap(t - p) * stretch;
                if t - p >= BREAK_MS {
                    breaks.push((y, y + d, t - p));
                }
                y += d;
            }
            let arrive = y;
            y += chips as f64 * CHIP_H;
            rows.insert(t, (arrive, y));
            prev = Some(t);
        }
        TimeAxis {
            rows,
            breaks,
            height: y + BOTTOM,
        }
    }

    /// Where time `t` is drawn: an instant's arrival (`send`: its send) row, else in between
    /// its neighbours.
    fn y(&self, t: u64, send: bool) -> f64 {
        if let Some(&(a, s)) = self.rows.get(&t) {
            return if send { s } else { a };
        }
        let before = self.rows.range(..t).next_back();
        let after = self.rows.range(t..).next();
        match (before, after) {
            (Some((&t0, &(_, y0))), Some((&t1, &(y1, _)))) => {
                y0 + (y1 - y0) * (t - t0) as f64 / (t1 - t0).max(1) as f64
            }
            (Some((_, &(_, y0))), None) => y0,
            (None, Some((_, &(y1, _)))) => y1,
            (None, None) => TOP,
        }
    }
}

/// The messages of the window that are shown: not hidden, sent inside it.
fn shown<'a>(
    seq: &'a SequenceView,
    hidden: &'a BTreeSet<ApiKeys>,
    (start, end): (u64, u64),
) -> impl Iterator<Item = &'a SentMessage> + 'a {
    seq.messages
        .iter()
        .filter(move |m| m.send_ms >= start && m.send_ms <= end && !hidden.contains(&m.kind.api))
}

/// The event count of the state at virtual time `t`: that of the last message sent by then.
pub fn event_at(seq: &SequenceView, t: u64) -> u64 {
    let i = seq.messages.partition_point(|m| m.send_ms <= t);
    i.checked_sub(1)
        .map_or(0, |i| seq.messages[i].sent_at_event)
}

/// The Raft state node `id` was in at `t` (its newest transition by then), if known.
fn state_at(seq: &SequenceView, id: i32, t: u64) -> Option<StateKind> {
    seq.transitions
        .iter()
        .rev()
        .find(|x| x.node == id && x.transition.time_ms <= t)
        .map(|x| x.transition.to)
}

/// The chips of the window: process events, then transitions, by time.
fn chips_of(
    seq: &SequenceView,
    lanes: &[(i32, &'static str)],
    (start, end): (u64, u64),
) -> Vec<Chip> {
    let lane = |id: i32| lanes.iter().position(|&(l, _)| l == id);
    let mut out = Vec::new();
    for m in seq
        .marks
        .iter()
        .filter(|m| m.time_ms >= start && m.time_ms <= end)
    {
        let Some(i) = lane(m.node) else { continue };
        let class = match m.what {
            ProcessEvent::Kill | ProcessEvent::Crash | ProcessEvent::Exit => "proc-kill",
            ProcessEvent::Stop | ProcessEvent::Terminate => "proc-stop",
            ProcessEvent::Cont | ProcessEvent::Start => "proc-start",
        };
        out.push(Chip {
            lane: i,
            node: m.node,
            y: 0.0,
            text: m.what.name().to_string(),
            dx: 0.0,
            note: m.what.name().to_string(),
            title: format!("{} {} at {} ms", m.what.name(), m.node, m.time_ms),
            class: class.to_string(),
            time_ms: m.time_ms,
            event: m.at_event,
        });
    }
    // Each node's epoch before each transition: a chip names the epoch when it changes.
    let mut epochs: BTreeMap<i32, i32> = BTreeMap::new();
    for x in seq.transitions.iter() {
        let t = &x.transition;
        let before = epochs.insert(x.node, t.epoch);
        if t.time_ms < start || t.time_ms > end {
            continue;
        }
        let Some(i) = lane(x.node) else { continue };
        out.push(Chip {
            lane: i,
            node: x.node,
            y: 0.0,
            text: if before == Some(t.epoch) {
                t.to.name().to_string()
            } else {
                format!("{} e{}", t.to, t.epoch)
            },
            dx: 0.0,
            note: format!("{} (epoch {})", t.to, t.epoch),
            title: format!(
                "{}: {} → {} (epoch {}) at {} ms",
                x.node,
                t.from.map_or("null", StateKind::name),
                t.to,
                t.epoch,
                t.time_ms
            ),
            class: format!("role-{}", t.to.name().to_ascii_lowercase()),
            time_ms: t.time_ms,
            event: event_at(seq, t.time_ms),
        });
    }
    out.sort_by_key(|c| c.time_ms);
    out
}

/// The sequence diagram of `view` over `range`, `hidden` APIs left out, fitted to `fit`.
pub fn diagram(
    view: &ClusterView,
    hidden: &BTreeSet<ApiKeys>,
    range: (u64, u64),
    fit: Fit,
) -> Diagram {
    let seq = &view.sequence;
    let now = view.now_ms;
    let mut nodes = lane_nodes(view);
    let messages: Vec<&SentMessage> = shown(seq, hidden, range).collect();
    if messages.iter().any(|m| m.from == ADMIN || m.to == ADMIN) {
        nodes.push((ADMIN, "admin"));
    }
    let mut chips = chips_of(seq, &nodes, range);
    // The instants: sends, arrivals (a failure's ✕ goes in between), chips and the present
    // when the window reaches it.
    let mut instants: BTreeMap<u64, usize> = BTreeMap::new();
    if range.1 == now {
        instants.insert(now, 0);
    }
    for m in &messages {
        instants.entry(m.send_ms).or_default();
        if m.arrive_ms <= now && !m.failed {
            instants.entry(m.arrive_ms).or_default();
        }
    }
    let mut per_lane: BTreeMap<(u64, usize), usize> = BTreeMap::new();
    for c in &chips {
        let n = per_lane.entry((c.time_ms, c.lane)).or_default();
        *n += 1;
        let most = instants.entry(c.time_ms).or_default();
        *most = (*most).max(*n);
    }
    let axis = TimeAxis::of(&instants, fit.height_em);
    let mut stacked: BTreeMap<(u64, usize), usize> = BTreeMap::new();
    for c in &mut chips {
        let k = stacked.entry((c.time_ms, c.lane)).or_default();
        c.y = axis.y(c.time_ms, false) + (*k as f64 + 0.5) * CHIP_H;
        *k += 1;
    }
    let n = nodes.len().max(1) as f64;
    let x_of = |i: usize| (i as f64 + 0.5) / n;
    // Chips at the edge lanes stay inside the diagram.
    let width = if fit.width_em > 0.0 {
        fit.width_em
    } else {
        DEFAULT_WIDTH_EM
    };
    for c in &mut chips {
        let (half, x) = (chip_width(&c.text) / 2.0, x_of(c.lane) * width);
        c.dx = x.clamp(half, (width - half).max(half)) - x;
    }
    let mut arrows: Vec<Arrow> = messages
        .iter()
        .filter_map(|m| arrow(seq, m, &nodes, &axis, now, &x_of))
        .collect();
    place_labels(&mut arrows, &chips, &x_of, fit.width_em);
    let lanes = nodes
        .iter()
        .enumerate()
        .map(|(i, &(id, role))| Lane {
            id,
            role,
            x: x_of(i),
            down: down_stretches(seq, id, range, &axis),
        })
        .collect();
    // Room for a label placed under the last arrow.
    let height = arrows_height(&arrows, axis.height);
    Diagram {
        lanes,
        arrows,
        chips,
        breaks: axis.breaks.clone(),
        cursor: (range.0..=range.1)
            .contains(&now)
            .then(|| axis.y(now, false)),
        height,
        burst_y: axis.breaks.last().map_or(0.0, |b| b.1),
        range,
        now_ms: now,
        fit,
    }
}

/// The height that holds the rows (`rows`) and every label (em).
fn arrows_height(arrows: &[Arrow], rows: f64) -> f64 {
    arrows
        .iter()
        .filter_map(|a| a.label_at.map(|(_, y)| y + 0.4))
        .fold(rows, f64::max)
}

/// Message `m` as an arrow, if both its ends have a lane.
fn arrow(
    seq: &SequenceView,
    m: &SentMessage,
    nodes: &[(i32, &'static str)],
    axis: &TimeAxis,
    now: u64,
    x_of: &dyn Fn(usize) -> f64,
) -> Option<Arrow> {
    let (from, to) = if m.failed {
        (m.to, m.from)
    } else {
        (m.from, m.to)
    };
    let a = nodes.iter().position(|&(id, _)| id == from)?;
    let b = nodes.iter().position(|&(id, _)| id == to)?;
    let dir = m.kind.direction;
    // A failed Vote of a Prospective node was a PreVote (the failure only names the API).
    let api = match (m.failed, m.kind.api) {
        (true, ApiKeys::Vote) if state_at(seq, from, m.send_ms) == Some(StateKind::Prospective) => {
            ApiKeys::PreVote
        }
        (_, api) => api,
    };
    let state = match (m.failed, m.fate) {
        (true, _) => State::Failed,
        (_, Fate::Dropped) => State::Dropped,
        (_, Fate::Lost) => State::Lost,
        (_, Fate::Delivered) => State::Delivered,
        (_, Fate::InFlight) if m.arrive_ms <= now => State::Delivered,
        (_, Fate::InFlight) => State::InFlight,
    };
    let (xa, xb) = (x_of(a), x_of(b));
    let y0 = axis.y(m.send_ms, true);
    let end = match state {
        State::Delivered => (xb, axis.y(m.arrive_ms, false)),
        // A failure is not an instant of its own: its ✕ goes where its time falls.
        State::Failed => (xb, axis.y(m.arrive_ms, false).max(y0 + 0.5)),
        State::InFlight => {
            let span = m.arrive_ms.saturating_sub(m.send_ms).max(1) as f64;
            let f = (now.saturating_sub(m.send_ms) as f64 / span).clamp(0.0, 1.0);
            (xa + (xb - xa) * f, axis.y(now, false))
        }
        State::Dropped | State::Lost => {
            let mid = m.send_ms + m.arrive_ms.saturating_sub(m.send_ms) / 2;
            (xa + (xb - xa) * 0.5, axis.y(mid, false).max(y0 + 0.4))
        }
    };
    Some(Arrow {
        api,
        label: arrow_label(api, dir, &m.fields),
        class: message_class(api),
        response: dir == Direction::Response,
        state,
        lanes: (a, b),
        start: (xa, y0),
        end: if a == b {
            (end.0, end.1.max(y0 + 0.8))
        } else {
            end
        },
        self_loop: a == b,
        label_at: None,
        m: m.clone(),
    })
}

/// The stretches of the window where node `id`'s process was down (killed) or stopped.
fn down_stretches(
    seq: &SequenceView,
    id: i32,
    (start, end): (u64, u64),
    axis: &TimeAxis,
) -> Vec<(f64, f64, &'static str)> {
    let state_of = |e: ProcessEvent| match e {
        ProcessEvent::Kill | ProcessEvent::Crash | ProcessEvent::Exit => Some("killed"),
        ProcessEvent::Stop => Some("stopped"),
        ProcessEvent::Cont | ProcessEvent::Start => None,
        ProcessEvent::Terminate => None,
    };
    let marks = seq
        .marks
        .iter()
        .filter(|m| m.node == id && m.what != ProcessEvent::Terminate);
    let mut state = marks
        .clone()
        .rfind(|m| m.time_ms < start)
        .and_then(|m| state_of(m.what));
    let mut since = start;
    let mut out = Vec::new();
    for m in marks.filter(|m| m.time_ms >= start && m.time_ms <= end) {
        if let Some(s) = state {
            out.push((axis.y(since, true), axis.y(m.time_ms, false), s));
        }
        state = state_of(m.what);
        since = m.time_ms;
    }
    if let Some(s) = state {
        out.push((axis.y(since, true), axis.height - BOTTOM, s));
    }
    out
}
