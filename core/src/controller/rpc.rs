//! Controller RPCs: ControllerRegistration, CreateTopics, DeleteTopics (and, with the broker
//! lifecycle, BrokerRegistration and BrokerHeartbeat).

use crate::raft::messages::Errors;
use crate::sim::uuid::Uuid;

/// One topic of a CreateTopics request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreatableTopic {
    /// name
    pub name: String,
    /// numPartitions (-1: the broker default).
    pub num_partitions: i32,
    /// replicationFactor (-1: the broker default).
    pub replication_factor: i16,
    /// Topic configs.
    pub configs: Vec<(String, String)>,
}

/// A controller request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ControllerRequest {
    /// ControllerRegistrationRequest from a controller's ControllerRegistrationManager.
    ControllerRegistration {
        /// controllerId
        controller_id: i32,
        /// incarnationId
        incarnation_id: Uuid,
        /// The CONTROLLER listener port.
        port: u16,
    },
    /// CreateTopicsRequest.
    CreateTopics {
        /// topics
        topics: Vec<CreatableTopic>,
    },
    /// DeleteTopicsRequest.
    DeleteTopics {
        /// topic names
        names: Vec<String>,
    },
}

impl ControllerRequest {
    /// Kafka's API name.
    pub fn api_name(&self) -> &'static str {
        match self {
            ControllerRequest::ControllerRegistration { .. } => "ControllerRegistration",
            ControllerRequest::CreateTopics { .. } => "CreateTopics",
            ControllerRequest::DeleteTopics { .. } => "DeleteTopics",
        }
    }
}

/// The result for one topic of CreateTopics / DeleteTopics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicResult {
    /// name
    pub name: String,
    /// topicId (ZERO on error)
    pub topic_id: Uuid,
    /// errorCode and errorMessage
    pub error: Option<(ApiError, String)>,
}

/// Errors a controller returns to clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// NOT_CONTROLLER: the receiver is not the active controller (or lost the leadership).
    NotController,
    /// TOPIC_ALREADY_EXISTS
    TopicAlreadyExists,
    /// INVALID_TOPIC_EXCEPTION
    InvalidTopic,
    /// INVALID_PARTITIONS
    InvalidPartitions,
    /// INVALID_REPLICATION_FACTOR
    InvalidReplicationFactor,
    /// UNKNOWN_TOPIC_OR_PARTITION
    UnknownTopicOrPartition,
    /// INVALID_CONFIG
    InvalidConfig,
    /// REQUEST_TIMED_OUT
    RequestTimedOut,
}

impl ApiError {
    /// Kafka's error name.
    pub fn name(&self) -> &'static str {
        match self {
            ApiError::NotController => "NOT_CONTROLLER",
            ApiError::TopicAlreadyExists => "TOPIC_ALREADY_EXISTS",
            ApiError::InvalidTopic => "INVALID_TOPIC_EXCEPTION",
            ApiError::InvalidPartitions => "INVALID_PARTITIONS",
            ApiError::InvalidReplicationFactor => "INVALID_REPLICATION_FACTOR",
            ApiError::UnknownTopicOrPartition => "UNKNOWN_TOPIC_OR_PARTITION",
            ApiError::InvalidConfig => "INVALID_CONFIG",
            ApiError::RequestTimedOut => "REQUEST_TIMED_OUT",
        }
    }

    /// The Java exception class a tool prints.
    pub fn exception(&self) -> &'static str {
        match self {
            ApiError::NotController => "org.apache.kafka.common.errors.NotControllerException",
            ApiError::TopicAlreadyExists => "org.apache.kafka.common.errors.TopicExistsException",
            ApiError::InvalidTopic => "org.apache.kafka.common.errors.InvalidTopicException",
            ApiError::InvalidPartitions => {
                "org.apache.kafka.common.errors.InvalidPartitionsException"
            }
            ApiError::InvalidReplicationFactor => {
                "org.apache.kafka.common.errors.InvalidReplicationFactorException"
            }
            ApiError::UnknownTopicOrPartition => {
                "org.apache.kafka.common.errors.UnknownTopicOrPartitionException"
            }
            ApiError::InvalidConfig => {
                "org.apache.kafka.common.errors.InvalidConfigurationException"
            }
            ApiError::RequestTimedOut => "org.apache.kafka.common.errors.TimeoutException",
        }
    }
}

/// A controller response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ControllerResponse {
    /// ControllerRegistrationResponse.
    ControllerRegistration {
        /// errorCode
        error: Option<ApiError>,
    },
    /// CreateTopicsResponse.
    CreateTopics {
        /// Per topic.
        topics: Vec<TopicResult>,
        /// A request-level error (NOT_CONTROLLER).
        error: Option<ApiError>,
    },
    /// DeleteTopicsResponse.
    DeleteTopics {
        /// Per topic.
        topics: Vec<TopicResult>,
        /// A request-level error (NOT_CONTROLLER).
        error: Option<ApiError>,
    },
    /// Synthesized by the sender's network client: connection refused, reset or timed out.
    Failed {
        /// The API of the lost request.
        api: &'static str,
        /// BROKER_NOT_AVAILABLE or REQUEST_TIMED_OUT.
        error: Errors,
    },
}

impl ControllerResponse {
    /// The API name.
    pub fn api_name(&self) -> &'static str {
        match self {
            ControllerResponse::ControllerRegistration { .. } => "ControllerRegistration",
            ControllerResponse::CreateTopics { .. } => "CreateTopics",
            ControllerResponse::DeleteTopics { .. } => "DeleteTopics",
            ControllerResponse::Failed { api, .. } => api,
        }
    }
}

/// A controller RPC on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ControllerMessage {
    /// A request.
    Request {
        /// correlationId
        correlation_id: u64,
        /// The request.
        body: ControllerRequest,
    },
    /// A response.
    Response {
        /// correlationId of the request answered.
        correlation_id: u64,
        /// The response.
        body: ControllerResponse,
    },
}

impl ControllerMessage {
    /// Label for views.
    pub fn kind(&self) -> String {
        match self {
            ControllerMessage::Request { body, .. } => format!("{}Request", body.api_name()),
            ControllerMessage::Response { body, .. } => match body {
                ControllerResponse::Failed { api, .. } => format!("{api}Failed"),
                other => format!("{}Response", other.api_name()),
            },
        }
    }

    /// Summary for views.
    pub fn summary(&self) -> String {
        match self {
            ControllerMessage::Request { body, .. } => match body {
                ControllerRequest::ControllerRegistration { controller_id, .. } => {
                    format!("controllerId={controller_id}")
                }
                ControllerRequest::CreateTopics { topics } => format!(
                    "topics={:?}",
                    topics.iter().map(|t| t.name.as_str()).collect::<Vec<_>>()
                ),
                ControllerRequest::DeleteTopics { names } => format!("topics={names:?}"),
            },
            ControllerMessage::Response { body, .. } => match body {
                ControllerResponse::ControllerRegistration { error } => {
                    format!("error={}", error.map(|e| e.name()).unwrap_or("NONE"))
                }
                ControllerResponse::CreateTopics { topics, error }
                | ControllerResponse::DeleteTopics { topics, error } => match error {
                    Some(e) => format!("error={}", e.name()),
                    None => topics
                        .iter()
                        .map(|t| {
                            format!(
                                "{}={}",
                                t.name,
                                t.error.as_ref().map(|e| e.0.name()).unwrap_or("NONE")
                            )
                        })
                        .collect::<Vec<_>>()
                        .join(" "),
                },
                ControllerResponse::Failed { error, .. } => error.name().to_string(),
            },
        }
    }
}
