//! The page's benchmarks in headless Chromium (part of `cargo xtask bench`): the engine's speed
//! in wasm over one simulated hour of 3 controllers + 3 brokers with rewind checkpoints, the
//! wasm memory after it, the p95 time from a step click to the updated DOM, and the wasm size.

use std::path::Path;
use std::time::Duration;

use fantoccini::{Client, Locator};
use serde_json::Value;

use crate::browser::{connect, ensure_browser, Driver, PageServer};
use crate::{cpu_profile, dist, dist_dir, root_dir, Result};

/// Simulated seconds the engine benchmark runs.
const SIM_SECONDS: u64 = 3600;
/// Step clicks measured for the latency figure.
const STEP_CLICKS: usize = 200;

/// Build the page, run the benchmarks in Chromium, print the figures; with `profile`, also a
/// CPU profile of the step clicks by function.
/// With `load_only`, only the size and the load time.
pub fn run(profile: bool, load_only: bool) -> Result<()> {
    dist::build_with_names(profile)?;
    ensure_browser()?;
    let artifacts = root_dir().join("artifacts");
    std::fs::create_dir_all(&artifacts)?;
    print_wasm_size(&dist_dir())?;
    let page = PageServer::start(&dist_dir())?;
    let page_port = page.port;
    let driver = Driver::start(&artifacts)?;
    let outcome = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(async {
            let client = connect(driver.port, &driver.profile_dir).await?;
            let base = format!("http://127.0.0.1:{page_port}/");
            let r = async {
                load_time(&client, &base).await?;
                if load_only {
                    return Ok(());
                }
                engine_speed(&client, &base).await?;
                step_latency(&client, &base, profile).await?;
                stage_latency(&client, &base).await?;
                frame_rate(&client, &base).await
            }
            .await;
            let _ = client.close().await;
            r
        });
    drop(driver);
    drop(page);
    outcome
}

/// The page's files as sent by `cargo xtask serve` to a browser that accepts brotli: each
/// file's size raw and in its `.br` copy, and the total over the wire.
fn print_wasm_size(dist: &Path) -> Result<()> {
    println!("bench: the page over the wire (cargo xtask serve sends the .br copies)");
    let mut total = 0;
    for name in [
        "index.html",
        "kraft_web.js",
        crate::css::BUNDLE,
        "kraft_web_bg.wasm",
    ] {
        let raw = std::fs::metadata(dist.join(name))?.len();
        let br = std::fs::metadata(crate::compress::with_suffix(&dist.join(name), "br"))?.len();
        let gz = std::fs::metadata(crate::compress::with_suffix(&dist.join(name), "gz"))?.len();
        total += br;
        println!(
            "  {name:<20} {:>6} KB raw, {:>5} KB brotli, {:>5} KB gzip",
            raw / 1024,
            br / 1024,
            gz / 1024
        );
    }
    println!(
        "  over the wire:       {:>6} KB  (target <= 450 KB)",
        total / 1024
    );
    Ok(())
}

/// Loads of the page measured in the load-time figure (the first is a cold browser cache).
const LOADS: usize = 10;

/// Reads the time from navigation to the first drawing (the page's `kraft-first-drawing`
/// mark) and the bytes received for the page and its resources.
const LOAD_JS: &str = "
    const m = performance.getEntriesByName('kraft-first-drawing')[0];
    if (!m) return null;
    const nav = performance.getEntriesByType('navigation')[0];
    const bytes = performance.getEntriesByType('resource')
        .reduce((n, r) => n + (r.encodedBodySize || 0), nav ? nav.encodedBodySize : 0);
    return { ms: m.startTime, bytes };";

/// The time from navigation to the first drawing of lesson 02 on the stage, served locally
/// with the precompressed copies, over [`LOADS`] loads.
async fn load_time(c: &Client, base: &str) -> Result<()> {
    let mut times = Vec::new();
    let mut bytes = 0.0;
    for k in 0..LOADS {
        c.goto(&format!(
            "{base}?lesson=02-election&lang=en&present=1&step=1&play=0&load={k}"
        ))
        .await?;
        let started = std::time::Instant::now();
        let v = loop {
            let v = c.execute(LOAD_JS, vec![]).await?;
            if !v.is_null() {
                break v;
            }
            if started.elapsed() > Duration::from_secs(30) {
                return Err("the page drew nothing within 30 s".into());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        times.push(v["ms"].as_f64().unwrap_or(f64::NAN));
        if k == 0 {
            bytes = v["bytes"].as_f64().unwrap_or(0.0);
        }
    }
    let first = times[0];
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    println!("bench: load, navigation to the first drawing (lesson 02 at step 1 on the stage, served locally)");
    println!("  first load:   {first:.0} ms  (target <= 300 ms)");
    println!(
        "  median of {LOADS}: {:.0} ms, slowest {:.0} ms",
        sorted[LOADS / 2],
        sorted[LOADS - 1]
    );
    println!("  received:     {:.0} KB", bytes / 1024.0);
    Ok(())
}

async fn engine_speed(c: &Client, base: &str) -> Result<()> {
    c.goto(&format!("{base}?bench={SIM_SECONDS}")).await?;
    let el = c
        .wait()
        .at_most(Duration::from_secs(600))
        .for_element(Locator::Css("#bench"))
        .await
        .map_err(|e| format!("the in-page benchmark did not finish: {e}"))?;
    let text = el.text().await?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("#bench `{text}`: {e}"))?;
    let heap = c
        .execute(
            "return (performance.memory && performance.memory.usedJSHeapSize) || 0;",
            vec![],
        )
        .await?
        .as_f64()
        .unwrap_or(0.0);
    let mib = |b: f64| b / (1024.0 * 1024.0);
    println!("bench: engine in wasm (Chromium), 3 controllers + 3 brokers, {SIM_SECONDS} simulated s, rewind checkpoints on");
    println!("  events run:             {}", v["events"]);
    println!("  wall time:              {} ms", v["wall_ms"]);
    println!(
        "  simulated s per wall s: {}  (target >= 1000)",
        v["sim_s_per_wall_s"]
    );
    println!("  checkpoints kept:       {}", v["checkpoints"]);
    println!(
        "  with the invariant monitor (as the page's console runs it, every invariant after every event): {} ms, {} simulated s per wall s, {} broken",
        v["monitored_wall_ms"], v["monitored_sim_s_per_wall_s"], v["monitored_broken"]
    );
    if v["monitored_broken"] != 0 {
        return Err(format!("the monitor found broken invariants in the bench run: {v}").into());
    }
    println!(
        "  wasm memory at end:     {:.1} MiB, JS heap {:.1} MiB  (target <= 64 MB)",
        mib(v["wasm_memory_bytes"].as_f64().unwrap_or(0.0)),
        mib(heap)
    );
    Ok(())
}

async fn step_latency(c: &Client, base: &str, profile: bool) -> Result<()> {
    c.goto(&format!("{base}?seed=1")).await?;
    c.wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css("#btn-step"))
        .await?;
    if profile {
        cpu_profile::start(c).await?;
    }
    let (times, handler, elements) = step_clicks(c, STEP_CLICKS).await?;
    if profile {
        cpu_profile::stop_and_print(c, 30).await?;
    }
    print_latency(
        &format!("step click to updated DOM, {} clicks", times.len()),
        &times,
        &handler,
    );
    println!("  elements in the page:   {elements}");
    // Two simulated minutes more (a lecture's worth), then back to half way with the slider;
    // Step then goes forward along the rewound history.
    c.find(Locator::Css("#console-input"))
        .await?
        .send_keys(&format!("run 120s{}", fantoccini::key::Key::Enter))
        .await?;
    c.wait()
        .at_most(Duration::from_secs(60))
        .for_element(Locator::Css("#virtual-time[data-ms]"))
        .await?;
    let mut waited = 0;
    while c
        .find(Locator::Css("#virtual-time"))
        .await?
        .attr("data-ms")
        .await?
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0)
        < 120_000
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += 1;
        if waited > 600 {
            return Err("`run 120s` did not finish".into());
        }
    }
    let half = c
        .execute(
            "const s = document.querySelector('#time-slider');
             const half = Math.floor(Number(s.value) / 2);
             s.value = String(half);
             s.dispatchEvent(new Event('change', { bubbles: true }));
             return half;",
            vec![],
        )
        .await?
        .as_u64()
        .ok_or("the slider gave no event count")?;
    c.wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css("#redo-ahead"))
        .await
        .map_err(|e| format!("no ↷ after rewinding to {half} events: {e}"))?;
    let (times, handler, _) = step_clicks(c, STEP_CLICKS / 2).await?;
    print_latency(
        &format!(
            "step click after a rewind to event {half} (forward along the rewound history), {} clicks",
            times.len()
        ),
        &times,
        &handler,
    );
    Ok(())
}

/// Step clicks on the lecture stage (free play with `?present=1` at 1280×720: the drawing, the
/// log strip and one side panel: the Raft states, then each figure of issue 17 in turn).
async fn stage_latency(c: &Client, base: &str) -> Result<()> {
    crate::browser::set_viewport(c, 1280, 720).await?;
    c.goto(&format!("{base}?seed=1&present=1")).await?;
    c.wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css("#playground[data-layout='stage'] #btn-step"))
        .await?;
    let (times, handler, elements) = step_clicks(c, STEP_CLICKS).await?;
    print_latency(
        &format!(
            "step click to updated DOM on the stage at 1280x720, {} clicks",
            times.len()
        ),
        &times,
        &handler,
    );
    println!("  elements in the page:   {elements}");
    // The same with each of the figures as the side panel (redrawn on every step).
    for (tab, figure) in [
        ("sequence", "#sequence"),
        ("write", "#write-life, .stage-side .empty"),
        ("controller", "#controller-status"),
        ("brokers", "#broker-state-diagram"),
        ("states", "#state-diagram"),
    ] {
        c.find(Locator::Css(&format!("#tab-{tab}")))
            .await?
            .click()
            .await?;
        c.wait()
            .at_most(Duration::from_secs(30))
            .for_element(Locator::Css(figure))
            .await?;
        let (times, handler, _) = step_clicks(c, STEP_CLICKS).await?;
        print_latency(
            &format!(
                "step click on the stage with the {tab} panel shown, {} clicks",
                times.len()
            ),
            &times,
            &handler,
        );
    }
    Ok(())
}

/// Counts animation frames for `ms` wall ms: (frames per second, p95 frame interval ms, frames
/// over 25 ms).
const FRAMES_JS: &str = r#"
const done = arguments[arguments.length - 1];
const ms = arguments[0];
const stamps = [];
function tick(t) {
  stamps.push(t);
  if (t - stamps[0] < ms) { requestAnimationFrame(tick); } else {
    const d = [];
    for (let i = 1; i < stamps.length; i++) d.push(stamps[i] - stamps[i - 1]);
    d.sort((a, b) => a - b);
    const span = stamps[stamps.length - 1] - stamps[0];
    done([(stamps.length - 1) * 1000 / span, d[Math.floor((d.length - 1) * 0.95)], d.filter(x => x > 25).length]);
  }
}
requestAnimationFrame(tick);
"#;

async fn frames(c: &Client, ms: u64) -> Result<(f64, f64, u64)> {
    let v = c
        .execute_async(FRAMES_JS, vec![Value::from(ms)])
        .await
        .map_err(|e| format!("frame counter: {e}"))?;
    Ok((
        v[0].as_f64().unwrap_or(0.0),
        v[1].as_f64().unwrap_or(0.0),
        v[2].as_u64().unwrap_or(0),
    ))
}

/// Frames per second while time plays on the stage at 1280×720: lesson 02's kill step (its
/// election played with adaptive time), then free play at adaptive speed, 1× and 20×.
async fn frame_rate(c: &Client, base: &str) -> Result<()> {
    crate::browser::set_viewport(c, 1280, 720).await?;
    println!(
        "bench: frames per second while playing, on the stage at 1280x720  (target >= 55 fps)"
    );
    // The idle page, for comparison.
    c.goto(&format!("{base}?seed=1&present=1")).await?;
    c.wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css("#btn-play"))
        .await?;
    let (fps, p95, long) = frames(c, 2000).await?;
    println!("  nothing playing:             {fps:5.1} fps, p95 frame {p95:5.1} ms, {long} frames over 25 ms");
    for (label, speed) in [("adaptive", "0"), ("1x", "50"), ("20x", "1000")] {
        c.goto(&format!("{base}?seed=1&present=1")).await?;
        c.wait()
            .at_most(Duration::from_secs(30))
            .for_element(Locator::Css("#speed"))
            .await?;
        c.execute(
            "const s = document.getElementById('speed'); s.value = arguments[0];
             s.dispatchEvent(new Event('change', { bubbles: true }));
             document.getElementById('btn-play').click();",
            vec![Value::from(speed)],
        )
        .await?;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let (fps, p95, long) = frames(c, 5000).await?;
        println!("  free play, {label:>8}:          {fps:5.1} fps, p95 frame {p95:5.1} ms, {long} frames over 25 ms");
    }
    // Lesson 02's kill step, played: from the kill to the end of `sleep 15s`.
    let base_url = base.trim_end_matches('?');
    crate::browser::open_lesson_at(c, base_url, "lesson=02-election&lang=en", 0).await?;
    let kill = crate::browser::step_of(c, "kill -9 101").await?;
    crate::browser::open_lesson_at(
        c,
        base_url,
        &format!("lesson=02-election&lang=en&step={kill}"),
        kill,
    )
    .await?;
    c.find(Locator::Css("#lesson-next")).await?.click().await?;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let playing = c
        .execute(
            "return document.getElementById('lesson-panel').dataset.playing;",
            vec![],
        )
        .await?;
    let (fps, p95, long) = frames(c, 8000).await?;
    println!(
        "  lesson 02, kill step playing: {fps:5.1} fps, p95 frame {p95:5.1} ms, {long} frames over 25 ms (playing: {playing})"
    );
    Ok(())
}

/// Clicks Step `n` times; the times from each click to the updated `#events-run`, the click
/// handlers' times (engine + view), both sorted, and the number of elements in the page.
async fn step_clicks(c: &Client, n: usize) -> Result<(Vec<f64>, Vec<f64>, u64)> {
    // Click Step, time until #events-run shows the new count; the next click after a macrotask.
    let script = r#"
const done = arguments[arguments.length - 1];
const n = arguments[0];
const el = document.querySelector('#events-run');
const btn = document.querySelector('#btn-step');
const times = [];
const handler = [];
function one() {
  const before = el.textContent;
  const t0 = performance.now();
  const obs = new MutationObserver(() => {
    if (el.textContent !== before) {
      obs.disconnect();
      times.push(performance.now() - t0);
      if (times.length < n) { setTimeout(one, 0); } else {
        done([times, handler, document.getElementsByTagName('*').length]); }
    }
  });
  obs.observe(el, { childList: true, subtree: true, characterData: true });
  btn.click();
  handler.push(performance.now() - t0);
}
one();
"#;
    let v = c
        .execute_async(script, vec![Value::from(n)])
        .await
        .map_err(|e| format!("step latency script: {e}"))?;
    let list = |i: usize| -> Result<Vec<f64>> {
        let mut t: Vec<f64> = v[i]
            .as_array()
            .ok_or("step latency: no list of times")?
            .iter()
            .filter_map(|t| t.as_f64())
            .collect();
        if t.is_empty() {
            return Err("step latency: no samples".into());
        }
        t.sort_by(|a, b| a.total_cmp(b));
        Ok(t)
    };
    Ok((list(0)?, list(1)?, v[2].as_u64().unwrap_or_default()))
}

/// Prints the median, p95 and max of sorted `times`, and the handlers' share.
fn print_latency(title: &str, times: &[f64], handler: &[f64]) {
    let pct = |t: &[f64], p: f64| t[((t.len() - 1) as f64 * p).round() as usize];
    println!("bench: {title}");
    println!(
        "  median {:.2} ms, p95 {:.2} ms, max {:.2} ms  (target p95 <= 16 ms)",
        pct(times, 0.5),
        pct(times, 0.95),
        pct(times, 1.0)
    );
    println!(
        "  of which the click handler (engine step + view): median {:.2} ms, p95 {:.2} ms",
        pct(handler, 0.5),
        pct(handler, 0.95)
    );
}
