//! Free play: the page loads, the first-visit card, the nodes drawn, Step, Step back and the
//! keys, play and failover, isolate and heal, and the node menu.

use std::path::Path;
use std::time::Duration;

use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::Value;

use super::driver::{
    click, enabled, location_search, no_errors, press, reload, screenshot, text_of, wait_for,
    wait_gone, wait_loaded, wait_until,
};
use super::{EXPECTED_NODES, WAIT_LIMIT};
use crate::Result;

/// Opens `url` and waits until the page is ready, without a page error.
pub(super) async fn page_loads(c: &Client, url: &str) -> Result<()> {
    c.goto(url).await?;
    let found = c
        .wait()
        .at_most(WAIT_LIMIT)
        .for_element(Locator::Css("#playground[data-ready='true']"))
        .await;
    no_errors(c).await?;
    found.map_err(|e| format!("#playground did not appear: {e}"))?;
    Ok(())
}

/// The first-visit card on a bare address: its three choices; Free play dismisses it and it
/// does not come back after a reload; in a fresh browser, its lesson button opens lesson 02.
pub(super) async fn first_visit(c: &Client, url: &str) -> Result<()> {
    wait_for(c, "#welcome", "no first-visit card on a bare address").await?;
    for id in ["#welcome-lesson", "#welcome-free", "#welcome-keys"] {
        c.find(Locator::Css(id))
            .await
            .map_err(|e| format!("the first-visit card has no {id}: {e}"))?;
    }
    click(c, "#welcome-lesson").await?;
    wait_for(
        c,
        "#playground[data-layout='stage'] #lesson-panel[data-lesson='02-election']",
        "the card's lesson button did not open lesson 02 on the stage",
    )
    .await?;
    // Gone for good: forget it, then dismiss it with Free play, reload.
    c.execute(
        "localStorage.removeItem('kraft-visited'); localStorage.removeItem('kraft-session');",
        vec![],
    )
    .await?;
    c.goto(url).await?;
    wait_for(c, "#welcome", "the card did not come back once forgotten").await?;
    click(c, "#welcome-free").await?;
    wait_gone(c, "#welcome", "the first-visit card").await?;
    reload(c).await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    if c.find(Locator::Css("#welcome")).await.is_ok() {
        return Err("the first-visit card came back after a reload".into());
    }
    no_errors(c).await
}

/// One node as the diagram shows it.
#[derive(Debug, Clone)]
pub(super) struct NodeSeen {
    pub(super) id: i32,
    pub(super) role: String,
    pub(super) epoch: i32,
    pub(super) process: String,
    pub(super) leader_id: Option<i32>,
}

/// The nodes the cluster view draws.
pub(super) async fn nodes(c: &Client) -> Result<Vec<NodeSeen>> {
    let v = c
        .execute(
            "return Array.from(document.querySelectorAll('#cluster [data-node-id]')).map(e => ({
                id: e.dataset.nodeId, role: e.dataset.role, epoch: e.dataset.epoch,
                process: e.dataset.process, leader: e.dataset.leaderId }));",
            vec![],
        )
        .await?;
    let str_of = |n: &Value, k: &str| n.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    v.as_array()
        .ok_or("no node list")?
        .iter()
        .map(|n| {
            Ok(NodeSeen {
                id: str_of(n, "id")
                    .parse()
                    .map_err(|_| format!("bad data-node-id in {n}"))?,
                role: str_of(n, "role"),
                epoch: str_of(n, "epoch")
                    .parse()
                    .map_err(|_| format!("bad data-epoch in {n}"))?,
                process: str_of(n, "process"),
                leader_id: str_of(n, "leader").parse().ok(),
            })
        })
        .collect()
}

/// The cluster view draws the expected controllers and brokers.
pub(super) async fn shows_nodes(c: &Client) -> Result<()> {
    let mut ids: Vec<i32> = nodes(c).await?.iter().map(|n| n.id).collect();
    ids.sort_unstable();
    if ids == EXPECTED_NODES {
        Ok(())
    } else {
        Err(format!("expected nodes {EXPECTED_NODES:?}, saw {ids:?}").into())
    }
}

/// The events run so far, as `#events-run` shows.
pub(super) async fn events_run(c: &Client) -> Result<u64> {
    let t = text_of(c, "#events-run").await?;
    t.trim()
        .parse()
        .map_err(|_| format!("#events-run is `{t}`").into())
}

/// Step runs one event and says what it ran.
pub(super) async fn step_runs_one_event(c: &Client) -> Result<()> {
    let before = events_run(c).await?;
    click(c, "#btn-step").await?;
    let after = wait_until("#events-run to change", || async {
        let n = events_run(c).await?;
        Ok((n != before).then_some(n))
    })
    .await?;
    if after != before + 1 {
        return Err(format!("events run went from {before} to {after}, not by one").into());
    }
    // It says what it ran: a delivery, a node's poll, a controller's event.
    let said = text_of(c, "#just-ran").await?;
    // `just ran: [1234 ms] deliver FetchRequest 102 -> 101 ...`
    let what = said.split_once(':').map_or("", |(_, w)| w.trim());
    let what = what.split_once("] ").map_or(what, |(_, w)| w);
    if !["deliver ", "wake ", "resume ", "controller "]
        .iter()
        .any(|p| what.starts_with(p))
    {
        return Err(format!("#just-ran says `{said}`").into());
    }
    Ok(())
}

/// Steps three events, then Back: the events count, the node log rows and the drawing's nodes
/// are those of the state two steps in (a checkpoint and a deterministic replay in the engine).
pub(super) async fn step_back_rewinds(c: &Client) -> Result<()> {
    let mut states = Vec::new();
    for _ in 0..3 {
        let before = events_run(c).await?;
        click(c, "#btn-step").await?;
        wait_until("a step", || async {
            Ok((events_run(c).await? != before).then_some(()))
        })
        .await?;
        states.push(free_play_seen(c).await?);
    }
    click(c, "#btn-step-back").await?;
    let want = states[1].0;
    wait_until("the step back", || async {
        Ok((events_run(c).await? == want).then_some(()))
    })
    .await?;
    let now = free_play_seen(c).await?;
    if now != states[1] {
        return Err(format!(
            "after Back the page shows {:?}, two steps in it showed {:?}",
            now.0, states[1].0
        )
        .into());
    }
    Ok(())
}

/// The events count, the node log rows and the drawing's nodes: what going back and forward
/// must give again.
pub(super) async fn free_play_seen(c: &Client) -> Result<(u64, Vec<String>, String)> {
    let mut rows = Vec::new();
    for el in c.find_all(Locator::Css(".node-log")).await? {
        rows.push(el.text().await?);
    }
    Ok((events_run(c).await?, rows, format!("{:?}", nodes(c).await?)))
}

/// The `↷ N` notice of how far going forward can replay, if shown: its end event count.
pub(super) async fn redo_end(c: &Client) -> Result<Option<u64>> {
    let found = c.find_all(Locator::Css("#redo-ahead")).await?;
    match found.first() {
        Some(el) => Ok(el.attr("data-end").await?.and_then(|v| v.parse().ok())),
        None => Ok(None),
    }
}

/// In free play ← goes back one event and → forward again: three back show `↷` with the
/// present as its end; three forward give the view there was, and the notice goes.
pub(super) async fn keys_back_and_forward(c: &Client) -> Result<()> {
    // Start from the end of what happened (an earlier check may have rewound).
    if let Some(end) = redo_end(c).await? {
        while events_run(c).await? < end {
            let before = events_run(c).await?;
            press(c, Key::Right).await?;
            wait_until("→ to go forward", || async {
                Ok((events_run(c).await? > before).then_some(()))
            })
            .await?;
        }
    }
    let start = free_play_seen(c).await?;
    for k in 1..=3u64 {
        press(c, Key::Left).await?;
        wait_until("← to go back one event", || async {
            Ok((events_run(c).await? == start.0 - k).then_some(()))
        })
        .await?;
    }
    if redo_end(c).await? != Some(start.0) {
        return Err(format!(
            "after three ← the page shows ↷ to {:?}, wanted {}",
            redo_end(c).await?,
            start.0
        )
        .into());
    }
    for k in (0..3u64).rev() {
        press(c, Key::Right).await?;
        wait_until("→ to go forward one event", || async {
            Ok((events_run(c).await? == start.0 - k).then_some(()))
        })
        .await?;
    }
    let end = free_play_seen(c).await?;
    if end != start {
        return Err(format!(
            "after ← ← ← → → → the page shows {:?} events, it showed {:?}",
            end.0, start.0
        )
        .into());
    }
    if let Some(e) = redo_end(c).await? {
        return Err(format!("at the end the page still shows ↷ to {e}").into());
    }
    no_errors(c).await
}

/// Chooses the speed menu's value `ms`.
pub(super) async fn set_speed(c: &Client, ms: &str) -> Result<()> {
    c.find(Locator::Css("#speed"))
        .await?
        .select_by_value(ms)
        .await?;
    Ok(())
}

/// Presses Play or Pause unless the page already plays (or is paused) as asked.
pub(super) async fn set_playing(c: &Client, playing: bool) -> Result<()> {
    let now = c
        .find(Locator::Css("#btn-play"))
        .await?
        .attr("data-playing")
        .await?;
    if now.as_deref() != Some(if playing { "true" } else { "false" }) {
        click(c, "#btn-play").await?;
    }
    Ok(())
}

/// The leader among `nodes` and its epoch.
pub(super) fn leader_of(nodes: &[NodeSeen]) -> Option<(i32, i32)> {
    nodes
        .iter()
        .find(|n| n.role == "Leader" && n.process == "running")
        .map(|n| (n.id, n.epoch))
}

/// Play elects a leader with epoch >= 1; its (id, epoch).
pub(super) async fn play_elects_leader(c: &Client) -> Result<(i32, i32)> {
    // 250 virtual ms per 50 ms frame: five times real time, so the test stays short.
    set_speed(c, "250").await?;
    set_playing(c, true).await?;
    let (id, epoch) = wait_until("a leader", || async { Ok(leader_of(&nodes(c).await?)) }).await?;
    set_playing(c, false).await?;
    if epoch < 1 {
        return Err(format!("leader {id} has epoch {epoch}").into());
    }
    if !(101..=103).contains(&id) {
        return Err(format!("leader {id} is not a controller").into());
    }
    Ok((id, epoch))
}

/// kill -9 of the leader elects a new leader with a higher epoch; its (id, epoch).
pub(super) async fn failover(c: &Client, old_id: i32, old_epoch: i32) -> Result<(i32, i32)> {
    click(c, &format!("#btn-kill-{old_id}")).await?;
    wait_until("the killed node to show as killed", || async {
        Ok(nodes(c)
            .await?
            .iter()
            .any(|n| n.id == old_id && n.process == "killed")
            .then_some(()))
    })
    .await?;
    set_playing(c, true).await?;
    let found = wait_until("a new leader", || async {
        Ok(leader_of(&nodes(c).await?).filter(|&(id, epoch)| id != old_id && epoch > old_epoch))
    })
    .await;
    set_playing(c, false).await?;
    found
}

/// Restarting the old leader brings it back as a follower of the new one.
pub(super) async fn restart_rejoins(
    c: &Client,
    old_id: i32,
    new_id: i32,
    new_epoch: i32,
) -> Result<()> {
    click(c, &format!("#btn-restart-{old_id}")).await?;
    play_until_following(c, old_id, new_id, new_epoch).await
}

/// Plays until node `id` runs as a follower of `leader` in epoch `epoch` or later, then pauses.
pub(super) async fn play_until_following(
    c: &Client,
    id: i32,
    leader: i32,
    epoch: i32,
) -> Result<()> {
    set_playing(c, true).await?;
    let found = wait_until(&format!("{id} to follow leader {leader}"), || async {
        Ok(nodes(c)
            .await?
            .iter()
            .any(|n| {
                n.id == id
                    && n.process == "running"
                    && n.role == "Follower"
                    && n.leader_id == Some(leader)
                    && n.epoch >= epoch
            })
            .then_some(()))
    })
    .await;
    set_playing(c, false).await?;
    found
}

/// The process table's `isolate` partitions the leader from every other node: the others elect
/// a leader in a higher epoch; `heal network` ends the partition and the old leader follows the
/// new one.
pub(super) async fn isolate_and_heal(c: &Client) -> Result<()> {
    let (old_id, old_epoch) = leader_of(&nodes(c).await?).ok_or("no leader before isolating it")?;
    click(c, &format!("#btn-isolate-{old_id}")).await?;
    set_playing(c, true).await?;
    let found = wait_until("a new leader while the old one is isolated", || async {
        Ok(leader_of(&nodes(c).await?).filter(|&(id, epoch)| id != old_id && epoch > old_epoch))
    })
    .await;
    set_playing(c, false).await?;
    let (new_id, new_epoch) = found?;
    click(c, "#btn-heal").await?;
    play_until_following(c, old_id, new_id, new_epoch).await?;
    no_errors(c).await
}

/// Waits until node `id` shows process `process` in the drawing and in its open menu.
pub(super) async fn menu_shows(c: &Client, id: i32, process: &str) -> Result<()> {
    wait_until(
        &format!("node {id} {process} in the drawing and its menu"),
        || async {
            let drawn = nodes(c)
                .await?
                .iter()
                .any(|n| n.id == id && n.process == process);
            let menu = c
                .find_all(Locator::Css(&format!(
                    "#node-menu[data-node-id='{id}'][data-process='{process}']"
                )))
                .await?;
            Ok((drawn && !menu.is_empty()).then_some(()))
        },
    )
    .await
}

/// Clicking a follower opens its menu in the middle of the ring; STOP, CONT, kill -9 and
/// restart from the menu drive the process (each button enabled only when it applies); Escape
/// closes the menu, and so does a second click on the node.
pub(super) async fn node_menu(c: &Client, shot: &Path) -> Result<()> {
    let seen = nodes(c).await?;
    let (leader, _) = leader_of(&seen).ok_or("no leader before the node menu")?;
    let id = seen
        .iter()
        .find(|n| n.id != leader && n.process == "running" && n.role == "Follower")
        .map(|n| n.id)
        .ok_or("no running follower for the node menu")?;
    click(c, &format!("#node-{id} .shape")).await?;
    menu_shows(c, id, "running").await?;
    let want = [
        ("stop", true),
        ("cont", false),
        ("kill", true),
        ("restart", false),
    ];
    for (name, on) in want {
        if enabled(c, &format!("#menu-{name}-{id}")).await? != on {
            return Err(format!("menu of running node {id}: {name} enabled should be {on}").into());
        }
    }
    click(c, &format!("#menu-stop-{id}")).await?;
    menu_shows(c, id, "stopped").await?;
    if !enabled(c, &format!("#menu-cont-{id}")).await? {
        return Err(format!("CONT is disabled in the menu of stopped node {id}").into());
    }
    click(c, &format!("#menu-cont-{id}")).await?;
    menu_shows(c, id, "running").await?;
    click(c, &format!("#menu-kill-{id}")).await?;
    menu_shows(c, id, "killed").await?;
    screenshot(c, shot).await;
    click(c, &format!("#menu-restart-{id}")).await?;
    menu_shows(c, id, "running").await?;
    c.find(Locator::Css("#node-menu-close"))
        .await?
        .send_keys(&Key::Escape.to_string())
        .await?;
    wait_gone(c, "#node-menu", "Escape").await?;
    click(c, &format!("#node-{id} .shape")).await?;
    menu_shows(c, id, "running").await?;
    click(c, &format!("#node-{id} .shape")).await?;
    wait_gone(c, "#node-menu", "a second click").await?;
    let (new_leader, _) = leader_of(&nodes(c).await?).ok_or("no leader after the node menu")?;
    if new_leader != leader {
        return Err(format!("the leader moved from {leader} to {new_leader}").into());
    }
    no_errors(c).await
}

/// The virtual time the page shows, in ms.
pub(super) async fn virtual_time_ms(c: &Client) -> Result<u64> {
    let ms = c
        .find(Locator::Css("#virtual-time"))
        .await?
        .attr("data-ms")
        .await?
        .unwrap_or_default();
    ms.parse()
        .map_err(|_| format!("#virtual-time has data-ms `{ms}`").into())
}

/// Plays until virtual time reaches `ms`, then pauses.
pub(super) async fn play_until(c: &Client, ms: u64) -> Result<()> {
    set_playing(c, true).await?;
    let reached = wait_until(&format!("virtual time {ms} ms"), || async {
        Ok((virtual_time_ms(c).await? >= ms).then_some(()))
    })
    .await;
    set_playing(c, false).await?;
    reached
}

/// `window.kraft`: a bare address gets a fresh seed, written into the address and shown in the
/// header, and `kraft.shown()` says it; `kraft.view()` gives the engine's view as a plain
/// object (its leader is the node the drawing marks Leader, messages carry their API and typed
/// fields); the API cannot be overwritten.
pub(super) async fn kraft_api(c: &Client, url: &str) -> Result<()> {
    c.goto(url).await?;
    c.execute("localStorage.removeItem('kraft-session');", vec![])
        .await?;
    c.goto(url).await?;
    wait_loaded(c, "a bare address").await?;
    let search = location_search(c).await?;
    let seed = search
        .trim_start_matches('?')
        .split('&')
        .find_map(|p| p.strip_prefix("seed="))
        .ok_or_else(|| format!("a bare address got no fresh seed= in its address: `{search}`"))?
        .to_string();
    let header = text_of(c, ".seed").await?;
    if header != format!("seed {seed}") {
        return Err(format!("the header says `{header}`, the address seed={seed}").into());
    }
    let shown = c.execute("return window.kraft.shown();", vec![]).await?;
    if shown["seed"].as_str() != Some(seed.as_str()) || !shown["lesson"].is_null() {
        return Err(format!("kraft.shown() is {shown} for seed {seed} in free play").into());
    }
    // A cluster with a leader, built from an address that replays `run until=leader`.
    c.goto(&format!("{url}?seed=42&cmds=run%20until%3Dleader"))
        .await?;
    wait_loaded(c, "seed 42 with a leader").await?;
    let view = c.execute("return window.kraft.view();", vec![]).await?;
    let leaders: Vec<i64> = view["nodes"]
        .as_array()
        .ok_or("kraft.view() has no nodes")?
        .iter()
        .filter(|n| n["raft_state"] == "Leader" && n["process"] == "running")
        .filter_map(|n| n["id"].as_i64())
        .collect();
    let drawn = c
        .find(Locator::Css("#cluster [data-role='Leader']"))
        .await?
        .attr("data-node-id")
        .await?
        .unwrap_or_default();
    if leaders.len() != 1 || drawn != leaders[0].to_string() {
        return Err(format!("kraft.view()'s leaders {leaders:?}, the drawing's {drawn}").into());
    }
    if view["seed"] != "42" {
        return Err(format!("kraft.view().seed is {}", view["seed"]).into());
    }
    let seq = view["sequence"]["messages"]
        .as_array()
        .ok_or("kraft.view() has no sequence messages")?;
    let typed = seq.iter().any(|m| {
        m["kind"]["api"] == "Vote"
            && m["kind"]["direction"] == "Request"
            && m["fields"]["epoch"].as_i64().is_some()
    });
    if !typed {
        return Err("no Vote request with a typed epoch in kraft.view().sequence".into());
    }
    let kept = c
        .execute(
            "window.kraft.view = null; try { kraft.shown = 1; } catch (e) {} \
             return typeof window.kraft.view === 'function' && typeof kraft.shown === 'function';",
            vec![],
        )
        .await?;
    if kept != Value::Bool(true) {
        return Err("window.kraft could be overwritten".into());
    }
    no_errors(c).await?;
    // Leave free play as the checks before found it: a bare address, a fresh world.
    c.execute("localStorage.removeItem('kraft-session');", vec![])
        .await?;
    c.goto(url).await?;
    wait_loaded(c, "a bare address again").await
}
