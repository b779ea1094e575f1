//! Per-node log files (server.log, controller.log) with virtual timestamps, in log4j's layout
//! `[%d] %p %m (%c)%n`.

use crate::common::clock::log4j_timestamp;
use std::collections::VecDeque;
use std::fmt;

/// log4j levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// DEBUG
    Debug,
    /// INFO
    Info,
    /// WARN
    Warn,
    /// ERROR
    Error,
}

impl Level {
    /// The text log4j prints.
    pub fn name(&self) -> &'static str {
        match self {
            Level::Debug => "DEBUG",
            Level::Info => "INFO",
            Level::Warn => "WARN",
            Level::Error => "ERROR",
        }
    }
}

/// Which file a line goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFile {
    /// server.log: Raft, broker, everything by default.
    Server,
    /// controller.log: `org.apache.kafka.controller` loggers.
    Controller,
    /// state-change.log: `state.change.logger` (a broker's become-leader and become-follower
    /// lines; config/log4j2.yaml sends it there, not to server.log).
    StateChange,
}

impl LogFile {
    /// File name.
    pub fn name(&self) -> &'static str {
        match self {
            LogFile::Server => "server.log",
            LogFile::Controller => "controller.log",
            LogFile::StateChange => "state-change.log",
        }
    }
}

/// One line of a log file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// Virtual time in ms.
    pub time_ms: u64,
    /// Level.
    pub level: Level,
    /// File.
    pub file: LogFile,
    /// `[RaftManager id=1] ` and the like.
    pub prefix: String,
    /// The message.
    pub message: String,
    /// The logger (Java class) name.
    pub logger: &'static str,
}

impl fmt::Display for LogLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "[{}] {} {}{} ({})",
            log4j_timestamp(self.time_ms),
            self.level.name(),
            self.prefix,
            self.message,
            self.logger
        )
    }
}

/// At most this many lines are kept per node; older lines are rotated away.
pub const MAX_LOG_LINES: usize = 20_000;

/// The log files of one node; they survive `kill -9` (they are on disk).
#[derive(Clone, Debug, Default)]
pub struct NodeLog {
    lines: VecDeque<LogLine>,
    /// How many lines were rotated away.
    pub rotated: u64,
    /// Whether DEBUG lines are kept.
    pub debug_enabled: bool,
}

impl NodeLog {
    /// Append a line (DEBUG lines only when enabled).
    pub fn push(&mut self, line: LogLine) {
        if line.level == Level::Debug && !self.debug_enabled {
            return;
        }
        if self.lines.len() >= MAX_LOG_LINES {
            self.lines.pop_front();
            self.rotated += 1;
        }
        self.lines.push_back(line);
    }

    /// All kept lines, oldest first.
    pub fn lines(&self) -> impl DoubleEndedIterator<Item = &LogLine> + ExactSizeIterator {
        self.lines.iter()
    }

    /// Number of kept lines.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// True when no line is kept.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}
