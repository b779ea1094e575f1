//! A data partition on a broker, as Kafka's `Partition` (core/src/main/scala/kafka/cluster/
//! Partition.scala at confluentinc/kafka 06d492d8) keeps it: the replica assignment, the leader
//! and its epochs, the ISR with the AlterPartition change in flight, and on the leader each
//! follower's fetch state (server/.../replica/Replica.java, ReplicaState.java).
//!
//! The data high watermark is not the metadata log's: it is the smallest log end offset of the
//! ISR (the "maximal" ISR, with a replica being added), and it does not move while the ISR is
//! smaller than min.insync.replicas (`maybeIncrementLeaderHW`, Partition.scala:1010-1058). A
//! follower that has not caught up for replica.lag.time.max.ms leaves the ISR through the
//! leader's AlterPartition (`maybeShrinkIsr`, 1089-1130); one that has reached the HW in the
//! leader's epoch joins it again (`maybeExpandIsr`, 876-917).

use std::collections::{BTreeMap, BTreeSet};

use crate::common::node_log::{Level, LogFile, LogLine, NodeLog};
use crate::common::protocol::Errors;
use crate::common::uuid::Uuid;
use crate::metadata::PartitionRecord;
use crate::raft::log::RaftLog;

/// The logger of Partition's own lines.
pub const PARTITION_LOGGER: &str = "kafka.cluster.Partition";
/// The logger of become-leader and become-follower lines (state-change.log).
pub const STATE_CHANGE_LOGGER: &str = "state.change.logger";

/// A follower's state on the leader (ReplicaState.java).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplicaState {
    /// logStartOffset (-1 unknown)
    pub log_start_offset: i64,
    /// logEndOffset: its last fetch offset (-1 unknown)
    pub log_end_offset: i64,
    /// lastFetchLeaderLogEndOffset: the leader's LEO at its last fetch
    pub last_fetch_leader_log_end_offset: i64,
    /// lastFetchTimeMs
    pub last_fetch_time_ms: u64,
    /// lastCaughtUpTimeMs
    pub last_caught_up_time_ms: u64,
    /// brokerEpoch of its last fetch
    pub broker_epoch: Option<i64>,
}

impl ReplicaState {
    /// `isCaughtUp` (ReplicaState.java:62-67): at the leader's LEO, or caught up within
    /// `max_lag_ms`.
    pub fn is_caught_up(&self, leader_end_offset: i64, now_ms: u64, max_lag_ms: u64) -> bool {
        leader_end_offset == self.log_end_offset
            || now_ms.saturating_sub(self.last_caught_up_time_ms) <= max_lag_ms
    }
}

/// An AlterPartition in flight (PendingExpandIsr / PendingShrinkIsr).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingIsr {
    /// The ISR sent to the controller.
    pub isr: Vec<i32>,
    /// The replica being added (an expansion), if any.
    pub adding: Option<i32>,
    /// The replicas being removed (a shrink).
    pub removing: Vec<i32>,
}

/// What a broker knows of the others when it judges ISR eligibility (from its MetadataImage).
pub trait BrokerInfo {
    /// `isReplicaIsrEligible` (Partition.scala:914-937): not fenced, not in controlled
    /// shutdown, and `fetch_epoch` (the epoch its fetches carried) -1 or its registered epoch.
    fn isr_eligible(&self, broker: i32, fetch_epoch: Option<i64>) -> bool;
}

/// One data partition on one broker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    /// The topic's name.
    pub topic: String,
    /// The topic's id.
    pub topic_id: Uuid,
    /// The partition index.
    pub index: i32,
    /// This broker.
    pub broker_id: i32,
    /// The assignment.
    pub replicas: Vec<i32>,
    /// leaderReplicaIdOpt
    pub leader: Option<i32>,
    /// leaderEpoch (-1 before the first state change)
    pub leader_epoch: i32,
    /// partitionEpoch
    pub partition_epoch: i32,
    /// leaderEpochStartOffsetOpt: this broker's LEO when it became leader in this epoch.
    pub leader_epoch_start_offset: Option<i64>,
    /// The committed ISR (empty on a follower, as Kafka keeps it).
    pub isr: Vec<i32>,
    /// The AlterPartition in flight.
    pub pending: Option<PendingIsr>,
    /// On the leader: each follower's fetch state.
    pub remote: BTreeMap<i32, ReplicaState>,
    /// The log's high watermark (UnifiedLog.highWatermark).
    pub high_watermark: i64,
    /// min.insync.replicas of the topic (or the cluster's default).
    pub min_insync_replicas: i32,
    /// The isr-high-watermark rule (on: the HW is the ISR's smallest LEO).
    pub hw_from_isr: bool,
}

/// A line of broker `broker_id`'s state-change.log (`state.change.logger`, prefix
/// `[Broker id=N] `).
pub fn state_change_line(log: &mut NodeLog, now_ms: u64, broker_id: i32, message: String) {
    log.push(LogLine {
        time_ms: now_ms,
        level: Level::Info,
        file: LogFile::StateChange,
        prefix: format!("[Broker id={broker_id}] "),
        message,
        logger: STATE_CHANGE_LOGGER,
    });
}

/// `orders-0`
pub fn partition_name(topic: &str, index: i32) -> String {
    format!("{topic}-{index}")
}

/// `[a,b,c]` as Scala's `mkString("[", ",", "]")`.
fn bracketed(ids: &[i32]) -> String {
    format!("[{}]", comma(ids))
}

/// `a,b,c` as `mkString(",")`.
fn comma(ids: &[i32]) -> String {
    ids.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// Scala's `Option[Int]` toString: `Some(1)` or `None`.
fn scala_option(v: Option<i32>) -> String {
    v.map(|v| format!("Some({v})"))
        .unwrap_or_else(|| "None".into())
}

impl Partition {
    /// A partition this broker has just learned of, before its first state change.
    pub fn new(
        topic: &str,
        topic_id: Uuid,
        index: i32,
        broker_id: i32,
        high_watermark: i64,
    ) -> Self {
        Partition {
            topic: topic.to_string(),
            topic_id,
            index,
            broker_id,
            replicas: Vec::new(),
            leader: None,
            leader_epoch: -1,
            partition_epoch: -1,
            leader_epoch_start_offset: None,
            isr: Vec::new(),
            pending: None,
            remote: BTreeMap::new(),
            high_watermark,
            min_insync_replicas: 1,
            hw_from_isr: true,
        }
    }

    /// `orders-0`
    pub fn name(&self) -> String {
        partition_name(&self.topic, self.index)
    }

    /// Whether this broker leads it.
    pub fn is_leader(&self) -> bool {
        self.leader == Some(self.broker_id)
    }

    /// The ISR the HW waits for: the committed one, with a replica being added
    /// (`maximalIsr`: an expansion counts at once, a shrink only once committed).
    pub fn maximal_isr(&self) -> Vec<i32> {
        let mut isr = self.isr.clone();
        if let Some(PendingIsr {
            adding: Some(id), ..
        }) = &self.pending
        {
            if !isr.contains(id) {
                isr.push(*id);
            }
        }
        isr
    }

    /// `effectiveMinIsr`: min.insync.replicas, at most the replication factor.
    pub fn effective_min_isr(&self) -> i32 {
        self.min_insync_replicas.min(self.remote.len() as i32 + 1)
    }

    /// `isUnderMinIsr`: the leader's ISR is smaller than the effective min.insync.replicas.
    pub fn is_under_min_isr(&self) -> bool {
        self.is_leader() && (self.isr.len() as i32) < self.effective_min_isr()
    }

    fn line(&self, log: &mut NodeLog, now_ms: u64, level: Level, message: String) {
        log.push(LogLine {
            time_ms: now_ms,
            level,
            file: LogFile::Server,
            prefix: format!("[Partition {} broker={}] ", self.name(), self.broker_id),
            message,
            logger: PARTITION_LOGGER,
        });
    }

    /// `createLog`'s lines (Partition.scala, createLogIfNotExists): the HW comes from the
    /// replication-offset-checkpoint, or 0 with "No checkpointed highwatermark is found".
    pub fn log_loaded(&self, log: &mut NodeLog, now_ms: u64, checkpointed: Option<i64>) {
        let name = self.name();
        if checkpointed.is_none() {
            let m = format!("No checkpointed highwatermark is found for partition {name}");
            self.line(log, now_ms, Level::Info, m);
        }
        let m = format!(
            "Log loaded for partition {name} with initial high watermark {}",
            self.high_watermark
        );
        self.line(log, now_ms, Level::Info, m);
    }

    fn state_change(&self, log: &mut NodeLog, now_ms: u64, message: String) {
        state_change_line(log, now_ms, self.broker_id, message);
    }

    /// `makeLeader` (Partition.scala:588-688): take the registration; in a new leader epoch,
    /// cache the epoch's start offset and reset the followers' states. Returns whether the HW
    /// moved.
    pub fn make_leader(
        &mut self,
        reg: &PartitionRecord,
        data: &mut RaftLog,
        log: &mut NodeLog,
        now_ms: u64,
        info: &dyn BrokerInfo,
    ) -> bool {
        if reg.partition_epoch < self.partition_epoch {
            return false;
        }
        let is_new_leader = !self.is_leader();
        let is_new_leader_epoch = reg.leader_epoch > self.leader_epoch;
        self.replicas = reg.replicas.clone();
        let followers: BTreeSet<i32> = reg
            .replicas
            .iter()
            .copied()
            .filter(|r| *r != self.broker_id)
            .collect();
        self.remote.retain(|id, _| followers.contains(id));
        for id in &followers {
            self.remote.entry(*id).or_insert(ReplicaState {
                log_start_offset: -1,
                log_end_offset: -1,
                last_fetch_leader_log_end_offset: -1,
                last_fetch_time_ms: 0,
                last_caught_up_time_ms: 0,
                broker_epoch: None,
            });
        }
        self.isr = reg.isr.clone();
        self.pending = None;
        if is_new_leader_epoch {
            let start = data.end_offset();
            let previous = self.leader;
            self.state_change(
                log,
                now_ms,
                format!(
                    "Leader {} with topic id Some({}) starts at leader epoch {} from offset {start} with partition epoch {}, high watermark {}, ISR {}, adding replicas {} and removing replicas {} {}. Previous leader {} and previous leader epoch was {}.",
                    self.name(),
                    self.topic_id,
                    reg.leader_epoch,
                    reg.partition_epoch,
                    self.high_watermark,
                    bracketed(&reg.isr),
                    bracketed(&reg.adding_replicas),
                    bracketed(&reg.removing_replicas),
                    if (reg.isr.len() as i32) < self.min_insync_replicas.min(reg.replicas.len() as i32) { "(under-min-isr)" } else { "" },
                    scala_option(previous),
                    self.leader_epoch
                ),
            );
            data.assign_epoch_start_offset(reg.leader_epoch, start);
            for (id, r) in self.remote.iter_mut() {
                let in_sync = reg.isr.contains(id);
                let caught_up = if in_sync { now_ms } else { 0 };
                *r = if is_new_leader {
                    ReplicaState {
                        log_start_offset: -1,
                        log_end_offset: -1,
                        last_fetch_leader_log_end_offset: -1,
                        last_fetch_time_ms: 0,
                        last_caught_up_time_ms: caught_up,
                        broker_epoch: None,
                    }
                } else {
                    ReplicaState {
                        last_fetch_leader_log_end_offset: start,
                        last_fetch_time_ms: caught_up,
                        last_caught_up_time_ms: caught_up,
                        ..*r
                    }
                };
            }
            self.leader_epoch = reg.leader_epoch;
            self.leader_epoch_start_offset = Some(start);
        }
        self.partition_epoch = reg.partition_epoch;
        self.leader = Some(self.broker_id);
        self.maybe_increment_leader_hw(data.end_offset(), now_ms, info)
    }

    /// `makeFollower` (Partition.scala:694-750): follow `reg.leader`; the ISR is the leader's
    /// business. Returns whether the leader epoch changed (the fetcher restarts).
    pub fn make_follower(
        &mut self,
        reg: &PartitionRecord,
        data: &RaftLog,
        log: &mut NodeLog,
        now_ms: u64,
    ) -> bool {
        if reg.partition_epoch < self.partition_epoch {
            return false;
        }
        let is_new_leader_epoch = reg.leader_epoch > self.leader_epoch;
        let previous = self.leader;
        let previous_epoch = self.leader_epoch;
        self.leader = (reg.leader >= 0).then_some(reg.leader);
        self.leader_epoch = reg.leader_epoch;
        self.leader_epoch_start_offset = None;
        self.partition_epoch = reg.partition_epoch;
        self.replicas = reg.replicas.clone();
        self.isr.clear();
        self.pending = None;
        self.remote.clear();
        if is_new_leader_epoch {
            self.state_change(
                log,
                now_ms,
                format!(
                    "Follower {} starts at leader epoch {} from offset {} with partition epoch {} and high watermark {}. Current leader is {}. Previous leader {} and previous leader epoch was {}.",
                    self.name(),
                    reg.leader_epoch,
                    data.end_offset(),
                    reg.partition_epoch,
                    self.high_watermark,
                    reg.leader,
                    scala_option(previous),
                    previous_epoch
                ),
            );
        }
        is_new_leader_epoch
    }

    /// `appendRecordsToLeader` (Partition.scala:1219-1251)'s check: with acks=all, refuse a
    /// write while the ISR is smaller than min.insync.replicas (before appending).
    pub fn check_append(&self, acks: i16) -> Result<(), (Errors, String)> {
        if !self.is_leader() {
            return Err((
                Errors::NotLeaderOrFollower,
                format!(
                    "Leader not local for partition {} on broker {}",
                    self.name(),
                    self.broker_id
                ),
            ));
        }
        let min_isr = self.effective_min_isr();
        let in_sync = self.isr.len() as i32;
        if in_sync < min_isr && acks == -1 {
            let mut live = self.isr.clone();
            live.sort_unstable();
            return Err((
                Errors::NotEnoughReplicas,
                format!(
                    "The size of the current ISR : {in_sync} is insufficient to satisfy the min.isr requirement of {min_isr} for partition {}, live replica(s) broker.id are : Set({})",
                    self.name(),
                    live.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
        Ok(())
    }

    /// `maybeIncrementLeaderHW` (Partition.scala:1010-1058): the smallest LEO of the maximal
    /// ISR and of the caught-up, eligible replicas waiting to join, never below the current HW,
    /// and not at all under min ISR. Returns whether it moved.
    pub fn maybe_increment_leader_hw(
        &mut self,
        leader_end_offset: i64,
        now_ms: u64,
        info: &dyn BrokerInfo,
    ) -> bool {
        if self.is_under_min_isr() {
            return false;
        }
        // RULE isr-high-watermark (Partition.maybeIncrementLeaderHW): off, the HW is what a
        // majority of the replicas holds, ISR or not.
        if !self.hw_from_isr {
            return self.majority_high_watermark(leader_end_offset);
        }
        let maximal = self.maximal_isr();
        let mut new_hw = leader_end_offset;
        for (id, r) in &self.remote {
            let wait_to_join = r.is_caught_up(
                leader_end_offset,
                now_ms,
                crate::broker::replica_config::REPLICA_LAG_TIME_MAX_MS,
            ) && info.isr_eligible(*id, r.broker_epoch);
            if r.log_end_offset < new_hw && (maximal.contains(id) || wait_to_join) {
                new_hw = r.log_end_offset;
            }
        }
        if new_hw > self.high_watermark {
            self.high_watermark = new_hw;
            true
        } else {
            false
        }
    }

    /// The isr-high-watermark rule off: the HW becomes the offset a majority of the replicas
    /// (the leader and the followers it has heard from) holds. Returns whether it moved.
    fn majority_high_watermark(&mut self, leader_end_offset: i64) -> bool {
        let mut ends: Vec<i64> = std::iter::once(leader_end_offset)
            .chain(self.remote.values().map(|r| r.log_end_offset))
            .collect();
        ends.sort_unstable_by(|a, b| b.cmp(a));
        let new_hw = ends[ends.len() / 2];
        if new_hw > self.high_watermark {
            self.high_watermark = new_hw;
            true
        } else {
            false
        }
    }

    /// `updateFollowerFetchState` (Partition.scala:767-818, Replica.updateFetchStateOrThrow):
    /// a follower fetched from `fetch_offset`. Returns (the ISR change to send, whether the HW
    /// moved).
    #[allow(clippy::too_many_arguments)]
    pub fn update_follower_fetch_state(
        &mut self,
        follower: i32,
        fetch_offset: i64,
        log_start_offset: i64,
        broker_epoch: i64,
        leader_end_offset: i64,
        now_ms: u64,
        info: &dyn BrokerInfo,
    ) -> (Option<PendingIsr>, bool) {
        let Some(r) = self.remote.get_mut(&follower) else {
            return (None, false);
        };
        let prev_end = r.log_end_offset;
        let caught_up = if fetch_offset >= leader_end_offset {
            r.last_caught_up_time_ms.max(now_ms)
        } else if fetch_offset >= r.last_fetch_leader_log_end_offset {
            r.last_caught_up_time_ms.max(r.last_fetch_time_ms)
        } else {
            r.last_caught_up_time_ms
        };
        *r = ReplicaState {
            log_start_offset,
            log_end_offset: fetch_offset,
            last_fetch_leader_log_end_offset: leader_end_offset
                .max(r.last_fetch_leader_log_end_offset),
            last_fetch_time_ms: now_ms,
            last_caught_up_time_ms: caught_up,
            broker_epoch: Some(broker_epoch),
        };
        let expand = self.maybe_expand_isr(follower, info);
        let hw_moved = prev_end != fetch_offset
            && self.maybe_increment_leader_hw(leader_end_offset, now_ms, info);
        (expand, hw_moved)
    }

    /// `maybeExpandIsr` (Partition.scala:876-917): a follower outside the ISR that has reached
    /// the HW in this leader epoch, and is eligible, is proposed for the ISR.
    fn maybe_expand_isr(&mut self, follower: i32, info: &dyn BrokerInfo) -> Option<PendingIsr> {
        if self.pending.is_some() || self.isr.contains(&follower) {
            return None;
        }
        let r = self.remote.get(&follower)?;
        let in_sync = r.log_end_offset >= self.high_watermark
            && self
                .leader_epoch_start_offset
                .is_some_and(|s| r.log_end_offset >= s);
        if !in_sync || !info.isr_eligible(follower, r.broker_epoch) {
            return None;
        }
        let mut isr = self.isr.clone();
        isr.push(follower);
        let p = PendingIsr {
            isr,
            adding: Some(follower),
            removing: Vec::new(),
        };
        self.pending = Some(p.clone());
        Some(p)
    }

    /// `getOutOfSyncReplicas` (Partition.scala:1155-1165): ISR followers not caught up
    /// within `max_lag_ms` (none while a change is in flight).
    pub fn out_of_sync_replicas(
        &self,
        leader_end_offset: i64,
        now_ms: u64,
        max_lag_ms: u64,
    ) -> Vec<i32> {
        if self.pending.is_some() {
            return Vec::new();
        }
        self.isr
            .iter()
            .copied()
            .filter(|id| *id != self.broker_id)
            .filter(|id| {
                self.remote
                    .get(id)
                    .is_none_or(|r| !r.is_caught_up(leader_end_offset, now_ms, max_lag_ms))
            })
            .collect()
    }

    /// `maybeShrinkIsr` (Partition.scala:1089-1130): out-of-sync followers leave the ISR
    /// through AlterPartition, with Kafka's line.
    pub fn maybe_shrink_isr(
        &mut self,
        leader_end_offset: i64,
        now_ms: u64,
        max_lag_ms: u64,
        log: &mut NodeLog,
    ) -> Option<PendingIsr> {
        if !self.is_leader() {
            return None;
        }
        let out = self.out_of_sync_replicas(leader_end_offset, now_ms, max_lag_ms);
        if out.is_empty() {
            return None;
        }
        let described: Vec<String> = out
            .iter()
            .map(|id| {
                let r = self.remote.get(id);
                format!(
                    "(brokerId: {id}, endOffset: {}, lastCaughtUpTimeMs: {})",
                    r.map(|r| r.log_end_offset.to_string())
                        .unwrap_or_else(|| "unknown".into()),
                    r.map(
                        |r| crate::common::clock::to_epoch_ms(r.last_caught_up_time_ms).to_string()
                    )
                    .unwrap_or_else(|| "unknown".into())
                )
            })
            .collect();
        let isr: Vec<i32> = self
            .isr
            .iter()
            .copied()
            .filter(|i| !out.contains(i))
            .collect();
        self.line(
            log,
            now_ms,
            Level::Info,
            format!(
                "Shrinking ISR from {} to {}. Leader: (highWatermark: {}, endOffset: {leader_end_offset}). Out of sync replicas: {}.",
                comma(&self.isr),
                comma(&isr),
                self.high_watermark,
                described.join(" ")
            ),
        );
        let p = PendingIsr {
            isr,
            adding: None,
            removing: out,
        };
        self.pending = Some(p.clone());
        Some(p)
    }

    /// `handleAlterPartitionUpdate` (Partition.scala:1789-1826): the controller took the
    /// change (`isr`, `partition_epoch`) in `leader_epoch`. Returns whether the HW moved.
    #[allow(clippy::too_many_arguments)]
    pub fn alter_partition_done(
        &mut self,
        leader_epoch: i32,
        isr: &[i32],
        partition_epoch: i32,
        leader_end_offset: i64,
        log: &mut NodeLog,
        now_ms: u64,
        info: &dyn BrokerInfo,
    ) -> bool {
        if leader_epoch != self.leader_epoch || partition_epoch < self.partition_epoch {
            return false;
        }
        self.isr = isr.to_vec();
        self.pending = None;
        self.partition_epoch = partition_epoch;
        let under = if self.is_under_min_isr() {
            "(under-min-isr)"
        } else {
            ""
        };
        self.line(
            log,
            now_ms,
            Level::Info,
            format!(
                "ISR updated to {} {under} and version updated to {partition_epoch}",
                comma(isr)
            ),
        );
        self.maybe_increment_leader_hw(leader_end_offset, now_ms, info)
    }

    /// `handleAlterPartitionError` (Partition.scala:1736-1787): the change was refused; the
    /// partition waits for the metadata log (or, on an unexpected error, retries).
    pub fn alter_partition_failed(
        &mut self,
        error: Errors,
        log: &mut NodeLog,
        now_ms: u64,
    ) -> bool {
        match error {
            Errors::UnknownTopicOrPartition
            | Errors::FencedLeaderEpoch
            | Errors::InvalidRequest => false,
            _ => {
                if let Some(p) = &self.pending {
                    self.line(
                        log,
                        now_ms,
                        Level::Warn,
                        format!(
                            "Failed to update ISR to {} due to unexpected {}. Retrying.",
                            bracketed(&p.isr),
                            error.name()
                        ),
                    );
                }
                true
            }
        }
    }

    /// `checkEnoughReplicasReachOffset` (Partition.scala:947-983): whether an acks=all write
    /// up to `required_offset` is done, and with which error.
    pub fn check_enough_replicas_reach_offset(&self, required_offset: i64) -> (bool, Errors) {
        if !self.is_leader() {
            return (false, Errors::NotLeaderOrFollower);
        }
        if self.high_watermark >= required_offset {
            if self.effective_min_isr() <= self.maximal_isr().len() as i32 {
                (true, Errors::None)
            } else {
                (true, Errors::NotEnoughReplicasAfterAppend)
            }
        } else {
            (false, Errors::None)
        }
    }
}
