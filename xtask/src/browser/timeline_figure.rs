//! Lesson 03 through the TimelineHashMap timeline figure (`#timeline-figure`): stepped with the
//! Right arrow to the end, the columns take the article's colours (committed green, applied
//! yellow, deleteSnapshotsUpTo blue, revertToSnapshot red) and the step's change is lit; the six
//! lines of example 3 accumulate in `#timeline-lines`; in both themes the colours hold and the
//! figure's text and lines keep their contrast; its captions follow the language.

use std::path::Path;

use fantoccini::key::Key;
use fantoccini::Client;
use serde_json::Value;

use super::driver::{click, element_screenshot, no_errors, press, wait_for, wait_until};
use super::lessons::wait_for_step;
use crate::Result;

/// The six lines example 3 prints (Timeline.java's output in the article).
const SIX_LINES: [&str; 6] = [
    "committed up to 10 current={orders=id-A} snapshots=[10]",
    "applied 11, 12 (not committed) current={payments=id-B} snapshots=[10, 11, 12]",
    " as of 10: orders=id-A payments=null",
    " as of 11: orders=id-A payments=id-B",
    "committed up to 11 current={payments=id-B} snapshots=[11, 12]",
    "lost leadership, reverted to 11 current={orders=id-A, payments=id-B} snapshots=[11]",
];

/// What the figure shows: its columns (offset, state, lit, the band's stroke colour), the
/// labels under struck columns, the cells marked restored, the printed lines (text, lit), the
/// lowest contrasts of its text and lines, and its "now" header.
const FIGURE_JS: &str = r#"
    const f = document.getElementById('timeline-figure');
    if (!f) return null;
    const rgb = c => { const m = c.match(/rgba?\(([^)]+)\)/); return m ? m[1].split(',').slice(0, 3).map(Number) : null; };
    const lum = c => { const g = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * g(c[0]) + 0.7152 * g(c[1]) + 0.0722 * g(c[2]); };
    const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
    let bg = null;
    for (let e = f; e && !bg; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor; if (!c.startsWith('rgba(0, 0, 0, 0)')) bg = rgb(c); }
    const cols = Array.from(f.querySelectorAll('.tf-col')).map(g => {
        const band = getComputedStyle(g.querySelector('.tf-band'));
        const head = getComputedStyle(g.querySelector('.tf-head')), headText = getComputedStyle(g.querySelector('.tf-head-text'));
        const outline = g.querySelector(':scope > .tf-lit');
        return { offset: g.dataset.offset, state: g.dataset.state, lit: g.dataset.lit, struckBy: g.dataset.struckBy,
                 stroke: rgb(band.stroke), line: ratio(rgb(band.stroke), bg), head: ratio(rgb(headText.fill), rgb(head.fill)),
                 struck: g.querySelectorAll('.tf-strike').length, outline: !!outline,
                 text: g.querySelector('.tf-head-text').textContent };
    });
    const texts = Array.from(f.querySelectorAll('.tf-cell text, .tf-key text, .tf-label text'))
        .filter(t => t.textContent.trim())
        .map(t => [ratio(rgb(getComputedStyle(t).fill), bg), t.textContent.trim()]);
    texts.sort((a, b) => a[0] - b[0]);
    const lines = Array.from(document.querySelectorAll('#timeline-lines > li')).map(li => ({
        text: li.textContent, lit: li.dataset.lit, outline: getComputedStyle(li).outlineStyle }));
    return { cols, lines, text: texts[0] || [99, ''],
             labels: Array.from(f.querySelectorAll('.tf-label')).map(l => l.dataset.state + ':' + l.textContent),
             restored: Array.from(f.querySelectorAll('.tf-col.now .tf-cell[data-restored="true"]')).map(c => c.dataset.row + ':' + c.dataset.lit),
             committed: f.dataset.committed, legend: (f.querySelector('.tf-legend') || {}).textContent || '' };"#;

/// One column as the figure draws it.
#[derive(Debug)]
struct Column {
    offset: String,
    state: String,
    lit: bool,
    stroke: [f64; 3],
    /// Contrast of the band's outline against the panel, and of the header's text on it.
    line: f64,
    head: f64,
    struck: bool,
    outline: bool,
    text: String,
}

#[derive(Debug)]
struct Figure {
    cols: Vec<Column>,
    lines: Vec<(String, bool, String)>,
    /// The lowest contrast of a text of the figure, and that text.
    text: (f64, String),
    labels: Vec<String>,
    restored: Vec<String>,
    committed: String,
    legend: String,
}

async fn figure(c: &Client) -> Result<Figure> {
    let v = c.execute(FIGURE_JS, vec![]).await?;
    if v.is_null() {
        return Err("there is no #timeline-figure".into());
    }
    let s = |x: &Value| x.as_str().unwrap_or("").to_string();
    let strings = |x: &Value| -> Vec<String> {
        x.as_array()
            .into_iter()
            .flatten()
            .map(|e| e.as_str().unwrap_or("").to_string())
            .collect()
    };
    let cols = v["cols"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            let n = |i: usize| c["stroke"][i].as_f64().unwrap_or(0.0);
            Column {
                offset: s(&c["offset"]),
                state: s(&c["state"]),
                lit: c["lit"] == "true",
                stroke: [n(0), n(1), n(2)],
                line: c["line"].as_f64().unwrap_or(0.0),
                head: c["head"].as_f64().unwrap_or(0.0),
                struck: c["struck"].as_u64().unwrap_or(0) > 0,
                outline: c["outline"].as_bool().unwrap_or(false),
                text: s(&c["text"]),
            }
        })
        .collect();
    let lines = v["lines"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|l| (s(&l["text"]), l["lit"] == "true", s(&l["outline"])))
        .collect();
    Ok(Figure {
        cols,
        lines,
        text: (v["text"][0].as_f64().unwrap_or(0.0), s(&v["text"][1])),
        labels: strings(&v["labels"]),
        restored: strings(&v["restored"]),
        committed: s(&v["committed"]),
        legend: s(&v["legend"]),
    })
}

/// Whether `rgb` reads as the article's colour for `state`.
fn colour_fits(state: &str, [r, g, b]: [f64; 3]) -> bool {
    match state {
        "committed" => g > r && g > b,
        "applied" => r > b + 60.0 && g > b + 40.0,
        "deleted" => b > r + 60.0,
        "reverted" => r > g + 60.0 && r > b + 40.0,
        _ => false,
    }
}

/// The columns as `offset:state`, with `*` when lit.
fn summary(f: &Figure) -> Vec<String> {
    f.cols
        .iter()
        .map(|c| format!("{}:{}{}", c.offset, c.state, if c.lit { "*" } else { "" }))
        .collect()
}

/// Every column's colour fits its state; texts 4.5:1, lines 3:1; lit columns outlined.
fn colours_hold(f: &Figure, theme: &str) -> Result<()> {
    for c in &f.cols {
        if !colour_fits(&c.state, c.stroke) {
            return Err(format!(
                "{theme}: column {} is {} but drawn {:?}",
                c.offset, c.state, c.stroke
            )
            .into());
        }
        if c.line < 3.0 || c.head < 4.5 {
            return Err(format!(
                "{theme}: column {}: outline {:.2}:1, header text {:.2}:1",
                c.offset, c.line, c.head
            )
            .into());
        }
        if c.lit != c.outline || c.struck != matches!(c.state.as_str(), "deleted" | "reverted") {
            return Err(format!("{theme}: column {c:?} is lit or struck wrongly").into());
        }
    }
    if f.text.0 < 4.5 {
        return Err(format!(
            "{theme}: the figure's text `{}` has {:.2}:1",
            f.text.1, f.text.0
        )
        .into());
    }
    Ok(())
}

/// Steps to the next lesson step and gives its command and what the figure shows.
async fn next_step(c: &Client, k: usize) -> Result<(String, Figure)> {
    press(c, Key::Right).await?;
    wait_for_step(c, k).await?;
    let command = c
        .execute(
            "return (document.getElementById('lesson-command') || {}).textContent || '';",
            vec![],
        )
        .await?;
    Ok((command.as_str().unwrap_or("").to_string(), figure(c).await?))
}

/// Lesson 03 to the end through the figure: snapshot 12 applied (yellow, lit); `delete-up-to
/// 11` strikes 10 in blue, lit, with its call; `revert 11` strikes 12 in red, lit, and marks
/// orders as come back; at the end 10 deleted, 11 committed, 12 reverted, now committed, the
/// six lines with only the last lit; then the other theme and Korean captions.
pub(super) async fn lesson_timeline_figure(c: &Client, url: &str, shot: &Path) -> Result<()> {
    c.goto(&format!("{url}?lesson=03-timeline&lang=en&play=0"))
        .await?;
    wait_for(c, "#lesson-panel[data-step='0']", "lesson 03 did not open").await?;
    let steps = c
        .execute(
            "return +document.getElementById('lesson-panel').dataset.steps;",
            vec![],
        )
        .await?
        .as_u64()
        .unwrap_or(0) as usize;
    let mut seen = Vec::new();
    for k in 1..=steps {
        let (command, f) = next_step(c, k).await?;
        let want: Option<&[&str]> = match command.trim_start_matches("$ ").trim() {
            "timeline snapshot 12" => {
                Some(&["10:committed", "11:applied", "12:applied*", "now:applied"])
            }
            "timeline delete-up-to 11" => {
                Some(&["10:deleted*", "11:committed", "12:applied", "now:applied"])
            }
            "timeline revert 11" => Some(&[
                "10:deleted",
                "11:committed",
                "12:reverted*",
                "now:committed*",
            ]),
            _ => None,
        };
        if let Some(want) = want {
            if summary(&f) != want {
                return Err(format!(
                    "after `{command}` the figure shows {:?}, wanted {want:?}",
                    summary(&f)
                )
                .into());
            }
            colours_hold(&f, "the page's theme")?;
            seen.push(command.clone());
        }
        if command.contains("revert 11") && f.restored != ["orders:true"] {
            return Err(format!(
                "after the revert the values marked come back are {:?}",
                f.restored
            )
            .into());
        }
        if command.contains("delete-up-to 11")
            && !f
                .labels
                .contains(&"deleted:deleteSnapshotsUpTo(11)".to_string())
        {
            return Err(format!("after delete-up-to 11 the labels are {:?}", f.labels).into());
        }
    }
    if seen.len() != 3 {
        return Err(format!(
            "lesson 03 ran only {seen:?} of its snapshot 12, delete-up-to 11, revert 11"
        )
        .into());
    }
    let end = figure(c).await?;
    check_end(&end, "the page's theme")?;
    element_screenshot(c, "#timeline-figure", shot).await;
    // The other theme, switched as the theme button does (the class on <html>).
    let other = c
        .execute(
            "const h = document.documentElement; window.tfClass = h.className;
             h.className = h.classList.contains('theme-light') ? 'theme-dark' : 'theme-light';
             return h.className;",
            vec![],
        )
        .await?;
    let seen = figure(c).await;
    c.execute(
        "document.documentElement.className = window.tfClass;",
        vec![],
    )
    .await?;
    check_end(&seen?, other.as_str().unwrap_or("the other theme"))?;
    captions_follow_the_language(c).await?;
    no_errors(c).await
}

/// The end of lesson 03 in `theme`.
fn check_end(f: &Figure, theme: &str) -> Result<()> {
    let want = ["10:deleted", "11:committed", "12:reverted", "now:committed"];
    if summary(f) != want || f.committed != "11" {
        return Err(format!(
            "{theme}: at the end the figure shows {:?} committed `{}`",
            summary(f),
            f.committed
        )
        .into());
    }
    colours_hold(f, theme)?;
    let labels = [
        "deleted:deleteSnapshotsUpTo(11)",
        "reverted:revertToSnapshot(11)",
    ];
    if f.labels != labels {
        return Err(format!("{theme}: the struck columns' labels are {:?}", f.labels).into());
    }
    let texts: Vec<&str> = f.lines.iter().map(|(t, _, _)| t.as_str()).collect();
    if texts != SIX_LINES {
        return Err(format!("{theme}: #timeline-lines holds {texts:?}").into());
    }
    let lit: Vec<bool> = f.lines.iter().map(|(_, l, _)| *l).collect();
    if lit != [false, false, false, false, false, true] || f.lines[5].2 == "none" {
        return Err(format!(
            "{theme}: the lines lit are {lit:?}, the last one's outline `{}`",
            f.lines[5].2
        )
        .into());
    }
    Ok(())
}

/// In Korean the figure's captions are Korean; back in English, English.
async fn captions_follow_the_language(c: &Client) -> Result<()> {
    click(c, "#lang-ko").await?;
    let ko = wait_until("the figure's captions in Korean", || async {
        let f = figure(c).await?;
        Ok(f.cols.last().is_some_and(|c| c.text == "현재").then_some(f))
    })
    .await?;
    if !ko.legend.contains("커밋됨") {
        return Err(format!("in Korean the legend reads `{}`", ko.legend).into());
    }
    click(c, "#lang-en").await?;
    wait_until("the figure's captions in English", || async {
        let f = figure(c).await?;
        Ok(
            (f.cols.last().is_some_and(|c| c.text == "now") && f.legend.contains("committed ≤ 11"))
                .then_some(()),
        )
    })
    .await
}
