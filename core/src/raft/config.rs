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
    /// The metadata log's segment, snapshot and retention settings.
    pub metadata_log: MetadataLogConfig,
    /// controller.quorum.auto.join.enable (QuorumConfig.java:106-109): an observing
    /// controller adds itself to the voters; false by default.
    pub auto_join_enable: bool,
}

/// MetadataLogConfig: `metadata.log.*` and `metadata.max.retention.*`, with Kafka's defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetadataLogConfig {
    /// metadata.log.segment.bytes (1 GiB; Kafka's floor of 8 MiB is not enforced here so
    /// lessons can show segments roll).
    pub segment_bytes: usize,
    /// metadata.log.max.record.bytes.between.snapshots (20 MiB).
    pub max_record_bytes_between_snapshots: u64,
    /// metadata.log.max.snapshot.interval.ms (1 hour; 0 turns the time trigger off).
    pub max_snapshot_interval_ms: u64,
    /// metadata.max.retention.bytes (100 MiB; negative in Kafka turns it off: `None`).
    pub retention_bytes: Option<u64>,
    /// metadata.max.retention.ms (7 days; `None` turns it off).
    pub retention_ms: Option<u64>,
    /// How often the log cleaner runs: KafkaRaftClient's fixed 60 s
    /// ([`LOG_CLEAN_INTERVAL_MS`]); shorter only in seed sweeps.
    pub clean_interval_ms: u64,
}

impl Default for MetadataLogConfig {
    fn default() -> Self {
        MetadataLogConfig {
            segment_bytes: super::log::DEFAULT_SEGMENT_BYTES,
            max_record_bytes_between_snapshots: 20 * 1024 * 1024,
            max_snapshot_interval_ms: 60 * 60 * 1000,
            retention_bytes: Some(100 * 1024 * 1024),
            retention_ms: Some(7 * 24 * 60 * 60 * 1000),
            clean_interval_ms: LOG_CLEAN_INTERVAL_MS,
        }
    }
}

/// How often KafkaRaftClient runs the log cleaner (RaftMetadataLogCleanerManager, 60 s).
pub const LOG_CLEAN_INTERVAL_MS: u64 = 60_000;

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
            metadata_log: MetadataLogConfig::default(),
            auto_join_enable: false,
        }
    }
}
