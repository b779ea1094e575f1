//! The snapshot side of KafkaRaftClient: `createSnapshot`, the leader answering a Fetch with a
//! snapshot id and serving FetchSnapshot, the follower downloading it, the listener loading
//! it, and the log cleaner that deletes segments and old snapshots by retention.

use super::{offset_and_epoch_text, KafkaRaftClient, RaftResult, ValidOffsetAndEpoch};
use super::{METADATA_LOG_LOGGER, UNIFIED_LOG_LOGGER};
use crate::common::node_log::Level;
use crate::common::offset_and_epoch::OffsetAndEpoch;
use crate::common::protocol::Errors;
use crate::metadata::MetadataRecord;
use crate::raft::batch::Record;
use crate::raft::io::RaftIo;
use crate::raft::messages::*;
use crate::raft::snapshot::{snapshot_name, PartialSnapshot, RawSnapshot};
use crate::raft::state::EpochState;
use std::sync::Arc;

/// `file.delete.delay.ms` (LOG_DELETE_DELAY_MS_DEFAULT): how long a `.checkpoint.deleted` file
/// stays.
pub const FILE_DELETE_DELAY_MS: u64 = 60_000;

/// The logger of the snapshot file helpers (org.apache.kafka.snapshot.Snapshots).
const SNAPSHOTS_LOGGER: &str = "org.apache.kafka.snapshot.Snapshots";

impl KafkaRaftClient {
    /// The log prefix of KafkaRaftLog lines.
    fn metadata_log_prefix(&self) -> String {
        format!(
            "[RaftLog partition=__cluster_metadata-0, nodeId={}] ",
            self.local_id()
        )
    }

    /// Log a line as KafkaRaftLog.
    fn log_metadata_log(&self, io: &mut RaftIo, message: String) {
        let prefix = self.metadata_log_prefix();
        io.log_line(Level::Info, &prefix, METADATA_LOG_LOGGER, message);
    }

    /// `validateOffsetAndEpoch` of KafkaRaftLog: may a replica read from `offset` after a
    /// batch of `epoch`?
    pub(super) fn validate_offset_and_epoch(
        &self,
        offset: i64,
        epoch: i32,
        io: &RaftIo,
    ) -> ValidOffsetAndEpoch {
        let log = &io.disk.metadata_log;
        let start = log.start_offset();
        if start == 0 && offset == 0 {
            return ValidOffsetAndEpoch::Valid;
        }
        if let Some(earliest) = log.earliest_snapshot_id() {
            if offset < start
                || (offset == start && epoch != earliest.epoch)
                || epoch < earliest.epoch
            {
                let latest = log.latest_snapshot_id().unwrap_or(earliest);
                return ValidOffsetAndEpoch::Snapshot(latest);
            }
        }
        let end = log.end_offset_for_epoch(epoch);
        if end.epoch != epoch || end.offset < offset {
            ValidOffsetAndEpoch::Diverging(OffsetAndEpoch {
                offset: end.offset.max(0),
                epoch: end.epoch,
            })
        } else {
            ValidOffsetAndEpoch::Valid
        }
    }

    /// The leader's choice for a fetch at (`fetch_offset`, `last_fetched_epoch`): an empty log
    /// while a non-bootstrap snapshot exists gets the snapshot at once.
    pub(super) fn validate_fetch(
        &self,
        fetch_offset: i64,
        last_fetched_epoch: i32,
        io: &RaftIo,
    ) -> ValidOffsetAndEpoch {
        match io.disk.metadata_log.latest_snapshot() {
            Some(s) if fetch_offset == 0 && !s.is_bootstrap() => {
                ValidOffsetAndEpoch::Snapshot(s.id)
            }
            _ => self.validate_offset_and_epoch(fetch_offset, last_fetched_epoch, io),
        }
    }

    /// `createSnapshot` (KafkaRaftLog.createNewSnapshot, then RecordsSnapshotWriter): write
    /// `records` as snapshot `id`. `Ok(false)` when it already exists or lies before the log
    /// start; an error when the id is not a committed batch boundary of this log.
    pub fn create_snapshot(
        &mut self,
        id: OffsetAndEpoch,
        last_contained_log_timestamp: u64,
        records: Vec<MetadataRecord>,
        io: &mut RaftIo,
    ) -> RaftResult<bool> {
        let log = &io.disk.metadata_log;
        if id.offset < log.start_offset() {
            let m = format!(
                "Cannot create a snapshot with an id ({}) less than the log start offset ({})",
                offset_and_epoch_text(id),
                log.start_offset()
            );
            self.log_metadata_log(io, m);
            return Ok(false);
        }
        let hw = self.high_watermark().unwrap_or(0);
        if id.offset > hw {
            return Err(format!(
                "Cannot create a snapshot with an id ({}) greater than the high-watermark ({hw})",
                offset_and_epoch_text(id)
            ));
        }
        if self.validate_offset_and_epoch(id.offset, id.epoch, io) != ValidOffsetAndEpoch::Valid {
            return Err(format!(
                "Snapshot id ({}) is not valid according to the log",
                offset_and_epoch_text(id)
            ));
        }
        let batches = io.disk.metadata_log.read(id.offset, 1);
        if let Some(b) = batches.first() {
            if b.base_offset != id.offset {
                return Err(format!(
                    "Cannot create snapshot at offset ({}) because it is not batch aligned. The batch containing the requested offset has a base offset of ({})",
                    id.offset, b.base_offset
                ));
            }
        }
        if io.disk.metadata_log.read_snapshot(id).is_some() {
            return Ok(false);
        }
        // RecordsSnapshotWriter: with kraft.version 1 at the snapshot's last offset, that
        // version and the voter set then; with kraft.version 0, neither.
        let last_contained = id.offset - 1;
        let kraft_version = self.partition_state.kraft_version_at_offset(last_contained);
        let control = if kraft_version >= 1 {
            vec![
                Record::KRaftVersion { kraft_version },
                Record::KRaftVoters {
                    voters: self
                        .partition_state
                        .voter_set_at_offset(last_contained)
                        .to_record(),
                },
            ]
        } else {
            Vec::new()
        };
        let snapshot = RawSnapshot::write(
            id,
            last_contained_log_timestamp,
            control,
            records,
            io.now_ms,
        );
        io.disk.metadata_log.store_snapshot(Arc::new(snapshot));
        Ok(true)
    }

    // ----- FetchSnapshot -----

    /// The leader serves one chunk of a snapshot (`handleFetchSnapshotRequest`).
    pub(super) fn handle_fetch_snapshot_request(
        &mut self,
        r: FetchSnapshotRequest,
        io: &mut RaftIo,
    ) -> FetchSnapshotResponse {
        let epoch = self.quorum.epoch();
        let mut resp = FetchSnapshotResponse {
            error: Errors::None,
            leader_epoch: epoch,
            leader_id: self.quorum.leader_id().unwrap_or(-1),
            snapshot_id: r.snapshot_id,
            size: 0,
            position: r.position,
            chunk_bytes: 0,
            snapshot: None,
        };
        resp.error = if r.current_leader_epoch < epoch {
            Errors::FencedLeaderEpoch
        } else if r.current_leader_epoch > epoch {
            Errors::UnknownLeaderEpoch
        } else if !matches!(self.quorum.state, EpochState::Leader(_)) {
            Errors::NotLeaderOrFollower
        } else {
            Errors::None
        };
        if resp.error != Errors::None {
            return resp;
        }
        let snapshot = match io.disk.metadata_log.read_snapshot(r.snapshot_id) {
            Some(s) if !s.is_bootstrap() => s.clone(),
            _ => {
                resp.error = Errors::SnapshotNotFound;
                return resp;
            }
        };
        let size = snapshot.size_in_bytes();
        if r.position >= size {
            resp.error = Errors::PositionOutOfRange;
            return resp;
        }
        resp.size = size;
        resp.chunk_bytes = r.max_bytes.min(size - r.position);
        resp.snapshot = Some(snapshot);
        let now = io.now_ms;
        if let EpochState::Leader(l) = &mut self.quorum.state {
            l.update_check_quorum_for_following_voter(r.replica_id, now);
        }
        resp
    }

    /// The follower was told to fetch a snapshot (the snapshotId branch of
    /// `handleFetchResponse`).
    pub(super) fn begin_fetching_snapshot(
        &mut self,
        from: i32,
        id: OffsetAndEpoch,
        io: &mut RaftIo,
    ) {
        if io.disk.metadata_log.read_snapshot(id).is_some() {
            self.log(
                io,
                Level::Info,
                format!(
                    "Leader {from} returned a snapshot {} in the FETCH response which is already stored",
                    offset_and_epoch_text(id)
                ),
            );
            return;
        }
        io.disk.metadata_log.partial_snapshot = Some(PartialSnapshot {
            id,
            leader_epoch: self.quorum.epoch(),
            received: 0,
            content: None,
        });
        self.log(
            io,
            Level::Info,
            format!(
                "Fetching snapshot {} from Fetch response from leader {from}",
                offset_and_epoch_text(id)
            ),
        );
    }

    /// `handleFetchSnapshotResponse`: append the chunk; when complete, freeze it, truncate the
    /// log to it and move the high watermark there.
    pub(super) fn handle_fetch_snapshot_response(
        &mut self,
        from: i32,
        r: FetchSnapshotResponse,
        io: &mut RaftIo,
    ) -> RaftResult<bool> {
        if let Some(done) =
            self.maybe_handle_common_response(r.error, r.leader_id, r.leader_epoch, io)?
        {
            return Ok(done);
        }
        let now = io.now_ms;
        let EpochState::Follower(f) = &self.quorum.state else {
            return Ok(true);
        };
        if f.leader_id != from {
            return Ok(true);
        }
        if r.error == Errors::SnapshotNotFound {
            self.log(
                io,
                Level::Info,
                format!(
                    "Leader doesn't know about snapshot id {}, returned error {} and snapshot id {}",
                    io.disk
                        .metadata_log
                        .partial_snapshot
                        .as_ref()
                        .map(|p| format!("Optional[{}]", offset_and_epoch_text(p.id)))
                        .unwrap_or_else(|| "Optional.empty".into()),
                    r.error.name(),
                    offset_and_epoch_text(r.snapshot_id)
                ),
            );
            io.disk.metadata_log.partial_snapshot = None;
            self.reset_fetch_timeout(now);
            return Ok(true);
        }
        if r.error != Errors::None {
            self.log(
                io,
                Level::Error,
                format!(
                    "Unexpected error {} in FETCH_SNAPSHOT response from {from}",
                    r.error.name()
                ),
            );
            return Ok(false);
        }
        if let Some(snapshot) = append_snapshot_chunk(&r, io)? {
            self.complete_snapshot_download(from, snapshot, io)?;
        }
        self.reset_fetch_timeout(now);
        Ok(true)
    }

    /// The download is complete: store the snapshot, fully truncate the log to it, mark the
    /// older snapshots for deletion and move the high watermark to its end.
    fn complete_snapshot_download(
        &mut self,
        from: i32,
        snapshot: Arc<RawSnapshot>,
        io: &mut RaftIo,
    ) -> RaftResult<()> {
        io.disk.metadata_log.partial_snapshot = None;
        io.disk.metadata_log.store_snapshot(snapshot.clone());
        if !io.disk.metadata_log.truncate_to_latest_snapshot() {
            let log = &io.disk.metadata_log;
            return Err(format!(
                "Full log truncation expected but didn't happen. Snapshot of {}, log end offset {}, last fetched {}",
                offset_and_epoch_text(snapshot.id),
                log.end_offset(),
                log.last_fetched_epoch()
            ));
        }
        for id in io.disk.metadata_log.delete_snapshots_before_start() {
            let reason = format!(
                "Marking snapshot {} for deletion because the partition was fully truncated",
                offset_and_epoch_text(id)
            );
            self.mark_for_delete(id, reason, io);
        }
        let (end, last_epoch) = (
            io.disk.metadata_log.end_offset(),
            io.disk.metadata_log.last_fetched_epoch(),
        );
        self.log(
            io,
            Level::Info,
            format!(
                "Fully truncated the log at ({end}, {last_epoch}) after downloading snapshot {} from leader {from}",
                offset_and_epoch_text(snapshot.id)
            ),
        );
        // KafkaRaftClient.java:2199-2201: this always reloads the snapshot, whose id is past
        // the internal next offset.
        self.update_partition_state(io);
        if let EpochState::Follower(f) = &mut self.quorum.state {
            if f.high_watermark.is_none_or(|hw| hw < end) {
                f.high_watermark = Some(end);
            }
        }
        Ok(())
    }

    /// A follower's fetch succeeded: restart its fetch timeout.
    fn reset_fetch_timeout(&mut self, now: u64) {
        if let EpochState::Follower(f) = &mut self.quorum.state {
            f.reset_fetch_timeout_for_successful_fetch(now);
        }
    }

    // ----- the log cleaner -----

    /// `RaftMetadataLogCleanerManager.maybeClean`: every 60 s, `KafkaRaftLog.maybeClean`
    /// (retention by size, then by time). Returns when it next needs to run (u64::MAX while
    /// fewer than two snapshots make cleaning a no-op).
    pub(super) fn maybe_clean(&mut self, io: &mut RaftIo) -> u64 {
        let now = io.now_ms;
        if now >= self.next_clean_ms {
            self.next_clean_ms = now + self.config.metadata_log.clean_interval_ms;
            self.clean_snapshots(io);
        }
        // The delayed delete of `.checkpoint.deleted` files (Snapshots.deleteIfExists).
        let due: Vec<OffsetAndEpoch> = io
            .disk
            .metadata_log
            .deleted_snapshots
            .iter()
            .filter(|(_, at)| *at <= now)
            .map(|(id, _)| *id)
            .collect();
        io.disk
            .metadata_log
            .deleted_snapshots
            .retain(|(_, at)| *at > now);
        for id in due {
            io.log_line(
                Level::Info,
                "",
                SNAPSHOTS_LOGGER,
                format!(
                    "Deleted snapshot files for snapshot {}.",
                    offset_and_epoch_text(id)
                ),
            );
        }
        let next_delete = io
            .disk
            .metadata_log
            .deleted_snapshots
            .iter()
            .map(|(_, at)| *at)
            .min()
            .unwrap_or(u64::MAX);
        if io.disk.metadata_log.snapshots().len() < 2 {
            next_delete
        } else {
            self.next_clean_ms.min(next_delete)
        }
    }

    /// `removeSnapshots`: log why, rename to `.checkpoint.deleted`, delete the file after
    /// `file.delete.delay.ms`.
    fn mark_for_delete(&mut self, id: OffsetAndEpoch, reason: String, io: &mut RaftIo) {
        self.log_metadata_log(io, reason);
        let at = io.now_ms + FILE_DELETE_DELAY_MS;
        io.disk.metadata_log.deleted_snapshots.push((id, at));
    }

    /// `maybeClean`'s two retention passes: by size, then by time.
    fn clean_snapshots(&mut self, io: &mut RaftIo) {
        let cfg = self.config.metadata_log.clone();
        if let Some(max) = cfg.retention_bytes {
            let mut snapshots_size: usize = io
                .disk
                .metadata_log
                .snapshots()
                .iter()
                .map(|s| s.size_in_bytes())
                .sum();
            self.clean_while(io, |log, s| {
                let log_size = log.size_in_bytes();
                if (log_size + snapshots_size) as u64 > max {
                    let reason = format!(
                        "Marking snapshot {} for deletion because the log size ({log_size}) and snapshots size ({snapshots_size}) is greater than {max}",
                        offset_and_epoch_text(s.id)
                    );
                    snapshots_size -= s.size_in_bytes();
                    Some(reason)
                } else {
                    None
                }
            });
        }
        if let Some(max) = cfg.retention_ms {
            let now = crate::common::clock::to_epoch_ms(io.now_ms);
            self.clean_while(io, |_, s| {
                let ts = crate::common::clock::to_epoch_ms(s.last_contained_log_timestamp);
                (now.saturating_sub(ts) > max).then(|| {
                    format!(
                        "Marking snapshot {} for deletion because its timestamp ({ts}) is now ({now}) older than the retention ({max})",
                        offset_and_epoch_text(s.id)
                    )
                })
            });
        }
    }

    /// `cleanSnapshots`: for the oldest snapshots (never the latest), while `reason` says so,
    /// delete the log before the next snapshot and forget the older ones.
    fn clean_while(
        &mut self,
        io: &mut RaftIo,
        mut reason: impl FnMut(&crate::raft::log::RaftLog, &RawSnapshot) -> Option<String>,
    ) {
        loop {
            let log = &io.disk.metadata_log;
            if log.snapshots().len() < 2 {
                return;
            }
            let oldest = log.snapshots()[0].clone();
            let next = log.snapshots()[1].id;
            let Some(why) = reason(log, &oldest) else {
                return;
            };
            let old_start = log.start_offset();
            let before: Vec<(i64, usize)> = log
                .segment_bases()
                .iter()
                .map(|b| {
                    let size = log
                        .segment_batches(*b)
                        .map(|v| v.iter().map(|x| x.size_in_bytes()).sum())
                        .unwrap_or(0);
                    (*b, size)
                })
                .collect();
            let deleted = io.disk.metadata_log.delete_before_snapshot(next);
            let start = io.disk.metadata_log.start_offset();
            let unified = &format!(
                "[UnifiedLog partition=__cluster_metadata-0, dir={}] ",
                crate::raft::disk::LOG_DIRS
            );
            if start > old_start {
                io.log_line(
                    Level::Info,
                    unified,
                    UNIFIED_LOG_LOGGER,
                    format!("Incremented log start offset to {start} due to SnapshotGenerated"),
                );
            }
            if !deleted.is_empty() {
                let segs: Vec<String> = before
                    .iter()
                    .filter(|(b, _)| deleted.contains(b))
                    .map(|(b, size)| format!("LogSegment(baseOffset={b}, size={size})"))
                    .collect();
                io.log_line(
                    Level::Info,
                    unified,
                    UNIFIED_LOG_LOGGER,
                    format!(
                        "Deleting segments due to log start offset {start} breach: {}",
                        segs.join(",")
                    ),
                );
            }
            // forgetSnapshotsBefore(next), then removeSnapshots logs each one's reason.
            let forgotten: Vec<OffsetAndEpoch> = io
                .disk
                .metadata_log
                .snapshots()
                .iter()
                .filter(|s| s.id.offset < next.offset)
                .map(|s| s.id)
                .collect();
            io.disk.metadata_log.forget_snapshots_before(next);
            for id in forgotten {
                let text = if id == oldest.id {
                    why.clone()
                } else {
                    format!(
                        "Marking snapshot {} for deletion for unknown reason",
                        offset_and_epoch_text(id)
                    )
                };
                self.mark_for_delete(id, text, io);
            }
            if deleted.is_empty() && start == old_start {
                return;
            }
        }
    }
}

/// The FetchSnapshot response's chunk checked against the download (same snapshot, next
/// position) and appended to it; the whole snapshot once its last chunk arrived.
fn append_snapshot_chunk(
    r: &FetchSnapshotResponse,
    io: &mut RaftIo,
) -> RaftResult<Option<Arc<RawSnapshot>>> {
    let Some(p) = io.disk.metadata_log.partial_snapshot.as_mut() else {
        return Err(format!(
            "Received unexpected fetch snapshot response: snapshot {}",
            snapshot_name(r.snapshot_id)
        ));
    };
    if p.id != r.snapshot_id {
        return Err(format!(
            "Received fetch snapshot response with an invalid id. Expected {}; Received {}",
            offset_and_epoch_text(p.id),
            offset_and_epoch_text(r.snapshot_id)
        ));
    }
    if p.received != r.position {
        return Err(format!(
            "Received fetch snapshot response with an invalid position. Expected {}; Received {}",
            p.received, r.position
        ));
    }
    p.received += r.chunk_bytes;
    p.content = r.snapshot.clone();
    if p.received != r.size {
        return Ok(None);
    }
    let snapshot = p
        .content
        .clone()
        .ok_or_else(|| "FetchSnapshot response without data".to_string())?;
    Ok(Some(snapshot))
}
