//! SnapshotGenerator: a MetadataLoader publisher on every node that writes a snapshot of the
//! published image once enough bytes were replayed since the last one
//! (`metadata.log.max.record.bytes.between.snapshots`) or enough time passed
//! (`metadata.log.max.snapshot.interval.ms`).

use super::loader::{ManifestType, Publication};
use crate::raft::config::MetadataLogConfig;

/// The logger of the generator's lines.
pub const LOGGER: &str = "org.apache.kafka.image.publisher.SnapshotGenerator";
/// The logger of the emitter's lines.
pub const EMITTER_LOGGER: &str = "org.apache.kafka.image.publisher.SnapshotEmitter";

/// The generator's counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotGenerator {
    max_bytes_since_last_snapshot: u64,
    max_time_since_last_snapshot_ms: u64,
    /// Bytes of log batches published since the last snapshot.
    pub bytes_since_last_snapshot: u64,
    /// When the counters were last reset, virtual ms.
    pub last_snapshot_time_ms: u64,
}

impl SnapshotGenerator {
    /// A generator with `config`'s thresholds; the counters start now.
    pub fn new(config: &MetadataLogConfig, now_ms: u64) -> Self {
        SnapshotGenerator {
            max_bytes_since_last_snapshot: config.max_record_bytes_between_snapshots,
            max_time_since_last_snapshot_ms: config.max_snapshot_interval_ms,
            bytes_since_last_snapshot: 0,
            last_snapshot_time_ms: now_ms,
        }
    }

    fn reset(&mut self, now_ms: u64) {
        self.bytes_since_last_snapshot = 0;
        self.last_snapshot_time_ms = now_ms;
    }

    /// `publishSnapshot` resets the counters; `publishLogDelta` adds the delta's bytes and
    /// returns why a snapshot of this image should be written now, if it should (the counters
    /// reset when it is emitted).
    pub fn on_publication(&mut self, p: &Publication, now_ms: u64) -> Option<String> {
        if p.manifest == ManifestType::Snapshot {
            self.reset(now_ms);
            return None;
        }
        self.bytes_since_last_snapshot += p.bytes;
        let reason = if self.bytes_since_last_snapshot >= self.max_bytes_since_last_snapshot {
            format!(
                "we have replayed at least {} bytes",
                self.max_bytes_since_last_snapshot
            )
        } else if self.max_time_since_last_snapshot_ms != 0
            && now_ms.saturating_sub(self.last_snapshot_time_ms)
                >= self.max_time_since_last_snapshot_ms
        {
            format!(
                "we have waited at least {} minute(s)",
                self.max_time_since_last_snapshot_ms / 60_000
            )
        } else {
            return None;
        };
        self.reset(now_ms);
        Some(reason)
    }

    /// Time until the time trigger could fire (for views).
    pub fn ms_until_time_trigger(&self, now_ms: u64) -> Option<u64> {
        (self.max_time_since_last_snapshot_ms != 0).then(|| {
            (self.last_snapshot_time_ms + self.max_time_since_last_snapshot_ms)
                .saturating_sub(now_ms)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::image::MetadataImage;

    fn publication(manifest: ManifestType, bytes: u64) -> Publication {
        Publication {
            manifest,
            bytes,
            changed: vec![],
            records: 1,
            image: MetadataImage::default(),
        }
    }

    #[test]
    fn bytes_first_then_time_and_a_loaded_snapshot_resets() {
        let cfg = MetadataLogConfig {
            max_record_bytes_between_snapshots: 100,
            max_snapshot_interval_ms: 60_000,
            ..Default::default()
        };
        let mut g = SnapshotGenerator::new(&cfg, 0);
        assert_eq!(
            g.on_publication(&publication(ManifestType::LogDelta, 60), 10),
            None
        );
        assert_eq!(
            g.on_publication(&publication(ManifestType::LogDelta, 40), 20),
            Some("we have replayed at least 100 bytes".into())
        );
        assert_eq!(g.bytes_since_last_snapshot, 0);
        assert_eq!(
            g.on_publication(&publication(ManifestType::LogDelta, 1), 60_019),
            None
        );
        assert_eq!(
            g.on_publication(&publication(ManifestType::LogDelta, 1), 60_020),
            Some("we have waited at least 1 minute(s)".into())
        );
        g.on_publication(&publication(ManifestType::LogDelta, 99), 60_030);
        g.on_publication(&publication(ManifestType::Snapshot, 0), 60_040);
        assert_eq!(g.bytes_since_last_snapshot, 0);
    }
}
