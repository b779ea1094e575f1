//! The sequence diagram (a spacetime view, the article's election figure live): a lane per
//! node, time flowing down over a window of recent virtual time, each message an arrow from
//! its send to its arrival (✕ where it was dropped, lost or failed), Raft transitions and
//! kills as chips on the lanes, the present as a cursor. The window zooms and scrolls
//! (buttons, and `=` `-` `[` `]` End), a kinds filter hides the chatter (Fetch and heartbeats
//! at first), a click on an arrow or a chip rewinds free play to that moment (in a lesson it
//! shows its details), and the window exports as an SVG file or as Mermaid text.
//!
//! The parts: `window` (which stretch of time), `layout` (the geometry, tested natively),
//! `label` (what an arrow says), `draw` (the SVG on the page), `mermaid` and `export`, `text`
//! (the words in both languages).

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

use kraft_core::view::ApiKeys;
use kraft_core::view::ClusterView;
use yew::prelude::*;

use crate::i18n::SequenceText;
use crate::state::{Action, Lang};

mod draw;
mod export;
mod label;
mod layout;
mod mermaid;
mod place;
mod shapes;
#[cfg(test)]
mod tests;
mod window;

pub use draw::Picked;
pub use layout::{diagram, Diagram, Fit};
pub use mermaid::mermaid;
pub use window::{Anchor, Window, HIDDEN_AT_FIRST};

thread_local! {
    /// The lecturer's span and filter, kept while the panel is hidden (a stage tab away).
    static PREFS: RefCell<Option<(Window, BTreeSet<ApiKeys>)>> = const { RefCell::new(None) };
}

/// The span and filter kept (the window back at the newest change), or the first ones.
fn prefs() -> (Window, BTreeSet<ApiKeys>) {
    PREFS.with(|p| {
        let (w, hidden) = p.borrow().clone().unwrap_or_else(|| {
            let hidden = HIDDEN_AT_FIRST.iter().copied().collect();
            (Window::default(), hidden)
        });
        let w = Window {
            anchor: Anchor::Auto,
            ..w
        };
        (w, hidden)
    })
}

/// Keeps the window and filter.
fn keep(window: Window, hidden: &BTreeSet<ApiKeys>) {
    PREFS.with(|p| *p.borrow_mut() = Some((window, hidden.clone())));
}

/// Properties of [`SequencePanel`].
#[derive(Properties, PartialEq)]
pub struct SequencePanelProps {
    /// What to draw.
    pub view: Rc<ClusterView>,
    /// Free play: a click rewinds (a lesson goes back by its steps).
    #[prop_or_default]
    pub free_play: bool,
    /// Sends the rewind to the reducer.
    pub on_action: Callback<Action>,
}

/// What the window buttons and keys need: the window, its end, the present, the oldest
/// message kept.
type Latest = (Window, u64, u64, u64);

/// The window after `key` (`=`/`+` zoom in, `-` out, `[` earlier, `]` later, End the latest).
fn window_key(key: &str, (w, end, now, oldest): Latest) -> Option<Window> {
    Some(match key {
        "=" | "+" => w.zoom_in(),
        "-" => w.zoom_out(),
        "[" => w.earlier(end, oldest),
        "]" => w.later(end, now),
        "End" => Window {
            anchor: Anchor::Auto,
            ..w
        },
        _ => return None,
    })
}

/// The window keys while the panel is shown (not typed into a field, no Ctrl/Alt/Meta).
#[hook]
fn use_window_keys(latest: Rc<RefCell<Latest>>, set: UseStateSetter<Window>) {
    use_effect_with((), move |_| {
        let listener = web_sys::window().map(|w| {
            gloo_events::EventListener::new(&w, "keydown", move |e| {
                use wasm_bindgen::JsCast;
                let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                    return;
                };
                let field = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| {
                        matches!(
                            el.tag_name().to_ascii_lowercase().as_str(),
                            "input" | "textarea" | "select"
                        )
                    });
                if field || e.ctrl_key() || e.alt_key() || e.meta_key() {
                    return;
                }
                if let Some(w) = window_key(&e.key(), *latest.borrow()) {
                    set.set(w);
                }
            })
        });
        move || drop(listener)
    });
}

/// How often at most the diagram's room is measured (wall ms): measuring forces a layout.
const MEASURE_EVERY_MS: f64 = 400.0;

/// After each drawing: measures the room the diagram has (its rows then stretch to fill it,
/// its labels are placed for its width; at most every [`MEASURE_EVERY_MS`], as measuring
/// forces a layout) and scrolls it: to the bottom (the cursor) while the window reaches the
/// present; by default once the present moved on, to the newest burst (as much of it as
/// fits); scrolled back by the lecturer, not at all.
#[hook]
fn use_fit_and_follow(scroll: &NodeRef, d: &Diagram, fit: &UseStateHandle<Fit>, anchor: Anchor) {
    let (scroll, fit) = (scroll.clone(), fit.clone());
    let (height, burst, live) = (d.height, d.burst_y, d.cursor.is_some());
    // (wall ms of the last measure, px per em then).
    let measured = use_mut_ref(|| (f64::NEG_INFINITY, 0.0_f64));
    use_effect_with(
        (height.to_bits(), d.range, anchor),
        move |(_, _, anchor)| {
            let Some(el) = scroll.cast::<web_sys::Element>() else {
                return;
            };
            let now = js_sys::Date::now();
            let (last, mut em) = *measured.borrow();
            if now - last >= MEASURE_EVERY_MS || em <= 0.0 {
                let svg_px = el
                    .first_element_child()
                    .map_or(0.0, |svg| svg.get_bounding_client_rect().height());
                if svg_px > 0.0 && height > 0.0 {
                    em = svg_px / height;
                    let room = Fit {
                        height_em: f64::from(el.client_height()) / em - 0.3,
                        width_em: f64::from(el.client_width()) / em,
                    };
                    let moved = (room.height_em - fit.height_em).abs() > 0.3
                        || (room.width_em - fit.width_em).abs() > 0.3;
                    if moved {
                        fit.set(room);
                    }
                }
                *measured.borrow_mut() = (now, em);
            }
            // The browser keeps the scroll inside the content: no need to read its height.
            match anchor {
                Anchor::Now => el.set_scroll_top(i32::MAX),
                Anchor::Auto if live => el.set_scroll_top(i32::MAX),
                Anchor::Auto => el.set_scroll_top(((burst - 0.3) * em).max(0.0) as i32),
                Anchor::At(_) => {}
            }
        },
    );
}

/// The toolbar: zoom, scroll, the latest change, the kinds filter, the exports.
fn toolbar(
    t: &SequenceText,
    latest: Latest,
    set: &UseStateSetter<Window>,
    hidden: &UseStateHandle<BTreeSet<ApiKeys>>,
    on_svg: Callback<MouseEvent>,
    on_mermaid: Callback<MouseEvent>,
) -> Html {
    let button = |id: &str, label: &str, title: &str, key: &'static str| {
        let set = set.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            if let Some(w) = window_key(key, latest) {
                set.set(w);
            }
        });
        html! { <button id={id.to_string()} class="seq-btn" title={title.to_string()} onclick={onclick}>{ label.to_string() }</button> }
    };
    let kind = |api: ApiKeys| {
        let hidden = hidden.clone();
        let shown = !hidden.contains(&api);
        let onchange = Callback::from(move |_: Event| {
            let mut h = (*hidden).clone();
            if !h.remove(&api) {
                h.insert(api);
            }
            hidden.set(h);
        });
        html! {
            <label class="seq-kind"><input type="checkbox" data-api={api.name()} checked={shown} onchange={onchange} />{ api.name() }</label>
        }
    };
    html! {
        <div class="seq-toolbar">
            { button("seq-zoom-out", "−", t.zoom_out, "-") }
            { button("seq-zoom-in", "+", t.zoom_in, "=") }
            { button("seq-earlier", "◀", t.earlier, "[") }
            { button("seq-later", "▶", t.later, "]") }
            { button("seq-latest", t.latest, t.latest_title, "End") }
            <details class="seq-kinds" id="sequence-kinds">
                <summary>{ t.kinds }</summary>
                <div class="seq-kinds-list">{ for ApiKeys::ALL.iter().map(|a| kind(*a)) }</div>
            </details>
            <button id="sequence-svg" class="seq-btn" title={t.svg_title} onclick={on_svg}>{"SVG"}</button>
            <button id="sequence-mermaid-btn" class="seq-btn" title={t.mermaid_title} onclick={on_mermaid}>{"Mermaid"}</button>
        </div>
    }
}

/// The picked message or chip in words.
fn details(view: &ClusterView, d: &Diagram, picked: Picked) -> String {
    match picked {
        Picked::Message(id) => view
            .sequence
            .messages
            .iter()
            .find(|m| m.id == id)
            .map(|m| {
                format!(
                    "{} {} → {} · {} ms → {} ms · {} · event {}",
                    m.kind.name(),
                    m.from,
                    m.to,
                    m.send_ms,
                    m.arrive_ms,
                    m.summary,
                    m.sent_at_event
                )
            })
            .unwrap_or_default(),
        Picked::Chip(_, _, i) => d
            .chips
            .get(i)
            .map(|c| format!("{} · event {}", c.title, c.event))
            .unwrap_or_default(),
    }
}

/// The event count a pick rewinds to.
fn pick_event(view: &ClusterView, d: &Diagram, picked: Picked) -> Option<u64> {
    match picked {
        Picked::Message(id) => view
            .sequence
            .messages
            .iter()
            .find(|m| m.id == id)
            .map(|m| m.sent_at_event),
        Picked::Chip(_, _, i) => d.chips.get(i).map(|c| c.event),
    }
}

/// The sequence diagram panel.
#[component]
pub fn SequencePanel(props: &SequencePanelProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let t = SequenceText::of(lang);
    let window = use_state(|| prefs().0);
    let hidden = use_state(|| prefs().1);
    let picked = use_state(|| None::<Picked>);
    let mermaid_text = use_state(|| None::<String>);
    let scroll = use_node_ref();
    keep(*window, &hidden);
    let view = &props.view;
    let range = window.range(&view.sequence, &hidden, view.now_ms);
    let fit = use_state(Fit::default);
    let d = use_memo(
        (view.clone(), range, (*hidden).clone(), *fit),
        |(v, r, h, f)| diagram(v, h, *r, *f),
    );
    let oldest = view.sequence.messages.first().map_or(0, |m| m.send_ms);
    let latest: Latest = (*window, range.1, view.now_ms, oldest);
    let latest_ref = use_mut_ref(|| latest);
    *latest_ref.borrow_mut() = latest;
    use_window_keys(latest_ref, window.setter());
    use_fit_and_follow(&scroll, &d, &fit, window.anchor);
    let on_pick = {
        let (picked, view, d) = (picked.clone(), view.clone(), d.clone());
        let (free, on_action) = (props.free_play, props.on_action.clone());
        Callback::from(move |p: Picked| {
            picked.set(Some(p));
            if let (true, Some(n)) = (free, pick_event(&view, &d, p)) {
                on_action.emit(Action::RewindTo(n));
            }
        })
    };
    let on_svg = {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| {
            let name = format!("sequence-{}-{}ms.svg", d.range.0, d.range.1);
            export::download_svg(&export::standalone_svg(&d), &name);
        })
    };
    let on_mermaid = {
        let (d, mermaid_text) = (d.clone(), mermaid_text.clone());
        Callback::from(move |_: MouseEvent| mermaid_text.set(Some(mermaid(&d))))
    };
    html! {
        <section class="panel sequence-panel" id="sequence-panel" data-start-ms={range.0.to_string()}
                 data-end-ms={range.1.to_string()} data-span-ms={window.span_ms.to_string()}>
            <h2>{ t.title }</h2>
            { toolbar(t, latest, &window.setter(), &hidden, on_svg, on_mermaid) }
            { mermaid_box(t, &mermaid_text) }
            <div class="seq-head">
                { for d.lanes.iter().map(|l| html! {
                    <span class={classes!("seq-lane-name", l.role, lane_class(view, l.id))} style={format!("left: {:.2}%", l.x * 100.0)}>
                        { if l.role == "admin" { "admin".to_string() } else { l.id.to_string() } }
                    </span>
                }) }
            </div>
            <div class="seq-body">
                <div class="seq-scroll" ref={scroll} title={if props.free_play { t.hint_free } else { t.hint_lesson }}>
                    { draw::draw(&d, *picked, &on_pick) }
                </div>
                { now_button(t, view.now_ms, range, &window) }
            </div>
            { footer(t, view, &d, *picked, props.free_play, range) }
        </section>
    }
}

/// A lane name's class: the node's Raft state now, or its process when not running.
fn lane_class(view: &ClusterView, id: i32) -> String {
    view.nodes
        .iter()
        .find(|n| n.id == id)
        .map(|n| crate::components::role_class(n).to_string())
        .unwrap_or_default()
}

/// The Mermaid text, once asked for, with its copy and close buttons.
fn mermaid_box(t: &SequenceText, text: &UseStateHandle<Option<String>>) -> Html {
    let Some(body) = (**text).clone() else {
        return html! {};
    };
    let copy = {
        let body = body.clone();
        Callback::from(move |_: MouseEvent| export::copy_text(&body))
    };
    let close = {
        let text = text.clone();
        Callback::from(move |_: MouseEvent| text.set(None))
    };
    html! {
        <div class="seq-mermaid">
            <textarea id="sequence-mermaid" readonly=true rows="6" value={body} />
            <div class="seq-mermaid-buttons">
                <button id="sequence-copy" class="seq-btn" onclick={copy}>{ t.copy }</button>
                <button id="sequence-mermaid-close" class="seq-btn" onclick={close}>{ t.close }</button>
            </div>
        </div>
    }
}

/// Over the diagram's corner when the present is after the window: a button to it.
fn now_button(
    t: &SequenceText,
    now_ms: u64,
    range: (u64, u64),
    window: &UseStateHandle<Window>,
) -> Html {
    if range.1 >= now_ms {
        return html! {};
    }
    let window = window.clone();
    let onclick = Callback::from(move |_: MouseEvent| {
        window.set(Window {
            anchor: Anchor::Now,
            ..*window
        })
    });
    html! {
        <button id="sequence-now" class="seq-btn seq-now" onclick={onclick}>
            { format!("{} {:.3} s ▼", t.now_after, now_ms as f64 / 1000.0) }
        </button>
    }
}

/// Under the diagram: the window's times, what was picked.
fn footer(
    t: &SequenceText,
    view: &ClusterView,
    d: &Diagram,
    picked: Option<Picked>,
    free_play: bool,
    range: (u64, u64),
) -> Html {
    html! {
        <div class="seq-foot">
            <p class="seq-range">
                <span class="seq-range-ms">{ format!("{:.3} – {:.3} s", range.0 as f64 / 1000.0, range.1 as f64 / 1000.0) }</span>
                if d.arrows.is_empty() && d.chips.is_empty() {
                    <span class="empty">{ t.empty }</span>
                }
            </p>
            if let Some(p) = picked {
                <p class="seq-picked" id="sequence-picked">
                    if free_play {
                        { format!("{} {} · ", t.rewound, pick_event(view, d, p).unwrap_or_default()) }
                    }
                    { details(view, d, p) }
                </p>
            }
        </div>
    }
}
