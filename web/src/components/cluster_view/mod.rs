//! The cluster drawn for a room: the nodes on a ring (controllers as circles, brokers as boxes),
//! their Raft state, epoch and vote, brokers' BrokerState (FENCED when the active controller
//! fenced them) and their data partitions (ISR members plain, out of the ISR red); fetch and
//! heartbeat chatter (and the data plane's replica fetches and produce requests, from a client
//! in the middle) as steady links, the messages that matter (votes, BeginQuorumEpoch, ...)
//! moving along their links with at most one label per link; failed requests as the request
//! with ✕ at the node that did not answer; cut lines where the network is partitioned; timers
//! and sessions as arcs that drain. Positions and arcs are interpolated to the played clock, so
//! the drawing moves every animation frame, not only when an event runs.
//!
//! The parts, each in its own file: `geometry` (the ring and the drawing's units), `traffic`
//! (chatter as links, the rest as messages), `messages` (a message on its link), `labels` (where
//! the messages' labels go), `cuts` (network partitions), `timers` (timers and sessions as arcs),
//! `node` (a node and its caption), `partitions` (a broker's data partitions), `menu` (a node's
//! menu) and `legend`.

use std::collections::BTreeMap;
use std::rc::Rc;

use kraft_core::lesson::stage::Highlight;
use kraft_core::view::{ApiKeys, ClusterView, ControllerView};
use yew::prelude::*;

use crate::state::Action;

mod cuts;
mod geometry;
mod labels;
mod legend;
mod menu;
mod messages;
mod node;
mod partitions;
mod quorum;
#[cfg(test)]
mod tests;
mod timers;
mod traffic;

pub use geometry::layout;
pub use messages::{api_label, message_class, message_label};
pub use timers::timer_fraction;

use cuts::{cuts, draw_cut};
use geometry::{Geometry, HEIGHT, WIDTH};
use labels::{label_spots, obstacles};
use legend::legend;
use menu::node_menu;
use messages::draw_message;
use node::draw_nodes;
use quorum::{draw_majority, draw_quorum_area, heading_rect, majority_spot, majority_text};
use timers::draw_timers;
use traffic::{draw_client, draw_link, traffic};

/// Properties of [`ClusterDiagram`].
#[derive(Properties, PartialEq)]
pub struct ClusterDiagramProps {
    /// What to draw.
    pub view: Rc<ClusterView>,
    /// The played clock (virtual ms, fractional) positions and arcs are interpolated to.
    pub clock_ms: f64,
    /// The selected node (drawn with a glow).
    pub selected: i32,
    /// The node the stage focuses on, if any: the others are dimmed.
    #[prop_or_default]
    pub focus: Option<i32>,
    /// What the stage lights (nodes, sessions, partitions).
    #[prop_or_default]
    pub highlights: Rc<Vec<Highlight>>,
    /// Message kinds the lesson draws with a label on each message (fetch and heartbeats
    /// become messages then, not links).
    #[prop_or_default]
    pub labels: Rc<Vec<ApiKeys>>,
    /// Changes when a lesson step runs: the node menu closes.
    #[prop_or_default]
    pub step_key: usize,
    /// The stage: the legend folds into a button over the drawing.
    #[prop_or_default]
    pub compact: bool,
    /// Called with a node id when the user clicks a node.
    pub on_select: Callback<i32>,
    /// Sends the node menu's process actions to the reducer.
    pub on_action: Callback<Action>,
}

/// Which brokers the active controller has fenced.
fn fenced_by(active: Option<&ControllerView>) -> BTreeMap<i32, bool> {
    active
        .map(|c| c.brokers.iter().map(|(id, _, f)| (*id, *f)).collect())
        .unwrap_or_default()
}

/// The node whose menu is open, and the callbacks that open (selecting the node; a second click
/// closes it) and close it; a lesson step (`step_key` changing) closes it.
#[hook]
fn use_node_menu(
    step_key: usize,
    on_select: &Callback<i32>,
) -> (UseStateHandle<Option<i32>>, Callback<i32>, Callback<()>) {
    let menu = use_state(|| None::<i32>);
    {
        let menu = menu.clone();
        use_effect_with(step_key, move |_| menu.set(None));
    }
    let on_open = {
        let menu = menu.clone();
        let on_select = on_select.clone();
        Callback::from(move |id: i32| {
            on_select.emit(id);
            menu.set(if *menu == Some(id) { None } else { Some(id) });
        })
    };
    let on_close = {
        let menu = menu.clone();
        Callback::from(move |()| menu.set(None))
    };
    (menu, on_open, on_close)
}

/// The SVG drawing of the cluster; clicking a node selects it and opens its menu.
#[component]
pub fn ClusterDiagram(props: &ClusterDiagramProps) -> Html {
    let view = &props.view;
    let clock = props.clock_ms.max(view.now_ms as f64);
    let geo = Geometry::of(view);
    let t = crate::i18n::use_chrome();
    // The node whose menu is open; a lesson step closes it.
    let (menu, on_open, on_close) = use_node_menu(props.step_key, &props.on_select);
    // `kraft-first-drawing`: when the first drawing is in the DOM (`cargo xtask bench` reads it
    // as the time from navigation to the drawing).
    use_effect_with((), |_| {
        if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
            if p.get_entries_by_name("kraft-first-drawing").length() == 0 {
                let _ = p.mark("kraft-first-drawing");
            }
        }
    });
    // Message kinds the legend turned labels on for (besides the lesson's).
    let legend_labels = use_state(Vec::<ApiKeys>::new);
    let open = menu.and_then(|id| view.nodes.iter().find(|n| n.id == id));
    let active = view.active_controller().map(|(_, c)| c);
    let fenced = fenced_by(active);
    let labels: Vec<ApiKeys> = props
        .labels
        .iter()
        .chain(legend_labels.iter())
        .copied()
        .collect();
    let traffic = traffic(view, &labels);
    // The majority's line in a corner the nodes leave free; the messages' labels clear of it,
    // of the observers' heading, of the nodes and of their captions.
    let qt = crate::i18n::QuorumText::of(crate::i18n::use_lang());
    let mut avoid = obstacles(view, &geo);
    let majority = majority_text(view, qt);
    let spot = majority_spot(&majority, &geo, &avoid);
    avoid.extend(std::iter::once(spot.3).chain(heading_rect(&geo)));
    // Where each labelled message's label goes, placed one after the other.
    let label_spots = label_spots(&geo, &traffic.messages, &avoid);
    // Pairs cut both ways, and one way only.
    let cuts = cuts(view);
    html! {
        <section class="panel cluster" aria-label="cluster" id="cluster-panel"
                 data-focus={props.focus.map(|f| f.to_string()).unwrap_or_default()}>
          <div class="cluster-stage">
            <svg id="cluster" viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img"
                 preserveAspectRatio="xMidYMid meet" data-clock-ms={format!("{clock:.1}")}
                 data-voters={view.quorum.voters.len().to_string()} data-majority={view.quorum.majority.to_string()}>
                <defs>
                    <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-head" />
                    </marker>
                </defs>
                { draw_quorum_area(&geo, qt) }
                <g class="links" id="links" data-count={traffic.links.len().to_string()}>
                    { for traffic.links.iter().map(|&(from, to, class, failed)| draw_link(from, to, class, failed, &geo)) }
                </g>
                <g class="cuts" id="cuts" data-count={cuts.len().to_string()}>
                    { for cuts.iter().map(|&(a, b, both)| draw_cut(a, b, both, &geo)) }
                </g>
                { draw_timers(view, &geo, clock, active, &fenced, &props.highlights) }
                <g class="messages" id="messages" data-count={view.messages.len().to_string()}
                   data-recent={view.recently_delivered.len().to_string()}>
                    { for traffic.messages.iter().zip(label_spots.iter()).map(|((d, _), at)| draw_message(d, clock, &geo, *at)) }
                </g>
                { draw_client(&geo) }
                { draw_nodes(props, &geo, &fenced, &on_open, &on_close) }
                { draw_majority(view, &majority, spot, qt) }
            </svg>
            if let Some(node) = open {
                { node_menu(view, node, &props.on_action, on_close.clone(), t.heal) }
            }
          </div>
            { legend(&labels, &legend_labels, props.compact, t) }
        </section>
    }
}
