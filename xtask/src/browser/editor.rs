//! The lesson editor (`#lesson-editor`): the parser's error inline with its line and column, the
//! text kept across a reload and an oversized text refused but kept, free play's session written
//! as a lesson (and the previous text one click away), the download link, and the lesson run.

use std::path::Path;

use fantoccini::key::Key;
use fantoccini::Client;
use serde_json::Value;

use super::driver::{click, no_errors, press, screenshot, wait_for, wait_until};
use super::stage::{restore_window, set_viewport};
use crate::Result;

/// The editor as shown: its text, whether it parses, the error, the run button, the download.
const READ_JS: &str = "
    const e = document.getElementById('lesson-editor');
    if (!e) return null;
    const t = document.getElementById('lesson-editor-text');
    const err = document.getElementById('lesson-editor-errors');
    const dl = document.getElementById('editor-download');
    const r = e.getBoundingClientRect();
    return { text: t.value, valid: e.dataset.valid, error: err ? err.textContent : null,
             run: !document.getElementById('editor-run').disabled,
             download: dl.getAttribute('download'), href: dl.getAttribute('href').slice(0, 40),
             fits: r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth };";

/// Types `text` into the editor (as the input event a keyboard gives).
async fn type_text(c: &Client, text: &str) -> Result<()> {
    c.execute(
        "const t = document.getElementById('lesson-editor-text'); t.value = arguments[0];
         t.dispatchEvent(new InputEvent('input', { bubbles: true }));",
        vec![Value::from(text)],
    )
    .await?;
    Ok(())
}

/// Reads the editor until `done` holds.
async fn editor_until(c: &Client, what: &str, done: impl Fn(&Value) -> bool) -> Result<Value> {
    wait_until(what, || async {
        let v = c.execute(READ_JS, vec![]).await?;
        Ok((!v.is_null() && done(&v)).then_some(v))
    })
    .await
}

/// Opens free play, runs `kill -9 1`, and walks the editor through a malformed lesson, a
/// reload, an oversized text, the session as a lesson, the download and the run.
pub(super) async fn lesson_editor(c: &Client, url: &str, artifacts: &Path) -> Result<()> {
    set_viewport(c, 1280, 720).await?;
    c.goto(&format!("{url}?seed=42")).await?;
    let input = wait_for(
        c,
        "#playground[data-mode='free'] #console-input",
        "free play did not load",
    )
    .await?;
    input
        .send_keys(&("kill -9 1".to_string() + &Key::Enter))
        .await?;
    click(c, "#btn-editor").await?;
    let bad = "cluster controllers=101 seed=1\n\n focus 101\n";
    type_text(c, bad).await?;
    let v = editor_until(c, "the parser's error", |v| v["error"].is_string()).await?;
    let error = v["error"].as_str().unwrap_or("");
    if !(error.contains("editor.lesson:3:1") && error.contains(" focus 101\n^"))
        || v["run"] != false
    {
        return Err(
            format!("the error does not point at line 3, column 1, or Run works: {v}").into(),
        );
    }
    screenshot(c, &artifacts.join("editor-error-1280.png")).await;
    c.refresh().await?;
    wait_for(c, "#btn-editor", "no #btn-editor after a reload").await?;
    click(c, "#btn-editor").await?;
    editor_until(c, "the text kept across a reload", |v| v["text"] == bad).await?;
    let huge = "#".repeat(210_000);
    type_text(c, &huge).await?;
    let v = editor_until(c, "the oversized text refused", |v| v["error"].is_string()).await?;
    if !v["error"]
        .as_str()
        .unwrap_or("")
        .contains("over the 195 KB")
        || v["run"] != false
    {
        return Err(format!("an oversized lesson is not refused: {:?}", v["error"]).into());
    }
    if v["text"].as_str().map(str::len) != Some(huge.len()) {
        return Err("the oversized text was not kept".into());
    }
    type_text(c, bad).await?;
    click(c, "#editor-session").await?;
    let v = editor_until(c, "the session as a lesson", |v| v["valid"] == "true").await?;
    let text = v["text"].as_str().unwrap_or("");
    if !(text.contains("#title: Session (seed 42)") && text.contains("\nkill -9 1\n")) {
        return Err(format!("the session's lesson lacks its commands: {text}").into());
    }
    if v["download"] != "session-seed-42.lesson"
        || !v["href"]
            .as_str()
            .unwrap_or("")
            .starts_with("data:text/plain")
        || v["fits"] != true
    {
        return Err(format!(
            "no download link for session-seed-42.lesson, or the editor overflows: {v}"
        )
        .into());
    }
    click(c, "#editor-back").await?;
    editor_until(c, "the previous text back", |v| v["text"] == bad).await?;
    click(c, "#editor-session").await?;
    editor_until(c, "the session again", |v| v["valid"] == "true").await?;
    screenshot(c, &artifacts.join("editor-1280.png")).await;
    set_viewport(c, 1920, 1080).await?;
    screenshot(c, &artifacts.join("editor-1920.png")).await;
    set_viewport(c, 1280, 720).await?;
    click(c, "#editor-run").await?;
    wait_for(
        c,
        "#lesson-panel[data-lesson='editor'][data-step='0']",
        "the editor's lesson did not open",
    )
    .await?;
    press(c, Key::Right).await?;
    press(c, Key::Right).await?;
    wait_for(
        c,
        "#lesson-panel[data-lesson='editor'][data-step='2']",
        "the editor's lesson did not run two steps",
    )
    .await?;
    restore_window(c).await?;
    no_errors(c).await
}
