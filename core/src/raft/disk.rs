//! A node's simulated disk: the metadata log and small files by path, kept across `kill -9`.

use crate::raft::log::RaftLog;
use std::collections::BTreeMap;

/// The metadata log directory name.
pub const METADATA_DIR: &str = "__cluster_metadata-0";
/// The node's `log.dirs` as its log lines name it (the quickstart's directory; the shell shows
/// it as `<node id>/`).
pub const LOG_DIRS: &str = "/tmp/kraft-combined-logs";

/// `CleanShutdownFileHandler.CLEAN_SHUTDOWN_FILE_NAME`, in the log directory.
pub const CLEAN_SHUTDOWN_FILE: &str = ".kafka_cleanshutdown";

/// The clean-shutdown file's text: `{"version":0,"brokerEpoch":N}` (Jackson, no newline).
pub fn clean_shutdown_content(broker_epoch: i64) -> String {
    format!("{{\"version\":0,\"brokerEpoch\":{broker_epoch}}}")
}

/// `CleanShutdownFileHandler.read`: the broker epoch, or None when the file is missing or
/// unreadable.
pub fn read_clean_shutdown_epoch(text: &str) -> Option<i64> {
    let rest = text.split("\"brokerEpoch\":").nth(1)?;
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '-')
        .collect();
    digits.parse().ok()
}

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
    /// A broker's data partitions' logs, by directory name (`orders-0`, or
    /// `orders-0.<uuid>-delete` once deleted and before LogManager removes it).
    pub data_logs: BTreeMap<String, RaftLog>,
}

impl Disk {
    /// Write (replace) a small file, atomically as Kafka's `.tmp` + rename does.
    pub fn write_file(&mut self, path: &str, content: String) {
        self.files.insert(path.to_string(), content);
        self.writes += 1;
    }

    /// Delete a small file; true if it was there.
    pub fn delete_file(&mut self, path: &str) -> bool {
        self.files.remove(path).is_some()
    }

    /// Read a small file.
    pub fn read_file(&self, path: &str) -> Option<&str> {
        self.files.get(path).map(|s| s.as_str())
    }

    /// The names in a directory, sorted as `ls` prints them. The metadata log directory holds
    /// its segment files (`.log`, `.index`, `.timeindex`, named by base offset), its snapshots
    /// (`<offset>-<epoch>.checkpoint`, `.checkpoint.part` while one is fetched) and
    /// `leader-epoch-checkpoint` besides the small files written to it.
    pub fn list(&self, dir: &str) -> Vec<String> {
        let dir = dir.trim_end_matches('/');
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let mut names: Vec<String> = self
            .files
            .keys()
            .filter_map(|p| p.strip_prefix(&prefix))
            .map(|rest| rest.split('/').next().unwrap_or(rest).to_string())
            .collect();
        if dir.is_empty() {
            names.push(METADATA_DIR.to_string());
            names.extend(self.data_logs.keys().cloned());
        }
        if let Some(log) = self.data_logs.get(dir) {
            for base in log.segment_bases() {
                for ext in ["log", "index", "timeindex"] {
                    names.push(format!("{base:020}.{ext}"));
                }
            }
            names.push("leader-epoch-checkpoint".to_string());
        }
        if dir == METADATA_DIR {
            let log = &self.metadata_log;
            for base in log.segment_bases() {
                for ext in ["log", "index", "timeindex"] {
                    names.push(format!("{base:020}.{ext}"));
                }
            }
            for s in log.snapshots() {
                names.push(s.file_name());
            }
            if let Some(p) = &log.partial_snapshot {
                names.push(p.file_name());
            }
            for (id, _) in &log.deleted_snapshots {
                names.push(format!(
                    "{}.checkpoint.deleted",
                    crate::raft::snapshot::snapshot_name(*id)
                ));
            }
            names.push("leader-epoch-checkpoint".to_string());
        }
        names.sort();
        names.dedup();
        names
    }

    /// The text of a file as `cat` shows it: small files as written, `leader-epoch-checkpoint`
    /// from the log's epoch cache (version, count, then `epoch startOffset` lines).
    pub fn cat(&self, path: &str) -> Option<String> {
        let log = match path.strip_suffix("/leader-epoch-checkpoint") {
            Some(METADATA_DIR) => Some(&self.metadata_log),
            Some(dir) => self.data_logs.get(dir),
            None => None,
        };
        if let Some(log) = log {
            let entries = log.epoch_entries();
            let mut out = format!("0\n{}\n", entries.len());
            for e in entries {
                out.push_str(&format!("{} {}\n", e.epoch, e.start_offset));
            }
            return Some(out);
        }
        self.read_file(path).map(|s| s.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::MetadataRecord;
    use crate::raft::batch::Record;

    #[test]
    fn the_metadata_directory_lists_like_kafkas() {
        let mut d = Disk::default();
        d.write_file("__cluster_metadata-0/quorum-state", "{}".into());
        d.write_file(
            "__cluster_metadata-0/partition.metadata",
            "version: 0".into(),
        );
        d.write_file("meta.properties", "node.id=1".into());
        d.metadata_log
            .append_as_leader(vec![Record::Metadata(MetadataRecord::NoOp)], 1, 0);
        assert_eq!(
            d.list(METADATA_DIR),
            vec![
                "00000000000000000000.index",
                "00000000000000000000.log",
                "00000000000000000000.timeindex",
                "leader-epoch-checkpoint",
                "partition.metadata",
                "quorum-state"
            ]
        );
        assert_eq!(d.list(""), vec!["__cluster_metadata-0", "meta.properties"]);
        assert_eq!(
            d.cat("__cluster_metadata-0/leader-epoch-checkpoint")
                .unwrap(),
            "0\n1\n1 0\n"
        );
    }
}
