//! A minimal ReplicaManager for data partitions: brokers lead or follow the partitions the
//! MetadataImage gives them; followers fetch from leaders; a leader asks the controller with
//! AlterPartition to add a caught-up follower back to the ISR, or to shrink the ISR when a
//! follower has not caught up for `replica.lag.time.max.ms` — the second way out of the ISR
//! (the first is the controller's fencing).

use crate::common::message::controller::{
    ControllerMessage, ControllerRequest, ControllerResponse,
};
use crate::common::message::replica::{ReplicaMessage, TopicPartition};
use crate::image::MetadataImage;
use std::collections::{BTreeMap, BTreeSet};

/// replica.lag.time.max.ms
pub const REPLICA_LAG_TIME_MAX_MS: u64 = 30_000;
/// How often a follower fetches when there is no data (replica.fetch.wait.max.ms).
pub const REPLICA_FETCH_WAIT_MAX_MS: u64 = 500;
/// AlterPartition and replica fetches use correlation ids from here.
pub const REPLICA_CORRELATION_BASE: u64 = 2 << 32;

/// What [`ReplicaManager::poll`] sends: replica fetches to leaders, AlterPartition requests to
/// the active controller.
pub type PollOutput = (Vec<(i32, ReplicaMessage)>, Vec<(i32, ControllerMessage)>);

/// What a leader tracks for one partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderPartition {
    /// The ISR as the image has it.
    pub isr: Vec<i32>,
    /// The replicas.
    pub replicas: Vec<i32>,
    /// leaderEpoch
    pub leader_epoch: i32,
    /// partitionEpoch
    pub partition_epoch: i32,
    /// Per follower, the last time it was caught up (it fetched).
    pub last_caught_up_ms: BTreeMap<i32, u64>,
    /// An AlterPartition is in flight for this partition epoch.
    pub pending_alter: bool,
}

/// The broker's partitions.
#[derive(Clone, Debug, Default)]
pub struct ReplicaManager {
    node_id: i32,
    /// Partitions this broker leads.
    pub leaders: BTreeMap<TopicPartition, LeaderPartition>,
    /// Partitions this broker follows, with their leader.
    pub follows: BTreeMap<TopicPartition, i32>,
    usable: BTreeSet<i32>,
    next_fetch_ms: u64,
    next_correlation_id: u64,
    pending_alters: BTreeMap<u64, TopicPartition>,
}

impl ReplicaManager {
    /// The manager of broker `node_id`.
    pub fn new(node_id: i32) -> Self {
        ReplicaManager {
            node_id,
            next_correlation_id: REPLICA_CORRELATION_BASE,
            ..Default::default()
        }
    }

    /// `applyDelta`: take roles from the latest image.
    pub fn sync(&mut self, image: &MetadataImage, now_ms: u64) {
        let me = self.node_id;
        self.usable = image
            .cluster
            .brokers
            .iter()
            .filter(|(_, b)| !b.record.fenced && !b.record.in_controlled_shutdown)
            .map(|(id, _)| *id)
            .collect();
        let mut leaders = BTreeMap::new();
        let mut follows = BTreeMap::new();
        for t in image.topics.by_id.values() {
            for p in t.partitions.values() {
                if !p.replicas.contains(&me) {
                    continue;
                }
                let tp = (t.id, p.partition_id);
                if p.leader == me {
                    let mut lp = self.leaders.remove(&tp).unwrap_or_else(|| LeaderPartition {
                        isr: Vec::new(),
                        replicas: Vec::new(),
                        leader_epoch: -1,
                        partition_epoch: -1,
                        last_caught_up_ms: BTreeMap::new(),
                        pending_alter: false,
                    });
                    if lp.leader_epoch != p.leader_epoch {
                        // A new leader starts every follower's clock now.
                        lp.last_caught_up_ms = p
                            .replicas
                            .iter()
                            .filter(|r| **r != me)
                            .map(|r| (*r, now_ms))
                            .collect();
                    }
                    if lp.partition_epoch != p.partition_epoch {
                        lp.pending_alter = false;
                    }
                    lp.isr = p.isr.clone();
                    lp.replicas = p.replicas.clone();
                    lp.leader_epoch = p.leader_epoch;
                    lp.partition_epoch = p.partition_epoch;
                    leaders.insert(tp, lp);
                } else if p.leader >= 0 {
                    follows.insert(tp, p.leader);
                }
            }
        }
        self.leaders = leaders;
        self.follows = follows;
    }

    /// A follower's fetch arrived: it is caught up (no data is produced). Returns the response.
    pub fn handle_fetch(
        &mut self,
        from: i32,
        correlation_id: u64,
        partitions: &[TopicPartition],
        now_ms: u64,
    ) -> ReplicaMessage {
        for tp in partitions {
            if let Some(lp) = self.leaders.get_mut(tp) {
                if lp.replicas.contains(&from) {
                    lp.last_caught_up_ms.insert(from, now_ms);
                }
            }
        }
        ReplicaMessage::FetchResponse { correlation_id }
    }

    /// The controller answered an AlterPartition (or the request failed).
    pub fn handle_alter_response(&mut self, correlation_id: u64, _body: &ControllerResponse) {
        if let Some(tp) = self.pending_alters.remove(&correlation_id) {
            if let Some(lp) = self.leaders.get_mut(&tp) {
                lp.pending_alter = false;
            }
        }
    }

    /// Fetch from leaders when due; ask for ISR changes. `controller` is the active controller.
    pub fn poll(&mut self, now_ms: u64, broker_epoch: i64, controller: Option<i32>) -> PollOutput {
        let mut fetches = Vec::new();
        if now_ms >= self.next_fetch_ms {
            self.next_fetch_ms = now_ms + REPLICA_FETCH_WAIT_MAX_MS;
            let mut by_leader: BTreeMap<i32, Vec<TopicPartition>> = BTreeMap::new();
            for (tp, l) in &self.follows {
                by_leader.entry(*l).or_default().push(*tp);
            }
            for (leader, partitions) in by_leader {
                let cid = self.next_correlation_id;
                self.next_correlation_id += 1;
                fetches.push((
                    leader,
                    ReplicaMessage::Fetch {
                        correlation_id: cid,
                        partitions,
                    },
                ));
            }
        }
        let mut alters = Vec::new();
        let Some(controller) = controller else {
            return (fetches, alters);
        };
        if broker_epoch < 0 {
            return (fetches, alters);
        }
        let me = self.node_id;
        for (tp, lp) in self.leaders.iter_mut() {
            if lp.pending_alter {
                continue;
            }
            let caught_up = |r: &i32| {
                lp.last_caught_up_ms
                    .get(r)
                    .is_some_and(|t| now_ms.saturating_sub(*t) <= REPLICA_LAG_TIME_MAX_MS)
            };
            let mut new_isr: Vec<i32> = lp
                .isr
                .iter()
                .copied()
                .filter(|r| *r == me || caught_up(r))
                .collect();
            for r in &lp.replicas {
                if !new_isr.contains(r)
                    && *r != me
                    && self.usable.contains(r)
                    && caught_up(r)
                    && lp
                        .last_caught_up_ms
                        .get(r)
                        .is_some_and(|t| *t + REPLICA_FETCH_WAIT_MAX_MS * 2 >= now_ms)
                {
                    new_isr.push(*r);
                }
            }
            if new_isr != lp.isr {
                let cid = self.next_correlation_id;
                self.next_correlation_id += 1;
                lp.pending_alter = true;
                self.pending_alters.insert(cid, *tp);
                alters.push((
                    controller,
                    ControllerMessage::Request {
                        correlation_id: cid,
                        body: ControllerRequest::AlterPartition {
                            broker_id: me,
                            broker_epoch,
                            topic_id: tp.0,
                            partition_id: tp.1,
                            leader_epoch: lp.leader_epoch,
                            partition_epoch: lp.partition_epoch,
                            new_isr,
                        },
                    },
                ));
            }
        }
        (fetches, alters)
    }

    /// When the manager next wants to run.
    pub fn next_wake_ms(&self, now_ms: u64) -> Option<u64> {
        (!self.follows.is_empty() || !self.leaders.is_empty())
            .then(|| self.next_fetch_ms.max(now_ms + 1))
    }
}
