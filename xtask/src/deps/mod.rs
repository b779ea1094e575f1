//! `cargo xtask deps`: the house rules of the source tree, checked from the source itself.
//!
//! - kraft-core's top-level modules sit in layers ([`LAYERS`]); a module may import its own layer
//!   or the ones below, never one above, and the imports between modules have no cycle.
//! - No two files of core, web or xtask import each other, directly or around a loop (a module
//!   and the modules inside it excepted: see `files.rs`).
//! - No source file of core, web or xtask is over [`size::MAX_FILE_LINES`] lines, test code not
//!   counted, and no function over [`size::MAX_FN_LINES`] unless its doc comment says it is
//!   [`size::KAFKA_LENGTH_MARK`] method (and names it).
//!
//! Test code (`#[cfg(test)]` items and the test-only files they declare) is not checked: a test may
//! drive a module from above.

mod files;
mod size;
mod source;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::{root_dir, Result};

/// kraft-core's layers, bottom first: a layer's name and its top-level modules.
pub const LAYERS: &[(&str, &[&str])] = &[
    ("shared types and the RPC bodies", &["common"]),
    (
        "Raft, timeline, metadata records",
        &["metadata", "timeline", "raft"],
    ),
    (
        "controller, image, broker",
        &["controller", "image", "broker"],
    ),
    ("the node and the world", &["sim"]),
    (
        "view, lessons, tools, checks",
        &["view", "lesson", "tools", "invariants", "swarm"],
    ),
    ("the CLI", &["cli"]),
];

/// The layer of a top-level module.
fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, mods)| mods.contains(&module))
}

/// One source file: its path (for messages), module path within its crate, and text.
pub struct SourceFile {
    /// Path relative to the repository root, e.g. `core/src/sim/world.rs`.
    pub path: String,
    /// Module path within the crate, e.g. `["sim", "world"]`; empty for `lib.rs`.
    pub module: Vec<String>,
    /// The file's text.
    pub text: String,
}

/// One import from a top-level module into another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Import {
    /// Importing top-level module.
    pub from: String,
    /// Imported top-level module.
    pub to: String,
    /// `path:line` of the first place it happens.
    pub at: String,
    /// That line, trimmed.
    pub line: String,
}

/// What the import check found.
#[derive(Debug, Default)]
pub struct ImportReport {
    /// One entry per (from, to) pair of different top-level modules, first occurrence.
    pub imports: Vec<Import>,
    /// Problems, each a message naming the place and the `use`.
    pub problems: Vec<String>,
}

/// Runs the checks on the repository; the error lists every problem.
pub fn run() -> Result<()> {
    let root = root_dir();
    let core = read_crate(&root, "core/src")?;
    let report = check_imports(&core);
    let mut problems = report.problems.clone();
    let mut all = Vec::new();
    let mut file_imports = Vec::new();
    for (dir, krate) in [
        ("core", Ok(core)),
        ("web", read_crate(&root, "web/src")),
        ("xtask", read_crate(&root, "xtask/src")),
    ] {
        let krate = krate?;
        let (imports, cycles) = files::cycles(&krate);
        file_imports.push(format!("{imports} in {dir}"));
        problems.extend(cycles);
        all.extend(krate);
    }
    let sizes = size::check(&all);
    problems.extend(sizes.problems.iter().cloned());
    print_layers(&report);
    println!(
        "files: imports between files (a module and those inside it aside): {}",
        file_imports.join(", ")
    );
    println!(
        "sizes: {} files, largest {} lines ({}); {} functions, longest {} lines ({})",
        sizes.files,
        sizes.largest_file.0,
        sizes.largest_file.1,
        sizes.functions,
        sizes.longest_fn.0,
        sizes.longest_fn.1
    );
    if problems.is_empty() {
        Ok(())
    } else {
        for p in &problems {
            eprintln!("{p}");
        }
        if sizes.problems.iter().any(|p| p.contains("function of")) {
            eprintln!(
                "(a function as long as the Kafka method it mirrors may stay: say \"{} \
                 `Class.method`\" in its doc comment)",
                size::KAFKA_LENGTH_MARK
            );
        }
        Err(format!(
            "{} problem(s) with the source tree's house rules",
            problems.len()
        )
        .into())
    }
}

/// Prints the layers, top first, with the imports between modules.
fn print_layers(report: &ImportReport) {
    println!(
        "deps: kraft-core's {} modules in {} layers; {} imports between modules",
        LAYERS.iter().map(|(_, m)| m.len()).sum::<usize>(),
        LAYERS.len(),
        report.imports.len()
    );
    for (n, (name, mods)) in LAYERS.iter().enumerate().rev() {
        println!("  {n} {name:<34} {}", mods.join(" "));
        for m in mods.iter() {
            let to: Vec<&str> = report
                .imports
                .iter()
                .filter(|i| i.from == *m)
                .map(|i| i.to.as_str())
                .collect();
            if !to.is_empty() {
                println!("      {m} -> {}", to.join(" "));
            }
        }
    }
}

/// Every `.rs` file under `dir` (relative to `root`), with its module path; `src/bin` is left out
/// (binaries use the crate by name).
fn read_crate(root: &Path, dir: &str) -> Result<Vec<SourceFile>> {
    let base = root.join(dir);
    let mut paths = Vec::new();
    walk(&base, &mut paths)?;
    paths.sort();
    let mut files = Vec::new();
    for p in paths {
        let rel = p.strip_prefix(&base).map_err(|e| e.to_string())?;
        let parts: Vec<String> = rel
            .iter()
            .map(|s| s.to_string_lossy().into_owned())
            .collect();
        if parts.first().is_some_and(|p| p == "bin") {
            continue;
        }
        let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        files.push(SourceFile {
            path: format!("{dir}/{}", rel.display()),
            module: module_path(&parts),
            text,
        });
    }
    Ok(files)
}

/// Collects the `.rs` files under `dir`.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// The module path of a file from its path parts under `src/`: `a/b.rs` and `a/b/mod.rs` are
/// `a::b`; `lib.rs` and `main.rs` are the crate root.
fn module_path(parts: &[String]) -> Vec<String> {
    let mut module: Vec<String> = parts.to_vec();
    if let Some(last) = module.pop() {
        let stem = last.trim_end_matches(".rs");
        let at_root = module.is_empty() && (stem == "lib" || stem == "main");
        if stem != "mod" && !at_root {
            module.push(stem.to_string());
        }
    }
    module
}

/// The import check over one crate's files (module paths relative to its root).
pub fn check_imports(files: &[SourceFile]) -> ImportReport {
    let cleaned = production_code(files);
    let mut report = ImportReport::default();
    let mut seen = BTreeSet::new();
    for (file, clean) in files.iter().zip(&cleaned) {
        let Some(Production { clean, .. }) = clean else {
            continue;
        };
        let Some(from) = file.module.first() else {
            continue;
        };
        for r in source::path_refs(clean) {
            // `super::` paths leave the top-level module only when they climb to the root.
            match r.anchor {
                source::Anchor::Crate => {}
                source::Anchor::Super(n) if n == file.module.len() => {}
                _ => continue,
            }
            let to = r.first().to_string();
            if &to == from || !files.iter().any(|f| f.module.first() == Some(&to)) {
                continue;
            }
            let line = file.text.lines().nth(r.line - 1).unwrap_or("").trim();
            let import = Import {
                from: from.clone(),
                to: to.clone(),
                at: format!("{}:{}", file.path, r.line),
                line: line.to_string(),
            };
            match (layer_of(from), layer_of(&to)) {
                (Some(a), Some(b)) if b > a => report.problems.push(format!(
                    "{}: `{}`\n  {from} (layer {a}: {}) imports {to} (layer {b}: {}), a layer above it",
                    import.at, import.line, LAYERS[a].0, LAYERS[b].0
                )),
                _ => {}
            }
            if seen.insert((from.clone(), to.clone())) {
                report.imports.push(import);
            }
        }
    }
    let mut unlayered = BTreeSet::new();
    for file in files {
        if let Some(m) = file.module.first() {
            if layer_of(m).is_none() && unlayered.insert(m) {
                report.problems.push(format!(
                    "{}: module `{m}` is in no layer: add it to LAYERS in xtask/src/deps/mod.rs",
                    file.path
                ));
            }
        }
    }
    report.problems.extend(cycles(&report.imports));
    report
}

/// A file's code without its tests.
pub struct Production {
    /// The text with comments, literals and test items blanked (lines kept).
    pub clean: String,
    /// Lines the test items spanned.
    pub test_lines: usize,
}

/// Each file's code without tests, or `None` for a test-only file (one crate's files).
fn production_code(files: &[SourceFile]) -> Vec<Option<Production>> {
    let mut test_modules: Vec<Vec<String>> = Vec::new();
    let cleaned: Vec<Production> = files
        .iter()
        .map(|f| {
            let (clean, children, test_lines) =
                source::without_test_items(&source::blank_comments_and_literals(&f.text));
            for child in children {
                let mut m = f.module.clone();
                m.push(child);
                test_modules.push(m);
            }
            Production { clean, test_lines }
        })
        .collect();
    files
        .iter()
        .zip(cleaned)
        .map(|(f, clean)| {
            let test_only = test_modules.iter().any(|t| f.module.starts_with(t));
            (!test_only).then_some(clean)
        })
        .collect()
}

/// One message per import cycle among the top-level modules, naming each import on it.
fn cycles(imports: &[Import]) -> Vec<String> {
    let mut graph: BTreeMap<&str, Vec<&Import>> = BTreeMap::new();
    for i in imports {
        graph.entry(&i.from).or_default().push(i);
    }
    let mut reported: BTreeSet<Vec<String>> = BTreeSet::new();
    let mut problems = Vec::new();
    for start in imports {
        // A path back from `start.to` to `start.from` closes a cycle through `start`.
        let Some(back) = path(&graph, &start.to, &start.from) else {
            continue;
        };
        let mut cycle = vec![start];
        cycle.extend(back);
        let mut key: Vec<String> = cycle.iter().map(|i| i.from.clone()).collect();
        key.sort();
        if !reported.insert(key) {
            continue;
        }
        let names: Vec<&str> = cycle
            .iter()
            .map(|i| i.from.as_str())
            .chain([start.from.as_str()])
            .collect();
        let mut msg = format!("import cycle: {}", names.join(" -> "));
        for i in cycle {
            msg.push_str(&format!("\n  {}: `{}`", i.at, i.line));
        }
        problems.push(msg);
    }
    problems
}

/// The imports of a shortest path from `from` to `to` (breadth first), if any.
fn path<'a>(
    graph: &BTreeMap<&str, Vec<&'a Import>>,
    from: &str,
    to: &str,
) -> Option<Vec<&'a Import>> {
    let mut came: BTreeMap<String, &'a Import> = BTreeMap::new();
    let mut frontier = vec![from.to_string()];
    let mut seen: BTreeSet<String> = BTreeSet::from([from.to_string()]);
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for node in frontier {
            for i in graph.get(node.as_str()).into_iter().flatten() {
                if seen.insert(i.to.clone()) {
                    came.insert(i.to.clone(), i);
                    next.push(i.to.clone());
                }
            }
        }
        if seen.contains(to) {
            let mut steps = Vec::new();
            let mut at = to.to_string();
            while at != from {
                let i = came[&at];
                steps.push(i);
                at = i.from.clone();
            }
            steps.reverse();
            return Some(steps);
        }
        frontier = next;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, text: &str) -> SourceFile {
        let parts: Vec<String> = path.split('/').map(String::from).collect();
        SourceFile {
            path: format!("core/src/{path}"),
            module: module_path(&parts),
            text: text.to_string(),
        }
    }

    #[test]
    fn module_paths_follow_rust_rules() {
        let m = |p: &str| module_path(&p.split('/').map(String::from).collect::<Vec<_>>());
        assert_eq!(m("lib.rs"), Vec::<String>::new());
        assert_eq!(m("sim/mod.rs"), ["sim"]);
        assert_eq!(m("sim/world.rs"), ["sim", "world"]);
        assert_eq!(m("cli.rs"), ["cli"]);
    }

    #[test]
    fn a_layered_tree_passes() {
        let files = [
            file("common/mod.rs", "pub mod uuid;"),
            file("common/uuid.rs", "pub struct Uuid;"),
            file(
                "raft/mod.rs",
                "use crate::common::uuid::Uuid;\nuse super::common::rng;",
            ),
            file(
                "sim/world.rs",
                "use crate::{raft::X, common};\nuse super::super::raft::Y;",
            ),
            file(
                "view/mod.rs",
                "#[cfg(test)]\nmod tests { use crate::cli::Z; }\n#[cfg(test)]\nmod more;",
            ),
            file("view/more.rs", "use crate::cli::W;"),
            file(
                "cli.rs",
                "use crate::view::V; // crate::lesson\nfn f() { \"crate::tools\"; }",
            ),
        ];
        let report = check_imports(&files);
        assert!(report.problems.is_empty(), "{:?}", report.problems);
        let pairs: Vec<(&str, &str)> = report
            .imports
            .iter()
            .map(|i| (i.from.as_str(), i.to.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("raft", "common"),
                ("sim", "raft"),
                ("sim", "common"),
                ("cli", "view")
            ]
        );
        assert_eq!(report.imports[1].at, "core/src/sim/world.rs:1");
    }

    #[test]
    fn an_import_up_a_layer_is_named_with_its_line() {
        let files = [
            file("sim/mod.rs", "pub mod world;"),
            file("sim/world.rs", "\nuse crate::view::status_table;\n"),
            file("view/mod.rs", "use crate::sim::World;"),
        ];
        let report = check_imports(&files);
        assert_eq!(report.problems.len(), 2, "{:?}", report.problems);
        assert!(report.problems[0].starts_with(
            "core/src/sim/world.rs:2: `use crate::view::status_table;`\n  sim (layer 3"
        ));
        assert!(report.problems[1].starts_with("import cycle: sim -> view -> sim"));
    }

    #[test]
    fn a_cycle_within_a_layer_is_found_once() {
        let files = [
            file("tools/mod.rs", "use crate::lesson::A;"),
            file("lesson/mod.rs", "use crate::view::B;"),
            file("view/mod.rs", "use crate::tools::C;"),
        ];
        let report = check_imports(&files);
        assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
        let p = &report.problems[0];
        assert!(
            p.starts_with("import cycle: tools -> lesson -> view -> tools"),
            "{p}"
        );
        assert!(p.contains("core/src/view/mod.rs:1: `use crate::tools::C;`"));
    }

    #[test]
    fn a_module_in_no_layer_is_an_error() {
        let report = check_imports(&[
            file("gadget.rs", "use crate::sim::X;"),
            file("sim/mod.rs", ""),
        ]);
        assert!(report
            .problems
            .iter()
            .any(|p| p.contains("module `gadget` is in no layer")));
    }
}
