//! The broker: BrokerLifecycleManager (registration, heartbeats, BrokerState) over its channel to
//! the active controller, and the ReplicaManager.

pub mod controller_channel;
pub mod lifecycle;
pub mod replica_manager;

pub use lifecycle::{BrokerLifecycleManager, BrokerState};
