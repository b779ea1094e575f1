//! `kafka-metadata-shell.sh --snapshot <node>/__cluster_metadata-0/<file> ls|cat|tree PATH`: the
//! MetadataImage built from a metadata log file, browsed as a file system (`/image/...`).

use super::{split_node_path, ToolError};
use crate::image::metadata_image::MetadataProvenance;
use crate::image::shell_tree::{image_tree, ShellNode};
use crate::image::{MetadataDelta, MetadataImage};
use crate::raft::batch::Record;
use crate::sim::World;

fn print_tree(name: &str, node: &ShellNode, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    match node {
        ShellNode::Dir(children) => {
            out.push_str(&format!("{pad}{name}:\n"));
            for (n, c) in children {
                print_tree(n, c, depth + 1, out);
            }
        }
        ShellNode::File(text) => out.push_str(&format!("{pad}{name}: {text}\n")),
    }
}

/// Build the image a metadata log segment or snapshot file holds: every metadata record
/// replayed in order.
fn load(world: &World, snapshot: &str) -> Result<MetadataImage, ToolError> {
    let missing = || ToolError::new(format!("java.nio.file.NoSuchFileException: {snapshot}"));
    let (id, rel) = split_node_path(snapshot).ok_or_else(missing)?;
    let node = world.node(id).ok_or_else(missing)?;
    let log = &node.disk.metadata_log;
    let (dir, name) = rel.rsplit_once('/').ok_or_else(missing)?;
    if dir != crate::raft::disk::METADATA_DIR {
        return Err(missing());
    }
    let mut delta = MetadataDelta::new(MetadataImage::default());
    let mut provenance = MetadataProvenance::default();
    let batches = if let Some(id) = crate::raft::snapshot::parse_snapshot_name(name) {
        let s = log.read_snapshot(id).ok_or_else(missing)?;
        provenance = MetadataProvenance {
            offset: id.offset - 1,
            epoch: id.epoch,
            time_ms: s.last_contained_log_timestamp,
        };
        s.batches.clone()
    } else {
        let base: i64 = name
            .strip_suffix(".log")
            .and_then(|b| b.parse().ok())
            .ok_or_else(missing)?;
        log.segment_batches(base).ok_or_else(missing)?
    };
    let is_snapshot = name.ends_with(".checkpoint");
    for b in &batches {
        for (i, r) in b.records.iter().enumerate() {
            if let Record::Metadata(m) = r {
                delta
                    .replay(m, b.base_offset + i as i64)
                    .map_err(|e| ToolError::new(format!("Error loading {snapshot}: {e}")))?;
            }
        }
        if !is_snapshot {
            provenance = MetadataProvenance {
                offset: b.last_offset(),
                epoch: b.partition_leader_epoch,
                time_ms: b.create_time_ms,
            };
        }
    }
    Ok(delta.apply(provenance))
}

/// Run the shell non-interactively: `--snapshot FILE COMMAND [PATH]`.
pub fn run(world: &mut World, args: &[String]) -> Result<String, ToolError> {
    let mut snapshot = None;
    let mut rest: Vec<String> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--snapshot" | "-s" => {
                i += 1;
                snapshot = Some(
                    args.get(i)
                        .ok_or_else(|| {
                            ToolError::new("argument --snapshot/-s: expected one argument")
                        })?
                        .clone(),
                );
            }
            a if a.starts_with('-') && rest.is_empty() => {
                return Err(ToolError::new(format!(
                    "kafka-metadata-shell: error: unrecognized arguments: '{a}'"
                )))
            }
            a => rest.push(a.to_string()),
        }
        i += 1;
    }
    let snapshot = snapshot.ok_or_else(|| {
        ToolError::new("kafka-metadata-shell: error: argument --snapshot/-s is required")
    })?;
    let image = load(world, &snapshot)?;
    let root = image_tree(&image);
    let (cmd, path) = match rest.as_slice() {
        [c] => (c.as_str(), "/".to_string()),
        [c, p] => (c.as_str(), p.clone()),
        [] => {
            return Err(ToolError::new(
                "kafka-metadata-shell: give a command (ls, cat, tree) to run",
            ))
        }
        _ => return Err(ToolError::new(format!("{}: too many arguments", rest[0]))),
    };
    let node = root.lookup(&path);
    match (cmd, node) {
        ("ls", Some(ShellNode::Dir(children))) => Ok(format!(
            "{}\n",
            children
                .iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        )),
        ("ls", Some(ShellNode::File(_))) => {
            Ok(format!("{}\n", path.rsplit('/').next().unwrap_or(&path)))
        }
        ("cat", Some(ShellNode::File(text))) => Ok(format!("{text}\n")),
        ("cat", Some(ShellNode::Dir(_))) => {
            Err(ToolError::new(format!("cat: {path}: Is a directory")))
        }
        ("tree", Some(n)) => {
            let mut out = String::new();
            print_tree(
                path.rsplit('/').find(|p| !p.is_empty()).unwrap_or("/"),
                n,
                0,
                &mut out,
            );
            Ok(out)
        }
        ("ls" | "cat" | "tree", None) => Err(ToolError::new(format!(
            "{cmd}: {path}: no such file or directory."
        ))),
        (other, _) => Err(ToolError::new(format!(
            "Unknown command {other}. Type help for help."
        ))),
    }
}
