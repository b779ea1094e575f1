//! The life of a write on the stage (`#write-life`, article section 3): lesson 02's last step
//! creates `payments` and shows the write panel: its write with every step from prepareAppend
//! to completeUpTo stamped, in order, all on screen, in both themes at 1280×720.

use std::path::Path;

use fantoccini::Client;
use serde_json::Value;

use super::chrome::theme_of;
use super::driver::{click, no_errors, screenshot, wait_for};
use super::stage::{open_at, restore_window, set_viewport, step_of};
use crate::Result;

/// The payments step of lesson 02.
const CREATE_PAYMENTS: &str =
    "kafka-topics.sh --bootstrap-server localhost:9092 --create --topic payments";

/// The steps that must be stamped once the topic is created, in order.
const STAMPED: [&str; 9] = [
    "prepareAppend",
    "replay",
    "handleScheduleAppend",
    "purgatoryAdd",
    "logWrite",
    "highWatermark",
    "handleCommit",
    "completeUpTo",
    "response",
];

/// Reads `#write-life`: its data attributes and each row's (step, ms, voter).
const READ_JS: &str = "
    const w = document.getElementById('write-life');
    if (!w) return null;
    const r = w.getBoundingClientRect();
    const rows = Array.from(w.querySelectorAll('[data-step]'));
    // The lowest bottom a row may have: the viewport's, and every scrolling box's around it.
    let limit = innerHeight;
    for (let e = w.parentElement; e; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (/(auto|scroll|hidden)/.test(s.overflowY)) limit = Math.min(limit, e.getBoundingClientRect().bottom);
    }
    const hidden = rows.filter(e => e.getBoundingClientRect().bottom > limit + 1).map(e => e.dataset.step);
    return {
        event: w.dataset.event, last: w.dataset.lastOffset, snapshot: w.dataset.snapshot,
        top: r.top, bottom: r.bottom, height: innerHeight, hidden,
        rows: Array.from(w.querySelectorAll('[data-step]')).map(e =>
            [e.dataset.step, e.dataset.ms || '', e.dataset.voter || '']),
    };";

/// The stamped time of `step` in the rows read by [`READ_JS`].
fn ms_of(rows: &[Value], step: &str) -> Option<u64> {
    rows.iter()
        .find(|r| r[0].as_str() == Some(step))
        .and_then(|r| r[1].as_str())
        .and_then(|s| s.parse().ok())
}

/// Lesson 02, after `kafka-topics.sh --create --topic payments`, on the stage at 1280×720 with
/// the write panel the step shows: `#write-life`, every step on screen, shows createTopics with prepareAppend … completeUpTo and
/// the response stamped in order, the linger between prepareAppend and the log write, a
/// follower's fetch before the high watermark; screenshots in both themes.
pub(super) async fn write_life_in_lesson(c: &Client, url: &str, artifacts: &Path) -> Result<()> {
    set_viewport(c, 1280, 720).await?;
    open_at(c, url, "lesson=02-election&lang=en", 0).await?;
    let k = step_of(c, CREATE_PAYMENTS).await?;
    open_at(c, url, &format!("lesson=02-election&lang=en&step={k}"), k).await?;
    wait_for(
        c,
        "#write-life",
        "no #write-life in the write panel the step shows",
    )
    .await?;
    let v = c.execute(READ_JS, vec![]).await?;
    let rows = v["rows"].as_array().cloned().unwrap_or_default();
    let event = v["event"].as_str().unwrap_or_default();
    if !event.starts_with("createTopics") {
        return Err(format!("#write-life shows `{event}`, not createTopics").into());
    }
    if v["last"] != v["snapshot"] {
        return Err(format!(
            "snapshot {} is not the last offset {}",
            v["snapshot"], v["last"]
        )
        .into());
    }
    let times: Vec<(&str, Option<u64>)> = STAMPED.iter().map(|s| (*s, ms_of(&rows, s))).collect();
    if let Some((s, _)) = times.iter().find(|(_, t)| t.is_none()) {
        return Err(format!("step {s} is not stamped: {rows:?}").into());
    }
    let t: Vec<u64> = times.iter().filter_map(|(_, t)| *t).collect();
    if t.windows(2).any(|p| p[0] > p[1]) {
        return Err(format!("the steps' times go backwards: {times:?}").into());
    }
    let linger = t[4] - t[0];
    if linger > 30 {
        return Err(format!("the batch reached the log {linger} ms after prepareAppend").into());
    }
    let fetches: Vec<u64> = rows
        .iter()
        .filter(|r| r[0].as_str() == Some("fetch"))
        .filter_map(|r| r[1].as_str().and_then(|s| s.parse().ok()))
        .collect();
    if !fetches.iter().any(|&f| f <= t[5]) {
        return Err(format!("no follower fetched before the HW at {}: {rows:?}", t[5]).into());
    }
    let hidden = v["hidden"].as_array().map_or(0, Vec::len);
    if v["top"].as_f64().unwrap_or(-1.0) < 0.0 || hidden > 0 {
        return Err(format!(
            "#write-life is not all on screen at 1280x720 ({hidden} steps below the fold): {v}"
        )
        .into());
    }
    shoot_both_themes(c, artifacts).await?;
    restore_window(c).await?;
    no_errors(c).await
}

/// Screenshots `write-life-<theme>.png` in the current theme and the other, then back.
async fn shoot_both_themes(c: &Client, artifacts: &Path) -> Result<()> {
    for _ in 0..2 {
        let (theme, _) = theme_of(c).await?;
        screenshot(c, &artifacts.join(format!("write-life-{theme}.png"))).await;
        click(c, "#btn-theme").await?;
    }
    Ok(())
}
