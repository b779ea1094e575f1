//! The data plane on the stage: the "two high watermarks" figure for a cluster whose topic
//! holds data. The console has no producer tool on this branch, so the address writes the
//! records with its `#produce TOPIC-N COUNT` line (the engine's World, through
//! `kraft_core::lesson::test_records`); broker 3 is stopped between two writes, so it falls
//! out of the ISR and is drawn apart.

use std::path::Path;

use fantoccini::Client;
use serde_json::Value;

use super::driver::{click, element_screenshot, no_errors, screenshot, wait_for, wait_until};
use super::stage::{restore_window, set_viewport, FIT_JS};
use crate::Result;

/// The console lines (and `#produce` lines) the address replays.
const CMDS: &[&str] = &[
    "cluster controllers=101,102,103 brokers=1,2,3 seed=7",
    "run until=leader timeout=10s",
    "sleep 5s",
    "kafka-topics.sh --bootstrap-server localhost:9092 --create --topic orders --replication-factor 3",
    "sleep 2s",
    "#produce orders-0 5",
    "kill -STOP 3",
    "sleep 12s",
    "#produce orders-0 3",
    "sleep 1s",
];

/// Percent-encodes a query value (everything but `A-Z a-z 0-9 - _ . ~`).
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// What the figure shows and what the engine says: [data-metadata-hw, data-data-hw,
/// data-partition, the engine's metadata HW (its leader's), the engine's orders-0 leader HW,
/// the bars of the data half [id, end, apart], the ISR line's offset, the apart label, the two
/// SVGs' roles and names].
const FIGURE_JS: &str = "
    const f = document.getElementById('hw-two'), v = window.kraft.view();
    const leader = v.nodes.filter(n => n.high_watermark_calc && n.process === 'running').sort((a, b) => b.epoch - a.epoch)[0];
    const p = v.data_partitions.find(p => p.topic === 'orders' && p.partition === 0);
    const bars = Array.from(document.querySelectorAll('#hw-two-data .hw-two-bar'))
        .map(g => [Number(g.dataset.nodeId), g.dataset.endOffset, g.dataset.apart === 'true']);
    const line = document.querySelector('#hw-two-data .isr-line');
    const apart = document.querySelector('#hw-two-data .apart-label');
    const svgs = ['hw-two-metadata', 'hw-two-data'].map(id => { const s = document.getElementById(id);
        return s ? [s.getAttribute('role'), s.getAttribute('aria-label') || ''] : null; });
    return [f.dataset.metadataHw, f.dataset.dataHw, f.dataset.partition,
            leader ? String(leader.high_watermark_calc.high_watermark) : null,
            p ? String(p.leader_high_watermark) : null, bars,
            line ? line.dataset.offset : null, p ? String(p.isr_min_log_end_offset) : null,
            apart ? apart.textContent : null, svgs];";

/// Everything of the figure cut off: off screen, out of a scrolling ancestor, or out of its
/// own SVG; and text under 16 px.
const CUT_JS: &str = "
    const f = document.getElementById('hw-two'), bad = [];
    const within = (r, b) => r.left >= b.left - 1 && r.top >= b.top - 1 && r.right <= b.right + 1 && r.bottom <= b.bottom + 1;
    const screen = {left: 0, top: 0, right: innerWidth, bottom: innerHeight};
    for (const el of f.querySelectorAll('h2, figcaption, p, select, svg, svg text, svg rect')) {
        const r = el.getBoundingClientRect();
        const what = (el.id ? '#' + el.id : el.tagName) + ' `' + (el.textContent || '').trim().slice(0, 30) + '`';
        if (!within(r, screen)) { bad.push(what + ' is off screen'); continue; }
        for (let a = el.parentElement; a; a = a.parentElement) {
            const o = getComputedStyle(a).overflowY;
            if ((o === 'auto' || o === 'scroll' || o === 'hidden') && !within(r, a.getBoundingClientRect())) { bad.push(what + ' is scrolled out'); break; }
        }
        const svg = el.ownerSVGElement;
        if (svg && !within(r, svg.getBoundingClientRect())) bad.push(what + ' is cut off at its SVG');
        if (el.matches('rect')) continue;
        let px = parseFloat(getComputedStyle(el).fontSize);
        if (el instanceof SVGElement) { const m = el.getScreenCTM(); if (m) px *= Math.hypot(m.a, m.b); }
        if (el.matches('svg') || !(el.textContent || '').trim()) continue;
        if (px < 15.95) bad.push(what + ' is ' + px.toFixed(1) + ' px');
    }
    return bad;";

/// Nothing of the figure cut off, no text under 16 px, and the page as a whole fits (FIT_JS).
async fn fits(c: &Client, when: &str) -> Result<()> {
    let mut bad: Vec<String> = Vec::new();
    for js in [CUT_JS.to_string(), FIT_JS.to_string()] {
        let v = c.execute(&js, vec![Value::from(16.0)]).await?;
        bad.extend(
            v.as_array()
                .into_iter()
                .flatten()
                .filter_map(|b| b.as_str().map(str::to_string)),
        );
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(format!("{when}: {}", bad.join("; ")).into())
    }
}

/// The figure agrees with the engine: both HWs, broker 3 apart and labelled, the ISR line at
/// the ISR's smallest LEO, both SVGs named images.
async fn shows_both(c: &Client, apart_label: &str) -> Result<Value> {
    let v = wait_until("#hw-two with both high watermarks", || async {
        let v = c.execute(FIGURE_JS, vec![]).await?;
        let ready = v[0].as_str().is_some_and(|s| !s.is_empty())
            && v[1].as_str().is_some_and(|s| !s.is_empty());
        Ok(ready.then_some(v))
    })
    .await?;
    let bars: Vec<(i64, bool)> = v[5]
        .as_array()
        .into_iter()
        .flatten()
        .map(|b| (b[0].as_i64().unwrap_or(0), b[2] == true))
        .collect();
    let apart: Vec<i64> = bars.iter().filter(|b| b.1).map(|b| b.0).collect();
    let named = v[9]
        .as_array()
        .into_iter()
        .flatten()
        .all(|s| s[0] == "img" && s[1].as_str().is_some_and(|n| n.len() > 10));
    let ok = v[0] == v[3]
        && v[1] == v[4]
        && v[1] == "8"
        && v[2] == "orders-0"
        && bars.len() == 3
        && apart == [3]
        && v[6] == v[7]
        && v[8].as_str().is_some_and(|t| t.contains(apart_label))
        && named;
    if !ok {
        return Err(format!("#hw-two and kraft.view() disagree: {v}").into());
    }
    Ok(v)
}

/// The figure at 1280×720 for `orders-0` holding 8 records (5 on stopped broker 3): the
/// metadata log's HW and the partition's, as the engine has them, broker 3 apart and labelled
/// out of the ISR, nothing cut off and no text under 16 px, in English and Korean; the
/// partitions panel gives each replica's LEO/HW; the drawing's replica fetches are steady links
/// with a legend entry. Leaves `hw-two-1280.png`, `hw-two-1280-ko.png`.
pub(super) async fn two_high_watermarks(c: &Client, url: &str, shot: &Path) -> Result<()> {
    set_viewport(c, 1280, 720).await?;
    let cmds = encode(&CMDS.join("\n"));
    c.goto(&format!("{url}?present=1&lang=en&cmds={cmds}"))
        .await?;
    wait_for(c, "#tab-hw-two", "the stage has no `Two HWs` tab").await?;
    if let Some(e) = c
        .execute(
            "const e = document.getElementById('error'); return e ? e.textContent : null;",
            vec![],
        )
        .await?
        .as_str()
    {
        if e.contains("bad address") {
            return Err(format!("the address did not replay: {e}").into());
        }
    }
    click(c, "#tab-hw-two").await?;
    let v = shows_both(c, "out of ISR").await?;
    fits(c, "in English").await?;
    element_screenshot(
        c,
        "#stage-side",
        &shot.with_file_name("hw-two-figure-1280.png"),
    )
    .await;
    screenshot(c, shot).await;
    click(c, "#lang-ko").await?;
    shows_both(c, "ISR 밖").await?;
    fits(c, "in Korean").await?;
    screenshot(c, &shot.with_file_name("hw-two-1280-ko.png")).await;
    click(c, "#lang-en").await?;
    // The partitions panel: each replica's LEO / HW.
    click(c, "#tab-partitions").await?;
    let cells = c
        .execute(
            "return Array.from(document.querySelectorAll('#partitions-panel tr[data-partition=\"orders-0\"] .replica-offsets'))
                 .map(s => [Number(s.dataset.broker), s.dataset.leo, s.dataset.hw]);",
            vec![],
        )
        .await?;
    let leos: Vec<(i64, String)> = cells
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            (
                r[0].as_i64().unwrap_or(0),
                r[1].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    if leos.len() != 3 || !leos.contains(&(3, "5".to_string())) {
        return Err(format!("the partitions panel's LEO / HW cells: {cells}").into());
    }
    // Replica fetches are steady links (a fetch waits at the leader between its trips: play
    // until one is on the wire), and the legend names them.
    click(c, "#btn-play").await?;
    let linked = wait_until("a replica-fetch link", || async {
        let n = c
            .execute(
                "return document.querySelectorAll('#links .link-replica').length;",
                vec![],
            )
            .await?;
        Ok((n.as_u64().unwrap_or(0) > 0).then_some(()))
    })
    .await;
    click(c, "#btn-play").await?;
    linked?;
    if c.find(fantoccini::Locator::Id("legend-data-links"))
        .await
        .is_err()
    {
        return Err("the legend has no entry for the data links".into());
    }
    println!(
        "       metadata HW {}, orders-0 HW {} (ISR min {}), broker 3 apart",
        v[0], v[1], v[6]
    );
    restore_window(c).await?;
    no_errors(c).await
}
