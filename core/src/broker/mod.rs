//! The broker: BrokerLifecycleManager (registration, heartbeats, BrokerState).

pub mod lifecycle;
pub mod replica_manager;

pub use lifecycle::{BrokerLifecycleManager, BrokerState};
