//! The voter set on the stage (KIP-853): the console builds its auto-join cluster (101
//! `--standalone`, 102 and 103 `--no-initial-controllers` with
//! `controller.quorum.auto.join.enable=true`); the drawing shows 101 alone on the ring and 102,
//! 103 apart as observers, then, once they have added themselves, three voters and "majority
//! 2 of 3", with no text of the drawing over another or over a node, at 1280×720.

use std::path::Path;

use fantoccini::Client;
use serde_json::Value;

use super::console::type_command;
use super::driver::{click, no_errors, screenshot, wait_for, wait_until, OVERLAP_AREA_JS};
use super::stage::{open_at, restore_window, set_viewport, FIT_JS};
use crate::Result;

/// What the drawing shows of the quorum: [voters on the ring, observers apart (controllers),
/// the majority text and its data-majority, data-voters].
const DRAWN_JS: &str = "
    const ids = sel => Array.from(document.querySelectorAll(sel)).map(g => Number(g.dataset.nodeId)).sort((a, b) => a - b);
    const m = document.getElementById('quorum-majority');
    return [ids('#cluster .node[data-voter=\"true\"]'), ids('#cluster .node[data-observer=\"true\"]'),
            m ? m.textContent : null, m ? m.dataset.majority : null, m ? m.dataset.voters : null];";

/// Every text of the drawing that covers another text or another node's shape by more than a
/// sliver (the id and epoch inside a node's own shape aside): `[count, [[text, what, px]]]`.
const TEXT_OVERLAPS_JS: &str = "
    const texts = Array.from(document.querySelectorAll('#cluster text'))
        .filter(t => !t.matches('.node-id, .node-epoch') && box(t).width > 0);
    const shapes = Array.from(document.querySelectorAll('#cluster .node .shape'));
    const out = [];
    texts.forEach((t, i) => {
        const a = box(t);
        texts.slice(i + 1).forEach(u => { const s = area(a, box(u)); if (s > 12) out.push([t.textContent, u.textContent, Math.round(s)]); });
        shapes.forEach(s => {
            const g = s.closest('.node');
            if (g === t.closest('.node')) return;
            const b = box(s);
            // A circle: the rectangle's nearest point must stay outside it.
            const r = b.width / 2, cx = b.left + r, cy = b.top + r;
            const nx = Math.max(a.left, Math.min(cx, a.right)), ny = Math.max(a.top, Math.min(cy, a.bottom));
            const over = s.tagName === 'circle' ? r - Math.hypot(nx - cx, ny - cy) : Math.sqrt(area(a, b));
            if (over > 2) out.push([t.textContent, 'node ' + g.dataset.nodeId, Math.round(over)]);
        });
    });
    return [texts.length, out];";

/// The engine's quorum, from `window.kraft.view()`.
async fn quorum(c: &Client) -> Result<Value> {
    let v = c
        .execute("return window.kraft.view().quorum;", vec![])
        .await?;
    if v.is_null() {
        return Err("kraft.view() has no quorum".into());
    }
    Ok(v)
}

/// The ids of a JSON array.
fn ids(v: &Value) -> Vec<i64> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_i64)
        .collect()
}

/// The drawing agrees with the engine's quorum: the voters on the ring, the observer
/// controllers apart, the majority text `majority K of N`.
async fn drawn_as(c: &Client, q: &Value, voters: &[i64], observers: &[i64]) -> Result<()> {
    let (v, o) = (ids(&q["voters"]), ids(&q["observer_controllers"]));
    if v != voters || o != observers {
        return Err(format!("kraft.view().quorum has voters {v:?}, observers {o:?}").into());
    }
    let k = q["majority"].as_u64().unwrap_or(0);
    let want = format!("majority {k} of {}", v.len());
    let drawn = wait_until(
        &format!("the drawing to show {v:?} and `{want}`"),
        || async {
            let d = c.execute(DRAWN_JS, vec![]).await?;
            let ok = ids(&d[0]) == v && ids(&d[1]) == o && d[2].as_str() == Some(want.as_str());
            Ok(ok.then_some(d))
        },
    )
    .await?;
    if drawn[3].as_str() != Some(&k.to_string()) {
        return Err(format!("#quorum-majority says {drawn}").into());
    }
    Ok(())
}

/// Everything wrong with the drawing as laid out now: FIT_JS's findings at 16 px, and texts
/// over texts or nodes. Gives how many texts were measured.
async fn laid_out(c: &Client, when: &str) -> Result<u64> {
    let fit = c.execute(FIT_JS, vec![Value::from(16.0)]).await?;
    let overlaps = c
        .execute(&format!("{OVERLAP_AREA_JS}{TEXT_OVERLAPS_JS}"), vec![])
        .await?;
    let mut bad: Vec<String> = fit
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| b.as_str().map(str::to_string))
        .collect();
    bad.extend(
        overlaps[1]
            .as_array()
            .into_iter()
            .flatten()
            .map(|o| format!("`{}` over `{}` ({} px)", o[0], o[1], o[2])),
    );
    if !bad.is_empty() {
        return Err(format!("{when}: {}", bad.join("; ")).into());
    }
    Ok(overlaps[0].as_u64().unwrap_or(0))
}

/// The legend opened over the drawing: every API with a colour of its own (the three voter
/// changes among them) and the legend inside the drawing's panel and the window.
const LEGEND_JS: &str = "
    const box = document.getElementById('legend-box');
    box.open = true;
    const r = box.getBoundingClientRect(), p = document.getElementById('cluster-panel').getBoundingClientRect();
    const kinds = Array.from(box.querySelectorAll('button[data-kind]')).map(b => b.dataset.kind);
    const inside = r.left >= p.left - 1 && r.right <= p.right + 1 && r.top >= p.top - 1 && r.bottom <= p.bottom + 1
        && r.bottom <= innerHeight && r.right <= innerWidth;
    const cut = Array.from(box.querySelectorAll('.key')).filter(k => { const b = k.getBoundingClientRect(); return b.right > r.right + 1 || b.bottom > r.bottom + 1; }).map(k => k.textContent);
    return [kinds, inside, [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)], cut];";

/// The legend, opened at 1280×720, lists AddRaftVoter, RemoveRaftVoter and UpdateRaftVoter and
/// fits the drawing's panel; then it is folded again.
async fn legend_fits(c: &Client, shot: &Path) -> Result<()> {
    let v = c.execute(LEGEND_JS, vec![]).await?;
    let kinds: Vec<&str> = v[0]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    for api in ["AddRaftVoter", "RemoveRaftVoter", "UpdateRaftVoter"] {
        if !kinds.contains(&api) {
            return Err(format!("the legend lists {kinds:?}, not {api}").into());
        }
    }
    if v[1] != true || v[3].as_array().is_some_and(|a| !a.is_empty()) {
        return Err(format!(
            "the open legend at {} leaves the drawing's panel (cut: {})",
            v[2], v[3]
        )
        .into());
    }
    super::driver::element_screenshot(c, "#cluster-panel", shot).await;
    c.execute(
        "document.getElementById('legend-box').open = false;",
        vec![],
    )
    .await?;
    Ok(())
}

/// What the step changed names both joins with AddVoterHandler, appended and committed, and
/// the set every node read (KRaftControlRecordStateMachine).
async fn changes_name_the_joins(c: &Client) -> Result<()> {
    let v = c
        .execute(
            "return Array.from(document.querySelectorAll('#step-changes li[data-kind=\"voters\"]'))
                 .map(li => [li.dataset.tag, li.dataset.kafka]);",
            vec![],
        )
        .await?;
    let rows: Vec<(String, String)> = v
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            let s = |i: usize| r[i].as_str().unwrap_or("").to_string();
            (s(0), s(1))
        })
        .collect();
    let has = |tag: &str, kafka: &str| rows.iter().any(|(t, k)| t == tag && k.starts_with(kafka));
    let appended = "AddVoterHandler.handleApiVersionsResponse → LeaderState.appendVotersRecord";
    let ok = has("add-103", appended)
        && has("add-102", appended)
        && has("committed-add-102", "AddVoterHandler.highWatermarkUpdated")
        && rows.iter().any(|(t, k)| {
            t.starts_with("read-") && k.starts_with("KRaftControlRecordStateMachine")
        });
    if !ok {
        return Err(format!("#step-changes' voter entries: {rows:?}").into());
    }
    Ok(())
}

/// The sequence tab just after 102 added itself: its AddRaftVoter (voter colour, labelled with
/// the voter) and the leader's ApiVersions, no label under a chip or another label.
async fn sequence_shows_the_join(c: &Client, shot: &Path) -> Result<()> {
    click(c, "#tab-sequence").await?;
    let rows = wait_until("AddRaftVoter in #sequence", || async {
        let v = c
            .execute(
                "const svg = document.getElementById('sequence').getBoundingClientRect();
                 return Array.from(document.querySelectorAll('#sequence .seq-msg')).map(g => {
                     const l = g.querySelector('.seq-label'), r = l && l.getBoundingClientRect();
                     const inside = !!r && r.top >= svg.top - 1 && r.bottom <= svg.bottom + 1 && r.left >= svg.left - 1 && r.right <= svg.right + 1;
                     return [g.dataset.api, g.getAttribute('class'), l ? l.textContent : '', inside]; });",
                vec![],
            )
            .await?;
        let rows: Vec<Value> = v.as_array().cloned().unwrap_or_default();
        let found = rows.iter().any(|r| r[0] == "AddRaftVoter");
        Ok(found.then_some(rows))
    })
    .await?;
    let labelled = |api: &str, label: &str, class: &str| {
        rows.iter().any(|r| {
            r[0] == api
                && r[2].as_str() == Some(label)
                && r[1].as_str().is_some_and(|c| c.contains(class))
                && r[3] == true
        })
    };
    if !labelled("AddRaftVoter", "AddRaftVoter 102", "msg-voters")
        || !labelled("ApiVersions", "ApiVersions", "msg-other")
    {
        return Err(format!("the sequence's arrows: {rows:?}").into());
    }
    let covered = c
        .execute(
            &format!("{OVERLAP_AREA_JS}{}", super::sequence::OVERLAPS_JS),
            vec![],
        )
        .await?;
    if covered.as_array().is_some_and(|a| !a.is_empty()) {
        return Err(format!("sequence labels under chips or labels: {covered}").into());
    }
    super::driver::element_screenshot(c, "#stage-side", shot).await;
    Ok(())
}

/// The auto-join cluster built through the console at 1280×720: 1 voter (101) and observers
/// 102, 103, the legend with the voter changes fitting the panel; 10 s in, the sequence tab
/// with 102's AddRaftVoter and the ApiVersions; 30 s in, 3 voters and `majority 2 of 3`, the HW
/// panel saying the set; nothing covered, in English and Korean. Leaves `voters-1280.png`,
/// `voters-observers-1280.png` (one voter), `voters-legend-1280.png` and
/// `voters-sequence-1280.png`.
pub(super) async fn voters_join(c: &Client, url: &str, shot: &Path) -> Result<()> {
    set_viewport(c, 1280, 720).await?;
    // Free play's console already runs a cluster, and the console takes cluster-time settings
    // only before `cluster`: a lesson before its first step has a console without one.
    open_at(c, url, "lesson=01-metadata-log&lang=en&play=0", 0).await?;
    wait_for(
        c,
        "#playground[data-layout='stage'] #tab-console",
        "the lesson did not open on the stage with a console tab",
    )
    .await?;
    click(c, "#tab-console").await?;
    type_command(c, "set controller.quorum.auto.join.enable=true").await?;
    type_command(
        c,
        "cluster controllers=101,102,103 brokers=1 quorum=standalone seed=11",
    )
    .await?;
    let q = quorum(c).await?;
    drawn_as(c, &q, &[101], &[102, 103]).await?;
    if ids(&q["observer_brokers"]) != [1] || q["kraft_version"] != 1 {
        return Err(format!("at the start kraft.view().quorum is {q}").into());
    }
    let before = laid_out(c, "one voter").await?;
    screenshot(c, &shot.with_file_name("voters-observers-1280.png")).await;
    legend_fits(c, &shot.with_file_name("voters-legend-1280.png")).await?;
    // 103 joins about 4 s in, 102 about 9.9 s in.
    type_command(c, "sleep 10s").await?;
    changes_name_the_joins(c).await?;
    sequence_shows_the_join(c, &shot.with_file_name("voters-sequence-1280.png")).await?;
    click(c, "#tab-console").await?;
    type_command(c, "sleep 20s").await?;
    let q = quorum(c).await?;
    drawn_as(c, &q, &[101, 102, 103], &[]).await?;
    if q["majority"] != 2 || q["pending"] != Value::Null {
        return Err(format!("after 30 s kraft.view().quorum is {q}").into());
    }
    click(c, "#tab-hw").await?;
    let hw = wait_for(c, "#hw-quorum", "the HW panel does not say the voter set").await?;
    let (voters, majority) = (
        hw.attr("data-voters").await?.unwrap_or_default(),
        hw.attr("data-majority").await?.unwrap_or_default(),
    );
    if (voters.as_str(), majority.as_str()) != ("101,102,103", "2") {
        return Err(format!("#hw-quorum has voters `{voters}`, majority `{majority}`").into());
    }
    let shown = c
        .execute(
            "const r = document.getElementById('hw-quorum').getBoundingClientRect();
             const p = document.getElementById('hw-panel').getBoundingClientRect();
             return r.top >= p.top && r.bottom <= p.bottom && r.bottom <= innerHeight;",
            vec![],
        )
        .await?;
    if shown != true {
        return Err("#hw-quorum is not on screen in the HW panel".into());
    }
    let after = laid_out(c, "three voters").await?;
    screenshot(c, shot).await;
    // In Korean too: `과반 2 (투표자 3 중)`, wider glyphs.
    click(c, "#lang-ko").await?;
    wait_until("the Korean majority", || async {
        let t = c
            .execute(
                "return document.getElementById('quorum-majority').textContent;",
                vec![],
            )
            .await?;
        Ok((t.as_str() == Some("과반 2 (투표자 3 중)")).then_some(()))
    })
    .await?;
    laid_out(c, "three voters, in Korean").await?;
    click(c, "#lang-en").await?;
    println!("       no overlap among {before} texts with 1 voter, {after} with 3 voters");
    restore_window(c).await?;
    no_errors(c).await
}
