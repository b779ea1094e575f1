//! The broker's LogManager (storage/.../log/LogManager.java at confluentinc/kafka 06d492d8):
//! a partition's log directory under the log dir (`N/orders-0/`: its segments, indexes,
//! `leader-epoch-checkpoint` and `partition.metadata`), created when the broker first hosts
//! the partition and renamed `orders-0.<uuid>-delete` when the topic is deleted, then removed
//! after file.delete.delay.ms; and ReplicaManager's `replication-offset-checkpoint`, the high
//! watermarks written every replica.high.watermark.checkpoint.interval.ms.

use std::collections::BTreeMap;

use super::data_io::DataIo;
use crate::common::node_log::{Level, LogFile, LogLine};
use crate::common::uuid::Uuid;
use crate::raft::log::RaftLog;

/// The logger of LogManager's lines.
pub const LOG_MANAGER_LOGGER: &str = "org.apache.kafka.storage.internals.log.LogManager";

/// file.delete.delay.ms
pub const FILE_DELETE_DELAY_MS: u64 = 60_000;

/// replica.high.watermark.checkpoint.interval.ms
pub const HW_CHECKPOINT_INTERVAL_MS: u64 = 5_000;

/// ReplicaManager.HighWatermarkFilename (ReplicaManager.scala:89).
pub const HW_CHECKPOINT_FILE: &str = "replication-offset-checkpoint";

fn info(io: &mut DataIo, message: String) {
    io.log.push(LogLine {
        time_ms: io.now_ms,
        level: Level::Info,
        file: LogFile::Server,
        prefix: String::new(),
        message,
        logger: LOG_MANAGER_LOGGER,
    });
}

/// `java.util.UUID.randomUUID().toString().replaceAll("-", "")`: 32 hex digits of a
/// version-4 UUID.
fn java_random_uuid_hex(mut b: [u8; 16]) -> String {
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// `getOrCreateLog`: the partition's log, created with its `partition.metadata`
/// (PartitionMetadata.encode: `version: 0` and `topic_id: <id>`) and LogManager's line
/// (LogManager.java:1366) when it is not on disk yet. `overrides` is the topic's overridden
/// configs as `{k=v, ...}`.
pub fn get_or_create_log(
    io: &mut DataIo,
    dir: &str,
    topic_id: Uuid,
    log_dir: &str,
    overrides: &str,
) {
    if io.disk.data_logs.contains_key(dir) {
        return;
    }
    io.disk
        .data_logs
        .insert(dir.to_string(), RaftLog::default());
    io.disk.write_file(
        &format!("{dir}/partition.metadata"),
        format!("version: 0\ntopic_id: {topic_id}"),
    );
    info(
        io,
        format!("Created log for partition {dir} in {log_dir}/{dir} with properties {overrides}"),
    );
}

/// `asyncDelete` (LogManager.java:1588-1620): the log is renamed `<dir>.<uuid>-delete`
/// (LocalLog.logDeleteDirName) and removed `FILE_DELETE_DELAY_MS` later. Returns the new name
/// and when it goes.
pub fn async_delete(io: &mut DataIo, dir: &str, log_dir: &str) -> Option<(String, u64)> {
    let log = io.disk.data_logs.remove(dir)?;
    let unique = java_random_uuid_hex(io.rng.bytes16());
    let (topic, index) = dir.rsplit_once('-').unwrap_or((dir, "0"));
    let renamed = format!("{topic}-{index}.{unique}-delete");
    io.disk.data_logs.insert(renamed.clone(), log);
    if let Some(meta) = io.disk.files.remove(&format!("{dir}/partition.metadata")) {
        io.disk
            .files
            .insert(format!("{renamed}/partition.metadata"), meta);
    }
    info(
        io,
        format!("Log for partition {dir} is renamed to {log_dir}/{renamed} and is scheduled for deletion"),
    );
    Some((renamed, io.now_ms + FILE_DELETE_DELAY_MS))
}

/// The deletion task (LogManager.deleteLogs, LogManager.java:1410-1430): the renamed log is
/// removed, with its line.
pub fn delete_renamed(io: &mut DataIo, renamed: &str, log_dir: &str) {
    if io.disk.data_logs.remove(renamed).is_none() {
        return;
    }
    io.disk
        .files
        .retain(|p, _| !p.starts_with(&format!("{renamed}/")));
    let partition = renamed.split('.').next().unwrap_or(renamed).to_string();
    info(
        io,
        format!("Deleted log for partition {partition} in {log_dir}/{renamed}."),
    );
}

/// The high watermark checkpoint (OffsetCheckpointFile: version 0, the count, then `topic
/// partition offset` lines), of `hws` (`(topic, partition)` to HW).
pub fn write_hw_checkpoint(io: &mut DataIo, hws: &BTreeMap<(String, i32), i64>) {
    let mut text = format!("0\n{}\n", hws.len());
    for ((topic, partition), hw) in hws {
        text.push_str(&format!("{topic} {partition} {hw}\n"));
    }
    if io.disk.read_file(HW_CHECKPOINT_FILE) != Some(text.as_str()) {
        io.disk.write_file(HW_CHECKPOINT_FILE, text);
    }
}

/// The HW a checkpoint holds for `(topic, partition)` (0 when none: a new log's).
pub fn read_hw_checkpoint(text: Option<&str>, topic: &str, partition: i32) -> Option<i64> {
    text.into_iter()
        .flat_map(|t| t.lines().skip(2))
        .filter_map(|l| {
            let mut w = l.split(' ');
            let (t, p, o) = (w.next()?, w.next()?, w.next()?);
            (t == topic && p.parse::<i32>().ok()? == partition).then(|| o.parse().ok())?
        })
        .next()
}
