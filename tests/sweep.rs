//! Seed sweep: random clusters and faults, invariants after every event, liveness after heal
//! (a commit, convergence of every node and broker, no busy-waiting; see `sim::swarm`).
//! `KRAFT_SEEDS=N` runs N seeds (default 1000); `KRAFT_SEED=S` runs one seed.

use kraft_core::swarm::run_seed;

#[test]
fn seed_sweep_keeps_raft_safe_and_live() {
    let single: Option<u64> = std::env::var("KRAFT_SEED")
        .ok()
        .and_then(|s| s.parse().ok());
    let count: u64 = std::env::var("KRAFT_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let seeds: Vec<u64> = match single {
        Some(s) => vec![s],
        None => (0..count).collect(),
    };
    let mut failures = Vec::new();
    let (mut events, mut worst, mut converged, mut quiet) = (0u64, 0u64, 0u64, 0u64);
    let (mut written, mut fetched, mut loaded) = (0, 0, 0);
    for &seed in &seeds {
        match run_seed(seed, 20_000) {
            Ok(r) => {
                events += r.events;
                worst = worst.max(r.recovery_ms);
                converged = converged.max(r.converged_ms);
                quiet = quiet.max(r.quiet_max_node_events);
                written += r.snapshots_written;
                fetched += r.snapshots_fetched;
                loaded += r.snapshots_loaded;
            }
            Err(e) => failures.push(e),
        }
    }
    println!(
        "sweep: {} seeds, {events} events, slowest recovery {worst} ms, slowest convergence {converged} ms, busiest node {quiet} events in the quiet stretch; snapshots: {written} written, {fetched} fetched, {loaded} loaded",
        seeds.len()
    );
    // The sweep must reach the snapshot paths, or it checks nothing about them.
    if single.is_none() && seeds.len() >= 200 {
        assert!(
            written > 0 && fetched > 0 && loaded > 0,
            "no seed exercised snapshots: {written} written, {fetched} fetched, {loaded} loaded"
        );
    }
    assert!(
        failures.is_empty(),
        "{} of {} seeds failed (rerun one with KRAFT_SEED=<seed>):\n{}",
        failures.len(),
        seeds.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
