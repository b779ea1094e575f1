//! VoterSet: the voters of the metadata quorum, each with its directory id, CONTROLLER endpoint
//! and supported kraft.version range, as raft/src/main/java/org/apache/kafka/raft/VoterSet.java
//! keeps them (KIP-853). It is read from `controller.quorum.voters` (kraft.version 0, static) or
//! from the latest VotersRecord of the log or a snapshot (kraft.version 1, dynamic).

use std::collections::BTreeMap;
use std::fmt;

use super::batch::VoterEntry;
use super::replica_key::ReplicaKey;
use crate::common::java::{java_hash_map_capacity, java_hash_map_order};
use crate::common::uuid::Uuid;

/// The kraft.version range every node of this Kafka (4.5) supports (KRaftVersion.java: 0, 1).
pub const SUPPORTED_KRAFT_VERSIONS: (i16, i16) = (0, 1);

/// A voter: its key, its CONTROLLER listener's port on localhost, and the kraft.version range
/// it supports (`VoterSet.VoterNode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VoterNode {
    /// The voter's id and directory id.
    pub key: ReplicaKey,
    /// Its CONTROLLER listener port on localhost.
    pub port: u16,
    /// supportedKRaftVersion: (min, max).
    pub supported_kraft: (i16, i16),
}

impl VoterNode {
    /// A voter of this Kafka: kraft.version 0 to 1.
    pub fn new(key: ReplicaKey, port: u16) -> VoterNode {
        VoterNode {
            key,
            port,
            supported_kraft: SUPPORTED_KRAFT_VERSIONS,
        }
    }

    /// `Endpoints(endpoints={ListenerName(CONTROLLER)=localhost/<unresolved>:9093})`.
    pub fn endpoints_text(&self) -> String {
        if self.port == 0 {
            return "Endpoints(endpoints={})".to_string();
        }
        format!(
            "Endpoints(endpoints={{ListenerName(CONTROLLER)=localhost/<unresolved>:{}}})",
            self.port
        )
    }
}

impl fmt::Display for VoterNode {
    /// `VoterNode(voterKey=ReplicaKey(...), listeners=Endpoints(...),
    /// supportedKRaftVersion=SupportedVersionRange[min_version:0, max_version:1])`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "VoterNode(voterKey={}, listeners={}, supportedKRaftVersion=SupportedVersionRange[min_version:{}, max_version:{}])",
            self.key,
            self.endpoints_text(),
            self.supported_kraft.0,
            self.supported_kraft.1
        )
    }
}

/// The voters, by id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VoterSet {
    voters: BTreeMap<i32, VoterNode>,
}

impl VoterSet {
    /// The set of `nodes` (a later node with the same id replaces an earlier one).
    pub fn new(nodes: impl IntoIterator<Item = VoterNode>) -> VoterSet {
        VoterSet {
            voters: nodes.into_iter().map(|n| (n.key.id, n)).collect(),
        }
    }

    /// `fromVotersRecord`: the set a VotersRecord lists.
    pub fn from_record(entries: &[VoterEntry]) -> VoterSet {
        VoterSet::new(entries.iter().map(|e| {
            VoterNode::new(
                ReplicaKey {
                    id: e.voter_id,
                    directory_id: (e.voter_directory_id != Uuid::ZERO)
                        .then_some(e.voter_directory_id),
                },
                e.port,
            )
        }))
    }

    /// `toVotersRecord`: the entries of a VotersRecord, by id.
    pub fn to_record(&self) -> Vec<VoterEntry> {
        self.voters
            .values()
            .map(|v| VoterEntry {
                voter_id: v.key.id,
                voter_directory_id: v.key.directory_id.unwrap_or(Uuid::ZERO),
                port: v.port,
            })
            .collect()
    }

    /// Whether there is no voter (an observer started without a static set or a record).
    pub fn is_empty(&self) -> bool {
        self.voters.is_empty()
    }

    /// How many voters.
    pub fn len(&self) -> usize {
        self.voters.len()
    }

    /// The voters' ids, ascending.
    pub fn voter_ids(&self) -> Vec<i32> {
        self.voters.keys().copied().collect()
    }

    /// The voters' keys, by id.
    pub fn voter_keys(&self) -> Vec<ReplicaKey> {
        self.voters.values().map(|v| v.key).collect()
    }

    /// The voters, by id.
    pub fn nodes(&self) -> impl Iterator<Item = &VoterNode> {
        self.voters.values()
    }

    /// The voter with id `id`.
    pub fn node(&self, id: i32) -> Option<&VoterNode> {
        self.voters.get(&id)
    }

    /// Whether `id` is a voter (whatever its directory).
    pub fn contains_id(&self, id: i32) -> bool {
        self.voters.contains_key(&id)
    }

    /// `isVoter`: `key`'s id is a voter, with the same directory id when the set knows one.
    pub fn is_voter(&self, key: ReplicaKey) -> bool {
        self.voters
            .get(&key.id)
            .is_some_and(|v| v.key.directory_id.is_none() || v.key.directory_id == key.directory_id)
    }

    /// `voterNodeNeedsUpdate`: `node` is a voter here, described otherwise (another endpoint or
    /// kraft.version range, or a directory id the static set lacked).
    pub fn voter_node_needs_update(&self, node: &VoterNode) -> bool {
        self.voters
            .get(&node.key.id)
            .is_some_and(|old| self.is_voter(node.key) && old != node)
    }

    /// `isOnlyVoter`: `key` is the one voter.
    pub fn is_only_voter(&self, key: ReplicaKey) -> bool {
        self.voters.len() == 1 && self.is_voter(key)
    }

    /// `addVoter`: the set with `node` added; `None` when its id is already a voter.
    pub fn add_voter(&self, node: VoterNode) -> Option<VoterSet> {
        if self.voters.contains_key(&node.key.id) {
            return None;
        }
        let mut next = self.clone();
        next.voters.insert(node.key.id, node);
        Some(next)
    }

    /// `removeVoter` (VoterSet.java:221-234): the set without `key`; `None` when `key` is not
    /// a voter, its directory id differs, or it is the last voter.
    pub fn remove_voter(&self, key: ReplicaKey) -> Option<VoterSet> {
        let v = self.voters.get(&key.id)?;
        if v.key.directory_id != key.directory_id || self.voters.len() == 1 {
            return None;
        }
        let mut next = self.clone();
        next.voters.remove(&key.id);
        Some(next)
    }

    /// `updateVoter`: the set with the voter of `node`'s key replaced by `node`; `None` when
    /// it is not a voter with that directory id.
    pub fn update_voter(&self, node: VoterNode) -> Option<VoterSet> {
        let v = self.voters.get(&node.key.id)?;
        if v.key.directory_id != node.key.directory_id {
            return None;
        }
        let mut next = self.clone();
        next.voters.insert(node.key.id, node);
        Some(next)
    }

    /// `updateVoterIgnoringDirectoryId` (kraft.version 0): the voter with `node`'s id replaced
    /// by `node`, whatever its directory id was; `None` when the id is not a voter.
    pub fn update_voter_ignoring_directory_id(&self, node: VoterNode) -> Option<VoterSet> {
        self.voters.get(&node.key.id)?;
        let mut next = self.clone();
        next.voters.insert(node.key.id, node);
        Some(next)
    }

    /// `supportsVersion`: every voter supports kraft.version `v`.
    pub fn supports_version(&self, v: u16) -> bool {
        self.voters
            .values()
            .all(|n| n.supported_kraft.0 <= v as i16 && v as i16 <= n.supported_kraft.1)
    }

    /// The votes a candidate needs: a majority, `size / 2 + 1` (EpochElection.java:150-152).
    pub fn majority(&self) -> usize {
        self.voters.len() / 2 + 1
    }

    /// `voterKeys()` as Kafka prints it: `[ReplicaKey(...), ...]` (a HashSet: shown by id).
    pub fn keys_text(&self) -> String {
        let keys: Vec<String> = self.voters.values().map(|v| v.key.to_string()).collect();
        format!("[{}]", keys.join(", "))
    }
}

impl fmt::Display for VoterSet {
    /// `VoterSet(voters={101=VoterNode(...), ...})`, in a Java HashMap's order of the ids.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nodes: Vec<&VoterNode> = self.voters.values().collect();
        let cap = java_hash_map_capacity(nodes.len(), None);
        let ordered = java_hash_map_order(nodes, |v| v.key.id, cap);
        let parts: Vec<String> = ordered
            .iter()
            .map(|v| format!("{}={v}", v.key.id))
            .collect();
        write!(f, "VoterSet(voters={{{}}})", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: i32, dir: u8) -> VoterNode {
        VoterNode::new(
            ReplicaKey {
                id,
                directory_id: Some(Uuid([dir; 16])),
            },
            9091 + 2 * (id as u16 % 100),
        )
    }

    #[test]
    fn adding_and_removing_follow_kafkas_voter_set() {
        let s = VoterSet::new([node(101, 1), node(102, 2), node(103, 3)]);
        assert_eq!(s.majority(), 2);
        assert!(s.add_voter(node(102, 9)).is_none(), "id already a voter");
        let four = s.add_voter(node(104, 4)).unwrap();
        assert_eq!((four.len(), four.majority()), (4, 3));
        // Another directory id, or an unknown voter: not found.
        assert!(s.remove_voter(node(103, 9).key).is_none());
        assert!(s.remove_voter(node(105, 5).key).is_none());
        let two = s.remove_voter(node(103, 3).key).unwrap();
        assert_eq!(two.voter_ids(), [101, 102]);
        let one = VoterSet::new([node(101, 1)]);
        assert!(
            one.remove_voter(node(101, 1).key).is_none(),
            "the last voter"
        );
        assert!(one.is_only_voter(node(101, 1).key));
        assert_eq!(VoterSet::from_record(&s.to_record()), s);
    }

    #[test]
    fn it_prints_as_kafkas_to_string() {
        let s = VoterSet::new([node(102, 2), node(101, 1)]);
        let text = s.to_string();
        assert!(text.starts_with(
            "VoterSet(voters={101=VoterNode(voterKey=ReplicaKey(id=101, directoryId="
        ));
        assert!(text.contains("listeners=Endpoints(endpoints={ListenerName(CONTROLLER)=localhost/<unresolved>:9093}), supportedKRaftVersion=SupportedVersionRange[min_version:0, max_version:1]), 102=VoterNode("));
    }
}
