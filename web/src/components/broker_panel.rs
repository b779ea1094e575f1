//! One row per broker: its BrokerLifecycleManager state and epoch, fenced or not as the active
//! controller and as the broker itself last heard, and its session on the active controller as a
//! bar that drains towards `broker.session.timeout.ms`; on top, the BrokerState diagram of the
//! broker in focus.

use std::rc::Rc;

use kraft_core::view::{ClusterView, ControllerView, NodeView};
use yew::prelude::*;

use super::broker_state_diagram::{state_class, BrokerStateDiagram};

/// broker.session.timeout.ms by default (Kafka's, the engine's `ControllerConfig`); the panel
/// draws the active controller's own value.
pub const SESSION_TIMEOUT_MS: u64 = 9000;

/// Properties of [`BrokerPanel`].
#[derive(Properties, PartialEq)]
pub struct BrokerPanelProps {
    /// The view the brokers come from.
    pub view: Rc<ClusterView>,
    /// The node in focus: its BrokerState diagram is drawn on top (the first broker's when it
    /// is not a broker).
    #[prop_or_default]
    pub focus: Option<i32>,
}

/// The share of a `timeout_ms` session left `since_ms` after the last heartbeat, 0.0 (timed
/// out) to 1.0 (just heard).
pub fn session_left(since_ms: u64, timeout_ms: u64) -> f64 {
    1.0 - (since_ms as f64 / timeout_ms.max(1) as f64).clamp(0.0, 1.0)
}

/// The broker panel.
#[component]
pub fn BrokerPanel(props: &BrokerPanelProps) -> Html {
    let view = &props.view;
    let active = view.active_controller();
    let t = crate::i18n::use_chrome();
    let brokers: Vec<&NodeView> = view.nodes.iter().filter(|n| n.roles.has_broker()).collect();
    html! {
        <section class="panel broker-panel" id="broker-panel" aria-label="brokers"
                 data-active-controller={active.map(|(id, _)| id.to_string()).unwrap_or_default()}>
            <h2>{ t.brokers }
                <span class="sub">{ match active {
                    Some((id, _)) => format!(" {} {id}", t.seen_by),
                    None => format!(" {}", t.no_active),
                } }</span>
            </h2>
            <BrokerStateDiagram view={view.clone()} focus={props.focus} />
            <table class="brokers">
                <colgroup>
                    <col class="c-id" /><col class="c-state" /><col class="c-epoch" />
                    <col class="c-fenced" /><col class="c-fenced" /><col class="c-session" />
                </colgroup>
                <thead><tr>
                    <th>{"id"}</th><th>{"BrokerState"}</th><th>{"epoch"}</th>
                    <th title="fenced or not in the active controller's registration">{ t.ctrl_says }</th>
                    <th title="fenced or not in the controller's last heartbeat answer">{ t.broker_heard }</th>
                    <th>{ format!("{} / {} s", t.session, active.map_or(SESSION_TIMEOUT_MS, |(_, c)| c.session_timeout_ms) as f64 / 1000.0) }</th>
                </tr></thead>
                <tbody>
                    if brokers.is_empty() {
                        <tr><td colspan="6" class="empty">{ t.no_brokers }</td></tr>
                    }
                    { for brokers.iter().map(|n| broker_row(n, active.map(|(_, c)| c), view.now_ms)) }
                </tbody>
            </table>
        </section>
    }
}

fn fenced_cell(fenced: Option<bool>) -> Html {
    match fenced {
        Some(true) => html! { <td class="fenced">{"fenced"}</td> },
        Some(false) => html! { <td class="unfenced">{"unfenced"}</td> },
        None => html! { <td class="unknown">{"-"}</td> },
    }
}

fn broker_row(node: &NodeView, active: Option<&ControllerView>, now_ms: u64) -> Html {
    let id = node.id;
    let b = node.broker.as_ref();
    let state = b.map_or_else(
        || node.process.name().to_ascii_uppercase(),
        |b| b.state.name().to_string(),
    );
    let registered = active.and_then(|c| c.brokers.iter().find(|(bid, _, _)| *bid == id));
    let since = active.and_then(|c| {
        c.sessions
            .iter()
            .find(|(bid, _)| *bid == id)
            .map(|(_, ms)| *ms)
    });
    let fenced_by_controller = registered.map(|(_, _, f)| *f);
    let epoch = b
        .map(|b| b.broker_epoch)
        .filter(|e| *e >= 0)
        .map(|e| e.to_string())
        .unwrap_or_else(|| "-".into());
    let session = match since {
        Some(ms) => {
            let timeout = active.map_or(SESSION_TIMEOUT_MS, |c| c.session_timeout_ms);
            let left = session_left(ms, timeout);
            let level = if left > 0.5 {
                "ok"
            } else if left > 0.2 {
                "warn"
            } else {
                "low"
            };
            html! {
                <div class={classes!("bar", level)} role="meter" aria-valuemin="0"
                     aria-valuemax={timeout.to_string()} aria-valuenow={ms.to_string()}
                     title="ms since the active controller last heard a heartbeat">
                    <div class="fill" style={format!("width: {:.1}%", left * 100.0)}></div>
                    <span class="since">{ format!("{:.1} s", ms as f64 / 1000.0) }</span>
                </div>
            }
        }
        None => html! { <span class="empty">{"no session"}</span> },
    };
    let timeline = active.and_then(|c| {
        let times = &c.heartbeats.iter().find(|(bid, _)| *bid == id)?.1;
        Some(heartbeat_timeline(id, times, now_ms, c.session_timeout_ms))
    });
    let last_sent = b
        .and_then(|b| b.last_heartbeat_ms)
        .map(|t| format!("sent {:.1} s ago", now_ms.saturating_sub(t) as f64 / 1000.0));
    html! {
        <>
        <tr data-broker-id={id.to_string()} data-state={state.clone()} data-process={node.process.name()}
            data-fenced-controller={fenced_by_controller.map(|f| f.to_string()).unwrap_or_default()}
            data-fenced-broker={b.map(|b| b.fenced.to_string()).unwrap_or_default()}
            data-since-heartbeat={since.map(|s| s.to_string()).unwrap_or_default()}>
            <td class="num">{ id }</td>
            <td class={classes!("state", state_class(&state))}>{ state.clone() }</td>
            <td class="num">{ epoch }</td>
            { fenced_cell(fenced_by_controller) }
            { fenced_cell(b.map(|b| b.fenced)) }
            <td class="session">
                { session }
                if let Some(s) = last_sent {
                    <span class="sent">{ s }</span>
                }
            </td>
        </tr>
        if let Some(timeline) = timeline {
            <tr class="hb-row"><td colspan="6">{ timeline }</td></tr>
        }
        </>
    }
}

/// Width of the heartbeat timeline in its own units.
const TIMELINE_W: f64 = 360.0;

/// Where virtual time `t` falls on a timeline spanning `timeout_ms` before `now_ms` to
/// `timeout_ms` after it, in [0, TIMELINE_W].
pub fn timeline_x(t: u64, now_ms: u64, timeout_ms: u64) -> f64 {
    let span = 2.0 * timeout_ms.max(1) as f64;
    let from = now_ms as f64 - timeout_ms as f64;
    ((t as f64 - from) / span * TIMELINE_W).clamp(0.0, TIMELINE_W)
}

/// A broker's heartbeats as the active controller received them, against its session: the
/// strip spans one session timeout back and one ahead of now; a tick per heartbeat, the
/// session from the last one to its deadline (fenced there unless another arrives) and now.
fn heartbeat_timeline(id: i32, times: &[u64], now_ms: u64, timeout_ms: u64) -> Html {
    let x = |t: u64| format!("{:.1}", timeline_x(t, now_ms, timeout_ms));
    let shown: Vec<u64> = times
        .iter()
        .copied()
        .filter(|&t| t + timeout_ms >= now_ms)
        .collect();
    let last = times.last().copied();
    let deadline = last.map(|t| t + timeout_ms);
    let title = match deadline {
        Some(d) if d > now_ms => format!("heartbeats of broker {id}; its session ends at {d} ms unless another arrives ({} ms from now)", d - now_ms),
        Some(d) => format!("heartbeats of broker {id}; its session ended at {d} ms"),
        None => format!("no heartbeat of broker {id} yet"),
    };
    html! {
        <svg class="hb-timeline" viewBox={format!("0 0 {TIMELINE_W} 26")} preserveAspectRatio="none"
             data-broker-id={id.to_string()} data-ticks={shown.len().to_string()}
             data-deadline-ms={deadline.map(|d| d.to_string()).unwrap_or_default()} role="img">
            <title>{ title }</title>
            if let (Some(l), Some(d)) = (last, deadline) {
                <rect class="hb-session" x={x(l)} y="6" height="14"
                      width={format!("{:.1}", (timeline_x(d, now_ms, timeout_ms) - timeline_x(l, now_ms, timeout_ms)).max(0.0))} />
                <line class="hb-deadline" x1={x(d)} x2={x(d)} y1="1" y2="25" />
            }
            { for shown.iter().map(|&t| html! {
                <line class="hb-tick" data-ms={t.to_string()} x1={x(t)} x2={x(t)} y1="3" y2="23" />
            }) }
            <line class="hb-now" x1={x(now_ms)} x2={x(now_ms)} y1="0" y2="26" />
        </svg>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_drains() {
        assert_eq!(session_left(0, 9000), 1.0);
        assert_eq!(session_left(4500, 9000), 0.5);
        assert_eq!(session_left(20_000, 9000), 0.0);
        assert_eq!(session_left(3000, 6000), 0.5);
        assert_eq!(timeline_x(20_000, 20_000, 9_000), TIMELINE_W / 2.0);
        assert_eq!(timeline_x(11_000, 20_000, 9_000), 0.0);
        assert_eq!(timeline_x(29_000, 20_000, 9_000), TIMELINE_W);
        assert_eq!(timeline_x(0, 20_000, 9_000), 0.0);
        assert_eq!(state_class("RUNNING"), "state-running");
        assert_eq!(
            state_class("PENDING_CONTROLLED_SHUTDOWN"),
            "state-pending-controlled-shutdown"
        );
    }
}
