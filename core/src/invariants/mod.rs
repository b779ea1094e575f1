//! Safety checks run after every event in tests (as Kafka's RaftEventSimulationTest does):
//! one leader per epoch, monotonic epochs and high watermarks, the HW held by a majority,
//! committed entries never changed or lost, logs identical below the HW. Each check has a name
//! ([`Invariant`]); a violation says which, at which event and time, on which nodes.
//! [`InvariantMonitor`] keeps checking while the console runs and lists each invariant's status.

mod data;
mod monitor;
mod named;
mod replay_cache;
mod rule_checks;

pub use monitor::InvariantMonitor;
use named::{broken, Broken};
pub use named::{status_text, Invariant, InvariantStatus, Violation};

use crate::common::uuid::Uuid;
use crate::raft::batch::Record;
use crate::raft::snapshot::RawSnapshot;
use crate::raft::KafkaRaftClient;
use crate::sim::node::Node;
use crate::sim::World;
use std::collections::BTreeMap;

/// Incremental checker; feed it the world after every event.
#[derive(Clone, Debug, Default)]
pub struct InvariantChecker {
    leaders_by_epoch: BTreeMap<i32, i32>,
    epoch_by_node: BTreeMap<i32, i32>,
    hw_by_node: BTreeMap<i32, (u32, i64)>,
    /// (epoch, record) of every committed offset, in offset order.
    committed: Vec<(i32, Record)>,
    /// Per node: offsets below this were already compared with `committed`.
    verified_upto: BTreeMap<i32, (u32, i64)>,
    /// The state each snapshot id holds (its summary), once computed.
    snapshot_summaries: BTreeMap<(i64, i32), String>,
    /// (node, offset, epoch) of the snapshot files already checked.
    verified_snapshots: std::collections::BTreeSet<(i32, i64, i32)>,
    /// Per node: the (publish count, offset) of the image last found equal to a replay.
    verified_images: BTreeMap<i32, (u64, i64)>,
    /// Per node: the (incarnation, applied offset, state's mod count) of the controller last
    /// found equal to a replay; the same again is not compared again.
    verified_controllers: BTreeMap<i32, (Uuid, i64, u64)>,
    /// The offset of the committed bootstrap transaction.
    bootstrap_offset: Option<i64>,
    /// The checks the rule switches need (stale leaders, disruptive elections, images going
    /// back, expired sessions, fenced brokers in ISRs, snapshots at log start).
    rules: rule_checks::RuleChecks,
    /// The first violation a check returned.
    pub first_violation: Option<Violation>,
    /// The data partitions' checks (HW within the ISR, acknowledged records kept).
    data: data::DataChecks,
    /// The committed log replayed incrementally, for the controller and image checks.
    replay: replay_cache::CommittedReplay,
    /// Compare only controllers whose applied offset is committed (the console's monitor:
    /// an active controller's uncommitted writes are compared once they commit).
    pub committed_only: bool,
}

impl InvariantChecker {
    /// A checker with nothing seen yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Offsets known committed so far.
    pub fn committed_len(&self) -> i64 {
        self.committed.len() as i64
    }

    /// Check every invariant against `world`; an error names the first broken one, with the
    /// event count, the time and the nodes involved.
    pub fn check(&mut self, world: &World) -> Result<(), Violation> {
        match self.check_each(world).into_iter().next() {
            Some(v) => Err(v),
            None => Ok(()),
        }
    }

    /// Check every invariant against `world`: every one broken now, in the order they are
    /// checked (a node's epoch and leadership, its high watermark, then the rules', the
    /// snapshots', the images' and the controllers' checks). One broken invariant does not
    /// hide another: two leaders in one epoch still let the committed entries be checked.
    pub fn check_each(&mut self, world: &World) -> Vec<Violation> {
        let found: Vec<Violation> = self
            .check_all(world)
            .into_iter()
            .map(|b| Violation::at(b, world.events_run(), world.now_ms()))
            .collect();
        if let Some(v) = found.first() {
            self.first_violation.get_or_insert_with(|| v.clone());
        }
        found
    }

    fn check_all(&mut self, world: &World) -> Vec<Broken> {
        if let Some(f) = world.fatal_faults().first() {
            let which = if f.contains("but we are the active controller") {
                Invariant::LeaderNeverLoadSnapshot
            } else {
                Invariant::NoFatalFault
            };
            return vec![broken(which, &[], format!("fatal fault: {f}"))];
        }
        let mut found = Vec::new();
        // The voter set changes (KIP-853): each node is judged by the set it has in force.
        let voters: Vec<i32> = world.voter_set().voter_ids();
        for node in world.nodes() {
            self.check_raft_node(world, node, &mut found);
        }
        found.extend(self.rules.check(world, &voters).err());
        found.extend(self.check_snapshots(world).err());
        found.extend(check_fenced_leaders(world).err());
        // Both replays skip a node whose image or state is unchanged since it last matched.
        found.extend(self.check_images(world).err());
        found.extend(self.check_controllers(world).err());
        self.data.check(world, &mut found);
        found
    }

    /// The Raft invariants of one running node: its epoch and leadership, then its high
    /// watermark.
    fn check_raft_node(&mut self, world: &World, node: &Node, found: &mut Vec<Broken>) {
        let Some(raft) = &node.raft else {
            return;
        };
        self.check_epoch_and_leadership(node, raft, found);
        // The high watermark is monotonic within a process lifetime.
        if let Some(hw) = raft.high_watermark() {
            let voters = raft.quorum.voter_ids();
            found.extend(
                self.check_high_watermark(world, node, raft, hw, &voters)
                    .err(),
            );
        }
    }

    /// Epochs never go backwards, in memory or on disk; at most one leader per epoch; a
    /// leader holds the committed entries.
    fn check_epoch_and_leadership(
        &mut self,
        node: &Node,
        raft: &KafkaRaftClient,
        found: &mut Vec<Broken>,
    ) {
        let epoch = raft.quorum.epoch();
        let last = self.epoch_by_node.insert(node.id, epoch).unwrap_or(0);
        if epoch < last {
            found.push(broken(
                Invariant::MonotonicEpoch,
                &[node.id],
                format!("node {} epoch went back from {last} to {epoch}", node.id),
            ));
            return;
        }
        // At most one leader per epoch.
        if raft.state().name() == "Leader" {
            if let Some(other) = self.leaders_by_epoch.insert(epoch, node.id) {
                if other != node.id {
                    found.push(broken(
                        Invariant::SingleLeader,
                        &[other, node.id],
                        format!("two leaders in epoch {epoch}: {other} and {}", node.id),
                    ));
                }
            }
            found.extend(self.check_leader_holds_committed(node, epoch).err());
        }
    }

    /// A leader of an epoch at or after the newest committed entry's epoch holds every
    /// committed entry (older, stale leaders may not: they will resign).
    fn check_leader_holds_committed(&self, node: &Node, epoch: i32) -> Result<(), Broken> {
        let log = &node.disk.metadata_log;
        if let Some((e, r)) = self.committed.last() {
            let last = self.committed_len() - 1;
            // Below the log start the entry lives in a snapshot (checked below).
            if epoch >= *e
                && last >= log.start_offset()
                && (epoch_at(log, last) != Some(*e) || log.record_at(last) != Some(r))
            {
                return Err(broken(
                    Invariant::CommittedDataNeverLost,
                    &[node.id],
                    format!(
                        "leader {} of epoch {epoch} lacks committed offset {last}: it has {}, the committed one is {}",
                        node.id,
                        entry_text(epoch_at(log, last), log.record_at(last)),
                        entry_text(Some(*e), Some(r))
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The high watermark `hw` of a node: monotonic within a process lifetime, not past the
    /// log end, the entries below it committed, and (on a leader) held by a majority.
    fn check_high_watermark(
        &mut self,
        world: &World,
        node: &Node,
        raft: &KafkaRaftClient,
        hw: i64,
        voters: &[i32],
    ) -> Result<(), Broken> {
        let key = (node.incarnation, hw);
        let previous = self.hw_by_node.get(&node.id).copied();
        // KIP-853: the voter set changes, and a voter added may still be behind (Kafka adds a
        // voter that caught up within the last hour; LeaderState logs "The latest computed
        // high watermark ... is smaller than the current value, which should only happen when
        // voter set membership changes"). So a majority is judged when the HW advances, by the
        // set in force then.
        let advanced = previous.is_none_or(|(inc, prev)| inc != node.incarnation || hw > prev);
        if let Some((inc, prev)) = previous {
            if inc == node.incarnation && hw < prev {
                return Err(broken(
                    Invariant::MonotonicHighWatermark,
                    &[node.id],
                    format!(
                        "node {} high watermark went back from {prev} to {hw}",
                        node.id
                    ),
                ));
            }
        }
        self.hw_by_node.insert(node.id, key);
        let log = &node.disk.metadata_log;
        if hw > log.end_offset() {
            return Err(broken(
                Invariant::MonotonicHighWatermark,
                &[node.id],
                format!(
                    "node {} high watermark {hw} is past its LEO {}",
                    node.id,
                    log.end_offset()
                ),
            ));
        }
        self.check_committed_below(node, hw)?;
        if raft.state().name() == "Leader" && hw > log.start_offset() && advanced {
            check_hw_held_by_majority(world, node, hw, voters)?;
        }
        Ok(())
    }

    /// Entries below the HW are committed: record the new ones, compare the others with the
    /// record.
    fn check_committed_below(&mut self, node: &Node, hw: i64) -> Result<(), Broken> {
        let log = &node.disk.metadata_log;
        let (inc, mut from) = self
            .verified_upto
            .get(&node.id)
            .copied()
            .unwrap_or((node.incarnation, 0));
        if inc != node.incarnation {
            from = 0;
        }
        from = from.max(log.start_offset());
        for offset in from..hw {
            let batch_epoch = epoch_at(log, offset).ok_or_else(|| {
                broken(
                    Invariant::CommittedDataNeverLost,
                    &[node.id],
                    format!("node {} lost offset {offset} below its HW", node.id),
                )
            })?;
            let record = log.record_at(offset).expect("offset present").clone();
            let idx = offset as usize;
            if idx < self.committed.len() {
                if self.committed[idx] != (batch_epoch, record.clone()) {
                    return Err(broken(
                        Invariant::ConsistentCommittedData,
                        &[node.id],
                        format!(
                            "committed offset {offset} differs on node {}: it has {}, the committed one is {}",
                            node.id,
                            entry_text(Some(batch_epoch), Some(&record)),
                            entry_text(Some(self.committed[idx].0), Some(&self.committed[idx].1))
                        ),
                    ));
                }
            } else if idx == self.committed.len() {
                self.record_committed(offset, batch_epoch, record)?;
            } else {
                return Err(broken(
                    Invariant::ConsistentCommittedData,
                    &[node.id],
                    format!("committed offsets have a gap before {offset}"),
                ));
            }
        }
        self.verified_upto
            .insert(node.id, (node.incarnation, hw.max(from)));
        Ok(())
    }

    /// A newly committed entry at `offset`, the next one: recorded; the bootstrap
    /// transaction is committed once in a cluster's life.
    fn record_committed(
        &mut self,
        offset: i64,
        batch_epoch: i32,
        record: Record,
    ) -> Result<(), Broken> {
        if let Record::Metadata(crate::metadata::MetadataRecord::BeginTransaction(b)) = &record {
            if b.name.as_deref() == Some("Bootstrap records") {
                if let Some(first) = self.bootstrap_offset {
                    return Err(broken(
                        Invariant::ConsistentCommittedData,
                        &[],
                        format!(
                            "bootstrap records committed twice: at offsets {first} and {offset}"
                        ),
                    ));
                }
                self.bootstrap_offset = Some(offset);
            }
        }
        self.committed.push((batch_epoch, record));
        Ok(())
    }

    /// Every snapshot holds the committed state at its end offset: the same on every node
    /// that has it, and equal to a replay of any log that can rebuild that offset.
    fn check_snapshots(&mut self, world: &World) -> Result<(), Broken> {
        for node in world.nodes() {
            for snap in node.disk.metadata_log.snapshots() {
                let key = (node.id, snap.id.offset, snap.id.epoch);
                if snap.is_bootstrap() || self.verified_snapshots.contains(&key) {
                    continue;
                }
                self.verified_snapshots.insert(key);
                let summary = match self
                    .snapshot_summaries
                    .get(&(snap.id.offset, snap.id.epoch))
                {
                    Some(s) => s.clone(),
                    None => self.first_snapshot_summary(world, node, snap)?,
                };
                let mine = crate::controller::QuorumController::snapshot_summary(snap)
                    .map_err(|e| broken(Invariant::SnapshotAtLogStart, &[node.id], e))?;
                if mine != summary {
                    return Err(broken(
                        Invariant::SnapshotAtLogStart,
                        &[node.id],
                        format!(
                            "snapshot {} differs between nodes (node {})",
                            snap.file_name(),
                            node.id
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The state of a snapshot id seen for the first time, checked against a replay of every
    /// log that can rebuild its end offset, and kept for the other nodes' copies.
    fn first_snapshot_summary(
        &mut self,
        world: &World,
        node: &Node,
        snap: &RawSnapshot,
    ) -> Result<String, Broken> {
        let s = crate::controller::QuorumController::snapshot_summary(snap).map_err(|e| {
            broken(
                Invariant::SnapshotAtLogStart,
                &[node.id],
                format!(
                    "snapshot {} on node {} does not replay: {e}",
                    snap.file_name(),
                    node.id
                ),
            )
        })?;
        for other in world.nodes() {
            let log = &other.disk.metadata_log;
            if log.end_offset() < snap.id.offset
                || epoch_at(log, snap.id.offset - 1).is_none_or(|e| e != snap.id.epoch)
            {
                continue;
            }
            let replayed =
                crate::controller::QuorumController::replay_log_summary(log, snap.id.offset - 1)
                    .map_err(|e| broken(Invariant::SnapshotAtLogStart, &[other.id], e))?;
            if let Some(r) = replayed {
                if r != s {
                    return Err(broken(
                        Invariant::SnapshotAtLogStart,
                        &[node.id, other.id],
                        format!(
                            "snapshot {} of node {} differs from node {}'s log replayed to {}:\nsnapshot:\n{s}\nlog:\n{r}",
                            snap.file_name(),
                            node.id,
                            other.id,
                            snap.id.offset - 1
                        ),
                    ));
                }
            }
        }
        self.snapshot_summaries
            .insert((snap.id.offset, snap.id.epoch), s.clone());
        Ok(s)
    }

    /// Every broker's published MetadataImage equals the controller state (a replay of the
    /// log) at the image's offset.
    fn check_images(&mut self, world: &World) -> Result<(), Broken> {
        for node in world.nodes() {
            let Some(l) = &node.loader else { continue };
            if l.publish_count == 0 {
                continue;
            }
            let at = l.image.provenance.offset;
            let key = (l.publish_count, at);
            if self.verified_images.get(&node.id) == Some(&key) {
                continue;
            }
            self.verified_images.insert(node.id, key);
            let replayed = self.replay_upto(
                &node.disk.metadata_log,
                at,
                (Invariant::BrokerImageMatchesController, node.id),
            )?;
            let Some(replayed) = replayed else { continue };
            if replayed != l.image.summary() {
                return Err(broken(
                    Invariant::BrokerImageMatchesController,
                    &[node.id],
                    format!(
                        "{} {} MetadataImage at offset {at} differs from the controller state at that offset:\nimage:\n{}\nreplayed:\n{replayed}",
                        if node.roles.has_broker() { "broker" } else { "controller" },
                        node.id,
                        l.image.summary()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The state after `log`'s records up to `upto`: from the incremental replay of the
    /// committed log when `upto` is committed (below every node's HW the logs are the
    /// committed log, checked above), else a replay of `log` itself. A log that does not
    /// replay breaks the given invariant on its node.
    fn replay_upto(
        &mut self,
        log: &crate::raft::log::RaftLog,
        upto: i64,
        (invariant, node): (Invariant, i32),
    ) -> Result<Option<String>, Broken> {
        let replayed = match self.replay.summary_at(&self.committed, upto) {
            Ok(Some(s)) => Ok(Some(s)),
            Ok(None) => crate::controller::QuorumController::replay_log_summary(log, upto),
            Err(e) => Err(e),
        };
        replayed.map_err(|e| {
            broken(
                invariant,
                &[node],
                format!("node {node} log does not replay: {e}"),
            )
        })
    }

    /// Every controller's state equals a replay of its log up to what it has applied.
    fn check_controllers(&mut self, world: &World) -> Result<(), Broken> {
        for node in world.nodes() {
            let Some(c) = &node.controller else { continue };
            if node.raft.as_ref().is_some_and(|r| r.pending_records() > 0) {
                continue;
            }
            let upto = c.applied_offset();
            let log = &node.disk.metadata_log;
            if upto >= log.end_offset() {
                continue;
            }
            if self.committed_only && upto >= self.committed_len() {
                continue;
            }
            let key = (c.incarnation_id(), upto, c.state.mod_count());
            if self.verified_controllers.get(&node.id) == Some(&key) {
                continue;
            }
            self.verified_controllers.insert(node.id, key);
            let held = c.state.summary();
            let replayed = self.replay_upto(
                log,
                upto,
                (Invariant::ControllerStateIsCommittedReplay, node.id),
            )?;
            let Some(replayed) = replayed else { continue };
            if replayed != held {
                return Err(broken(
                    Invariant::ControllerStateIsCommittedReplay,
                    &[node.id],
                    format!(
                        "controller {} state differs from a replay of its log up to {upto}: {}\nheld:\n{held}\nreplayed:\n{replayed}",
                        node.id,
                        first_difference(&held, &replayed)
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// The leader's HW is held by a majority of voters (the same entry at HW - 1).
fn check_hw_held_by_majority(
    world: &World,
    node: &Node,
    hw: i64,
    voters: &[i32],
) -> Result<(), Broken> {
    let majority = voters.len() / 2 + 1;
    let log = &node.disk.metadata_log;
    let want = log.record_at(hw - 1);
    let want_epoch = epoch_at(log, hw - 1);
    let holders = world
        .nodes()
        .filter(|n| voters.contains(&n.id))
        .filter(|n| {
            let l = &n.disk.metadata_log;
            l.end_offset() >= hw
                && (hw - 1 < l.start_offset()
                    || (epoch_at(l, hw - 1) == want_epoch && l.record_at(hw - 1) == want))
        })
        .count();
    if holders < majority {
        return Err(broken(
            Invariant::MajorityReachedHighWatermark,
            &[node.id],
            format!(
                "leader {} has HW {hw} but only {holders} voters hold offset {}",
                node.id,
                hw - 1
            ),
        ));
    }
    Ok(())
}

/// A fenced broker never leads a partition (in any controller's state).
fn check_fenced_leaders(world: &World) -> Result<(), Broken> {
    for node in world.nodes() {
        let Some(c) = &node.controller else { continue };
        let brokers = &c.state.cluster.brokers;
        for t in c.state.replication.topics.values() {
            for p in t.parts.values() {
                if p.leader >= 0 && brokers.get(&p.leader).is_some_and(|b| b.record.fenced) {
                    return Err(broken(
                        Invariant::NoFencedBrokerInIsr,
                        &[node.id, p.leader],
                        format!(
                            "controller {} has fenced broker {} leading {}-{}",
                            node.id, p.leader, t.name, p.partition_id
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The leader epoch of the batch holding `offset`, if the log has it.
fn epoch_at(log: &crate::raft::log::RaftLog, offset: i64) -> Option<i32> {
    let batches = log.batches();
    let i = batches.partition_point(|b| b.next_offset() <= offset);
    batches
        .get(i)
        .filter(|b| b.base_offset <= offset)
        .map(|b| b.partition_leader_epoch)
}

/// A log entry for a violation's message: `LeaderChange of epoch 3 (leader 104)`, `NoOp of
/// epoch 1`, or `nothing` for an offset the log does not hold.
fn entry_text(epoch: Option<i32>, record: Option<&Record>) -> String {
    match (epoch, record) {
        (Some(e), Some(r @ Record::LeaderChange { leader_id, .. })) => {
            format!("{} of epoch {e} (leader {leader_id})", r.short_name())
        }
        (Some(e), Some(r)) => format!("{} of epoch {e}", r.short_name()),
        _ => "nothing".to_string(),
    }
}

/// The first line where two summaries differ, for a one-line message: `it holds A, a replay
/// gives B`.
fn first_difference(held: &str, replayed: &str) -> String {
    let (mut h, mut r) = (held.lines(), replayed.lines());
    loop {
        match (h.next(), r.next()) {
            (Some(a), Some(b)) if a == b => continue,
            (a, b) => {
                let show = |l: Option<&str>| {
                    l.map_or("nothing".to_string(), |l| format!("`{}`", l.trim()))
                };
                return format!("it holds {}, a replay gives {}", show(a), show(b));
            }
        }
    }
}
