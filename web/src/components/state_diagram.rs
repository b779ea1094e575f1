//! One node's Raft state machine as a small graph: the states of Kafka's QuorumState, the
//! transitions it allows as edges, the current state lit and the last transition (read from the
//! node's server.log) highlighted.

use kraft_core::view::NodeView;
use yew::prelude::*;

const WIDTH: f64 = 600.0;
const HEIGHT: f64 = 300.0;
const BOX_W: f64 = 150.0;
const BOX_H: f64 = 46.0;
/// Edges are drawn this far to the right of the centre line, so A→B and B→A do not overlap.
const LANE: f64 = 7.0;

/// The states and where they are drawn.
pub const STATES: [(&str, f64, f64); 6] = [
    ("Unattached", 85.0, 150.0),
    ("Prospective", 225.0, 45.0),
    ("Candidate", 395.0, 45.0),
    ("Leader", 515.0, 150.0),
    ("Resigned", 395.0, 255.0),
    ("Follower", 225.0, 255.0),
];

/// The transitions QuorumState allows a voter (self-transitions left out).
pub const VOTER_EDGES: [(&str, &str); 17] = [
    ("Unattached", "Prospective"),
    ("Unattached", "Follower"),
    ("Prospective", "Unattached"),
    ("Prospective", "Candidate"),
    ("Prospective", "Follower"),
    ("Candidate", "Unattached"),
    ("Candidate", "Prospective"),
    ("Candidate", "Leader"),
    ("Candidate", "Follower"),
    ("Leader", "Unattached"),
    ("Leader", "Resigned"),
    ("Leader", "Follower"),
    ("Follower", "Unattached"),
    ("Follower", "Prospective"),
    ("Resigned", "Unattached"),
    ("Resigned", "Prospective"),
    ("Resigned", "Follower"),
];

/// The transitions of an observer: only Unattached and Follower.
pub const OBSERVER_EDGES: [(&str, &str); 2] =
    [("Unattached", "Follower"), ("Follower", "Unattached")];

/// Properties of [`StateDiagram`].
#[derive(Properties, PartialEq)]
pub struct StateDiagramProps {
    /// The node drawn.
    pub node: NodeView,
}

fn pos(state: &str) -> Option<(f64, f64)> {
    STATES
        .iter()
        .find(|(s, _, _)| *s == state)
        .map(|&(_, x, y)| (x, y))
}

/// Where the segment from a box centre towards (dx, dy) leaves the box.
fn exit(dx: f64, dy: f64) -> f64 {
    let tx = if dx.abs() > 1e-9 {
        (BOX_W / 2.0 + 6.0) / dx.abs()
    } else {
        f64::MAX
    };
    let ty = if dy.abs() > 1e-9 {
        (BOX_H / 2.0 + 6.0) / dy.abs()
    } else {
        f64::MAX
    };
    tx.min(ty)
}

fn f(v: f64) -> String {
    format!("{v:.1}")
}

/// The line of the edge `from` → `to`: from the border of one box to the other's, shifted to
/// its side of the pair so that the two directions do not overlap.
fn edge_line(from: &str, to: &str) -> Option<(f64, f64, f64, f64)> {
    let ((x1, y1), (x2, y2)) = (pos(from)?, pos(to)?);
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ox, oy) = (-dy / len * LANE, dx / len * LANE);
    let (a, b) = (exit(dx, dy), 1.0 - exit(dx, dy));
    Some((
        x1 + dx * a + ox,
        y1 + dy * a + oy,
        x1 + dx * b + ox,
        y1 + dy * b + oy,
    ))
}

/// The diagram of `node`'s states.
#[component]
pub fn StateDiagram(props: &StateDiagramProps) -> Html {
    let node = &props.node;
    let t = crate::chrome::use_chrome();
    let running = node.process == "running";
    let current = running.then_some(node.raft_state.as_str());
    let last = node.last_transition.as_ref();
    let observer = !node.is_voter;
    let edges: &[(&'static str, &'static str)] = if observer {
        &OBSERVER_EDGES
    } else {
        &VOTER_EDGES
    };
    let draw_edge = |&(from, to): &(&'static str, &'static str)| {
        let Some((x1, y1, x2, y2)) = edge_line(from, to) else {
            return html! {};
        };
        let is_last = last.is_some_and(|t| t.from == from && t.to == to);
        html! {
            <line class={classes!("sd-edge", is_last.then_some("last"))} data-from={from} data-to={to}
                  x1={f(x1)} y1={f(y1)} x2={f(x2)} y2={f(y2)}
                  marker-end={if is_last { "url(#sd-arrow-last)" } else { "url(#sd-arrow)" }} />
        }
    };
    // The last transition runs along its edge once, as dashes flowing from the state left to
    // the state entered; keyed by its time, so that a new transition starts it again.
    let flow = last.and_then(|t| {
        let (x1, y1, x2, y2) = edge_line(&t.from, &t.to)?;
        Some(html! {
            <line key={format!("{}-{}-{}", t.time_ms, t.from, t.to)} class="sd-flow"
                  x1={f(x1)} y1={f(y1)} x2={f(x2)} y2={f(y2)} />
        })
    });
    let draw_state = |&(name, x, y): &(&'static str, f64, f64)| {
        let possible = !observer || matches!(name, "Unattached" | "Follower");
        let is_current = current == Some(name);
        let class = classes!(
            "sd-state",
            format!("sd-{}", name.to_lowercase()),
            is_current.then_some("current"),
            (!possible).then_some("impossible")
        );
        html! {
            <g class={class} data-state={name}>
                <rect x={f(x - BOX_W / 2.0)} y={f(y - BOX_H / 2.0)} width={f(BOX_W)} height={f(BOX_H)} rx="12" />
                <text x={f(x)} y={f(y + 8.0)} text-anchor="middle">{ name }</text>
            </g>
        }
    };
    let caption = match last {
        Some(l) => format!(
            "{} {} → {} (epoch {}), {} ms",
            t.last_transition, l.from, l.to, l.epoch, l.time_ms
        ),
        None => t.no_transition.to_string(),
    };
    html! {
        <section class="panel state-diagram" id="state-diagram" data-node-id={node.id.to_string()}
                 data-current={current.unwrap_or("-").to_string()}
                 data-last-from={last.map(|t| t.from.clone()).unwrap_or_default()}
                 data-last-to={last.map(|t| t.to.clone()).unwrap_or_default()}>
            <h2>{ format!("{} {}{}", t.raft_states, node.id, if observer { " (observer)" } else { "" }) }</h2>
            <svg viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img" aria-label="Raft state transitions">
                <defs>
                    <marker id="sd-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="sd-head" />
                    </marker>
                    <marker id="sd-arrow-last" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="sd-head last" />
                    </marker>
                </defs>
                { for edges.iter().map(draw_edge) }
                <g class="sd-flows">{ for flow }</g>
                { for STATES.iter().map(draw_state) }
            </svg>
            <p class="sub" id="state-diagram-last">{ caption }</p>
        </section>
    }
}
