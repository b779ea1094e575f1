//! What a step changed, and which Kafka code did it: a diff of two [`ClusterView`]s (the view
//! before a lesson step, a free-play event, a frame or a played stretch, and the view after),
//! as a short list the page shows under the drawing. Each [`Change`] names the Kafka class and
//! method responsible and, where the reference article cites it, the file and line range (see
//! [`kafka`]). It reads views only, so it needs no engine change.
//!
//! The parts: `raft` (processes, Raft transitions, quorum-state, the metadata log's appends,
//! commits and replication, snapshot and segment files), `voters` (KIP-853: the voter set's
//! VotersRecords appended and committed, and read by each node), `controller` (activation, renounce,
//! revert, the SnapshotRegistry, brokers, topics, partitions, the controllers' and loaders'
//! commits), `timeline` (the console's standalone TimelineHashMap).

use serde::Serialize;

use super::{ClusterView, NodeView};

mod controller;
pub mod kafka;
mod raft;
mod timeline;
mod voters;

pub use kafka::{KafkaRef, Source, KAFKA_COMMIT};
pub use timeline::timeline_changes;

/// What kind of thing changed (the page's `data-kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum ChangeKind {
    /// A process killed, stopped, continued or started.
    Process,
    /// A Raft state transition.
    Transition,
    /// The voter set (KIP-853): a voter change begun, its VotersRecord appended or committed,
    /// a node reading a new set.
    Voters,
    /// The active controller: activation, renounce, revert.
    Controller,
    /// A broker registered, fenced, unfenced, or its BrokerState moved.
    Broker,
    /// A topic created or deleted.
    Topic,
    /// A partition's leader or ISR changed.
    Partition,
    /// Records appended by the leader.
    Append,
    /// The leader's high watermark moved: records committed.
    Commit,
    /// Followers and observers appended (LEO) or learnt the high watermark (HW).
    Replicate,
    /// Committed records handed to the controllers and MetadataLoaders.
    Apply,
    /// A file written or deleted: quorum-state, a snapshot `.checkpoint`, a log segment.
    File,
    /// In-memory snapshots of the SnapshotRegistry (or a standalone TimelineHashMap).
    Registry,
}

impl ChangeKind {
    /// The lower-case name (`transition`, `broker`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ChangeKind::Process => "process",
            ChangeKind::Transition => "transition",
            ChangeKind::Voters => "voters",
            ChangeKind::Controller => "controller",
            ChangeKind::Broker => "broker",
            ChangeKind::Topic => "topic",
            ChangeKind::Partition => "partition",
            ChangeKind::Append => "append",
            ChangeKind::Commit => "commit",
            ChangeKind::Replicate => "replicate",
            ChangeKind::Apply => "apply",
            ChangeKind::File => "file",
            ChangeKind::Registry => "registry",
        }
    }
}

/// One thing a step changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    /// What kind of thing.
    pub kind: ChangeKind,
    /// The nodes it happened on, in order (empty for a standalone TimelineHashMap).
    pub nodes: Vec<i32>,
    /// When (virtual ms), for a change that has one moment (a transition).
    pub time_ms: Option<u64>,
    /// A short machine-readable detail: the state entered, `fenced`, the file's name, ...
    pub tag: String,
    /// What changed, in English.
    pub en: String,
    /// What changed, in Korean.
    pub ko: String,
    /// The Kafka class and method responsible (`None` for what no Kafka code does: a kill).
    pub kafka: Option<&'static str>,
    /// Where the article cites that code.
    pub source: Option<Source>,
}

impl Change {
    /// A change of `kind` on `nodes` done by `by`.
    fn new(
        kind: ChangeKind,
        nodes: Vec<i32>,
        by: Option<KafkaRef>,
        en: String,
        ko: String,
    ) -> Self {
        Change {
            kind,
            nodes,
            time_ms: None,
            tag: String::new(),
            en,
            ko,
            kafka: by.map(|k| k.method),
            source: by.and_then(|k| k.source),
        }
    }

    /// With its moment.
    fn at(mut self, time_ms: u64) -> Self {
        self.time_ms = Some(time_ms);
        self
    }

    /// With its machine-readable detail.
    fn tagged(mut self, tag: impl Into<String>) -> Self {
        self.tag = tag.into();
        self
    }

    /// The text in Korean (`ko`) or English (anything else).
    pub fn text(&self, lang: &str) -> &str {
        if lang == "ko" {
            &self.ko
        } else {
            &self.en
        }
    }
}

/// What happened between `before` and `after` (two views of the same world, `after` later),
/// in the order a lecturer reads it: processes, Raft transitions and quorum-state, the voter
/// set, the controller and brokers, topics and partitions, the metadata log, in-memory snapshots,
/// snapshot and segment files.
pub fn step_changes(before: &ClusterView, after: &ClusterView) -> Vec<Change> {
    let mut out = Vec::new();
    raft::processes(before, after, &mut out);
    raft::transitions(before, after, &mut out);
    voters::voters(before, after, &mut out);
    controller::controllers(before, after, &mut out);
    controller::brokers(before, after, &mut out);
    controller::topics(before, after, &mut out);
    raft::log(before, after, &mut out);
    controller::applied(before, after, &mut out);
    controller::registry(before, after, &mut out);
    raft::files(before, after, &mut out);
    out.sort_by_key(|c| c.kind);
    out
}

/// Node `id` of `view`.
fn node(view: &ClusterView, id: i32) -> Option<&NodeView> {
    view.nodes.iter().find(|n| n.id == id)
}

/// Each node of `after` that runs, with itself in `before` (if it was there).
fn running_pairs<'a>(
    before: &'a ClusterView,
    after: &'a ClusterView,
) -> impl Iterator<Item = (Option<&'a NodeView>, &'a NodeView)> {
    after
        .nodes
        .iter()
        .filter(|n| n.process == crate::view::ProcessState::Running)
        .map(|n| (node(before, n.id), n))
}

/// `101, 102, 103`.
fn ids(nodes: &[i32]) -> String {
    nodes
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `41` or `41–44`.
fn offsets(first: i64, last: i64) -> String {
    if first == last {
        first.to_string()
    } else {
        format!("{first}–{last}")
    }
}

/// Counts of names in order of first appearance: `NO_OP_RECORD ×3, TOPIC_RECORD`.
fn counted<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for n in names {
        match seen.iter_mut().find(|(s, _)| *s == n) {
            Some((_, c)) => *c += 1,
            None => seen.push((n, 1)),
        }
    }
    seen.iter()
        .map(|(n, c)| {
            if *c == 1 {
                n.to_string()
            } else {
                format!("{n} ×{c}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Groups `(node, key)` pairs by key, keeping the first key's order: `[(key, nodes)]`.
fn grouped<K: PartialEq>(pairs: impl Iterator<Item = (i32, K)>) -> Vec<(K, Vec<i32>)> {
    let mut out: Vec<(K, Vec<i32>)> = Vec::new();
    for (id, k) in pairs {
        match out.iter_mut().find(|(g, _)| *g == k) {
            Some((_, nodes)) => nodes.push(id),
            None => out.push((k, vec![id])),
        }
    }
    out
}

#[cfg(test)]
mod tests;
