//! The lecturer's toolkit in the page (issue 19): the presenter view (a speaker window and an
//! audience window paired over a BroadcastChannel, keys in either driving both, notes only in
//! the speaker's), the embedded stage (`?embed=1`, chromeless, in an iframe; a broken address
//! shows its error in the frame) and the QR code of the share address.

use std::path::Path;
use std::time::Duration;

use fantoccini::key::Key;
use fantoccini::wd::WindowHandle;
use fantoccini::{Client, Locator};
use serde_json::Value;

use super::chrome::theme_of;
use super::driver::{
    click, no_errors, press, screenshot, text_of, wait_gone, wait_loaded, wait_until,
};
use super::stage::{open_at, restore_window, set_viewport};
use crate::Result;

/// The lesson the presenter checks step through, in English, waits jumping to their end.
const LESSON: &str = "lesson=02-election&lang=en&play=0";
/// The link id the checks pair their windows with.
const LINK: &str = "check19";

/// Runs `js` and gives its result.
async fn js(c: &Client, js: &str) -> Result<Value> {
    Ok(c.execute(js, vec![]).await?)
}

/// Waits until the window shows lesson step `step`.
async fn wait_step(c: &Client, step: usize, which: &str) -> Result<()> {
    let css = format!("#lesson-panel[data-step='{step}']");
    wait_until(&format!("the {which} window at step {step}"), || async {
        Ok((!c.find_all(Locator::Css(&css)).await?.is_empty()).then_some(()))
    })
    .await
}

/// The audience window of the pair: the one window that is not `speaker`, opened by the
/// speaker window itself or by its button.
async fn audience_window(c: &Client, speaker: &WindowHandle) -> Result<WindowHandle> {
    let others = |all: Vec<WindowHandle>| all.into_iter().find(|h| h != speaker);
    tokio::time::sleep(Duration::from_millis(500)).await;
    if others(c.windows().await?).is_none() {
        click(c, "#open-audience").await?;
    }
    wait_until("the audience window to open", || async {
        Ok(others(c.windows().await?))
    })
    .await
}

/// `?presenter=1` opens the speaker's window and its audience window; they pair; a key in
/// either moves both; the notes are in the speaker's window only. Leaves `presenter-speaker-*.png`
/// (both sizes, the light theme at 1280) and `presenter-audience.png`.
pub(super) async fn presenter_pairing(c: &Client, url: &str, artifacts: &Path) -> Result<()> {
    set_viewport(c, 1280, 720).await?;
    let speaker = c.window().await?;
    open_at(c, url, &format!("{LESSON}&presenter=1&link={LINK}"), 0).await?;
    for css in [
        "#speaker",
        "#speaker-notes",
        "#next-step",
        "#elapsed",
        "#presenter-link",
    ] {
        c.find(Locator::Css(css))
            .await
            .map_err(|e| format!("the speaker window has no {css}: {e}"))?;
    }
    let audience = audience_window(c, &speaker).await?;
    let result = paired(c, &speaker, &audience, artifacts).await;
    // Close the audience window and give the other checks the speaker's (main) window back.
    if c.switch_to_window(audience).await.is_ok() {
        let _ = c.close_window().await;
    }
    c.switch_to_window(speaker).await?;
    restore_window(c).await?;
    result
}

/// The pair at work: the audience follows the speaker's keys and the speaker the audience's.
async fn paired(
    c: &Client,
    speaker: &WindowHandle,
    audience: &WindowHandle,
    artifacts: &Path,
) -> Result<()> {
    c.switch_to_window(audience.clone()).await?;
    wait_loaded(c, "the audience window").await?;
    set_viewport(c, 1280, 720).await?;
    let role = js(
        c,
        "return document.getElementById('playground').dataset.presenter || '';",
    )
    .await?;
    if role != "audience" {
        return Err(format!("the second window is `{role}`, not the audience's").into());
    }
    c.switch_to_window(speaker.clone()).await?;
    wait_until("the speaker to see the audience window", || async {
        Ok((text_of(c, "#presenter-link").await.is_ok()
            && !c
                .find_all(Locator::Css("#presenter-link[data-peer='connected']"))
                .await?
                .is_empty())
        .then_some(()))
    })
    .await?;
    // Three steps in the speaker's window: the audience follows.
    for _ in 0..3 {
        press(c, Key::Right).await?;
    }
    wait_step(c, 3, "speaker").await?;
    let notes = notes_at(c, 1).await?;
    c.switch_to_window(audience.clone()).await?;
    wait_step(c, 3, "audience").await?;
    audience_has_no_notes(c, &notes).await?;
    screenshot(c, &artifacts.join("presenter-audience.png")).await;
    // A key in the audience window: the speaker follows.
    press(c, Key::Right).await?;
    wait_step(c, 4, "audience").await?;
    c.switch_to_window(speaker.clone()).await?;
    wait_step(c, 4, "speaker").await?;
    // Back twice (a replay from the start in both windows) to step 2, which has a note.
    press(c, Key::Left).await?;
    press(c, Key::Left).await?;
    wait_step(c, 2, "speaker").await?;
    c.switch_to_window(audience.clone()).await?;
    wait_step(c, 2, "audience").await?;
    no_errors(c).await?;
    c.switch_to_window(speaker.clone()).await?;
    speaker_screenshots(c, artifacts).await?;
    no_errors(c).await
}

/// Goes back to step 1 (both windows follow) and gives the notes the speaker window shows there
/// (lesson 02's first step has notes).
async fn notes_at(c: &Client, step: usize) -> Result<Vec<String>> {
    press(c, Key::Home).await?;
    wait_step(c, 0, "speaker").await?;
    for _ in 0..step {
        press(c, Key::Right).await?;
    }
    wait_step(c, step, "speaker").await?;
    let v = js(
        c,
        "return Array.from(document.querySelectorAll('#speaker-notes .note')).map(p => p.textContent);",
    )
    .await?;
    let notes: Vec<String> = v
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|n| n.as_str().map(str::to_string))
        .collect();
    if notes.is_empty() {
        return Err("the speaker window shows no notes at lesson 02's first step".into());
    }
    let next = text_of(c, "#next-step").await?;
    if !next.contains("run until=leader") {
        return Err(format!("the next step's preview is `{next}`, not step 2's command").into());
    }
    for _ in step..3 {
        press(c, Key::Right).await?;
    }
    wait_step(c, 3, "speaker").await?;
    Ok(notes)
}

/// The audience window shows the stage only: no header, no speaker panel, none of `notes`.
async fn audience_has_no_notes(c: &Client, notes: &[String]) -> Result<()> {
    for css in ["#speaker", "#speaker-notes", "header.top", "#next-step"] {
        if !c.find_all(Locator::Css(css)).await?.is_empty() {
            return Err(format!("the audience window has {css}").into());
        }
    }
    for css in ["#stage-drawing", "#lesson-narration"] {
        c.find(Locator::Css(css))
            .await
            .map_err(|e| format!("the audience window has no {css}: {e}"))?;
    }
    let text = js(c, "return document.body.innerText;").await?;
    let text = text.as_str().unwrap_or_default();
    if let Some(n) = notes.iter().find(|n| text.contains(n.as_str())) {
        return Err(format!("the audience window shows the note `{n}`").into());
    }
    Ok(())
}

/// The speaker window at both sizes, and in the other theme at 1280×720; no page scroll.
async fn speaker_screenshots(c: &Client, artifacts: &Path) -> Result<()> {
    for (w, h) in [(1280, 720), (1920, 1080)] {
        set_viewport(c, w, h).await?;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let scroll = js(
            c,
            "return document.documentElement.scrollHeight - innerHeight;",
        )
        .await?;
        if scroll.as_i64().unwrap_or(0) > 0 {
            return Err(format!("the speaker window scrolls at {w}x{h}: {scroll} px").into());
        }
        screenshot(c, &artifacts.join(format!("presenter-speaker-{w}.png"))).await;
    }
    set_viewport(c, 1280, 720).await?;
    let (first, _) = theme_of(c).await?;
    click(c, "#btn-theme").await?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (other, _) = theme_of(c).await?;
    screenshot(c, &artifacts.join(format!("presenter-speaker-{other}.png"))).await;
    click(c, "#btn-theme").await?;
    if first == other {
        return Err(format!("the theme stayed `{first}`").into());
    }
    Ok(())
}

/// `?embed=1&lesson=..&step=..`: the stage without the header (at 1280×720 and in an iframe of
/// a slide); broken addresses show their error in the frame. Leaves `embed.png`,
/// `embed-iframe.png` and `embed-error.png`.
pub(super) async fn embed_stage(c: &Client, url: &str, artifacts: &Path) -> Result<()> {
    set_viewport(c, 1280, 720).await?;
    open_at(c, url, &format!("embed=1&{LESSON}&step=3"), 3).await?;
    for css in ["header.top", "#lesson-steps:not([hidden])"] {
        let shown = js(
            c,
            &format!(
                "const e = document.querySelector('{css}'); return !!e && e.offsetParent !== null;"
            ),
        )
        .await?;
        if shown == true {
            return Err(format!("the embedded stage shows {css}").into());
        }
    }
    for css in [
        "#playground[data-embed='true']",
        "#stage-drawing svg",
        "#embed-nav",
    ] {
        c.find(Locator::Css(css))
            .await
            .map_err(|e| format!("the embedded stage has no {css}: {e}"))?;
    }
    screenshot(c, &artifacts.join("embed.png")).await;
    in_an_iframe(c, url, artifacts).await?;
    broken_embeds(c, url, artifacts).await?;
    restore_window(c).await
}

/// The README's snippet: the embedded stage in a 960×540 iframe of another page.
async fn in_an_iframe(c: &Client, url: &str, artifacts: &Path) -> Result<()> {
    c.goto(&format!("{url}favicon-none.html")).await?;
    let src = format!("{url}?embed=1&{LESSON}&step=3");
    js(
        c,
        &format!(
            "document.body.innerHTML = '<h1 style=\"font:24px sans-serif\">Slide 7: electing a leader</h1>'
               + '<iframe id=\"frame\" src=\"{src}\" width=\"960\" height=\"540\" style=\"border:0\"></iframe>';
             return true;"
        ),
    )
    .await?;
    wait_until("the embedded stage in the iframe", || async {
        let v = js(
            c,
            "const d = document.getElementById('frame').contentDocument;
             return !!(d && d.querySelector(\"#lesson-panel[data-step='3'] \") && d.querySelector('#stage-drawing svg'));",
        )
        .await?;
        Ok((v == true).then_some(()))
    })
    .await?;
    tokio::time::sleep(Duration::from_millis(400)).await;
    screenshot(c, &artifacts.join("embed-iframe.png")).await;
    Ok(())
}

/// Broken embed addresses: each shows `#embed-error` saying what is wrong, never a blank page.
async fn broken_embeds(c: &Client, url: &str, artifacts: &Path) -> Result<()> {
    let cases = [
        (
            "embed=1&lesson=no-such-lesson",
            "no lesson 'no-such-lesson'",
        ),
        ("embed=1&lesson=02-election&step=999", "has"),
        ("embed=1&lesson=02-election&step=abc", "?step=abc"),
        ("embed=1&lesson=02-election&step=-1", "?step=-1"),
        ("embed=yes&lesson=02-election", "?embed=yes"),
    ];
    for (i, (query, want)) in cases.iter().enumerate() {
        c.goto(&format!("{url}?{query}")).await?;
        wait_loaded(c, query).await?;
        let text = text_of(c, "#embed-error #error")
            .await
            .map_err(|e| format!("`?{query}` shows no #embed-error: {e}"))?;
        if !text.contains(want) {
            return Err(format!("`?{query}` says `{text}`, not `{want}`").into());
        }
        if !c.find_all(Locator::Css("#stage-drawing")).await?.is_empty() {
            return Err(format!("`?{query}` draws a stage beside its error").into());
        }
        no_errors(c).await?;
        if i == 0 {
            screenshot(c, &artifacts.join("embed-error.png")).await;
        }
    }
    Ok(())
}

/// The QR button opens a code of the share address, large enough for the back of a hall at
/// 1280×720; Escape closes it. Leaves `qr.png`.
pub(super) async fn qr_code(c: &Client, url: &str, artifacts: &Path) -> Result<()> {
    set_viewport(c, 1280, 720).await?;
    open_at(c, url, &format!("{LESSON}&step=2"), 2).await?;
    click(c, "#btn-qr").await?;
    let v = wait_until("the QR code", || async {
        let v = js(
            c,
            "const q = document.querySelector('#qr-overlay svg#qr');
             if (!q) return null;
             const r = q.getBoundingClientRect();
             return [q.dataset.text, r.width, r.height, q.querySelector('path').getAttribute('d').length];",
        )
        .await?;
        Ok((!v.is_null()).then_some(v))
    })
    .await?;
    let text = v[0].as_str().unwrap_or_default();
    let (w, h, d) = (
        v[1].as_f64().unwrap_or(0.0),
        v[2].as_f64().unwrap_or(0.0),
        v[3].as_u64().unwrap_or(0),
    );
    if !(text.starts_with(url) && text.contains("lesson=02-election") && text.contains("step=2")) {
        return Err(
            format!("the QR code holds `{text}`, not this lesson's address at step 2").into(),
        );
    }
    if w < 450.0 || h < 450.0 || d < 1000 {
        return Err(format!("the QR code is {w}x{h} px with a path of {d} chars").into());
    }
    screenshot(c, &artifacts.join("qr.png")).await;
    press(c, Key::Escape).await?;
    wait_gone(c, "#qr-overlay", "Escape").await?;
    no_errors(c).await?;
    restore_window(c).await
}
