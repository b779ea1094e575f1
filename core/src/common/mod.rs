//! The bottom layer: what every other module shares, as Kafka's `clients` and `server-common`
//! modules are shared by raft, the controller and the broker. Kafka's `Uuid`, its protocol
//! `Errors` and `ApiKeys`, the RPC bodies nodes exchange (Kafka's generated
//! `org.apache.kafka.common.message` classes), log4j-style node logs, the printed clock, the
//! one seeded RNG's type, and Java-compatible helpers (String.hashCode, HashMap order).
//! Nothing here imports another module of the crate.

pub mod api_keys;
pub mod clock;
pub mod config_resource;
pub mod java;
pub mod message;
pub mod node_log;
pub mod offset_and_epoch;
pub mod protocol;
pub mod rng;
pub mod rules;
pub mod uuid;
