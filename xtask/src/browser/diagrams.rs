//! The article's pictures on the stage at 1280×720: lesson 02's Raft state diagram of 103 after
//! the kill (its last four transitions numbered with their times and lit, every edge with its
//! trigger in both languages, no two edges crossing as the browser draws them) and lesson 04's
//! BrokerState diagram of broker 3 (one box per BrokerState, the frozen broker's own RUNNING
//! beside the controller's fenced, unfenced again after the thaw).

use std::path::Path;

use fantoccini::Client;
use serde_json::{json, Value};

use super::driver::{click, element_screenshot, no_errors, wait_until};
use super::lessons::{show_tab, wait_for_step};
use super::stage::{open_at, restore_window, set_viewport, step_of};
use crate::Result;

/// What `#state-diagram` shows: its node, edges (id, from, to, trigger), the edges lit, the
/// numbered rows (n, from, to, time), the badges, its labels' text, and the pairs of edges
/// whose paths cross as drawn (each path sampled with getPointAtLength).
const STATE_DIAGRAM_JS: &str = r#"
    const d = document.getElementById('state-diagram');
    if (!d) return null;
    const edges = Array.from(d.querySelectorAll('.sd-edge'));
    const pts = edges.map(e => { const n = e.getTotalLength(), out = [];
        for (let i = 0; i <= 64; i++) { const p = e.getPointAtLength(n * i / 64); out.push([p.x, p.y]); }
        return out; });
    const o = (p, q, r) => (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]);
    const cross = (a, b, c, e) => { const d1 = o(c, e, a), d2 = o(c, e, b), d3 = o(a, b, c), d4 = o(a, b, e);
        return d1 * d2 < 0 && d3 * d4 < 0; };
    const crossings = [];
    for (let i = 0; i < pts.length; i++) for (let j = i + 1; j < pts.length; j++) {
        let hit = false;
        for (let a = 1; a < pts[i].length && !hit; a++)
            for (let b = 1; b < pts[j].length && !hit; b++)
                hit = cross(pts[i][a - 1], pts[i][a], pts[j][b - 1], pts[j][b]);
        if (hit) crossings.push(edges[i].dataset.edge + ' × ' + edges[j].dataset.edge);
    }
    return { node: d.dataset.nodeId,
             edges: edges.map(e => [e.dataset.edge || '', e.dataset.from || '', e.dataset.to || '', e.dataset.trigger || '']),
             lit: edges.filter(e => e.classList.contains('recent')).map(e => e.dataset.edge),
             rows: Array.from(d.querySelectorAll('.sd-recent-row')).map(r =>
                 [r.dataset.n, r.dataset.from, r.dataset.to, r.dataset.timeMs, r.querySelector('.sd-time').textContent]),
             badges: Array.from(d.querySelectorAll('.sd-badge:not([data-at="list"])')).map(b => b.dataset.n),
             labels: Array.from(d.querySelectorAll('.sd-label')).map(l =>
                 Array.from(l.querySelectorAll('tspan')).map(t => t.textContent).join(' ')).join('|'),
             crossings };"#;

async fn state_diagram(c: &Client) -> Result<Value> {
    Ok(c.execute(STATE_DIAGRAM_JS, vec![]).await?)
}

/// The strings of a JSON array of arrays, row by row.
fn rows(v: &Value) -> Vec<Vec<String>> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            r.as_array()
                .into_iter()
                .flatten()
                .map(|x| x.as_str().unwrap_or("").to_string())
                .collect()
        })
        .collect()
}

/// Lesson 02 at `transitions 103 after=kill` (103 in focus): the state diagram of 103 numbers
/// 1-4 its Prospective → Unattached → Unattached → Follower story with nondecreasing times and
/// no `null`, lights the edges of the fetch timeout, the higher epoch, the vote granted and the
/// leader discovered, every edge carries data-from, data-to and data-trigger, the labels follow
/// 한국어 / EN, and no two edges cross as drawn. Leaves `state-diagram-103.png`.
pub(super) async fn raft_states_of_103(c: &Client, url: &str, artifacts: &Path) -> Result<()> {
    set_viewport(c, 1280, 720).await?;
    open_at(c, url, "lesson=02-election&lang=en&play=0", 0).await?;
    goto_step(c, step_of(c, "transitions 103 after=kill").await?).await?;
    show_tab(c, "states").await?;
    let v = wait_until("#state-diagram of node 103", || async {
        let v = state_diagram(c).await?;
        Ok((v["node"].as_str() == Some("103")).then_some(v))
    })
    .await?;
    element_screenshot(
        c,
        "#state-diagram",
        &artifacts.join("state-diagram-103.png"),
    )
    .await;
    let seen = rows(&v["rows"]);
    let story: Vec<(&str, &str, &str)> = seen
        .iter()
        .map(|r| (r[0].as_str(), r[1].as_str(), r[2].as_str()))
        .collect();
    let want = [
        ("1", "Follower", "Prospective"),
        ("2", "Prospective", "Unattached"),
        ("3", "Unattached", "Unattached"),
        ("4", "Unattached", "Follower"),
    ];
    if story != want {
        return Err(format!("103's numbered transitions are {seen:?}, wanted {want:?}").into());
    }
    let times: Vec<u64> = seen.iter().filter_map(|r| r[3].parse().ok()).collect();
    if times.len() != 4
        || times.windows(2).any(|p| p[0] > p[1])
        || seen.iter().any(|r| !r[4].ends_with(" s"))
    {
        return Err(format!("the transitions' times are not shown in order: {seen:?}").into());
    }
    let mut lit: Vec<&str> = v["lit"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    lit.sort_unstable();
    if lit != ["any-f", "any-u", "f-p", "u-u"] {
        return Err(format!("103's diagram lights the edges {lit:?}").into());
    }
    let edges = rows(&v["edges"]);
    if edges.len() < 10 || edges.iter().any(|e| e.iter().any(String::is_empty)) {
        return Err(format!("an edge lacks data-from, data-to or data-trigger: {edges:?}").into());
    }
    if v["badges"].as_array().map_or(0, Vec::len) < 2 {
        return Err(format!(
            "fewer than 2 numbered badges on the diagram: {}",
            v["badges"]
        )
        .into());
    }
    if v["crossings"] != json!([]) {
        return Err(format!("edges cross as drawn: {}", v["crossings"]).into());
    }
    let en = v["labels"].as_str().unwrap_or("").to_string();
    click(c, "#lang-ko").await?;
    let ko = wait_until("the state diagram's labels in Korean", || async {
        let l = state_diagram(c).await?["labels"]
            .as_str()
            .unwrap_or("")
            .to_string();
        Ok(l.contains("선거").then_some(l))
    })
    .await?;
    click(c, "#lang-en").await?;
    if !en.contains("election timeout") || !en.contains("PreVote majority") || ko == en {
        return Err(format!("the labels read `{en}` in English and `{ko}` in Korean").into());
    }
    restore_window(c).await?;
    no_errors(c).await
}

/// What `#broker-state-diagram` shows: the broker, every `[data-state]`, the lit one, the
/// controller's view lit, the deadline text and every edge's reason.
const BROKER_DIAGRAM_JS: &str = r#"
    const d = document.getElementById('broker-state-diagram');
    if (!d) return null;
    const lit = d.querySelector('.bsd-view.lit');
    return { broker: d.dataset.broker,
             states: Array.from(d.querySelectorAll('[data-state]')).map(e => e.dataset.state),
             current: Array.from(d.querySelectorAll('.bsd-state.current')).map(e => e.dataset.state),
             view: d.querySelector('.bsd-controller').dataset.view,
             lit: lit ? lit.dataset.view : null,
             deadline: d.querySelector('.bsd-deadline').textContent,
             reasons: Array.from(d.querySelectorAll('.bsd-edge')).map(e => e.dataset.reason || '') };"#;

/// Clicks step `k` in the lesson's row of steps and waits until the lesson panel shows it.
async fn goto_step(c: &Client, k: usize) -> Result<()> {
    click(c, &format!("#lesson-steps [data-step='{k}']")).await?;
    wait_for_step(c, k).await.map(|_| ())
}

/// Jumps lesson 04 to the step running `command`, shows the brokers tab, and gives what the
/// BrokerState diagram of broker 3 shows.
async fn broker_3_at(c: &Client, command: &str) -> Result<Value> {
    goto_step(c, step_of(c, command).await?).await?;
    show_tab(c, "brokers").await?;
    wait_until("#broker-state-diagram of broker 3", || async {
        let v = c.execute(BROKER_DIAGRAM_JS, vec![]).await?;
        Ok((v["broker"].as_str() == Some("3")).then_some(v))
    })
    .await
}

/// Lesson 04: at `run until=fenced=3` the BrokerState diagram of broker 3 has one
/// `[data-state]` per BrokerState, lights RUNNING (the frozen broker's own state) beside the
/// active controller's fenced, and says its session ended; after the thaw the controller sees
/// it unfenced. Leaves `broker-state-diagram.png`.
pub(super) async fn broker_state_of_3(c: &Client, url: &str, artifacts: &Path) -> Result<()> {
    set_viewport(c, 1280, 720).await?;
    open_at(c, url, "lesson=04-fencing&lang=en&play=0", 0).await?;
    let v = broker_3_at(c, "run until=fenced=3 timeout=15s").await?;
    element_screenshot(
        c,
        "#broker-state-diagram",
        &artifacts.join("broker-state-diagram.png"),
    )
    .await;
    let mut states: Vec<&str> = v["states"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    states.sort_unstable();
    let want = [
        "NOT_RUNNING",
        "PENDING_CONTROLLED_SHUTDOWN",
        "RECOVERY",
        "RUNNING",
        "SHUTTING_DOWN",
        "STARTING",
    ];
    if states != want {
        return Err(format!(
            "the diagram's [data-state] are {states:?}, wanted one per BrokerState"
        )
        .into());
    }
    if v["current"] != json!(["RUNNING"]) || v["view"] != "fenced" || v["lit"] != "fenced" {
        return Err(format!("broker 3 frozen and fenced shows {v}").into());
    }
    if !v["deadline"]
        .as_str()
        .is_some_and(|d| d.starts_with("session ended"))
    {
        return Err(format!("broker 3's session should have ended: {v}").into());
    }
    if v["reasons"]
        .as_array()
        .is_none_or(|r| r.len() != 5 || r.iter().any(|x| x == ""))
    {
        return Err(format!("an edge of the BrokerState diagram has no reason: {v}").into());
    }
    let thawed = broker_3_at(c, "run until=unfenced=3 timeout=10s").await?;
    if thawed["current"] != json!(["RUNNING"]) || thawed["view"] != "unfenced" {
        return Err(format!("after the thaw broker 3 shows {thawed}").into());
    }
    restore_window(c).await?;
    no_errors(c).await
}
