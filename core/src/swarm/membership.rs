//! The swarm's membership faults (KIP-853): voter changes sent to the leader, and the
//! membership storm of the single-voter-change rule, with its split-by-voter-set nemesis.

use std::collections::BTreeSet;

use super::Shape;
use crate::common::rng::SimRng;
use crate::sim::World;

/// One fault of the membership storm: two voter changes back to back, a random partition, a
/// heal, or the leader killed -9 and restarted.
pub(super) fn storm_fault(world: &mut World, shape: &Shape, plan: &mut SimRng) {
    let all = &shape.all;
    match plan.below(10) {
        0..=3 => {
            change_membership(world, shape, plan);
            change_membership(world, shape, plan);
        }
        4..=6 => {
            let cut = plan.range_inclusive(1, all.len() as u64 - 1) as usize;
            let mut shuffled = all.clone();
            for i in (1..shuffled.len()).rev() {
                let j = plan.below(i as u64 + 1) as usize;
                shuffled.swap(i, j);
            }
            let (a, b) = shuffled.split_at(cut);
            world.heal();
            let _ = world.partition(&[a.to_vec(), b.to_vec()]);
        }
        7 | 8 => world.heal(),
        _ => {
            if let Some((leader, _)) = world.leader() {
                let _ = world.kill(leader);
                let _ = world.restart(leader);
            }
        }
    }
}

/// The membership storm's nemesis, run after every event: while the leader's newest
/// VotersRecord is uncommitted, a follower has read it and another node still reads an
/// older voter set (the change is half-way), cut the
/// cluster along them (the nodes that read the same set together) and kill -9 and restart the
/// leader, so that each side elects by the set it reads (once per leader epoch and record).
///
/// One change at a time, any majority of the old set and any majority of the new one share a
/// voter and at most one side can win (the argument of Ongaro's thesis, section 4.1, which
/// AddVoterHandler and RemoveVoterHandler follow); with two changes pending, the old set's
/// majority and the new set's may be disjoint, and both sides elect a leader in the same epoch.
pub(super) fn split_by_voter_set(world: &mut World, split: &mut BTreeSet<(i32, i64)>) {
    let Some((leader, epoch)) = world.leader() else {
        return;
    };
    let Some(raft) = world.node(leader).and_then(|n| n.raft.as_ref()) else {
        return;
    };
    let Some((offset, _)) = raft.partition_state().last_voter_set_entry() else {
        return;
    };
    // A new leader's high watermark is unknown until its epoch's first batch commits.
    let Some(hw) = raft.high_watermark() else {
        return;
    };
    if offset < hw || split.contains(&(epoch, offset)) {
        return;
    }
    // Each running node's newest voter set, committed or not (the set it votes and counts by).
    let mut groups: Vec<(Vec<i32>, Vec<i32>)> = Vec::new();
    for n in world.nodes() {
        let Some(r) = n.raft.as_ref() else {
            continue;
        };
        let set = r.partition_state().last_voter_set().voter_ids();
        match groups.iter_mut().find(|(s, _)| *s == set) {
            Some((_, ids)) => ids.push(n.id),
            None => groups.push((set, vec![n.id])),
        }
    }
    // Half-way: a follower reads the leader's newest set and another node an older one.
    let newest = raft.partition_state().last_voter_set().voter_ids();
    let half_way = groups
        .iter()
        .any(|(set, ids)| *set == newest && ids.iter().any(|id| *id != leader));
    if groups.len() < 2 || !half_way {
        return;
    }
    split.insert((epoch, offset));
    let sides: Vec<Vec<i32>> = groups.into_iter().map(|(_, ids)| ids).collect();
    world.heal();
    let _ = world.partition(&sides);
    let _ = world.kill(leader);
    let _ = world.restart(leader);
}

/// A membership fault: a random controller added to the voters if it is not one, else removed
/// (the leader may remove itself), sent by the admin client to the leader without waiting for
/// the answer (a refusal, e.g. one change at a time, is part of the test).
///
/// The leader of a two-voter set is not removed: cut off from the other voter after appending
/// its removal, it resigns with a longer log than the other's, which still counts it as a
/// voter and so needs its vote, which the longer log refuses (KafkaRaftClient.handleVoteRequest
/// grants no vote to a shorter log): a deadlock Kafka has too, an operator's risk rather than
/// a liveness bug.
pub(super) fn change_membership(world: &mut World, shape: &Shape, plan: &mut SimRng) {
    use crate::raft::messages::{AddRaftVoterRequest, RaftRequest, RemoveRaftVoterRequest};
    let id = 100 + plan.below(shape.voters as u64) as i32;
    let Some((leader, _)) = world.leader() else {
        return;
    };
    let Some(node) = world.node(id) else {
        return;
    };
    let key = crate::raft::replica_key::ReplicaKey {
        id,
        directory_id: Some(node.directory_id),
    };
    let port = node.controller_port;
    let cluster_id = world.cluster_id().to_string();
    let voters = world.voter_set();
    if voters.contains_id(id) && id == leader && voters.len() == 2 {
        return;
    }
    let request = if voters.contains_id(id) {
        RaftRequest::RemoveRaftVoter(RemoveRaftVoterRequest {
            cluster_id,
            voter: key,
        })
    } else {
        RaftRequest::AddRaftVoter(AddRaftVoterRequest {
            cluster_id,
            timeout_ms: 30_000,
            voter: key,
            port: Some(port),
            ack_when_committed: true,
        })
    };
    let _ = world.admin_send_raft(leader, request);
}
