//! The headless-browser test: Chromium driven through chromedriver (fantoccini) against `dist/`
//! served on a free port. Run by `cargo xtask test` after the dist build.
//!
//! `driver` holds the browser plumbing and the page helpers every check uses; `checks` the
//! table of checks in the order they run, and `runner` what runs it (`KRAFT_BROWSER_ONLY`, the
//! `ok`/`FAIL` lines, the counts). The checks themselves live by area: `free_play`, `panels`,
//! `chrome` (theme, language, layout, help), `console`, `addresses`, `drawing`, `lessons`,
//! `stage`, `timeline_figure`, `write_life`, `sequence`, `changes`, `diagrams`, `rules`,
//! `single_file`, `editor`, `quiz`, `voters` (the voter set on the stage), `hw_two` (the data plane's two high watermarks); `presenter` the
//! lecturer's toolkit (presenter view, embedding, QR).

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::{dist_dir, root_dir, Result};

mod addresses;
mod changes;
mod checks;
mod chrome;
mod console;
mod diagrams;
mod drawing;
mod driver;
mod editor;
mod free_play;
mod hw_two;
mod lessons;
mod panels;
mod presenter;
mod quiz;
mod rules;
mod runner;
mod sequence;
mod single_file;
mod stage;
mod timeline_figure;
mod voters;
mod write_life;
pub(crate) use driver::{connect, ensure_browser, Driver, PageServer};
pub(crate) use stage::{open_at as open_lesson_at, set_viewport, step_of};

/// The nodes the default page shows.
const EXPECTED_NODES: [i32; 6] = [1, 2, 3, 101, 102, 103];
/// The brokers of the default page.
const EXPECTED_BROKERS: [i32; 3] = [1, 2, 3];
/// Virtual time to play before the controller and broker panels are checked.
const WARM_UP_MS: u64 = 5000;
/// Longest wall time to wait for something to show up on the page.
const WAIT_LIMIT: Duration = Duration::from_secs(30);
/// Longest wall time for the whole browser session (every check takes about 210 s on a loaded
/// 2-core machine: a hang guard, not a speed target).
const SESSION_LIMIT: Duration = Duration::from_secs(420);

/// Runs the browser test; `Err` when a check failed or the browser could not be driven.
pub fn run() -> Result<()> {
    let started = Instant::now();
    ensure_browser()?;
    let artifacts = root_dir().join("artifacts");
    fs::create_dir_all(&artifacts)?;
    let dist = dist_dir();
    if !dist.join("index.html").exists() {
        return Err("dist/ is not built".into());
    }

    // The single file is made from this dist/, so it holds the page under test.
    crate::single_file::write(&dist)?;
    let page = PageServer::start(&dist)?;
    let page_port = page.port;

    // chromedriver, killed when `driver` is dropped (also on every error path).
    let driver = Driver::start(&artifacts)?;
    let outcome = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(async {
            tokio::time::timeout(
                SESSION_LIMIT,
                session(driver.port, page_port, &driver.profile_dir, &artifacts),
            )
            .await
            .unwrap_or_else(|_| {
                Err(format!("the browser session took longer than {SESSION_LIMIT:?}").into())
            })
        });
    drop(driver);
    drop(page);
    println!("browser step took {:.1} s", started.elapsed().as_secs_f64());
    outcome
}

/// Connects to chromedriver, runs the checks, closes the browser.
async fn session(
    driver_port: u16,
    page_port: u16,
    profile_dir: &Path,
    artifacts: &Path,
) -> Result<()> {
    let client = connect(driver_port, profile_dir).await?;
    let url = format!("http://127.0.0.1:{page_port}/");
    let mut s = runner::Session::new(client.clone(), url, artifacts);
    let result = runner::run(checks::CHECKS, &mut s).await;
    let _ = client.close().await;
    result
}
