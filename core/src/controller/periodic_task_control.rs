//! PeriodicTaskControlManager: the controller's periodic tasks, scheduled on the event queue
//! while the controller is active and cancelled when it renounces.
//!
//! Kafka registers six tasks at startup. The simulation runs the two that write records in its
//! scenarios (`writeNoOpRecord`, `maybeFenceStaleBroker`); the other four (`electPreferred`
//! every leader.imbalance.check.interval.seconds = 300 s, `electUnclean`,
//! `expireDelegationTokens`, `generatePeriodicPerformanceMessage`) are named in the
//! activation lines but not modelled.

/// The logger of the activation lines.
pub const PERIODIC_TASK_CONTROL_LOGGER: &str =
    "org.apache.kafka.controller.PeriodicTaskControlManager";

/// The registered task names, sorted as the activation lines list them.
pub const PERIODIC_TASKS: [&str; 6] = [
    "electPreferred",
    "electUnclean",
    "expireDelegationTokens",
    "generatePeriodicPerformanceMessage",
    "maybeFenceStaleBroker",
    "writeNoOpRecord",
];

/// The registered task names, sorted: all six, or without `writeNoOpRecord` when
/// `metadata.max.idle.interval.ms` is 0 (QuorumController then does not register it).
fn task_names(write_no_op: bool) -> String {
    PERIODIC_TASKS
        .iter()
        .filter(|t| write_no_op || **t != "writeNoOpRecord")
        .copied()
        .collect::<Vec<_>>()
        .join(", ")
}

/// `activate()`'s INFO line; `write_no_op` is whether the writeNoOpRecord task is registered.
pub fn activated_line(write_no_op: bool) -> String {
    format!("Activated periodic tasks: {}", task_names(write_no_op))
}

/// `deactivate()`'s INFO line; `write_no_op` is whether the writeNoOpRecord task is registered.
pub fn deactivated_line(write_no_op: bool) -> String {
    format!("Deactivated periodic tasks: {}", task_names(write_no_op))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_lines_list_the_six_tasks_sorted() {
        assert_eq!(super::activated_line(true), "Activated periodic tasks: electPreferred, electUnclean, expireDelegationTokens, generatePeriodicPerformanceMessage, maybeFenceStaleBroker, writeNoOpRecord");
        assert_eq!(super::deactivated_line(false), "Deactivated periodic tasks: electPreferred, electUnclean, expireDelegationTokens, generatePeriodicPerformanceMessage, maybeFenceStaleBroker");
        let mut sorted = super::PERIODIC_TASKS;
        sorted.sort();
        assert_eq!(sorted, super::PERIODIC_TASKS);
    }
}
