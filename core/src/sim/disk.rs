//! A node's simulated disk: the metadata log and small files by path, kept across `kill -9`.

use crate::raft::log::RaftLog;
use std::collections::BTreeMap;

/// The metadata log directory name.
pub const METADATA_DIR: &str = "__cluster_metadata-0";

/// What one node has on disk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Disk {
    /// `__cluster_metadata-0`'s segments and epoch cache.
    pub metadata_log: RaftLog,
    /// Small files by path relative to the node's log dir, e.g.
    /// `__cluster_metadata-0/quorum-state`.
    pub files: BTreeMap<String, String>,
    /// How many times each file was written (for views and tests).
    pub writes: u64,
}

impl Disk {
    /// Write (replace) a small file, atomically as Kafka's `.tmp` + rename does.
    pub fn write_file(&mut self, path: &str, content: String) {
        self.files.insert(path.to_string(), content);
        self.writes += 1;
    }

    /// Read a small file.
    pub fn read_file(&self, path: &str) -> Option<&str> {
        self.files.get(path).map(|s| s.as_str())
    }
}
