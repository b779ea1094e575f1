//! The console: typing a command and reading what it printed.

use fantoccini::key::Key;
use fantoccini::{Client, Locator};

use super::driver::{no_errors, text_of, wait_for, wait_until};
use super::EXPECTED_NODES;
use crate::Result;

/// Free play: `status` typed into the console prints the status table.
pub(super) async fn console_status(c: &Client, url: &str) -> Result<()> {
    // With a query: a bare address restores the session the lessons before left behind.
    c.goto(&format!("{url}?seed=42")).await?;
    wait_for(c, "#playground[data-mode='free']", "free play did not load").await?;
    let input = c
        .find(Locator::Css("#console-input"))
        .await
        .map_err(|e| format!("no #console-input: {e}"))?;
    input
        .send_keys(&("status".to_string() + &Key::Enter))
        .await?;
    let text = wait_until("the status table in #console-output", || async {
        let t = text_of(c, "#console-output").await?;
        Ok(t.contains("node").then_some(t))
    })
    .await?;
    let header = [
        "node", "roles", "process", "state", "epoch", "leader", "voted", "LEO", "HW",
    ];
    let head_line = text
        .lines()
        .find(|l| l.trim_start().starts_with("node "))
        .ok_or_else(|| format!("no header line in `{text}`"))?;
    let words: Vec<&str> = head_line.split_whitespace().collect();
    if words != header {
        return Err(format!("status header is `{head_line}`").into());
    }
    if !text.contains("$ status") || !text.contains("seed 42") {
        return Err(format!("#console-output reads `{text}`").into());
    }
    for id in EXPECTED_NODES {
        if !text
            .lines()
            .any(|l| l.split_whitespace().next() == Some(&id.to_string()))
        {
            return Err(format!("no row for node {id} in `{text}`").into());
        }
    }
    let value = input.prop("value").await?.unwrap_or_default();
    if !value.is_empty() {
        return Err(format!("#console-input still holds `{value}` after Enter").into());
    }
    no_errors(c).await
}

/// Types `line` into the console and waits for its entry to show.
pub(super) async fn type_command(c: &Client, line: &str) -> Result<()> {
    let before = c
        .find_all(Locator::Css("#console-output .entry"))
        .await?
        .len();
    c.find(Locator::Css("#console-input"))
        .await
        .map_err(|e| format!("no #console-input: {e}"))?
        .send_keys(&(line.to_string() + &Key::Enter))
        .await?;
    wait_until(&format!("`{line}` in the scrollback"), || async {
        let n = c
            .find_all(Locator::Css("#console-output .entry"))
            .await?
            .len();
        Ok((n > before).then_some(()))
    })
    .await
}
