//! The lecture stage through the page: every step of every lesson fits a projector (1280×720
//! and 1920×1080) with the drawing and everything the step lights on screen, no page scrolling
//! and no text under 16 px at 1280×720; and lesson 02's kill step, played, shows node 102 pass
//! through Prospective, Candidate and Leader (and 103 through Prospective, Unattached and
//! Follower) in the DOM, as the room would see it.

use std::path::Path;
use std::time::{Duration, Instant};

use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::Value;

use super::driver::{no_errors, press, screenshot, wait_for};
use super::lessons::wait_for_step;
use crate::Result;

/// The projector sizes the stage is checked at.
pub(super) const SIZES: [(u32, u32); 2] = [(1280, 720), (1920, 1080)];

/// Everything wrong with the stage as it is drawn now: the page scrolls, the drawing or a lit
/// element (`[data-focused="true"]`) is outside the viewport or scrolled out of its panel, the
/// narration does not fit its box, and (when `min_px` is given) visible text smaller than that.
pub(super) const FIT_JS: &str = r#"
    const minPx = arguments[0];
    const vw = innerWidth, vh = innerHeight, bad = [];
    const de = document.documentElement;
    if (de.scrollHeight > vh + 1 || de.scrollWidth > vw + 1)
        bad.push(`the page scrolls: ${de.scrollWidth}x${de.scrollHeight} in ${vw}x${vh}`);
    const name = el => el.id ? '#' + el.id : el.tagName.toLowerCase() + '.' +
        (el.getAttribute('class') || '').split(' ')[0] + JSON.stringify(el.dataset).slice(0, 80);
    const within = (r, b) => r.left >= b.left - 1 && r.top >= b.top - 1 && r.right <= b.right + 1 && r.bottom <= b.bottom + 1;
    const inside = el => {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) { bad.push(name(el) + ' has no size'); return; }
        if (!within(r, {left: 0, top: 0, right: vw, bottom: vh})) {
            bad.push(`${name(el)} at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)} is off screen`);
            return;
        }
        for (let a = el.parentElement; a; a = a.parentElement) {
            const o = getComputedStyle(a).overflowY;
            if ((o === 'auto' || o === 'scroll' || o === 'hidden') && !within(r, a.getBoundingClientRect())) {
                bad.push(`${name(el)} is scrolled out of ${name(a)}`);
                return;
            }
        }
    };
    const cluster = document.getElementById('cluster');
    if (cluster) inside(cluster);
    // No text of the drawing cut off at its edge.
    if (cluster) {
        const edge = cluster.getBoundingClientRect();
        for (const t of cluster.querySelectorAll('text')) {
            const r = t.getBoundingClientRect();
            if (r.width > 0 && !within(r, edge)) bad.push(`the drawing's text \`${t.textContent.trim().slice(0, 30)}\` is cut off at its edge`);
        }
    }
    // The drawing for a room: no label over a node, no two nodes' outer arcs touching.
    const boxes = Array.from(document.querySelectorAll('#cluster .node .shape')).map(e => [e.closest('.node').dataset.nodeId, e.getBoundingClientRect()]);
    for (const l of document.querySelectorAll('#cluster .msg-label')) {
        const r = l.getBoundingClientRect();
        for (const [id, b] of boxes)
            if (r.left < b.right - 2 && r.right > b.left + 2 && r.top < b.bottom - 2 && r.bottom > b.top + 2)
                bad.push(`the label \`${l.textContent}\` is over node ${id}`);
    }
    const rings = Array.from(document.querySelectorAll('#cluster .timer')).map(g => {
        const c = g.querySelector('circle'); const w = parseFloat(getComputedStyle(g.querySelector('circle:last-child')).strokeWidth) || 0;
        return [g.dataset.timerNode || g.dataset.sessionNode, +c.getAttribute('cx'), +c.getAttribute('cy'), +c.getAttribute('r') + w / 2]; });
    const outer = {};
    for (const [id, x, y, r] of rings) if (!outer[id] || outer[id][2] < r) outer[id] = [x, y, r];
    const ids = Object.keys(outer);
    for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) {
        const [x1, y1, r1] = outer[ids[i]], [x2, y2, r2] = outer[ids[j]];
        if (Math.hypot(x1 - x2, y1 - y2) < r1 + r2) bad.push(`the arcs of nodes ${ids[i]} and ${ids[j]} touch`);
    }
    for (const el of document.querySelectorAll('[data-focused="true"]')) inside(el);
    // The step's words are read aloud from the screen: they fit their box, unscrolled.
    const narr = document.querySelector('.strip-narration');
    if (narr && narr.scrollHeight > narr.clientHeight + 4)
        bad.push(`the narration \`${narr.textContent.trim().slice(0, 40)}\` is ${narr.scrollHeight - narr.clientHeight} px taller than its box`);
    if (minPx) {
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        const seen = new Set();
        let small = null;
        while (walker.nextNode()) {
            const t = walker.currentNode, el = t.parentElement;
            if (!t.textContent.trim() || !el || seen.has(el)) continue;
            seen.add(el);
            if (el.closest('title, option, .visually-hidden')) continue;
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.height === 0 || r.bottom < 0 || r.right < 0 || r.top > vh || r.left > vw) continue;
            const cs = getComputedStyle(el);
            if (cs.visibility === 'hidden' || cs.display === 'none') continue;
            let px = parseFloat(cs.fontSize);
            if (el instanceof SVGElement) { const m = el.getScreenCTM(); if (m) px *= Math.hypot(m.a, m.b); }
            if (px < minPx - 0.05 && (!small || px < small[0])) small = [px, name(el), t.textContent.trim().slice(0, 30)];
        }
        if (small) bad.push(`text of ${small[0].toFixed(1)} px: ${small[1]} \`${small[2]}\``);
    }
    return bad;"#;

/// Sets the browser's viewport to `w`×`h` CSS pixels (the window, less what the browser draws
/// around the page).
pub(crate) async fn set_viewport(c: &Client, w: u32, h: u32) -> Result<()> {
    let (mut ww, mut wh) = (i64::from(w), i64::from(h));
    for _ in 0..5 {
        c.set_window_size(ww as u32, wh as u32).await?;
        tokio::time::sleep(Duration::from_millis(150)).await;
        let inner = c
            .execute("return [innerWidth, innerHeight];", vec![])
            .await?;
        let iw = inner[0].as_i64().unwrap_or(0);
        let ih = inner[1].as_i64().unwrap_or(0);
        if (iw, ih) == (i64::from(w), i64::from(h)) {
            return Ok(());
        }
        // What the browser draws around the page: added to the window.
        ww = (ww + i64::from(w) - iw).clamp(200, 4000);
        wh = (wh + i64::from(h) - ih).clamp(200, 4000);
    }
    Err(format!("cannot give the page a {w}x{h} viewport").into())
}

/// Opens `url?query` (a lesson's address) and waits until the lesson panel shows `step`.
pub(crate) async fn open_at(c: &Client, url: &str, query: &str, step: usize) -> Result<()> {
    c.goto(&format!("{url}?{query}")).await?;
    wait_for(
        c,
        &format!("#lesson-panel[data-step='{step}']"),
        &format!("`?{query}` did not open the lesson at step {step}"),
    )
    .await?;
    Ok(())
}

/// Gives the browser window back the size the session started with (the other checks' page).
pub(crate) async fn restore_window(c: &Client) -> Result<()> {
    c.set_window_size(1600, 1700).await?;
    Ok(())
}

/// The lessons compiled into the page, by name (the picker's values).
async fn lesson_names(c: &Client) -> Result<Vec<String>> {
    let v = c
        .execute(
            "return Array.from(document.querySelectorAll('#lesson-picker option'))
                 .map(o => o.value).filter(v => v);",
            vec![],
        )
        .await?;
    Ok(v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|n| n.as_str().map(str::to_string))
        .collect())
}

/// Every step of every lesson, at both sizes: the drawing and every lit element on screen, the
/// page not scrolling, no text under 16 px at 1280×720. Leaves `stage-1280.png` and
/// `stage-1920.png` (lesson 02 after its election) in `artifacts`.
pub(super) async fn every_step_fits(c: &Client, url: &str, artifacts: &Path) -> Result<()> {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (w, h) in SIZES {
        set_viewport(c, w, h).await?;
        open_at(c, url, "lesson=01-metadata-log&lang=en&play=0", 0).await?;
        let names = lesson_names(c).await?;
        if names.is_empty() {
            return Err("the lesson picker lists no lesson".into());
        }
        let min_px = if w == 1280 { 16.0 } else { 0.0 };
        for name in &names {
            open_at(c, url, &format!("lesson={name}&lang=en&play=0"), 0).await?;
            let steps: usize = c
                .execute(
                    "return Number(document.getElementById('lesson-panel').dataset.steps);",
                    vec![],
                )
                .await?
                .as_u64()
                .unwrap_or(0) as usize;
            for k in 0..=steps {
                if k > 0 {
                    press(c, Key::Right).await?;
                    wait_for_step(c, k).await?;
                }
                let bad = c.execute(FIT_JS, vec![Value::from(min_px)]).await?;
                checked += 1;
                for b in bad.as_array().into_iter().flatten() {
                    failures.push(format!(
                        "{w}x{h} {name} step {k}: {}",
                        b.as_str().unwrap_or("")
                    ));
                }
            }
            if name == "02-election" {
                screenshot(c, &artifacts.join(format!("stage-{w}.png"))).await;
            }
        }
    }
    // Free play on the stage while it plays (the first election, labels and arcs moving).
    for (w, h) in SIZES {
        set_viewport(c, w, h).await?;
        c.goto(&format!("{url}?seed=42&present=1")).await?;
        wait_for(
            c,
            "#playground[data-layout='stage'] #btn-play",
            "free play did not open on the stage",
        )
        .await?;
        c.execute(
            "const s = document.getElementById('speed'); s.value = '5';
             s.dispatchEvent(new Event('change', { bubbles: true }));
             document.getElementById('btn-play').click();",
            vec![],
        )
        .await?;
        let min_px = if w == 1280 { 16.0 } else { 0.0 };
        for i in 0..25 {
            tokio::time::sleep(Duration::from_millis(200)).await;
            let bad = c.execute(FIT_JS, vec![Value::from(min_px)]).await?;
            checked += 1;
            for b in bad.as_array().into_iter().flatten() {
                failures.push(format!(
                    "{w}x{h} free play, sample {i}: {}",
                    b.as_str().unwrap_or("")
                ));
            }
        }
        c.find(Locator::Css("#btn-play")).await?.click().await?;
    }
    restore_window(c).await?;
    if !failures.is_empty() {
        let n = failures.len();
        failures.truncate(12);
        return Err(format!(
            "{n} problem(s) over {checked} steps, first: {}",
            failures.join("; ")
        )
        .into());
    }
    println!("       {checked} lesson steps checked at 1280x720 and 1920x1080");
    no_errors(c).await
}

/// The step of `name` whose command is `command`, read from the step bar's titles.
pub(crate) async fn step_of(c: &Client, command: &str) -> Result<usize> {
    let v = c
        .execute(
            "const b = Array.from(document.querySelectorAll('#lesson-steps [data-step]'))
                 .find(b => b.title.endsWith(': ' + arguments[0]));
             return b ? Number(b.dataset.step) : null;",
            vec![Value::from(command)],
        )
        .await?;
    v.as_u64()
        .map(|k| k as usize)
        .ok_or_else(|| format!("no step runs `{command}`").into())
}

/// Records every `data-role` each node of the drawing takes, in order, from now on.
const WATCH_ROLES_JS: &str = "
    window.kraftRoles = {};
    const note = g => {
        const id = g.dataset.nodeId, r = g.dataset.role + (g.dataset.votedId && g.dataset.role === 'Unattached' ? ' voted ' + g.dataset.votedId : '');
        const seen = (window.kraftRoles[id] = window.kraftRoles[id] || []);
        if (seen[seen.length - 1] !== r) seen.push(r);
    };
    document.querySelectorAll('#cluster .node').forEach(note);
    window.kraftRoleObserver = new MutationObserver(ms => ms.forEach(m => {
        const g = m.target.closest && m.target.closest('.node');
        if (g) note(g);
    }));
    window.kraftRoleObserver.observe(document.getElementById('cluster'),
        { subtree: true, attributes: true, attributeFilter: ['data-role', 'data-voted-id'] });";

/// Lesson 02's kill step played as the room sees it: after `kill -9 101`, `sleep 15s` plays
/// with adaptive time; the drawing shows 102 Follower → Prospective → Candidate → Leader and
/// 103 Prospective → Unattached (voted 102) → Follower, and the step ends with the pinned
/// output. Gives the wall seconds it played.
pub(super) async fn lesson_election_played(c: &Client, url: &str, shot: &Path) -> Result<f64> {
    set_viewport(c, 1280, 720).await?;
    open_at(c, url, "lesson=02-election&lang=en", 0).await?;
    let kill = step_of(c, "kill -9 101").await?;
    open_at(
        c,
        url,
        &format!("lesson=02-election&lang=en&step={kill}"),
        kill,
    )
    .await?;
    c.execute(WATCH_ROLES_JS, vec![]).await?;
    let started = Instant::now();
    press(c, Key::Right).await?;
    wait_for_step(c, kill + 1).await?;
    let playing = c
        .execute(
            "return document.getElementById('lesson-panel').dataset.playing;",
            vec![],
        )
        .await?;
    if playing.as_str() != Some("true") {
        return Err(format!("the `sleep 15s` step does not play (data-playing={playing})").into());
    }
    let mut shot_taken = false;
    loop {
        let v = c
            .execute(
                "return [document.getElementById('lesson-panel').dataset.playing,
                         (window.kraftRoles['102'] || []).slice(-1)[0]];",
                vec![],
            )
            .await?;
        if v[0].as_str() == Some("false") {
            break;
        }
        if !shot_taken && v[1].as_str() == Some("Candidate") {
            screenshot(c, shot).await;
            shot_taken = true;
        }
        if started.elapsed() > Duration::from_secs(40) {
            return Err("the kill step still plays after 40 s".into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let wall_s = started.elapsed().as_secs_f64();
    let roles = c.execute("return window.kraftRoles;", vec![]).await?;
    let of = |id: &str| -> Vec<String> {
        roles[id]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r.as_str().map(str::to_string))
            .collect()
    };
    let in_order = |seen: &[String], want: &[&str]| {
        let mut it = seen.iter();
        want.iter().all(|w| it.any(|s| s == w))
    };
    let (r102, r103) = (of("102"), of("103"));
    if !in_order(&r102, &["Follower", "Prospective", "Candidate", "Leader"]) {
        return Err(format!("node 102 was drawn {r102:?}").into());
    }
    if !in_order(
        &r103,
        &[
            "Follower",
            "Prospective",
            "Unattached voted 102",
            "Follower",
        ],
    ) {
        return Err(format!("node 103 was drawn {r103:?}").into());
    }
    let out = c
        .execute(
            "return document.getElementById('lesson-output').textContent;",
            vec![],
        )
        .await?;
    if out.as_str() != Some("") {
        return Err(format!("`sleep 15s` printed {out}").into());
    }
    if !(8.0..=25.0).contains(&wall_s) {
        return Err(format!("the kill step played {wall_s:.1} s, not a 10-20 s story").into());
    }
    println!("       the kill step played {wall_s:.1} s: 102 {r102:?}, 103 {r103:?}");
    restore_window(c).await?;
    no_errors(c).await?;
    Ok(wall_s)
}

/// The header's projector preset: the light theme and 24 px text; A- gives the room's text
/// back.
pub(super) async fn projector_preset(c: &Client, url: &str) -> Result<()> {
    c.goto(&format!("{url}?seed=3")).await?;
    wait_for(c, "#btn-projector", "no projector button").await?;
    c.find(Locator::Css("#btn-projector"))
        .await?
        .click()
        .await?;
    let v = c
        .execute(
            "return [document.documentElement.dataset.theme, document.documentElement.dataset.textSize,
                     getComputedStyle(document.documentElement).fontSize,
                     document.getElementById('btn-theme').dataset.theme];",
            vec![],
        )
        .await?;
    if v != serde_json::json!(["light", "24", "24px", "light"]) {
        return Err(format!("after Projector: [theme, text size, root font, toggle] = {v}").into());
    }
    c.execute(
        "localStorage.removeItem('kraft-theme'); localStorage.removeItem('kraft-text-size');",
        vec![],
    )
    .await?;
    no_errors(c).await
}

/// Every visible text of the page against what it is drawn on (the nearest background, or the
/// halo an SVG text is stroked with), and every line of the drawings against the panel: the
/// lowest contrast ratios found, as (ratio, what, text or line).
const CONTRAST_JS: &str = r#"
    const parse = c => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null;
        const p = m[1].split(',').map(Number); return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
    const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
    const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
    const over = (fg, bg) => ({ r: fg.r * fg.a + bg.r * (1 - fg.a), g: fg.g * fg.a + bg.g * (1 - fg.a), b: fg.b * fg.a + bg.b * (1 - fg.a), a: 1 });
    const background = el => { for (let e = el; e; e = e.parentElement) {
            if (e instanceof SVGElement && !(e instanceof SVGSVGElement)) continue;
            const c = parse(getComputedStyle(e).backgroundColor); if (c && c.a > 0.5) return c; }
        return parse(getComputedStyle(document.body).backgroundColor); };
    const opacity = el => { let o = 1; for (let e = el; e; e = e.parentElement) o *= parseFloat(getComputedStyle(e).opacity); return o; };
    const name = el => (el.id ? '#' + el.id : el.tagName.toLowerCase() + '.' + (el.getAttribute('class') || '').split(' ')[0]);
    const vw = innerWidth, vh = innerHeight, found = [];
    const walker = document.createTreeWalker(document.getElementById('playground'), NodeFilter.SHOW_TEXT);
    const seen = new Set();
    while (walker.nextNode()) {
        const t = walker.currentNode, el = t.parentElement;
        if (!t.textContent.trim() || !el || seen.has(el)) continue;
        seen.add(el);
        if (el.closest('title, option, .visually-hidden, button:disabled, input, select')) continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || r.bottom < 0 || r.right < 0 || r.top > vh || r.left > vw) continue;
        const cs = getComputedStyle(el);
        const svg = el instanceof SVGElement;
        let fg = parse(svg ? cs.fill : cs.color);
        if (!fg) continue;
        let bg = background(el);
        if (svg && cs.paintOrder.startsWith('stroke') && parseFloat(cs.strokeWidth) >= 4) bg = parse(cs.stroke) || bg;
        fg = { ...fg, a: fg.a * opacity(el) };
        found.push([ratio(over(fg, bg), bg), name(el), 'text', t.textContent.trim().slice(0, 24)]);
    }
    for (const el of document.querySelectorAll('.sd-edge, .link line, .timer-arc, .cut, .message .track, .sd-state rect, .seq-msg .track, .seq-lane line, .seq-chip rect')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        const cs = getComputedStyle(el);
        const fg = parse(cs.stroke); if (!fg) continue;
        const bg = background(el.closest('svg'));
        const c = { ...fg, a: fg.a * opacity(el) * parseFloat(cs.strokeOpacity || '1') };
        found.push([ratio(over(c, bg), bg), name(el), 'line', '']);
    }
    found.sort((a, b) => a[0] - b[0]);
    return found.slice(0, 8);"#;

/// Text at least 4.5:1 and lines at least 3:1 against their background, in both themes, on the
/// stage during lesson 02's election (the drawing, the strip, the state diagram), with the
/// brokers panel of lesson 04 and with lesson 02's sequence diagram.
pub(super) async fn contrast(c: &Client, url: &str) -> Result<()> {
    set_viewport(c, 1280, 720).await?;
    let mut failures = Vec::new();
    for theme in ["dark", "light"] {
        for (lesson, command) in [
            ("02-election", "transitions 102 after=kill"),
            ("04-fencing", "run until=fenced=3 timeout=15s"),
            ("02-election", "sleep 15s"),
        ] {
            c.goto(&format!("{url}?lesson={lesson}&lang=en&play=0"))
                .await?;
            wait_for(
                c,
                "#lesson-panel[data-step='0']",
                &format!("lesson {lesson} did not open"),
            )
            .await?;
            c.execute(
                "localStorage.setItem('kraft-theme', arguments[0]);
                 document.documentElement.className = 'theme-' + arguments[0];
                 document.documentElement.dataset.theme = arguments[0];",
                vec![Value::from(theme)],
            )
            .await?;
            let k = step_of(c, command).await?;
            open_at(
                c,
                url,
                &format!("lesson={lesson}&lang=en&play=0&step={k}"),
                k,
            )
            .await?;
            let v = c.execute(CONTRAST_JS, vec![]).await?;
            for f in v.as_array().into_iter().flatten() {
                let ratio = f[0].as_f64().unwrap_or(0.0);
                let min = if f[2].as_str() == Some("line") {
                    3.0
                } else {
                    4.5
                };
                if ratio < min {
                    failures.push(format!(
                        "{theme} {lesson}: {} {} `{}` {ratio:.2}:1",
                        f[2].as_str().unwrap_or(""),
                        f[1].as_str().unwrap_or(""),
                        f[3].as_str().unwrap_or("")
                    ));
                }
            }
        }
    }
    c.execute("localStorage.removeItem('kraft-theme');", vec![])
        .await?;
    restore_window(c).await?;
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} below the contrast wanted: {}",
            failures.len(),
            failures.join("; ")
        )
        .into())
    }
}
