//! The broker: BrokerLifecycleManager (registration, heartbeats, BrokerState).

pub mod lifecycle;

pub use lifecycle::{BrokerLifecycleManager, BrokerState};
