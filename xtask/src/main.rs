//! Project tasks, run as `cargo xtask <command>` (see the README):
//!
//! - `serve [--port 8080] [--no-build]`: build the page into `dist/` and serve it.
//! - `dist`: build the page into `dist/` only.
//! - `test`: fmt, clippy, native tests, the page build and the headless-browser test.
//! - `deps`: the house rules: kraft-core's import layers and cycles, file and function sizes.
//! - `browser`: only the headless-browser test, against the `dist/` built last.
//! - `bench`: the engine's benchmark (`kraft bench`), then the page's in Chromium.

mod browser;
mod compress;
mod cpu_profile;
mod css;
mod deps;
mod dist;
mod serve;
mod single_file;
mod test;
mod wasm_bench;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// Errors of the tasks; printed by `main`.
pub type Error = Box<dyn std::error::Error + Send + Sync>;
/// Results of the tasks.
pub type Result<T> = std::result::Result<T, Error>;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  serve [--port 8080] [--no-build]   build the page into dist/ and serve it on 127.0.0.1
  dist [--single-file]               build the page into dist/ (precompressed .br/.gz beside
                                     each file; --single-file: also dist/kraft-playground.html,
                                     the whole page in one file that works from file://)
  test                               fmt, clippy, native tests, dist build, headless-browser test
                                     (KRAFT_SKIP_BROWSER=1 skips the browser step)
  deps                               check kraft-core's import layers (no cycle, none up a
                                     layer) and file/function sizes (800/100 lines)
  browser                            only the headless-browser test, against the dist/ built last
  bench [--no-wasm] [args..]         the engine's benchmark (kraft bench [args..]), then the page's
                                     in headless Chromium: wasm speed and memory over 1 simulated
                                     hour, p95 step-click latency, wasm size
                                     (--page-only: only the page's; --load-only: only the size
                                     over the wire and the load time; --profile: and a CPU
                                     profile of the step clicks by function)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve_command(&args[1..]),
        Some("dist") => dist_command(&args[1..]),
        Some("test") => test::run(),
        Some("bench") => bench(&args[1..]),
        Some("browser") => browser::run(),
        Some("deps") => deps::run(),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`\n\n{USAGE}").into()),
        None => Err(USAGE.into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn dist_command(args: &[String]) -> Result<()> {
    let single = match args {
        [] => false,
        [a] if a == "--single-file" => true,
        _ => return Err(format!("unknown options {args:?} for dist\n\n{USAGE}").into()),
    };
    let dist = dist::build()?;
    if single {
        single_file::write(&dist)?;
    }
    Ok(())
}

fn serve_command(args: &[String]) -> Result<()> {
    let mut port: u16 = 8080;
    let mut build = true;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--port" => {
                let v = it.next().ok_or("--port needs a value")?;
                port = v.parse().map_err(|_| format!("bad port `{v}`"))?;
            }
            "--no-build" => build = false,
            other => return Err(format!("unknown option `{other}` for serve\n\n{USAGE}").into()),
        }
    }
    if build {
        dist::build()?;
    } else if !dist_dir().join("index.html").exists() {
        return Err("dist/ has no index.html: run without --no-build first".into());
    }
    serve::serve_forever(&dist_dir(), port)
}

fn bench(args: &[String]) -> Result<()> {
    let root = root_dir();
    let bin = root.join("core/src/bin/kraft.rs");
    if !bin.exists() {
        return Err(format!(
            "the engine CLI ({}) does not exist yet; `cargo xtask bench` wraps `kraft bench`",
            bin.display()
        )
        .into());
    }
    let wasm = !args.iter().any(|a| a == "--no-wasm");
    let profile = args.iter().any(|a| a == "--profile");
    if args.iter().any(|a| a == "--load-only") {
        return wasm_bench::run(false, true);
    }
    if args.iter().any(|a| a == "--page-only") {
        return wasm_bench::run(profile, false);
    }
    let args: Vec<&String> = args
        .iter()
        .filter(|a| *a != "--no-wasm" && *a != "--profile")
        .collect();
    let mut cmd = cargo();
    cmd.args([
        "run",
        "--release",
        "-p",
        "kraft-core",
        "--bin",
        "kraft",
        "--",
        "bench",
    ]);
    cmd.args(args);
    run(&mut cmd)?;
    if wasm {
        wasm_bench::run(profile, false)?;
    }
    Ok(())
}

/// The repository root (the parent of `xtask/`).
pub fn root_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the repository")
        .to_path_buf()
}

/// Where the page is built to.
pub fn dist_dir() -> PathBuf {
    root_dir().join("dist")
}

/// Cargo's target directory (honours `CARGO_TARGET_DIR`).
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                root_dir().join(dir)
            }
        }
        None => root_dir().join("target"),
    }
}

/// A `cargo` command (the one running us, when known) started in the repository root.
pub fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.current_dir(root_dir());
    cmd
}

/// Runs `cmd` with inherited output; an error names the command and its exit status.
pub fn run(cmd: &mut Command) -> Result<()> {
    let status = cmd
        .status()
        .map_err(|e| format!("cannot start `{}`: {e}", describe(cmd)))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{}` failed ({status})", describe(cmd)).into())
    }
}

/// `program arg arg ..` for messages.
pub fn describe(cmd: &Command) -> String {
    std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|s| s.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}
