//! The sequence diagram of lesson 02's election, built natively from the engine's view.

use std::collections::BTreeSet;

use kraft_core::lesson::Console;
use kraft_core::view::{ApiKeys, ClusterView};

use super::label::State;
use super::window::{Anchor, Window, HIDDEN_AT_FIRST};
use super::{diagram, mermaid, Fit};

/// Lesson 02 up to the end of its kill step (`kill -9 101`, then 15 s).
fn after_the_kill() -> ClusterView {
    let mut c = Console::new();
    for line in [
        "cluster controllers=101,102,103 brokers=1 seed=22",
        "run until=leader timeout=10s",
        "sleep 5s",
        "kafka-topics.sh --bootstrap-server localhost:9092 --create --topic orders",
        "sleep 950ms",
        "kill -9 101",
        "sleep 15s",
    ] {
        c.exec(line).expect(line);
    }
    c.world.as_ref().expect("a world").view()
}

fn hidden() -> BTreeSet<ApiKeys> {
    HIDDEN_AT_FIRST.iter().copied().collect()
}

#[test]
fn the_default_window_after_the_kill_reads_like_the_articles_election() {
    let view = after_the_kill();
    let hidden = hidden();
    let range = Window::default().range(&view.sequence, &hidden, view.now_ms);
    assert!(
        range.1 < view.now_ms,
        "anchored on the election, not the present"
    );
    let d = diagram(&view, &hidden, range, Fit::default());
    let ids: Vec<i32> = d.lanes.iter().map(|l| l.id).collect();
    assert_eq!(ids, [101, 102, 103, 1], "controllers, then brokers");
    let between = |api: ApiKeys| {
        d.arrows.iter().any(|a| {
            let pair = [a.m.from.min(a.m.to), a.m.from.max(a.m.to)];
            a.api == api && a.state == State::Delivered && pair == [102, 103]
        })
    };
    for api in [ApiKeys::PreVote, ApiKeys::Vote, ApiKeys::BeginQuorumEpoch] {
        assert!(between(api), "{api:?} between 102 and 103");
    }
    assert!(
        d.chips.iter().any(|c| c.node == 101 && c.text == "kill -9"),
        "the kill"
    );
    assert!(
        d.chips
            .iter()
            .any(|c| c.node == 102 && c.text == "Candidate e2"),
        "a new epoch"
    );
    assert!(d.chips.iter().any(|c| c.node == 102 && c.text == "Leader"));
    assert!(
        d.arrows
            .iter()
            .any(|a| a.state == State::Failed && a.api == ApiKeys::PreVote),
        "a PreVote to the dead 101 failed"
    );
    assert!(d.arrows.iter().all(|a| !HIDDEN_AT_FIRST.contains(&a.api)));
    // Time flows down: every arrow ends at or below its start, chips sit on their rows.
    assert!(d.arrows.iter().all(|a| a.end.1 >= a.start.1));
    assert!(
        d.breaks.iter().any(|b| b.2 >= 1_000),
        "the fetch timeout is a break"
    );
    assert!(
        d.lanes[0].down.iter().any(|s| s.2 == "killed"),
        "101 is down after the kill"
    );
    // Shown again, the fetches are there too.
    let all = diagram(&view, &BTreeSet::new(), range, Fit::default());
    assert!(all.arrows.iter().any(|a| a.api == ApiKeys::Fetch));
}

#[test]
fn the_mermaid_text_names_the_nodes_and_the_election() {
    let view = after_the_kill();
    let hidden = hidden();
    let range = Window::default().range(&view.sequence, &hidden, view.now_ms);
    let text = mermaid(&diagram(&view, &hidden, range, Fit::default()));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "sequenceDiagram");
    for p in [
        "C101 as controller 101",
        "C102 as controller 102",
        "C103 as controller 103",
        "B1 as broker 1",
    ] {
        assert!(
            lines.contains(&format!("    participant {p}").as_str()),
            "{p}\n{text}"
        );
    }
    for l in [
        "    Note over C101: kill -9",
        "    C103->>C102: PreVote (epoch 1)",
        "    C102-->>C103: PreVote response (refused)",
        "    C102-xC101: Vote (no answer)",
        "    Note over C102: Candidate (epoch 2)",
        "    C102->>C103: Vote (epoch 2)",
        "    C103-->>C102: Vote response (granted)",
        "    C102->>C103: BeginQuorumEpoch (epoch 2)",
    ] {
        assert!(lines.contains(&l), "{l}\n{text}");
    }
    let pos = |l: &str| lines.iter().position(|x| *x == l).unwrap_or(usize::MAX);
    assert!(
        pos("    Note over C102: Candidate (epoch 2)") < pos("    C102->>C103: Vote (epoch 2)")
    );
}

#[test]
fn the_window_zooms_and_scrolls() {
    let view = after_the_kill();
    let hidden = hidden();
    let w = Window::default();
    let (_, end) = w.range(&view.sequence, &hidden, view.now_ms);
    let back = w.earlier(end, 0);
    assert_eq!(back.anchor, Anchor::At(end - w.span_ms / 2));
    assert_eq!(
        back.later(end - w.span_ms / 2, view.now_ms).anchor,
        Anchor::At(end)
    );
    assert_eq!(w.later(view.now_ms - 1, view.now_ms).anchor, Anchor::Now);
    assert_eq!(w.zoom_in().span_ms, w.span_ms / 2);
    assert_eq!(w.zoom_out().zoom_in(), w);
    let now = Window {
        anchor: Anchor::Now,
        ..w
    };
    assert_eq!(
        now.range(&view.sequence, &hidden, view.now_ms).1,
        view.now_ms
    );
}

#[test]
fn the_svg_file_is_a_standalone_document_of_the_window() {
    let view = after_the_kill();
    let hidden = hidden();
    let range = Window::default().range(&view.sequence, &hidden, view.now_ms);
    let svg = super::export::standalone_svg(&diagram(&view, &hidden, range, Fit::default()));
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    for text in [
        ">101</text>",
        ">kill -9</text>",
        ">PreVote e1</text>",
        ">Candidate e2</text>",
    ] {
        assert!(svg.contains(text), "{text}");
    }
    assert_eq!(svg.matches("<g class=\"msg ").count(), 12);
}

/// The boxes (em) of the diagram's labels and chips that overlap, at a width and height.
fn overlaps_at(view: &ClusterView, width_em: f64, height_em: f64) -> Vec<(String, String, f64)> {
    use super::place::{chip_width, CHAR_EM};
    use super::shapes::CHIP_H;
    let hidden = hidden();
    let range = Window::default().range(&view.sequence, &hidden, view.now_ms);
    let fit = Fit {
        height_em,
        width_em,
    };
    let d = diagram(view, &hidden, range, fit);
    let n = d.lanes.len() as f64;
    let mut boxes: Vec<(String, (f64, f64, f64, f64))> = d
        .chips
        .iter()
        .map(|c| {
            let x = (c.lane as f64 + 0.5) / n * width_em + c.dx;
            let w = chip_width(&c.text);
            let b = (
                x - w / 2.0,
                c.y - CHIP_H / 2.0,
                x + w / 2.0,
                c.y + CHIP_H / 2.0,
            );
            (c.text.clone(), b)
        })
        .collect();
    for a in &d.arrows {
        if let Some((x, baseline)) = a.label_at {
            let (x, w) = (x * width_em, a.label.chars().count() as f64 * CHAR_EM);
            let b = (x - w / 2.0, baseline - 0.73, x + w / 2.0, baseline + 0.22);
            boxes.push((a.label.clone(), b));
        }
    }
    let mut out = Vec::new();
    for (i, (s, a)) in boxes.iter().enumerate() {
        for (t, b) in &boxes[i + 1..] {
            let w = a.2.min(b.2) - a.0.max(b.0);
            let h = a.3.min(b.3) - a.1.max(b.1);
            if w > 0.05 && h > 0.05 {
                out.push((s.clone(), t.clone(), w * h));
            }
        }
    }
    out
}

#[test]
fn no_label_lies_under_a_chip_or_another_label_on_the_projector() {
    // The side panel at 1280x720 is 32.3 x 15.1 em (the page measured it), wider and taller at
    // 1920x1080 or with a smaller text size.
    let view = after_the_kill();
    let mut bad = Vec::new();
    for w in [32.3, 34.0, 38.0, 41.0, 44.0, 50.0, 58.0] {
        for h in [12.0, 15.1, 19.0, 24.0, 30.0, 40.0] {
            let o = overlaps_at(&view, w, h);
            if !o.is_empty() {
                bad.push(format!("{w}x{h} em: {o:?}"));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The console's auto-join cluster just after 102 added itself (about 9.9 s in).
fn when_102_joins() -> ClusterView {
    let mut c = Console::new();
    for line in [
        "set controller.quorum.auto.join.enable=true",
        "cluster controllers=101,102,103 brokers=1 quorum=standalone seed=11",
        "sleep 10s",
    ] {
        c.exec(line).expect(line);
    }
    c.world.as_ref().expect("a world").view()
}

#[test]
fn a_controller_joining_draws_its_voter_change_and_api_versions() {
    let view = when_102_joins();
    let hidden = hidden();
    let range = Window::default().range(&view.sequence, &hidden, view.now_ms);
    let fit = Fit {
        height_em: 15.1,
        width_em: 32.3,
    };
    let d = diagram(&view, &hidden, range, fit);
    let drawn: Vec<(&str, &str, bool)> = d
        .arrows
        .iter()
        .map(|a| (a.label.as_str(), a.class, a.label_at.is_some()))
        .collect();
    assert!(
        drawn.contains(&("AddRaftVoter 102", "msg-voters", true)),
        "{drawn:?}"
    );
    assert!(
        drawn.contains(&("ApiVersions", "msg-other", true)),
        "{drawn:?}"
    );
    assert!(d
        .arrows
        .iter()
        .all(|a| super::draw::CLASSES.contains(&a.class)));
    let text = mermaid(&d);
    assert!(
        text.contains("C102->>C101: AddRaftVoter (voter 102)"),
        "{text}"
    );
    let mut bad = Vec::new();
    for w in [32.3, 38.0, 50.0] {
        for h in [12.0, 15.1, 24.0] {
            let o = overlaps_at(&view, w, h);
            if !o.is_empty() {
                bad.push(format!("{w}x{h} em: {o:?}"));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn every_message_class_has_its_arrowhead_and_its_colour_in_the_svg_file() {
    for api in ApiKeys::ALL {
        let class = crate::components::cluster_view::message_class(*api);
        assert!(super::draw::CLASSES.contains(&class), "{class}");
        assert!(
            super::export::STYLE.contains(&format!(".{class}{{")),
            "{class}"
        );
    }
}
