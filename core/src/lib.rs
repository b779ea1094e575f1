//! KRaft Playground's engine: a deterministic simulation of an Apache Kafka KRaft cluster.
//!
//! Everything runs on virtual time from one seeded RNG: the same seed and the same commands give
//! the same run, byte for byte.
//!
//! ```
//! use kraft_core::sim::{World, WorldConfig};
//! let mut world = World::new(WorldConfig::new(7, vec![101, 102, 103], vec![1])).unwrap();
//! world.run_for(5_000);
//! assert!(world.leader().is_some());
//! ```
#![deny(missing_docs)]

pub mod broker;
pub mod cli;
pub mod common;
pub mod controller;
pub mod image;
pub mod invariants;
pub mod lesson;
pub mod metadata;
pub mod raft;
pub mod sim;
pub mod swarm;
pub mod timeline;
pub mod tools;
pub mod view;
