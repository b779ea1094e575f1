//! `ls`, `cat`, `head` and `tail` over a node's disk (`<node>/__cluster_metadata-0`,
//! `<node>/meta.properties`) and its log files (`<node>/server.log`, `<node>/controller.log`).

use super::{split_node_path, ToolError};
use crate::raft::disk::METADATA_DIR;
use crate::sim::node::Node;
use crate::sim::World;

/// The log files every node has next to its data directory.
pub const LOG_FILES: &[&str] = &["controller.log", "server.log", "state-change.log"];

/// What a path names.
enum Entry {
    /// A directory and its sorted names.
    Dir(Vec<String>),
    /// A text file.
    File(String),
    /// A segment file whose bytes are binary (`.log`, `.index`, `.timeindex`).
    Binary,
}

fn log_text(node: &Node, file: &str) -> String {
    let mut s = String::new();
    for l in node.log.lines().filter(|l| l.file.name() == file) {
        s.push_str(&l.to_string());
        s.push('\n');
    }
    s
}

/// Resolve `<node>/<path>`; None when nothing is there.
fn resolve(world: &World, arg: &str) -> Option<Entry> {
    let (id, rel) = split_node_path(arg)?;
    let node = world.node(id)?;
    // A machine not formatted yet (`add-node`) has only its properties file.
    if !node.formatted && (rel == METADATA_DIR || rel.starts_with(&format!("{METADATA_DIR}/"))) {
        return None;
    }
    if rel.is_empty() {
        let mut names = node.disk.list("");
        if !node.formatted {
            names.retain(|n| n != METADATA_DIR);
        }
        names.extend(LOG_FILES.iter().map(|s| s.to_string()));
        names.sort();
        names.dedup();
        return Some(Entry::Dir(names));
    }
    if LOG_FILES.contains(&rel.as_str()) {
        return Some(Entry::File(log_text(node, &rel)));
    }
    let listed = node.disk.list(&rel);
    if !listed.is_empty() || rel == METADATA_DIR {
        return Some(Entry::Dir(listed));
    }
    if let Some(text) = node.disk.cat(&rel) {
        return Some(Entry::File(text));
    }
    let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel.as_str()));
    if node.disk.list(dir).iter().any(|n| n == name) {
        return Some(Entry::Binary);
    }
    None
}

fn no_such(tool: &str, arg: &str, ls_style: bool) -> String {
    if ls_style {
        format!("{tool}: cannot access '{arg}': No such file or directory\n")
    } else {
        format!("{tool}: {arg}: No such file or directory\n")
    }
}

pub(crate) fn unknown_option(tool: &str, opt: &str) -> ToolError {
    let flag = opt.trim_start_matches('-');
    let text = if opt.starts_with("--") {
        format!("{tool}: unrecognized option '{opt}'\n")
    } else {
        format!(
            "{tool}: invalid option -- '{}'\n",
            flag.chars().next().unwrap_or('-')
        )
    };
    ToolError {
        stdout: String::new(),
        message: format!("{text}Try '{tool} --help' for more information.\n"),
        exit_code: 2,
    }
}

/// Finish a command: output, and errors after it (exit 2 for ls, 1 for the other shell
/// commands, 0 for kafka-dump-log's warnings).
pub(crate) fn finish(out: String, err: String, code: i32) -> Result<String, ToolError> {
    if err.is_empty() {
        Ok(out)
    } else {
        Err(ToolError {
            stdout: out,
            message: err,
            exit_code: code,
        })
    }
}

/// `ls [-1] PATH...`: one name a line, as `ls` prints into a pipe.
pub fn ls(world: &World, args: &[String]) -> Result<String, ToolError> {
    let mut paths = Vec::new();
    for a in args {
        match a.as_str() {
            "-1" => {}
            s if s.starts_with('-') && s.len() > 1 => return Err(unknown_option("ls", s)),
            s => paths.push(s.to_string()),
        }
    }
    if paths.is_empty() {
        let mut ids: Vec<String> = world.node_ids().iter().map(|i| i.to_string()).collect();
        ids.sort();
        return Ok(ids.iter().map(|i| format!("{i}\n")).collect());
    }
    let mut out = String::new();
    let mut err = String::new();
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    for p in &paths {
        match resolve(world, p) {
            None => err.push_str(&no_such("ls", p, true)),
            Some(Entry::Dir(names)) => dirs.push((p.clone(), names)),
            Some(_) => files.push(p.clone()),
        }
    }
    for f in &files {
        out.push_str(&format!("{f}\n"));
    }
    let many = paths.len() > 1;
    for (i, (p, names)) in dirs.iter().enumerate() {
        if many {
            if i > 0 || !files.is_empty() {
                out.push('\n');
            }
            out.push_str(&format!("{p}:\n"));
        }
        // Without -a, ls hides dot files (the clean-shutdown marker).
        for n in names.iter().filter(|n| !n.starts_with('.')) {
            out.push_str(&format!("{n}\n"));
        }
    }
    finish(out, err, 2)
}

/// `cat PATH...`.
pub fn cat(world: &World, args: &[String]) -> Result<String, ToolError> {
    let mut out = String::new();
    let mut err = String::new();
    for p in args {
        match resolve(world, p) {
            None => err.push_str(&no_such("cat", p, false)),
            Some(Entry::Dir(_)) => err.push_str(&format!("cat: {p}: Is a directory\n")),
            Some(Entry::Binary) => err.push_str(&format!(
                "cat: {p}: binary file (read it with kafka-dump-log.sh --cluster-metadata-decoder --files {p})\n"
            )),
            Some(Entry::File(text)) => out.push_str(&text),
        }
    }
    finish(out, err, 1)
}

/// The text of a readable file, or the tool's error.
pub(crate) fn read_text(world: &World, tool: &str, p: &str) -> Result<String, String> {
    match resolve(world, p) {
        None => Err(no_such(tool, p, false)),
        Some(Entry::Dir(_)) => Err(format!("{tool}: {p}: Is a directory\n")),
        Some(Entry::Binary) => Err(format!("{tool}: {p}: binary file\n")),
        Some(Entry::File(t)) => Ok(t),
    }
}

/// `head` / `tail [-n N | -N] FILE...` (10 lines by default).
pub fn head_tail(world: &World, args: &[String], head: bool) -> Result<String, ToolError> {
    let tool = if head { "head" } else { "tail" };
    let mut n: usize = 10;
    let mut files = Vec::new();
    let mut i = 0;
    let bad_count = |v: &str| ToolError {
        stdout: String::new(),
        message: format!("{tool}: invalid number of lines: '{v}'\n"),
        exit_code: 1,
    };
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a == "-n" {
            let Some(v) = args.get(i) else {
                return Err(ToolError {
                    stdout: String::new(),
                    message: format!("{tool}: option requires an argument -- 'n'\nTry '{tool} --help' for more information.\n"),
                    exit_code: 1,
                });
            };
            i += 1;
            n = v.parse().map_err(|_| bad_count(v))?;
        } else if let Some(v) = a.strip_prefix("-n") {
            n = v.parse().map_err(|_| bad_count(v))?;
        } else if a.starts_with('-') && a.len() > 1 {
            match a[1..].parse() {
                Ok(v) => n = v,
                Err(_) => return Err(unknown_option(tool, a)),
            }
        } else {
            files.push(a.clone());
        }
    }
    if files.is_empty() {
        return Err(ToolError::new(format!(
            "{tool}: no input in the KRaft Playground; name a file such as 101/server.log"
        )));
    }
    let mut out = String::new();
    let mut err = String::new();
    for (k, f) in files.iter().enumerate() {
        let text = match read_text(world, tool, f) {
            Ok(t) => t,
            Err(e) => {
                err.push_str(&e);
                continue;
            }
        };
        if files.len() > 1 {
            if k > 0 {
                out.push('\n');
            }
            out.push_str(&format!("==> {f} <==\n"));
        }
        let lines: Vec<&str> = text.lines().collect();
        let chosen = if head {
            &lines[..n.min(lines.len())]
        } else {
            &lines[lines.len().saturating_sub(n)..]
        };
        for l in chosen {
            out.push_str(l);
            out.push('\n');
        }
    }
    finish(out, err, 1)
}
