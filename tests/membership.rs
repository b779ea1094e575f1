//! KIP-853 dynamic controller membership end to end on the engine: a `--standalone`
//! controller grows to three with AddRaftVoter, the active controller removes itself and
//! resigns once the change commits, and the checks refuse what Kafka refuses, in Kafka's order
//! (raft/.../internals/AddVoterHandler.java, RemoveVoterHandler.java).

mod common;

use common::{run_checked, state, world_from};
use kraft_core::common::protocol::Errors;
use kraft_core::invariants::InvariantChecker;
use kraft_core::raft::messages::{
    AddRaftVoterRequest, RaftRequest, RaftResponse, RemoveRaftVoterRequest, VoterChangeResponse,
};
use kraft_core::raft::replica_key::ReplicaKey;
use kraft_core::sim::node_config::QuorumMode;
use kraft_core::sim::{World, WorldConfig};

/// Controllers 101 (`--standalone`), 102 and 103 (`--no-initial-controllers`) and broker 1.
fn standalone(seed: u64) -> World {
    let mut c = WorldConfig::new(seed, vec![101, 102, 103], vec![1]);
    c.quorum_mode = QuorumMode::Standalone;
    world_from(c)
}

fn key(w: &World, id: i32) -> ReplicaKey {
    ReplicaKey {
        id,
        directory_id: Some(w.node(id).unwrap().directory_id),
    }
}

fn voters(w: &World) -> Vec<i32> {
    w.voter_set().voter_ids()
}

/// Sends `request` from the admin client to `to` and runs until its answer arrives.
fn call(
    w: &mut World,
    checker: &mut InvariantChecker,
    to: i32,
    request: RaftRequest,
) -> RaftResponse {
    let cid = w.admin_send_raft(to, request).unwrap();
    for _ in 0..200 {
        run_checked(w, checker, 50);
        if let Some(r) = w.admin_raft_response(cid) {
            return r.clone();
        }
    }
    panic!("no answer to the admin's request");
}

fn add(w: &World, id: i32) -> RaftRequest {
    RaftRequest::AddRaftVoter(AddRaftVoterRequest {
        cluster_id: w.cluster_id().to_string(),
        timeout_ms: 30_000,
        voter: key(w, id),
        port: Some(w.node(id).unwrap().controller_port),
        ack_when_committed: true,
    })
}

fn remove(w: &World, id: i32) -> RaftRequest {
    RaftRequest::RemoveRaftVoter(RemoveRaftVoterRequest {
        cluster_id: w.cluster_id().to_string(),
        voter: key(w, id),
    })
}

fn ok() -> RaftResponse {
    RaftResponse::AddRaftVoter(VoterChangeResponse {
        error: Errors::None,
        error_message: None,
    })
}

#[test]
fn a_standalone_controller_grows_to_three_and_the_leader_removes_itself() {
    let mut w = standalone(3);
    let mut checker = InvariantChecker::new();
    run_checked(&mut w, &mut checker, 5_000);
    assert_eq!(state(&w, 101).0, "Leader");
    assert_eq!(voters(&w), [101]);
    // 102 and 103 were formatted without a voter set: observers fetching from 101.
    assert_eq!(state(&w, 102).0, "Follower");
    assert_eq!(
        {
            let req = add(&w, 102);
            call(&mut w, &mut checker, 101, req)
        },
        ok()
    );
    assert_eq!(voters(&w), [101, 102]);
    assert_eq!(
        {
            let req = add(&w, 103);
            call(&mut w, &mut checker, 101, req)
        },
        ok()
    );
    assert_eq!(voters(&w), [101, 102, 103]);
    run_checked(&mut w, &mut checker, 3_000);
    // The same id again: DUPLICATE_VOTER with Kafka's message.
    let RaftResponse::AddRaftVoter(dup) = ({
        let req = add(&w, 102);
        call(&mut w, &mut checker, 101, req)
    }) else {
        panic!("an AddRaftVoter answer");
    };
    assert_eq!(dup.error, Errors::DuplicateVoter);
    assert!(dup
        .error_message
        .unwrap()
        .starts_with("The voter id for ReplicaKey(id=102, directoryId="));
    // The leader removes itself: answered once committed, then it resigns.
    let removed = {
        let req = remove(&w, 101);
        call(&mut w, &mut checker, 101, req)
    };
    assert_eq!(
        removed,
        RaftResponse::RemoveRaftVoter(VoterChangeResponse {
            error: Errors::None,
            error_message: None
        })
    );
    run_checked(&mut w, &mut checker, 6_000);
    assert_eq!(voters(&w), [102, 103]);
    let leader = w.leader().expect("a new leader").0;
    assert!([102, 103].contains(&leader), "leader {leader}");
    let log = common::log_text(&w, 101);
    assert!(
        log.contains("Leader is not in the committed voter set"),
        "{log}"
    );
    // The removed controller follows as an observer.
    assert!(!w
        .node(101)
        .unwrap()
        .raft
        .as_ref()
        .unwrap()
        .quorum
        .is_voter());
}

#[test]
fn voter_changes_are_refused_as_kafka_refuses_them() {
    let mut w = standalone(5);
    let mut checker = InvariantChecker::new();
    run_checked(&mut w, &mut checker, 5_000);
    // Not the leader: NOT_LEADER_OR_FOLLOWER.
    let r = {
        let req = add(&w, 103);
        call(&mut w, &mut checker, 102, req)
    };
    assert!(
        matches!(
            r,
            RaftResponse::AddRaftVoter(VoterChangeResponse {
                error: Errors::NotLeaderOrFollower,
                ..
            })
        ),
        "{r:?}"
    );
    // The last voter cannot be removed: VOTER_NOT_FOUND.
    let r = {
        let req = remove(&w, 101);
        call(&mut w, &mut checker, 101, req)
    };
    let RaftResponse::RemoveRaftVoter(r) = r else {
        panic!("a RemoveRaftVoter answer")
    };
    assert_eq!(r.error, Errors::VoterNotFound);
    assert!(r
        .error_message
        .unwrap()
        .starts_with("Cannot remove voter ReplicaKey(id=101, directoryId="));
    // A voter that does not fetch (killed) lags behind: REQUEST_TIMED_OUT.
    w.kill(103).unwrap();
    run_checked(&mut w, &mut checker, 100);
    let r = {
        let req = add(&w, 103);
        call(&mut w, &mut checker, 101, req)
    };
    let RaftResponse::AddRaftVoter(r) = r else {
        panic!("an AddRaftVoter answer")
    };
    assert_eq!(r.error, Errors::RequestTimedOut);
    // Another cluster id: INCONSISTENT_CLUSTER_ID.
    let RaftRequest::AddRaftVoter(mut bad) = add(&w, 102) else {
        unreachable!()
    };
    bad.cluster_id = "other".into();
    let r = call(&mut w, &mut checker, 101, RaftRequest::AddRaftVoter(bad));
    let RaftResponse::AddRaftVoter(r) = r else {
        panic!("an AddRaftVoter answer")
    };
    assert_eq!(r.error, Errors::InconsistentClusterId);
    assert_eq!(voters(&w), [101]);
}

#[test]
fn with_auto_join_observing_controllers_add_themselves() {
    // controller.quorum.auto.join.enable=true (KIP-1186): 102 and 103, formatted
    // --no-initial-controllers, send AddRaftVoter for themselves once per update period
    // (2 x fetch timeout), one change at a time.
    let mut c = WorldConfig::new(11, vec![101, 102, 103], vec![1]);
    c.quorum_mode = QuorumMode::Standalone;
    c.quorum.auto_join_enable = true;
    let mut w = world_from(c);
    let mut checker = InvariantChecker::new();
    run_checked(&mut w, &mut checker, 30_000);
    assert_eq!(voters(&w), [101, 102, 103]);
    for id in [102, 103] {
        assert!(w.node(id).unwrap().raft.as_ref().unwrap().quorum.is_voter());
    }
    // One voter counts no fetches for check quorum, yet any fetch resets its timer
    // (LeaderState.updateReplicaState -> updateCheckQuorumForFollowingVoter, LeaderState.java:
    // 810, 251-267): grown to two voters, the leader does not resign on a stale timer.
    assert_eq!(w.leader(), Some((101, 1)));
    let resigned = w.nodes().flat_map(|n| n.log.lines()).any(|l| {
        l.message
            .starts_with("Did not receive fetch request from the majority")
    });
    assert!(!resigned, "a leader resigned on check quorum");
}

#[test]
fn a_static_quorum_moves_to_kraft_version_1() {
    // controller.quorum.voters: kraft.version 0. Each voter tells the leader its directory id
    // with UpdateRaftVoter (once per leader); then the upgrade appends KRaftVersion 1 and the
    // voter set (LeaderState.maybeAppendUpgradedKRaftVersion), and voters can be removed.
    let mut c = WorldConfig::new(13, vec![101, 102, 103], vec![1]);
    c.quorum_mode = QuorumMode::Static;
    let mut w = world_from(c);
    let mut checker = InvariantChecker::new();
    // Two voters' UpdateRaftVoter at once: the second is refused (one change at a time) and
    // retried a period (2 x fetch timeout) later.
    run_checked(&mut w, &mut checker, 16_000);
    let leader = w.leader().unwrap().0;
    let r = {
        let req = remove(&w, 103);
        call(&mut w, &mut checker, leader, req)
    };
    let RaftResponse::RemoveRaftVoter(r) = r else {
        panic!("a RemoveRaftVoter answer")
    };
    assert_eq!(r.error, Errors::UnsupportedVersion);
    assert_eq!(
        r.error_message.as_deref(),
        Some("Cluster doesn't support removing voter because the kraft.version feature is 0")
    );
    assert_eq!(w.upgrade_kraft_version(1, false), Ok(true));
    run_checked(&mut w, &mut checker, 3_000);
    let log = common::log_text(&w, leader);
    assert!(
        log.contains("Appended kraft.version KRAFT_VERSION_1 to the batch accumulator"),
        "{log}"
    );
    assert_eq!(w.upgrade_kraft_version(1, false), Ok(false), "already 1");
    let other = [101, 102, 103]
        .into_iter()
        .find(|id| *id != leader)
        .unwrap();
    let r = {
        let req = remove(&w, other);
        call(&mut w, &mut checker, leader, req)
    };
    assert!(
        matches!(
            r,
            RaftResponse::RemoveRaftVoter(VoterChangeResponse {
                error: Errors::None,
                ..
            })
        ),
        "{r:?}"
    );
    assert_eq!(voters(&w).len(), 2);
}
