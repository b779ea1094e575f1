//! KRaft's Raft: KafkaRaftClient, QuorumState and its states, the metadata log, the RPCs.

pub mod accumulator;
pub mod batch;
pub mod change_voter;
pub mod client;
pub mod config;
pub mod control_records;
pub mod disk;
pub mod epoch_election;
pub mod io;
pub mod listener;
pub mod log;
pub mod messages;
pub mod quorum_state;
pub mod replica_key;
pub mod request_manager;
pub mod snapshot;
pub mod state;
pub mod voter_set;

pub use client::KafkaRaftClient;
pub use config::QuorumConfig;
