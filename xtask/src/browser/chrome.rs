//! The page's chrome: the theme toggle, the UI language, the splitter and text size, and the
//! keyboard help.

use std::path::Path;

use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::Value;

use super::driver::{
    click, no_errors, press, press_char, reload, screenshot, text_of, wait_for, wait_gone,
    wait_until,
};
use crate::Result;

/// The theme `<html>` carries: (`data-theme`, class list).
pub(super) async fn theme_of(c: &Client) -> Result<(String, String)> {
    let v = c
        .execute(
            "return [document.documentElement.dataset.theme || '', document.documentElement.className];",
            vec![],
        )
        .await?;
    let at = |i: usize| v.get(i).and_then(Value::as_str).unwrap_or("").to_string();
    Ok((at(0), at(1)))
}

/// The page starts in a theme, the toggle switches the class on `<html>`, and the choice
/// survives a reload; screenshots of both themes. Leaves the page in the theme it started in.
pub(super) async fn theme_toggle(c: &Client, artifacts: &Path) -> Result<()> {
    let (first, class) = theme_of(c).await?;
    if !matches!(first.as_str(), "light" | "dark") || class != format!("theme-{first}") {
        return Err(format!("<html> has data-theme `{first}` and class `{class}`").into());
    }
    let other = if first == "light" { "dark" } else { "light" };
    screenshot(c, &artifacts.join(format!("theme-{first}.png"))).await;
    click(c, "#btn-theme").await?;
    let (now, class) = theme_of(c).await?;
    if now != other || class != format!("theme-{other}") {
        return Err(format!("after the toggle: data-theme `{now}`, class `{class}`").into());
    }
    reload(c).await?;
    let (kept, class) = theme_of(c).await?;
    if kept != other || class != format!("theme-{other}") {
        return Err(
            format!("after reload: data-theme `{kept}`, class `{class}`, wanted {other}").into(),
        );
    }
    let button = c
        .find(Locator::Css("#btn-theme"))
        .await?
        .attr("data-theme")
        .await?;
    if button.as_deref() != Some(other) {
        return Err(format!("#btn-theme has data-theme {button:?} after reload").into());
    }
    screenshot(c, &artifacts.join(format!("theme-{other}.png"))).await;
    click(c, "#btn-theme").await?;
    let (back, _) = theme_of(c).await?;
    if back != first {
        return Err(format!("the second toggle gave `{back}`, wanted `{first}`").into());
    }
    no_errors(c).await
}

/// (`#playground` data-lang, the play button's text, the broker panel's heading).
pub(super) async fn chrome_of(c: &Client) -> Result<(String, String, String)> {
    let v = c
        .execute(
            "const t = s => (document.querySelector(s) || {}).textContent || '';
             return [document.getElementById('playground').dataset.lang,
                     t('#btn-play').trim(), t('#broker-panel h2')];",
            vec![],
        )
        .await?;
    let at = |i: usize| v.get(i).and_then(Value::as_str).unwrap_or("").to_string();
    Ok((at(0), at(1), at(2)))
}

/// The language buttons switch the chrome, not only the narration: Korean labels on the
/// controls and the panels' headings, then English ones. Leaves the page in the language it
/// started in.
pub(super) async fn ui_language(c: &Client) -> Result<()> {
    let (first, _, _) = chrome_of(c).await?;
    click(c, "#lang-ko").await?;
    let ko = wait_until("the page to switch to Korean", || async {
        let v = chrome_of(c).await?;
        Ok((v.0 == "ko").then_some(v))
    })
    .await?;
    if ko.1 != "▶ 재생" || !ko.2.starts_with("브로커") {
        return Err(format!(
            "in Korean the play button says `{}`, the brokers heading `{}`",
            ko.1, ko.2
        )
        .into());
    }
    click(c, "#lang-en").await?;
    let en = wait_until("the page to switch to English", || async {
        let v = chrome_of(c).await?;
        Ok((v.0 == "en").then_some(v))
    })
    .await?;
    if en.1 != "▶ Play" || !en.2.starts_with("brokers") {
        return Err(format!(
            "in English the play button says `{}`, the brokers heading `{}`",
            en.1, en.2
        )
        .into());
    }
    click(c, &format!("#lang-{first}")).await?;
    no_errors(c).await
}

/// (splitter share, cluster column width px, `<html>` data-text-size, computed root font px).
pub(super) async fn layout_of(c: &Client) -> Result<(String, f64, String, String)> {
    let v = c
        .execute(
            "const s = document.getElementById('splitter');
             const k = document.querySelector('#panels > .cluster');
             const r = document.documentElement;
             return [s ? s.getAttribute('aria-valuenow') : '', k ? k.getBoundingClientRect().width : 0,
                     r.dataset.textSize || '', getComputedStyle(r).fontSize];",
            vec![],
        )
        .await?;
    let at = |i: usize| v.get(i).and_then(Value::as_str).unwrap_or("").to_string();
    Ok((at(0), v[1].as_f64().unwrap_or(0.0), at(2), at(3)))
}

/// The lecturer's layout: the focused splitter moves 2 % a Right arrow and widens the cluster
/// column; A+ sets the root font one size up; a reload keeps both; double click and A− give
/// the defaults back (and the page is left at them).
pub(super) async fn layout_controls(c: &Client) -> Result<()> {
    let (split, width, text, font) = layout_of(c).await?;
    if (split.as_str(), text.as_str(), font.as_str()) != ("55", "20", "20px") {
        return Err(format!("at first: split {split}, text size {text}, font {font}").into());
    }
    click(c, "#splitter").await?;
    for _ in 0..5 {
        press(c, Key::Right).await?;
    }
    let (split, wider, _, _) = wait_until("the splitter to reach 65", || async {
        let l = layout_of(c).await?;
        Ok((l.0 == "65").then_some(l))
    })
    .await?;
    if wider < width + 50.0 {
        return Err(
            format!("split {split}: the cluster column is {wider} px, was {width} px").into(),
        );
    }
    click(c, "#btn-text-bigger").await?;
    let (_, _, text, font) = layout_of(c).await?;
    if (text.as_str(), font.as_str()) != ("22", "22px") {
        return Err(format!("after A+: text size {text}, font {font}").into());
    }
    reload(c).await?;
    let kept = layout_of(c).await?;
    if (kept.0.as_str(), kept.2.as_str(), kept.3.as_str()) != ("65", "22", "22px") {
        return Err(format!("after reload: {kept:?}, wanted split 65 and 22px").into());
    }
    c.execute(
        "document.getElementById('splitter')
             .dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));",
        vec![],
    )
    .await?;
    click(c, "#btn-text-smaller").await?;
    let back = layout_of(c).await?;
    if (back.0.as_str(), back.2.as_str(), back.3.as_str()) != ("55", "20", "20px") {
        return Err(format!("after double click and A-: {back:?}, wanted the defaults").into());
    }
    no_errors(c).await
}

/// `?` opens the keyboard help listing every shortcut; Escape closes it.
pub(super) async fn keyboard_help(c: &Client, shot: &Path) -> Result<()> {
    press_char(c, '?').await?;
    wait_for(c, "#help-overlay", "`?` did not open #help-overlay").await?;
    let text = text_of(c, "#help-overlay").await?;
    for keys in ["?", "Esc", "Space", "←", "Home", "Enter", "↑", "↓"] {
        if !text.contains(keys) {
            return Err(format!("the help does not list `{keys}`: `{text}`").into());
        }
    }
    screenshot(c, shot).await;
    press(c, Key::Escape).await?;
    wait_gone(c, "#help-overlay", "Escape").await?;
    // The close button also closes it.
    click(c, "#btn-help").await?;
    click(c, "#help-close").await?;
    wait_gone(c, "#help-overlay", "the close button").await?;
    no_errors(c).await
}
