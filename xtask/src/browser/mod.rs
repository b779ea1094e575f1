//! The headless-browser test: Chromium driven through chromedriver (fantoccini) against `dist/`
//! served on a free port. Run by `cargo xtask test` after the dist build.

use std::fs;
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

use crate::{dist_dir, root_dir, run as run_cmd, serve, Result};

mod lessons;
mod stage;
pub(crate) use stage::{open_at as open_lesson_at, set_viewport, step_of};

use lessons::{
    lesson_election, lesson_fencing, lesson_goes_back, lesson_metadata_log, lesson_timeline_panel,
    lesson_timeline_to_the_end, wait_for_step,
};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// The nodes the default page shows.
const EXPECTED_NODES: [i32; 6] = [1, 2, 3, 101, 102, 103];
/// The brokers of the default page.
const EXPECTED_BROKERS: [i32; 3] = [1, 2, 3];
/// Virtual time to play before the controller and broker panels are checked.
const WARM_UP_MS: u64 = 5000;
/// Longest wall time to wait for something to show up on the page.
const WAIT_LIMIT: Duration = Duration::from_secs(30);
/// Longest wall time for the whole browser session.
const SESSION_LIMIT: Duration = Duration::from_secs(180);

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

/// `dist/` served on a free port of 127.0.0.1 from a thread, stopped when dropped.
pub(crate) struct PageServer {
    server: Arc<tiny_http::Server>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// The port the page is on.
    pub(crate) port: u16,
}

impl PageServer {
    pub(crate) fn start(dist: &Path) -> Result<Self> {
        let server = Arc::new(
            tiny_http::Server::http("127.0.0.1:0")
                .map_err(|e| format!("cannot start the file server: {e}"))?,
        );
        let port = server
            .server_addr()
            .to_ip()
            .map(|a| a.port())
            .ok_or("file server has no IP address")?;
        let thread = {
            let server = Arc::clone(&server);
            let dist = dist.to_path_buf();
            std::thread::spawn(move || serve::serve(&server, &dist))
        };
        Ok(PageServer {
            server,
            thread: Some(thread),
            port,
        })
    }
}

impl Drop for PageServer {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Installs Chromium and chromedriver with apt when either is missing.
pub(crate) fn ensure_browser() -> Result<()> {
    if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
        return Ok(());
    }
    println!("installing chromium and chromium-driver with apt-get");
    let as_root = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false);
    let apt = |args: &[&str]| {
        let mut cmd = if as_root {
            Command::new("apt-get")
        } else {
            let mut c = Command::new("sudo");
            c.arg("apt-get");
            c
        };
        cmd.args(args).env("DEBIAN_FRONTEND", "noninteractive");
        run_cmd(&mut cmd)
    };
    apt(&["update"])?;
    apt(&[
        "install",
        "-y",
        "--no-install-recommends",
        "chromium",
        "chromium-driver",
    ])?;
    if !Path::new(CHROMIUM).exists() || !Path::new(CHROMEDRIVER).exists() {
        return Err(format!(
            "apt-get installed chromium but {CHROMIUM} or {CHROMEDRIVER} is still missing"
        )
        .into());
    }
    Ok(())
}

/// A running chromedriver and the fresh Chromium profile directory it will use.
pub(crate) struct Driver {
    child: Child,
    pub(crate) port: u16,
    pub(crate) profile_dir: PathBuf,
}

impl Driver {
    pub(crate) fn start(artifacts: &Path) -> Result<Self> {
        let port = free_port()?;
        let log = fs::File::create(artifacts.join("chromedriver.log"))?;
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            // Its own process group, so that Chromium, its child, goes down with it.
            .process_group(0)
            .stdout(Stdio::from(log.try_clone()?))
            .stderr(Stdio::from(log))
            .spawn()
            .map_err(|e| format!("cannot start {CHROMEDRIVER}: {e}"))?;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let profile_dir =
            std::env::temp_dir().join(format!("kraft-chromium-{}-{nanos}", std::process::id()));
        let mut driver = Driver {
            child,
            port,
            profile_dir,
        };
        let deadline = Instant::now() + Duration::from_secs(15);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = driver.child.try_wait() {
                return Err(format!(
                    "chromedriver exited at start ({status}); see artifacts/chromedriver.log"
                )
                .into());
            }
            if Instant::now() > deadline {
                return Err("chromedriver did not listen within 15 s".into());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(driver)
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The whole group we started: chromedriver and any Chromium it left behind.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = fs::remove_dir_all(&self.profile_dir);
    }
}

fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
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
    let result = checks(&client, &url, artifacts).await;
    let _ = client.close().await;
    result
}

/// A headless Chromium session through chromedriver on `driver_port`.
pub(crate) async fn connect(driver_port: u16, profile_dir: &Path) -> Result<Client> {
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1600,1700",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain(std::iter::once(format!(
        "--user-data-dir={}",
        profile_dir.display()
    )))
    .collect::<Vec<_>>();
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("chrome"));
    caps.insert(
        "goog:chromeOptions".into(),
        json!({ "binary": CHROMIUM, "args": args }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{driver_port}"))
        .await
        .map_err(|e| format!("cannot open a Chromium session through chromedriver: {e}"))?;
    Ok(client)
}

/// The checks, in order; once one fails the rest are skipped (they build on each other).
async fn checks(c: &Client, url: &str, artifacts: &Path) -> Result<()> {
    let mut t = Tally::default();
    t.check(
        "page loads without panic or script error",
        page_loads(c, url),
    )
    .await;
    if t.ok() {
        t.check(
            "first visit: a card offers lesson 02, free play and the keys; Free play dismisses it for good; Lesson 02 opens the lesson on the stage",
            first_visit(c, url),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "shows controllers 101, 102, 103 and brokers 1, 2, 3",
            shows_nodes(c),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "theme toggle switches the class on <html> and the choice survives a reload",
            theme_toggle(c, artifacts),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "한국어 / English switch the controls' and panels' labels",
            ui_language(c),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "the splitter widens the cluster column, A+ enlarges the text; both survive a reload",
            layout_controls(c),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "`?` opens the keyboard help, Escape and its close button close it",
            keyboard_help(c, &artifacts.join("help.png")),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "step runs one event and says what it ran",
            step_runs_one_event(c),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "step back returns to the state one event earlier",
            step_back_rewinds(c),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "free-play keys: ← ← ← back three events, → → → forward again along what happened to the same view; ↷ shows what is ahead",
            keys_back_and_forward(c),
        )
        .await;
    }
    let mut leader = None;
    if t.ok() {
        leader = t
            .check(
                "play elects a leader with epoch >= 1",
                play_elects_leader(c),
            )
            .await;
    }
    if leader.is_some() {
        leader = t
            .check(
                "after 5 s the controller panel shows the active controller deferring writeNoOpRecord",
                controller_panel_shows_active(c),
            )
            .await;
    }
    if leader.is_some() {
        t.check(
            "the broker panel shows brokers 1, 2, 3 RUNNING and unfenced, their heartbeats (2 s apart once running) on a timeline against the 9 s session",
            brokers_running(c),
        )
        .await;
    }
    if let (true, Some((leader_id, _))) = (t.ok(), leader) {
        t.check(
            "the HW panel shows the leader's sorted voters, the index size/2 and the log's HW",
            hw_panel_matches(c, leader_id),
        )
        .await;
    }
    if let (true, Some((leader_id, _))) = (t.ok(), leader) {
        t.check(
            "timer arcs: check-quorum around the leader, fetch around the followers, each broker's session on the active controller",
            timer_arcs(c, leader_id),
        )
        .await;
        if t.ok() {
            screenshot(c, &artifacts.join("panels.png")).await;
            element_screenshot(c, "#broker-panel", &artifacts.join("broker-panel.png")).await;
        }
    }
    if let (true, Some((active_id, _))) = (t.ok(), leader) {
        t.check(
            "a controller tab shows a standby controller, the active tab follows the active one",
            controller_tabs(c, active_id),
        )
        .await;
    }
    let mut new_leader = None;
    if let (true, Some((old_id, old_epoch))) = (t.ok(), leader) {
        new_leader = t
            .check(
                "kill -9 of the leader elects a new leader with a higher epoch",
                failover(c, old_id, old_epoch),
            )
            .await;
    }
    if let (Some((old_id, _)), Some(_)) = (leader, new_leader) {
        let became_active = t
            .check(
                "after kill -9 of the active controller another controller becomes active",
                another_controller_active(c, old_id),
            )
            .await;
        if became_active.is_some() {
            screenshot(c, &artifacts.join("page.png")).await;
        }
    }
    if let (Some((old_id, _)), Some((new_id, new_epoch))) = (leader, new_leader) {
        t.check(
            "restart rejoins the old leader as a follower",
            restart_rejoins(c, old_id, new_id, new_epoch),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "isolate cuts the leader off, a new leader is elected; heal brings it back as a follower",
            isolate_and_heal(c),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "clicking a node opens its menu: STOP, CONT, kill -9 and restart of a follower from it; Escape and a second click close it",
            node_menu(c, &artifacts.join("node-menu.png")),
        )
        .await;
    }
    if t.ok() {
        t.check("the log tail filters by file and text", log_filter(c))
            .await;
    }
    if t.ok() {
        t.check("no panic or script error during the run", no_errors(c))
            .await;
    }
    if t.ok() {
        t.check(
            "lesson 01-metadata-log: node 1 leads epoch 1, the log panel's HW is the tool's HighWatermark",
            lesson_metadata_log(c, url, &artifacts.join("lesson-01.png")),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "lesson 04-fencing: broker 3 stopped and fenced at that step, unfenced at the end; back and forward match; the MetadataImage tree shows the fencing records applied",
            lesson_fencing(c, url, &artifacts.join("lesson-04.png")),
        )
        .await;
    }
    let mut timeline = None;
    if t.ok() {
        timeline = t
            .check(
                "lesson 03-timeline (en): Right arrow runs every step and shows its outputs",
                lesson_timeline_to_the_end(c, url),
            )
            .await;
    }
    if let (true, Some(outputs)) = (t.ok(), timeline) {
        t.check(
            "Left arrow goes back one step and shows its output again; Home, Space, jump to a step; not under the help",
            lesson_goes_back(c, &outputs, &artifacts.join("lesson.png")),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "lesson 03 in the TimelineHashMap panel: the map, the snapshots, the tiers' saved values, reading as of 10 and 11, the revert to 11",
            lesson_timeline_panel(c, url, &artifacts.join("timeline-panel.png")),
        )
        .await;
    }
    if t.ok() && has_election_lesson() {
        t.check(
            "lesson 02-election to the end: 102 leads with epoch 2, 101 is killed",
            lesson_election(c, url, &artifacts.join("lesson-election.png")),
        )
        .await;
        if t.ok() {
            t.check(
                "after lesson 02 the state diagram of 102 lights Leader, Candidate → Leader last (animated)",
                state_diagram_leader(c, &artifacts.join("state-diagram.png")),
            )
            .await;
        }
    }
    if t.ok() && has_election_lesson() {
        t.check(
            "lesson 02 played: after kill -9 101 the drawing shows 102 Prospective → Candidate → Leader and 103 Prospective → Unattached (voted 102) → Follower, a 10-20 s story",
            stage::lesson_election_played(c, url, &artifacts.join("stage-election.png")),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "every step of every lesson, and free play on the stage while it plays, fits 1280x720 and 1920x1080: the drawing and what the step lights on screen, no page scrolling, no label over a node, no two nodes' arcs touching, no text under 16 px at 1280x720",
            stage::every_step_fits(c, url, artifacts),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "the header's Projector preset sets the light theme and 24 px text",
            stage::projector_preset(c, url),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "contrast on the stage, both themes: text at least 4.5:1, lines at least 3:1",
            stage::contrast(c, url),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "free play: `status` typed into the console prints the status table",
            console_status(c, url),
        )
        .await;
    }
    let mut replayed = None;
    if t.ok() {
        replayed = t
            .check(
                "an address with cmds= replays frames, commands and a kill to the same world after reload",
                url_replays_commands(c, url),
            )
            .await;
    }
    if let (true, Some(seen)) = (t.ok(), replayed) {
        t.check(
            "a bare address restores the session kept in localStorage; Start fresh forgets it",
            bare_address_restores(c, url, &seen, &artifacts.join("restored.png")),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "bad step= and cmds= values show an error, a good step= opens that step",
            bad_url_values(c, url),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "messages move along their links, one label per link; fetch and heartbeats as steady links (the legend turns Fetch labels on); a dropped answer fails the link; a request to a killed node is drawn failing at it",
            messages_in_flight(c, url, &artifacts.join("messages.png")),
        )
        .await;
    }
    if !t.ok() {
        screenshot(c, &artifacts.join("page-failure.png")).await;
    }
    let skipped = checks_total().saturating_sub(t.passed + t.failed);
    println!(
        "browser: {} passed, {} failed{}",
        t.passed,
        t.failed,
        if skipped > 0 {
            format!(", {skipped} skipped")
        } else {
            String::new()
        }
    );
    if t.ok() {
        Ok(())
    } else {
        Err(format!(
            "{} browser check(s) failed, {skipped} skipped (screenshot: artifacts/page-failure.png)",
            t.failed
        )
        .into())
    }
}

/// The checks run when every one passes (the 02-election check only when that lesson exists).
fn checks_total() -> usize {
    35 + 3 * usize::from(has_election_lesson())
}

fn has_election_lesson() -> bool {
    root_dir().join("lessons/02-election.lesson").exists()
}

#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
}

impl Tally {
    fn ok(&self) -> bool {
        self.failed == 0
    }

    async fn check<T>(
        &mut self,
        name: &str,
        f: impl std::future::Future<Output = Result<T>>,
    ) -> Option<T> {
        let started = Instant::now();
        match f.await {
            Ok(v) => {
                self.passed += 1;
                println!("  ok   {name} ({:.2} s)", started.elapsed().as_secs_f64());
                Some(v)
            }
            Err(e) => {
                self.failed += 1;
                println!(
                    "  FAIL {name} ({:.2} s): {e}",
                    started.elapsed().as_secs_f64()
                );
                None
            }
        }
    }
}

async fn screenshot(c: &Client, path: &Path) {
    let _ = c.execute("window.scrollTo(0, 0);", vec![]).await;
    match c.screenshot().await {
        Ok(png) => match fs::write(path, png) {
            Ok(()) => println!("  screenshot: {}", path.display()),
            Err(e) => println!("  cannot write {}: {e}", path.display()),
        },
        Err(e) => println!("  cannot take a screenshot: {e}"),
    }
}

/// Saves a PNG of the element `css` alone (scrolled into view), reporting failures but not
/// failing the check.
async fn element_screenshot(c: &Client, css: &str, path: &Path) {
    let shot = match c.find(Locator::Css(css)).await {
        Ok(e) => {
            let _ = c
                .execute(
                    "arguments[0].scrollIntoView({block: 'start'});",
                    vec![serde_json::to_value(&e).unwrap_or_default()],
                )
                .await;
            e.screenshot().await
        }
        Err(e) => {
            println!("  no `{css}` to take a screenshot of: {e}");
            return;
        }
    };
    match shot {
        Ok(png) => match fs::write(path, png) {
            Ok(()) => println!("  screenshot: {}", path.display()),
            Err(e) => println!("  cannot write {}: {e}", path.display()),
        },
        Err(e) => println!("  cannot take a screenshot of `{css}`: {e}"),
    }
}

/// Errors the page reported: the `#panic` element and `window.kraftErrors` (set up by index.html).
async fn page_errors(c: &Client) -> Result<Vec<String>> {
    let v = c
        .execute(
            "const p = document.getElementById('panic');
             return (window.kraftErrors || []).concat(p ? [p.textContent] : []);",
            vec![],
        )
        .await?;
    Ok(v.as_array()
        .map(|a| {
            a.iter()
                .map(|e| e.as_str().unwrap_or("?").to_string())
                .collect()
        })
        .unwrap_or_default())
}

async fn no_errors(c: &Client) -> Result<()> {
    let errors = page_errors(c).await?;
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("page errors: {errors:?}").into())
    }
}

async fn page_loads(c: &Client, url: &str) -> Result<()> {
    c.goto(url).await?;
    let found = c
        .wait()
        .at_most(WAIT_LIMIT)
        .for_element(Locator::Css("#playground[data-ready='true']"))
        .await;
    no_errors(c).await?;
    found.map_err(|e| format!("#playground did not appear: {e}"))?;
    Ok(())
}

/// The first-visit card on a bare address: its three choices; Free play dismisses it and it
/// does not come back after a reload; in a fresh browser, its lesson button opens lesson 02.
async fn first_visit(c: &Client, url: &str) -> Result<()> {
    c.wait()
        .at_most(WAIT_LIMIT)
        .for_element(Locator::Css("#welcome"))
        .await
        .map_err(|e| format!("no first-visit card on a bare address: {e}"))?;
    for id in ["#welcome-lesson", "#welcome-free", "#welcome-keys"] {
        c.find(Locator::Css(id))
            .await
            .map_err(|e| format!("the first-visit card has no {id}: {e}"))?;
    }
    click(c, "#welcome-lesson").await?;
    c.wait()
        .at_most(WAIT_LIMIT)
        .for_element(Locator::Css(
            "#playground[data-layout='stage'] #lesson-panel[data-lesson='02-election']",
        ))
        .await
        .map_err(|e| {
            format!("the card's lesson button did not open lesson 02 on the stage: {e}")
        })?;
    // Gone for good: forget it, then dismiss it with Free play, reload.
    c.execute(
        "localStorage.removeItem('kraft-visited'); localStorage.removeItem('kraft-session');",
        vec![],
    )
    .await?;
    c.goto(url).await?;
    c.wait()
        .at_most(WAIT_LIMIT)
        .for_element(Locator::Css("#welcome"))
        .await
        .map_err(|e| format!("the card did not come back once forgotten: {e}"))?;
    click(c, "#welcome-free").await?;
    wait_gone(c, "#welcome", "the first-visit card").await?;
    reload(c).await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    if c.find(Locator::Css("#welcome")).await.is_ok() {
        return Err("the first-visit card came back after a reload".into());
    }
    no_errors(c).await
}

/// One node as the diagram shows it.
#[derive(Debug, Clone)]
struct NodeSeen {
    id: i32,
    role: String,
    epoch: i32,
    process: String,
    leader_id: Option<i32>,
}

async fn nodes(c: &Client) -> Result<Vec<NodeSeen>> {
    let v = c
        .execute(
            "return Array.from(document.querySelectorAll('#cluster [data-node-id]')).map(e => ({
                id: e.dataset.nodeId, role: e.dataset.role, epoch: e.dataset.epoch,
                process: e.dataset.process, leader: e.dataset.leaderId }));",
            vec![],
        )
        .await?;
    let str_of = |n: &Value, k: &str| n.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    v.as_array()
        .ok_or("no node list")?
        .iter()
        .map(|n| {
            Ok(NodeSeen {
                id: str_of(n, "id")
                    .parse()
                    .map_err(|_| format!("bad data-node-id in {n}"))?,
                role: str_of(n, "role"),
                epoch: str_of(n, "epoch")
                    .parse()
                    .map_err(|_| format!("bad data-epoch in {n}"))?,
                process: str_of(n, "process"),
                leader_id: str_of(n, "leader").parse().ok(),
            })
        })
        .collect()
}

async fn shows_nodes(c: &Client) -> Result<()> {
    let mut ids: Vec<i32> = nodes(c).await?.iter().map(|n| n.id).collect();
    ids.sort_unstable();
    if ids == EXPECTED_NODES {
        Ok(())
    } else {
        Err(format!("expected nodes {EXPECTED_NODES:?}, saw {ids:?}").into())
    }
}

async fn text_of(c: &Client, css: &str) -> Result<String> {
    Ok(c.find(Locator::Css(css)).await?.text().await?)
}

async fn events_run(c: &Client) -> Result<u64> {
    let t = text_of(c, "#events-run").await?;
    t.trim()
        .parse()
        .map_err(|_| format!("#events-run is `{t}`").into())
}

async fn click(c: &Client, css: &str) -> Result<()> {
    c.find(Locator::Css(css))
        .await
        .map_err(|e| format!("no `{css}`: {e}"))?
        .click()
        .await
        .map_err(|e| format!("cannot click `{css}`: {e}").into())
}

/// Polls `f` every 50 ms until it gives `Some`, for at most [`WAIT_LIMIT`].
async fn wait_until<T, F, Fut>(what: &str, mut f: F) -> Result<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<Option<T>>>,
{
    let deadline = Instant::now() + WAIT_LIMIT;
    loop {
        if let Some(v) = f().await? {
            return Ok(v);
        }
        if Instant::now() > deadline {
            return Err(format!("timed out after {WAIT_LIMIT:?} waiting for {what}").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn step_runs_one_event(c: &Client) -> Result<()> {
    let before = events_run(c).await?;
    click(c, "#btn-step").await?;
    let after = wait_until("#events-run to change", || async {
        let n = events_run(c).await?;
        Ok((n != before).then_some(n))
    })
    .await?;
    if after != before + 1 {
        return Err(format!("events run went from {before} to {after}, not by one").into());
    }
    // It says what it ran: a delivery, a node's poll, a controller's event.
    let said = text_of(c, "#just-ran").await?;
    // `just ran: [1234 ms] deliver FetchRequest 102 -> 101 ...`
    let what = said.split_once(':').map_or("", |(_, w)| w.trim());
    let what = what.split_once("] ").map_or(what, |(_, w)| w);
    if !["deliver ", "wake ", "resume ", "controller "]
        .iter()
        .any(|p| what.starts_with(p))
    {
        return Err(format!("#just-ran says `{said}`").into());
    }
    Ok(())
}

/// Steps three events, then Back: the events count, the node log rows and the drawing's nodes
/// are those of the state two steps in (a checkpoint and a deterministic replay in the engine).
async fn step_back_rewinds(c: &Client) -> Result<()> {
    let mut states = Vec::new();
    for _ in 0..3 {
        let before = events_run(c).await?;
        click(c, "#btn-step").await?;
        wait_until("a step", || async {
            Ok((events_run(c).await? != before).then_some(()))
        })
        .await?;
        states.push(free_play_seen(c).await?);
    }
    click(c, "#btn-step-back").await?;
    let want = states[1].0;
    wait_until("the step back", || async {
        Ok((events_run(c).await? == want).then_some(()))
    })
    .await?;
    let now = free_play_seen(c).await?;
    if now != states[1] {
        return Err(format!(
            "after Back the page shows {:?}, two steps in it showed {:?}",
            now.0, states[1].0
        )
        .into());
    }
    Ok(())
}

/// The events count, the node log rows and the drawing's nodes: what going back and forward
/// must give again.
async fn free_play_seen(c: &Client) -> Result<(u64, Vec<String>, String)> {
    let mut rows = Vec::new();
    for el in c.find_all(Locator::Css(".node-log")).await? {
        rows.push(el.text().await?);
    }
    Ok((events_run(c).await?, rows, format!("{:?}", nodes(c).await?)))
}

/// The `↷ N` notice of how far going forward can replay, if shown: its end event count.
async fn redo_end(c: &Client) -> Result<Option<u64>> {
    let found = c.find_all(Locator::Css("#redo-ahead")).await?;
    match found.first() {
        Some(el) => Ok(el.attr("data-end").await?.and_then(|v| v.parse().ok())),
        None => Ok(None),
    }
}

/// In free play ← goes back one event and → forward again: three back show `↷` with the
/// present as its end; three forward give the view there was, and the notice goes.
async fn keys_back_and_forward(c: &Client) -> Result<()> {
    // Start from the end of what happened (an earlier check may have rewound).
    if let Some(end) = redo_end(c).await? {
        while events_run(c).await? < end {
            let before = events_run(c).await?;
            press(c, Key::Right).await?;
            wait_until("→ to go forward", || async {
                Ok((events_run(c).await? > before).then_some(()))
            })
            .await?;
        }
    }
    let start = free_play_seen(c).await?;
    for k in 1..=3u64 {
        press(c, Key::Left).await?;
        wait_until("← to go back one event", || async {
            Ok((events_run(c).await? == start.0 - k).then_some(()))
        })
        .await?;
    }
    if redo_end(c).await? != Some(start.0) {
        return Err(format!(
            "after three ← the page shows ↷ to {:?}, wanted {}",
            redo_end(c).await?,
            start.0
        )
        .into());
    }
    for k in (0..3u64).rev() {
        press(c, Key::Right).await?;
        wait_until("→ to go forward one event", || async {
            Ok((events_run(c).await? == start.0 - k).then_some(()))
        })
        .await?;
    }
    let end = free_play_seen(c).await?;
    if end != start {
        return Err(format!(
            "after ← ← ← → → → the page shows {:?} events, it showed {:?}",
            end.0, start.0
        )
        .into());
    }
    if let Some(e) = redo_end(c).await? {
        return Err(format!("at the end the page still shows ↷ to {e}").into());
    }
    no_errors(c).await
}

/// On a controller's tail: `controller.log` shows only the controller loggers' lines, a text
/// filter only lines with the text, and `all` everything again.
async fn log_filter(c: &Client) -> Result<()> {
    click(c, "#tail-node-101").await?;
    let lines = |t: String| t.lines().map(str::to_string).collect::<Vec<_>>();
    let all = lines(text_of(c, "#log-tail").await?);
    c.find(Locator::Css("#log-file"))
        .await?
        .select_by_value("controller.log")
        .await?;
    let ctl = wait_until("the controller.log filter", || async {
        let l = lines(text_of(c, "#log-tail").await?);
        Ok((l != all).then_some(l))
    })
    .await?;
    if ctl.is_empty()
        || !ctl
            .iter()
            .all(|l| l.contains("(org.apache.kafka.controller."))
    {
        return Err(format!("controller.log filter shows {:?}", ctl.first()).into());
    }
    c.find(Locator::Css("#log-file"))
        .await?
        .select_by_value("all")
        .await?;
    c.find(Locator::Css("#log-grep"))
        .await?
        .send_keys("RaftManager")
        .await?;
    let grep = wait_until("the text filter", || async {
        let l = lines(text_of(c, "#log-tail").await?);
        Ok((!l.is_empty() && l.iter().all(|x| x.contains("RaftManager"))).then_some(l))
    })
    .await?;
    if grep.len() >= all.len() {
        return Err("the text filter kept every line".into());
    }
    c.find(Locator::Css("#log-grep")).await?.clear().await?;
    Ok(())
}

async fn set_speed(c: &Client, ms: &str) -> Result<()> {
    c.find(Locator::Css("#speed"))
        .await?
        .select_by_value(ms)
        .await?;
    Ok(())
}

async fn set_playing(c: &Client, playing: bool) -> Result<()> {
    let now = c
        .find(Locator::Css("#btn-play"))
        .await?
        .attr("data-playing")
        .await?;
    if now.as_deref() != Some(if playing { "true" } else { "false" }) {
        click(c, "#btn-play").await?;
    }
    Ok(())
}

fn leader_of(nodes: &[NodeSeen]) -> Option<(i32, i32)> {
    nodes
        .iter()
        .find(|n| n.role == "Leader" && n.process == "running")
        .map(|n| (n.id, n.epoch))
}

async fn play_elects_leader(c: &Client) -> Result<(i32, i32)> {
    // 250 virtual ms per 50 ms frame: five times real time, so the test stays short.
    set_speed(c, "250").await?;
    set_playing(c, true).await?;
    let (id, epoch) = wait_until("a leader", || async { Ok(leader_of(&nodes(c).await?)) }).await?;
    set_playing(c, false).await?;
    if epoch < 1 {
        return Err(format!("leader {id} has epoch {epoch}").into());
    }
    if !(101..=103).contains(&id) {
        return Err(format!("leader {id} is not a controller").into());
    }
    Ok((id, epoch))
}

async fn failover(c: &Client, old_id: i32, old_epoch: i32) -> Result<(i32, i32)> {
    click(c, &format!("#btn-kill-{old_id}")).await?;
    wait_until("the killed node to show as killed", || async {
        Ok(nodes(c)
            .await?
            .iter()
            .any(|n| n.id == old_id && n.process == "killed")
            .then_some(()))
    })
    .await?;
    set_playing(c, true).await?;
    let found = wait_until("a new leader", || async {
        Ok(leader_of(&nodes(c).await?).filter(|&(id, epoch)| id != old_id && epoch > old_epoch))
    })
    .await;
    set_playing(c, false).await?;
    found
}

async fn restart_rejoins(c: &Client, old_id: i32, new_id: i32, new_epoch: i32) -> Result<()> {
    click(c, &format!("#btn-restart-{old_id}")).await?;
    play_until_following(c, old_id, new_id, new_epoch).await
}

/// Plays until node `id` runs as a follower of `leader` in epoch `epoch` or later, then pauses.
async fn play_until_following(c: &Client, id: i32, leader: i32, epoch: i32) -> Result<()> {
    set_playing(c, true).await?;
    let found = wait_until(&format!("{id} to follow leader {leader}"), || async {
        Ok(nodes(c)
            .await?
            .iter()
            .any(|n| {
                n.id == id
                    && n.process == "running"
                    && n.role == "Follower"
                    && n.leader_id == Some(leader)
                    && n.epoch >= epoch
            })
            .then_some(()))
    })
    .await;
    set_playing(c, false).await?;
    found
}

/// The process table's `isolate` partitions the leader from every other node: the others elect
/// a leader in a higher epoch; `heal network` ends the partition and the old leader follows the
/// new one.
async fn isolate_and_heal(c: &Client) -> Result<()> {
    let (old_id, old_epoch) = leader_of(&nodes(c).await?).ok_or("no leader before isolating it")?;
    click(c, &format!("#btn-isolate-{old_id}")).await?;
    set_playing(c, true).await?;
    let found = wait_until("a new leader while the old one is isolated", || async {
        Ok(leader_of(&nodes(c).await?).filter(|&(id, epoch)| id != old_id && epoch > old_epoch))
    })
    .await;
    set_playing(c, false).await?;
    let (new_id, new_epoch) = found?;
    click(c, "#btn-heal").await?;
    play_until_following(c, old_id, new_id, new_epoch).await?;
    no_errors(c).await
}

/// Waits until node `id` shows process `process` in the drawing and in its open menu.
async fn menu_shows(c: &Client, id: i32, process: &str) -> Result<()> {
    wait_until(
        &format!("node {id} {process} in the drawing and its menu"),
        || async {
            let drawn = nodes(c)
                .await?
                .iter()
                .any(|n| n.id == id && n.process == process);
            let menu = c
                .find_all(Locator::Css(&format!(
                    "#node-menu[data-node-id='{id}'][data-process='{process}']"
                )))
                .await?;
            Ok((drawn && !menu.is_empty()).then_some(()))
        },
    )
    .await
}

/// Waits until `what` has removed every element matching `css` (a menu, an overlay).
async fn wait_gone(c: &Client, css: &str, what: &str) -> Result<()> {
    wait_until(&format!("{what} to close {css}"), || async {
        Ok(c.find_all(Locator::Css(css))
            .await?
            .is_empty()
            .then_some(()))
    })
    .await
}

/// Whether the menu's button `css` is enabled.
async fn enabled(c: &Client, css: &str) -> Result<bool> {
    let b = c
        .find(Locator::Css(css))
        .await
        .map_err(|e| format!("no `{css}`: {e}"))?;
    Ok(b.attr("disabled").await?.is_none())
}

/// Clicking a follower opens its menu in the middle of the ring; STOP, CONT, kill -9 and
/// restart from the menu drive the process (each button enabled only when it applies); Escape
/// closes the menu, and so does a second click on the node.
async fn node_menu(c: &Client, shot: &Path) -> Result<()> {
    let seen = nodes(c).await?;
    let (leader, _) = leader_of(&seen).ok_or("no leader before the node menu")?;
    let id = seen
        .iter()
        .find(|n| n.id != leader && n.process == "running" && n.role == "Follower")
        .map(|n| n.id)
        .ok_or("no running follower for the node menu")?;
    click(c, &format!("#node-{id} .shape")).await?;
    menu_shows(c, id, "running").await?;
    let want = [
        ("stop", true),
        ("cont", false),
        ("kill", true),
        ("restart", false),
    ];
    for (name, on) in want {
        if enabled(c, &format!("#menu-{name}-{id}")).await? != on {
            return Err(format!("menu of running node {id}: {name} enabled should be {on}").into());
        }
    }
    click(c, &format!("#menu-stop-{id}")).await?;
    menu_shows(c, id, "stopped").await?;
    if !enabled(c, &format!("#menu-cont-{id}")).await? {
        return Err(format!("CONT is disabled in the menu of stopped node {id}").into());
    }
    click(c, &format!("#menu-cont-{id}")).await?;
    menu_shows(c, id, "running").await?;
    click(c, &format!("#menu-kill-{id}")).await?;
    menu_shows(c, id, "killed").await?;
    screenshot(c, shot).await;
    click(c, &format!("#menu-restart-{id}")).await?;
    menu_shows(c, id, "running").await?;
    c.find(Locator::Css("#node-menu-close"))
        .await?
        .send_keys(&Key::Escape.to_string())
        .await?;
    wait_gone(c, "#node-menu", "Escape").await?;
    click(c, &format!("#node-{id} .shape")).await?;
    menu_shows(c, id, "running").await?;
    click(c, &format!("#node-{id} .shape")).await?;
    wait_gone(c, "#node-menu", "a second click").await?;
    let (new_leader, _) = leader_of(&nodes(c).await?).ok_or("no leader after the node menu")?;
    if new_leader != leader {
        return Err(format!("the leader moved from {leader} to {new_leader}").into());
    }
    no_errors(c).await
}

async fn virtual_time_ms(c: &Client) -> Result<u64> {
    let ms = c
        .find(Locator::Css("#virtual-time"))
        .await?
        .attr("data-ms")
        .await?
        .unwrap_or_default();
    ms.parse()
        .map_err(|_| format!("#virtual-time has data-ms `{ms}`").into())
}

/// What the controller panel shows.
#[derive(Debug)]
struct ControllerSeen {
    node_id: Option<i32>,
    active: bool,
    status: String,
    queue: Vec<String>,
    deferred: Vec<String>,
    snapshot_epochs: usize,
}

async fn controller_panel(c: &Client) -> Result<ControllerSeen> {
    let v = c
        .execute(
            "const p = document.getElementById('controller-panel');
             if (!p) return null;
             const names = (css) => Array.from(p.querySelectorAll(css)).map(e => e.dataset.name);
             const status = p.querySelector('#controller-status');
             return { node: p.dataset.nodeId, active: p.dataset.active,
                      status: status ? status.textContent : '',
                      queue: names('.event-queue li'), deferred: names('.deferred li'),
                      epochs: p.querySelectorAll('#snapshot-epochs .chip').length };",
            vec![],
        )
        .await?;
    if v.is_null() {
        return Err("there is no #controller-panel".into());
    }
    let strs = |k: &str| -> Vec<String> {
        v.get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|e| e.as_str().unwrap_or("?").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    let str_of = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    Ok(ControllerSeen {
        node_id: str_of("node").parse().ok(),
        active: str_of("active") == "true",
        status: str_of("status"),
        queue: strs("queue"),
        deferred: strs("deferred"),
        snapshot_epochs: v.get("epochs").and_then(Value::as_u64).unwrap_or(0) as usize,
    })
}

/// Plays until virtual time reaches `ms`, then pauses.
async fn play_until(c: &Client, ms: u64) -> Result<()> {
    set_playing(c, true).await?;
    let reached = wait_until(&format!("virtual time {ms} ms"), || async {
        Ok((virtual_time_ms(c).await? >= ms).then_some(()))
    })
    .await;
    set_playing(c, false).await?;
    reached
}

/// Plays to [`WARM_UP_MS`]; the panel (following the active controller) must show the Raft
/// leader as ACTIVE with `writeNoOpRecord` deferred. Gives the leader's id and epoch.
async fn controller_panel_shows_active(c: &Client) -> Result<(i32, i32)> {
    play_until(c, WARM_UP_MS).await?;
    // Between two events writeNoOpRecord may sit in the queue rather than the deferred list: run
    // single events until it is deferred again.
    let mut seen = controller_panel(c).await?;
    for _ in 0..50 {
        if seen.deferred.iter().any(|n| n == "writeNoOpRecord") {
            break;
        }
        click(c, "#btn-step").await?;
        tokio::time::sleep(Duration::from_millis(30)).await;
        seen = controller_panel(c).await?;
    }
    let (leader_id, epoch) = leader_of(&nodes(c).await?).ok_or("no Raft leader after 5 s")?;
    if !seen.active {
        return Err(format!("the panel shows no active controller: {seen:?}").into());
    }
    if seen.node_id != Some(leader_id) {
        return Err(format!("the panel shows {seen:?}, but the Raft leader is {leader_id}").into());
    }
    if !seen.status.contains("ACTIVE") || !seen.status.contains(&format!("epoch {epoch}")) {
        return Err(format!(
            "status reads `{}`, wanted ACTIVE · epoch {epoch}",
            seen.status
        )
        .into());
    }
    if !seen.deferred.iter().any(|n| n == "writeNoOpRecord") {
        return Err(format!("no deferred writeNoOpRecord: {seen:?}").into());
    }
    if seen.snapshot_epochs == 0 {
        return Err("no SnapshotRegistry epochs shown".into());
    }
    Ok((leader_id, epoch))
}

async fn brokers_running(c: &Client) -> Result<()> {
    let v = c
        .execute(
            "const now = Number(document.getElementById('virtual-time').dataset.ms);
             return Array.from(document.querySelectorAll('#broker-panel tr[data-broker-id]')).map(r => {
                const tl = document.querySelector(`#broker-panel .hb-timeline[data-broker-id='${r.dataset.brokerId}']`);
                const ticks = tl ? Array.from(tl.querySelectorAll('.hb-tick')).map(t => Number(t.dataset.ms)) : [];
                return { id: r.dataset.brokerId, state: r.dataset.state,
                         fenced: r.dataset.fencedController, since: r.dataset.sinceHeartbeat,
                         ticks: ticks, deadline: tl ? Number(tl.dataset.deadlineMs) : -1, now: now };
             });",
            vec![],
        )
        .await?;
    let rows = v.as_array().ok_or("no broker rows")?;
    let field = |r: &Value, k: &str| r.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let mut ids: Vec<i32> = rows
        .iter()
        .filter_map(|r| field(r, "id").parse().ok())
        .collect();
    ids.sort_unstable();
    if ids != EXPECTED_BROKERS {
        return Err(format!("expected broker rows {EXPECTED_BROKERS:?}, saw {ids:?}").into());
    }
    for r in rows {
        if field(r, "state") != "RUNNING" || field(r, "fenced") != "false" {
            return Err(format!("broker row {r} is not RUNNING and unfenced").into());
        }
        let since: u64 = field(r, "since")
            .parse()
            .map_err(|_| format!("broker row {r} has no session"))?;
        if since >= 9000 {
            return Err(format!("broker row {r}: session older than 9 s").into());
        }
        // The heartbeat timeline: the last `since` ms ago and, running, 2 s after the one
        // before (starting up, a broker also heartbeats at once after registering and after
        // catching up); the session's deadline 9 s after the last.
        let ticks: Vec<u64> = r["ticks"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_u64)
            .collect();
        let (now, deadline) = (r["now"].as_u64(), r["deadline"].as_u64());
        let last = ticks.last().copied();
        let spaced = ticks.windows(2).all(|w| w[0] < w[1])
            && ticks
                .windows(2)
                .last()
                .is_some_and(|w| (1_900..=2_100).contains(&(w[1] - w[0])));
        if ticks.len() < 2
            || !spaced
            || last.zip(now).map(|(l, n)| n - l) != Some(since)
            || last.map(|l| l + 9_000) != deadline
        {
            return Err(format!("broker row {r}: the heartbeat timeline is wrong").into());
        }
    }
    Ok(())
}

async fn controller_tabs(c: &Client, active_id: i32) -> Result<()> {
    let standby = [101, 102, 103]
        .into_iter()
        .find(|&id| id != active_id)
        .ok_or("no standby controller")?;
    click(c, &format!("#ctrl-tab-{standby}")).await?;
    let seen = wait_until(&format!("the panel to show {standby}"), || async {
        let s = controller_panel(c).await?;
        Ok((s.node_id == Some(standby)).then_some(s))
    })
    .await?;
    if seen.active || !seen.status.contains("standby") {
        return Err(format!("controller {standby} should be a standby: {seen:?}").into());
    }
    click(c, "#ctrl-tab-auto").await?;
    wait_until(
        "the panel to follow the active controller again",
        || async {
            let s = controller_panel(c).await?;
            Ok((s.node_id == Some(active_id) && s.active).then_some(()))
        },
    )
    .await
}

async fn another_controller_active(c: &Client, old_id: i32) -> Result<i32> {
    set_playing(c, true).await?;
    let found = wait_until("another active controller", || async {
        let s = controller_panel(c).await?;
        Ok(s.node_id
            .filter(|&id| s.active && id != old_id && s.status.contains("ACTIVE"))
            .filter(|_| {
                s.deferred
                    .iter()
                    .chain(&s.queue)
                    .any(|n| n == "writeNoOpRecord")
            }))
    })
    .await;
    set_playing(c, false).await?;
    found
}

/// Presses `key` (down and up) wherever the focus is (the page body after a load).
async fn press(c: &Client, key: Key) -> Result<()> {
    let k: char = key.into();
    let keys = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: k })
        .then(KeyAction::Up { value: k });
    c.perform_actions(keys).await?;
    Ok(())
}

async fn console_status(c: &Client, url: &str) -> Result<()> {
    // With a query: a bare address restores the session the lessons before left behind.
    c.goto(&format!("{url}?seed=42")).await?;
    c.wait()
        .at_most(WAIT_LIMIT)
        .for_element(Locator::Css("#playground[data-mode='free']"))
        .await
        .map_err(|e| format!("free play did not load: {e}"))?;
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

/// Presses a printable key (down and up) wherever the focus is.
async fn press_char(c: &Client, k: char) -> Result<()> {
    let keys = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: k })
        .then(KeyAction::Up { value: k });
    c.perform_actions(keys).await?;
    Ok(())
}

/// The theme `<html>` carries: (`data-theme`, class list).
async fn theme_of(c: &Client) -> Result<(String, String)> {
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
async fn theme_toggle(c: &Client, artifacts: &Path) -> Result<()> {
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
async fn chrome_of(c: &Client) -> Result<(String, String, String)> {
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
async fn ui_language(c: &Client) -> Result<()> {
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

/// Reloads the page and waits until the playground is drawn again.
async fn reload(c: &Client) -> Result<()> {
    c.refresh().await?;
    c.wait()
        .at_most(WAIT_LIMIT)
        .for_element(Locator::Css("#playground[data-ready='true']"))
        .await
        .map_err(|e| format!("#playground did not come back after reload: {e}"))?;
    Ok(())
}

/// (splitter share, cluster column width px, `<html>` data-text-size, computed root font px).
async fn layout_of(c: &Client) -> Result<(String, f64, String, String)> {
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
async fn layout_controls(c: &Client) -> Result<()> {
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
async fn keyboard_help(c: &Client, shot: &Path) -> Result<()> {
    press_char(c, '?').await?;
    c.wait()
        .at_most(WAIT_LIMIT)
        .for_element(Locator::Css("#help-overlay"))
        .await
        .map_err(|e| format!("`?` did not open #help-overlay: {e}"))?;
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

/// The high-watermark panel of the leader: its numbers are those of the leader's metadata log
/// row, the voters are sorted by end offset (descending) and the candidate is the entry at
/// index size/2.
async fn hw_panel_matches(c: &Client, leader_id: i32) -> Result<()> {
    let v = c
        .execute(
            "const p = document.getElementById('hw-panel');
             if (!p) return null;
             const log = document.getElementById('log-' + p.dataset.leaderId);
             return { leader: p.dataset.leaderId, hw: p.dataset.hw, candidate: p.dataset.candidate,
                      start: p.dataset.epochStart, index: p.dataset.index,
                      shown: document.getElementById('hw-value').textContent,
                      shownCandidate: document.getElementById('hw-candidate').textContent,
                      logHw: log ? log.dataset.hw : null,
                      ends: Array.from(p.querySelectorAll('.hw-voter')).map(e => e.dataset.endOffset),
                      picked: Array.from(p.querySelectorAll('.hw-voter')).findIndex(e => e.classList.contains('picked')) };",
            vec![],
        )
        .await?;
    if v.is_null() {
        return Err("there is no #hw-panel".into());
    }
    let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    if s("leader") != leader_id.to_string() {
        return Err(format!(
            "#hw-panel shows leader {}, the leader is {leader_id}",
            s("leader")
        )
        .into());
    }
    if s("hw").is_empty() || s("hw") != s("logHw") || s("shown").trim() != s("hw") {
        return Err(format!("#hw-panel HW differs from the leader's log row: {v}").into());
    }
    let ends: Vec<Option<i64>> = v
        .get("ends")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|e| e.as_str().and_then(|t| t.parse().ok()))
                .collect()
        })
        .unwrap_or_default();
    if ends.len() != 3 || ends.windows(2).any(|w| w[0] < w[1]) {
        return Err(format!("voters are not sorted by end offset, descending: {ends:?}").into());
    }
    let index: usize = s("index")
        .parse()
        .map_err(|_| format!("bad data-index in {v}"))?;
    let picked = v.get("picked").and_then(Value::as_i64).unwrap_or(-1);
    if index != ends.len() / 2 || picked != index as i64 {
        return Err(format!(
            "picked entry {picked}, data-index {index}, wanted {}",
            ends.len() / 2
        )
        .into());
    }
    let candidate = ends[index].map(|e| e.to_string()).unwrap_or_default();
    if s("candidate") != candidate || s("shownCandidate").trim() != candidate {
        return Err(format!(
            "candidate {} is not entry {index} of {ends:?}",
            s("candidate")
        )
        .into());
    }
    let (hw, start): (i64, i64) = (
        s("hw").parse().map_err(|_| "bad HW")?,
        s("start").parse().map_err(|_| "bad epoch start")?,
    );
    if hw <= start {
        return Err(format!("HW {hw} is not past epochStartOffset {start}").into());
    }
    no_errors(c).await
}

/// A timer arc around every running node: check-quorum on the leader, fetch on the followers,
/// each with no more left than its duration.
async fn timer_arcs(c: &Client, leader_id: i32) -> Result<()> {
    let v = c
        .execute(
            "return Array.from(document.querySelectorAll('#timers .timer[data-timer-node]')).map(t => ({
                node: t.dataset.timerNode, kind: t.dataset.kind, left: t.dataset.remainingMs,
                total: t.dataset.durationMs, arc: !!t.querySelector('.timer-arc') }));",
            vec![],
        )
        .await?;
    let arcs = v.as_array().ok_or("no timer list")?;
    let running: Vec<i32> = nodes(c)
        .await?
        .iter()
        .filter(|n| n.process == "running")
        .map(|n| n.id)
        .collect();
    if arcs.len() != running.len() {
        return Err(format!(
            "{} timer arcs for {} running nodes: {v}",
            arcs.len(),
            running.len()
        )
        .into());
    }
    for a in arcs {
        let s = |k: &str| a.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let want = if s("node") == leader_id.to_string() {
            "check-quorum"
        } else {
            "fetch"
        };
        let (left, total): (u64, u64) = (
            s("left").parse().map_err(|_| format!("bad timer {a}"))?,
            s("total").parse().map_err(|_| format!("bad timer {a}"))?,
        );
        if s("kind") != want || left > total || total == 0 || a.get("arc") != Some(&json!(true)) {
            return Err(format!("timer {a}: wanted a {want} arc with left <= total").into());
        }
    }
    // Outside each broker's fetch arc, its session on the active controller: of
    // broker.session.timeout.ms, with the time since the heartbeat the broker panel shows.
    let v = c
        .execute(
            "const panel = id => document.querySelector(`#broker-panel [data-broker-id='${id}'] [role=meter]`);
             return Array.from(document.querySelectorAll('#timers .timer-session')).map(t => ({
                node: t.dataset.sessionNode, left: Number(t.dataset.remainingMs),
                total: Number(t.dataset.durationMs),
                since: panel(t.dataset.sessionNode) ? Number(panel(t.dataset.sessionNode).getAttribute('aria-valuenow')) : -1 }));",
            vec![],
        )
        .await?;
    let sessions = v.as_array().ok_or("no session list")?;
    let mut ids: Vec<&str> = sessions.iter().filter_map(|a| a["node"].as_str()).collect();
    ids.sort();
    if ids != ["1", "2", "3"] {
        return Err(format!("session arcs around {ids:?}, wanted brokers 1, 2, 3: {v}").into());
    }
    for a in sessions {
        let (left, total, since) = (a["left"].as_u64(), a["total"].as_u64(), a["since"].as_u64());
        if total != Some(9000) || left.zip(since).map(|(l, s)| l + s) != Some(9000) {
            return Err(format!("session arc {a}: wanted left + since = 9000 ms").into());
        }
    }
    no_errors(c).await
}

/// After lesson 02 the state diagram of node 102 lights Leader and highlights Candidate → Leader.
async fn state_diagram_leader(c: &Client, shot: &Path) -> Result<()> {
    click(c, "#node-102 .shape").await?;
    lessons::show_tab(c, "states").await?;
    let v = wait_until("#state-diagram of node 102", || async {
        let v = c
            .execute(
                "const d = document.getElementById('state-diagram');
                 if (!d || d.dataset.nodeId !== '102') return null;
                 const cur = d.querySelectorAll('.sd-state.current');
                 const last = d.querySelector('.sd-edge.last');
                 const flow = d.querySelectorAll('.sd-flow');
                 const same = flow.length === 1 && !!last && ['x1', 'y1', 'x2', 'y2']
                     .every(a => flow[0].getAttribute(a) === last.getAttribute(a));
                 return { current: d.dataset.current, lit: Array.from(cur).map(e => e.dataset.state),
                          from: last ? last.dataset.from : '', to: last ? last.dataset.to : '',
                          flow: same };",
                vec![],
            )
            .await?;
        Ok((!v.is_null()).then_some(v))
    })
    .await?;
    screenshot(c, shot).await;
    if v.get("current") != Some(&json!("Leader")) || v.get("lit") != Some(&json!(["Leader"])) {
        return Err(format!("the diagram of 102 does not light Leader alone: {v}").into());
    }
    if v.get("from") != Some(&json!("Candidate")) || v.get("to") != Some(&json!("Leader")) {
        return Err(format!("the last transition of 102 is not Candidate → Leader: {v}").into());
    }
    if v.get("flow") != Some(&json!(true)) {
        return Err(format!("no flowing dashes along 102's last transition alone: {v}").into());
    }
    no_errors(c).await
}

/// What a replay must reproduce: each node's (id, role, epoch, process), virtual time, events.
#[derive(Debug, PartialEq)]
struct WorldSeen {
    nodes: Vec<(i32, String, i32, String)>,
    now_ms: u64,
    events: u64,
}

async fn world_seen(c: &Client) -> Result<WorldSeen> {
    let mut nodes: Vec<(i32, String, i32, String)> = nodes(c)
        .await?
        .into_iter()
        .map(|n| (n.id, n.role, n.epoch, n.process))
        .collect();
    nodes.sort();
    Ok(WorldSeen {
        nodes,
        now_ms: virtual_time_ms(c).await?,
        events: events_run(c).await?,
    })
}

async fn location_search(c: &Client) -> Result<String> {
    Ok(c.execute("return location.search;", vec![])
        .await?
        .as_str()
        .unwrap_or("")
        .to_string())
}

async fn type_command(c: &Client, line: &str) -> Result<()> {
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

async fn wait_loaded(c: &Client, what: &str) -> Result<()> {
    c.wait()
        .at_most(WAIT_LIMIT)
        .for_element(Locator::Css("#playground[data-ready='true']"))
        .await
        .map_err(|e| format!("{what}: #playground did not appear: {e}"))?;
    Ok(())
}

/// Free play with frames of the play timer, typed commands and a kill button; the address then
/// holds `cmds=`, and a reload replays it to the same leader, epoch, time and event count.
/// Gives what the world looked like.
async fn url_replays_commands(c: &Client, url: &str) -> Result<WorldSeen> {
    c.goto(&format!("{url}?seed=42")).await?;
    wait_loaded(c, "free play").await?;
    play_until(c, 1500).await?;
    type_command(c, "run until=leader").await?;
    let (old_id, old_epoch) =
        leader_of(&nodes(c).await?).ok_or("no leader after run until=leader")?;
    click(c, &format!("#btn-kill-{old_id}")).await?;
    type_command(c, "run 4s").await?;
    let before = world_seen(c).await?;
    let (new_id, new_epoch) = leader_of(&nodes(c).await?).ok_or("no leader after run 4s")?;
    if new_id == old_id || new_epoch <= old_epoch {
        return Err(format!("no failover: {old_id}@{old_epoch} then {new_id}@{new_epoch}").into());
    }
    // The address is written within SAVE_DELAY_MS of the last change.
    let kill = format!("kill%20-9%20{old_id}");
    let parts = [
        "seed=42",
        "%23play",
        "run%20until%3Dleader",
        &kill,
        "run%204s",
    ];
    let found = wait_until("the commands in the address", || async {
        let s = location_search(c).await?;
        Ok(parts.iter().all(|p| s.contains(p)).then_some(()))
    })
    .await;
    if found.is_err() {
        let search = location_search(c).await?;
        return Err(format!("the address `{search}` lacks one of {parts:?}").into());
    }
    c.refresh().await?;
    wait_loaded(c, "reload").await?;
    let after = wait_until("the replayed world", || async {
        let w = world_seen(c).await?;
        Ok((w.events > 0).then_some(w))
    })
    .await?;
    if after != before {
        return Err(format!("after reload {after:?}, before {before:?}").into());
    }
    let output = text_of(c, "#console-output").await?;
    if !output.contains("$ run 4s") {
        return Err(format!("the replayed commands are not in the scrollback: `{output}`").into());
    }
    no_errors(c).await?;
    Ok(before)
}

/// A bare address restores the session kept in localStorage; "Start fresh" forgets it.
async fn bare_address_restores(c: &Client, url: &str, seen: &WorldSeen, shot: &Path) -> Result<()> {
    c.goto(url).await?;
    wait_loaded(c, "bare address").await?;
    c.find(Locator::Css("#restored"))
        .await
        .map_err(|e| format!("no #restored notice: {e}"))?;
    let now = world_seen(c).await?;
    if &now != seen {
        return Err(format!("restored {now:?}, kept {seen:?}").into());
    }
    screenshot(c, shot).await;
    click(c, "#btn-fresh").await?;
    wait_until("a fresh page", || async {
        let fresh = c
            .find_all(Locator::Css("#playground[data-ready='true']"))
            .await?;
        if fresh.is_empty() || !c.find_all(Locator::Css("#restored")).await?.is_empty() {
            return Ok(None);
        }
        Ok((virtual_time_ms(c).await? == 0).then_some(()))
    })
    .await?;
    no_errors(c).await
}

/// Bad `step=` and `cmds=` values give a visible error, never a panic; a good `step=` opens the
/// lesson at that step.
async fn bad_url_values(c: &Client, url: &str) -> Result<()> {
    c.goto(&format!(
        "{url}?lesson=03-timeline&lang=en&step=abc&cmds=%ZZ"
    ))
    .await?;
    wait_loaded(c, "bad values").await?;
    let text = text_of(c, "#error")
        .await
        .map_err(|e| format!("no #error shown: {e}"))?;
    if !text.contains("?step=abc") || !text.contains("?cmds=") {
        return Err(format!("#error reads `{text}`").into());
    }
    no_errors(c).await?;
    c.goto(&format!("{url}?seed=42&cmds=%23frames%20lots"))
        .await?;
    wait_loaded(c, "bad frames").await?;
    let text = text_of(c, "#error")
        .await
        .map_err(|e| format!("no #error shown: {e}"))?;
    if !text.contains("#frames") {
        return Err(format!("#error reads `{text}`").into());
    }
    no_errors(c).await?;
    c.goto(&format!("{url}?lesson=03-timeline&lang=en&step=3"))
        .await?;
    wait_loaded(c, "step=3").await?;
    wait_for_step(c, 3).await?;
    no_errors(c).await
}

/// The label the diagram puts on a message kind (the rule of the page's `message_label`).
/// The label a message of `kind` carries: a request by its API (`PreVote`, `heartbeat`), a
/// response with `resp`, a failed request with ✕ (the page's `message_label`).
fn expected_label(kind: &str) -> String {
    let (base, dir) = [
        ("Request", "req"),
        ("Response", "resp"),
        ("Failed", "failed"),
    ]
    .iter()
    .find_map(|(suffix, dir)| kind.strip_suffix(suffix).map(|b| (b, *dir)))
    .unwrap_or((kind, ""));
    let base = if base == "BrokerHeartbeat" {
        "heartbeat"
    } else {
        base
    };
    match dir {
        "resp" => format!("{base} resp"),
        "failed" => format!("{base} ✕"),
        _ => base.to_string(),
    }
}

const MESSAGES_JS: &str = "
    const read = (sel) => Array.from(document.querySelectorAll(sel)).map(g => {
        const t = g.querySelector('.track'), d = g.querySelector('.dot'), l = g.querySelector('.msg-label');
        return { id: g.dataset.messageId, kind: g.dataset.kind, state: g.dataset.state,
                 progress: Number(g.dataset.progress), label: l ? l.textContent : '',
                 drop: !!g.querySelector('.drop-mark'),
                 x1: Number(t.getAttribute('x1')), y1: Number(t.getAttribute('y1')),
                 x2: Number(t.getAttribute('x2')), y2: Number(t.getAttribute('y2')),
                 cx: Number(d.getAttribute('cx')), cy: Number(d.getAttribute('cy')) };
    });
    return read('#messages .message');";

/// Every message drawn: (id, kind, state, progress, label, drop mark, on its track).
async fn messages_seen(c: &Client) -> Result<Vec<Value>> {
    Ok(c.execute(MESSAGES_JS, vec![])
        .await?
        .as_array()
        .cloned()
        .unwrap_or_default())
}

fn check_message(m: &Value) -> Result<()> {
    let s = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let n = |k: &str| m.get(k).and_then(Value::as_f64).unwrap_or(f64::NAN);
    // At most one label per link: a message carries its kind's label or none.
    if !s("label").is_empty() && s("label") != expected_label(&s("kind")) {
        return Err(format!("message {m} is labelled `{}`", s("label")).into());
    }
    let p = n("progress");
    let (x, y) = (
        n("x1") + (n("x2") - n("x1")) * p,
        n("y1") + (n("y2") - n("y1")) * p,
    );
    if !(0.0..=1.0).contains(&p) || (x - n("cx")).abs() > 0.2 || (y - n("cy")).abs() > 0.2 {
        return Err(format!("message {m} is not on its link at progress {p}").into());
    }
    match s("state").as_str() {
        "delivered" if p != 1.0 => Err(format!("delivered message {m} is not at its end").into()),
        "dropped" | "failed" if m.get("drop") != Some(&json!(true)) => {
            Err(format!("dropped or failed message {m} has no ✕").into())
        }
        "failed" if p != 1.0 => {
            Err(format!("failed request {m} is not at the node that did not answer").into())
        }
        "in-flight" | "delivered" | "dropped" | "failed" => Ok(()),
        other => Err(format!("message {m} has state `{other}`").into()),
    }
}

/// The steady links drawn for fetch and heartbeat chatter: (from, to, link class, failed).
async fn links_seen(c: &Client) -> Result<Vec<(String, String, String, bool)>> {
    let v = c
        .execute(
            "return Array.from(document.querySelectorAll('#links .link')).map(l =>
                 [l.dataset.from, l.dataset.to, l.dataset.link, l.classList.contains('failed')]);",
            vec![],
        )
        .await?;
    Ok(v.as_array()
        .into_iter()
        .flatten()
        .map(|l| {
            (
                l[0].as_str().unwrap_or("").to_string(),
                l[1].as_str().unwrap_or("").to_string(),
                l[2].as_str().unwrap_or("").to_string(),
                l[3].as_bool().unwrap_or(false),
            )
        })
        .collect())
}

/// Messages move along their links with their kind labels: one stepped event at a time a
/// message is caught in flight on its track, then shown delivered at the receiver; while
/// playing slowly PreVote/Vote, BeginQuorumEpoch, Fetch and heartbeat all show up; a drop rule
/// gives messages marked dropped.
async fn messages_in_flight(c: &Client, url: &str, shot: &Path) -> Result<()> {
    c.goto(&format!("{url}?seed=42")).await?;
    wait_loaded(c, "free play").await?;
    // Fetches as messages (the legend's toggle) for the first part: every event moves one.
    click(c, "#legend button[data-kind='Fetch']").await?;
    let mut caught = None;
    for _ in 0..200 {
        click(c, "#btn-step").await?;
        let seen = messages_seen(c).await?;
        if let Some(m) = seen
            .iter()
            .find(|m| m.get("state") == Some(&json!("in-flight")))
        {
            caught = Some(m.clone());
            break;
        }
    }
    let caught = caught.ok_or("200 single events and no message in flight")?;
    check_message(&caught)?;
    let id = caught
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    // One event at a time until it arrives: then it is drawn delivered at the receiver.
    let mut delivered = None;
    for _ in 0..200 {
        click(c, "#btn-step").await?;
        let seen = messages_seen(c).await?;
        let mine: Vec<&Value> = seen
            .iter()
            .filter(|m| m.get("id") == Some(&json!(id)))
            .collect();
        if let Some(m) = mine
            .iter()
            .find(|m| m.get("state") != Some(&json!("in-flight")))
        {
            delivered = Some((*m).clone());
            break;
        }
        if mine.is_empty() {
            return Err(format!("message {id} vanished without being shown delivered").into());
        }
    }
    let delivered = delivered.ok_or_else(|| format!("message {id} was never delivered"))?;
    if delivered.get("state") != Some(&json!("delivered")) {
        return Err(format!("message {id} ended as {delivered}").into());
    }
    check_message(&delivered)?;
    click(c, "#legend button[data-kind='Fetch']").await?;

    set_speed(c, "25").await?;
    let mut kinds = std::collections::BTreeSet::new();
    let mut links = std::collections::BTreeSet::new();
    let wanted = ["Vote", "BeginQuorumEpoch"];
    let wanted_links = ["link-fetch", "link-heartbeat"];
    for _ in 0..400 {
        for m in messages_seen(c).await? {
            check_message(&m)?;
            let kind = m.get("kind").and_then(Value::as_str).unwrap_or("");
            let base = ["Request", "Response", "Failed"]
                .iter()
                .find_map(|s| kind.strip_suffix(s))
                .unwrap_or(kind);
            kinds.insert(if base == "PreVote" {
                "Vote".to_string()
            } else {
                base.to_string()
            });
        }
        for (_, _, class, _) in links_seen(c).await? {
            links.insert(class);
        }
        if wanted.iter().all(|k| kinds.contains(*k))
            && wanted_links.iter().all(|k| links.contains(*k))
        {
            break;
        }
        click(c, "#btn-step-tick").await?;
    }
    if let Some(missing) = wanted.iter().find(|k| !kinds.contains(**k)) {
        return Err(format!("no `{missing}` message drawn; saw {kinds:?}").into());
    }
    if let Some(missing) = wanted_links.iter().find(|k| !links.contains(**k)) {
        return Err(format!("no `{missing}` link drawn; saw {links:?}").into());
    }
    // Fetch and heartbeats are links, not labelled messages; the legend turns Fetch labels on.
    if messages_seen(c).await?.iter().any(|m| {
        m.get("kind")
            .and_then(Value::as_str)
            .is_some_and(|k| k.starts_with("Fetch") && !k.starts_with("FetchSnapshot"))
    }) {
        return Err("a Fetch is drawn as a message while its labels are off".into());
    }
    click(c, "#legend button[data-kind='Fetch']").await?;
    let fetch = wait_until(
        "Fetch drawn as labelled messages once the legend turns them on",
        || async {
            click(c, "#btn-step-tick").await?;
            Ok(messages_seen(c).await?.into_iter().find(|m| {
                m.get("kind")
                    .and_then(Value::as_str)
                    .is_some_and(|k| k == "FetchRequest" || k == "FetchResponse")
                    && m.get("label")
                        .and_then(Value::as_str)
                        .is_some_and(|l| !l.is_empty())
            }))
        },
    )
    .await?;
    check_message(&fetch)?;
    click(c, "#legend button[data-kind='Fetch']").await?;
    // At most one label per link, none over a node: every label sits between its link's ends.
    let per_link = c
        .execute(
            "const seen = {}; let worst = null;
             for (const g of document.querySelectorAll('#messages .message')) {
                 if (!g.querySelector('.msg-label')) continue;
                 const k = [g.dataset.drawnFrom, g.dataset.drawnTo].sort().join('-');
                 seen[k] = (seen[k] || 0) + 1;
                 if (seen[k] > 1) worst = k;
             }
             return worst;",
            vec![],
        )
        .await?;
    if !per_link.is_null() {
        return Err(format!("the link {per_link} carries more than one label").into());
    }
    let (leader, _) = leader_of(&nodes(c).await?).ok_or("no leader")?;
    let follower = [101, 102, 103]
        .into_iter()
        .find(|&i| i != leader)
        .unwrap_or(101);
    type_command(c, &format!("drop from={leader} to={follower}")).await?;
    // The follower's fetches get no answer: its link is drawn failing.
    wait_until("the follower's fetch link drawn failing", || async {
        click(c, "#btn-step").await?;
        Ok(links_seen(c)
            .await?
            .into_iter()
            .find(|(from, to, class, failed)| {
                *failed
                    && class == "link-fetch"
                    && *from == follower.to_string()
                    && *to == leader.to_string()
            }))
    })
    .await?;
    // A killed node's requests fail: drawn as the request with ✕ at the node that did not answer.
    click(c, &format!("#btn-kill-{leader}")).await?;
    let failed = wait_until(
        "a request to the killed leader drawn failing at it",
        || async {
            click(c, "#btn-step-tick").await?;
            Ok(messages_seen(c)
                .await?
                .into_iter()
                .find(|m| m.get("state") == Some(&json!("failed"))))
        },
    )
    .await?;
    check_message(&failed)?;
    let drawn_to = failed.get("id").and_then(|_| failed.get("kind")).cloned();
    let to_leader = c
        .execute(
            "const g = document.querySelector('#messages .message[data-state=\"failed\"]');
             return g ? g.dataset.drawnTo : null;",
            vec![],
        )
        .await?;
    if to_leader.as_str() != Some(&leader.to_string()) {
        return Err(format!(
            "a failed {drawn_to:?} is drawn towards {to_leader}, not the killed {leader}"
        )
        .into());
    }
    screenshot(c, shot).await;
    no_errors(c).await
}
