//! The rules panel (issue 18): the stage's *Rules* tab lists the eleven rule switches and the
//! invariants; in free play a switch runs `set rule.<name>=off|on` in the console.

use std::path::Path;

use fantoccini::{Client, Locator};

use super::driver::{click, no_errors, screenshot, wait_for, wait_until};
use super::stage::{open_at, restore_window, set_viewport};
use crate::Result;

/// Reads the panel: each rule's (name, on) and each invariant's (name, holds).
const READ_JS: &str = "
    const p = document.getElementById('rules-panel');
    if (!p) return null;
    return {
        rules: Array.from(p.querySelectorAll('[data-rule]')).map(e =>
            [e.dataset.rule, e.classList.contains('on'), e.querySelector('button').disabled]),
        invariants: Array.from(p.querySelectorAll('[data-invariant]')).map(e =>
            [e.dataset.invariant, e.dataset.holds]),
        bottom: p.getBoundingClientRect().bottom, height: innerHeight,
    };";

/// Free play on the stage at 1280×720: the Rules tab shows eleven switches, all on, and the
/// invariants, all holding; a click on session-fencing turns it off through the console (the
/// switch reads OFF) and a second click turns it back on.
pub(super) async fn free_play_rules(c: &Client, url: &str, artifacts: &Path) -> Result<()> {
    set_viewport(c, 1280, 720).await?;
    c.goto(&format!("{url}?seed=5&present=1")).await?;
    wait_for(
        c,
        "#playground[data-layout='stage'] #tab-rules",
        "no Rules tab on the stage",
    )
    .await?;
    click(c, "#tab-rules").await?;
    let v = wait_until("#rules-panel", || async {
        let v = c.execute(READ_JS, vec![]).await?;
        Ok((!v.is_null()).then_some(v))
    })
    .await?;
    let rules = v["rules"].as_array().cloned().unwrap_or_default();
    if rules.len() != 11
        || rules
            .iter()
            .any(|r| r[1] != true || (r[2] == true && r[0] != "loader-catch-up"))
    {
        return Err(
            format!("the rules are not eleven switches, all on and usable: {rules:?}").into(),
        );
    }
    let invariants = v["invariants"].as_array().cloned().unwrap_or_default();
    if invariants.len() < 10 || invariants.iter().any(|i| i[1] != "true") {
        return Err(
            format!("the invariants are not all listed and holding: {invariants:?}").into(),
        );
    }
    click(c, "[data-rule='session-fencing'] button").await?;
    wait_until("session-fencing switched off", || async {
        let off = c
            .find_all(Locator::Css("[data-rule='session-fencing'].off"))
            .await?;
        Ok((!off.is_empty()).then_some(()))
    })
    .await?;
    screenshot(c, &artifacts.join("rules-1280.png")).await;
    click(c, "[data-rule='session-fencing'] button").await?;
    wait_until("session-fencing back on", || async {
        let on = c
            .find_all(Locator::Css("[data-rule='session-fencing'].on"))
            .await?;
        Ok((!on.is_empty()).then_some(()))
    })
    .await?;
    set_viewport(c, 1920, 1080).await?;
    screenshot(c, &artifacts.join("rules-1920.png")).await;
    restore_window(c).await?;
    no_errors(c).await
}

/// Lesson 07's last step (`show rules`, then `invariants` with session-fencing off): the Rules
/// tab is shown by the step itself, SessionExpiredBrokerFenced is red with its event, time and
/// nodes [100, 1], the switch reads OFF and cannot be clicked (a lesson sets its own rules), and
/// the red row lies inside the 1280×720 window; screenshots at 1280×720 and 1920×1080.
pub(super) async fn lesson_broken_invariant(c: &Client, url: &str, artifacts: &Path) -> Result<()> {
    const LESSON: &str = "lesson=07-rule-session-fencing&lang=en&play=0";
    set_viewport(c, 1280, 720).await?;
    open_at(c, url, LESSON, 0).await?;
    let last = c
        .execute(
            "return document.querySelectorAll('#lesson-steps [data-step]').length;",
            vec![],
        )
        .await?
        .as_u64()
        .ok_or("lesson 07 lists no steps")? as usize;
    open_at(c, url, &format!("{LESSON}&step={last}"), last).await?;
    let v = wait_until("the broken invariant in the Rules panel", || async {
        let v = c.execute(BROKEN_JS, vec![]).await?;
        Ok((!v.is_null()).then_some(v))
    })
    .await?;
    let text = v["text"].as_str().unwrap_or_default();
    if !(text.contains("event ") && text.contains(" ms") && text.contains("[100, 1]")) {
        return Err(format!("the red row does not give event, time and nodes: {v}").into());
    }
    if v["fencingOff"] != true || v["switchDisabled"] != true {
        return Err(format!("session-fencing is not shown off and read-only: {v}").into());
    }
    if v["broken"] != "1" {
        return Err(format!("the panel counts other broken invariants: {v}").into());
    }
    let (top, bottom) = (v["top"].as_f64(), v["bottom"].as_f64());
    if !matches!((top, bottom), (Some(t), Some(b)) if t >= 0.0 && b <= 720.0) {
        return Err(format!("the red row is outside the 1280x720 window: {v}").into());
    }
    screenshot(c, &artifacts.join("rules-broken-1280.png")).await;
    set_viewport(c, 1920, 1080).await?;
    screenshot(c, &artifacts.join("rules-broken-1920.png")).await;
    restore_window(c).await?;
    no_errors(c).await
}

/// The Rules panel's red SessionExpiredBrokerFenced row, if the panel is on screen with it.
const BROKEN_JS: &str = "
    const p = document.getElementById('rules-panel');
    const row = p && p.querySelector(\"[data-invariant='SessionExpiredBrokerFenced'][data-holds='false']\");
    if (!row || row.offsetParent === null) return null;
    const r = row.getBoundingClientRect();
    const sw = p.querySelector(\"[data-rule='session-fencing']\");
    return { text: row.textContent, top: r.top, bottom: r.bottom, broken: p.dataset.broken,
             fencingOff: !!sw && sw.classList.contains('off'),
             switchDisabled: !!sw && sw.querySelector('button').disabled };";
