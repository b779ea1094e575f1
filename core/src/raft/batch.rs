//! Record batches: of the metadata log (`__cluster_metadata-0`), metadata and control, and of
//! the data partitions' logs (`orders-0`), the records producers write.

use crate::common::uuid::Uuid;
use crate::metadata::MetadataRecord;

/// A voter as the KRaftVoters control record lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VoterEntry {
    /// voterId
    pub voter_id: i32,
    /// voterDirectoryId
    pub voter_directory_id: Uuid,
    /// The CONTROLLER listener's port on localhost.
    pub port: u16,
}

/// One record in a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record {
    /// LeaderChangeMessage: written first in every leader epoch.
    LeaderChange {
        /// leaderId
        leader_id: i32,
        /// voters
        voters: Vec<i32>,
        /// grantingVoters
        granting_voters: Vec<i32>,
    },
    /// KRaftVersionRecord.
    KRaftVersion {
        /// kRaftVersion
        kraft_version: u16,
    },
    /// VotersRecord (printed as KRaftVoters).
    KRaftVoters {
        /// voters
        voters: Vec<VoterEntry>,
    },
    /// SnapshotHeaderRecord: the first record of a snapshot.
    SnapshotHeader {
        /// lastContainedLogTimestamp, virtual ms.
        last_contained_log_timestamp: u64,
    },
    /// SnapshotFooterRecord: the last record of a snapshot.
    SnapshotFooter,
    /// A metadata record written by the active controller.
    Metadata(MetadataRecord),
    /// A record of a data partition, as a producer sent it (DefaultRecord: key and value).
    Data(DataRecord),
}

/// A data partition's record: its key and value, as text (the console producer's lines).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataRecord {
    /// key (`None`: null, keySize -1)
    pub key: Option<String>,
    /// value
    pub value: String,
}

/// The idempotent producer's fields of a batch (producerId, producerEpoch, baseSequence);
/// -1 for batches no idempotent producer wrote (the metadata log's, KafkaRaftClient's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProducerStamp {
    /// producerId
    pub producer_id: i64,
    /// producerEpoch
    pub producer_epoch: i16,
    /// baseSequence
    pub base_sequence: i32,
}

impl ProducerStamp {
    /// No producer: every field -1 (RecordBatch.NO_PRODUCER_ID, NO_PRODUCER_EPOCH,
    /// NO_SEQUENCE).
    pub const NONE: ProducerStamp = ProducerStamp {
        producer_id: -1,
        producer_epoch: -1,
        base_sequence: -1,
    };
}

impl Default for ProducerStamp {
    fn default() -> Self {
        ProducerStamp::NONE
    }
}

impl Record {
    /// True for control records (LeaderChange, KRaftVersion, KRaftVoters).
    pub fn is_control(&self) -> bool {
        !matches!(self, Record::Metadata(_) | Record::Data(_))
    }

    /// Short name for views: `LeaderChange`, `KRaftVersion`, `KRaftVoters` or the metadata type.
    pub fn short_name(&self) -> &'static str {
        match self {
            Record::LeaderChange { .. } => "LeaderChange",
            Record::KRaftVersion { .. } => "KRaftVersion",
            Record::KRaftVoters { .. } => "KRaftVoters",
            Record::SnapshotHeader { .. } => "SnapshotHeader",
            Record::SnapshotFooter => "SnapshotFooter",
            Record::Metadata(m) => m.type_name(),
            Record::Data(_) => "Record",
        }
    }

    /// What kafka-dump-log prints after `headerKeys: []` for this record: ` LeaderChange: {...}`
    /// for control records, ` payload: {...}` for metadata records.
    pub fn dump_suffix(&self) -> String {
        match self {
            Record::LeaderChange {
                leader_id,
                voters,
                granting_voters,
            } => {
                let list = |ids: &[i32]| {
                    ids.iter()
                        .map(|id| format!("{{\"voterId\":{id}}}"))
                        .collect::<Vec<_>>()
                        .join(",")
                };
                format!(
                    " LeaderChange: {{\"version\":0,\"leaderId\":{leader_id},\"voters\":[{}],\"grantingVoters\":[{}]}}",
                    list(voters),
                    list(granting_voters)
                )
            }
            Record::KRaftVersion { kraft_version } => {
                format!(" KRaftVersion {{\"version\":0,\"kRaftVersion\":{kraft_version}}}")
            }
            Record::KRaftVoters { voters } => {
                let list: Vec<String> = voters
                    .iter()
                    .map(|v| {
                        format!(
                            "{{\"voterId\":{},\"voterDirectoryId\":\"{}\",\"endpoints\":[{{\"name\":\"CONTROLLER\",\"host\":\"localhost\",\"port\":{}}}],\"kRaftVersionFeature\":{{\"minSupportedVersion\":0,\"maxSupportedVersion\":1}}}}",
                            v.voter_id, v.voter_directory_id, v.port
                        )
                    })
                    .collect();
                format!(
                    " KRaftVoters {{\"version\":0,\"voters\":[{}]}}",
                    list.join(",")
                )
            }
            Record::SnapshotHeader {
                last_contained_log_timestamp,
            } => format!(
                " SnapshotHeader {{\"version\":0,\"lastContainedLogTimestamp\":{}}}",
                crate::common::clock::to_epoch_ms(*last_contained_log_timestamp)
            ),
            Record::SnapshotFooter => " SnapshotFooter {\"version\":0}".to_string(),
            Record::Metadata(m) => format!(" payload: {}", m.to_json()),
            Record::Data(d) => format!(" payload: {}", d.value),
        }
    }

    /// Serialized value size in bytes (an estimate close to Kafka's encoding).
    pub fn value_size(&self) -> usize {
        match self {
            Record::LeaderChange {
                voters,
                granting_voters,
                ..
            } => 4 + 4 + 4 * (voters.len() + granting_voters.len()) + 4,
            Record::KRaftVersion { .. } => 5,
            Record::KRaftVoters { voters } => 3 + voters.len() * 45,
            Record::SnapshotHeader { .. } => 11,
            Record::SnapshotFooter => 3,
            Record::Metadata(m) => m.value_size(),
            Record::Data(d) => d.value.len(),
        }
    }
}

/// A record batch (magic v2) as the metadata log stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordBatch {
    /// baseOffset
    pub base_offset: i64,
    /// partitionLeaderEpoch: the epoch of the leader that wrote the batch.
    pub partition_leader_epoch: i32,
    /// isControl
    pub is_control: bool,
    /// CreateTime, in virtual ms.
    pub create_time_ms: u64,
    /// The records, at offsets base_offset, base_offset + 1, ...
    pub records: Vec<Record>,
    /// The idempotent producer's fields ([`ProducerStamp::NONE`] in the metadata log).
    pub producer: ProducerStamp,
}

/// Bytes of a v2 batch header (61) and of the per-record framing (about 7).
const BATCH_OVERHEAD: usize = 61;
const RECORD_OVERHEAD: usize = 7;

impl RecordBatch {
    /// A batch as a producer builds it before the leader appends it: base offset 0, no
    /// partition leader epoch yet (the leader stamps both, UnifiedLog.append), not control.
    pub fn from_producer(
        records: Vec<Record>,
        create_time_ms: u64,
        producer: ProducerStamp,
    ) -> std::sync::Arc<RecordBatch> {
        std::sync::Arc::new(RecordBatch {
            base_offset: 0,
            partition_leader_epoch: -1,
            is_control: false,
            create_time_ms,
            records,
            producer,
        })
    }

    /// lastOffset
    pub fn last_offset(&self) -> i64 {
        self.base_offset + self.records.len() as i64 - 1
    }

    /// The offset after the batch.
    pub fn next_offset(&self) -> i64 {
        self.base_offset + self.records.len() as i64
    }

    /// Size in bytes of the batch on disk.
    pub fn size_in_bytes(&self) -> usize {
        BATCH_OVERHEAD
            + self
                .records
                .iter()
                .map(|r| RECORD_OVERHEAD + r.value_size())
                .sum::<usize>()
    }
}
