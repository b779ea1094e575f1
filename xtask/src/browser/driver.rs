//! The browser plumbing the checks share: the page server, chromedriver and the Chromium session,
//! and the helpers that drive the page (click, press, wait, read, screenshots, page errors).

use std::fs;
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::elements::Element;
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

use super::WAIT_LIMIT;
use crate::{run as run_cmd, serve, Result};

/// The Chromium binary the test drives.
const CHROMIUM: &str = "/usr/bin/chromium";
/// The chromedriver binary that drives it.
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

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

/// A free TCP port on 127.0.0.1.
pub(super) fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
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

/// JavaScript helpers that measure how much two elements overlap on screen, for a check's
/// script to start with: `box(e)` (its client rectangle) and `area(a, b)` (px² shared by two
/// rectangles).
pub(super) const OVERLAP_AREA_JS: &str = "
    const box = e => e.getBoundingClientRect();
    const area = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
        * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));";

/// Saves a PNG of the page (scrolled to the top), reporting failures but not failing the check.
pub(super) async fn screenshot(c: &Client, path: &Path) {
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
pub(super) async fn element_screenshot(c: &Client, css: &str, path: &Path) {
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
pub(super) async fn page_errors(c: &Client) -> Result<Vec<String>> {
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

/// `Err` with the page errors, if any.
pub(super) async fn no_errors(c: &Client) -> Result<()> {
    let errors = page_errors(c).await?;
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("page errors: {errors:?}").into())
    }
}

/// The text of the element `css`.
pub(super) async fn text_of(c: &Client, css: &str) -> Result<String> {
    Ok(c.find(Locator::Css(css)).await?.text().await?)
}

/// Clicks the element `css`.
pub(super) async fn click(c: &Client, css: &str) -> Result<()> {
    c.find(Locator::Css(css))
        .await
        .map_err(|e| format!("no `{css}`: {e}"))?
        .click()
        .await
        .map_err(|e| format!("cannot click `{css}`: {e}").into())
}

/// Polls `f` every 50 ms until it gives `Some`, for at most [`WAIT_LIMIT`].
pub(super) async fn wait_until<T, F, Fut>(what: &str, mut f: F) -> Result<T>
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

/// Waits for an element matching `css`; the error is `what` and the driver's reason.
pub(super) async fn wait_for(c: &Client, css: &str, what: &str) -> Result<Element> {
    Ok(c.wait()
        .at_most(WAIT_LIMIT)
        .for_element(Locator::Css(css))
        .await
        .map_err(|e| format!("{what}: {e}"))?)
}

/// Waits until `what` has removed every element matching `css` (a menu, an overlay).
pub(super) async fn wait_gone(c: &Client, css: &str, what: &str) -> Result<()> {
    wait_until(&format!("{what} to close {css}"), || async {
        Ok(c.find_all(Locator::Css(css))
            .await?
            .is_empty()
            .then_some(()))
    })
    .await
}

/// Whether the menu's button `css` is enabled.
pub(super) async fn enabled(c: &Client, css: &str) -> Result<bool> {
    let b = c
        .find(Locator::Css(css))
        .await
        .map_err(|e| format!("no `{css}`: {e}"))?;
    Ok(b.attr("disabled").await?.is_none())
}

/// Presses `key` (down and up) wherever the focus is (the page body after a load).
pub(super) async fn press(c: &Client, key: Key) -> Result<()> {
    let k: char = key.into();
    let keys = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: k })
        .then(KeyAction::Up { value: k });
    c.perform_actions(keys).await?;
    Ok(())
}

/// Presses a printable key (down and up) wherever the focus is.
pub(super) async fn press_char(c: &Client, k: char) -> Result<()> {
    let keys = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: k })
        .then(KeyAction::Up { value: k });
    c.perform_actions(keys).await?;
    Ok(())
}

/// Reloads the page and waits until the playground is drawn again.
pub(super) async fn reload(c: &Client) -> Result<()> {
    c.refresh().await?;
    wait_for(
        c,
        "#playground[data-ready='true']",
        "#playground did not come back after reload",
    )
    .await?;
    Ok(())
}

/// The page address's query (`location.search`).
pub(super) async fn location_search(c: &Client) -> Result<String> {
    Ok(c.execute("return location.search;", vec![])
        .await?
        .as_str()
        .unwrap_or("")
        .to_string())
}

/// Waits until the page is ready (`#playground[data-ready]`); `what` names it in the error.
pub(super) async fn wait_loaded(c: &Client, what: &str) -> Result<()> {
    wait_for(
        c,
        "#playground[data-ready='true']",
        &format!("{what}: #playground did not appear"),
    )
    .await?;
    Ok(())
}
