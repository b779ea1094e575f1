//! Addresses: `cmds=` replays to the same world, a bare address restores the kept session, and
//! bad `step=`/`cmds=` values show an error.

use std::path::Path;

use fantoccini::{Client, Locator};

use super::console::type_command;
use super::driver::{
    click, location_search, no_errors, screenshot, text_of, wait_loaded, wait_until,
};
use super::free_play::{events_run, leader_of, nodes, play_until, virtual_time_ms};
use super::lessons::wait_for_step;
use crate::Result;

/// What a replay must reproduce: each node's (id, role, epoch, process), virtual time, events.
#[derive(Debug, PartialEq)]
pub(super) struct WorldSeen {
    nodes: Vec<(i32, String, i32, String)>,
    now_ms: u64,
    events: u64,
}

/// The nodes (id, role, epoch, process), virtual time and events run the page shows.
pub(super) async fn world_seen(c: &Client) -> Result<WorldSeen> {
    let mut nodes: Vec<(i32, String, i32, String)> = nodes(c)
        .await?
        .into_iter()
        .map(|n| (n.id, n.role, n.epoch, n.process))
        .collect();
    nodes.sort();
    Ok(WorldSeen {
        nodes,
        now_ms: virtual_time_ms(c).await?,
        events: events_run(c).await?,
    })
}

/// Free play with frames of the play timer, typed commands and a kill button; the address then
/// holds `cmds=`, and a reload replays it to the same leader, epoch, time and event count.
/// Gives what the world looked like.
pub(super) async fn url_replays_commands(c: &Client, url: &str) -> Result<WorldSeen> {
    c.goto(&format!("{url}?seed=42")).await?;
    wait_loaded(c, "free play").await?;
    play_until(c, 1500).await?;
    type_command(c, "run until=leader").await?;
    let (old_id, old_epoch) =
        leader_of(&nodes(c).await?).ok_or("no leader after run until=leader")?;
    click(c, &format!("#btn-kill-{old_id}")).await?;
    type_command(c, "run 4s").await?;
    let before = world_seen(c).await?;
    let (new_id, new_epoch) = leader_of(&nodes(c).await?).ok_or("no leader after run 4s")?;
    if new_id == old_id || new_epoch <= old_epoch {
        return Err(format!("no failover: {old_id}@{old_epoch} then {new_id}@{new_epoch}").into());
    }
    // The address is written within SAVE_DELAY_MS of the last change.
    let kill = format!("kill%20-9%20{old_id}");
    let parts = [
        "seed=42",
        "%23play",
        "run%20until%3Dleader",
        &kill,
        "run%204s",
    ];
    let found = wait_until("the commands in the address", || async {
        let s = location_search(c).await?;
        Ok(parts.iter().all(|p| s.contains(p)).then_some(()))
    })
    .await;
    if found.is_err() {
        let search = location_search(c).await?;
        return Err(format!("the address `{search}` lacks one of {parts:?}").into());
    }
    c.refresh().await?;
    wait_loaded(c, "reload").await?;
    let after = wait_until("the replayed world", || async {
        let w = world_seen(c).await?;
        Ok((w.events > 0).then_some(w))
    })
    .await?;
    if after != before {
        return Err(format!("after reload {after:?}, before {before:?}").into());
    }
    let output = text_of(c, "#console-output").await?;
    if !output.contains("$ run 4s") {
        return Err(format!("the replayed commands are not in the scrollback: `{output}`").into());
    }
    no_errors(c).await?;
    Ok(before)
}

/// A bare address restores the session kept in localStorage; "Start fresh" forgets it.
pub(super) async fn bare_address_restores(
    c: &Client,
    url: &str,
    seen: &WorldSeen,
    shot: &Path,
) -> Result<()> {
    c.goto(url).await?;
    wait_loaded(c, "bare address").await?;
    c.find(Locator::Css("#restored"))
        .await
        .map_err(|e| format!("no #restored notice: {e}"))?;
    let now = world_seen(c).await?;
    if &now != seen {
        return Err(format!("restored {now:?}, kept {seen:?}").into());
    }
    screenshot(c, shot).await;
    click(c, "#btn-fresh").await?;
    wait_until("a fresh page", || async {
        let fresh = c
            .find_all(Locator::Css("#playground[data-ready='true']"))
            .await?;
        if fresh.is_empty() || !c.find_all(Locator::Css("#restored")).await?.is_empty() {
            return Ok(None);
        }
        Ok((virtual_time_ms(c).await? == 0).then_some(()))
    })
    .await?;
    no_errors(c).await
}

/// Bad `step=` and `cmds=` values give a visible error, never a panic; a good `step=` opens the
/// lesson at that step.
pub(super) async fn bad_url_values(c: &Client, url: &str) -> Result<()> {
    c.goto(&format!(
        "{url}?lesson=03-timeline&lang=en&step=abc&cmds=%ZZ"
    ))
    .await?;
    wait_loaded(c, "bad values").await?;
    let text = text_of(c, "#error")
        .await
        .map_err(|e| format!("no #error shown: {e}"))?;
    if !text.contains("?step=abc") || !text.contains("?cmds=") {
        return Err(format!("#error reads `{text}`").into());
    }
    no_errors(c).await?;
    c.goto(&format!("{url}?seed=42&cmds=%23frames%20lots"))
        .await?;
    wait_loaded(c, "bad frames").await?;
    let text = text_of(c, "#error")
        .await
        .map_err(|e| format!("no #error shown: {e}"))?;
    if !text.contains("#frames") {
        return Err(format!("#error reads `{text}`").into());
    }
    no_errors(c).await?;
    c.goto(&format!("{url}?lesson=03-timeline&lang=en&step=3"))
        .await?;
    wait_loaded(c, "step=3").await?;
    wait_for_step(c, 3).await?;
    no_errors(c).await
}
