//! The rule switches and the invariants as the page shows them (issue 18): each rule's name,
//! whether it is on and the Kafka code it stands for; each invariant's status as the world's
//! monitor saw it after every event, with its first violation.

use serde::Serialize;

use crate::common::rules::{Rule, Switchable};
use crate::invariants::InvariantMonitor;
use crate::sim::World;

/// One rule switch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleView {
    /// Its name in `set rule.<name>=off`.
    pub name: &'static str,
    /// Whether it is on (Kafka as it is).
    pub on: bool,
    /// The Kafka code whose check it removes.
    pub kafka_code: &'static str,
    /// Whether it may only be switched before `cluster`.
    pub before_cluster: bool,
}

/// One invariant's status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InvariantView {
    /// Its name (RaftEventSimulationTest's where it has one).
    pub name: &'static str,
    /// True while no violation was seen.
    pub holds: bool,
    /// The first violation: the event count it was seen after.
    pub event: Option<u64>,
    /// Its virtual time.
    pub time_ms: Option<u64>,
    /// The nodes involved.
    pub nodes: Vec<i32>,
    /// What broke (its first line).
    pub message: String,
}

/// Every rule of `world`, in the order the article meets them.
pub fn rule_views(world: &World) -> Vec<RuleView> {
    let rules = world.rules();
    Rule::ALL
        .iter()
        .map(|&r| RuleView {
            name: r.name(),
            on: rules.get(r),
            kafka_code: r.kafka_code(),
            before_cluster: r.switchable() == Switchable::BeforeCluster,
        })
        .collect()
}

/// Every invariant's status, or none when no monitor watches `world`.
pub fn invariant_views(world: &World) -> Vec<InvariantView> {
    let Some(monitor) = InvariantMonitor::of(world) else {
        return Vec::new();
    };
    monitor
        .statuses()
        .iter()
        .map(|s| {
            let v = s.first_violation.as_ref();
            InvariantView {
                name: s.invariant.name(),
                holds: s.holds,
                event: v.map(|v| v.event),
                time_ms: v.map(|v| v.time_ms),
                nodes: v.map(|v| v.nodes.clone()).unwrap_or_default(),
                message: v
                    .map(|v| v.message.lines().next().unwrap_or_default().to_string())
                    .unwrap_or_default(),
            }
        })
        .collect()
}
