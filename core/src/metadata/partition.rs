//! PartitionRecord (apiKey 3) and PartitionChangeRecord (apiKey 5).

use super::wire::{field, java_list, java_nullable_list, JsonObject, Writer};
use crate::common::uuid::Uuid;

/// `Leader` value meaning the partition has no leader.
pub const NO_LEADER: i32 = -1;
/// PartitionChangeRecord `Leader` value meaning the leader did not change (its default).
pub const NO_LEADER_CHANGE: i32 = -2;
/// LeaderRecoveryState RECOVERED: the leader was elected from the ISR or has recovered.
pub const LEADER_RECOVERY_RECOVERED: i8 = 0;
/// LeaderRecoveryState RECOVERING: elected by unclean election and still recovering.
pub const LEADER_RECOVERY_RECOVERING: i8 = 1;
/// PartitionChangeRecord `LeaderRecoveryState` value meaning no change (its default).
pub const LEADER_RECOVERY_NO_CHANGE: i8 = -1;

/// PartitionRecord, written at version 2: one partition's full state, as topic creation writes
/// it. Tagged fields (LeaderRecoveryState, EligibleLeaderReplicas, LastKnownElr) are printed and
/// serialized only when they differ from their defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionRecord {
    /// PartitionId (default -1).
    pub partition_id: i32,
    /// TopicId: the topic this partition belongs to.
    pub topic_id: Uuid,
    /// Replicas, in preferred order.
    pub replicas: Vec<i32>,
    /// Isr: the in-sync replicas.
    pub isr: Vec<i32>,
    /// RemovingReplicas: replicas being removed by a reassignment.
    pub removing_replicas: Vec<i32>,
    /// AddingReplicas: replicas being added by a reassignment.
    pub adding_replicas: Vec<i32>,
    /// Leader: the leader's broker id, or -1 ([`NO_LEADER`]) (default -1).
    pub leader: i32,
    /// LeaderRecoveryState (tag 0, default 0 = RECOVERED; 1 = RECOVERING).
    pub leader_recovery_state: i8,
    /// LeaderEpoch (default -1).
    pub leader_epoch: i32,
    /// PartitionEpoch: bumped on every change (default -1).
    pub partition_epoch: i32,
    /// Directories (v1+): the log directory of each replica, in the order of `replicas`.
    pub directories: Vec<Uuid>,
    /// EligibleLeaderReplicas (v2+, tag 1, nullable, default null). Kafka sets it only when
    /// non-empty.
    pub eligible_leader_replicas: Option<Vec<i32>>,
    /// LastKnownElr (v2+, tag 2, nullable, default null). Kafka sets it only when non-empty.
    pub last_known_elr: Option<Vec<i32>>,
}

impl Default for PartitionRecord {
    /// The schema defaults: ids and epochs -1, empty lists, RECOVERED, no ELR.
    fn default() -> Self {
        PartitionRecord {
            partition_id: -1,
            topic_id: Uuid::ZERO,
            replicas: Vec::new(),
            isr: Vec::new(),
            removing_replicas: Vec::new(),
            adding_replicas: Vec::new(),
            leader: NO_LEADER,
            leader_recovery_state: LEADER_RECOVERY_RECOVERED,
            leader_epoch: -1,
            partition_epoch: -1,
            directories: Vec::new(),
            eligible_leader_replicas: None,
            last_known_elr: None,
        }
    }
}

impl PartitionRecord {
    /// The version written (metadata.version with ELR support writes 2).
    pub const VERSION: u16 = 2;

    pub(crate) fn write_json(&self, j: &mut JsonObject) {
        j.num("partitionId", self.partition_id);
        j.uuid("topicId", self.topic_id);
        j.i32s("replicas", &self.replicas);
        j.i32s("isr", &self.isr);
        j.i32s("removingReplicas", &self.removing_replicas);
        j.i32s("addingReplicas", &self.adding_replicas);
        j.num("leader", self.leader);
        if self.leader_recovery_state != LEADER_RECOVERY_RECOVERED {
            j.num("leaderRecoveryState", self.leader_recovery_state);
        }
        j.num("leaderEpoch", self.leader_epoch);
        j.num("partitionEpoch", self.partition_epoch);
        j.uuids("directories", &self.directories);
        if let Some(elr) = &self.eligible_leader_replicas {
            j.i32s("eligibleLeaderReplicas", elr);
        }
        if let Some(lkelr) = &self.last_known_elr {
            j.i32s("lastKnownElr", lkelr);
        }
    }

    pub(crate) fn write(&self, w: &mut Writer) {
        w.i32(self.partition_id);
        w.uuid(self.topic_id);
        w.compact_i32s(&self.replicas);
        w.compact_i32s(&self.isr);
        w.compact_i32s(&self.removing_replicas);
        w.compact_i32s(&self.adding_replicas);
        w.i32(self.leader);
        w.i32(self.leader_epoch);
        w.i32(self.partition_epoch);
        w.compact_uuids(&self.directories);
        let mut tagged = Vec::new();
        if self.leader_recovery_state != LEADER_RECOVERY_RECOVERED {
            tagged.push((0, field(|w| w.i8(self.leader_recovery_state))));
        }
        if let Some(elr) = &self.eligible_leader_replicas {
            tagged.push((1, field(|w| w.compact_i32s(elr))));
        }
        if let Some(lkelr) = &self.last_known_elr {
            tagged.push((2, field(|w| w.compact_i32s(lkelr))));
        }
        w.tagged_fields(tagged);
    }

    /// Kafka's `PartitionRegistration.merge(PartitionChangeRecord)`: apply a change; a new
    /// leader bumps the leader epoch, every change bumps the partition epoch.
    pub fn apply_change(&mut self, c: &PartitionChangeRecord) {
        if let Some(isr) = &c.isr {
            self.isr = isr.clone();
        }
        if c.leader != NO_LEADER_CHANGE {
            self.leader = c.leader;
            self.leader_epoch += 1;
        }
        if let Some(v) = &c.replicas {
            self.replicas = v.clone();
        }
        if let Some(v) = &c.removing_replicas {
            self.removing_replicas = v.clone();
        }
        if let Some(v) = &c.adding_replicas {
            self.adding_replicas = v.clone();
        }
        if c.leader_recovery_state != LEADER_RECOVERY_NO_CHANGE {
            self.leader_recovery_state = c.leader_recovery_state;
        }
        if let Some(v) = &c.eligible_leader_replicas {
            self.eligible_leader_replicas = (!v.is_empty()).then(|| v.clone());
        }
        if let Some(v) = &c.last_known_elr {
            self.last_known_elr = (!v.is_empty()).then(|| v.clone());
        }
        if let Some(v) = &c.directories {
            self.directories = v.clone();
        }
        self.partition_epoch += 1;
    }

    /// `PartitionRegistration.diff(prev)`: the fields that differ from `prev`, as
    /// `isr: [3] -> [1], leader: 3 -> 1, ...` in PartitionRegistration's field order.
    pub fn registration_diff(&self, prev: &PartitionRecord) -> String {
        fn recovery(s: i8) -> &'static str {
            if s == LEADER_RECOVERY_RECOVERING {
                "RECOVERING"
            } else {
                "RECOVERED"
            }
        }
        let elr =
            |p: &PartitionRecord| java_list(p.eligible_leader_replicas.as_deref().unwrap_or(&[]));
        let lkelr = |p: &PartitionRecord| java_list(p.last_known_elr.as_deref().unwrap_or(&[]));
        let mut parts = Vec::new();
        let mut diff = |name: &str, a: String, b: String| {
            if a != b {
                parts.push(format!("{name}: {a} -> {b}"));
            }
        };
        diff(
            "replicas",
            java_list(&prev.replicas),
            java_list(&self.replicas),
        );
        diff(
            "directories",
            java_list(&prev.directories),
            java_list(&self.directories),
        );
        diff("isr", java_list(&prev.isr), java_list(&self.isr));
        diff(
            "removingReplicas",
            java_list(&prev.removing_replicas),
            java_list(&self.removing_replicas),
        );
        diff(
            "addingReplicas",
            java_list(&prev.adding_replicas),
            java_list(&self.adding_replicas),
        );
        diff("leader", prev.leader.to_string(), self.leader.to_string());
        diff(
            "leaderRecoveryState",
            recovery(prev.leader_recovery_state).into(),
            recovery(self.leader_recovery_state).into(),
        );
        diff(
            "leaderEpoch",
            prev.leader_epoch.to_string(),
            self.leader_epoch.to_string(),
        );
        diff("elr", elr(prev), elr(self));
        diff("lastKnownElr", lkelr(prev), lkelr(self));
        diff(
            "partitionEpoch",
            prev.partition_epoch.to_string(),
            self.partition_epoch.to_string(),
        );
        parts.join(", ")
    }

    /// The partition as Kafka's `PartitionRegistration.toString()` prints it (controller replay
    /// log lines, `kafka-metadata-shell` `cat`):
    /// `PartitionRegistration(replicas=[1, 2, 3], directories=[...], isr=[1, 2, 3],
    /// removingReplicas=[], addingReplicas=[], elr=[], lastKnownElr=[], leader=1,
    /// leaderRecoveryState=RECOVERED, leaderEpoch=0, partitionEpoch=0)`.
    pub fn partition_registration_text(&self) -> String {
        fn list<T: ToString>(v: &[T]) -> String {
            let items: Vec<String> = v.iter().map(|x| x.to_string()).collect();
            format!("[{}]", items.join(", "))
        }
        let recovery = match self.leader_recovery_state {
            LEADER_RECOVERY_RECOVERING => "RECOVERING",
            _ => "RECOVERED",
        };
        format!(
            "PartitionRegistration(replicas={}, directories={}, isr={}, removingReplicas={}, \
             addingReplicas={}, elr={}, lastKnownElr={}, leader={}, leaderRecoveryState={}, \
             leaderEpoch={}, partitionEpoch={})",
            list(&self.replicas),
            list(&self.directories),
            list(&self.isr),
            list(&self.removing_replicas),
            list(&self.adding_replicas),
            list(self.eligible_leader_replicas.as_deref().unwrap_or(&[])),
            list(self.last_known_elr.as_deref().unwrap_or(&[])),
            self.leader,
            recovery,
            self.leader_epoch,
            self.partition_epoch
        )
    }
}

/// PartitionChangeRecord, written at version 2: what changed in one partition. Every field
/// after TopicId is tagged and left out (of both the JSON and the bytes) at its default, which
/// means "no change".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionChangeRecord {
    /// PartitionId (default -1).
    pub partition_id: i32,
    /// TopicId.
    pub topic_id: Uuid,
    /// Isr (tag 0): `None` if the ISR didn't change, else the new ISR.
    pub isr: Option<Vec<i32>>,
    /// Leader (tag 1): -2 ([`NO_LEADER_CHANGE`], the default) if the leader didn't change,
    /// -1 ([`NO_LEADER`]) if there is now no leader, else the new leader.
    pub leader: i32,
    /// Replicas (tag 2): `None` if unchanged.
    pub replicas: Option<Vec<i32>>,
    /// RemovingReplicas (tag 3): `None` if unchanged.
    pub removing_replicas: Option<Vec<i32>>,
    /// AddingReplicas (tag 4): `None` if unchanged.
    pub adding_replicas: Option<Vec<i32>>,
    /// LeaderRecoveryState (tag 5): -1 ([`LEADER_RECOVERY_NO_CHANGE`], the default) if
    /// unchanged, 0 RECOVERED, 1 RECOVERING.
    pub leader_recovery_state: i8,
    /// EligibleLeaderReplicas (v2+, tag 6): `None` if unchanged.
    pub eligible_leader_replicas: Option<Vec<i32>>,
    /// LastKnownElr (v2+, tag 7): `None` if unchanged.
    pub last_known_elr: Option<Vec<i32>>,
    /// Directories (v1+, tag 8): `None` if the log directories didn't change.
    pub directories: Option<Vec<Uuid>>,
}

impl Default for PartitionChangeRecord {
    /// The schema defaults: partition -1, nothing changed.
    fn default() -> Self {
        PartitionChangeRecord {
            partition_id: -1,
            topic_id: Uuid::ZERO,
            isr: None,
            leader: NO_LEADER_CHANGE,
            replicas: None,
            removing_replicas: None,
            adding_replicas: None,
            leader_recovery_state: LEADER_RECOVERY_NO_CHANGE,
            eligible_leader_replicas: None,
            last_known_elr: None,
            directories: None,
        }
    }
}

impl PartitionChangeRecord {
    /// The version written (metadata.version with ELR support writes 2).
    pub const VERSION: u16 = 2;

    pub(crate) fn write_json(&self, j: &mut JsonObject) {
        j.num("partitionId", self.partition_id);
        j.uuid("topicId", self.topic_id);
        if let Some(v) = &self.isr {
            j.i32s("isr", v);
        }
        if self.leader != NO_LEADER_CHANGE {
            j.num("leader", self.leader);
        }
        if let Some(v) = &self.replicas {
            j.i32s("replicas", v);
        }
        if let Some(v) = &self.removing_replicas {
            j.i32s("removingReplicas", v);
        }
        if let Some(v) = &self.adding_replicas {
            j.i32s("addingReplicas", v);
        }
        if self.leader_recovery_state != LEADER_RECOVERY_NO_CHANGE {
            j.num("leaderRecoveryState", self.leader_recovery_state);
        }
        if let Some(v) = &self.directories {
            j.uuids("directories", v);
        }
        if let Some(v) = &self.eligible_leader_replicas {
            j.i32s("eligibleLeaderReplicas", v);
        }
        if let Some(v) = &self.last_known_elr {
            j.i32s("lastKnownElr", v);
        }
    }

    /// The generated `PartitionChangeRecord.toString()`: every field in schema order, `null`
    /// for an unchanged list.
    pub fn java_to_string(&self) -> String {
        format!(
            "PartitionChangeRecord(partitionId={}, topicId={}, isr={}, leader={}, replicas={}, removingReplicas={}, addingReplicas={}, leaderRecoveryState={}, directories={}, eligibleLeaderReplicas={}, lastKnownElr={})",
            self.partition_id,
            self.topic_id,
            java_nullable_list(self.isr.as_deref()),
            self.leader,
            java_nullable_list(self.replicas.as_deref()),
            java_nullable_list(self.removing_replicas.as_deref()),
            java_nullable_list(self.adding_replicas.as_deref()),
            self.leader_recovery_state,
            java_nullable_list(self.directories.as_deref()),
            java_nullable_list(self.eligible_leader_replicas.as_deref()),
            java_nullable_list(self.last_known_elr.as_deref())
        )
    }

    pub(crate) fn write(&self, w: &mut Writer) {
        w.i32(self.partition_id);
        w.uuid(self.topic_id);
        let mut tagged = Vec::new();
        let ints = |tag: u32, v: &Option<Vec<i32>>, tagged: &mut Vec<(u32, Vec<u8>)>| {
            if let Some(v) = v {
                tagged.push((tag, field(|w| w.compact_i32s(v))));
            }
        };
        ints(0, &self.isr, &mut tagged);
        if self.leader != NO_LEADER_CHANGE {
            tagged.push((1, field(|w| w.i32(self.leader))));
        }
        ints(2, &self.replicas, &mut tagged);
        ints(3, &self.removing_replicas, &mut tagged);
        ints(4, &self.adding_replicas, &mut tagged);
        if self.leader_recovery_state != LEADER_RECOVERY_NO_CHANGE {
            tagged.push((5, field(|w| w.i8(self.leader_recovery_state))));
        }
        ints(6, &self.eligible_leader_replicas, &mut tagged);
        ints(7, &self.last_known_elr, &mut tagged);
        if let Some(v) = &self.directories {
            tagged.push((8, field(|w| w.compact_uuids(v))));
        }
        w.tagged_fields(tagged);
    }
}
