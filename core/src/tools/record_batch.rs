//! Kafka's record batch format v2 (`DefaultRecordBatch` / `DefaultRecord`), byte for byte, so
//! kafka-dump-log can print real `size:`, `position:` and `crc:` values.
//!
//! Batch header (61 bytes): baseOffset int64, batchLength int32, partitionLeaderEpoch int32,
//! magic int8 (2), crc uint32 (CRC-32C of everything after it), attributes int16 (0x20 for
//! control batches), lastOffsetDelta int32, baseTimestamp int64, maxTimestamp int64,
//! producerId int64 (-1), producerEpoch int16 (-1), baseSequence int32 (-1), record count int32.
//! Each record: varint length, attributes int8, varlong timestampDelta, varint offsetDelta,
//! varint key length (-1 = null) and key, varint value length and value, varint header count.
//!
//! ```
//! use kraft_core::tools::record_batch::crc32c;
//! assert_eq!(crc32c(b"123456789"), 0xE306_9283);
//! ```

use crate::common::clock::to_epoch_ms;
use crate::raft::batch::{Record, RecordBatch};

/// Size of the v2 batch header.
pub const BATCH_HEADER_SIZE: usize = 61;
/// The attributes bit of a control batch.
pub const CONTROL_FLAG: i16 = 0x20;
/// The offset of the crc field in the header; the crc covers the bytes after it.
const CRC_OFFSET: usize = 17;
const ATTRIBUTES_OFFSET: usize = 21;

/// ControlRecordType ids.
pub const LEADER_CHANGE: i16 = 2;
/// SNAPSHOT_HEADER
pub const SNAPSHOT_HEADER: i16 = 3;
/// SNAPSHOT_FOOTER
pub const SNAPSHOT_FOOTER: i16 = 4;
/// KRAFT_VERSION
pub const KRAFT_VERSION: i16 = 5;
/// KRAFT_VOTERS
pub const KRAFT_VOTERS: i16 = 6;

const fn crc32c_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0x82F6_3B78 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
}

static CRC32C_TABLE: [u32; 256] = crc32c_table();

/// CRC-32C (Castagnoli), as Kafka's `Crc32C`.
pub fn crc32c(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for b in bytes {
        crc = CRC32C_TABLE[((crc ^ *b as u32) & 0xff) as usize] ^ (crc >> 8);
    }
    !crc
}

/// Kafka's `ByteUtils.writeVarint`: zig-zag, then 7 bits a byte.
pub fn write_varint(out: &mut Vec<u8>, v: i32) {
    write_varlong(out, v as i64)
}

/// Kafka's `ByteUtils.writeVarlong`.
pub fn write_varlong(out: &mut Vec<u8>, v: i64) {
    let mut z = ((v << 1) ^ (v >> 63)) as u64;
    while z >= 0x80 {
        out.push((z as u8 & 0x7f) | 0x80);
        z >>= 7;
    }
    out.push(z as u8);
}

fn write_uvarint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn compact_len(out: &mut Vec<u8>, len: usize) {
    write_uvarint(out, len as u32 + 1);
}

fn compact_string(out: &mut Vec<u8>, s: &str) {
    compact_len(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

/// The 4-byte key of a control record: ControlRecordType version (0) and type.
pub fn control_key(record_type: i16) -> Vec<u8> {
    let mut k = Vec::with_capacity(4);
    k.extend_from_slice(&0i16.to_be_bytes());
    k.extend_from_slice(&record_type.to_be_bytes());
    k
}

/// The record's key (None for metadata records) and value, as Kafka serializes them.
pub fn key_and_value(record: &Record) -> (Option<Vec<u8>>, Vec<u8>) {
    match record {
        Record::Metadata(m) => (None, m.encode()),
        // A data record: the producer's key and value bytes (StringSerializer: UTF-8).
        Record::Data(d) => (
            d.key.as_ref().map(|k| k.as_bytes().to_vec()),
            d.value.as_bytes().to_vec(),
        ),
        Record::LeaderChange {
            leader_id,
            voters,
            granting_voters,
        } => {
            // LeaderChangeMessage v0 (flexible): Version, LeaderId, Voters, GrantingVoters.
            let mut v = Vec::new();
            v.extend_from_slice(&0i16.to_be_bytes());
            v.extend_from_slice(&leader_id.to_be_bytes());
            for list in [voters, granting_voters] {
                compact_len(&mut v, list.len());
                for id in list.iter() {
                    v.extend_from_slice(&id.to_be_bytes());
                    v.push(0); // tagged fields of Voter
                }
            }
            v.push(0);
            (Some(control_key(LEADER_CHANGE)), v)
        }
        Record::KRaftVersion { kraft_version } => {
            // KRaftVersionRecord v0: Version, KRaftVersion.
            let mut v = Vec::new();
            v.extend_from_slice(&0i16.to_be_bytes());
            v.extend_from_slice(&(*kraft_version as i16).to_be_bytes());
            v.push(0);
            (Some(control_key(KRAFT_VERSION)), v)
        }
        Record::KRaftVoters { voters } => {
            // VotersRecord v0: Version, Voters[VoterId, VoterDirectoryId, Endpoints[Name, Host,
            // Port uint16], KRaftVersionFeature{Min, Max}].
            let mut v = Vec::new();
            v.extend_from_slice(&0i16.to_be_bytes());
            compact_len(&mut v, voters.len());
            for voter in voters {
                v.extend_from_slice(&voter.voter_id.to_be_bytes());
                v.extend_from_slice(&voter.voter_directory_id.0);
                compact_len(&mut v, 1);
                compact_string(&mut v, "CONTROLLER");
                compact_string(&mut v, "localhost");
                v.extend_from_slice(&voter.port.to_be_bytes());
                v.push(0); // tagged fields of Endpoint
                v.extend_from_slice(&0i16.to_be_bytes());
                v.extend_from_slice(&1i16.to_be_bytes());
                v.push(0); // tagged fields of KRaftVersionFeature
                v.push(0); // tagged fields of Voter
            }
            v.push(0);
            (Some(control_key(KRAFT_VOTERS)), v)
        }
        Record::SnapshotHeader {
            last_contained_log_timestamp,
        } => {
            // SnapshotHeaderRecord v0: Version, LastContainedLogTimestamp.
            let mut v = Vec::new();
            v.extend_from_slice(&0i16.to_be_bytes());
            v.extend_from_slice(&(to_epoch_ms(*last_contained_log_timestamp) as i64).to_be_bytes());
            v.push(0);
            (Some(control_key(SNAPSHOT_HEADER)), v)
        }
        Record::SnapshotFooter => {
            // SnapshotFooterRecord v0: Version.
            let mut v = Vec::new();
            v.extend_from_slice(&0i16.to_be_bytes());
            v.push(0);
            (Some(control_key(SNAPSHOT_FOOTER)), v)
        }
    }
}

/// One record of an encoded batch, as kafka-dump-log reads it back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodedRecord {
    /// offset
    pub offset: i64,
    /// timestamp, epoch ms
    pub timestamp: u64,
    /// keySize (-1 for null)
    pub key_size: i32,
    /// valueSize
    pub value_size: i32,
    /// The record's bytes (its length varint included).
    pub size_in_bytes: usize,
}

/// A batch in its on-disk form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodedBatch {
    /// The bytes: header and records.
    pub bytes: Vec<u8>,
    /// The stored crc.
    pub crc: u32,
    /// The batch's timestamp (maxTimestamp), epoch ms.
    pub max_timestamp: u64,
    /// Per record.
    pub records: Vec<EncodedRecord>,
}

impl EncodedBatch {
    /// sizeInBytes
    pub fn size_in_bytes(&self) -> usize {
        self.bytes.len()
    }

    /// isValid: the stored crc matches the bytes.
    pub fn is_valid(&self) -> bool {
        self.bytes.len() >= BATCH_HEADER_SIZE
            && crc32c(&self.bytes[ATTRIBUTES_OFFSET..]) == self.crc
    }
}

/// Encode `batch` as Kafka's `MemoryRecordsBuilder` writes it (magic 2, no compression,
/// CreateTime, every record at the batch's create time).
pub fn encode_batch(batch: &RecordBatch) -> EncodedBatch {
    let ts = to_epoch_ms(batch.create_time_ms);
    let mut records_bytes = Vec::new();
    let mut records = Vec::with_capacity(batch.records.len());
    for (i, r) in batch.records.iter().enumerate() {
        let (key, value) = key_and_value(r);
        let mut body = Vec::new();
        body.push(0); // attributes
        write_varlong(&mut body, 0); // timestampDelta
        write_varint(&mut body, i as i32); // offsetDelta
        match &key {
            None => write_varint(&mut body, -1),
            Some(k) => {
                write_varint(&mut body, k.len() as i32);
                body.extend_from_slice(k);
            }
        }
        write_varint(&mut body, value.len() as i32);
        body.extend_from_slice(&value);
        write_varint(&mut body, 0); // headers
        let start = records_bytes.len();
        write_varint(&mut records_bytes, body.len() as i32);
        records_bytes.extend_from_slice(&body);
        records.push(EncodedRecord {
            offset: batch.base_offset + i as i64,
            timestamp: ts,
            key_size: key.as_ref().map(|k| k.len() as i32).unwrap_or(-1),
            value_size: value.len() as i32,
            size_in_bytes: records_bytes.len() - start,
        });
    }
    let total = BATCH_HEADER_SIZE + records_bytes.len();
    let mut b = Vec::with_capacity(total);
    b.extend_from_slice(&batch.base_offset.to_be_bytes());
    b.extend_from_slice(&((total - 12) as i32).to_be_bytes());
    b.extend_from_slice(&batch.partition_leader_epoch.to_be_bytes());
    b.push(2); // magic
    b.extend_from_slice(&0u32.to_be_bytes()); // crc, filled below
    let attributes: i16 = if batch.is_control { CONTROL_FLAG } else { 0 };
    b.extend_from_slice(&attributes.to_be_bytes());
    let last_delta = batch.records.len().saturating_sub(1) as i32;
    b.extend_from_slice(&last_delta.to_be_bytes());
    b.extend_from_slice(&(ts as i64).to_be_bytes()); // baseTimestamp
    b.extend_from_slice(&(ts as i64).to_be_bytes()); // maxTimestamp
    b.extend_from_slice(&batch.producer.producer_id.to_be_bytes()); // producerId
    b.extend_from_slice(&batch.producer.producer_epoch.to_be_bytes()); // producerEpoch
    b.extend_from_slice(&batch.producer.base_sequence.to_be_bytes()); // baseSequence
    b.extend_from_slice(&(batch.records.len() as i32).to_be_bytes());
    debug_assert_eq!(b.len(), BATCH_HEADER_SIZE);
    b.extend_from_slice(&records_bytes);
    let crc = crc32c(&b[ATTRIBUTES_OFFSET..]);
    b[CRC_OFFSET..CRC_OFFSET + 4].copy_from_slice(&crc.to_be_bytes());
    EncodedBatch {
        bytes: b,
        crc,
        max_timestamp: ts,
        records,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::MetadataRecord;

    #[test]
    fn varints_match_kafka() {
        let mut v = Vec::new();
        write_varint(&mut v, -1);
        assert_eq!(v, vec![1]);
        v.clear();
        write_varint(&mut v, 300);
        assert_eq!(v, vec![0xd8, 0x04]);
        v.clear();
        write_varint(&mut v, 0);
        assert_eq!(v, vec![0]);
    }

    #[test]
    fn a_noop_batch_has_kafkas_layout() {
        let b = RecordBatch {
            base_offset: 5,
            partition_leader_epoch: 1,
            is_control: false,
            create_time_ms: 0,
            records: vec![Record::Metadata(MetadataRecord::NoOp)],
            producer: crate::raft::batch::ProducerStamp::NONE,
        };
        let e = encode_batch(&b);
        // NoOpRecord value: frame 1, apiKey 20, version 0, tagged 0 = 4 bytes; the record is
        // length(1) + attributes(1) + ts(1) + offset(1) + key(1) + vlen(1) + 4 + headers(1).
        assert_eq!(e.records[0].value_size, 4);
        assert_eq!(e.records[0].size_in_bytes, 11);
        assert_eq!(e.size_in_bytes(), 72);
        assert!(e.is_valid());
        assert_eq!(&e.bytes[8..12], &60i32.to_be_bytes());
        assert_eq!(e.bytes[16], 2);
    }
}
