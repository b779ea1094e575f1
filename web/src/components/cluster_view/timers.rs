//! Timers and sessions as arcs that drain: every running node's Raft timer around it, each
//! broker's session on the active controller outside its timer, a fenced broker's session as an
//! empty red ring.

use std::collections::BTreeMap;
use std::f64::consts::PI;

use kraft_core::lesson::stage::Highlight;
use kraft_core::view::{ClusterView, ControllerView, NodeView, ProcessState, RaftTimerView};
use yew::prelude::*;

use super::geometry::{fmt, Geometry, SESSION_RADIUS, TIMER_RADIUS, TIMER_RADIUS_BROKER};

/// The timers' layer: every node's Raft timer, the sessions of the brokers the `active`
/// controller has not fenced and the expired sessions of those it has (`fenced`), the sessions
/// a lesson step lights (`lit`) lit.
pub(super) fn draw_timers(
    view: &ClusterView,
    geo: &Geometry,
    clock: f64,
    active: Option<&ControllerView>,
    fenced: &BTreeMap<i32, bool>,
    lit: &[Highlight],
) -> Html {
    let lit_session = |id: i32| {
        lit.iter()
            .any(|h| matches!(h, Highlight::Session(n) if *n == id))
    };
    let since_frame = clock - view.now_ms as f64;
    html! {
        <g class="timers" id="timers">
            { for view.nodes.iter().map(|n| draw_timer(n, geo.pos[&n.id], clock, geo.broker(n.id), geo.scale)) }
            { for active.into_iter().flat_map(|c| c.sessions.iter().filter(|(id, _)| fenced.get(id) != Some(&true)).filter_map(|(id, since)| geo.pos.get(id).map(|p| draw_session(*id, *p, *since as f64 + since_frame, c.session_timeout_ms, lit_session(*id), geo.scale)))) }
            { for fenced.iter().filter(|(_, f)| **f).filter_map(|(id, _)| geo.pos.get(id).map(|p| draw_expired_session(*id, *p, lit_session(*id), geo.scale))) }
        </g>
    }
}

/// The fraction of a timer still to run at `clock`, in [0, 1].
pub fn timer_fraction(t: &RaftTimerView, clock: f64) -> f64 {
    ((t.deadline_ms as f64 - clock) / t.duration_ms.max(1) as f64).clamp(0.0, 1.0)
}

/// A track circle of radius `r` around `(x, y)` and, over it, the arc of the share `frac` still
/// to run, starting at 12 o'clock and draining clockwise.
fn arc((x, y): (f64, f64), r: f64, frac: f64) -> Html {
    let circumference = 2.0 * PI * r;
    html! {
        <>
            <circle class="timer-track" cx={fmt(x)} cy={fmt(y)} r={fmt(r)} />
            <circle class="timer-arc" cx={fmt(x)} cy={fmt(y)} r={fmt(r)}
                    stroke-dasharray={format!("{:.1} {:.1}", circumference * frac, circumference)}
                    transform={format!("rotate(-90 {} {})", fmt(x), fmt(y))} />
        </>
    }
}

/// A broker's session on the active controller (`since_ms` after its last heartbeat at
/// `clock`, of `timeout_ms`) as an outer arc draining towards the fencing deadline.
fn draw_session(id: i32, p: (f64, f64), since_ms: f64, timeout_ms: u64, lit: bool, s: f64) -> Html {
    let left_ms = (timeout_ms as f64 - since_ms).max(0.0);
    let frac = left_ms / timeout_ms.max(1) as f64;
    let title = format!(
        "session on the active controller: last heartbeat {since_ms:.0} ms ago, fenced after {timeout_ms} ms (broker.session.timeout.ms)"
    );
    html! {
        <g class={classes!("timer", "timer-session", lit.then_some("lit"))} data-session-node={id.to_string()}
           data-kind="session" data-remaining-ms={format!("{left_ms:.0}")} data-duration-ms={timeout_ms.to_string()}
           data-focused={lit.then_some("true")}>
            <title>{ title }</title>
            { arc(p, SESSION_RADIUS * s, frac) }
        </g>
    }
}

/// A fenced broker's session: over, drawn as an empty red ring.
fn draw_expired_session(id: i32, (x, y): (f64, f64), lit: bool, s: f64) -> Html {
    html! {
        <g class={classes!("timer", "timer-session", "expired", lit.then_some("lit"))} data-session-node={id.to_string()}
           data-kind="session" data-remaining-ms="0" data-focused={lit.then_some("true")}>
            <title>{ "fenced: its session on the active controller is over" }</title>
            <circle class="timer-track" cx={fmt(x)} cy={fmt(y)} r={fmt(SESSION_RADIUS * s)} />
        </g>
    }
}

/// The node's Raft timer as an arc around it that drains clockwise as the deadline nears.
fn draw_timer(node: &NodeView, p: (f64, f64), clock: f64, broker_only: bool, s: f64) -> Html {
    let Some(t) = node
        .raft_timer
        .as_ref()
        .filter(|_| node.process == ProcessState::Running)
    else {
        return html! {};
    };
    let r = s * if broker_only {
        TIMER_RADIUS_BROKER
    } else {
        TIMER_RADIUS
    };
    let frac = timer_fraction(t, clock);
    let left_ms = (t.deadline_ms as f64 - clock).max(0.0);
    let title = format!(
        "{} timer: {left_ms:.0} ms left of {} ms (fires at {} ms)",
        t.kind.name(),
        t.duration_ms,
        t.deadline_ms
    );
    html! {
        <g class={classes!("timer", format!("timer-{}", t.kind.name()))} data-timer-node={node.id.to_string()}
           data-kind={t.kind.name()} data-remaining-ms={format!("{left_ms:.0}")}
           data-duration-ms={t.duration_ms.to_string()} data-deadline-ms={t.deadline_ms.to_string()}>
            <title>{ title }</title>
            { arc(p, r, frac) }
        </g>
    }
}
