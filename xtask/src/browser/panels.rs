//! The side panels: the controller panel and its tabs, the broker panel, the HW panel, the log
//! tail's filter and the state diagram.

use std::path::Path;
use std::time::Duration;

use fantoccini::{Client, Locator};
use serde_json::{json, Value};

use super::driver::{click, no_errors, screenshot, text_of, wait_until};
use super::free_play::{leader_of, nodes, play_until, set_playing};
use super::lessons;
use super::{EXPECTED_BROKERS, WARM_UP_MS};
use crate::Result;

/// On a controller's tail: `controller.log` shows only the controller loggers' lines, a text
/// filter only lines with the text, and `all` everything again.
pub(super) async fn log_filter(c: &Client) -> Result<()> {
    click(c, "#tail-node-101").await?;
    let lines = |t: String| t.lines().map(str::to_string).collect::<Vec<_>>();
    let all = lines(text_of(c, "#log-tail").await?);
    c.find(Locator::Css("#log-file"))
        .await?
        .select_by_value("controller.log")
        .await?;
    let ctl = wait_until("the controller.log filter", || async {
        let l = lines(text_of(c, "#log-tail").await?);
        Ok((l != all).then_some(l))
    })
    .await?;
    if ctl.is_empty()
        || !ctl
            .iter()
            .all(|l| l.contains("(org.apache.kafka.controller."))
    {
        return Err(format!("controller.log filter shows {:?}", ctl.first()).into());
    }
    c.find(Locator::Css("#log-file"))
        .await?
        .select_by_value("all")
        .await?;
    c.find(Locator::Css("#log-grep"))
        .await?
        .send_keys("RaftManager")
        .await?;
    let grep = wait_until("the text filter", || async {
        let l = lines(text_of(c, "#log-tail").await?);
        Ok((!l.is_empty() && l.iter().all(|x| x.contains("RaftManager"))).then_some(l))
    })
    .await?;
    if grep.len() >= all.len() {
        return Err("the text filter kept every line".into());
    }
    c.find(Locator::Css("#log-grep")).await?.clear().await?;
    Ok(())
}

/// What the controller panel shows.
#[derive(Debug)]
pub(super) struct ControllerSeen {
    node_id: Option<i32>,
    active: bool,
    status: String,
    queue: Vec<String>,
    deferred: Vec<String>,
    snapshot_epochs: usize,
}

/// What the controller panel shows.
pub(super) async fn controller_panel(c: &Client) -> Result<ControllerSeen> {
    let v = c
        .execute(
            "const p = document.getElementById('controller-panel');
             if (!p) return null;
             const names = (css) => Array.from(p.querySelectorAll(css)).map(e => e.dataset.name);
             const status = p.querySelector('#controller-status');
             return { node: p.dataset.nodeId, active: p.dataset.active,
                      status: status ? status.textContent : '',
                      queue: names('.event-queue li'), deferred: names('.deferred li'),
                      epochs: p.querySelectorAll('#snapshot-epochs .chip').length };",
            vec![],
        )
        .await?;
    if v.is_null() {
        return Err("there is no #controller-panel".into());
    }
    let strs = |k: &str| -> Vec<String> {
        v.get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|e| e.as_str().unwrap_or("?").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    let str_of = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    Ok(ControllerSeen {
        node_id: str_of("node").parse().ok(),
        active: str_of("active") == "true",
        status: str_of("status"),
        queue: strs("queue"),
        deferred: strs("deferred"),
        snapshot_epochs: v.get("epochs").and_then(Value::as_u64).unwrap_or(0) as usize,
    })
}

/// Plays to [`WARM_UP_MS`]; the panel (following the active controller) must show the Raft
/// leader as ACTIVE with `writeNoOpRecord` deferred. Gives the leader's id and epoch.
pub(super) async fn controller_panel_shows_active(c: &Client) -> Result<(i32, i32)> {
    play_until(c, WARM_UP_MS).await?;
    // Between two events writeNoOpRecord may sit in the queue rather than the deferred list: run
    // single events until it is deferred again.
    let mut seen = controller_panel(c).await?;
    for _ in 0..50 {
        if seen.deferred.iter().any(|n| n == "writeNoOpRecord") {
            break;
        }
        click(c, "#btn-step").await?;
        tokio::time::sleep(Duration::from_millis(30)).await;
        seen = controller_panel(c).await?;
    }
    let (leader_id, epoch) = leader_of(&nodes(c).await?).ok_or("no Raft leader after 5 s")?;
    if !seen.active {
        return Err(format!("the panel shows no active controller: {seen:?}").into());
    }
    if seen.node_id != Some(leader_id) {
        return Err(format!("the panel shows {seen:?}, but the Raft leader is {leader_id}").into());
    }
    if !seen.status.contains("ACTIVE") || !seen.status.contains(&format!("epoch {epoch}")) {
        return Err(format!(
            "status reads `{}`, wanted ACTIVE · epoch {epoch}",
            seen.status
        )
        .into());
    }
    if !seen.deferred.iter().any(|n| n == "writeNoOpRecord") {
        return Err(format!("no deferred writeNoOpRecord: {seen:?}").into());
    }
    if seen.snapshot_epochs == 0 {
        return Err("no SnapshotRegistry epochs shown".into());
    }
    Ok((leader_id, epoch))
}

/// The broker panel shows the brokers RUNNING and unfenced, with their heartbeats.
pub(super) async fn brokers_running(c: &Client) -> Result<()> {
    let v = c
        .execute(
            "const now = Number(document.getElementById('virtual-time').dataset.ms);
             return Array.from(document.querySelectorAll('#broker-panel tr[data-broker-id]')).map(r => {
                const tl = document.querySelector(`#broker-panel .hb-timeline[data-broker-id='${r.dataset.brokerId}']`);
                const ticks = tl ? Array.from(tl.querySelectorAll('.hb-tick')).map(t => Number(t.dataset.ms)) : [];
                return { id: r.dataset.brokerId, state: r.dataset.state,
                         fenced: r.dataset.fencedController, since: r.dataset.sinceHeartbeat,
                         ticks: ticks, deadline: tl ? Number(tl.dataset.deadlineMs) : -1, now: now };
             });",
            vec![],
        )
        .await?;
    let rows = v.as_array().ok_or("no broker rows")?;
    let field = |r: &Value, k: &str| r.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let mut ids: Vec<i32> = rows
        .iter()
        .filter_map(|r| field(r, "id").parse().ok())
        .collect();
    ids.sort_unstable();
    if ids != EXPECTED_BROKERS {
        return Err(format!("expected broker rows {EXPECTED_BROKERS:?}, saw {ids:?}").into());
    }
    for r in rows {
        if field(r, "state") != "RUNNING" || field(r, "fenced") != "false" {
            return Err(format!("broker row {r} is not RUNNING and unfenced").into());
        }
        let since: u64 = field(r, "since")
            .parse()
            .map_err(|_| format!("broker row {r} has no session"))?;
        if since >= 9000 {
            return Err(format!("broker row {r}: session older than 9 s").into());
        }
        // The heartbeat timeline: the last `since` ms ago and, running, 2 s after the one
        // before (starting up, a broker also heartbeats at once after registering and after
        // catching up); the session's deadline 9 s after the last.
        let ticks: Vec<u64> = r["ticks"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_u64)
            .collect();
        let (now, deadline) = (r["now"].as_u64(), r["deadline"].as_u64());
        let last = ticks.last().copied();
        let spaced = ticks.windows(2).all(|w| w[0] < w[1])
            && ticks
                .windows(2)
                .last()
                .is_some_and(|w| (1_900..=2_100).contains(&(w[1] - w[0])));
        if ticks.len() < 2
            || !spaced
            || last.zip(now).map(|(l, n)| n - l) != Some(since)
            || last.map(|l| l + 9_000) != deadline
        {
            return Err(format!("broker row {r}: the heartbeat timeline is wrong").into());
        }
    }
    Ok(())
}

/// A controller tab shows a standby controller; the active tab follows the active one.
pub(super) async fn controller_tabs(c: &Client, active_id: i32) -> Result<()> {
    let standby = [101, 102, 103]
        .into_iter()
        .find(|&id| id != active_id)
        .ok_or("no standby controller")?;
    click(c, &format!("#ctrl-tab-{standby}")).await?;
    let seen = wait_until(&format!("the panel to show {standby}"), || async {
        let s = controller_panel(c).await?;
        Ok((s.node_id == Some(standby)).then_some(s))
    })
    .await?;
    if seen.active || !seen.status.contains("standby") {
        return Err(format!("controller {standby} should be a standby: {seen:?}").into());
    }
    click(c, "#ctrl-tab-auto").await?;
    wait_until(
        "the panel to follow the active controller again",
        || async {
            let s = controller_panel(c).await?;
            Ok((s.node_id == Some(active_id) && s.active).then_some(()))
        },
    )
    .await
}

/// After kill -9 of the active controller `old_id` another becomes active; its id.
pub(super) async fn another_controller_active(c: &Client, old_id: i32) -> Result<i32> {
    set_playing(c, true).await?;
    let found = wait_until("another active controller", || async {
        let s = controller_panel(c).await?;
        Ok(s.node_id
            .filter(|&id| s.active && id != old_id && s.status.contains("ACTIVE"))
            .filter(|_| {
                s.deferred
                    .iter()
                    .chain(&s.queue)
                    .any(|n| n == "writeNoOpRecord")
            }))
    })
    .await;
    set_playing(c, false).await?;
    found
}

/// The high-watermark panel of the leader: its numbers are those of the leader's metadata log
/// row, the voters are sorted by end offset (descending) and the candidate is the entry at
/// index size/2.
pub(super) async fn hw_panel_matches(c: &Client, leader_id: i32) -> Result<()> {
    let v = c
        .execute(
            "const p = document.getElementById('hw-panel');
             if (!p) return null;
             const log = document.getElementById('log-' + p.dataset.leaderId);
             return { leader: p.dataset.leaderId, hw: p.dataset.hw, candidate: p.dataset.candidate,
                      start: p.dataset.epochStart, index: p.dataset.index,
                      shown: document.getElementById('hw-value').textContent,
                      shownCandidate: document.getElementById('hw-candidate').textContent,
                      logHw: log ? log.dataset.hw : null,
                      ends: Array.from(p.querySelectorAll('.hw-voter')).map(e => e.dataset.endOffset),
                      picked: Array.from(p.querySelectorAll('.hw-voter')).findIndex(e => e.classList.contains('picked')) };",
            vec![],
        )
        .await?;
    if v.is_null() {
        return Err("there is no #hw-panel".into());
    }
    let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    if s("leader") != leader_id.to_string() {
        return Err(format!(
            "#hw-panel shows leader {}, the leader is {leader_id}",
            s("leader")
        )
        .into());
    }
    if s("hw").is_empty() || s("hw") != s("logHw") || s("shown").trim() != s("hw") {
        return Err(format!("#hw-panel HW differs from the leader's log row: {v}").into());
    }
    let ends: Vec<Option<i64>> = v
        .get("ends")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|e| e.as_str().and_then(|t| t.parse().ok()))
                .collect()
        })
        .unwrap_or_default();
    if ends.len() != 3 || ends.windows(2).any(|w| w[0] < w[1]) {
        return Err(format!("voters are not sorted by end offset, descending: {ends:?}").into());
    }
    let index: usize = s("index")
        .parse()
        .map_err(|_| format!("bad data-index in {v}"))?;
    let picked = v.get("picked").and_then(Value::as_i64).unwrap_or(-1);
    if index != ends.len() / 2 || picked != index as i64 {
        return Err(format!(
            "picked entry {picked}, data-index {index}, wanted {}",
            ends.len() / 2
        )
        .into());
    }
    let candidate = ends[index].map(|e| e.to_string()).unwrap_or_default();
    if s("candidate") != candidate || s("shownCandidate").trim() != candidate {
        return Err(format!(
            "candidate {} is not entry {index} of {ends:?}",
            s("candidate")
        )
        .into());
    }
    let (hw, start): (i64, i64) = (
        s("hw").parse().map_err(|_| "bad HW")?,
        s("start").parse().map_err(|_| "bad epoch start")?,
    );
    if hw <= start {
        return Err(format!("HW {hw} is not past epochStartOffset {start}").into());
    }
    no_errors(c).await
}

/// After lesson 02 the state diagram of node 102 lights Leader and highlights Candidate → Leader.
pub(super) async fn state_diagram_leader(c: &Client, shot: &Path) -> Result<()> {
    click(c, "#node-102 .shape").await?;
    lessons::show_tab(c, "states").await?;
    let v = wait_until("#state-diagram of node 102", || async {
        let v = c
            .execute(
                "const d = document.getElementById('state-diagram');
                 if (!d || d.dataset.nodeId !== '102') return null;
                 const cur = d.querySelectorAll('.sd-state.current');
                 const last = d.querySelector('.sd-edge.last');
                 const flow = d.querySelectorAll('.sd-flow');
                 const same = flow.length === 1 && !!last && flow[0].getAttribute('d') === last.getAttribute('d');
                 return { current: d.dataset.current, lit: Array.from(cur).map(e => e.dataset.state),
                          from: last ? last.dataset.from : '', to: last ? last.dataset.to : '',
                          flow: same };",
                vec![],
            )
            .await?;
        Ok((!v.is_null()).then_some(v))
    })
    .await?;
    screenshot(c, shot).await;
    if v.get("current") != Some(&json!("Leader")) || v.get("lit") != Some(&json!(["Leader"])) {
        return Err(format!("the diagram of 102 does not light Leader alone: {v}").into());
    }
    if v.get("from") != Some(&json!("Candidate")) || v.get("to") != Some(&json!("Leader")) {
        return Err(format!("the last transition of 102 is not Candidate → Leader: {v}").into());
    }
    if v.get("flow") != Some(&json!(true)) {
        return Err(format!("no flowing dashes along 102's last transition alone: {v}").into());
    }
    no_errors(c).await
}
