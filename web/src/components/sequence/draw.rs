//! The diagram drawn on the page: an SVG as wide as its panel (lanes at fractions of the width)
//! and as tall as its rows (in `em`, so A− / A+ scale it), with the lanes, the silences, the
//! down stretches, the arrows with their labels and ✕, the chips and the cursor. Clicking an
//! arrow or a chip picks it.

use yew::prelude::*;

use super::label::State;
use super::layout::{Arrow, Chip, Diagram};
use super::place::{chip_width, LOOP_EM};

/// What a click picked: a message or a chip (by index in the diagram).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picked {
    /// The message with this id.
    Message(u64),
    /// A chip: (node, time ms, index among the chips of the diagram).
    Chip(i32, u64, usize),
}

/// The message classes that get an arrowhead of their colour.
pub const CLASSES: [&str; 11] = [
    "msg-vote",
    "msg-prevote",
    "msg-begin",
    "msg-end",
    "msg-fetch",
    "msg-snapshot",
    "msg-heartbeat",
    "msg-alter",
    "msg-replica",
    "msg-voters",
    "msg-other",
];

fn pct(x: f64) -> String {
    format!("{:.2}%", x * 100.0)
}

fn em(y: f64) -> String {
    format!("{y:.2}em")
}

/// The arrowheads, one per message colour.
fn markers() -> Html {
    html! {
        <defs>
            { for CLASSES.iter().map(|c| html! {
                <marker id={format!("seq-head-{c}")} class={classes!("seq-arrowhead", *c)} viewBox="0 0 10 10" refX="9" refY="5"
                        markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" />
                </marker>
            }) }
        </defs>
    }
}

/// One message: its line (an arrowhead when it arrived, a dot while on the wire, ✕ when it
/// failed or was lost), a wider invisible line to click, its label.
fn draw_arrow(a: &Arrow, selected: bool, on_pick: &Callback<Picked>) -> Html {
    let m = &a.m;
    let ((x0, y0), (x1, y1)) = (a.start, a.end);
    let id = m.id;
    let onclick = on_pick.reform(move |_: MouseEvent| Picked::Message(id));
    let head = (a.state == State::Delivered).then(|| format!("url(#seq-head-{})", a.class));
    let title = format!(
        "{} {} → {}: {} (sent {} ms, {} {} ms, event {}){}",
        m.kind,
        m.from,
        m.to,
        m.summary,
        m.send_ms,
        if a.state == State::InFlight {
            "arrives"
        } else {
            "ends"
        },
        m.arrive_ms,
        m.sent_at_event,
        match a.state {
            State::Failed => " — no answer from the node",
            State::Dropped => " — dropped",
            State::Lost => " — lost with the connection",
            _ => "",
        }
    );
    html! {
        <g class={classes!("seq-msg", a.class, a.response.then_some("resp"), a.state.name(), selected.then_some("selected"))}
           data-message-id={id.to_string()} data-kind={m.kind.name()} data-api={a.api.name()}
           data-from={m.from.to_string()} data-to={m.to.to_string()} data-state={a.state.name()}
           data-send-ms={m.send_ms.to_string()} data-event={m.sent_at_event.to_string()}
           onclick={onclick}>
            <title>{ title }</title>
            if a.self_loop {
                <svg x={pct(x0)} y={em(y0)} overflow="visible">
                    <line class="track" x1="0" y1="0" x2={em(LOOP_EM)} y2="0" />
                    <line class="track" x1={em(LOOP_EM)} y1="0" x2={em(LOOP_EM)} y2={em(y1 - y0)} />
                    <line class="track" x1={em(LOOP_EM)} y1={em(y1 - y0)} x2="0.15em" y2={em(y1 - y0)} marker-end={head} />
                </svg>
            } else {
                <line class="hit" x1={pct(x0)} y1={em(y0)} x2={pct(x1)} y2={em(y1)} />
                <line class="track" x1={pct(x0)} y1={em(y0)} x2={pct(x1)} y2={em(y1)} marker-end={head} />
            }
            if a.state == State::InFlight {
                <circle class="dot" cx={pct(x1)} cy={em(y1)} r="0.3em" />
            }
            if a.state.crossed() {
                <text class="seq-x" x={pct(x1)} y={em(y1)} text-anchor="middle" dominant-baseline="central">{"✕"}</text>
            }
            if let Some((lx, ly)) = a.label_at {
                <text class="seq-label" x={pct(lx)} y={em(ly)} text-anchor="middle">{ a.label.clone() }</text>
            }
        </g>
    }
}

/// A chip: a rounded box on its lane with the new state (or the process event).
fn draw_chip(c: &Chip, i: usize, x: f64, selected: bool, on_pick: &Callback<Picked>) -> Html {
    let (node, time) = (c.node, c.time_ms);
    let onclick = on_pick.reform(move |_: MouseEvent| Picked::Chip(node, time, i));
    let w = chip_width(&c.text);
    html! {
        <svg class={classes!("seq-chip", c.class.clone(), selected.then_some("selected"))} x={pct(x)} y={em(c.y)}
             overflow="visible" data-node={c.node.to_string()} data-time-ms={c.time_ms.to_string()}
             data-event={c.event.to_string()} data-chip={c.text.clone()} onclick={onclick}>
            <title>{ c.title.clone() }</title>
            <rect x={em(c.dx - w / 2.0)} y={em(-0.525)} width={em(w)} height="1.05em" rx="0.3em" />
            <text x={em(c.dx)} y="0" text-anchor="middle" dominant-baseline="central">{ c.text.clone() }</text>
        </svg>
    }
}

/// The diagram as the page draws it; `selected` is lit.
pub fn draw(d: &Diagram, selected: Option<Picked>, on_pick: &Callback<Picked>) -> Html {
    let h = em(d.height);
    html! {
        <svg id="sequence" class="sequence" width="100%" style={format!("height: {h}")} role="img"
             data-start-ms={d.range.0.to_string()} data-end-ms={d.range.1.to_string()}
             data-count={d.arrows.len().to_string()} data-lanes={d.lanes.len().to_string()}
             data-fit={format!("{:.1}x{:.1}", d.fit.width_em, d.fit.height_em)}>
            { markers() }
            { for d.breaks.iter().map(|&(y0, y1, ms)| html! {
                <g class="seq-break" data-ms={ms.to_string()}>
                    <rect x="0" y={em(y0 + 0.15)} width="100%" height={em(y1 - y0 - 0.3)} />
                    <text x="0.3em" y={em((y0 + y1) / 2.0)} dominant-baseline="central">{ format!("+{:.2} s", ms as f64 / 1000.0) }</text>
                </g>
            }) }
            { for d.lanes.iter().map(|l| html! {
                <g class={classes!("seq-lane", l.role)} data-node={l.id.to_string()}>
                    <line x1={pct(l.x)} y1="0" x2={pct(l.x)} y2={h.clone()} />
                    { for l.down.iter().map(|&(y0, y1, s)| html! {
                        <line class={classes!("seq-down", s)} x1={pct(l.x)} y1={em(y0)} x2={pct(l.x)} y2={em(y1)} />
                    }) }
                </g>
            }) }
            if let Some(y) = d.cursor {
                <g class="seq-cursor" id="sequence-cursor">
                    <line x1="0" y1={em(y)} x2="100%" y2={em(y)} />
                    <text x="100%" dx="-0.3em" y={em(y - 0.3)} text-anchor="end">{ format!("{:.3} s", d.now_ms as f64 / 1000.0) }</text>
                </g>
            }
            { for d.arrows.iter().map(|a| draw_arrow(a, selected == Some(Picked::Message(a.m.id)), on_pick)) }
            { for d.chips.iter().enumerate().map(|(i, c)| {
                let x = d.lanes.get(c.lane).map_or(0.5, |l| l.x);
                let lit = matches!(selected, Some(Picked::Chip(n, t, _)) if n == c.node && t == c.time_ms);
                draw_chip(c, i, x, lit, on_pick)
            }) }
        </svg>
    }
}
