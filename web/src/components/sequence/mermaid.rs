//! The window as Mermaid `sequenceDiagram` text: a participant per lane (`C101` a controller,
//! `B1` a broker, `N5` a combined node, `Admin` the tools' client), each message an arrow in
//! send order (`->>` a request, `-->>` a response, `-x` / `--x` dropped, lost or failed), and
//! the transitions and process events as notes over their node.

use super::label::{mermaid_label, State};
use super::layout::{Diagram, Lane};

/// The Mermaid id of a lane: `C101`, `B1`, `N5`, `Admin`.
pub fn participant(lane: &Lane) -> String {
    match lane.role {
        "controller" => format!("C{}", lane.id),
        "broker" => format!("B{}", lane.id),
        "admin" => "Admin".to_string(),
        _ => format!("N{}", lane.id),
    }
}

/// The diagram as Mermaid text.
pub fn mermaid(d: &Diagram) -> String {
    let mut out = String::from("sequenceDiagram\n");
    let ids: Vec<String> = d.lanes.iter().map(participant).collect();
    for (lane, id) in d.lanes.iter().zip(&ids) {
        let name = match lane.role {
            "admin" => "admin client".to_string(),
            role => format!("{role} {}", lane.id),
        };
        out.push_str(&format!("    participant {id} as {name}\n"));
    }
    // In the order of one event: a node's transitions, then what it sends.
    let mut lines: Vec<((u64, u8, u64), String)> = Vec::new();
    for (i, c) in d.chips.iter().enumerate() {
        lines.push((
            (c.time_ms, 0, i as u64),
            format!("    Note over {}: {}", ids[c.lane], c.note),
        ));
    }
    for a in &d.arrows {
        let op = match (a.state.crossed(), a.response) {
            (false, false) => "->>",
            (false, true) => "-->>",
            (true, false) => "-x",
            (true, true) => "--x",
        };
        let mut label = mermaid_label(a.api, a.m.kind.direction, &a.m.fields);
        if matches!(a.state, State::Dropped | State::Lost) {
            label.push_str(&format!(" ({})", a.state.name()));
        }
        lines.push((
            (a.m.send_ms, 1, a.m.id),
            format!("    {}{op}{}: {label}", ids[a.lanes.0], ids[a.lanes.1]),
        ));
    }
    lines.sort_by_key(|(k, _)| *k);
    for (_, l) in lines {
        out.push_str(&l);
        out.push('\n');
    }
    out
}
