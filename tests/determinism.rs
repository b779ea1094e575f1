//! The same seed and the same inputs give the same run, byte for byte; another seed differs.

mod common;

use common::{world, world_from};
use kraft_core::metadata::MetadataRecord;
use kraft_core::raft::batch::Record;
use kraft_core::sim::WorldConfig;

fn trace(seed: u64) -> String {
    let mut w = world(seed, &[101, 102, 103], &[1, 2]);
    let mut out = String::new();
    for round in 0..40 {
        w.run_for(250);
        w.append_to_leader(vec![Record::Metadata(MetadataRecord::NoOp)], false);
        match round {
            8 => {
                let (l, _) = w.leader().unwrap();
                w.kill(l).unwrap();
            }
            16 => w.partition(&[vec![101], vec![102, 103, 1, 2]]).unwrap(),
            20 => w.heal(),
            24 => w.stop(2).unwrap(),
            28 => w.cont(2).unwrap(),
            _ => {}
        }
        out.push_str(&format!("{:?}\n", w.view()));
    }
    for n in w.nodes() {
        for l in n.log.lines() {
            out.push_str(&l.to_string());
            out.push('\n');
        }
    }
    out
}

#[test]
fn same_seed_same_trace_and_other_seeds_differ() {
    let a = trace(42);
    let b = trace(42);
    assert!(a == b, "two runs of seed 42 differ");
    assert_ne!(a, trace(43));
    assert!(a.len() > 10_000);
}

#[test]
fn a_cloned_world_replays_identically() {
    let mut w = world(5, &[1, 2, 3], &[4]);
    w.run_for(3_000);
    let mut copy = w.clone();
    w.run_for(5_000);
    copy.run_for(5_000);
    assert_eq!(w.view(), copy.view());
}

/// Looking at the next event does not move it: a run cut into pieces (one event, one ms, odd
/// lengths) is the run done in one go, event for event.
#[test]
fn a_run_cut_in_pieces_is_the_run_in_one_go() {
    for seed in [1, 5, 42] {
        let config = || WorldConfig::new(seed, vec![101, 102, 103], vec![1, 2]);
        let mut whole = world_from(config());
        whole.run_for(9_000);
        let mut cut = world_from(config());
        let mut i = 0u64;
        while cut.now_ms() < 9_000 {
            let left = 9_000 - cut.now_ms();
            cut.run_for((1 + i % 7).min(left));
            i += 1;
        }
        assert_eq!(
            whole.view(),
            cut.view(),
            "seed {seed}: 9 s in one run and in {i} pieces differ"
        );
    }
}
