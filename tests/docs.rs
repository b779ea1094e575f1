//! The docs list what the code has: the panels (`Panel::ALL`), the lesson directives
//! (`DIRECTIVES`) and the console commands (the console's table and Kafka's tools), and the
//! README stays an index.

use kraft_core::lesson::console::command_names;
use kraft_core::lesson::stage::{Panel, DIRECTIVES};

/// A file of the repository.
fn read(path: &str) -> String {
    let full = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// The first column of the table under `## heading` in `doc` (its backticked names).
fn listed(doc: &str, heading: &str) -> Vec<String> {
    let text = read(doc);
    let start = text
        .find(&format!("\n## {heading}\n"))
        .unwrap_or_else(|| panic!("{doc} has no `## {heading}`"));
    text[start + 1..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

/// `docs` names exactly `code`, in the same order.
fn same(what: &str, docs: Vec<String>, code: Vec<&str>) {
    assert_eq!(
        docs, code,
        "the docs' list of {what} differs from the code's: mend the docs"
    );
}

#[test]
fn the_manual_lists_every_panel() {
    let code: Vec<&str> = Panel::ALL.iter().map(|p| p.name()).collect();
    same("panels", listed("docs/manual.md", "Panels"), code);
}

#[test]
fn the_lesson_guide_lists_every_directive_and_command() {
    same(
        "directives",
        listed("docs/lessons.md", "Directives"),
        DIRECTIVES.to_vec(),
    );
    let commands: Vec<&str> = command_names()
        .chain(kraft_core::tools::COMMANDS.iter().copied())
        .collect();
    same(
        "console commands",
        listed("docs/lessons.md", "Console commands"),
        commands,
    );
}

#[test]
fn the_readme_is_an_index_and_its_links_resolve() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= 160,
        "README.md has {lines} lines: move detail to docs/"
    );
    for doc in [
        "docs/manual.md",
        "docs/lessons.md",
        "docs/rules.md",
        "docs/architecture.md",
        "docs/testing.md",
        "docs/recipes.md",
    ] {
        assert!(readme.contains(doc), "README.md does not point to {doc}");
        read(doc);
    }
}
