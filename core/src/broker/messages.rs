//! The data plane's RPCs between clients and brokers and between brokers, as Kafka's generated
//! message classes have them (clients/src/main/resources/common/message/): Produce (apiKey 0),
//! Fetch (1: a follower broker's `ReplicaFetch` or a consumer's `ConsumerFetch`), ListOffsets
//! (2) and Metadata (3). They carry the data logs' record batches, so they live above `raft/`,
//! beside the ReplicaManager that answers them.

use std::sync::Arc;

use crate::common::api_keys::{ApiKeys, MessageKind};
use crate::common::message::fields::MessageFields;
use crate::common::message::replica::TopicPartition;
use crate::common::offset_and_epoch::OffsetAndEpoch;
use crate::common::protocol::Errors;
use crate::common::uuid::Uuid;
use crate::raft::batch::RecordBatch;

/// `replicaId` of a consumer's Fetch (FetchRequest.CONSUMER_REPLICA_ID).
pub const CONSUMER_REPLICA_ID: i32 = -1;

/// A data-plane message: a request or its response, by correlation id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataMessage {
    /// A request.
    Request {
        /// correlationId
        correlation_id: u64,
        /// The request.
        body: DataRequest,
    },
    /// A response.
    Response {
        /// correlationId of the request.
        correlation_id: u64,
        /// The response.
        body: DataResponse,
    },
}

/// A data-plane request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataRequest {
    /// ProduceRequest: one batch for one partition.
    Produce(ProduceRequest),
    /// FetchRequest: a follower's (`replicaId` >= 0) or a consumer's.
    Fetch(FetchRequest),
    /// ListOffsetsRequest: the earliest (-2) or latest (-1) offset of a partition.
    ListOffsets(ListOffsetsRequest),
    /// MetadataRequest: the brokers and the topics' partition leaders, from the broker's
    /// MetadataCache (its MetadataImage).
    Metadata(MetadataRequest),
    /// An admin request only the controller answers (CreateTopics, DeleteTopics,
    /// IncrementalAlterConfigs), which the broker forwards (ForwardingManager).
    Admin(crate::common::message::controller::ControllerRequest),
}

/// A data-plane response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataResponse {
    /// ProduceResponse.
    Produce(ProduceResponse),
    /// FetchResponse.
    Fetch(FetchResponse),
    /// ListOffsetsResponse.
    ListOffsets(ListOffsetsResponse),
    /// MetadataResponse.
    Metadata(MetadataResponse),
    /// The controller's answer to a forwarded admin request (or REQUEST_TIMED_OUT).
    Admin(crate::common::message::controller::ControllerResponse),
    /// The sender's network client made this up: the broker did not answer (refused or reset
    /// connection).
    Failed {
        /// The request's API.
        api: ApiKeys,
        /// The error the client sees.
        error: Errors,
    },
}

/// ProduceRequest (ProduceRequest.json), for one partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProduceRequest {
    /// acks: 0, 1 or -1 (all).
    pub acks: i16,
    /// timeoutMs: how long the leader waits for the ISR (acks=all).
    pub timeout_ms: u64,
    /// The partition.
    pub partition: TopicPartition,
    /// The topic's name (for log lines and errors).
    pub topic: String,
    /// The batch, its offsets assigned by the leader on append.
    pub batch: Arc<RecordBatch>,
}

/// ProduceResponse (ProduceResponse.json), for one partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProduceResponse {
    /// The partition.
    pub partition: TopicPartition,
    /// errorCode
    pub error: Errors,
    /// errorMessage
    pub error_message: Option<String>,
    /// baseOffset: where the batch was appended (-1 on error).
    pub base_offset: i64,
}

/// One partition of a FetchRequest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FetchPartition {
    /// The partition.
    pub partition: TopicPartition,
    /// currentLeaderEpoch (-1: not checked).
    pub current_leader_epoch: i32,
    /// fetchOffset
    pub fetch_offset: i64,
    /// lastFetchedEpoch (-1: none).
    pub last_fetched_epoch: i32,
}

/// FetchRequest (FetchRequest.json).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchRequest {
    /// replicaId: the follower broker's id, or [`CONSUMER_REPLICA_ID`].
    pub replica_id: i32,
    /// The follower's broker epoch (replicaState.replicaEpoch, -1 for consumers).
    pub replica_epoch: i64,
    /// maxWaitMs: how long the leader may hold the request when it has no data.
    pub max_wait_ms: u64,
    /// The partitions.
    pub partitions: Vec<FetchPartition>,
}

/// One partition of a FetchResponse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchedPartition {
    /// The partition.
    pub partition: TopicPartition,
    /// errorCode
    pub error: Errors,
    /// highWatermark
    pub high_watermark: i64,
    /// logStartOffset
    pub log_start_offset: i64,
    /// divergingEpoch: the follower's log diverges from the leader's at this (end offset,
    /// epoch); it truncates there.
    pub diverging_epoch: Option<OffsetAndEpoch>,
    /// records
    pub records: Vec<Arc<RecordBatch>>,
}

/// FetchResponse (FetchResponse.json).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchResponse {
    /// The request's replicaId (not on the wire: it tells views a follower's fetch from a
    /// consumer's).
    pub replica_id: i32,
    /// The partitions.
    pub partitions: Vec<FetchedPartition>,
}

/// ListOffsetsRequest (ListOffsetsRequest.json), for one partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListOffsetsRequest {
    /// The partition.
    pub partition: TopicPartition,
    /// timestamp: -1 latest (the HW for a consumer), -2 earliest.
    pub timestamp: i64,
}

/// ListOffsetsResponse, for one partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListOffsetsResponse {
    /// The partition.
    pub partition: TopicPartition,
    /// errorCode
    pub error: Errors,
    /// offset
    pub offset: i64,
    /// leaderEpoch
    pub leader_epoch: i32,
}

/// MetadataRequest: the named topics (every topic when `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetadataRequest {
    /// topics
    pub topics: Option<Vec<String>>,
}

/// A broker in a MetadataResponse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetadataBroker {
    /// nodeId
    pub node_id: i32,
    /// port (host localhost)
    pub port: u16,
}

/// A partition in a MetadataResponse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetadataPartition {
    /// partitionIndex
    pub index: i32,
    /// errorCode (LEADER_NOT_AVAILABLE without a leader)
    pub error: Errors,
    /// leaderId (-1: none)
    pub leader: i32,
    /// leaderEpoch
    pub leader_epoch: i32,
    /// replicaNodes
    pub replicas: Vec<i32>,
    /// isrNodes
    pub isr: Vec<i32>,
}

/// A topic in a MetadataResponse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetadataTopic {
    /// name
    pub name: String,
    /// topicId
    pub id: Uuid,
    /// errorCode (UNKNOWN_TOPIC_OR_PARTITION for a topic the broker does not know)
    pub error: Errors,
    /// partitions
    pub partitions: Vec<MetadataPartition>,
}

/// MetadataResponse (MetadataResponse.json).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetadataResponse {
    /// brokers: the unfenced ones in the broker's image.
    pub brokers: Vec<MetadataBroker>,
    /// controllerId: in KRaft a random alive broker, to which admin requests go and are
    /// forwarded to the active controller.
    pub controller_id: i32,
    /// topics
    pub topics: Vec<MetadataTopic>,
}

impl DataRequest {
    /// Its API: a Fetch is `ReplicaFetch` from a broker, `ConsumerFetch` from a consumer.
    pub fn api(&self) -> ApiKeys {
        match self {
            DataRequest::Produce(_) => ApiKeys::Produce,
            DataRequest::Fetch(f) if f.replica_id >= 0 => ApiKeys::ReplicaFetch,
            DataRequest::Fetch(_) => ApiKeys::ConsumerFetch,
            DataRequest::ListOffsets(_) => ApiKeys::ListOffsets,
            DataRequest::Metadata(_) => ApiKeys::Metadata,
            DataRequest::Admin(r) => r.api(),
        }
    }
}

impl DataResponse {
    /// Its API (a fetch response `ReplicaFetch` for a follower, `ConsumerFetch` for a
    /// consumer).
    pub fn api(&self) -> ApiKeys {
        match self {
            DataResponse::Produce(_) => ApiKeys::Produce,
            DataResponse::Fetch(f) if f.replica_id >= 0 => ApiKeys::ReplicaFetch,
            DataResponse::Fetch(_) => ApiKeys::ConsumerFetch,
            DataResponse::ListOffsets(_) => ApiKeys::ListOffsets,
            DataResponse::Metadata(_) => ApiKeys::Metadata,
            DataResponse::Admin(r) => r.api(),
            DataResponse::Failed { api, .. } => *api,
        }
    }
}

impl DataMessage {
    /// Its kind for views.
    pub fn kind(&self) -> MessageKind {
        match self {
            DataMessage::Request { body, .. } => MessageKind::request(body.api()),
            DataMessage::Response {
                body: DataResponse::Failed { api, .. },
                ..
            } => MessageKind::failed(*api),
            DataMessage::Response { body, .. } => MessageKind::response(body.api()),
        }
    }

    /// The typed fields a view reads.
    pub fn fields(&self) -> MessageFields {
        let mut f = MessageFields::default();
        match self {
            DataMessage::Request { body, .. } => match body {
                DataRequest::Fetch(r) => {
                    f.replica_id = Some(r.replica_id);
                    if let Some(p) = r.partitions.first() {
                        f.offset = Some(p.fetch_offset);
                        f.offset_epoch = Some(p.last_fetched_epoch);
                        f.epoch = Some(p.current_leader_epoch);
                    }
                }
                DataRequest::Produce(r) => {
                    f.records = Some(r.batch.records.len() as u32);
                }
                DataRequest::ListOffsets(_) | DataRequest::Metadata(_) | DataRequest::Admin(_) => {}
            },
            DataMessage::Response { body, .. } => match body {
                DataResponse::Fetch(r) => {
                    if let Some(p) = r.partitions.first() {
                        f.error = Some(p.error.name());
                        f.high_watermark = Some(p.high_watermark);
                        f.records = Some(p.records.iter().map(|b| b.records.len() as u32).sum());
                    }
                }
                DataResponse::Produce(r) => {
                    f.error = Some(r.error.name());
                    f.offset = Some(r.base_offset);
                }
                DataResponse::ListOffsets(r) => {
                    f.error = Some(r.error.name());
                    f.offset = Some(r.offset);
                }
                DataResponse::Metadata(_) | DataResponse::Admin(_) => {}
                DataResponse::Failed { error, .. } => f.error = Some(error.name()),
            },
        }
        f
    }

    /// One line for views.
    pub fn summary(&self) -> String {
        match self {
            DataMessage::Request { body, .. } => match body {
                DataRequest::Produce(r) => format!(
                    "{}-{} acks={} records={}",
                    r.topic,
                    r.partition.1,
                    if r.acks == -1 {
                        "all".to_string()
                    } else {
                        r.acks.to_string()
                    },
                    r.batch.records.len()
                ),
                DataRequest::Fetch(r) => r
                    .partitions
                    .iter()
                    .map(|p| {
                        format!(
                            "fetchOffset={} lastFetchedEpoch={}",
                            p.fetch_offset, p.last_fetched_epoch
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
                DataRequest::ListOffsets(r) => format!("timestamp={}", r.timestamp),
                DataRequest::Metadata(_) => String::new(),
                DataRequest::Admin(r) => r.summary(),
            },
            DataMessage::Response { body, .. } => match body {
                DataResponse::Produce(r) => {
                    format!("{} baseOffset={}", r.error.name(), r.base_offset)
                }
                DataResponse::Fetch(r) => r
                    .partitions
                    .iter()
                    .map(|p| {
                        format!(
                            "{} highWatermark={} records={}",
                            p.error.name(),
                            p.high_watermark,
                            p.records.iter().map(|b| b.records.len()).sum::<usize>()
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
                DataResponse::ListOffsets(r) => format!("{} offset={}", r.error.name(), r.offset),
                DataResponse::Metadata(r) => {
                    format!("brokers={} topics={}", r.brokers.len(), r.topics.len())
                }
                DataResponse::Admin(r) => r.summary(),
                DataResponse::Failed { error, .. } => error.name().to_string(),
            },
        }
    }

    /// The response the sender's network client makes up for this request when the broker
    /// does not answer.
    pub fn failure_response(&self, error: Errors) -> Option<DataMessage> {
        match self {
            DataMessage::Request {
                correlation_id,
                body,
            } => Some(DataMessage::Response {
                correlation_id: *correlation_id,
                body: DataResponse::Failed {
                    api: body.api(),
                    error,
                },
            }),
            DataMessage::Response { .. } => None,
        }
    }
}
