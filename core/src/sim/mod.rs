//! The deterministic simulation kernel: virtual clock, one seeded RNG, an event scheduler,
//! the network, processes and disks.

mod admin;
mod admin_client;
pub mod args;
mod dispatch;
mod format;
pub mod history;
pub mod message;
pub mod network;
pub mod node;
pub mod node_config;
mod process_control;
pub mod scheduler;
pub mod watcher;
pub mod world;
mod write_life_observer;

pub use world::{SimError, World, WorldConfig};
