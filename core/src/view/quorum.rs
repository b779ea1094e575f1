//! The metadata quorum as the stage draws it (KIP-853): the voters in force, the observers, the
//! majority a commit and an election need, kraft.version, the newest VotersRecord and the
//! leader's voter change in progress; and the voter set each running node has read from its
//! own log (KRaftControlRecordStateMachine reads it uncommitted, so they may differ for a
//! moment).
//!
//! Built from read-only accessors: [`World::voter_set`] and [`World::voter_set_reader`], each
//! client's `partition_state()` and the leader's `LeaderState.change_voter`.

use serde::Serialize;

use crate::raft::change_voter::VoterChange;
use crate::raft::client::KafkaRaftClient;
use crate::raft::state::EpochState;
use crate::raft::voter_set::VoterSet;
use crate::sim::node::ProcessState;
use crate::sim::World;

/// The quorum at one instant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QuorumView {
    /// The voters in force ([`World::voter_set`]: the leader's set, read uncommitted), by id.
    pub voters: Vec<i32>,
    /// Running nodes with a controller role that are not voters: they fetch the metadata log
    /// but neither vote nor count for the high watermark (`CurrentObservers`), by id.
    pub observer_controllers: Vec<i32>,
    /// Running brokers that are not voters (every broker-only node), by id.
    pub observer_brokers: Vec<i32>,
    /// How many voters a commit and an election need: `n / 2 + 1` of the `n` voters
    /// (EpochElection.java's majority; the HW is the end offset at index `n / 2` of the voters
    /// by descending end offset, LeaderState.maybeUpdateHighWatermark).
    pub majority: usize,
    /// kraft.version as the log says it (0 without a KRaftVersionRecord: a static quorum).
    pub kraft_version: u16,
    /// The newest VotersRecord of the log, if it has one (a static quorum has none).
    pub voters_record: Option<VotersRecordView>,
    /// The newest VotersRecords of the log (at most [`MAX_VOTER_SETS_IN_VIEW`]), oldest
    /// first, as the leader (else the replica that read the newest) has read them: what a
    /// step changed is read from these.
    pub history: Vec<VoterSetEntry>,
    /// The leader's voter change in progress (`LeaderState.changeVoterState`), if any.
    pub pending: Option<VoterChangeView>,
    /// The voter set each running node has read from its own log, by node id.
    pub read_by: Vec<VoterSetRead>,
}

/// Where the newest VotersRecord is, and whether the high watermark passed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct VotersRecordView {
    /// Its offset (-1: the bootstrap checkpoint's, which `kafka-storage format` wrote).
    pub offset: i64,
    /// Whether it is below the high watermark: "in force on append, done on commit".
    pub committed: bool,
}

/// At most this many VotersRecords in [`QuorumView::history`].
pub const MAX_VOTER_SETS_IN_VIEW: usize = 8;

/// One VotersRecord of the log: where, which voters, whether committed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VoterSetEntry {
    /// Its offset (-1: the bootstrap checkpoint's).
    pub offset: i64,
    /// The voters it lists, by id.
    pub voters: Vec<i32>,
    /// Whether it is below the high watermark.
    pub committed: bool,
}

/// Which voter change the leader has in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VoterChangeKind {
    /// AddRaftVoter (AddVoterHandler).
    Add,
    /// RemoveRaftVoter (RemoveVoterHandler).
    Remove,
    /// UpdateRaftVoter (UpdateVoterHandler).
    Update,
}

impl VoterChangeKind {
    /// `add`, `remove` or `update`.
    pub const fn name(self) -> &'static str {
        match self {
            VoterChangeKind::Add => "add",
            VoterChangeKind::Remove => "remove",
            VoterChangeKind::Update => "update",
        }
    }
}

/// How far a voter change has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VoterChangePhase {
    /// The leader sent ApiVersions to the voter and waits for its answer (an add or an
    /// update; `expectingApiResponse`).
    WaitingForApiVersions,
    /// The VotersRecord is appended (in force on every node that has read it); the change
    /// ends when the high watermark passes it.
    Appended,
}

/// The leader's voter change in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct VoterChangeView {
    /// The leader that runs it.
    pub leader: i32,
    /// Add, remove or update.
    pub kind: VoterChangeKind,
    /// The voter it adds, removes or updates.
    pub voter: i32,
    /// Waiting for ApiVersions, or appended.
    pub phase: VoterChangePhase,
    /// The offset of its VotersRecord, once appended.
    pub offset: Option<i64>,
    /// When it times out (virtual ms; controller.quorum.request.timeout.ms after it began).
    pub deadline_ms: u64,
}

/// The voter set one node has read from its log (`partitionState.lastVoterSet()`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VoterSetRead {
    /// The node.
    pub node: i32,
    /// The voters it has in force, by id (its static `controller.quorum.voters` without a
    /// VotersRecord; empty for an observer that has read none yet).
    pub voters: Vec<i32>,
    /// The offset of the newest VotersRecord it read (`None`: none).
    pub offset: Option<i64>,
}

/// The leader's change in progress, if `r` leads and has one.
fn pending_change(r: &KafkaRaftClient) -> Option<VoterChangeView> {
    let EpochState::Leader(l) = r.state() else {
        return None;
    };
    let (kind, voter, offset, deadline_ms) = match l.change_voter.pending.as_ref()? {
        VoterChange::Add(a) => (
            VoterChangeKind::Add,
            a.voter.key.id,
            a.last_offset,
            a.deadline_ms,
        ),
        VoterChange::Remove(rm) => (
            VoterChangeKind::Remove,
            removed_voter(r, rm.last_offset)?,
            Some(rm.last_offset),
            rm.deadline_ms,
        ),
        VoterChange::Update(u) => (
            VoterChangeKind::Update,
            u.voter.key.id,
            u.last_offset,
            u.deadline_ms,
        ),
    };
    Some(VoterChangeView {
        leader: r.local_id(),
        kind,
        voter,
        phase: if offset.is_some() {
            VoterChangePhase::Appended
        } else {
            VoterChangePhase::WaitingForApiVersions
        },
        offset,
        deadline_ms,
    })
}

/// The voter a RemoveVoter's VotersRecord at `offset` left out: in the set before it, not in
/// its own (RemoveVoterHandlerState keeps only the offset).
fn removed_voter(r: &KafkaRaftClient, offset: i64) -> Option<i32> {
    let ps = r.partition_state();
    let after = ps.voter_set_at_offset(offset);
    ps.voter_set_at_offset(offset - 1)
        .voter_ids()
        .into_iter()
        .find(|id| !after.contains_id(*id))
}

impl World {
    /// The quorum as the stage draws it.
    pub fn quorum_view(&self) -> QuorumView {
        self.quorum_view_of(&self.voter_set())
    }

    /// The quorum with `voters` ([`World::voter_set`]) in force.
    pub(super) fn quorum_view_of(&self, voters: &VoterSet) -> QuorumView {
        let running = || {
            self.nodes()
                .filter(|n| n.process == ProcessState::Running && !voters.contains_id(n.id))
        };
        let speaker = self.voter_set_reader();
        let history: Vec<VoterSetEntry> = speaker.map_or_else(Vec::new, |r| {
            let all = r.partition_state().voter_history();
            let hw = r.high_watermark();
            all[all.len().saturating_sub(MAX_VOTER_SETS_IN_VIEW)..]
                .iter()
                .map(|(offset, set)| VoterSetEntry {
                    offset: *offset,
                    voters: set.voter_ids(),
                    committed: hw.is_some_and(|hw| hw > *offset),
                })
                .collect()
        });
        let voters_record = history.last().map(|e| VotersRecordView {
            offset: e.offset,
            committed: e.committed,
        });
        QuorumView {
            voters: voters.voter_ids(),
            observer_controllers: running()
                .filter(|n| n.roles.has_controller())
                .map(|n| n.id)
                .collect(),
            observer_brokers: running()
                .filter(|n| !n.roles.has_controller())
                .map(|n| n.id)
                .collect(),
            majority: voters.majority(),
            kraft_version: speaker.map_or(0, |r| r.partition_state().last_kraft_version()),
            voters_record,
            history,
            pending: speaker.and_then(pending_change),
            read_by: self
                .nodes()
                .filter(|n| n.process == ProcessState::Running)
                .filter_map(|n| {
                    let ps = n.raft.as_ref()?.partition_state();
                    Some(VoterSetRead {
                        node: n.id,
                        voters: ps.last_voter_set().voter_ids(),
                        offset: ps.last_voter_set_entry().map(|(o, _)| o),
                    })
                })
                .collect(),
        }
    }
}

impl QuorumView {
    /// `2 of 3`: the majority of the voters.
    pub fn majority_text(&self) -> String {
        format!("{} of {}", self.majority, self.voters.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::node_config::QuorumMode;
    use crate::sim::WorldConfig;

    /// Controllers 101 (`--standalone`), 102 and 103 (auto-join) and broker 1.
    fn auto_join() -> World {
        let mut c = WorldConfig::new(11, vec![101, 102, 103], vec![1]);
        c.quorum_mode = QuorumMode::Standalone;
        c.quorum.auto_join_enable = true;
        World::new(c).unwrap()
    }

    #[test]
    fn the_quorum_grows_from_one_voter_to_three_and_says_its_majority() {
        let mut w = auto_join();
        w.run_for(3_000);
        let q = w.quorum_view();
        assert_eq!(q.voters, [101]);
        assert_eq!((q.majority, q.majority_text().as_str()), (1, "1 of 1"));
        assert_eq!(q.observer_controllers, [102, 103]);
        assert_eq!(q.observer_brokers, [1]);
        assert_eq!(q.kraft_version, 1);
        assert!(q.voters_record.is_some_and(|r| r.committed));
        let mut seen = Vec::new();
        while w.now_ms() < 40_000 {
            assert!(w.step(), "events run out");
            let q = w.quorum_view();
            assert_eq!(q.voters, w.voter_set().voter_ids());
            if let Some(p) = q.pending {
                if seen.last() != Some(&(p.kind, p.voter, p.phase)) {
                    seen.push((p.kind, p.voter, p.phase));
                }
                if p.phase == VoterChangePhase::Appended {
                    let r = q.voters_record.expect("the appended VotersRecord");
                    assert_eq!(Some(r.offset), p.offset);
                    assert!(!r.committed, "pending until the HW passes it");
                }
            }
        }
        let q = w.quorum_view();
        assert_eq!(q.voters, [101, 102, 103]);
        let v = w.view();
        let in_view: Vec<i32> = v
            .nodes
            .iter()
            .filter(|n| n.is_voter)
            .map(|n| n.id)
            .collect();
        assert_eq!(in_view, q.voters, "NodeView.is_voter follows the same set");
        assert_eq!(v.quorum, q);
        assert!(q.observer_controllers.is_empty());
        assert_eq!((q.majority, q.majority_text().as_str()), (2, "2 of 3"));
        assert!(q.pending.is_none());
        assert!(q.voters_record.is_some_and(|r| r.committed));
        // Each joiner: ApiVersions first, then the VotersRecord appended.
        for id in [102, 103] {
            let phases: Vec<VoterChangePhase> = seen
                .iter()
                .filter(|(k, v, _)| *k == VoterChangeKind::Add && *v == id)
                .map(|(_, _, p)| *p)
                .collect();
            assert!(
                phases.starts_with(&[
                    VoterChangePhase::WaitingForApiVersions,
                    VoterChangePhase::Appended
                ]),
                "{id}: {seen:?}"
            );
        }
        let sets: Vec<&[i32]> = q.history.iter().map(|e| e.voters.as_slice()).collect();
        assert_eq!(sets, [&[101][..], &[101], &[101, 103], &[101, 102, 103]]);
        assert_eq!(q.history[0].offset, -1, "the bootstrap checkpoint's");
        // Every running node has read the same set at the same offset.
        let offset = q.voters_record.map(|r| r.offset);
        assert_eq!(q.read_by.len(), 4);
        for r in &q.read_by {
            assert_eq!(
                (r.voters.as_slice(), r.offset),
                (&[101, 102, 103][..], offset)
            );
        }
    }

    #[test]
    fn a_static_quorum_has_kraft_version_0_and_no_voters_record() {
        let mut c = WorldConfig::new(13, vec![101, 102, 103], vec![1]);
        c.quorum_mode = QuorumMode::Static;
        let mut w = World::new(c).unwrap();
        w.run_for(5_000);
        let q = w.quorum_view();
        assert_eq!(q.voters, [101, 102, 103]);
        assert_eq!((q.kraft_version, q.voters_record), (0, None));
        assert_eq!(q.observer_brokers, [1]);
        assert!(q.read_by.iter().all(|r| r.offset.is_none()));
    }
}
