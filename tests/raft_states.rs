//! KafkaRaftClient behaviour per state, in the spirit of Kafka's KafkaRaftClientTest and
//! KafkaRaftClientPreVoteTest: each test drives a small simulated cluster and checks the states,
//! the log, the files and the log lines the real client produces.

mod common;

use common::{lines, messages_text, noop, raft_world, run_checked, state, world};
use kraft_core::invariants::InvariantChecker;

#[test]
fn single_voter_elects_itself_at_once_and_writes_the_start_of_epoch_batch() {
    let w = raft_world(1, &[1], &[]);
    assert_eq!(state(&w, 1), ("Leader".into(), 1));
    let mut w = w;
    w.run_for(100);
    let log = &w.node(1).unwrap().disk.metadata_log;
    let b = &log.batches()[0];
    assert!(b.is_control);
    let names: Vec<&str> = b.records.iter().map(|r| r.short_name()).collect();
    assert_eq!(names, vec!["LeaderChange", "KRaftVersion", "KRaftVoters"]);
    assert_eq!(
        w.node(1).unwrap().raft.as_ref().unwrap().high_watermark(),
        Some(3)
    );
    let text = lines(&w, 1).join("\n");
    assert!(
        text.contains("Completed transition to ProspectiveState(epoch=0"),
        "{text}"
    );
    assert!(
        text.contains("Completed transition to CandidateState(localId=1"),
        "{text}"
    );
    assert!(
        text.contains(
            "Completed transition to Leader(localVoterNode=VoterNode(voterKey=ReplicaKey(id=1"
        ),
        "{text}"
    );
    assert!(text.contains("High watermark set to LogOffsetMetadata(offset=3, metadata=Optional.empty) for the first time for epoch 1 based on indexOfHw 0"), "{text}");
}

#[test]
fn three_voters_elect_one_leader_and_every_replica_commits() {
    let mut w = raft_world(7, &[101, 102, 103], &[1]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 5_000);
    let (leader, epoch) = w.leader().expect("leader");
    for id in [101, 102, 103, 1] {
        let (name, e) = state(&w, id);
        assert_eq!(e, epoch);
        assert_eq!(name == "Leader", id == leader, "node {id} is {name}");
    }
    for _ in 0..10 {
        w.append_to_leader(noop(2), false).expect("append");
        run_checked(&mut w, &mut c, 300);
    }
    run_checked(&mut w, &mut c, 2_000);
    let leo = w.node(leader).unwrap().disk.metadata_log.end_offset();
    assert_eq!(leo, 3 + 20);
    for id in [101, 102, 103, 1] {
        let n = w.node(id).unwrap();
        assert_eq!(n.disk.metadata_log.end_offset(), leo, "node {id}");
        assert_eq!(
            n.raft.as_ref().unwrap().high_watermark(),
            Some(leo),
            "node {id}"
        );
    }
    // As in the article's example 2: the leader's quorum-state has no vote (votedId -1).
    let qs = w
        .node(leader)
        .unwrap()
        .disk
        .read_file("__cluster_metadata-0/quorum-state")
        .unwrap();
    assert_eq!(
        qs,
        format!("{{\"leaderId\":{leader},\"leaderEpoch\":{epoch},\"votedId\":-1,\"votedDirectoryId\":\"AAAAAAAAAAAAAAAAAAAAAA\",\"data_version\":1}}")
    );
}

#[test]
fn killing_the_leader_elects_a_new_one_through_prevote_in_the_next_epoch() {
    // Both followers' fetch timers start from the same completed Fetch, so they often time out
    // together and split the vote (the article saw it in two runs of three). Over a few seeds:
    // a new leader every time, in the next epoch unless an election of epoch + 1 was lost.
    let mut next_epoch_wins = 0;
    for seed in 0..6 {
        let mut w = raft_world(seed, &[101, 102, 103], &[1]);
        let mut c = InvariantChecker::new();
        run_checked(&mut w, &mut c, 5_000);
        let (old, epoch) = w.leader().unwrap();
        w.append_to_leader(noop(1), false);
        run_checked(&mut w, &mut c, 1_000);
        let killed_at = w.now_ms();
        w.kill(old).unwrap();
        run_checked(&mut w, &mut c, 15_000);
        let (new, new_epoch) = w.leader().expect("a new leader");
        assert_ne!(new, old, "seed {seed}");
        let survivors: Vec<i32> = [101, 102, 103].into_iter().filter(|i| *i != old).collect();
        // A Candidate of epoch + 1 that went back to Prospective lost (or timed out) its election.
        let lost = format!(
            "Completed transition to ProspectiveState(epoch={}",
            epoch + 1
        );
        let split = survivors
            .iter()
            .any(|id| lines(&w, *id).iter().any(|l| l.contains(&lost)));
        if split {
            assert!(new_epoch > epoch + 1, "seed {seed}");
        } else {
            assert_eq!(new_epoch, epoch + 1, "seed {seed}");
            next_epoch_wins += 1;
        }
        let text = lines(&w, new).join("\n");
        assert!(text.contains("Transitioning to Prospective state due to fetch timeout"));
        // The fetch timeout (2000 ms, not randomized) fires within ~2 s of the kill.
        let prospective_at = w
            .node(new)
            .unwrap()
            .log
            .lines()
            .find(|l| {
                l.time_ms > killed_at
                    && l.message
                        .starts_with("Completed transition to ProspectiveState")
            })
            .expect("prospective")
            .time_ms;
        assert!(
            prospective_at - killed_at <= 2_000,
            "seed {seed}: {}",
            prospective_at - killed_at
        );
        // The old leader comes back as Resigned (it was leader in quorum-state), then follows.
        w.restart(old).unwrap();
        assert_eq!(state(&w, old).0, "Resigned");
        run_checked(&mut w, &mut c, 5_000);
        assert_eq!(
            state(&w, old),
            ("Follower".into(), new_epoch),
            "seed {seed}"
        );
    }
    assert!(next_epoch_wins > 0, "no seed elected in the next epoch");
}

#[test]
fn a_partitioned_leader_resigns_by_check_quorum_and_its_uncommitted_tail_is_truncated() {
    let mut w = raft_world(11, &[101, 102, 103], &[]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 5_000);
    let (old, epoch) = w.leader().unwrap();
    let others: Vec<i32> = [101, 102, 103].into_iter().filter(|i| *i != old).collect();
    w.partition(&[vec![old], others.clone()]).unwrap();
    // Records appended now can never commit: only the old leader has them.
    w.append_to_leader(noop(3), true).unwrap();
    run_checked(&mut w, &mut c, 6_000);
    let text = lines(&w, old).join("\n");
    // Logged by LeaderState (not KafkaRaftClient), the voters as ReplicaKeys.
    let check = text
        .lines()
        .find(|l| {
            l.contains("Did not receive fetch request from the majority of the voters within 3000ms. Current fetched voters are [], and voters are [ReplicaKey(id=101, directoryId=")
        })
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        check.ends_with("(org.apache.kafka.raft.LeaderState)"),
        "{check}"
    );
    assert!(
        text.contains("Completed transition to ResignedState(localId="),
        "{text}"
    );
    // Kafka 4.5's LeaderState toString: the local VoterNode with its unresolved endpoint.
    let port = w.voters().iter().find(|v| v.key.id == old).unwrap().port;
    assert!(
        text.contains(&format!(
            "from Leader(localVoterNode=VoterNode(voterKey=ReplicaKey(id={old}, directoryId="
        )) && text.contains(&format!(
            "listeners=Endpoints(endpoints={{ListenerName(CONTROLLER)=localhost/<unresolved>:{port}}}), supportedKRaftVersion=SupportedVersionRange[min_version:0, max_version:1]), epoch={epoch}, epochStartOffset="
        )),
        "{text}"
    );
    let (new, new_epoch) = w.leader().expect("the majority side elects");
    assert!(others.contains(&new) && new_epoch > epoch);
    w.append_to_leader(noop(1), false).unwrap();
    run_checked(&mut w, &mut c, 1_000);
    w.heal();
    run_checked(&mut w, &mut c, 6_000);
    let text = lines(&w, old).join("\n");
    assert!(text.contains("Truncated to offset"), "{text}");
    let new_port = w.voters().iter().find(|v| v.key.id == new).unwrap().port;
    assert!(
        text.contains(&format!(
            "leader={new}, leaderEndpoints=Endpoints(endpoints={{ListenerName(CONTROLLER)=localhost/<unresolved>:{new_port}}})"
        )),
        "{text}"
    );
    let a = &w.node(old).unwrap().disk.metadata_log;
    let b = &w.node(new).unwrap().disk.metadata_log;
    assert_eq!(a.end_offset(), b.end_offset());
    assert_eq!(a.batches(), b.batches());
}

#[test]
fn a_new_leader_reports_no_high_watermark_until_its_own_epoch_commits() {
    let mut w = raft_world(3, &[101, 102, 103], &[]);
    w.run_for(5_000);
    let (old, _) = w.leader().unwrap();
    w.kill(old).unwrap();
    let became = w.run_until(10_000, |w| w.leader().is_some());
    assert!(became);
    let (new, _) = w.leader().unwrap();
    // Right after the election: LeaderChange not yet replicated to anyone.
    assert_eq!(
        w.node(new).unwrap().raft.as_ref().unwrap().high_watermark(),
        None
    );
    w.run_for(1_000);
    let hw = w
        .node(new)
        .unwrap()
        .raft
        .as_ref()
        .unwrap()
        .high_watermark()
        .unwrap();
    assert_eq!(hw, w.node(new).unwrap().disk.metadata_log.end_offset());
}

#[test]
fn an_observer_finds_the_leader_by_fetching_any_voter_and_never_votes() {
    let mut w = raft_world(5, &[101, 102, 103], &[1, 2]);
    w.run_for(5_000);
    let (leader, epoch) = w.leader().unwrap();
    for b in [1, 2] {
        let r = w.node(b).unwrap().raft.as_ref().unwrap();
        assert_eq!(r.state().name(), "Follower");
        assert_eq!(
            (r.quorum.epoch(), r.state().leader_id()),
            (epoch, Some(leader))
        );
        let text = lines(&w, b).join("\n");
        assert!(!text.contains("Prospective"), "{text}");
    }
}

#[test]
fn a_stopped_follower_wakes_up_prospective_and_goes_back_to_its_leader() {
    let mut w = raft_world(7, &[101, 102, 103], &[]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 5_000);
    let (leader, epoch) = w.leader().unwrap();
    let f = [101, 102, 103].into_iter().find(|i| *i != leader).unwrap();
    w.stop(f).unwrap();
    run_checked(&mut w, &mut c, 5_000);
    assert_eq!(
        state(&w, f),
        ("Follower".into(), epoch),
        "frozen: nothing changes"
    );
    w.cont(f).unwrap();
    run_checked(&mut w, &mut c, 3_000);
    let text = lines(&w, f).join("\n");
    assert!(
        text.contains("Transitioning to Prospective state due to fetch timeout"),
        "{text}"
    );
    // The other voters have fetched from the leader, so they reject its PreVote: no new epoch.
    assert_eq!(w.leader(), Some((leader, epoch)));
    assert_eq!(state(&w, f), ("Follower".into(), epoch));
}

#[test]
fn a_majority_lost_means_no_leader_and_healing_restores_one() {
    let mut w = raft_world(9, &[101, 102, 103, 104, 105], &[]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 5_000);
    let (leader, _) = w.leader().unwrap();
    let mut rest: Vec<i32> = [101, 102, 103, 104, 105]
        .into_iter()
        .filter(|i| *i != leader)
        .collect();
    let minority_peer = rest.remove(0);
    w.partition(&[vec![leader, minority_peer], rest.clone()])
        .unwrap();
    w.kill(rest[0]).unwrap();
    w.kill(rest[1]).unwrap();
    run_checked(&mut w, &mut c, 10_000);
    // Two on one side, one on the other: nobody holds a majority of five.
    assert!(w.leader().is_none(), "{:?}", w.leader());
    w.heal();
    w.restart(rest[0]).unwrap();
    w.restart(rest[1]).unwrap();
    run_checked(&mut w, &mut c, 10_000);
    assert!(w.leader().is_some());
}

#[test]
fn the_invariant_checker_catches_a_lost_committed_entry() {
    let mut w = raft_world(7, &[101, 102, 103], &[]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 5_000);
    let (leader, _) = w.leader().unwrap();
    assert!(c.committed_len() >= 3);
    // Lose committed entries on the leader's disk: the checker must notice.
    w.disk_mut(leader).unwrap().metadata_log.truncate_to(1);
    assert!(c.check(&w).is_err());
}

#[test]
fn a_voter_that_voted_for_itself_restarts_as_candidate_in_the_same_epoch() {
    let mut w = raft_world(7, &[101, 102, 103], &[]);
    w.run_for(5_000);
    let (leader, epoch) = w.leader().unwrap();
    let f = [101, 102, 103].into_iter().find(|i| *i != leader).unwrap();
    w.kill(f).unwrap();
    let dir = w.node(f).unwrap().directory_id;
    // As if it had crashed right after becoming Candidate in epoch + 1.
    w.disk_mut(f).unwrap().write_file(
        "__cluster_metadata-0/quorum-state",
        format!("{{\"leaderId\":-1,\"leaderEpoch\":{},\"votedId\":{f},\"votedDirectoryId\":\"{dir}\",\"data_version\":1}}", epoch + 1),
    );
    w.restart(f).unwrap();
    assert_eq!(state(&w, f), ("Candidate".into(), epoch + 1));
    w.run_for(10_000);
    assert!(w.leader().is_some());
}

#[test]
fn a_gracefully_stopped_leader_resigns_with_end_quorum_epoch_and_its_successor_wins_fast() {
    let mut w = raft_world(7, &[101, 102, 103], &[]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 5_000);
    let (old, epoch) = w.leader().unwrap();
    let at = w.now_ms();
    w.terminate(old).unwrap();
    run_checked(&mut w, &mut c, 3_000);
    let text = lines(&w, old).join("\n");
    assert!(text.contains("Beginning graceful shutdown"), "{text}");
    assert!(
        text.contains("Completed transition to ResignedState"),
        "{text}"
    );
    assert!(text.contains("Graceful shutdown completed"), "{text}");
    assert_eq!(w.node(old).unwrap().process.name(), "killed");
    let (new, new_epoch) = w.leader().expect("new leader");
    assert_ne!(new, old);
    assert_eq!(new_epoch, epoch + 1);
    // The first preferred successor skips the 2 s fetch timeout: elected well under a second.
    let elected = w
        .node(new)
        .unwrap()
        .log
        .lines()
        .find(|l| l.time_ms > at && l.message.starts_with("Completed transition to Leader"))
        .unwrap()
        .time_ms;
    assert!(elected - at < 1_000, "elected after {} ms", elected - at);
}

/// Graceful stop of the leader as Kafka 4.5 does it: it resigns, its first preferred successor
/// wins at once (the resigned leader grants its PreVote), and the old leader follows the new one
/// before "Graceful shutdown completed" (the shutdown completes only once a remote leader is
/// known, not when the EndQuorumEpochs are acknowledged).
#[test]
fn a_graceful_leader_stop_hands_over_to_its_first_successor_and_completes_as_its_follower() {
    for seed in [7, 11, 23] {
        let mut w = raft_world(seed, &[101, 102, 103], &[]);
        let mut c = InvariantChecker::new();
        run_checked(&mut w, &mut c, 5_000);
        let (old, epoch) = w.leader().unwrap();
        w.terminate(old).unwrap();
        run_checked(&mut w, &mut c, 3_000);
        let text = lines(&w, old);
        let at = |needle: &str| {
            text.iter()
                .position(|l| l.contains(needle))
                .unwrap_or_else(|| panic!("seed {seed}: no `{needle}` in {}", text.join("\n")))
        };
        let resigned = at("Completed transition to ResignedState");
        let successors = &text[resigned];
        let first = successors
            .split("preferredSuccessors=[ReplicaKey(id=")
            .nth(1)
            .and_then(|s| s.split(',').next())
            .and_then(|s| s.parse::<i32>().ok())
            .unwrap_or_else(|| panic!("seed {seed}: successors as ReplicaKeys: {successors}"));
        let follows = at(&format!(
            "Completed transition to FollowerState(fetchTimeoutMs=2000, epoch={}, leader={first}",
            epoch + 1
        ));
        let done = at("Graceful shutdown completed");
        assert!(
            resigned < follows && follows < done,
            "seed {seed}: {}",
            text.join("\n")
        );
        assert!(!text.iter().any(|l| l.contains("timed out")));
        assert_eq!(w.node(old).unwrap().process.name(), "killed");
        assert_eq!(
            w.leader(),
            Some((first, epoch + 1)),
            "seed {seed}: the first successor leads"
        );
    }
}

/// The only voter's graceful stop completes at once: it never resigns.
#[test]
fn a_single_voters_graceful_stop_completes_without_resigning() {
    let mut w = raft_world(3, &[101], &[]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 3_000);
    w.terminate(101).unwrap();
    run_checked(&mut w, &mut c, 500);
    let text = lines(&w, 101).join("\n");
    assert!(text.contains("Graceful shutdown completed"), "{text}");
    assert!(!text.contains("ResignedState"), "{text}");
}

/// A graceful stop times out after 5 s when no new leader can be elected (the other voters are
/// down): WARN "Graceful shutdown timed out after 5000ms".
#[test]
fn a_graceful_stop_times_out_after_5000ms_without_a_new_leader() {
    let mut w = raft_world(5, &[101, 102, 103], &[]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 5_000);
    let (old, _) = w.leader().unwrap();
    for other in [101, 102, 103].into_iter().filter(|id| *id != old) {
        w.kill(other).unwrap();
    }
    let at = w.now_ms();
    w.terminate(old).unwrap();
    run_checked(&mut w, &mut c, 6_000);
    let log = &w.node(old).unwrap().log;
    let timed_out = log
        .lines()
        .find(|l| l.message == "Graceful shutdown timed out after 5000ms")
        .expect("the timeout WARN");
    assert_eq!(timed_out.time_ms, at + 5_000);
    assert!(!log
        .lines()
        .any(|l| l.message == "Graceful shutdown completed"));
}

/// A Candidate that loses waits out the rest of its election timeout, then goes back to
/// Prospective (KAFKA-18345): no exponential backoff and no `retries=` in its state.
#[test]
fn a_candidate_that_loses_waits_out_its_election_timeout_then_becomes_prospective() {
    // A split vote: after the leader dies, both survivors often become Candidates in the same
    // epoch. The leader comes back before they time out: alive, it rejects their Votes
    // (Resigned, then Unattached with a vote), so a split vote is lost, not merely unanswered.
    // Over a few seeds, every loss is checked; at least one must happen.
    let mut lost = 0;
    for seed in 0..8 {
        let mut w = world(seed, &[101, 102, 103], &[1]);
        let mut c = InvariantChecker::new();
        run_checked(&mut w, &mut c, 6_000);
        let (old, _) = w.leader().expect("a leader");
        w.kill(old).unwrap();
        run_checked(&mut w, &mut c, 1_000);
        w.restart(old).unwrap();
        run_checked(&mut w, &mut c, 15_000);
        let survivors: Vec<i32> = [101, 102, 103].into_iter().filter(|i| *i != old).collect();
        for id in survivors {
            let log: Vec<_> = w.node(id).unwrap().log.lines().cloned().collect();
            for (i, l) in log.iter().enumerate() {
                let Some(rest) = l.message.strip_prefix("Insufficient remaining votes to become leader. Candidate will wait the remaining election timeout (") else {
                    continue;
                };
                lost += 1;
                let remaining: u64 = rest.split(')').next().unwrap().parse().unwrap();
                // The next line of its own: not before the remaining time is over.
                let next = log[i + 1..]
                    .iter()
                    .find(|n| {
                        n.message == "Election was not granted, transitioning to prospective"
                            || n.message.starts_with("Completed transition")
                    })
                    .expect("what followed the loss");
                if next.message == "Election was not granted, transitioning to prospective" {
                    assert_eq!(next.time_ms, l.time_ms + remaining, "seed {seed} node {id}");
                } else {
                    assert!(
                        next.time_ms <= l.time_ms + remaining,
                        "seed {seed} node {id}: {}",
                        next.message
                    );
                }
            }
            let text = messages_text(&w, id);
            assert!(!text.contains("backoff"), "seed {seed} node {id}: {text}");
            assert!(!text.contains("retries="), "seed {seed} node {id}");
        }
        assert!(w.leader().is_some(), "seed {seed}");
    }
    assert!(lost > 0, "no split vote lost an election");
}
