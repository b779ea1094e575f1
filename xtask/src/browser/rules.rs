//! The rules panel (issue 18): the stage's *Rules* tab lists the nine rule switches and the
//! invariants; in free play a switch runs `set rule.<name>=off|on` in the console.

use std::path::Path;

use fantoccini::{Client, Locator};

use super::driver::{click, no_errors, screenshot, wait_until};
use super::stage::{restore_window, set_viewport};
use super::WAIT_LIMIT;
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

/// Free play on the stage at 1280×720: the Rules tab shows nine switches, all on, and the
/// invariants, all holding; a click on session-fencing turns it off through the console (the
/// switch reads OFF) and a second click turns it back on.
pub(super) async fn free_play_rules(c: &Client, url: &str, artifacts: &Path) -> Result<()> {
    set_viewport(c, 1280, 720).await?;
    c.goto(&format!("{url}?seed=5&present=1")).await?;
    c.wait()
        .at_most(WAIT_LIMIT)
        .for_element(Locator::Css("#playground[data-layout='stage'] #tab-rules"))
        .await
        .map_err(|e| format!("no Rules tab on the stage: {e}"))?;
    click(c, "#tab-rules").await?;
    let v = wait_until("#rules-panel", || async {
        let v = c.execute(READ_JS, vec![]).await?;
        Ok((!v.is_null()).then_some(v))
    })
    .await?;
    let rules = v["rules"].as_array().cloned().unwrap_or_default();
    if rules.len() != 9
        || rules
            .iter()
            .any(|r| r[1] != true || (r[2] == true && r[0] != "loader-catch-up"))
    {
        return Err(
            format!("the rules are not nine switches, all on and usable: {rules:?}").into(),
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
