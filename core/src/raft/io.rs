//! What a Raft client may touch while it runs one step: the clock, the world's RNG, its disk,
//! its log files and its outbox. Nothing else: no wall clock, no threads.

use super::messages::RaftMessage;
use crate::common::node_log::{Level, LogFile, LogLine, NodeLog};
use crate::common::rng::SimRng;
use crate::common::rules::Rules;
use crate::raft::disk::Disk;

/// A message to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outbound {
    /// Destination node id.
    pub to: i32,
    /// The message.
    pub message: RaftMessage,
}

/// The environment of one step of a node.
pub struct RaftIo<'a> {
    /// Virtual time now (ms).
    pub now_ms: u64,
    /// The world's one RNG.
    pub rng: &'a mut SimRng,
    /// The node's disk.
    pub disk: &'a mut Disk,
    /// The node's log files.
    pub log: &'a mut NodeLog,
    /// Messages to send after the step.
    pub outbox: &'a mut Vec<Outbound>,
    /// The rule switches in force (issue 18; all on by default).
    pub rules: Rules,
}

impl RaftIo<'_> {
    /// Write a log line to server.log.
    pub fn log_line(&mut self, level: Level, prefix: &str, logger: &'static str, message: String) {
        self.log.push(LogLine {
            time_ms: self.now_ms,
            level,
            file: LogFile::Server,
            prefix: prefix.to_string(),
            message,
            logger,
        });
    }

    /// Queue a message.
    pub fn send(&mut self, to: i32, message: RaftMessage) {
        self.outbox.push(Outbound { to, message });
    }
}

/// Logger names as Kafka prints them.
pub mod loggers {
    /// org.apache.kafka.raft.QuorumState
    pub const QUORUM_STATE: &str = "org.apache.kafka.raft.QuorumState";
    /// org.apache.kafka.raft.KafkaRaftClient
    pub const KAFKA_RAFT_CLIENT: &str = "org.apache.kafka.raft.KafkaRaftClient";
    /// org.apache.kafka.raft.LeaderState
    pub const LEADER_STATE: &str = "org.apache.kafka.raft.LeaderState";
    /// org.apache.kafka.raft.FollowerState
    pub const FOLLOWER_STATE: &str = "org.apache.kafka.raft.FollowerState";
}
