//! Swarm testing (after TigerBeetle's VOPR): each seed picks a cluster shape and fault rates,
//! runs a safety phase with random kills, restarts, STOP/CONT, partitions and drops while the
//! invariants are checked after every event, then a liveness phase: heal, a leader must be
//! elected and commit within a bound, the cluster must converge (every node following that
//! leader with its log, every broker registered and unfenced) within a bound, and no node may
//! busy-wait over a quiet stretch after.

use crate::common::message::controller::{
    AlterConfigOpType, AlterConfigsResource, AlterableConfig, ControllerRequest, CreatableTopic,
};
use crate::common::rng::SimRng;
use crate::common::rules::Rules;
use crate::invariants::InvariantChecker;
use crate::metadata::MetadataRecord;
use crate::raft::batch::Record;
use crate::sim::{World, WorldConfig};

mod membership;
mod produce;
pub use produce::bench_produce;

/// What one seed ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwarmReport {
    /// The seed.
    pub seed: u64,
    /// Voters in the cluster.
    pub voters: usize,
    /// Observers in the cluster.
    pub observers: usize,
    /// Events run.
    pub events: u64,
    /// Faults injected.
    pub faults: u64,
    /// Committed offsets at the end.
    pub committed: i64,
    /// Virtual ms from heal to a leader that committed a new record.
    pub recovery_ms: u64,
    /// Virtual ms from heal to a converged cluster (see [`converged`]).
    pub converged_ms: u64,
    /// The most events one node ran over the quiet stretch after convergence.
    pub quiet_max_node_events: u64,
    /// Snapshots written by SnapshotGenerators (lines `Successfully wrote snapshot`).
    pub snapshots_written: usize,
    /// Snapshots downloaded with FetchSnapshot (lines `after downloading snapshot`).
    pub snapshots_fetched: usize,
    /// Snapshots loaded by listeners (MetadataLoader `handleLoadSnapshot`).
    pub snapshots_loaded: usize,
    /// Data batches acknowledged with acks=all (the produce load's, see `produce.rs`).
    pub acked_writes: usize,
}

/// Virtual ms allowed from heal to a committed write by a new or old leader.
pub const LIVENESS_BOUND_MS: u64 = 30_000;

/// Virtual ms allowed from heal to a converged cluster: one leader followed by all, every log
/// caught up, every broker registered and unfenced (a broker fenced while cut off needs its
/// heartbeat timeout, a new heartbeat, and its metadata caught up).
pub const CONVERGENCE_BOUND_MS: u64 = 60_000;

/// The quiet stretch after convergence over which nodes' events are counted.
pub const QUIET_MS: u64 = 10_000;

/// Most events one node may run in [`QUIET_MS`] of a converged cluster; more is a node that
/// wakes without progress (a busy wait). Healthy nodes run a few hundred: fetches, NoOps
/// every 500 ms, heartbeats every 2 s.
pub const QUIET_MAX_NODE_EVENTS: u64 = 2_000;

/// The salt of the membership seeds' own generator.
const MEMBERSHIP_SALT: u64 = 0x853D_1A6E_5EED_0853;

/// Most events one seed may run; more means time stopped moving (a livelock).
pub const MAX_EVENTS: u64 = 2_000_000;

/// Run one seed. An error says what broke, with the seed and the virtual time.
pub fn run_seed(seed: u64, safety_ms: u64) -> Result<SwarmReport, String> {
    run_seed_with(
        seed,
        safety_ms,
        Rules::default(),
        Storm::None,
        &mut InvariantChecker::new(),
    )
}

/// Run one seed with `rules` (issue 18: some switched off), checking with `checker` (its
/// `first_violation` tells an invariant's violation from a liveness failure); `storm` gives
/// it a rule's own fault shape (see [`Storm`]).
pub fn run_seed_with(
    seed: u64,
    safety_ms: u64,
    rules: Rules,
    storm: Storm,
    checker: &mut InvariantChecker,
) -> Result<SwarmReport, String> {
    let mut plan = SimRng::new(seed ^ 0x5EED_F00D_CAFE_D00D);
    let (mut config, mut shape) = Shape::draw(seed, &mut plan);
    config.rules = rules;
    // The durable-vote rule's flaw needs a voter killed between its grant and a second
    // candidate's request: random faults (one every 0.2-3 s) almost never land there (none
    // in 300 seeds). The vote storm kills -9 and restarts the leader every 3 s, and every
    // voter whose vote just made a leader, over slow and uneven links (issue 18).
    if storm == Storm::Membership {
        // Five voters, Raft alone (raw appends), a fault every 0.35-1.4 s: back-to-back voter
        // changes, partitions, heals, a leader restarted; and the split-by-voter-set nemesis
        // (membership::split_by_voter_set) whenever a change is half-way.
        shape.membership_storm = true;
        shape.membership = true;
        shape.voters = 5;
        shape.observers = 0;
        shape.all = (100..105).collect();
        shape.raw_appends = true;
        shape.fault_every_ms = 700;
        config = WorldConfig::new(seed, shape.all.clone(), Vec::new());
        config.rules = rules;
        config.run_controllers = false;
        config.quorum_mode = crate::sim::node_config::QuorumMode::InitialControllers;
    }
    if storm == Storm::Vote {
        shape.vote_storm = true;
        // Slow, uneven links: two candidates' requests cross and arrive late.
        config.network.latency_ms = 20;
        config.network.jitter_ms = 400;
        shape.fault_every_ms = 3_000;
    }
    let fail = |w: &World, what: String| format!("seed {seed} at {} ms: {what}", w.now_ms());
    let mut world = World::new(config).map_err(|e| format!("seed {seed}: {e}"))?;
    let faults = safety_phase(&mut world, checker, &shape, &mut plan, safety_ms)
        .map_err(|e| fail(&world, e))?;
    let healed_at = heal(&mut world, &shape);
    let recovery_ms =
        recover(&mut world, checker, &shape, healed_at).map_err(|e| fail(&world, e))?;
    // Convergence: every node follows that one leader and holds its log, every broker is
    // registered in its current incarnation and unfenced.
    let leader_end = world
        .leader()
        .and_then(|(id, _)| world.node(id))
        .map(|n| n.disk.metadata_log.end_offset())
        .unwrap_or(0);
    let converged_ms = converge(&mut world, checker, &shape, healed_at, leader_end)
        .map_err(|e| fail(&world, e))?;
    let quiet_max_node_events =
        stay_quiet(&mut world, checker, &shape).map_err(|e| fail(&world, e))?;
    converged(&world, leader_end, !shape.raw_appends)
        .map_err(|m| fail(&world, format!("fell apart after converging: {m}")))?;
    let count = |pat: &str| {
        world
            .nodes()
            .map(|n| n.log.lines().filter(|l| l.message.contains(pat)).count())
            .sum::<usize>()
    };
    Ok(SwarmReport {
        snapshots_written: count("Successfully wrote snapshot"),
        snapshots_fetched: count("after downloading snapshot"),
        snapshots_loaded: count("incrementing HandleLoadSnapshotCount"),
        acked_writes: world.acked_writes().len(),
        seed,
        voters: shape.voters as usize,
        observers: shape.observers as usize,
        events: world.events_run(),
        faults,
        committed: checker.committed_len(),
        recovery_ms,
        converged_ms,
        quiet_max_node_events,
    })
}

/// One seed with `rules`: the first invariant violation, and the seed's error if it failed
/// otherwise (a liveness bound).
/// The durable-vote rule gets the vote storm fault shape (with `rules` off or, to show it
/// holds, on).
pub fn first_violation(
    seed: u64,
    rules: Rules,
    storm: Storm,
) -> (Option<crate::invariants::Violation>, Option<String>) {
    let mut checker = InvariantChecker::new();
    let result = run_seed_with(seed, 20_000, rules, storm, &mut checker);
    (checker.first_violation, result.err())
}

/// A rule's own fault shape, for a rule random faults rarely reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storm {
    /// The seed's random faults.
    None,
    /// The durable-vote rule's: the leader and every voter whose vote just made a leader
    /// killed and restarted, over slow, uneven links.
    Vote,
    /// The single-voter-change rule's: voter changes sent two at a time amid partitions.
    Membership,
}

impl Storm {
    /// The storm a sweep with `rules` needs: the durable-vote rule's when it is off, the
    /// single-voter-change rule's when that is off, else none.
    pub fn for_rules(rules: Rules) -> Storm {
        if !rules.durable_vote {
            Storm::Vote
        } else if !rules.single_voter_change {
            Storm::Membership
        } else {
            Storm::None
        }
    }
}

/// What a seed drew for its cluster and its faults.
struct Shape {
    /// Number of controllers (voters), ids 100, 101, ...
    voters: i32,
    /// Number of brokers (observers), ids 1, 2, ...
    observers: i32,
    /// Every node id, controllers first.
    all: Vec<i32>,
    /// Raft alone with raw appends (no QuorumControllers).
    raw_appends: bool,
    /// Mean virtual ms between faults.
    fault_every_ms: u64,
    /// Drop rate a heal fault sets.
    drop_rate: f64,
    /// A voter is also killed -9 and restarted right after it grants a vote (see
    /// [`run_seed_with`]).
    vote_storm: bool,
    /// KIP-853: a third of the faults add or remove a controller through the leader
    /// (AddRaftVoter / RemoveRaftVoter from the admin client), the leader itself included.
    membership: bool,
    /// The single-voter-change rule's storm (see [`Storm::Membership`]).
    membership_storm: bool,
}

impl Shape {
    /// Draws the cluster shape, network and fault rates from the plan RNG (in a fixed order: a
    /// seed's run depends on it).
    fn draw(seed: u64, plan: &mut SimRng) -> (WorldConfig, Shape) {
        let voters = 1 + plan.below(5) as i32;
        let observers = plan.below(4) as i32;
        let controllers: Vec<i32> = (0..voters).map(|i| 100 + i).collect();
        let brokers: Vec<i32> = (0..observers).map(|i| 1 + i).collect();
        let mut config = WorldConfig::new(seed, controllers.clone(), brokers.clone());
        // Half the seeds run QuorumControllers (their own writes, reverts under faults); the
        // others are Raft alone with raw appends, as Kafka's RaftEventSimulationTest.
        config.run_controllers = plan.chance(0.5);
        config.network.latency_ms = plan.range_inclusive(0, 3);
        config.network.jitter_ms = plan.range_inclusive(0, 20);
        // Half the controller seeds snapshot often and clean their logs fast, so snapshots,
        // segment deletion and FetchSnapshot run under faults.
        if config.run_controllers && plan.chance(0.5) {
            let m = &mut config.quorum.metadata_log;
            m.max_record_bytes_between_snapshots = plan.range_inclusive(800, 6_000);
            m.segment_bytes = plan.range_inclusive(500, 3_000) as usize;
            m.retention_bytes = Some(plan.range_inclusive(1_000, 8_000));
            m.clean_interval_ms = plan.range_inclusive(1_000, 5_000);
        }
        let fault_every_ms = plan.range_inclusive(200, 3000);
        let drop_rate = if plan.chance(0.3) {
            plan.below(30) as f64 / 100.0
        } else {
            0.0
        };
        // Membership seeds are drawn from their own generator, so that every other seed runs as
        // it did before membership changes existed. Half of them start from one
        // `--standalone` controller, the others from all of them.
        let mut m = SimRng::new(seed ^ MEMBERSHIP_SALT);
        let membership = voters >= 2 && m.chance(0.3);
        if membership && m.chance(0.5) {
            config.quorum_mode = crate::sim::node_config::QuorumMode::Standalone;
        }
        let shape = Shape {
            voters,
            observers,
            all: controllers.iter().chain(&brokers).copied().collect(),
            raw_appends: !config.run_controllers,
            fault_every_ms,
            drop_rate,
            vote_storm: false,
            membership,
            membership_storm: false,
        };
        (config, shape)
    }
}

/// The safety phase's schedule of client work.
struct Workload {
    /// Next raw append (Raft-only seeds).
    next_append: u64,
    /// Next CreateTopics or IncrementalAlterConfigs.
    next_topic: u64,
    /// CreateTopics sent.
    topics_sent: u64,
    /// IncrementalAlterConfigs sent.
    alters_sent: u64,
}

/// Runs until `safety_ms` with client work and random faults, the invariants checked after
/// every event; returns the faults injected.
fn safety_phase(
    world: &mut World,
    checker: &mut InvariantChecker,
    shape: &Shape,
    plan: &mut SimRng,
    safety_ms: u64,
) -> Result<u64, String> {
    let mut faults = 0;
    let mut granted = std::collections::BTreeSet::new();
    let mut split = std::collections::BTreeSet::new();
    let mut next_fault = shape.fault_every_ms;
    let mut work = Workload {
        next_append: 100,
        next_topic: 2_500,
        topics_sent: 0,
        alters_sent: 0,
    };
    // Writes start once the first topic may exist (CreateTopics at 2.5 s).
    let mut load = produce::ProduceLoad::new(world.config().seed, 4_000);
    while world.now_ms() < safety_ms {
        if !step_checked(world, checker)? {
            break;
        }
        if shape.vote_storm {
            kill_after_grant(world, shape, &mut granted);
        }
        if shape.membership_storm {
            membership::split_by_voter_set(world, &mut split);
        }
        if !shape.raw_appends && shape.observers > 0 {
            create_topics(world, shape, &mut work);
            alter_configs(world, &mut work);
            load.tick(world);
        }
        if shape.raw_appends && world.now_ms() >= work.next_append {
            work.next_append = world.now_ms() + plan.range_inclusive(50, 700);
            let n = 1 + plan.below(3) as usize;
            world.append_to_leader(
                vec![Record::Metadata(MetadataRecord::NoOp); n],
                plan.chance(0.5),
            );
        }
        if world.now_ms() >= next_fault {
            next_fault = world.now_ms()
                + plan.range_inclusive(shape.fault_every_ms / 2, shape.fault_every_ms * 2);
            faults += 1;
            inject_fault(world, shape, plan);
        }
    }
    Ok(faults)
}

/// Kill -9 and restart at once every voter whose vote has just made a leader, before the
/// leader's BeginQuorumEpoch reaches it (once per voter and epoch): the vote-storm fault of
/// the durable-vote rule.
fn kill_after_grant(
    world: &mut World,
    shape: &Shape,
    granted: &mut std::collections::BTreeSet<(i32, i32)>,
) {
    let leaders: Vec<(i32, i32)> = world
        .nodes()
        .filter_map(|n| {
            let s = n.raft.as_ref()?.state();
            (s.name() == "Leader").then_some((n.id, s.epoch()))
        })
        .collect();
    let fresh: Vec<i32> = world
        .nodes()
        .filter(|n| n.id >= 100 && n.id < 100 + shape.voters)
        .filter_map(|n| {
            let s = n.raft.as_ref()?.state();
            let made = s.leader_id().is_none()
                && s.voted_key()
                    .is_some_and(|k| k.id != n.id && leaders.contains(&(k.id, s.epoch())));
            (made && granted.insert((n.id, s.epoch()))).then_some(n.id)
        })
        .collect();
    for id in fresh {
        let _ = world.kill(id);
        let _ = world.restart(id);
    }
}

/// With controllers and brokers, two topics give the fencing, controlled shutdown and
/// AlterPartition paths partitions to act on.
fn create_topics(world: &mut World, shape: &Shape, work: &mut Workload) {
    if work.topics_sent >= 2 || world.now_ms() < work.next_topic {
        return;
    }
    work.next_topic = world.now_ms() + 4_000;
    let Some(active) = world.active_controller() else {
        return;
    };
    let request = ControllerRequest::CreateTopics {
        topics: vec![CreatableTopic {
            name: format!("topic-{}", work.topics_sent),
            num_partitions: 2,
            replication_factor: shape.observers.min(3) as i16,
            configs: Vec::new(),
        }],
    };
    if world.admin_send(active, request).is_ok() {
        work.topics_sent += 1;
    }
}

/// Then topic config changes (IncrementalAlterConfigs: ConfigRecords that set and delete), so
/// config replay into controllers and images runs under faults too.
fn alter_configs(world: &mut World, work: &mut Workload) {
    if work.topics_sent == 0 || work.alters_sent >= 6 || world.now_ms() < work.next_topic {
        return;
    }
    work.next_topic = world.now_ms() + 3_000;
    let Some(active) = world.active_controller() else {
        return;
    };
    let (op, value) = if work.alters_sent % 3 == 2 {
        (AlterConfigOpType::Delete, None)
    } else {
        (
            AlterConfigOpType::Set,
            Some(format!("{}", 1000 * (work.alters_sent + 1))),
        )
    };
    let request = ControllerRequest::IncrementalAlterConfigs {
        resources: vec![AlterConfigsResource {
            resource_type: crate::metadata::RESOURCE_TYPE_TOPIC,
            resource_name: format!("topic-{}", work.alters_sent % 2),
            configs: vec![AlterableConfig {
                name: "retention.ms".into(),
                op,
                value,
            }],
        }],
        validate_only: false,
    };
    if world.admin_send(active, request).is_ok() {
        work.alters_sent += 1;
    }
}

/// One random fault: kill, terminate, restart, STOP, CONT, a partition, a one-way block, or a
/// heal that sets the seed's drop rate.
fn inject_fault(world: &mut World, shape: &Shape, plan: &mut SimRng) {
    let all = &shape.all;
    // The vote storm: the leader dies and comes back, so elections follow one another.
    if shape.vote_storm {
        if let Some((leader, _)) = world.leader() {
            let _ = world.kill(leader);
            let _ = world.restart(leader);
        }
        return;
    }
    if shape.membership_storm {
        membership::storm_fault(world, shape, plan);
        return;
    }
    if shape.membership && plan.below(3) == 0 {
        membership::change_membership(world, shape, plan);
        return;
    }
    let id = all[plan.below(all.len() as u64) as usize];
    match plan.below(9) {
        0 => {
            let _ = world.kill(id);
        }
        8 => {
            let _ = world.terminate(id);
        }
        1 | 2 => {
            let _ = world.restart(id);
        }
        3 => {
            let _ = world.stop(id);
        }
        4 => {
            let _ = world.cont(id);
        }
        5 => {
            // A one-node cluster has no cut: both sides of the "partition" are the same set
            // (no draw, as before, so every seed's run is unchanged).
            let cut = match all.len() {
                0 | 1 => 1,
                n => plan.range_inclusive(1, n as u64 - 1) as usize,
            };
            let mut shuffled = all.clone();
            for i in (1..shuffled.len()).rev() {
                let j = plan.below(i as u64 + 1) as usize;
                shuffled.swap(i, j);
            }
            let (a, b) = shuffled.split_at(cut.min(shuffled.len()));
            let _ = world.partition(&[a.to_vec(), b.to_vec()]);
        }
        6 => {
            let to = all[plan.below(all.len() as u64) as usize];
            if to != id {
                let _ = world.block(id, to);
            }
        }
        _ => {
            world.heal();
            world.set_drop_rate(shape.drop_rate);
        }
    }
}

/// Liveness begins: heal everything, bring every process back; returns the time of the heal.
fn heal(world: &mut World, shape: &Shape) -> u64 {
    world.heal();
    world.set_drop_rate(0.0);
    for id in &shape.all {
        let _ = world.cont(*id);
        let _ = world.restart(*id);
    }
    world.now_ms()
}

/// Runs until a leader commits a new record (a raw append, or the active controller's next
/// NoOpRecord); returns the ms it took from the heal, or an error past [`LIVENESS_BOUND_MS`].
fn recover(
    world: &mut World,
    checker: &mut InvariantChecker,
    shape: &Shape,
    healed_at: u64,
) -> Result<u64, String> {
    let target = checker.committed_len();
    let mut appended: Option<(i32, i64)> = None;
    loop {
        if world.now_ms() > healed_at + LIVENESS_BOUND_MS {
            return Err(no_recovery(world, shape));
        }
        if !step_checked(world, checker)? {
            return Err("the world ran out of events".into());
        }
        supervise(world, &shape.all);
        match appended {
            None if shape.raw_appends => {
                if let Some((_, epoch, offset)) =
                    world.append_to_leader(vec![Record::Metadata(MetadataRecord::NoOp)], false)
                {
                    appended = Some((epoch, offset));
                }
            }
            None => {
                // The active controller writes a NoOpRecord every 500 ms: wait for a new one.
                if let Some(id) = world.active_controller() {
                    let n = world.node(id).expect("node");
                    let epoch = n.raft.as_ref().expect("running").quorum.epoch();
                    appended = Some((epoch, n.disk.metadata_log.end_offset()));
                }
            }
            Some((epoch, offset)) => {
                // Done when the record is committed (or a newer leader took over: append again).
                if checker.committed_len() > offset && checker.committed_len() > target {
                    return Ok(world.now_ms() - healed_at);
                }
                if world.leader().is_none_or(|(_, e)| e != epoch) {
                    appended = None;
                }
            }
        }
    }
}

/// The error of a cluster that did not recover: the status table and each node's Raft state.
fn no_recovery(world: &World, shape: &Shape) -> String {
    format!(
        "no leader committed a new record within {LIVENESS_BOUND_MS} ms of healing (voters {}, observers {})\n{}",
        shape.voters,
        shape.observers,
        crate::view::status::status_table(world)
    ) + &world
        .nodes()
        .map(|n| {
            format!(
                "node {}: wake {:?} pending {:?} {}\n",
                n.id,
                n.scheduled_wake_ms,
                n.raft.as_ref().map(|r| r.pending_records()),
                n.raft.as_ref().map(|r| r.describe()).unwrap_or_default()
            )
        })
        .collect::<String>()
}

/// Runs until [`converged`]; returns the ms from the heal, or an error past
/// [`CONVERGENCE_BOUND_MS`].
fn converge(
    world: &mut World,
    checker: &mut InvariantChecker,
    shape: &Shape,
    healed_at: u64,
    leader_end: i64,
) -> Result<u64, String> {
    loop {
        let missing = match converged(world, leader_end, !shape.raw_appends) {
            Ok(()) => return Ok(world.now_ms() - healed_at),
            Err(m) => m,
        };
        if world.now_ms() > healed_at + CONVERGENCE_BOUND_MS {
            return Err(format!(
                "not converged within {CONVERGENCE_BOUND_MS} ms of healing: {missing}\n{}",
                crate::view::status::status_table(world)
            ));
        }
        if !step_checked(world, checker)? {
            return Err("the world ran out of events".into());
        }
        supervise(world, &shape.all);
    }
}

/// No busy-waiting: over a quiet stretch every node runs a bounded number of events; returns
/// the most one node ran.
fn stay_quiet(
    world: &mut World,
    checker: &mut InvariantChecker,
    shape: &Shape,
) -> Result<u64, String> {
    let before: Vec<u64> = shape.all.iter().map(|id| world.node_events(*id)).collect();
    let quiet_end = world.now_ms() + QUIET_MS;
    while world.now_ms() < quiet_end {
        if !step_checked(world, checker)? {
            break;
        }
    }
    let mut quiet_max_node_events = 0;
    for (id, before) in shape.all.iter().zip(before) {
        let ran = world.node_events(*id) - before;
        quiet_max_node_events = quiet_max_node_events.max(ran);
        if ran > QUIET_MAX_NODE_EVENTS {
            return Err(format!(
                "node {id} ran {ran} events in {QUIET_MS} ms of a converged cluster (at most {QUIET_MAX_NODE_EVENTS}): busy-waiting"
            ));
        }
    }
    Ok(quiet_max_node_events)
}

/// Run one event, then the livelock bound and the invariants; false when nothing is scheduled.
fn step_checked(world: &mut World, checker: &mut InvariantChecker) -> Result<bool, String> {
    if !world.step() {
        return Ok(false);
    }
    if world.events_run() > MAX_EVENTS {
        return Err(format!("more than {MAX_EVENTS} events: a livelock"));
    }
    checker.check(world)?;
    Ok(true)
}

/// A supervisor restarts processes that exit (e.g. a graceful shutdown begun before the heal).
fn supervise(world: &mut World, all: &[i32]) {
    for id in all {
        if world
            .node(*id)
            .is_some_and(|n| n.process.name() == "killed")
        {
            let _ = world.restart(*id);
        }
    }
}

/// Whether every node has converged after the faults healed: one leader, followed by every
/// running node in its epoch; every node's log and high watermark at or past `leader_end`
/// (the invariant checker compares every entry below a high watermark with the committed
/// log, so these logs match); with controllers, every broker registered in its current
/// incarnation (its broker epoch), unfenced and RUNNING. The error says what is missing.
pub fn converged(world: &World, leader_end: i64, run_controllers: bool) -> Result<(), String> {
    let (leader, epoch) = world.leader().ok_or("no leader")?;
    for n in world.nodes() {
        let Some(raft) = n.raft.as_ref() else {
            return Err(format!("node {} is {}", n.id, n.process.name()));
        };
        let state = &raft.quorum;
        if state.epoch() != epoch || raft.state().leader_id() != Some(leader) {
            return Err(format!(
                "node {} is {} in epoch {} (leader {leader} in epoch {epoch})",
                n.id,
                raft.state().name(),
                state.epoch()
            ));
        }
        let end = n.disk.metadata_log.end_offset();
        let hw = raft.high_watermark().unwrap_or(-1);
        if end < leader_end || hw < leader_end {
            return Err(format!(
                "node {} has log end {end} and high watermark {hw}, short of {leader_end}",
                n.id
            ));
        }
    }
    if !run_controllers {
        return Ok(());
    }
    let active = world
        .active_controller()
        .and_then(|id| world.node(id))
        .and_then(|n| n.controller.as_ref())
        .ok_or("no active controller")?;
    for n in world.nodes() {
        let Some(broker) = n.broker.as_ref() else {
            continue;
        };
        let registered = active.state.cluster.brokers.get(&n.id);
        match registered {
            Some(b)
                if b.record.broker_epoch == broker.broker_epoch
                    && !b.record.fenced
                    && broker.state == crate::broker::lifecycle::BrokerState::Running => {}
            _ => {
                return Err(format!(
                    "broker {} is {} with epoch {}; the controller has {}",
                    n.id,
                    broker.state.name(),
                    broker.broker_epoch,
                    registered
                        .map(|b| format!(
                            "epoch {} fenced={}",
                            b.record.broker_epoch, b.record.fenced
                        ))
                        .unwrap_or_else(|| "no registration".into())
                ))
            }
        }
    }
    Ok(())
}
