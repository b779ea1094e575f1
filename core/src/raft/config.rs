//! QuorumConfig: the `controller.quorum.*` settings, with Kafka's defaults.

/// The Raft settings of a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuorumConfig {
    /// controller.quorum.election.timeout.ms (randomized to T + rand[0, T)).
    pub election_timeout_ms: u64,
    /// controller.quorum.fetch.timeout.ms
    pub fetch_timeout_ms: u64,
    /// controller.quorum.election.backoff.max.ms
    pub election_backoff_max_ms: u64,
    /// controller.quorum.append.linger.ms
    pub append_linger_ms: u64,
    /// controller.quorum.request.timeout.ms
    pub request_timeout_ms: u64,
    /// controller.quorum.retry.backoff.ms
    pub retry_backoff_ms: u64,
    /// MAX_FETCH_WAIT_MS of KafkaRaftClient: how long a leader parks an empty fetch.
    pub fetch_max_wait_ms: u64,
    /// Most bytes returned by one fetch (KafkaRaftClient's MAX_FETCH_SIZE_BYTES is 8 MiB).
    pub fetch_max_bytes: usize,
    /// Most records in one batch of the accumulator.
    pub max_records_per_batch: usize,
}

impl Default for QuorumConfig {
    fn default() -> Self {
        QuorumConfig {
            election_timeout_ms: 1000,
            fetch_timeout_ms: 2000,
            election_backoff_max_ms: 1000,
            append_linger_ms: 25,
            request_timeout_ms: 2000,
            retry_backoff_ms: 20,
            fetch_max_wait_ms: 500,
            fetch_max_bytes: 8 * 1024 * 1024,
            max_records_per_batch: 10_000,
        }
    }
}

/// RETRY_BACKOFF_BASE_MS of KafkaRaftClient, the unit of the election backoff.
pub const RETRY_BACKOFF_BASE_MS: u64 = 100;
