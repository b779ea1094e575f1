//! The drawing: timer arcs, and messages moving along their links (labels, steady links,
//! failures).

use std::path::Path;

use fantoccini::Client;
use serde_json::{json, Value};

use super::console::type_command;
use super::driver::{click, no_errors, screenshot, wait_loaded, wait_until};
use super::free_play::{leader_of, nodes, set_speed};
use crate::Result;

/// A timer arc around every running node: check-quorum on the leader, fetch on the followers,
/// each with no more left than its duration.
pub(super) async fn timer_arcs(c: &Client, leader_id: i32) -> Result<()> {
    let v = c
        .execute(
            "return Array.from(document.querySelectorAll('#timers .timer[data-timer-node]')).map(t => ({
                node: t.dataset.timerNode, kind: t.dataset.kind, left: t.dataset.remainingMs,
                total: t.dataset.durationMs, arc: !!t.querySelector('.timer-arc') }));",
            vec![],
        )
        .await?;
    let arcs = v.as_array().ok_or("no timer list")?;
    let running: Vec<i32> = nodes(c)
        .await?
        .iter()
        .filter(|n| n.process == "running")
        .map(|n| n.id)
        .collect();
    if arcs.len() != running.len() {
        return Err(format!(
            "{} timer arcs for {} running nodes: {v}",
            arcs.len(),
            running.len()
        )
        .into());
    }
    for a in arcs {
        let s = |k: &str| a.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let want = if s("node") == leader_id.to_string() {
            "check-quorum"
        } else {
            "fetch"
        };
        let (left, total): (u64, u64) = (
            s("left").parse().map_err(|_| format!("bad timer {a}"))?,
            s("total").parse().map_err(|_| format!("bad timer {a}"))?,
        );
        if s("kind") != want || left > total || total == 0 || a.get("arc") != Some(&json!(true)) {
            return Err(format!("timer {a}: wanted a {want} arc with left <= total").into());
        }
    }
    // Outside each broker's fetch arc, its session on the active controller: of
    // broker.session.timeout.ms, with the time since the heartbeat the broker panel shows.
    let v = c
        .execute(
            "const panel = id => document.querySelector(`#broker-panel [data-broker-id='${id}'] [role=meter]`);
             return Array.from(document.querySelectorAll('#timers .timer-session')).map(t => ({
                node: t.dataset.sessionNode, left: Number(t.dataset.remainingMs),
                total: Number(t.dataset.durationMs),
                since: panel(t.dataset.sessionNode) ? Number(panel(t.dataset.sessionNode).getAttribute('aria-valuenow')) : -1 }));",
            vec![],
        )
        .await?;
    let sessions = v.as_array().ok_or("no session list")?;
    let mut ids: Vec<&str> = sessions.iter().filter_map(|a| a["node"].as_str()).collect();
    ids.sort();
    if ids != ["1", "2", "3"] {
        return Err(format!("session arcs around {ids:?}, wanted brokers 1, 2, 3: {v}").into());
    }
    for a in sessions {
        let (left, total, since) = (a["left"].as_u64(), a["total"].as_u64(), a["since"].as_u64());
        if total != Some(9000) || left.zip(since).map(|(l, s)| l + s) != Some(9000) {
            return Err(format!("session arc {a}: wanted left + since = 9000 ms").into());
        }
    }
    no_errors(c).await
}

/// The label the diagram puts on a message kind (the rule of the page's `message_label`).
/// The label a message of `kind` carries: a request by its API (`PreVote`, `heartbeat`), a
/// response with `resp`, a failed request with ✕ (the page's `message_label`).
pub(super) fn expected_label(kind: &str) -> String {
    let (base, dir) = [
        ("Request", "req"),
        ("Response", "resp"),
        ("Failed", "failed"),
    ]
    .iter()
    .find_map(|(suffix, dir)| kind.strip_suffix(suffix).map(|b| (b, *dir)))
    .unwrap_or((kind, ""));
    let base = if base == "BrokerHeartbeat" {
        "heartbeat"
    } else {
        base
    };
    match dir {
        "resp" => format!("{base} resp"),
        "failed" => format!("{base} ✕"),
        _ => base.to_string(),
    }
}

/// Reads every drawn message: id, kind, state, progress, label, drop mark, track and dot.
pub(super) const MESSAGES_JS: &str = "
    const read = (sel) => Array.from(document.querySelectorAll(sel)).map(g => {
        const t = g.querySelector('.track'), d = g.querySelector('.dot'), l = g.querySelector('.msg-label');
        return { id: g.dataset.messageId, kind: g.dataset.kind, state: g.dataset.state,
                 progress: Number(g.dataset.progress), label: l ? l.textContent : '',
                 drop: !!g.querySelector('.drop-mark'),
                 x1: Number(t.getAttribute('x1')), y1: Number(t.getAttribute('y1')),
                 x2: Number(t.getAttribute('x2')), y2: Number(t.getAttribute('y2')),
                 cx: Number(d.getAttribute('cx')), cy: Number(d.getAttribute('cy')) };
    });
    return read('#messages .message');";

/// Every message drawn: (id, kind, state, progress, label, drop mark, on its track).
pub(super) async fn messages_seen(c: &Client) -> Result<Vec<Value>> {
    Ok(c.execute(MESSAGES_JS, vec![])
        .await?
        .as_array()
        .cloned()
        .unwrap_or_default())
}

/// `Err` unless the message carries its kind's label or none, and its dot sits on its track.
pub(super) fn check_message(m: &Value) -> Result<()> {
    let s = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let n = |k: &str| m.get(k).and_then(Value::as_f64).unwrap_or(f64::NAN);
    // At most one label per link: a message carries its kind's label or none.
    if !s("label").is_empty() && s("label") != expected_label(&s("kind")) {
        return Err(format!("message {m} is labelled `{}`", s("label")).into());
    }
    let p = n("progress");
    let (x, y) = (
        n("x1") + (n("x2") - n("x1")) * p,
        n("y1") + (n("y2") - n("y1")) * p,
    );
    if !(0.0..=1.0).contains(&p) || (x - n("cx")).abs() > 0.2 || (y - n("cy")).abs() > 0.2 {
        return Err(format!("message {m} is not on its link at progress {p}").into());
    }
    match s("state").as_str() {
        "delivered" if p != 1.0 => Err(format!("delivered message {m} is not at its end").into()),
        "dropped" | "failed" if m.get("drop") != Some(&json!(true)) => {
            Err(format!("dropped or failed message {m} has no ✕").into())
        }
        "failed" if p != 1.0 => {
            Err(format!("failed request {m} is not at the node that did not answer").into())
        }
        "in-flight" | "delivered" | "dropped" | "failed" => Ok(()),
        other => Err(format!("message {m} has state `{other}`").into()),
    }
}

/// The steady links drawn for fetch and heartbeat chatter: (from, to, link class, failed).
pub(super) async fn links_seen(c: &Client) -> Result<Vec<(String, String, String, bool)>> {
    let v = c
        .execute(
            "return Array.from(document.querySelectorAll('#links .link')).map(l =>
                 [l.dataset.from, l.dataset.to, l.dataset.link, l.classList.contains('failed')]);",
            vec![],
        )
        .await?;
    Ok(v.as_array()
        .into_iter()
        .flatten()
        .map(|l| {
            (
                l[0].as_str().unwrap_or("").to_string(),
                l[1].as_str().unwrap_or("").to_string(),
                l[2].as_str().unwrap_or("").to_string(),
                l[3].as_bool().unwrap_or(false),
            )
        })
        .collect())
}

/// Messages move along their links with their kind labels: one stepped event at a time a
/// message is caught in flight on its track, then shown delivered at the receiver; while
/// playing slowly PreVote/Vote, BeginQuorumEpoch, Fetch and heartbeat all show up; a drop rule
/// gives messages marked dropped.
pub(super) async fn messages_in_flight(c: &Client, url: &str, shot: &Path) -> Result<()> {
    c.goto(&format!("{url}?seed=42")).await?;
    wait_loaded(c, "free play").await?;
    one_message_delivered(c).await?;
    kinds_and_links_drawn(c).await?;
    fetch_labels_and_one_label_per_link(c).await?;
    failures_drawn(c).await?;
    screenshot(c, shot).await;
    no_errors(c).await
}

/// With Fetch drawn as messages (the legend's toggle), one event at a time: a message caught in
/// flight is drawn on its track, then delivered at the receiver.
async fn one_message_delivered(c: &Client) -> Result<()> {
    // Fetches as messages (the legend's toggle) for the first part: every event moves one.
    click(c, "#legend button[data-kind='Fetch']").await?;
    let mut caught = None;
    for _ in 0..200 {
        click(c, "#btn-step").await?;
        let seen = messages_seen(c).await?;
        if let Some(m) = seen
            .iter()
            .find(|m| m.get("state") == Some(&json!("in-flight")))
        {
            caught = Some(m.clone());
            break;
        }
    }
    let caught = caught.ok_or("200 single events and no message in flight")?;
    check_message(&caught)?;
    let id = caught
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    // One event at a time until it arrives: then it is drawn delivered at the receiver.
    let mut delivered = None;
    for _ in 0..200 {
        click(c, "#btn-step").await?;
        let seen = messages_seen(c).await?;
        let mine: Vec<&Value> = seen
            .iter()
            .filter(|m| m.get("id") == Some(&json!(id)))
            .collect();
        if let Some(m) = mine
            .iter()
            .find(|m| m.get("state") != Some(&json!("in-flight")))
        {
            delivered = Some((*m).clone());
            break;
        }
        if mine.is_empty() {
            return Err(format!("message {id} vanished without being shown delivered").into());
        }
    }
    let delivered = delivered.ok_or_else(|| format!("message {id} was never delivered"))?;
    if delivered.get("state") != Some(&json!("delivered")) {
        return Err(format!("message {id} ended as {delivered}").into());
    }
    check_message(&delivered)?;
    click(c, "#legend button[data-kind='Fetch']").await?;
    Ok(())
}

/// At 25 ms a frame: Vote and BeginQuorumEpoch messages, fetch and heartbeat links drawn; Fetch
/// is not drawn as a message while its labels are off.
async fn kinds_and_links_drawn(c: &Client) -> Result<()> {
    set_speed(c, "25").await?;
    let mut kinds = std::collections::BTreeSet::new();
    let mut links = std::collections::BTreeSet::new();
    let wanted = ["Vote", "BeginQuorumEpoch"];
    let wanted_links = ["link-fetch", "link-heartbeat"];
    for _ in 0..400 {
        for m in messages_seen(c).await? {
            check_message(&m)?;
            let kind = m.get("kind").and_then(Value::as_str).unwrap_or("");
            let base = ["Request", "Response", "Failed"]
                .iter()
                .find_map(|s| kind.strip_suffix(s))
                .unwrap_or(kind);
            kinds.insert(if base == "PreVote" {
                "Vote".to_string()
            } else {
                base.to_string()
            });
        }
        for (_, _, class, _) in links_seen(c).await? {
            links.insert(class);
        }
        if wanted.iter().all(|k| kinds.contains(*k))
            && wanted_links.iter().all(|k| links.contains(*k))
        {
            break;
        }
        click(c, "#btn-step-tick").await?;
    }
    if let Some(missing) = wanted.iter().find(|k| !kinds.contains(**k)) {
        return Err(format!("no `{missing}` message drawn; saw {kinds:?}").into());
    }
    if let Some(missing) = wanted_links.iter().find(|k| !links.contains(**k)) {
        return Err(format!("no `{missing}` link drawn; saw {links:?}").into());
    }
    // Fetch and heartbeats are links, not labelled messages; the legend turns Fetch labels on.
    if messages_seen(c).await?.iter().any(|m| {
        m.get("kind")
            .and_then(Value::as_str)
            .is_some_and(|k| k.starts_with("Fetch") && !k.starts_with("FetchSnapshot"))
    }) {
        return Err("a Fetch is drawn as a message while its labels are off".into());
    }
    Ok(())
}

/// The legend turns Fetch labels on; at most one label per link.
async fn fetch_labels_and_one_label_per_link(c: &Client) -> Result<()> {
    click(c, "#legend button[data-kind='Fetch']").await?;
    let fetch = wait_until(
        "Fetch drawn as labelled messages once the legend turns them on",
        || async {
            click(c, "#btn-step-tick").await?;
            Ok(messages_seen(c).await?.into_iter().find(|m| {
                m.get("kind")
                    .and_then(Value::as_str)
                    .is_some_and(|k| k == "FetchRequest" || k == "FetchResponse")
                    && m.get("label")
                        .and_then(Value::as_str)
                        .is_some_and(|l| !l.is_empty())
            }))
        },
    )
    .await?;
    check_message(&fetch)?;
    click(c, "#legend button[data-kind='Fetch']").await?;
    // At most one label per link, none over a node: every label sits between its link's ends.
    let per_link = c
        .execute(
            "const seen = {}; let worst = null;
             for (const g of document.querySelectorAll('#messages .message')) {
                 if (!g.querySelector('.msg-label')) continue;
                 const k = [g.dataset.drawnFrom, g.dataset.drawnTo].sort().join('-');
                 seen[k] = (seen[k] || 0) + 1;
                 if (seen[k] > 1) worst = k;
             }
             return worst;",
            vec![],
        )
        .await?;
    if !per_link.is_null() {
        return Err(format!("the link {per_link} carries more than one label").into());
    }
    Ok(())
}

/// A dropped answer fails the follower's fetch link; a request to the killed leader is drawn
/// failing at it.
async fn failures_drawn(c: &Client) -> Result<()> {
    let (leader, _) = leader_of(&nodes(c).await?).ok_or("no leader")?;
    let follower = [101, 102, 103]
        .into_iter()
        .find(|&i| i != leader)
        .unwrap_or(101);
    type_command(c, &format!("drop from={leader} to={follower}")).await?;
    // The follower's fetches get no answer: its link is drawn failing.
    wait_until("the follower's fetch link drawn failing", || async {
        click(c, "#btn-step").await?;
        Ok(links_seen(c)
            .await?
            .into_iter()
            .find(|(from, to, class, failed)| {
                *failed
                    && class == "link-fetch"
                    && *from == follower.to_string()
                    && *to == leader.to_string()
            }))
    })
    .await?;
    // A killed node's requests fail: drawn as the request with ✕ at the node that did not answer.
    click(c, &format!("#btn-kill-{leader}")).await?;
    let failed = wait_until(
        "a request to the killed leader drawn failing at it",
        || async {
            click(c, "#btn-step-tick").await?;
            Ok(messages_seen(c)
                .await?
                .into_iter()
                .find(|m| m.get("state") == Some(&json!("failed"))))
        },
    )
    .await?;
    check_message(&failed)?;
    let drawn_to = failed.get("id").and_then(|_| failed.get("kind")).cloned();
    let to_leader = c
        .execute(
            "const g = document.querySelector('#messages .message[data-state=\"failed\"]');
             return g ? g.dataset.drawnTo : null;",
            vec![],
        )
        .await?;
    if to_leader.as_str() != Some(&leader.to_string()) {
        return Err(format!(
            "a failed {drawn_to:?} is drawn towards {to_leader}, not the killed {leader}"
        )
        .into());
    }
    Ok(())
}
