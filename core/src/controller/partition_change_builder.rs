//! PartitionChangeBuilder: the PartitionChangeRecord for one partition given a target ISR,
//! with KIP-966's eligible leader replicas (ELR) and last-known-leader election, as Kafka
//! 4.5 builds it (reassignment and preferred election are not modelled).

use crate::metadata::{
    PartitionChangeRecord, PartitionRecord, LEADER_RECOVERY_RECOVERING, NO_LEADER, NO_LEADER_CHANGE,
};

/// The logger of the "Setting new leader ..." lines; it has no `[QuorumController id=N] `
/// prefix (PartitionChangeBuilder takes a plain `LoggerFactory` logger).
pub const PARTITION_CHANGE_BUILDER_LOGGER: &str =
    "org.apache.kafka.controller.PartitionChangeBuilder";

/// One partition's change: the inputs of Kafka's builder.
pub struct PartitionChangeBuilder<'a> {
    partition: &'a PartitionRecord,
    is_acceptable_leader: &'a dyn Fn(i32) -> bool,
    min_isr: usize,
    elr_enabled: bool,
    unclean_election: bool,
    unclean_shutdown_replicas: Vec<i32>,
    target_isr: Vec<i32>,
    target_elr: Vec<i32>,
    target_last_known_elr: Vec<i32>,
}

/// The sorted members of a set: Java's `HashSet<Integer>` iterates small broker ids
/// ascending (ids below its table size, 16), which the simulation's ids are.
fn sorted_set(mut v: Vec<i32>) -> Vec<i32> {
    v.sort_unstable();
    v.dedup();
    v
}

impl<'a> PartitionChangeBuilder<'a> {
    /// A builder for `partition` whose targets start at its current state. `min_isr` is the
    /// topic's effective min.insync.replicas capped at the replication factor; `elr_enabled`
    /// is `eligible.leader.replicas.version >= 1`.
    pub fn new(
        partition: &'a PartitionRecord,
        is_acceptable_leader: &'a dyn Fn(i32) -> bool,
        min_isr: usize,
        elr_enabled: bool,
    ) -> Self {
        PartitionChangeBuilder {
            partition,
            is_acceptable_leader,
            min_isr,
            elr_enabled,
            unclean_election: false,
            unclean_shutdown_replicas: Vec::new(),
            target_isr: partition.isr.clone(),
            target_elr: partition
                .eligible_leader_replicas
                .clone()
                .unwrap_or_default(),
            target_last_known_elr: partition.last_known_elr.clone().unwrap_or_default(),
        }
    }

    /// `setTargetIsr`.
    pub fn set_target_isr(mut self, isr: Vec<i32>) -> Self {
        self.target_isr = isr;
        self
    }

    /// `setUncleanShutdownReplicas`: replicas that also leave the ELR.
    pub fn set_unclean_shutdown_replicas(mut self, replicas: Vec<i32>) -> Self {
        self.unclean_shutdown_replicas = replicas;
        self
    }

    /// `setElection(UNCLEAN)` (unclean.leader.election.enable).
    pub fn set_unclean_election(mut self, unclean: bool) -> Self {
        self.unclean_election = unclean;
        self
    }

    fn acceptable(&self, r: i32) -> bool {
        r >= 0 && (self.is_acceptable_leader)(r)
    }

    fn is_valid_new_leader(&self, r: i32) -> bool {
        (self.target_isr.contains(&r)
            || (self.target_isr.is_empty() && self.target_elr.contains(&r)))
            && self.acceptable(r)
    }

    fn can_elect_last_known_leader(&self) -> bool {
        let lk = self.partition.last_known_elr.as_deref().unwrap_or(&[]);
        self.elr_enabled
            && self.target_elr.is_empty()
            && self.target_isr.is_empty()
            && lk.len() == 1
            && self.acceptable(lk[0])
    }

    /// `electAnyLeader`: (leader, unclean).
    fn elect_any_leader(&self) -> (i32, bool) {
        let p = self.partition;
        if self.is_valid_new_leader(p.leader) {
            return (p.leader, false);
        }
        if let Some(r) = p
            .replicas
            .iter()
            .copied()
            .find(|r| self.is_valid_new_leader(*r))
        {
            return (r, false);
        }
        if self.can_elect_last_known_leader() {
            return (p.last_known_elr.as_ref().unwrap()[0], true);
        }
        if self.unclean_election {
            if let Some(r) = p.replicas.iter().copied().find(|r| self.acceptable(*r)) {
                return (r, true);
            }
        }
        (NO_LEADER, false)
    }

    /// `maybePopulateTargetElr`.
    fn maybe_populate_target_elr(&mut self) {
        if !self.elr_enabled {
            return;
        }
        if self.target_isr.len() >= self.min_isr {
            self.target_elr.clear();
            self.target_last_known_elr.clear();
            return;
        }
        let mut candidates = self.target_elr.clone();
        candidates.extend(self.partition.isr.iter().copied());
        let candidates = sorted_set(candidates);
        self.target_elr = candidates
            .iter()
            .copied()
            .filter(|r| !self.target_isr.contains(r) && !self.unclean_shutdown_replicas.contains(r))
            .collect();
        let mut all = candidates;
        all.extend(self.target_last_known_elr.iter().copied());
        self.target_last_known_elr = sorted_set(all)
            .into_iter()
            .filter(|r| !self.target_isr.contains(r) && !self.target_elr.contains(r))
            .collect();
    }

    /// `build()`: the record, or `None` when nothing changes, and the INFO lines the builder
    /// logs ("Setting new leader ... using ELR / an unclean election").
    pub fn build(mut self) -> (Option<PartitionChangeRecord>, Vec<String>) {
        let p = self.partition;
        let mut lines = Vec::new();
        let mut record = PartitionChangeRecord {
            partition_id: p.partition_id,
            topic_id: p.topic_id,
            ..Default::default()
        };
        self.maybe_populate_target_elr();
        // tryElection
        let (leader, unclean) = self.elect_any_leader();
        if leader != p.leader {
            if self.target_elr.contains(&leader) {
                self.target_isr = vec![leader];
                self.target_elr.retain(|r| *r != leader);
                lines.push(format!(
                    "Setting new leader for topicId {}, partition {} to {leader} using ELR. Previous partition: {}, change record: {}",
                    p.topic_id,
                    p.partition_id,
                    p.partition_registration_text(),
                    record.java_to_string()
                ));
            } else if unclean {
                lines.push(format!(
                    "Setting new leader for topicId {}, partition {} to {leader} using an unclean election. Previous partition: {}, change record: {}",
                    p.topic_id,
                    p.partition_id,
                    p.partition_registration_text(),
                    record.java_to_string()
                ));
            }
            record.leader = leader;
            if unclean {
                record.isr = Some(vec![leader]);
                if p.leader_recovery_state != LEADER_RECOVERY_RECOVERING {
                    record.leader_recovery_state = LEADER_RECOVERY_RECOVERING;
                }
            }
        }
        // maybeUpdateRecordElr (useLastKnownLeaderInBalancedRecovery is always true)
        if record.isr.is_some() || !self.elr_enabled {
            self.target_elr.clear();
            self.target_last_known_elr.clear();
        }
        if self.target_elr != p.eligible_leader_replicas.clone().unwrap_or_default() {
            record.eligible_leader_replicas = Some(self.target_elr.clone());
        }
        if record.isr.is_none()
            && (!self.target_isr.is_empty() || self.elr_enabled)
            && self.target_isr != p.isr
        {
            record.isr = Some(self.target_isr.clone());
        }
        // maybeUpdateLastKnownLeader
        if self.elr_enabled {
            let lk_empty = p.last_known_elr.as_deref().unwrap_or(&[]).is_empty();
            if record.leader == NO_LEADER && lk_empty {
                record.last_known_elr = Some(vec![p.leader]);
            } else if record.leader >= 0 && !lk_empty {
                record.last_known_elr = Some(Vec::new());
            }
        }
        let no_op = record.isr.is_none()
            && record.eligible_leader_replicas.is_none()
            && record.last_known_elr.is_none()
            && record.leader == NO_LEADER_CHANGE;
        (if no_op { None } else { Some(record) }, lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::uuid::Uuid;

    fn part(replicas: &[i32], isr: &[i32], leader: i32) -> PartitionRecord {
        PartitionRecord {
            partition_id: 0,
            topic_id: Uuid::ZERO,
            replicas: replicas.to_vec(),
            isr: isr.to_vec(),
            leader,
            leader_epoch: 0,
            partition_epoch: 0,
            ..Default::default()
        }
    }

    /// Item 12b: the builder's ELR handling on the worked examples of the spec.
    #[test]
    fn elr_matches_partition_change_builder() {
        // Fence the sole ISR member (and leader) of an rf-1 partition, minISR 1.
        let p = part(&[1], &[1], 1);
        let not1 = |r: i32| r != 1;
        let (r, _) = PartitionChangeBuilder::new(&p, &not1, 1, true)
            .set_target_isr(vec![])
            .build();
        let r = r.unwrap();
        assert_eq!(r.isr, Some(vec![]));
        assert_eq!(r.leader, NO_LEADER);
        assert_eq!(r.eligible_leader_replicas, Some(vec![1]));
        assert_eq!(r.last_known_elr, Some(vec![1]));
        // rf 3, fence one of three: only the ISR changes.
        let p3 = part(&[1, 2, 3], &[1, 2, 3], 1);
        let not3 = |r: i32| r != 3;
        let (r, _) = PartitionChangeBuilder::new(&p3, &not3, 1, true)
            .set_target_isr(vec![1, 2])
            .build();
        let r = r.unwrap();
        assert_eq!((r.isr, r.leader), (Some(vec![1, 2]), NO_LEADER_CHANGE));
        assert_eq!(r.eligible_leader_replicas, None);
        // min.insync.replicas=2 on rf 3: shrinking to [1] moves 2 into the ELR ...
        let not23 = |r: i32| r == 1;
        let (r, _) = PartitionChangeBuilder::new(&p3, &not23, 2, true)
            .set_target_isr(vec![1])
            .build();
        let r = r.unwrap();
        assert_eq!(r.isr, Some(vec![1]));
        assert_eq!(r.eligible_leader_replicas, Some(vec![2, 3]));
        // ... and growing back to 2 clears it.
        let mut shrunk = p3.clone();
        shrunk.apply_change(&r);
        let all = |_: i32| true;
        let (r, _) = PartitionChangeBuilder::new(&shrunk, &all, 2, true)
            .set_target_isr(vec![1, 2])
            .build();
        let r = r.unwrap();
        assert_eq!(r.isr, Some(vec![1, 2]));
        assert_eq!(r.eligible_leader_replicas, Some(vec![]));
        // ELR off: an empty target ISR is not written, the leader just goes.
        let (r, _) = PartitionChangeBuilder::new(&p, &not1, 1, false)
            .set_target_isr(vec![])
            .build();
        let r = r.unwrap();
        assert_eq!((r.isr, r.leader), (None, NO_LEADER));
    }

    /// Item 12b: a fenced sole ELR member that comes back is elected from the ELR (clean); an
    /// unclean shutdown empties the ELR and the last known leader is then elected unclean, with
    /// lastKnownElr cleared.
    #[test]
    fn sole_replica_comes_back_via_last_known_leader_as_unclean() {
        let mut p = part(&[1], &[1], 1);
        let not1 = |r: i32| r != 1;
        let (r, _) = PartitionChangeBuilder::new(&p, &not1, 1, true)
            .set_target_isr(vec![])
            .build();
        p.apply_change(&r.unwrap());
        // Clean comeback: elected from the ELR.
        let all = |_: i32| true;
        let (r, lines) = PartitionChangeBuilder::new(&p, &all, 1, true).build();
        let r = r.unwrap();
        assert_eq!((r.leader, r.isr.clone()), (1, Some(vec![1])));
        assert_eq!(r.eligible_leader_replicas, Some(vec![]));
        assert_eq!(r.last_known_elr, Some(vec![]));
        assert!(lines[0].contains("to 1 using ELR."), "{lines:?}");
        // Unclean shutdown: out of the ELR, nothing elected.
        let (r, _) = PartitionChangeBuilder::new(&p, &not1, 1, true)
            .set_unclean_shutdown_replicas(vec![1])
            .build();
        let r = r.unwrap();
        assert_eq!(r.eligible_leader_replicas, Some(vec![]));
        assert_eq!(r.leader, NO_LEADER_CHANGE);
        p.apply_change(&r);
        // Unfenced again: the last known leader, unclean.
        let (r, lines) = PartitionChangeBuilder::new(&p, &all, 1, true).build();
        let r = r.unwrap();
        assert_eq!((r.leader, r.isr.clone()), (1, Some(vec![1])));
        assert_eq!(r.leader_recovery_state, LEADER_RECOVERY_RECOVERING);
        assert_eq!(r.last_known_elr, Some(vec![]));
        assert!(lines[0].contains("using an unclean election."), "{lines:?}");
    }
}
