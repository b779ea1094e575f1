//! One broker's BrokerState machine (the article's figure, live), as Kafka's
//! BrokerLifecycleManager moves it: NOT_RUNNING → STARTING → RECOVERY → RUNNING →
//! PENDING_CONTROLLED_SHUTDOWN → SHUTTING_DOWN, each edge labelled with its reason, the broker's
//! current state lit; beside it the active controller's view of the broker (unfenced, fenced or
//! in controlled shutdown, from its registration) and when its session runs out.

use std::rc::Rc;

use kraft_core::view::{BrokerState, ClusterView, ControllerView, NodeView, ProcessState};
use yew::prelude::*;

use super::controls::format_ms;
use crate::i18n::{fill, use_lang, BrokerDiagramText};

/// The CSS class of a BrokerState (or of a process state in the BrokerState column, given by
/// its upper-case name): `state-running`, `state-starting`, `state-killed`, …
pub fn state_class(state: &str) -> String {
    format!("state-{}", state.to_ascii_lowercase().replace('_', "-"))
}

/// Width of the viewBox.
const WIDTH: f64 = 520.0;
/// Height of the viewBox.
const HEIGHT: f64 = 217.0;
/// Height of a state's box.
const BOX_H: f64 = 34.0;
/// The baseline of the labels above the first row (of their last line), and the three rows'
/// centres.
const LANE_Y: f64 = 32.0;
const ROWS: [f64; 3] = [58.0, 126.0, 194.0];

/// A BrokerState's box: (the state, left, row, width).
pub const STATES: [(BrokerState, f64, usize, f64); 6] = [
    (BrokerState::NotRunning, 3.0, 0, 143.0),
    (BrokerState::Starting, 168.7, 0, 100.0),
    (BrokerState::Recovery, 291.3, 0, 106.0),
    (BrokerState::Running, 420.0, 0, 97.0),
    (BrokerState::PendingControlledShutdown, 178.0, 1, 339.0),
    (BrokerState::ShuttingDown, 347.0, 2, 170.0),
];

/// A transition of BrokerLifecycleManager: from, to, its reason for `data-reason`, the Kafka
/// code, its label, the label's anchor and position.
pub struct BrokerEdge {
    /// The state left.
    pub from: BrokerState,
    /// The state entered.
    pub to: BrokerState,
    /// Why, in English.
    pub reason: &'static str,
    /// What in Kafka makes it.
    pub kafka: &'static str,
    /// The label in a language (a line break where it wraps).
    pub text: fn(&BrokerDiagramText) -> &'static str,
    /// (x1, y1, x2, y2) of its arrow.
    pub line: (f64, f64, f64, f64),
    /// The label's x, y and text-anchor.
    pub label: (f64, f64, &'static str),
}

/// The edges, in the order a broker goes through them.
pub const EDGES: [BrokerEdge; 5] = [
    BrokerEdge {
        from: BrokerState::NotRunning,
        to: BrokerState::Starting,
        reason: "startup: BrokerRegistration sent",
        kafka: "BrokerLifecycleManager.start → StartupEvent: STARTING, BrokerRegistrationRequest sent",
        text: |t| t.startup,
        line: (146.0, ROWS[0], 168.7, ROWS[0]),
        label: (157.0, LANE_Y, "middle"),
    },
    BrokerEdge {
        from: BrokerState::Starting,
        to: BrokerState::Recovery,
        reason: "registered and caught up",
        kafka: "a heartbeat answer with isCaughtUp: \"The broker has caught up. Transitioning from STARTING to RECOVERY.\"",
        text: |t| t.caught_up,
        line: (268.7, ROWS[0], 291.3, ROWS[0]),
        label: (280.0, LANE_Y, "middle"),
    },
    BrokerEdge {
        from: BrokerState::Recovery,
        to: BrokerState::Running,
        reason: "unfenced",
        kafka: "a heartbeat answer with isFenced false: \"The broker has been unfenced. Transitioning from RECOVERY to RUNNING.\"",
        text: |t| t.unfenced,
        line: (397.3, ROWS[0], 420.0, ROWS[0]),
        label: (409.0, LANE_Y, "middle"),
    },
    BrokerEdge {
        from: BrokerState::Running,
        to: BrokerState::PendingControlledShutdown,
        reason: "kill -TERM: controlled shutdown requested",
        kafka: "BrokerServer.shutdown → BrokerLifecycleManager.beginControlledShutdown: the next heartbeats want to shut down",
        text: |t| t.controlled_shutdown,
        line: (468.5, ROWS[0] + BOX_H / 2.0, 468.5, ROWS[1] - BOX_H / 2.0),
        label: (458.0, 98.0, "end"),
    },
    BrokerEdge {
        from: BrokerState::PendingControlledShutdown,
        to: BrokerState::ShuttingDown,
        reason: "shutdown granted or timed out",
        kafka: "a heartbeat answer with shouldShutDown (or BrokerServer's wait timed out) → beginShutdown",
        text: |t| t.shutdown_granted,
        line: (468.5, ROWS[1] + BOX_H / 2.0, 468.5, ROWS[2] - BOX_H / 2.0),
        label: (458.0, 166.0, "end"),
    },
];

/// The active controller's view of a broker, from its registration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControllerSees {
    /// Registered and unfenced.
    Unfenced,
    /// Registered and fenced.
    Fenced,
    /// Registered, in controlled shutdown.
    InControlledShutdown,
}

impl ControllerSees {
    /// All three, in the order drawn.
    pub const ALL: [ControllerSees; 3] = [
        ControllerSees::Unfenced,
        ControllerSees::Fenced,
        ControllerSees::InControlledShutdown,
    ];

    /// Its `data-view`.
    pub fn name(self) -> &'static str {
        match self {
            ControllerSees::Unfenced => "unfenced",
            ControllerSees::Fenced => "fenced",
            ControllerSees::InControlledShutdown => "in controlled shutdown",
        }
    }

    /// Its label in the language of `t`.
    fn text(self, t: &BrokerDiagramText) -> &'static str {
        match self {
            ControllerSees::Unfenced => t.sees_unfenced,
            ControllerSees::Fenced => t.sees_fenced,
            ControllerSees::InControlledShutdown => t.sees_shutdown,
        }
    }

    /// What `controller` has registered for broker `id`, if it has registered it.
    pub fn of(controller: &ControllerView, id: i32) -> Option<ControllerSees> {
        let (_, _, fenced) = controller.brokers.iter().find(|(b, _, _)| *b == id)?;
        Some(if controller.brokers_in_controlled_shutdown.contains(&id) {
            ControllerSees::InControlledShutdown
        } else if *fenced {
            ControllerSees::Fenced
        } else {
            ControllerSees::Unfenced
        })
    }
}

/// When the broker's session on `controller` runs out (virtual ms): its last heartbeat plus
/// broker.session.timeout.ms (the last heartbeat received, also once it is fenced).
pub fn session_deadline(controller: &ControllerView, id: i32, now_ms: u64) -> Option<u64> {
    let last = controller
        .heartbeats
        .iter()
        .find(|(b, _)| *b == id)
        .and_then(|(_, times)| times.last().copied())
        .or_else(|| {
            let (_, since) = controller.sessions.iter().find(|(b, _)| *b == id)?;
            Some(now_ms.saturating_sub(*since))
        })?;
    Some(last + controller.session_timeout_ms)
}

/// The broker the panel shows: `focus` if it is a broker, else the first broker.
pub fn broker_shown(view: &ClusterView, focus: Option<i32>) -> Option<&NodeView> {
    let is_broker = |n: &&NodeView| n.roles.has_broker();
    view.nodes
        .iter()
        .filter(is_broker)
        .find(|n| Some(n.id) == focus)
        .or_else(|| view.nodes.iter().find(is_broker))
}

/// Properties of [`BrokerStateDiagram`].
#[derive(Properties, PartialEq)]
pub struct BrokerStateDiagramProps {
    /// The view.
    pub view: Rc<ClusterView>,
    /// The node in focus (a controller in focus shows the first broker).
    #[prop_or_default]
    pub focus: Option<i32>,
}

fn f(v: f64) -> String {
    format!("{v:.1}")
}

fn draw_state(
    state: BrokerState,
    left: f64,
    row: usize,
    w: f64,
    current: Option<BrokerState>,
) -> Html {
    let lit = current == Some(state);
    let name = state.name();
    let y = ROWS[row];
    html! {
        <g class={classes!("bsd-state", state_class(name), lit.then_some("current"))} data-state={name}>
            <rect x={f(left)} y={f(y - BOX_H / 2.0)} width={f(w)} height={f(BOX_H)} rx="8" />
            <text x={f(left + w / 2.0)} y={f(y + 6.0)} text-anchor="middle">{ name }</text>
        </g>
    }
}

fn draw_edge(e: &BrokerEdge, t: &BrokerDiagramText, current: Option<BrokerState>) -> Html {
    let (x1, y1, x2, y2) = e.line;
    let into = current == Some(e.to);
    let lines: Vec<&str> = (e.text)(t).split('\n').collect();
    html! {
        <>
            <line class={classes!("bsd-edge", into.then_some("into"))} data-from={e.from.name()} data-to={e.to.name()} data-reason={e.reason}
                  x1={f(x1)} y1={f(y1)} x2={f(x2)} y2={f(y2)} marker-end={if into { "url(#bsd-arrow-into)" } else { "url(#bsd-arrow)" }}>
                <title>{ format!("{} → {}: {} ({})", e.from.name(), e.to.name(), e.reason, e.kafka) }</title>
            </line>
            <text class="bsd-label" x={f(e.label.0)} y={f(e.label.1 - 19.0 * (lines.len() as f64 - 1.0))} text-anchor={e.label.2}>
                { for lines.iter().enumerate().map(|(i, l)| html! {
                    <tspan x={f(e.label.0)} dy={if i == 0 { "0" } else { "19" }}>{ *l }</tspan>
                }) }
            </text>
        </>
    }
}

/// The column of the controller's view: the three registrations with the current one lit, and
/// the session's deadline.
fn controller_column(
    view: &ClusterView,
    id: i32,
    active: Option<(i32, &ControllerView)>,
    t: &BrokerDiagramText,
) -> Html {
    let sees = active.and_then(|(_, c)| ControllerSees::of(c, id));
    let deadline = active.and_then(|(_, c)| session_deadline(c, id, view.now_ms));
    let head = match active {
        Some((cid, _)) => fill(t.controller_sees, cid),
        None => t.no_active.to_string(),
    };
    let when = match deadline {
        Some(d) if d > view.now_ms => format!(
            "{} {} ({} {})",
            t.session_ends,
            format_ms(d),
            format_ms(d - view.now_ms),
            t.left
        ),
        Some(d) => format!("{} {}", t.session_ended, format_ms(d)),
        None => String::new(),
    };
    html! {
        <g class="bsd-controller" data-view={sees.map(|s| s.name()).unwrap_or("-")}
           data-deadline-ms={deadline.map(|d| d.to_string()).unwrap_or_default()}>
            <text class="bsd-title" x="4" y="97">{ head }</text>
            { for ControllerSees::ALL.iter().enumerate().map(|(i, s)| {
                let lit = sees == Some(*s);
                let y = 107.0 + 26.0 * i as f64;
                // The last chip is below PENDING_CONTROLLED_SHUTDOWN's box: it may be wider.
                let w = if i == 2 { 216.0 } else { 170.0 };
                html! {
                    <g class={classes!("bsd-view", s.name().replace(' ', "-"), lit.then_some("lit"))} data-view={s.name()}>
                        <rect x="4" y={f(y)} width={f(w)} height="22" rx="11" />
                        <text x="14" y={f(y + 16.5)}>{ s.text(t) }</text>
                    </g>
                }
            }) }
            <text class="bsd-deadline" x="4" y="208">{ when }</text>
        </g>
    }
}

/// The BrokerState diagram of the focused broker (or the first one).
#[component]
pub fn BrokerStateDiagram(props: &BrokerStateDiagramProps) -> Html {
    let view = &props.view;
    let t = BrokerDiagramText::of(use_lang());
    let Some(node) = broker_shown(view, props.focus) else {
        return html! {};
    };
    // A broker whose process is killed is not running.
    let current = match &node.broker {
        Some(b) => Some(b.state),
        None if node.process == ProcessState::Killed => Some(BrokerState::NotRunning),
        None => None,
    };
    let active = view.active_controller();
    html! {
        <div class="bsd" id="broker-state-diagram" data-broker={node.id.to_string()}
             data-current={current.map_or("-", |s| s.name())} data-process={node.process.name()}>
            <svg viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img"
                 aria-label={format!("BrokerState of broker {}", node.id)}>
                <title>{ format!("BrokerState of broker {} (BrokerLifecycleManager)", node.id) }</title>
                <defs>
                    <marker id="bsd-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="bsd-head" />
                    </marker>
                    <marker id="bsd-arrow-into" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="3" markerHeight="3" orient="auto">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="bsd-head into" />
                    </marker>
                </defs>
                { for EDGES.iter().map(|e| draw_edge(e, t, current)) }
                { for STATES.iter().map(|&(name, left, row, w)| draw_state(name, left, row, w, current)) }
                <text class="bsd-broker" x="3" y={f(LANE_Y)}>{ format!("{} {}", t.broker, node.id) }</text>
                { controller_column(view, node.id, active, t) }
            </svg>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_box_per_broker_state_and_each_edge_joins_two_of_them() {
        let names: Vec<BrokerState> = STATES.iter().map(|s| s.0).collect();
        assert_eq!(names, BrokerState::ALL);
        for e in &EDGES {
            assert!(names.contains(&e.from) && names.contains(&e.to));
            assert!(!e.reason.is_empty());
            for t in [BrokerDiagramText::KO, BrokerDiagramText::EN] {
                assert!(!(e.text)(&t).is_empty());
            }
            // The arrow runs between its two boxes and through no other.
            let (x1, y1, x2, y2) = e.line;
            for &(name, left, row, w) in &STATES {
                let (top, bottom) = (ROWS[row] - BOX_H / 2.0, ROWS[row] + BOX_H / 2.0);
                let mid = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
                assert!(
                    !(mid.0 > left && mid.0 < left + w && mid.1 > top && mid.1 < bottom),
                    "the arrow {} → {} runs through {}",
                    e.from.name(),
                    e.to.name(),
                    name.name()
                );
            }
        }
        // Every box fits the diagram.
        for &(name, left, _, w) in &STATES {
            assert!(left >= 0.0 && left + w <= WIDTH, "{}", name.name());
        }
    }
}
