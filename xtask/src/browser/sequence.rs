//! The sequence diagram (`#sequence`): lesson 02's election drawn as the article's figure after
//! the kill, its Mermaid export; in free play a click on an arrow rewinds to the event it was
//! sent at, and the window keys zoom.

use std::path::Path;

use fantoccini::{Client, Locator};
use serde_json::Value;

use super::driver::{
    click, element_screenshot, no_errors, text_of, wait_for, wait_until, OVERLAP_AREA_JS,
};
use super::free_play::events_run;
use super::stage::{open_at, restore_window, set_viewport, step_of};
use crate::Result;

/// Every arrow of `#sequence`: [api, kind, from, to, state, event].
const ARROWS_JS: &str = "return Array.from(document.querySelectorAll('#sequence .seq-msg'))
    .map(g => [g.dataset.api, g.dataset.kind, g.dataset.from, g.dataset.to, g.dataset.state, g.dataset.event]);";

/// The arrows of `#sequence` as [api, kind, from, to, state, event] rows.
async fn arrows(c: &Client) -> Result<Vec<Vec<String>>> {
    let v = c.execute(ARROWS_JS, vec![]).await?;
    Ok(v.as_array()
        .into_iter()
        .flatten()
        .map(|row| {
            row.as_array()
                .into_iter()
                .flatten()
                .map(|x| x.as_str().unwrap_or("").to_string())
                .collect()
        })
        .collect())
}

/// Whether an arrow of API `api` went between 102 and 103 and arrived.
fn between_102_and_103(rows: &[Vec<String>], api: &str) -> bool {
    rows.iter().any(|r| {
        r.len() >= 5
            && r[0] == api
            && r[4] == "delivered"
            && matches!(
                (r[2].as_str(), r[3].as_str()),
                ("102", "103") | ("103", "102")
            )
    })
}

/// The arrow labels that a chip or another label covers by more than a sliver:
/// `[label, chip or label, overlap px²]` (after [`OVERLAP_AREA_JS`]).
pub(super) const OVERLAPS_JS: &str = "
    const labels = Array.from(document.querySelectorAll('#sequence .seq-label'));
    const chips = Array.from(document.querySelectorAll('#sequence .seq-chip rect'));
    const out = [];
    labels.forEach((l, i) => {
        const a = box(l);
        chips.forEach(c => { const s = area(a, box(c)); if (s > 12) out.push([l.textContent, c.parentNode.dataset.chip, Math.round(s)]); });
        labels.slice(i + 1).forEach(m => { const s = area(a, box(m)); if (s > 12) out.push([l.textContent, m.textContent, Math.round(s)]); });
    });
    return out;";

/// Lesson 02 after its kill step (`sleep 15s` after `kill -9 101`) at 1280×720: the stage shows
/// the sequence panel with PreVote or Vote and BeginQuorumEpoch arrows between 102 and 103 and
/// the kill on 101's lane, no label under a chip or another label; the Mermaid export starts with `sequenceDiagram` and names the nodes.
pub(super) async fn lesson_sequence(c: &Client, url: &str, shot: &Path) -> Result<()> {
    set_viewport(c, 1280, 720).await?;
    open_at(c, url, "lesson=02-election&lang=en", 0).await?;
    let after = step_of(c, "kill -9 101").await? + 1;
    open_at(
        c,
        url,
        &format!("lesson=02-election&lang=en&step={after}"),
        after,
    )
    .await?;
    wait_for(
        c,
        "#stage-panel[data-panel='sequence'] #sequence",
        "the kill step does not show the sequence panel",
    )
    .await?;
    let rows = arrows(c).await?;
    let vote = between_102_and_103(&rows, "PreVote") || between_102_and_103(&rows, "Vote");
    if !vote || !between_102_and_103(&rows, "BeginQuorumEpoch") {
        return Err(format!(
            "no PreVote/Vote and BeginQuorumEpoch between 102 and 103 in {rows:?}"
        )
        .into());
    }
    if rows
        .iter()
        .any(|r| r[0] == "Fetch" || r[0] == "BrokerHeartbeat")
    {
        return Err("Fetch and heartbeats are drawn though hidden at first".into());
    }
    let kill = c
        .find_all(Locator::Css(
            "#sequence .seq-chip[data-node='101'][data-chip='kill -9']",
        ))
        .await?;
    if kill.is_empty() {
        return Err("the kill is not marked on 101's lane".into());
    }
    element_screenshot(c, "#stage-side", shot).await;
    let covered = c
        .execute(&format!("{OVERLAP_AREA_JS}{OVERLAPS_JS}"), vec![])
        .await?;
    if covered.as_array().is_some_and(|a| !a.is_empty()) {
        let fit = c
            .execute(
                "const s = document.getElementById('sequence'); return [s.dataset.fit, s.dataset.startMs, s.dataset.endMs];",
                vec![],
            )
            .await?;
        return Err(format!(
            "labels under chips or other labels (label, what, px²): {covered}; fit (em), window: {fit}"
        )
        .into());
    }
    click(c, "#sequence-mermaid-btn").await?;
    let text = wait_until("the Mermaid text", || async {
        let v = c
            .execute(
                "const t = document.getElementById('sequence-mermaid'); return t ? t.value : null;",
                vec![],
            )
            .await?;
        Ok(v.as_str().map(str::to_string))
    })
    .await?;
    if !text.starts_with("sequenceDiagram") {
        return Err(format!(
            "the Mermaid text starts `{}`",
            text.lines().next().unwrap_or("")
        )
        .into());
    }
    for id in ["C101", "C102", "C103", "B1"] {
        if !text.contains(&format!("participant {id} ")) {
            return Err(format!("the Mermaid text does not name {id}:\n{text}").into());
        }
    }
    if !text.contains("C102->>C103: BeginQuorumEpoch") {
        return Err(
            format!("no BeginQuorumEpoch from 102 to 103 in the Mermaid text:\n{text}").into(),
        );
    }
    restore_window(c).await?;
    no_errors(c).await
}

/// Free play on the stage: the sequence tab draws the first election; `-` zooms out (the span
/// doubles); a click on an arrow rewinds to the event count it was sent at.
pub(super) async fn free_play_rewinds(c: &Client, url: &str) -> Result<()> {
    c.goto(&format!("{url}?seed=42&present=1&cmds=sleep%203s"))
        .await?;
    wait_for(c, "#tab-sequence", "no sequence tab on the stage").await?;
    click(c, "#tab-sequence").await?;
    let rows = wait_until("arrows in #sequence", || async {
        let rows = arrows(c).await?;
        Ok((!rows.is_empty()).then_some(rows))
    })
    .await?;
    let span = |v: Value| v.as_str().and_then(|s| s.parse::<u64>().ok()).unwrap_or(0);
    let span_js = "return document.getElementById('sequence-panel').dataset.spanMs;";
    let before = span(c.execute(span_js, vec![]).await?);
    c.execute("document.body.focus();", vec![]).await?;
    super::driver::press_char(c, '-').await?;
    let after = wait_until("the span to change", || async {
        let s = span(c.execute(span_js, vec![]).await?);
        Ok((s != before).then_some(s))
    })
    .await?;
    if after != before * 2 {
        return Err(format!("`-` made the span {after} ms from {before} ms").into());
    }
    let now = events_run(c).await?;
    let Some(target) = rows
        .iter()
        .filter(|r| r[4] == "delivered")
        .filter_map(|r| r[5].parse::<u64>().ok())
        .find(|&e| e + 10 < now)
    else {
        return Err(format!("no delivered arrow sent well before event {now}: {rows:?}").into());
    };
    c.execute(
        "const g = document.querySelector(`#sequence .seq-msg[data-event='${arguments[0]}']`);
         g.dispatchEvent(new MouseEvent('click', { bubbles: true }));",
        vec![Value::from(target.to_string())],
    )
    .await?;
    wait_until("the rewind to the arrow's event", || async {
        Ok((events_run(c).await? == target).then_some(()))
    })
    .await
    .map_err(|e| format!("clicking an arrow sent at event {target} (now {now}): {e}"))?;
    let picked = text_of(c, "#sequence-picked").await?;
    if !picked.contains(&format!("event {target}")) {
        return Err(format!("the picked line says `{picked}`").into());
    }
    no_errors(c).await
}
