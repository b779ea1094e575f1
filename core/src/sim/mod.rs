//! The deterministic simulation kernel: virtual clock, one seeded RNG, an event scheduler,
//! the network, processes and disks.

mod admin;
pub mod args;
pub mod clock;
pub mod disk;
mod dispatch;
pub mod message;
pub mod network;
pub mod node;
pub mod node_log;
mod process_control;
pub mod rng;
pub mod scheduler;
pub mod swarm;
pub mod uuid;
pub mod world;

pub use world::{SimError, World, WorldConfig};
