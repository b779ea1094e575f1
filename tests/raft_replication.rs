//! Fetch-based replication as in Kafka 4.5's KafkaRaftClient: the leader answers a parked
//! Fetch as soon as its high watermark moves, sends BeginQuorumEpoch only to voters that have
//! not fetched lately (and again after a request timeout), an observer keeps its leader while
//! the leader cannot be reached, and nobody busy-polls.

mod common;

use common::{hw, log_text, raft_world, run_traced, state_and_leader, world};
use kraft_core::invariants::InvariantChecker;
use kraft_core::metadata::MetadataRecord;
use kraft_core::raft::batch::Record;

#[test]
fn followers_learn_the_new_high_watermark_within_a_round_trip() {
    for seed in 0..4 {
        let mut w = raft_world(seed, &[101, 102, 103], &[1]);
        let mut c = InvariantChecker::new();
        run_traced(&mut w, &mut c, 5_000);
        let (leader, _) = w.leader().expect("a leader");
        let (_, _, last) = w
            .append_to_leader(vec![Record::Metadata(MetadataRecord::NoOp)], false)
            .unwrap();
        // Step until the leader commits, then time how long each replica takes to see it.
        let mut committed_at = None;
        let mut seen: std::collections::BTreeMap<i32, u64> = Default::default();
        while seen.len() < 4 && w.now_ms() < 10_000 {
            w.step();
            c.check(&w).unwrap();
            if committed_at.is_none() && hw(&w, leader).is_some_and(|h| h > last) {
                committed_at = Some(w.now_ms());
            }
            for id in [101, 102, 103, 1] {
                if hw(&w, id).is_some_and(|h| h > last) {
                    seen.entry(id).or_insert(w.now_ms());
                }
            }
        }
        let committed_at = committed_at.expect("committed");
        for (id, t) in seen {
            // A parked Fetch is answered at once (latency 1-3 ms each way): no 500 ms wait.
            assert!(
                t - committed_at <= 10,
                "seed {seed}: node {id} saw the high watermark {} ms after the leader",
                t - committed_at
            );
        }
    }
}

#[test]
fn a_leader_sends_begin_quorum_epoch_only_to_voters_that_do_not_fetch() {
    let mut w = raft_world(3, &[101, 102, 103], &[1]);
    let mut c = InvariantChecker::new();
    run_traced(&mut w, &mut c, 3_000);
    let (leader, _) = w.leader().expect("a leader");
    // Steady state: every voter fetches within fetch.timeout / 2, so no BeginQuorumEpoch.
    let trace = run_traced(&mut w, &mut c, 10_000);
    assert!(
        !trace.iter().any(|t| t.contains("BeginQuorumEpochRequest")),
        "{:?}",
        trace
            .iter()
            .filter(|t| t.contains("BeginQuorum"))
            .collect::<Vec<_>>()
    );
    // Cut one voter off: the leader tells it again after every request timeout (2 s).
    let cut = [101, 102, 103].into_iter().find(|i| *i != leader).unwrap();
    w.block(leader, cut).unwrap();
    w.block(cut, leader).unwrap();
    let before = w.network().dropped_count;
    let start = w.now_ms();
    run_traced(&mut w, &mut c, 9_000);
    let bqe: Vec<u64> = w
        .network()
        .dropped
        .iter()
        .filter(|m| {
            m.from == leader && m.to == cut && m.message.kind().name() == "BeginQuorumEpochRequest"
        })
        .map(|m| m.send_ms)
        .collect();
    assert!(w.network().dropped_count > before);
    assert!(bqe.len() >= 3, "re-sent: {bqe:?} (cut at {start})");
    for pair in bqe.windows(2) {
        assert!(
            (2_000..=2_100).contains(&(pair[1] - pair[0])),
            "one per request timeout: {bqe:?}"
        );
    }
    // And only to that voter.
    let other = [101, 102, 103]
        .into_iter()
        .find(|i| *i != leader && *i != cut)
        .unwrap();
    assert!(!w
        .network()
        .dropped
        .iter()
        .any(|m| m.to == other && m.message.kind().name() == "BeginQuorumEpochRequest"));
}

#[test]
fn an_observer_cut_off_from_the_leader_keeps_it_and_catches_up_once_healed() {
    let mut w = raft_world(5, &[101, 102, 103], &[1]);
    let mut c = InvariantChecker::new();
    run_traced(&mut w, &mut c, 3_000);
    let (leader, epoch) = w.leader().expect("a leader");
    w.block(leader, 1).unwrap();
    w.block(1, leader).unwrap();
    for _ in 0..10 {
        w.append_to_leader(vec![Record::Metadata(MetadataRecord::NoOp); 3], false);
        run_traced(&mut w, &mut c, 1_000);
        // Past the fetch timeout an observer stays Follower of the leader it knows (it asks
        // the other voters meanwhile; they are not leaders, so nothing changes).
        assert_eq!(
            state_and_leader(&w, 1),
            ("Follower".into(), epoch, Some(leader))
        );
    }
    assert!(hw(&w, 1) < hw(&w, leader));
    w.heal();
    run_traced(&mut w, &mut c, 3_000);
    assert_eq!(
        state_and_leader(&w, 1),
        ("Follower".into(), epoch, Some(leader))
    );
    assert_eq!(hw(&w, 1), hw(&w, leader), "caught up");
    assert_eq!(
        w.node(1).unwrap().disk.metadata_log.end_offset(),
        w.node(leader).unwrap().disk.metadata_log.end_offset()
    );
}

#[test]
fn nobody_busy_polls_idle_or_while_the_leader_is_stalled() {
    // A request in flight is waited for, not polled for every millisecond. Idle, a
    // 3-controller, 1-broker cluster runs ~40 events per virtual second.
    for seed in 0..3 {
        let mut w = world(seed, &[101, 102, 103], &[1]);
        let mut c = InvariantChecker::new();
        run_traced(&mut w, &mut c, 5_000);
        let before = w.events_run();
        run_traced(&mut w, &mut c, 10_000);
        let idle = w.events_run() - before;
        assert!(idle < 1_500, "seed {seed}: {idle} events in 10 s idle");
        let (leader, _) = w.leader().unwrap();
        w.slow(leader, 3_000).unwrap();
        let before = w.events_run();
        run_traced(&mut w, &mut c, 6_000);
        let stalled = w.events_run() - before;
        assert!(
            stalled < 1_500,
            "seed {seed}: {stalled} events in 6 s around a stall"
        );
    }
}

#[test]
fn no_leader_change_is_announced_for_epoch_0() {
    let mut w = world(1, &[101, 102, 103], &[1]);
    let mut c = InvariantChecker::new();
    run_traced(&mut w, &mut c, 5_000);
    for id in [101, 102, 103] {
        let text = log_text(&w, id);
        assert!(!text.contains("In the new epoch 0"), "node {id}: {text}");
        assert!(text.contains("In the new epoch 1") || text.contains("Becoming the active"));
    }
}

#[test]
fn the_active_controller_is_announced_only_once_the_high_watermark_reaches_its_epoch() {
    for seed in 0..4 {
        let mut w = world(seed, &[101, 102, 103], &[1]);
        let mut c = InvariantChecker::new();
        run_traced(&mut w, &mut c, 5_000);
        let (leader, epoch) = w.leader().unwrap();
        let lines: Vec<_> = w.node(leader).unwrap().log.lines().cloned().collect();
        let hw_at = lines
            .iter()
            .find(|l| {
                l.message.starts_with("High watermark set to")
                    && l.message
                        .contains(&format!("for the first time for epoch {epoch}"))
            })
            .expect("first high watermark")
            .time_ms;
        let active_at = lines
            .iter()
            .find(|l| {
                l.message
                    .starts_with(&format!("Becoming the active controller at epoch {epoch}"))
            })
            .expect("active")
            .time_ms;
        assert!(active_at >= hw_at, "seed {seed}: {active_at} < {hw_at}");
        assert_eq!(w.active_controller(), Some(leader));
    }
}

#[test]
fn a_restarted_leader_comes_back_resigned_and_never_acts_as_the_active_controller() {
    let mut w = world(2, &[101, 102, 103], &[1]);
    let mut c = InvariantChecker::new();
    run_traced(&mut w, &mut c, 5_000);
    let (old, _) = w.leader().unwrap();
    w.kill(old).unwrap();
    run_traced(&mut w, &mut c, 8_000);
    let (new, epoch) = w.leader().expect("a new leader");
    let lines_before = w.node(old).unwrap().log.len();
    w.restart(old).unwrap();
    assert_eq!(state_and_leader(&w, old).0, "Resigned");
    while state_and_leader(&w, old).0 != "Follower" && w.now_ms() < 30_000 {
        w.step();
        c.check(&w).unwrap();
        assert_eq!(w.active_controller(), Some(new));
    }
    assert_eq!(
        state_and_leader(&w, old),
        ("Follower".into(), epoch, Some(new))
    );
    let after: Vec<String> = w
        .node(old)
        .unwrap()
        .log
        .lines()
        .skip(lines_before)
        .map(|l| l.message.clone())
        .collect();
    assert!(
        !after.iter().any(|l| l.starts_with("Becoming the active")),
        "{after:?}"
    );
}

#[test]
fn a_broker_cut_off_from_every_controller_for_10_s_catches_up_once_healed() {
    for seed in 0..3 {
        let mut w = world(seed, &[101, 102, 103], &[1]);
        let mut c = InvariantChecker::new();
        run_traced(&mut w, &mut c, 5_000);
        for v in [101, 102, 103] {
            w.block(1, v).unwrap();
            w.block(v, 1).unwrap();
        }
        let before = w.events_run();
        run_traced(&mut w, &mut c, 10_000);
        // Timed-out requests free their connection and are sent again, one per request
        // timeout (2 s): no waking every millisecond.
        assert!(
            w.events_run() - before < 1_500,
            "seed {seed}: {} events while cut off",
            w.events_run() - before
        );
        let (leader, _) = w.leader().unwrap();
        assert!(
            hw(&w, 1) < hw(&w, leader),
            "seed {seed}: the NoOps went on without it"
        );
        w.heal();
        run_traced(&mut w, &mut c, 3_000);
        assert_eq!(hw(&w, 1), hw(&w, leader), "seed {seed}: caught up");
        assert_eq!(state_and_leader(&w, 1).0, "Follower");
    }
}
