//! The MetadataImage as kafka-metadata-shell browses it: a file system of directories
//! (`/image/topics/byName/...`) and files holding each record's text. Used by the
//! `kafka-metadata-shell.sh` tool and by the page's broker panel.

use serde::Serialize;

use super::metadata_image::TopicImage;
use super::MetadataImage;
use crate::common::clock::iso_utc;
use crate::metadata::broker_registration::broker_registration_text;
use crate::metadata::resource_type_name;

/// The `/local/version` the shell prints.
pub const LOCAL_VERSION: &str = "4.5.0-SNAPSHOT";

/// A node of the shell's tree: a directory of named children, or a file's text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ShellNode {
    /// A directory: its children in the order `ls` shows them.
    Dir(Vec<(String, ShellNode)>),
    /// A file: what `cat` prints.
    File(String),
}

/// A directory node.
fn dir(children: Vec<(String, ShellNode)>) -> ShellNode {
    ShellNode::Dir(children)
}

/// A file node.
fn file(text: String) -> ShellNode {
    ShellNode::File(text)
}

impl ShellNode {
    /// The node at an absolute path (`/image/topics`), or None.
    pub fn lookup(&self, path: &str) -> Option<&ShellNode> {
        let mut cur = self;
        for part in path.split('/').filter(|p| !p.is_empty()) {
            match cur {
                ShellNode::Dir(children) => cur = &children.iter().find(|(n, _)| n == part)?.1,
                ShellNode::File(_) => return None,
            }
        }
        Some(cur)
    }
}

/// The image as the shell's tree (children sorted as `ls` shows them).
pub fn image_tree(image: &MetadataImage) -> ShellNode {
    dir(vec![
        (
            "image".into(),
            dir(vec![
                ("acls".into(), dir(Vec::new())),
                ("clientQuotas".into(), dir(Vec::new())),
                ("cluster".into(), cluster_node(image)),
                ("configs".into(), configs_node(image)),
                ("delegationToken".into(), dir(Vec::new())),
                ("features".into(), features_node(image)),
                ("producerIds".into(), dir(Vec::new())),
                ("provenance".into(), provenance_node(image)),
                ("scram".into(), dir(Vec::new())),
                ("topics".into(), topics_node(image)),
            ]),
        ),
        (
            "local".into(),
            dir(vec![("version".into(), file(LOCAL_VERSION.into()))]),
        ),
    ])
}

/// One topic's directory (`TopicImageNode`): its partitions, then `id` and `name`.
fn topic_node(t: &TopicImage) -> ShellNode {
    let mut children: Vec<(String, ShellNode)> = t
        .partitions
        .iter()
        .map(|(p, r)| (p.to_string(), file(r.partition_registration_text())))
        .collect();
    children.push(("id".into(), file(t.id.to_string())));
    children.push(("name".into(), file(t.name.clone())));
    dir(children)
}

/// `/image/topics` (`TopicsImageNode`): the topics by id and by name.
fn topics_node(image: &MetadataImage) -> ShellNode {
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
    dir(vec![
        ("byId".into(), dir(by_id)),
        ("byName".into(), dir(by_name)),
    ])
}

/// `/image/cluster` (`ClusterImageNode`): the broker and controller registrations.
fn cluster_node(image: &MetadataImage) -> ShellNode {
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
    dir(vec![
        ("brokers".into(), dir(brokers)),
        ("controllers".into(), dir(controllers)),
    ])
}

/// `/image/configs` (`ConfigurationsImageNode`): a directory per `<type>:<name>` resource.
fn configs_node(image: &MetadataImage) -> ShellNode {
    let mut configs: Vec<(String, ShellNode)> = Vec::new();
    let mut resources: std::collections::BTreeMap<String, Vec<(String, ShellNode)>> =
        Default::default();
    for ((t, n, k), v) in &image.configs.configs {
        let resource = format!("{}:{n}", resource_type_name(*t));
        resources
            .entry(resource)
            .or_default()
            .push((k.clone(), file(v.clone())));
    }
    for (r, c) in resources {
        configs.push((r, dir(c)));
    }
    dir(configs)
}

/// `/image/features` (`FeaturesImageNode`): each finalized feature level.
fn features_node(image: &MetadataImage) -> ShellNode {
    let features = image
        .features
        .levels
        .iter()
        .map(|(k, v)| (k.clone(), file(v.to_string())))
        .collect();
    dir(features)
}

/// `/image/provenance`: the offset, epoch and time the image was built at.
fn provenance_node(image: &MetadataImage) -> ShellNode {
    let p = image.provenance;
    file(format!(
        "offset {}, epoch {}, time {}",
        p.offset,
        p.epoch,
        iso_utc(p.time_ms)
    ))
}
