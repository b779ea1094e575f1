//! Builds the page into `dist/`: the wasm build, wasm-bindgen's JS glue, `index.html`, `assets/`
//! and the stylesheet bundled from `assets/css/` (see [`crate::css`]).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::{cargo, dist_dir, root_dir, run, target_dir, Result};

/// The wasm target.
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// The cargo profile of the page build (see the workspace Cargo.toml).
pub const WASM_PROFILE: &str = "wasm-release";

/// Builds everything into `dist/` and returns its path.
pub fn build() -> Result<PathBuf> {
    build_with_names(false)
}

/// [`build`], keeping the wasm's name section when `names` (for a CPU profile by function).
pub fn build_with_names(names: bool) -> Result<PathBuf> {
    let started = Instant::now();
    ensure_wasm_target()?;
    let mut cmd = cargo();
    cmd.args([
        "build",
        "-p",
        "kraft-web",
        "--target",
        WASM_TARGET,
        "--profile",
        WASM_PROFILE,
    ]);
    run(&mut cmd)?;
    let wasm = target_dir()
        .join(WASM_TARGET)
        .join(WASM_PROFILE)
        .join("kraft_web.wasm");
    let dist = dist_dir();
    if dist.exists() {
        std::fs::remove_dir_all(&dist)
            .map_err(|e| format!("cannot clear {}: {e}", dist.display()))?;
    }
    std::fs::create_dir_all(&dist)?;
    let bindgen_started = Instant::now();
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&wasm)
        .web(true)?
        .omit_default_module_path(false)
        .remove_name_section(!names)
        .remove_producers_section(true)
        .typescript(false)
        .generate(&dist)
        .map_err(|e| format!("wasm-bindgen on {}: {e:#}", wasm.display()))?;
    let bindgen_s = bindgen_started.elapsed().as_secs_f64();
    let root = root_dir();
    std::fs::copy(root.join("index.html"), dist.join("index.html"))
        .map_err(|e| format!("cannot copy index.html: {e}"))?;
    // The stylesheet's parts are bundled into one file, not copied.
    copy_dir(
        &root.join("assets"),
        &dist.join("assets"),
        &root.join(crate::css::SOURCE_DIR),
    )?;
    let (css_files, css_bytes) = crate::css::write(&root, &dist)?;
    let (raw, br, gz) = crate::compress::precompress(&dist, &dist.join("kraft_web_bg.wasm"))?;
    println!(
        "dist: {} bundled from {css_files} files in {} ({css_bytes} bytes)",
        crate::css::BUNDLE,
        crate::css::SOURCE_DIR
    );
    println!(
        "dist: {} ready in {:.1} s (bindgen {:.1} s), kraft_web_bg.wasm {} KB, {} KB brotli, {} KB gzip",
        dist.display(),
        started.elapsed().as_secs_f64(),
        bindgen_s,
        raw / 1024,
        br / 1024,
        gz / 1024
    );
    Ok(dist)
}

/// Adds the wasm target with rustup when it is not installed.
fn ensure_wasm_target() -> Result<()> {
    let out = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output();
    match out {
        Ok(out)
            if String::from_utf8_lossy(&out.stdout)
                .lines()
                .any(|l| l.trim() == WASM_TARGET) =>
        {
            Ok(())
        }
        Ok(_) => run(Command::new("rustup").args(["target", "add", WASM_TARGET])),
        // No rustup: hope the toolchain has the target; cargo says so clearly if not.
        Err(_) => Ok(()),
    }
}

/// Copies `from` into `to`, recursively, leaving out the folder `skip`.
fn copy_dir(from: &Path, to: &Path, skip: &Path) -> Result<()> {
    if !from.exists() || from == skip {
        return Ok(());
    }
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let dest = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &dest, skip)?;
        } else {
            std::fs::copy(entry.path(), &dest)
                .map_err(|e| format!("cannot copy {}: {e}", entry.path().display()))?;
        }
    }
    Ok(())
}
