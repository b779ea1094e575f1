//! The broker's replication settings at Kafka 4.5's defaults (ReplicationConfigs.java and
//! ServerConfigs.java at confluentinc/kafka 06d492d8), shared by the ReplicaManager, the
//! partitions, the fetcher and the purgatories.

/// replica.lag.time.max.ms
pub const REPLICA_LAG_TIME_MAX_MS: u64 = 30_000;
/// replica.fetch.wait.max.ms: how long a leader holds a follower's fetch without new data.
pub const REPLICA_FETCH_WAIT_MAX_MS: u64 = 500;
/// replica.fetch.backoff.ms: a follower's pause after a failed fetch.
pub const REPLICA_FETCH_BACKOFF_MS: u64 = 1_000;
/// replica.fetch.max.bytes
pub const REPLICA_FETCH_MAX_BYTES: usize = 1_048_576;
/// message.max.bytes (the broker's largest batch).
pub const MESSAGE_MAX_BYTES: usize = 1_048_588;
/// request.timeout.ms of the broker's channel to the controller (AlterPartition).
pub const ALTER_PARTITION_TIMEOUT_MS: u64 = 30_000;
/// AlterPartition and replica fetches use correlation ids from here.
pub const REPLICA_CORRELATION_BASE: u64 = 2 << 32;
