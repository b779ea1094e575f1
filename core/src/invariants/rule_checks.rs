//! The invariants the rule switches need (issue 18), each the visible effect of one of
//! KRaft's rules: a stale leader that stays (check quorum), an election that deposes a healthy
//! leader (PreVote), a broker image that goes back (the loader's catch-up), a silent broker
//! left unfenced (session fencing); and two of Kafka's own: a log starts at its earliest
//! snapshot (SnapshotAtLogStart), no fenced broker in an ISR of more than one.

use super::named::{broken, Broken, Invariant};
use crate::raft::state::EpochState;
use crate::sim::node::{Node, ProcessState};
use crate::sim::World;
use std::collections::BTreeMap;

/// What the rule checks remember between events.
#[derive(Clone, Debug, Default)]
pub struct RuleChecks {
    /// Per node: since when (virtual ms) it has been a leader of an older epoch than another
    /// running leader.
    stale_since: BTreeMap<i32, u64>,
    /// Per node: its epoch at the last check.
    epochs: BTreeMap<i32, i32>,
    /// The blocked links (from, to) at the last check.
    blocked: std::collections::BTreeSet<(i32, i32)>,
    /// Per blocked link: when it was first seen blocked.
    blocked_since: BTreeMap<(i32, i32), u64>,
    /// Per node: the last time it was seen not running.
    down_at: BTreeMap<i32, u64>,
    /// Per node: (incarnation, newest image offset published in it, newest published in
    /// the incarnations before).
    images: BTreeMap<i32, (u32, i64, i64)>,
}

/// The node's Raft state when its process runs.
fn running_state(n: &Node) -> Option<&EpochState> {
    (n.process == ProcessState::Running)
        .then_some(n.raft.as_ref())
        .flatten()
        .map(|r| r.state())
}

impl RuleChecks {
    /// Every rule check against `world`.
    pub fn check(&mut self, world: &World, voters: &[i32]) -> Result<(), Broken> {
        self.check_elections(world, voters)?;
        self.check_stale_leaders(world)?;
        self.check_images(world)?;
        check_sessions(world)?;
        check_snapshot_at_log_start(world)?;
        check_fenced_in_isr(world)
    }

    /// NoStaleLeader: a running leader of an epoch older than another running leader's
    /// resigns within 3 × controller.quorum.fetch.timeout.ms (check quorum takes 1.5 ×).
    fn check_stale_leaders(&mut self, world: &World) -> Result<(), Broken> {
        let newest = world
            .nodes()
            .filter_map(running_state)
            .filter(|s| matches!(s, EpochState::Leader(_)))
            .map(|s| s.epoch())
            .max();
        let Some(newest) = newest else {
            self.stale_since.clear();
            return Ok(());
        };
        let now = world.now_ms();
        let bound = 3 * world.config().quorum.fetch_timeout_ms;
        for n in world.nodes() {
            let stale = running_state(n)
                .filter(|s| matches!(s, EpochState::Leader(_)) && s.epoch() < newest)
                .map(|s| s.epoch());
            let Some(epoch) = stale else {
                self.stale_since.remove(&n.id);
                continue;
            };
            let since = *self.stale_since.entry(n.id).or_insert(now);
            if now - since > bound {
                return Err(broken(
                    Invariant::NoStaleLeader,
                    &[n.id],
                    format!(
                        "node {} is still Leader of epoch {epoch} {} ms after epoch {newest} had a leader (allowed: {} ms; check quorum resigns a leader {} ms after it last heard a majority)",
                        n.id,
                        now - since,
                        bound,
                        bound / 2
                    ),
                ));
            }
        }
        Ok(())
    }

    /// NoDisruptiveElection: a voter cut off from a majority of voters does not bump the
    /// epoch. PreVote makes a voter a Candidate only with the pre-votes of a majority, so it
    /// has had links both ways to a majority within the last pre-vote rounds: within
    /// 2 × (2 × election timeout + request timeout). A voter that was stopped (or killed)
    /// within that window is not judged: it may still be reading answers queued meanwhile.
    fn check_elections(&mut self, world: &World, voters: &[i32]) -> Result<(), Broken> {
        let now = world.now_ms();
        let q = &world.config().quorum;
        let window = 2 * (2 * q.election_timeout_ms + q.request_timeout_ms);
        // The blocked links change only with commands: note when each link was first seen
        // blocked (a link is open until then).
        let blocked = &world.network().blocked;
        if *blocked != self.blocked {
            self.blocked_since.retain(|k, _| blocked.contains(k));
            for k in blocked {
                self.blocked_since.entry(*k).or_insert(now);
            }
            self.blocked = blocked.clone();
        }
        let last_open =
            |from: i32, to: i32| self.blocked_since.get(&(from, to)).copied().unwrap_or(now);
        for n in world.nodes() {
            let Some(s) = running_state(n) else {
                self.down_at.insert(n.id, now);
                continue;
            };
            let last = self.epochs.insert(n.id, s.epoch());
            let bumped =
                matches!(s, EpochState::Candidate(_)) && last.is_some_and(|e| e < s.epoch());
            // The candidate's own voter set (it changes with KIP-853).
            let own: Vec<i32> = n
                .raft
                .as_ref()
                .map_or_else(|| voters.to_vec(), |r| r.quorum.voter_ids());
            let voters = own.as_slice();
            if !bumped || !voters.contains(&n.id) {
                continue;
            }
            if self
                .down_at
                .get(&n.id)
                .is_some_and(|t| now.saturating_sub(*t) <= window)
            {
                continue;
            }
            let reached = 1 + voters
                .iter()
                .filter(|u| **u != n.id)
                .filter(|u| {
                    let open = last_open(n.id, **u).min(last_open(**u, n.id));
                    now.saturating_sub(open) <= window
                })
                .count();
            if reached <= voters.len() / 2 {
                return Err(broken(
                    Invariant::NoDisruptiveElection,
                    &[n.id],
                    format!(
                        "node {} became Candidate in epoch {} though for {window} ms it could reach only {reached} of {} voters (itself included): without PreVote a cut-off voter bumps the epoch and deposes the leader when it returns",
                        n.id,
                        s.epoch(),
                        voters.len()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// BrokerImageNeverGoesBack: a restarted broker's first image is at or past the newest
    /// image an earlier process of it published.
    fn check_images(&mut self, world: &World) -> Result<(), Broken> {
        for n in world.nodes() {
            let Some(l) = n.loader.as_ref().filter(|l| l.publish_count > 0) else {
                continue;
            };
            let published = l.published_offset();
            let entry = self
                .images
                .entry(n.id)
                .or_insert((n.incarnation, published, -1));
            if entry.0 != n.incarnation {
                *entry = (n.incarnation, published, entry.1.max(entry.2));
            }
            entry.1 = entry.1.max(published);
            let first = l.first_published_offset.unwrap_or(published);
            if first < entry.2 {
                return Err(broken(
                    Invariant::BrokerImageNeverGoesBack,
                    &[n.id],
                    format!(
                        "{} {} published an image at offset {first} after restarting, older than the image at offset {} it had published before",
                        if n.roles.has_broker() { "broker" } else { "controller" },
                        n.id, entry.2
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// SessionExpiredBrokerFenced: on a running active controller, no broker stays unfenced
/// twice its session timeout after its last heartbeat.
fn check_sessions(world: &World) -> Result<(), Broken> {
    let now = world.now_ms();
    for n in world.nodes() {
        let Some(c) = n.controller.as_ref() else {
            continue;
        };
        if n.process != ProcessState::Running || !c.is_active() {
            continue;
        }
        let timeout = c.session_timeout_ms();
        for (id, last) in c.broker_sessions() {
            let unfenced = c
                .state
                .cluster
                .brokers
                .get(&id)
                .is_some_and(|b| !b.record.fenced);
            if unfenced && now > last.saturating_add(2 * timeout) {
                return Err(broken(
                    Invariant::SessionExpiredBrokerFenced,
                    &[n.id, id],
                    format!(
                        "active controller {} still has broker {id} unfenced {} ms after its last heartbeat (session timeout {timeout} ms)",
                        n.id,
                        now - last
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// SnapshotAtLogStart (RaftEventSimulationTest): a log that starts past offset 0 starts at
/// its earliest snapshot.
fn check_snapshot_at_log_start(world: &World) -> Result<(), Broken> {
    for n in world.nodes().filter(|n| n.raft.is_some()) {
        let log = &n.disk.metadata_log;
        let start = log.start_offset();
        if start == 0 {
            continue;
        }
        let earliest = log.earliest_snapshot_id().map(|s| s.offset);
        if earliest != Some(start) {
            return Err(broken(
                Invariant::SnapshotAtLogStart,
                &[n.id],
                format!(
                    "node {} log starts at {start} but its earliest snapshot ends at {earliest:?}",
                    n.id
                ),
            ));
        }
    }
    Ok(())
}

/// NoFencedBrokerInIsr: in every controller's state, a fenced broker is in no ISR of more
/// than one replica (fencing takes it out; a last replica stays).
fn check_fenced_in_isr(world: &World) -> Result<(), Broken> {
    for n in world.nodes() {
        let Some(c) = &n.controller else { continue };
        let brokers = &c.state.cluster.brokers;
        for t in c.state.replication.topics.values() {
            for p in t.parts.values() {
                if p.isr.len() < 2 {
                    continue;
                }
                let fenced = p
                    .isr
                    .iter()
                    .find(|b| brokers.get(b).is_some_and(|r| r.record.fenced));
                if let Some(b) = fenced {
                    return Err(broken(
                        Invariant::NoFencedBrokerInIsr,
                        &[n.id, *b],
                        format!(
                            "controller {} has fenced broker {b} in the ISR {:?} of {}-{}",
                            n.id, p.isr, t.name, p.partition_id
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}
