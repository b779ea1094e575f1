//! The offline single file (`cargo xtask dist --single-file`) opened through file://, with no
//! server: lesson 02 runs its first steps and the cluster is drawn, nothing is fetched.

use std::path::Path;

use fantoccini::key::Key;
use fantoccini::Client;

use super::driver::{no_errors, press, screenshot, wait_until};
use super::stage::{open_at, restore_window, set_viewport};
use crate::Result;

/// What the page fetched besides itself, and whether lesson 02's three controllers are drawn.
const READ_JS: &str = "
    return { fetched: performance.getEntriesByType('resource').map(r => r.name),
             drawn: ['101', '102', '103'].every(id =>
                 !!document.querySelector(`#cluster [data-node-id='${id}']`)),
             scheme: location.protocol };";

/// Opens `file` (the single HTML file) from file:// at 1280×720, runs lesson 02's first three
/// steps with →, and checks the drawing, that nothing was fetched and that no error was
/// raised.
pub(super) async fn single_file_offline(c: &Client, file: &Path, artifacts: &Path) -> Result<()> {
    let address = url::Url::from_file_path(file)
        .map_err(|()| format!("{} is not an absolute path", file.display()))?;
    set_viewport(c, 1280, 720).await?;
    let base = address.as_str();
    open_at(c, base, "lesson=02-election&lang=en&play=0", 0).await?;
    for step in 1..=3 {
        press(c, Key::Right).await?;
        let css = format!("#lesson-panel[data-step='{step}']");
        wait_until(
            &format!("step {step} of lesson 02 from file://"),
            || async {
                let found = c.find_all(fantoccini::Locator::Css(&css)).await?;
                Ok((!found.is_empty()).then_some(()))
            },
        )
        .await?;
    }
    let v = c.execute(READ_JS, vec![]).await?;
    if v["scheme"] != "file:" {
        return Err(format!("the single file was not opened from file://: {v}").into());
    }
    if v["drawn"] != true {
        return Err(format!("lesson 02's controllers are not drawn from file://: {v}").into());
    }
    if v["fetched"].as_array().is_none_or(|f| !f.is_empty()) {
        return Err(format!("the single file fetched other files: {v}").into());
    }
    screenshot(c, &artifacts.join("single-file.png")).await;
    restore_window(c).await?;
    no_errors(c).await
}
