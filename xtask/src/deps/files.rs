//! Import cycles between the files of a crate: each `crate::`, `super::` or `self::` path is
//! resolved to the deepest module file it names, and the graph of file imports must have no
//! cycle. A module and the modules inside it may use each other (a parent re-exports its
//! children; a child file holds part of its parent's `impl`), so those edges are not counted.

use std::collections::{BTreeMap, BTreeSet};

use super::source::{self, Anchor};
use super::{production_code, Production, SourceFile};

/// One import of a file by another: the place and the line.
#[derive(Clone, Debug)]
struct Edge {
    /// Importing module.
    from: Vec<String>,
    /// Imported module.
    to: Vec<String>,
    /// `path:line`.
    at: String,
    /// The line, trimmed.
    line: String,
}

/// How many imports between files (of different modules) one crate has, and one message per
/// import cycle among them.
pub fn cycles(files: &[SourceFile]) -> (usize, Vec<String>) {
    let modules: BTreeSet<&[String]> = files.iter().map(|f| f.module.as_slice()).collect();
    let mut edges: BTreeMap<Vec<String>, Vec<Edge>> = BTreeMap::new();
    for (file, code) in files.iter().zip(production_code(files)) {
        let Some(Production { clean, .. }) = code else {
            continue;
        };
        for r in source::path_refs(&clean) {
            let Some(to) = resolve(&modules, &file.module, r.anchor, &r.segments) else {
                continue;
            };
            if to.starts_with(&file.module) || file.module.starts_with(&to) {
                continue;
            }
            let list = edges.entry(file.module.clone()).or_default();
            if list.iter().all(|e| e.to != to) {
                list.push(Edge {
                    from: file.module.clone(),
                    to,
                    at: format!("{}:{}", file.path, r.line),
                    line: file
                        .text
                        .lines()
                        .nth(r.line - 1)
                        .unwrap_or("")
                        .trim()
                        .into(),
                });
            }
        }
    }
    let mut problems = Vec::new();
    let mut reported: BTreeSet<Vec<Vec<String>>> = BTreeSet::new();
    for list in edges.values() {
        for e in list {
            let Some(back) = shortest_path(&edges, &e.to, &e.from) else {
                continue;
            };
            let mut cycle = vec![e];
            cycle.extend(back);
            let mut key: Vec<Vec<String>> = cycle.iter().map(|e| e.from.clone()).collect();
            key.sort();
            if reported.insert(key) {
                problems.push(describe(&cycle));
            }
        }
    }
    (edges.values().map(Vec::len).sum(), problems)
}

/// The deepest module file a path names, from the module it is written in.
fn resolve(
    modules: &BTreeSet<&[String]>,
    here: &[String],
    anchor: Anchor,
    segments: &[String],
) -> Option<Vec<String>> {
    let base: &[String] = match anchor {
        Anchor::Crate => &[],
        Anchor::SelfModule => here,
        Anchor::Super(n) => here.get(..here.len().checked_sub(n)?)?,
    };
    let mut full: Vec<String> = base.to_vec();
    full.extend(segments.iter().filter(|s| *s != "self").cloned());
    (1..=full.len())
        .rev()
        .map(|k| &full[..k])
        .find(|prefix| modules.contains(prefix))
        .map(<[String]>::to_vec)
}

/// The edges of a shortest path from `from` to `to`, breadth first.
fn shortest_path<'a>(
    edges: &'a BTreeMap<Vec<String>, Vec<Edge>>,
    from: &[String],
    to: &[String],
) -> Option<Vec<&'a Edge>> {
    let mut came: BTreeMap<&[String], &'a Edge> = BTreeMap::new();
    let mut seen: BTreeSet<&[String]> = BTreeSet::from([from]);
    let mut frontier: Vec<&[String]> = vec![from];
    while !frontier.is_empty() && !seen.contains(to) {
        let mut next = Vec::new();
        for node in frontier {
            for e in edges.get(node).into_iter().flatten() {
                if seen.insert(&e.to) {
                    came.insert(&e.to, e);
                    next.push(e.to.as_slice());
                }
            }
        }
        frontier = next;
    }
    let mut steps = Vec::new();
    let mut at = to;
    while at != from {
        let e = *came.get(at)?;
        steps.push(e);
        at = &e.from;
    }
    steps.reverse();
    Some(steps)
}

/// `import cycle between files: a -> b -> a` and each import's place.
fn describe(cycle: &[&Edge]) -> String {
    let name = |m: &[String]| m.join("::");
    let mut names: Vec<String> = cycle.iter().map(|e| name(&e.from)).collect();
    names.push(name(&cycle[0].from));
    let mut msg = format!("import cycle between files: {}", names.join(" -> "));
    for e in cycle {
        msg.push_str(&format!("\n  {}: `{}`", e.at, e.line));
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, module: &str, text: &str) -> SourceFile {
        SourceFile {
            path: path.into(),
            module: module.split("::").map(String::from).collect(),
            text: text.into(),
        }
    }

    #[test]
    fn siblings_importing_each_other_are_a_cycle() {
        let files = [
            file(
                "sim/mod.rs",
                "sim",
                "mod world; mod admin; pub use world::World;",
            ),
            file(
                "sim/world.rs",
                "sim::world",
                "use super::admin::AdminClient;",
            ),
            file(
                "sim/admin.rs",
                "sim::admin",
                "\nuse crate::sim::world::{World, X};",
            ),
        ];
        let (_, problems) = cycles(&files);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0]
            .starts_with("import cycle between files: sim::admin -> sim::world -> sim::admin"));
        assert!(problems[0].contains("sim/admin.rs:2: `use crate::sim::world::{World, X};`"));
    }

    #[test]
    fn parents_and_children_and_reexports_are_not_cycles() {
        let files = [
            file(
                "sim/mod.rs",
                "sim",
                "pub use self::world::World; use crate::sim::admin::A;",
            ),
            file(
                "sim/world.rs",
                "sim::world",
                "use super::World; use super::super::raft::R;",
            ),
            file("sim/admin.rs", "sim::admin", "use super::World;"),
            file("raft/mod.rs", "raft", "use crate::common::C;"),
            file("common/mod.rs", "common", ""),
        ];
        let (imports, problems) = cycles(&files);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(imports, 2);
    }
}
