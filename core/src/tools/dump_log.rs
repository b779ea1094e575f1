//! `kafka-dump-log.sh` (Kafka's `DumpLogSegments`) over a node's `__cluster_metadata-0`:
//! `.log` segments batch by batch and record by record (with `--cluster-metadata-decoder` the
//! records' JSON), and the `.index` / `.timeindex` entries.

use super::jopt::{self, Arg};
use super::record_batch::{encode_batch, EncodedBatch};
use super::{split_node_path, ToolError};
use crate::raft::batch::RecordBatch;
use crate::raft::disk::METADATA_DIR;
use crate::sim::World;
use std::sync::Arc;

const SPEC: &[(&str, Arg)] = &[
    ("print-data-log", Arg::None),
    ("verify-index-only", Arg::None),
    ("index-sanity-check", Arg::None),
    ("files", Arg::Str),
    ("max-message-size", Arg::Int),
    ("max-bytes", Arg::Int),
    ("deep-iteration", Arg::None),
    ("value-decoder-class", Arg::Str),
    ("key-decoder-class", Arg::Str),
    ("offsets-decoder", Arg::None),
    ("transaction-log-decoder", Arg::None),
    ("cluster-metadata-decoder", Arg::None),
    ("remote-log-metadata-decoder", Arg::None),
    ("share-group-state-decoder", Arg::None),
    ("skip-record-metadata", Arg::None),
    ("help", Arg::None),
    ("version", Arg::None),
];

/// `log.index.interval.bytes`: an index entry after at least this many bytes.
const INDEX_INTERVAL_BYTES: usize = 4096;

const HELP_MESSAGE: &str = "This tool helps to parse a log file and dump its contents to the console, useful for debugging a seemingly corrupt log segment.";

/// A Java exception from the tool: DumpLogSegments prints the message, then the stack trace.
fn java_exception(class: &str, message: &str) -> ToolError {
    ToolError::new(format!("{message}\n{class}: {message}\n"))
}

/// The batches of a node's metadata log with their encodings and positions.
fn encoded(batches: &[Arc<RecordBatch>]) -> Vec<(usize, Arc<RecordBatch>, EncodedBatch)> {
    let mut pos = 0;
    batches
        .iter()
        .map(|b| {
            let e = encode_batch(b);
            let p = pos;
            pos += e.size_in_bytes();
            (p, b.clone(), e)
        })
        .collect()
}

/// `batch` as kafka-dump-log prints its batch line (without the newline).
pub fn batch_line(batch: &RecordBatch, enc: &EncodedBatch, position: usize) -> String {
    format!(
        "baseOffset: {} lastOffset: {} count: {} baseSequence: -1 lastSequence: -1 producerId: -1 producerEpoch: -1 partitionLeaderEpoch: {} isTransactional: false isControl: {} deleteHorizonMs: OptionalLong.empty position: {position} CreateTime: {} size: {} magic: 2 compresscodec: none crc: {} isvalid: {}",
        batch.base_offset,
        batch.last_offset(),
        batch.records.len(),
        batch.partition_leader_epoch,
        batch.is_control,
        enc.max_timestamp,
        enc.size_in_bytes(),
        enc.crc,
        enc.is_valid()
    )
}

/// Which payload printer `--*-decoder` chose.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Payload {
    /// Shallow iteration: batch lines only.
    None,
    /// Record lines without payloads (`--deep-iteration`).
    Metadata,
    /// `--cluster-metadata-decoder`: the record's JSON.
    ClusterMetadata,
    /// The default StringDecoder: the value bytes as text.
    Text,
}

/// Run `kafka-dump-log` with `args`.
pub fn run(world: &mut World, args: &[String]) -> Result<String, ToolError> {
    let opts = match jopt::parse(SPEC, args) {
        Ok(o) => o,
        Err(e) => return Err(java_exception(e.class, &e.message)),
    };
    if args.is_empty() || opts.has("help") {
        return Err(ToolError::new(format!(
            "{HELP_MESSAGE}\nOption                                   Description\n------                                   -----------\n--cluster-metadata-decoder               If set, log data will be parsed as cluster\n                                           metadata records.\n--files <String: file1, file2, ...>      REQUIRED: The comma separated list of data\n                                           and index log files to be dumped.\n--skip-record-metadata                   Skip metadata when printing records. This\n                                           flag also skips control records.\n"
        )));
    }
    if opts.has("version") {
        return Ok("4.5.0-SNAPSHOT\n".to_string());
    }
    let Some(files) = opts.value("files") else {
        return Err(ToolError::new("Missing required argument \"[files]\""));
    };
    let print_data = [
        "print-data-log",
        "offsets-decoder",
        "transaction-log-decoder",
        "cluster-metadata-decoder",
        "remote-log-metadata-decoder",
        "value-decoder-class",
        "key-decoder-class",
        "share-group-state-decoder",
    ]
    .iter()
    .any(|o| opts.has(o));
    let payload = if opts.has("cluster-metadata-decoder") {
        Payload::ClusterMetadata
    } else if print_data {
        Payload::Text
    } else if opts.has("deep-iteration") {
        Payload::Metadata
    } else {
        Payload::None
    };
    let skip_metadata = opts.has("skip-record-metadata");
    let max_bytes = opts
        .int("max-bytes")
        .map(|v| v.max(0) as usize)
        .unwrap_or(i32::MAX as usize);
    let mut out = String::new();
    let mut err = String::new();
    for file in files.split(',') {
        out.push_str(&format!("Dumping {file}\n"));
        let name = file.rsplit('/').next().unwrap_or(file);
        let Some(dot) = name.rfind('.') else {
            let m = format!("begin 0, end -1, length {}", name.len());
            return Err(java_exception("java.lang.StringIndexOutOfBoundsException", &m).after(out));
        };
        let base = name.split('.').next().unwrap_or("");
        match &name[dot..] {
            ".log" => {
                let Ok(start) = base.parse::<i64>() else {
                    let m = format!("For input string: \"{base}\"");
                    return Err(java_exception("java.lang.NumberFormatException", &m).after(out));
                };
                out.push_str(&format!("Log starting offset: {start}\n"));
                let batches =
                    segment(world, file).map_err(|e| e.after(std::mem::take(&mut out)))?;
                dump_log(&batches, payload, skip_metadata, max_bytes, &mut out);
            }
            ".index" | ".timeindex" => {
                let time = name.ends_with(".timeindex");
                let batches =
                    segment(world, file).map_err(|e| e.after(std::mem::take(&mut out)))?;
                dump_index(&batches, file, time, &mut out);
            }
            ".checkpoint" => {
                let snapshot =
                    checkpoint(world, file).map_err(|e| e.after(std::mem::take(&mut out)))?;
                out.push_str(&format!(
                    "Snapshot end offset: {}, epoch: {}\n",
                    snapshot.id.offset, snapshot.id.epoch
                ));
                dump_log(
                    &snapshot.batches,
                    payload,
                    skip_metadata,
                    max_bytes,
                    &mut out,
                );
            }
            _ => err.push_str(&format!("Ignoring unknown file {file}\n")),
        }
    }
    // Unknown files are only a warning on stderr; the exit code stays 0.
    super::shell::finish(out, err, 0)
}

/// The node and file name `file` (`<node>/__cluster_metadata-0/<name>`) points at, or the
/// tool's NoSuchFileException.
fn metadata_file<'a>(
    world: &'a World,
    file: &str,
) -> Result<(&'a crate::sim::node::Node, String), ToolError> {
    let missing = || java_exception("java.nio.file.NoSuchFileException", file);
    let (id, rel) = split_node_path(file).ok_or_else(missing)?;
    let node = world.node(id).ok_or_else(missing)?;
    match rel.rsplit_once('/') {
        Some((METADATA_DIR, name)) => Ok((node, name.to_string())),
        _ => Err(missing()),
    }
}

/// The batches of the segment `file` names: `<node>/__cluster_metadata-0/<base>.<ext>` or a
/// broker's data partition, `<node>/orders-0/<base>.<ext>` (its batches carry the producer's
/// records, printed with the same batch and record lines).
fn segment(world: &World, file: &str) -> Result<Vec<Arc<RecordBatch>>, ToolError> {
    let missing = || java_exception("java.nio.file.NoSuchFileException", file);
    let (id, rel) = split_node_path(file).ok_or_else(missing)?;
    let node = world.node(id).ok_or_else(missing)?;
    let (dir, name) = rel.rsplit_once('/').ok_or_else(missing)?;
    let log = match dir {
        METADATA_DIR => &node.disk.metadata_log,
        _ => node.disk.data_logs.get(dir).ok_or_else(missing)?,
    };
    if !node.disk.list(dir).iter().any(|n| n == name) {
        return Err(missing());
    }
    let base: i64 = name
        .split('.')
        .next()
        .and_then(|b| b.parse().ok())
        .ok_or_else(missing)?;
    log.segment_batches(base).ok_or_else(missing)
}

/// The snapshot `file` names (`<node>/__cluster_metadata-0/<offset>-<epoch>.checkpoint`).
fn checkpoint(
    world: &World,
    file: &str,
) -> Result<Arc<crate::raft::snapshot::RawSnapshot>, ToolError> {
    let missing = || java_exception("java.nio.file.NoSuchFileException", file);
    let (node, name) = metadata_file(world, file)?;
    let snapshot_id = crate::raft::snapshot::parse_snapshot_name(&name).ok_or_else(missing)?;
    node.disk
        .metadata_log
        .read_snapshot(snapshot_id)
        .cloned()
        .ok_or_else(missing)
}

fn dump_log(
    batches: &[Arc<RecordBatch>],
    payload: Payload,
    skip_metadata: bool,
    max_bytes: usize,
    out: &mut String,
) {
    for (pos, batch, enc) in encoded(batches) {
        if pos + enc.size_in_bytes() > max_bytes {
            break;
        }
        out.push_str(&batch_line(&batch, &enc, pos));
        out.push('\n');
        if payload == Payload::None {
            continue;
        }
        for (r, er) in batch.records.iter().zip(&enc.records) {
            if !skip_metadata {
                out.push_str(&format!(
                    "| offset: {} CreateTime: {} keySize: {} valueSize: {} sequence: -1 headerKeys: []",
                    er.offset, er.timestamp, er.key_size, er.value_size
                ));
                if batch.is_control {
                    out.push_str(&r.dump_suffix());
                }
            }
            if payload != Payload::Metadata && !batch.is_control {
                let prefix = if skip_metadata { "| " } else { " " };
                let text = match (payload, r) {
                    (Payload::ClusterMetadata, crate::raft::batch::Record::Metadata(m)) => {
                        m.to_json()
                    }
                    _ => {
                        let (_, value) = super::record_batch::key_and_value(r);
                        String::from_utf8_lossy(&value).into_owned()
                    }
                };
                out.push_str(&format!("{prefix}payload: {text}"));
            }
            out.push('\n');
        }
    }
}

/// `.index` (`offset: O position: P`) or `.timeindex` (`timestamp: T offset: O`) entries, one
/// every [`INDEX_INTERVAL_BYTES`] as `LogSegment.append` adds them (one append per batch).
fn dump_index(batches: &[Arc<RecordBatch>], file: &str, time: bool, out: &mut String) {
    let mut since = 0usize;
    let mut entries = Vec::new();
    let mut max_ts = 0u64;
    let mut max_ts_offset = 0i64;
    for (pos, batch, enc) in encoded(batches) {
        if enc.max_timestamp >= max_ts {
            max_ts = enc.max_timestamp;
            max_ts_offset = batch.last_offset();
        }
        if since > INDEX_INTERVAL_BYTES {
            entries.push((batch.last_offset(), pos, max_ts, max_ts_offset));
            since = 0;
        }
        since += enc.size_in_bytes();
    }
    if entries.is_empty() && !time {
        out.push_str(&format!("{file} is empty.\n"));
        return;
    }
    for (offset, pos, ts, ts_offset) in entries {
        if time {
            out.push_str(&format!("timestamp: {ts} offset: {ts_offset}\n"));
        } else {
            out.push_str(&format!("offset: {offset} position: {pos}\n"));
        }
    }
}
