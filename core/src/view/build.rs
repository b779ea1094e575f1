//! Building the [`ClusterView`]: the page's read-only picture of a [`World`] at one instant,
//! from its public accessors (nodes, network, clock, the active controller).

use super::transitions::transition_view;
use super::{
    BatchView, BrokerView, ClusterView, ControllerView, HighWatermarkView, ImageView, MessageView,
    NodeView, PartitionView, RaftTimerView, StateKind, TimelineView, TimerKind, TransitionView,
    MAX_BATCHES_IN_VIEW, MAX_LOG_LINES_IN_VIEW, MAX_RECENT_TRANSITIONS, RECENT_MESSAGE_MS,
};
use crate::common::node_log::LogLine;
use crate::controller::QuorumController;
use crate::raft::state::EpochState;
use crate::sim::network::message_view;
use crate::sim::node::Node;
use crate::sim::World;

impl World {
    /// The view the page draws.
    pub fn view(&self) -> ClusterView {
        let voters = self.voter_set();
        let nodes = self.nodes().map(|n| self.node_view(n, &voters)).collect();
        let mut messages: Vec<MessageView> = self
            .network()
            .in_flight
            .values()
            .map(|m| message_view(m, false))
            .collect();
        messages.extend(
            self.network()
                .dropped
                .iter()
                .filter(|m| m.send_ms + RECENT_MESSAGE_MS >= self.now_ms())
                .map(|m| message_view(m, true)),
        );
        messages.sort_by_key(|m| (m.send_ms, m.id));
        let recently_delivered = self
            .network()
            .recently_delivered
            .iter()
            .filter(|m| m.arrive_ms + RECENT_MESSAGE_MS >= self.now_ms())
            .cloned()
            .collect();
        let partitions = self.partition_views();
        ClusterView {
            data_partitions: self.data_partition_views(&partitions),
            partitions,
            now_ms: self.now_ms(),
            seed: self.config().seed,
            events_run: self.events_run(),
            nodes,
            messages,
            recently_delivered,
            blocked: self.network().blocked.iter().copied().collect(),
            sequence: self.sequence_view(),
            rules: super::rules::rule_views(self),
            invariants: super::rules::invariant_views(self),
            quorum: self.quorum_view_of(&voters),
        }
    }

    /// The data partitions of the active controller, by topic name then partition.
    fn partition_views(&self) -> Vec<PartitionView> {
        let Some(c) = self
            .active_controller()
            .and_then(|id| self.node(id))
            .and_then(|n| n.controller.as_ref())
        else {
            return Vec::new();
        };
        let r = &c.state.replication;
        let mut out = Vec::new();
        for (name, id) in r.topics_by_name.iter() {
            let Some(topic) = r.topics.get(id) else {
                continue;
            };
            for (p, rec) in &topic.parts {
                out.push(PartitionView {
                    topic: name.clone(),
                    partition: *p,
                    leader: rec.leader,
                    replicas: rec.replicas.clone(),
                    isr: rec.isr.clone(),
                });
            }
        }
        out.sort_by(|a, b| (&a.topic, a.partition).cmp(&(&b.topic, b.partition)));
        out
    }

    /// One node as the page draws it: its Raft state (or, when down, what its quorum-state
    /// file holds), log, timers, controller, broker and image.
    fn node_view(&self, n: &Node, voters: &crate::raft::voter_set::VoterSet) -> NodeView {
        let log = &n.disk.metadata_log;
        let (raft_state, epoch, leader_id, voted_id, hw, next_timer) = raft_columns(n);
        let (raft_timer, high_watermark_calc) = match &n.raft {
            Some(r) => (raft_timer_view(r.state()), high_watermark_view(r.state())),
            None => (None, None),
        };
        let batches = batch_views(log.batches(), hw);
        let lines: Vec<String> = n
            .log
            .lines()
            .rev()
            .take(MAX_LOG_LINES_IN_VIEW)
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let (last_transition, recent_transitions) = transitions(n.log.lines());
        NodeView {
            id: n.id,
            roles: n.roles,
            is_voter: voters.contains_id(n.id),
            process: n.process,
            raft_state,
            epoch,
            leader_id,
            voted_id,
            log_start_offset: log.start_offset(),
            log_end_offset: log.end_offset(),
            high_watermark: hw,
            batches,
            segments: log.segment_bases().to_vec(),
            snapshots: log.snapshots().iter().map(|s| s.file_name()).collect(),
            fetching_snapshot: log
                .partial_snapshot
                .as_ref()
                .map(|p| (p.file_name(), p.received)),
            log_tail: lines,
            next_timer_ms: next_timer,
            raft_timer,
            high_watermark_calc,
            last_transition,
            recent_transitions,
            log_lines_written: super::transitions::lines_written(&n.log),
            logged_transitions: super::transitions::recent_transitions(&n.log),
            controller: n
                .controller
                .as_ref()
                .map(|c| controller_view(c, self.now_ms())),
            broker: n.broker.as_ref().map(|b| BrokerView {
                state: b.state,
                broker_epoch: b.broker_epoch,
                fenced: b.fenced,
                last_heartbeat_ms: b.last_heartbeat_ms,
            }),
            image: n.loader.as_ref().map(image_view),
        }
    }
}

/// A node's Raft columns: (state, epoch, leader, voted for, high watermark, next timer); a
/// process that is down shows the epoch and votes of its quorum-state file.
type RaftColumns = (
    Option<StateKind>,
    i32,
    Option<i32>,
    Option<i32>,
    Option<i64>,
    Option<u64>,
);

/// The Raft columns of node `n`'s view.
fn raft_columns(n: &Node) -> RaftColumns {
    match &n.raft {
        Some(r) => {
            let s = r.state();
            (
                Some(s.kind()),
                s.epoch(),
                s.leader_id(),
                s.voted_key().map(|k| k.id),
                s.high_watermark(),
                n.scheduled_wake_ms,
            )
        }
        None => {
            let stored = n
                .disk
                .read_file(&crate::raft::quorum_state::quorum_state_path())
                .and_then(|t| crate::raft::replica_key::ElectionState::from_json(t, &[]).ok());
            (
                None,
                stored.as_ref().map(|s| s.epoch).unwrap_or(0),
                stored.as_ref().and_then(|s| s.leader_id),
                stored.as_ref().and_then(|s| s.voted_key.map(|k| k.id)),
                None,
                None,
            )
        }
    }
}

/// The last [`MAX_BATCHES_IN_VIEW`] batches of a metadata log, marked committed below `hw`,
/// and before them, when it is further back, the newest batch a voter change wrote (the voter
/// set in force, KIP-853).
fn batch_views(
    batches: &[std::sync::Arc<crate::raft::batch::RecordBatch>],
    hw: Option<i64>,
) -> Vec<BatchView> {
    let start = batches.len().saturating_sub(MAX_BATCHES_IN_VIEW);
    let view = |b: &std::sync::Arc<crate::raft::batch::RecordBatch>| BatchView {
        base_offset: b.base_offset,
        last_offset: b.last_offset(),
        epoch: b.partition_leader_epoch,
        is_control: b.is_control,
        committed: hw.is_some_and(|hw| b.last_offset() < hw),
        records: b
            .records
            .iter()
            .map(|r| r.short_name().to_string())
            .collect(),
    };
    // A voter change's batch: KRaftVoters without the LeaderChange that starts an epoch.
    let voter_change = |b: &&std::sync::Arc<crate::raft::batch::RecordBatch>| {
        use crate::raft::batch::Record;
        b.is_control
            && b.records
                .iter()
                .any(|r| matches!(r, Record::KRaftVoters { .. }))
            && !b
                .records
                .iter()
                .any(|r| matches!(r, Record::LeaderChange { .. }))
    };
    let recent = &batches[start..];
    let pinned = if recent.iter().any(|b| voter_change(&b)) {
        None
    } else {
        batches[..start].iter().rev().find(voter_change)
    };
    pinned.into_iter().chain(recent).map(view).collect()
}

/// A MetadataLoader's image and its last publication.
fn image_view(l: &crate::image::MetadataLoader) -> ImageView {
    // MetadataProvenance.EMPTY is (-1, -1) before the first publication.
    let (offset, epoch) = if l.publish_count == 0 {
        (-1, -1)
    } else {
        (l.image.provenance.offset, l.image.provenance.epoch)
    };
    ImageView {
        offset,
        epoch,
        publish_count: l.publish_count,
        changed: l
            .last_publication
            .as_ref()
            .map(|p| p.changed.iter().map(|c| c.to_string()).collect())
            .unwrap_or_default(),
        image: l.image.clone(),
    }
}

/// The timer of a Raft state, for the view.
pub(crate) fn raft_timer_view(s: &EpochState) -> Option<RaftTimerView> {
    let (kind, deadline_ms, duration_ms) = match s {
        EpochState::Unattached(u) => (
            TimerKind::Election,
            u.election_deadline_ms?,
            u.election_timeout_ms,
        ),
        EpochState::Prospective(p) => (
            TimerKind::Election,
            p.election_deadline_ms,
            p.election_timeout_ms,
        ),
        EpochState::Candidate(c) => (
            TimerKind::Election,
            c.election_deadline_ms,
            c.election_timeout_ms,
        ),
        EpochState::Resigned(r) => (
            TimerKind::Election,
            r.election_deadline_ms,
            r.election_timeout_ms,
        ),
        EpochState::Follower(f) => (TimerKind::Fetch, f.fetch_deadline_ms, f.fetch_timeout_ms),
        EpochState::Leader(l) if l.voter_states.len() > 1 => (
            TimerKind::CheckQuorum,
            l.check_quorum_deadline_ms,
            l.check_quorum_timeout_ms,
        ),
        EpochState::Leader(_) => return None,
    };
    Some(RaftTimerView {
        kind,
        deadline_ms,
        duration_ms,
    })
}

/// The leader's high-watermark computation, for the view.
fn high_watermark_view(s: &EpochState) -> Option<HighWatermarkView> {
    let EpochState::Leader(l) = s else {
        return None;
    };
    let voters = l.voters_by_descending_end_offset();
    let index_of_hw = voters.len() / 2;
    let candidate = voters.get(index_of_hw).and_then(|v| v.1);
    Some(HighWatermarkView {
        index_of_hw,
        candidate,
        epoch_start_offset: l.epoch_start_offset,
        past_epoch_start: candidate.is_some_and(|c| c > l.epoch_start_offset),
        high_watermark: l.high_watermark,
        voters,
    })
}

/// The newest transition of a node's log lines, and its newest [`MAX_RECENT_TRANSITIONS`]
/// transitions between two states (oldest first), read from the newest line back.
fn transitions<'a>(
    lines: impl DoubleEndedIterator<Item = &'a LogLine>,
) -> (Option<TransitionView>, Vec<TransitionView>) {
    let mut last = None;
    let mut recent = Vec::new();
    for t in lines.rev().filter_map(transition_view) {
        if last.is_none() {
            last = Some(t.clone());
        }
        if t.from.is_some() {
            recent.push(t);
            if recent.len() == MAX_RECENT_TRANSITIONS {
                break;
            }
        }
    }
    recent.reverse();
    (last, recent)
}

/// A QuorumController's queue, purgatory, offsets, registrations and heartbeats, for the view.
fn controller_view(c: &QuorumController, now_ms: u64) -> ControllerView {
    let oc = &c.offset_control;
    ControllerView {
        active: c.is_active(),
        active_epoch: c.active_epoch(),
        queue: c.queue.queued().map(|e| e.name.clone()).collect(),
        deferred: c
            .queue
            .deferred()
            .map(|d| (d.event.name.clone(), d.deadline_ms))
            .collect(),
        purgatory: c
            .purgatory
            .iter()
            .map(|(o, w)| (w.name.clone(), o))
            .collect(),
        last_event: c.last_event.clone(),
        last_result: c
            .last_result
            .as_ref()
            .map(|r| (r.records.iter().map(|m| m.to_json()).collect(), r.is_atomic)),
        last_committed_offset: oc.last_committed_offset,
        last_stable_offset: oc.last_stable_offset,
        next_write_offset: oc.next_write_offset,
        snapshots: oc.snapshot_registry.epochs_list(),
        topics_by_name: TimelineView::of(
            "topicsByName",
            &oc.snapshot_registry,
            &c.state.replication.topics_by_name,
            Some(oc.last_stable_offset),
            c.last_revert.clone(),
        ),
        brokers: c
            .state
            .cluster
            .brokers
            .iter()
            .map(|(id, b)| (*id, b.record.broker_epoch, b.record.fenced))
            .collect(),
        brokers_in_controlled_shutdown: c
            .state
            .cluster
            .brokers
            .iter()
            .filter(|(_, b)| b.record.in_controlled_shutdown)
            .map(|(id, _)| *id)
            .collect(),
        controllers: c.state.cluster.controllers.keys().copied().collect(),
        sessions: c
            .broker_sessions()
            .into_iter()
            .filter(|_| c.is_active())
            .map(|(id, t)| (id, now_ms.saturating_sub(t)))
            .collect(),
        session_timeout_ms: c.session_timeout_ms(),
        heartbeats: c
            .heartbeats
            .recent
            .iter()
            .filter(|_| c.is_active())
            .map(|(id, times)| (*id, times.iter().copied().collect()))
            .collect(),
        write_lives: c.write_lives.iter().cloned().collect(),
    }
}

#[cfg(test)]
mod view_tests {
    use super::*;
    use crate::sim::WorldConfig;

    #[test]
    fn the_view_shows_timers_the_hw_computation_and_transitions() {
        let mut w = World::new(WorldConfig::new(5, vec![101, 102, 103], vec![1])).unwrap();
        w.run_for(5_000);
        let (leader, _) = w.leader().expect("a leader after 5 s");
        let v = w.view();
        for n in &v.nodes {
            let timer = n
                .raft_timer
                .as_ref()
                .expect("every running node has a timer");
            assert!(
                timer.deadline_ms >= v.now_ms && timer.deadline_ms <= v.now_ms + timer.duration_ms
            );
            if n.id == leader {
                assert_eq!(
                    (timer.kind.name(), timer.duration_ms),
                    ("check-quorum", 3000)
                );
                let calc = n
                    .high_watermark_calc
                    .as_ref()
                    .expect("the leader's HW computation");
                assert_eq!(calc.voters.len(), 3);
                assert!(calc.voters.windows(2).all(|p| p[0].1 >= p[1].1));
                assert_eq!(calc.index_of_hw, 1);
                assert_eq!(calc.candidate, calc.voters[1].1);
                assert_eq!(calc.high_watermark, n.high_watermark);
                assert!(calc.past_epoch_start);
                let t = n.last_transition.as_ref().expect("a transition line");
                assert_eq!(
                    (t.from.map_or("null", StateKind::name), t.to.name(), t.epoch),
                    ("Candidate", "Leader", n.epoch)
                );
            } else {
                assert_eq!((timer.kind.name(), timer.duration_ms), ("fetch", 2000));
                assert!(n.high_watermark_calc.is_none());
                assert_eq!(
                    n.last_transition.as_ref().map(|t| t.to.name()),
                    Some("Follower")
                );
            }
        }
        // The next delivery is in the view at once.
        let delivered = w.network().delivered;
        while w.network().delivered == delivered {
            assert!(w.step(), "events run out");
        }
        let v = w.view();
        assert!(!v.recently_delivered.is_empty());
        assert!(v.recently_delivered.iter().all(|m| m.arrive_ms <= v.now_ms
            && m.arrive_ms + RECENT_MESSAGE_MS >= v.now_ms
            && !m.dropped));
        w.kill(leader).unwrap();
        let killed = w.view().nodes.into_iter().find(|n| n.id == leader).unwrap();
        assert!(killed.raft_timer.is_none() && killed.high_watermark_calc.is_none());
    }

    #[test]
    fn the_view_keeps_the_last_four_transitions_between_two_states() {
        // Lesson 02 up to its kill: 103 goes Prospective, Unattached (epoch 2), Unattached
        // (voted for 102), Follower.
        let mut c = crate::lesson::Console::new();
        for cmd in [
            "cluster controllers=101,102,103 brokers=1 seed=22",
            "run until=leader timeout=10s",
            "sleep 5s",
            "kafka-topics.sh --bootstrap-server localhost:9092 --create --topic orders",
            "sleep 950ms",
            "kill -9 101",
            "sleep 15s",
        ] {
            c.exec(cmd).unwrap();
        }
        let v = c.world.as_ref().unwrap().view();
        let n103 = v.nodes.iter().find(|n| n.id == 103).unwrap();
        let seen: Vec<(&str, &str, Option<i32>, i32)> = n103
            .recent_transitions
            .iter()
            .map(|t| {
                (
                    t.from.map_or("null", StateKind::name),
                    t.to.name(),
                    t.from_epoch,
                    t.epoch,
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                ("Follower", "Prospective", Some(1), 1),
                ("Prospective", "Unattached", Some(1), 2),
                ("Unattached", "Unattached", Some(2), 2),
                ("Unattached", "Follower", Some(2), 2),
            ]
        );
        assert_eq!(
            n103.last_transition.as_ref(),
            n103.recent_transitions.last()
        );
        // Broker 1 (an observer) started from null: that transition is left out.
        let n1 = v.nodes.iter().find(|n| n.id == 1).unwrap();
        assert!(n1.recent_transitions.iter().all(|t| t.from.is_some()));
        assert!(!n1.recent_transitions.is_empty());
        assert!(n1
            .recent_transitions
            .windows(2)
            .all(|p| p[0].time_ms <= p[1].time_ms));
    }

    #[test]
    fn the_view_shows_the_partitions_of_the_active_controller_and_the_cut_links() {
        let mut w = World::new(WorldConfig::new(1, vec![100], vec![1, 2, 3])).unwrap();
        w.run_for(4_000);
        assert!(w.view().partitions.is_empty());
        let mut c = crate::lesson::Console::new();
        c.world = Some(w);
        c.exec("kafka-topics.sh --bootstrap-server localhost:9092 --create --topic orders --partitions 2 --replication-factor 3")
            .unwrap();
        c.exec("sleep 1s").unwrap();
        let w = c.world.as_mut().unwrap();
        let v = w.view();
        let names: Vec<(String, i32)> = v
            .partitions
            .iter()
            .map(|p| (p.topic.clone(), p.partition))
            .collect();
        assert_eq!(
            names,
            [("orders".to_string(), 0), ("orders".to_string(), 1)]
        );
        for p in &v.partitions {
            assert_eq!(p.replicas.len(), 3);
            assert_eq!(p.isr.len(), 3);
            assert!(p.replicas.contains(&p.leader));
        }
        assert!(v.blocked.is_empty());
        w.partition(&[vec![1], vec![2, 3, 100]]).unwrap();
        let v = w.view();
        assert!(v.blocked.contains(&(1, 100)) && v.blocked.contains(&(100, 1)));
        assert!(!v.blocked.contains(&(2, 100)));
        w.heal();
        assert!(w.view().blocked.is_empty());
    }

    #[test]
    fn the_view_shows_each_loaders_image_as_the_shell_tree() {
        use crate::image::shell_tree::ShellNode;
        let mut w = World::new(WorldConfig::new(5, vec![101, 102, 103], vec![1])).unwrap();
        let empty = w.view();
        let b1 = empty.nodes.iter().find(|n| n.id == 1).unwrap();
        let image = b1.image.as_ref().expect("broker 1 runs a MetadataLoader");
        assert_eq!(
            (image.offset, image.epoch, image.publish_count),
            (-1, -1, 0)
        );
        w.run_for(5_000);
        let v = w.view();
        let b1 = v.nodes.iter().find(|n| n.id == 1).unwrap();
        let image = b1.image.as_ref().unwrap();
        assert!(image.publish_count > 0 && image.offset >= 0);
        assert!(image.offset < b1.high_watermark.unwrap());
        match image.tree().lookup("/image/cluster/brokers/1") {
            Some(ShellNode::File(t)) => assert!(t.starts_with("BrokerRegistration(id=1, "), "{t}"),
            other => panic!("/image/cluster/brokers/1 is {other:?}"),
        }
        assert!(matches!(
            image.tree().lookup("/image/features/metadata.version"),
            Some(ShellNode::File(_))
        ));
        assert!(matches!(
            image.tree().lookup("/image/provenance"),
            Some(ShellNode::File(t)) if t.starts_with(&format!("offset {}, epoch {}, ", image.offset, image.epoch))
        ));
        // Loaders at the same offset hold the same image.
        for n in &v.nodes {
            if let Some(other) = n.image.as_ref().filter(|i| i.offset == image.offset) {
                assert_eq!(
                    other.tree(),
                    image.tree(),
                    "node {} at offset {}",
                    n.id,
                    image.offset
                );
            }
        }
        w.kill(1).unwrap();
        assert!(w
            .view()
            .nodes
            .iter()
            .find(|n| n.id == 1)
            .unwrap()
            .image
            .is_none());
    }
}
