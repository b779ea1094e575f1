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

/// `activate()`'s INFO line.
pub fn activated_line() -> String {
    format!("Activated periodic tasks: {}", PERIODIC_TASKS.join(", "))
}

/// `deactivate()`'s INFO line.
pub fn deactivated_line() -> String {
    format!("Deactivated periodic tasks: {}", PERIODIC_TASKS.join(", "))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_lines_list_the_six_tasks_sorted() {
        assert_eq!(super::activated_line(), "Activated periodic tasks: electPreferred, electUnclean, expireDelegationTokens, generatePeriodicPerformanceMessage, maybeFenceStaleBroker, writeNoOpRecord");
        let mut sorted = super::PERIODIC_TASKS;
        sorted.sort();
        assert_eq!(sorted, super::PERIODIC_TASKS);
    }
}
