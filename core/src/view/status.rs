//! The status table as text: one row per node (role, state, epoch, leader, LEO, HW) under a
//! header line, as `kraft sim`, the console's `status` and the swarm's failure reports print it.

use crate::raft::state::StateKind;
use crate::sim::World;
use std::fmt::Write as _;

/// The status table: a header (seed, virtual time, events, cluster id), then one row per node.
pub fn status_table(world: &World) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "seed {}  virtual time {} ms  events {}  cluster id {}",
        world.config().seed,
        world.now_ms(),
        world.events_run(),
        world.cluster_id()
    );
    let _ = writeln!(
        out,
        "{:<6} {:<18} {:<8} {:<12} {:>5} {:>6} {:>5} {:>6} {:>6}",
        "node", "roles", "process", "state", "epoch", "leader", "voted", "LEO", "HW"
    );
    let view = world.view();
    for n in &view.nodes {
        let opt = |v: Option<i32>| v.map(|x| x.to_string()).unwrap_or_else(|| "-".into());
        let _ = writeln!(
            out,
            "{:<6} {:<18} {:<8} {:<12} {:>5} {:>6} {:>5} {:>6} {:>6}",
            n.id,
            n.roles,
            n.process,
            n.raft_state.map_or("-", StateKind::name),
            n.epoch,
            opt(n.leader_id),
            opt(n.voted_id),
            n.log_end_offset,
            n.high_watermark
                .map(|h| h.to_string())
                .unwrap_or_else(|| "-".into())
        );
    }
    out
}
