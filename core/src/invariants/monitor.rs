//! The invariant monitor: an [`InvariantChecker`] the world calls after every event while a
//! lesson or free play runs (installed by the console's `cluster`), keeping each invariant's
//! status and first violation for the console's `invariants` and the page.
//!
//! A check stops at the first broken invariant, so while one stays broken the invariants
//! checked after it are not looked at; each keeps its first violation.

use super::named::{Invariant, InvariantStatus};
use super::InvariantChecker;
use crate::sim::watcher::EventWatcher;
use crate::sim::World;
use std::any::Any;

/// Checks the world after every event and keeps each invariant's status.
#[derive(Clone, Debug)]
pub struct InvariantMonitor {
    checker: InvariantChecker,
    statuses: Vec<InvariantStatus>,
}

impl Default for InvariantMonitor {
    fn default() -> Self {
        Self::new()
    }
}

impl InvariantMonitor {
    /// A monitor with every invariant holding; it compares the controllers with a replay
    /// after every event too, so a violation names the event that caused it.
    pub fn new() -> Self {
        let mut checker = InvariantChecker::new();
        checker.committed_only = true;
        InvariantMonitor {
            checker,
            statuses: Invariant::ALL
                .iter()
                .map(|i| InvariantStatus {
                    invariant: *i,
                    holds: true,
                    first_violation: None,
                })
                .collect(),
        }
    }

    /// Each invariant's status, in [`Invariant::ALL`] order.
    pub fn statuses(&self) -> &[InvariantStatus] {
        &self.statuses
    }

    /// Check `world` now and record each invariant's first violation.
    pub fn observe(&mut self, world: &World) {
        for v in self.checker.check_each(world) {
            if let Some(s) = self
                .statuses
                .iter_mut()
                .find(|s| s.invariant == v.invariant)
            {
                if s.holds {
                    s.holds = false;
                    s.first_violation = Some(v);
                }
            }
        }
    }

    /// The monitor installed on `world`, if any.
    pub fn of(world: &World) -> Option<&InvariantMonitor> {
        world.watcher()?.as_any().downcast_ref()
    }
}

impl EventWatcher for InvariantMonitor {
    fn after_event(&mut self, world: &World) {
        self.observe(world);
    }

    fn clone_box(&self) -> Box<dyn EventWatcher> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
