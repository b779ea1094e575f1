//! The broker: BrokerLifecycleManager (registration, heartbeats, BrokerState) over its channel to
//! the active controller, and the data plane: the ReplicaManager with its partitions, their
//! logs (LogManager), the follower's fetcher, the purgatories, and the Metadata answers.

pub mod controller_channel;
pub mod data_io;
pub mod delayed;
pub mod fetcher;
pub mod forwarding;
pub mod lifecycle;
pub mod log_manager;
pub mod messages;
pub mod metadata_cache;
pub mod partition;
pub mod purgatory;
pub mod replica_config;
pub mod replica_manager;

pub use lifecycle::{BrokerLifecycleManager, BrokerState};
