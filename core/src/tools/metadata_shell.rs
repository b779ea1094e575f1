//! `kafka-metadata-shell.sh --snapshot <node>/__cluster_metadata-0/<file> ls|cat|tree PATH`: the
//! MetadataImage built from a metadata log file, browsed as a file system (`/image/...`).

use super::{split_node_path, ToolError};
use crate::controller::cluster_control::broker_registration_text;
use crate::image::metadata_image::MetadataProvenance;
use crate::image::{MetadataDelta, MetadataImage};
use crate::raft::batch::Record;
use crate::sim::clock::iso_utc;
use crate::sim::World;

/// A node of the shell's tree: a directory of named children, or a file's text.
enum ShellNode {
    Dir(Vec<(String, ShellNode)>),
    File(String),
}

fn dir(children: Vec<(String, ShellNode)>) -> ShellNode {
    ShellNode::Dir(children)
}

fn file(text: String) -> ShellNode {
    ShellNode::File(text)
}

/// The image as the shell's tree (children sorted as `ls` shows them).
fn tree(image: &MetadataImage) -> ShellNode {
    let topic_node = |t: &crate::image::metadata_image::TopicImage| {
        let mut children: Vec<(String, ShellNode)> = t
            .partitions
            .iter()
            .map(|(p, r)| (p.to_string(), file(r.partition_registration_text())))
            .collect();
        children.push(("id".into(), file(t.id.to_string())));
        children.push(("name".into(), file(t.name.clone())));
        dir(children)
    };
    let by_name = image
        .topics
        .by_name
        .iter()
        .filter_map(|(n, id)| {
            image
                .topics
                .by_id
                .get(id)
                .map(|t| (n.clone(), topic_node(t)))
        })
        .collect();
    let by_id = image
        .topics
        .by_id
        .iter()
        .map(|(id, t)| (id.to_string(), topic_node(t)))
        .collect();
    let brokers = image
        .cluster
        .brokers
        .iter()
        .map(|(id, b)| (id.to_string(), file(broker_registration_text(&b.record))))
        .collect();
    let controllers = image
        .cluster
        .controllers
        .iter()
        .map(|(id, c)| {
            (
                id.to_string(),
                file(format!(
                    "ControllerRegistration(id={}, incarnationId={}, zkMigrationReady={})",
                    c.controller_id, c.incarnation_id, c.zk_migration_ready
                )),
            )
        })
        .collect();
    let features = image
        .features
        .levels
        .iter()
        .map(|(k, v)| (k.clone(), file(v.to_string())))
        .collect();
    let mut configs: Vec<(String, ShellNode)> = Vec::new();
    let mut resources: std::collections::BTreeMap<String, Vec<(String, ShellNode)>> =
        Default::default();
    for ((t, n, k), v) in &image.configs.configs {
        let resource = format!(
            "{}:{n}",
            crate::controller::configuration_control::resource_type_name(*t)
        );
        resources
            .entry(resource)
            .or_default()
            .push((k.clone(), file(v.clone())));
    }
    for (r, c) in resources {
        configs.push((r, dir(c)));
    }
    let p = image.provenance;
    dir(vec![
        (
            "image".into(),
            dir(vec![
                ("acls".into(), dir(Vec::new())),
                ("clientQuotas".into(), dir(Vec::new())),
                (
                    "cluster".into(),
                    dir(vec![
                        ("brokers".into(), dir(brokers)),
                        ("controllers".into(), dir(controllers)),
                    ]),
                ),
                ("configs".into(), dir(configs)),
                ("delegationToken".into(), dir(Vec::new())),
                ("features".into(), dir(features)),
                ("producerIds".into(), dir(Vec::new())),
                (
                    "provenance".into(),
                    file(format!(
                        "offset {}, epoch {}, time {}",
                        p.offset,
                        p.epoch,
                        iso_utc(p.time_ms)
                    )),
                ),
                ("scram".into(), dir(Vec::new())),
                (
                    "topics".into(),
                    dir(vec![
                        ("byId".into(), dir(by_id)),
                        ("byName".into(), dir(by_name)),
                    ]),
                ),
            ]),
        ),
        (
            "local".into(),
            dir(vec![("version".into(), file("4.5.0-SNAPSHOT".into()))]),
        ),
    ])
}

fn lookup<'a>(root: &'a ShellNode, path: &str) -> Option<&'a ShellNode> {
    let mut cur = root;
    for part in path.split('/').filter(|p| !p.is_empty()) {
        match cur {
            ShellNode::Dir(children) => cur = &children.iter().find(|(n, _)| n == part)?.1,
            ShellNode::File(_) => return None,
        }
    }
    Some(cur)
}

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
    if dir != crate::sim::disk::METADATA_DIR {
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
    let root = tree(&image);
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
    let node = lookup(&root, &path);
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
