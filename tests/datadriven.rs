//! Engine scenarios as datadriven files, in the style of etcd-io/raft's `testdata/*.txt`: every
//! file under `tests/testdata/<area>/` is a command line of the console (the language lessons
//! use), `----`, and the output the engine printed, blocks separated by a blank line, `#`
//! comments naming the scenario and the Kafka test it mirrors. See `tests/testdata/README.md`.
//!
//! The files are read by the lesson parser and run through one [`Console`] each, a step at a
//! time with [`runner::step_output`], as `kraft check` runs a lesson; outputs compare as
//! [`runner::normalize`] does. A mismatch prints the file:line, the command, the seed and a
//! diff. `-- --rewrite` writes what the engine printed back into the files.
//!
//! ```sh
//! cargo test --release -p kraft-core --test datadriven
//! cargo test --release -p kraft-core --test datadriven -- --rewrite
//! cargo test --release -p kraft-core --test datadriven -- raft/prevote   # only matching files
//! ```

use std::path::{Path, PathBuf};
use std::time::Instant;

use kraft_core::lesson::{runner, Console, Lesson};

/// Where the scenario files live.
const TESTDATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/testdata");

/// What the command line asked for.
struct Args {
    /// Write the engine's outputs back into the files.
    rewrite: bool,
    /// Only list the files (as `name: test`, like libtest's `--list`).
    list: bool,
    /// Run nothing (libtest's `--ignored`: no scenario is ignored).
    ignored_only: bool,
    /// Only the files whose path (relative to testdata/) contains one of these.
    filters: Vec<String>,
}

impl Args {
    /// Reads libtest-like arguments: `--rewrite`, `--list`, `--ignored`, filters; other flags
    /// cargo may pass (`--nocapture`, `--test-threads N`, ...) are accepted and ignored.
    fn parse(args: impl Iterator<Item = String>) -> Args {
        let mut out = Args {
            rewrite: false,
            list: false,
            ignored_only: false,
            filters: Vec::new(),
        };
        let mut args = args.peekable();
        while let Some(a) = args.next() {
            match a.as_str() {
                "--rewrite" => out.rewrite = true,
                "--list" => out.list = true,
                "--ignored" => out.ignored_only = true,
                "--test-threads" | "--format" | "--color" | "--skip" | "--logfile" | "-Z" => {
                    args.next();
                }
                flag if flag.starts_with('-') => {}
                filter => out.filters.push(filter.to_string()),
            }
        }
        out
    }

    /// Whether the file `name` (relative to testdata/) is to run.
    fn selects(&self, name: &str) -> bool {
        !self.ignored_only
            && (self.filters.is_empty() || self.filters.iter().any(|f| name.contains(f.as_str())))
    }
}

/// Every `*.txt` file under `dir`, sorted, as (name relative to testdata/, path).
fn scenario_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for e in entries {
            let path = e.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "txt") {
                let name = path
                    .strip_prefix(dir)
                    .expect("under testdata")
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((name, path));
            }
        }
    }
    out.sort();
    out
}

/// One command whose output is not what the file expects.
struct Mismatch {
    /// `tests/testdata/<file>:<line>` of the command.
    location: String,
    command: String,
    /// The seed of the cluster the command ran on, if one had started.
    seed: Option<u64>,
    expected: String,
    actual: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let seed = match self.seed {
            Some(s) => format!("seed {s}"),
            None => "no cluster yet".to_string(),
        };
        writeln!(f, "{}: {} ({seed})", self.location, self.command)?;
        writeln!(f, "--- expected\n+++ actual")?;
        write!(f, "{}", diff(&self.expected, &self.actual))
    }
}

/// What running one file gave: its mismatches, or (with `--rewrite`) whether it was rewritten.
struct FileResult {
    name: String,
    mismatches: Vec<Mismatch>,
    /// A problem with the file itself (it does not parse, or holds lesson-only lines).
    error: Option<String>,
    rewritten: bool,
    steps: usize,
}

/// Lesson lines that mean nothing in a scenario file: stage directives, pauses, quizzes, titles
/// and speaker notes are for the page. A `#` comment is all a scenario needs.
fn lesson_only(lesson: &Lesson) -> Option<String> {
    if !lesson.title.is_empty() || !lesson.title_ko.is_empty() {
        return Some("a scenario has no #title: (a `# comment` names it)".into());
    }
    lesson.steps.iter().find_map(|s| {
        let what = if !s.directives.is_empty() {
            "a stage directive"
        } else if s.pause {
            "`pause`"
        } else if s.quiz.is_some() {
            "a quiz"
        } else if !s.notes.is_empty() {
            "a speaker note"
        } else if s.narration.iter().any(|n| n.lang != "any") {
            "a narration in one language (#ko:/#en:); write `# comment`"
        } else {
            return None;
        };
        Some(format!(
            "line {}: {what} belongs in a lesson, not here",
            s.line
        ))
    })
}

/// Runs the file `name` at `path`: every step through one console; with `rewrite`, writes the
/// outputs back when they differ from the file.
fn run_file(name: &str, path: &Path, rewrite: bool) -> FileResult {
    let mut result = FileResult {
        name: name.to_string(),
        mismatches: Vec::new(),
        error: None,
        rewritten: false,
        steps: 0,
    };
    let location = format!("tests/testdata/{name}");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{location}: {e}"));
    let lesson = match Lesson::parse(&location, &text) {
        Ok(l) => l,
        Err(e) => {
            result.error = Some(e.to_string());
            return result;
        }
    };
    if let Some(e) = lesson_only(&lesson) {
        result.error = Some(format!("{location}: {e}"));
        return result;
    }
    let mut console = Console::new();
    let mut outputs = Vec::new();
    for s in &lesson.steps {
        if s.command.is_empty() {
            outputs.push(None);
            continue;
        }
        result.steps += 1;
        let out = runner::step_output(&mut console, &s.command);
        let expected = s.expected.clone().unwrap_or_default();
        if runner::normalize(&expected) != runner::normalize(&out) {
            result.mismatches.push(Mismatch {
                location: format!("{location}:{}", s.line),
                command: s.command.clone(),
                seed: console.world.as_ref().map(|w| w.config().seed),
                expected,
                actual: out.clone(),
            });
        }
        outputs.push(Some(out));
    }
    // The file as --rewrite would write it from its own expected blocks: it must be the file,
    // so that a rewrite changes outputs and nothing else.
    let expected: Vec<Option<String>> = lesson.steps.iter().map(|s| s.expected.clone()).collect();
    let canonical = runner::normalize(&lesson.render(&expected)) == runner::normalize(&text);
    if rewrite {
        // A command that prints nothing stays bare (no `----` block), as etcd's files do.
        let mut bare = lesson.clone();
        for (s, out) in bare.steps.iter_mut().zip(&outputs) {
            if out.as_deref() == Some("") {
                s.expected = None;
            }
        }
        let new = bare.render(&outputs);
        if new != text {
            std::fs::write(path, &new).unwrap_or_else(|e| panic!("{location}: {e}"));
            result.rewritten = true;
        }
        result.mismatches.clear();
    } else if !canonical {
        result.error = Some(format!(
            "{location}: not laid out as --rewrite writes it (a comment block right above its \
             command, one blank line between blocks, no blank line at the end); run with \
             -- --rewrite and read the diff"
        ));
    }
    result
}

/// A line diff of `expected` and `actual` (longest common subsequence): ` ` kept, `-` only
/// expected, `+` only printed. Trailing white space is ignored, as in the comparison.
fn diff(expected: &str, actual: &str) -> String {
    let (e, a) = (runner::normalize(expected), runner::normalize(actual));
    let e: Vec<&str> = e.lines().collect();
    let a: Vec<&str> = a.lines().collect();
    // lcs[i][j]: the longest common subsequence of e[i..] and a[j..].
    let mut lcs = vec![vec![0usize; a.len() + 1]; e.len() + 1];
    for i in (0..e.len()).rev() {
        for j in (0..a.len()).rev() {
            lcs[i][j] = if e[i] == a[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = String::new();
    while i < e.len() || j < a.len() {
        if i < e.len() && j < a.len() && e[i] == a[j] {
            out.push_str(&format!("  {}\n", e[i]));
            i += 1;
            j += 1;
        } else if i < e.len() && (j == a.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push_str(&format!("- {}\n", e[i]));
            i += 1;
        } else {
            out.push_str(&format!("+ {}\n", a[j]));
            j += 1;
        }
    }
    out
}

/// Runs `files` on up to `threads` threads (each file is its own world), in file order.
fn run_all(files: &[(String, PathBuf)], rewrite: bool, threads: usize) -> Vec<FileResult> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<(usize, FileResult)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((name, path)) = files.get(k) else {
                            break mine;
                        };
                        mine.push((k, run_file(name, path, rewrite)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker"))
            .collect()
    });
    results.sort_by_key(|(k, _)| *k);
    results.into_iter().map(|(_, r)| r).collect()
}

fn main() {
    let args = Args::parse(std::env::args().skip(1));
    let files: Vec<(String, PathBuf)> = scenario_files(Path::new(TESTDATA))
        .into_iter()
        .filter(|(name, _)| args.selects(name))
        .collect();
    if args.list {
        for (name, _) in &files {
            println!("{name}: test");
        }
        return;
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let started = Instant::now();
    let results = run_all(&files, args.rewrite, threads);
    let mut failed = 0;
    let mut steps = 0;
    for r in &results {
        steps += r.steps;
        let ok = r.error.is_none() && r.mismatches.is_empty();
        let status = match (ok, r.rewritten) {
            (true, true) => "rewritten",
            (true, false) => "ok",
            (false, _) => "FAILED",
        };
        println!("datadriven {} ... {status}", r.name);
        if !ok {
            failed += 1;
        }
    }
    for r in &results {
        if let Some(e) = &r.error {
            eprintln!("\n{e}");
        }
        for m in &r.mismatches {
            eprintln!("\n{m}");
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "\ndatadriven: {} files ({steps} commands), {} passed, {failed} failed in {elapsed:.2}s{}",
        results.len(),
        results.len() - failed,
        if args.rewrite { " (--rewrite)" } else { "" }
    );
    if failed > 0 {
        eprintln!("\nrerun with `cargo test --release -p kraft-core --test datadriven -- --rewrite` if the new outputs are right, then read the diff");
        std::process::exit(1);
    }
}
