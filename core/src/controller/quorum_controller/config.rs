//! `ControllerConfig`: the settings of the QuorumController (the KafkaConfig values it reads).

/// Controller settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControllerConfig {
    /// metadata.max.idle.interval.ms: how often the NoOpRecord task runs; 0 turns it off.
    pub no_op_interval_ms: u64,
    /// broker.session.timeout.ms; the stale-broker check runs every session / 8.
    pub session_timeout_ms: u64,
    /// controller.max.records.per.batch (a cap on the records of one ControllerResult).
    pub max_records_per_batch: usize,
    /// How long a controller waits before retrying a failed registration.
    pub registration_retry_ms: u64,
}

impl Default for ControllerConfig {
    fn default() -> Self {
        ControllerConfig {
            no_op_interval_ms: 500,
            session_timeout_ms: 9000,
            max_records_per_batch: 10_000,
            registration_retry_ms: 100,
        }
    }
}
