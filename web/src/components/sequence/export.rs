//! The window exported: a standalone SVG file (absolute coordinates, the light theme's colours
//! in its own `<style>`, the lane names on top) downloaded from the page, and the Mermaid text
//! copied to the clipboard.

use wasm_bindgen::{JsCast, JsValue};

use super::label::State;
use super::layout::{Arrow, Diagram};
use super::place::{chip_width, LOOP_EM};

/// Pixels per `em` in the file.
const PX: f64 = 16.0;
/// The width of a lane in the file (px).
const LANE_PX: f64 = 150.0;
/// The band of lane names on top (px).
const HEAD_PX: f64 = 36.0;

/// The file's style: the page's light theme.
pub(super) const STYLE: &str = "\
text{font:600 16px system-ui,sans-serif;fill:#000}\
.lane line{stroke:#7a8599;stroke-width:2}\
.down{stroke:#c1002b;stroke-width:4;stroke-dasharray:2 6}\
.stopped{stroke:#4a5568}\
.brk rect{fill:#eef1f6}.brk text{fill:#2e3645;font-weight:400}\
.cursor line{stroke:#000;stroke-width:2;stroke-dasharray:8 4}\
.msg line,.msg polyline{stroke:currentColor;stroke-width:2.5}.msg.resp line,.msg.resp polyline{stroke-dasharray:7 4}\
.msg text{fill:currentColor;font-weight:800;paint-order:stroke;stroke:#fff;stroke-width:5px}\
.x{fill:#c1002b!important}\
.chip rect{fill:#fff;stroke:#4a5568;stroke-width:2}.chip text{font-weight:700}\
.msg-vote{color:#b34700}.msg-prevote{color:#6b6b00}.msg-begin{color:#6a1fa8}.msg-end{color:#b0005f}\
.msg-fetch{color:#005f8a}.msg-snapshot{color:#00736a}.msg-heartbeat{color:#11703a}\
.msg-alter{color:#b0005f}.msg-replica{color:#1f4e9a}.msg-voters{color:#8a5a00}.msg-other{color:#333a45}\
.role-leader rect{stroke:#8a6300;fill:#fff1c2}.role-candidate rect{stroke:#b34700;fill:#ffe1cc}\
.role-prospective rect{stroke:#6b6b00}.role-follower rect{stroke:#005f8a}.role-resigned rect{stroke:#6a1fa8}\
.proc-kill rect{stroke:#c1002b;fill:#ffe3e8}.proc-stop rect{stroke:#4a5568}.proc-start rect{stroke:#11703a}";

/// `&`, `<`, `>` and `"` escaped for XML.
fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The file's frame: its size and where a fraction of the width and an `em` of height go.
struct Frame {
    width: f64,
    height: f64,
}

impl Frame {
    fn x(&self, f: f64) -> f64 {
        f * self.width
    }

    fn y(&self, e: f64) -> f64 {
        HEAD_PX + e * PX
    }
}

/// The diagram as a standalone SVG document.
pub fn standalone_svg(d: &Diagram) -> String {
    let width = (d.lanes.len() as f64 * LANE_PX).max(480.0);
    let f = Frame {
        width,
        height: HEAD_PX + d.height * PX,
    };
    let height = f.height;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\"><style>{STYLE}</style>\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>"
    );
    out.push_str("<defs><marker id=\"h\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0 0L10 5L0 10z\" fill=\"#333a45\"/></marker></defs>");
    for &(y0, y1, ms) in &d.breaks {
        out.push_str(&format!(
            "<g class=\"brk\"><rect x=\"0\" y=\"{:.1}\" width=\"{width:.0}\" height=\"{:.1}\"/><text x=\"6\" y=\"{:.1}\" dominant-baseline=\"central\">+{:.2} s</text></g>",
            f.y(y0 + 0.15),
            (y1 - y0 - 0.3) * PX,
            f.y((y0 + y1) / 2.0),
            ms as f64 / 1000.0
        ));
    }
    out.push_str(&lanes(d, &f));
    if let Some(c) = d.cursor {
        out.push_str(&format!(
            "<g class=\"cursor\"><line x1=\"0\" y1=\"{:.1}\" x2=\"{width:.0}\" y2=\"{0:.1}\"/><text x=\"{:.0}\" y=\"{:.1}\" text-anchor=\"end\">{:.3} s</text></g>",
            f.y(c),
            width - 6.0,
            f.y(c) - 5.0,
            d.now_ms as f64 / 1000.0
        ));
    }
    for a in &d.arrows {
        out.push_str(&arrow(a, &f));
    }
    out.push_str(&chips(d, &f));
    out.push_str("</svg>\n");
    out
}

/// The lanes: each node's name on top, its line, where it was down.
fn lanes(d: &Diagram, f: &Frame) -> String {
    let mut out = String::new();
    for l in &d.lanes {
        let name = if l.role == "admin" {
            "admin".to_string()
        } else {
            l.id.to_string()
        };
        out.push_str(&format!(
            "<g class=\"lane\"><text x=\"{:.1}\" y=\"24\" text-anchor=\"middle\" style=\"font-weight:800;font-size:20px\">{name}</text><line x1=\"{0:.1}\" y1=\"{HEAD_PX}\" x2=\"{0:.1}\" y2=\"{:.0}\"/>",
            f.x(l.x),
            f.height
        ));
        for &(y0, y1, s) in &l.down {
            out.push_str(&format!(
                "<line class=\"down {s}\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{0:.1}\" y2=\"{:.1}\"/>",
                f.x(l.x),
                f.y(y0),
                f.y(y1)
            ));
        }
        out.push_str("</g>");
    }
    out
}

/// One message: its line, its ✕, its label.
fn arrow(a: &Arrow, f: &Frame) -> String {
    let ((x0, y0), (x1, y1)) = (a.start, a.end);
    let head = if a.state == State::Delivered {
        " marker-end=\"url(#h)\""
    } else {
        ""
    };
    let class = format!("{}{}", a.class, if a.response { " resp" } else { "" });
    let mut out = if a.self_loop {
        let (x, l) = (f.x(x0), LOOP_EM * PX);
        format!(
            "<g class=\"msg {class}\"><polyline fill=\"none\" points=\"{x:.1},{:.1} {:.1},{0:.1} {1:.1},{:.1} {:.1},{2:.1}\"{head}/>",
            f.y(y0),
            x + l,
            f.y(y1),
            x + 3.0
        )
    } else {
        format!(
            "<g class=\"msg {class}\"><line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"{head}/>",
            f.x(x0),
            f.y(y0),
            f.x(x1),
            f.y(y1)
        )
    };
    if a.state.crossed() {
        out.push_str(&format!(
            "<text class=\"x\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" dominant-baseline=\"central\">✕</text>",
            f.x(x1),
            f.y(y1)
        ));
    }
    if let Some((lx, ly)) = a.label_at {
        out.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            f.x(lx),
            f.y(ly),
            xml(&a.label)
        ));
    }
    out.push_str("</g>");
    out
}

/// The chips: transitions and process events.
fn chips(d: &Diagram, f: &Frame) -> String {
    let mut out = String::new();
    for c in &d.chips {
        let w = chip_width(&c.text) * PX;
        let lane = f.x(d.lanes.get(c.lane).map_or(0.5, |l| l.x));
        let cx = lane.clamp(w / 2.0, (f.width - w / 2.0).max(w / 2.0));
        out.push_str(&format!(
            "<g class=\"chip {}\"><rect x=\"{:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{:.1}\" rx=\"5\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" dominant-baseline=\"central\">{}</text></g>",
            xml(&c.class),
            cx - w / 2.0,
            f.y(c.y - 0.525),
            1.05 * PX,
            cx,
            f.y(c.y),
            xml(&c.text)
        ));
    }
    out
}

/// Offers `svg` as a file download named `name`.
pub fn download_svg(svg: &str, name: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(a) = doc.create_element("a") else {
        return;
    };
    let href = format!(
        "data:image/svg+xml;charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(svg))
    );
    let _ = a.set_attribute("href", &href);
    let _ = a.set_attribute("download", name);
    if let Ok(a) = a.dyn_into::<web_sys::HtmlElement>() {
        a.click();
    }
}

/// Copies `text` to the clipboard (`navigator.clipboard.writeText`), where the browser allows.
pub fn copy_text(text: &str) {
    let Some(nav) = web_sys::window().map(|w| w.navigator()) else {
        return;
    };
    let Ok(clip) = js_sys::Reflect::get(&nav, &JsValue::from_str("clipboard")) else {
        return;
    };
    if let Ok(f) = js_sys::Reflect::get(&clip, &JsValue::from_str("writeText")) {
        if let Some(f) = f.dyn_ref::<js_sys::Function>() {
            let _ = f.call1(&clip, &JsValue::from_str(text));
        }
    }
}
