//! `cargo xtask test`: every gate CI runs, in order, failing fast.

use std::time::Instant;

use crate::{browser, cargo, dist, run as run_cmd, Result};

/// One gate of the pipeline.
type Step = Box<dyn Fn() -> Result<()>>;

/// Runs the steps (the entry point of `cargo xtask test`); the error names the step that failed.
pub fn run() -> Result<()> {
    let started = Instant::now();
    let skip_browser = std::env::var("KRAFT_SKIP_BROWSER").is_ok_and(|v| v == "1");
    let steps: Vec<(&str, Step)> = vec![
        (
            "fmt",
            Box::new(|| {
                run_cmd(cargo().args(["fmt", "--all", "--check"]))
                    .map_err(|e| format!("{e}; run `cargo fmt --all` to fix").into())
            }),
        ),
        (
            "clippy",
            Box::new(|| {
                run_cmd(cargo().args([
                    "clippy",
                    "--workspace",
                    "--all-targets",
                    "--",
                    "-D",
                    "warnings",
                ]))
            }),
        ),
        ("deps", Box::new(crate::deps::run)),
        (
            "native tests",
            Box::new(|| run_cmd(cargo().args(["test", "--release", "-p", "kraft-core"]))),
        ),
        (
            "page unit tests",
            Box::new(|| run_cmd(cargo().args(["test", "-p", "kraft-web", "-p", "xtask"]))),
        ),
        ("dist build", Box::new(|| dist::build().map(|_| ()))),
        (
            "browser test",
            Box::new(move || {
                if skip_browser {
                    println!("skipped: KRAFT_SKIP_BROWSER=1");
                    Ok(())
                } else {
                    browser::run()
                }
            }),
        ),
    ];
    let total = steps.len();
    for (i, (name, step)) in steps.iter().enumerate() {
        println!("\n==> [{}/{total}] {name}", i + 1);
        let step_started = Instant::now();
        let result = step();
        let secs = step_started.elapsed().as_secs_f64();
        match result {
            Ok(()) => println!("<== {name}: ok in {secs:.1} s"),
            Err(e) => {
                return Err(format!("step `{name}` failed after {secs:.1} s: {e}").into());
            }
        }
    }
    println!(
        "\nall {total} steps passed in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
