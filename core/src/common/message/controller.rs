//! Controller RPCs: ControllerRegistration, CreateTopics, DeleteTopics, IncrementalAlterConfigs
//! (and, with the broker lifecycle, BrokerRegistration and BrokerHeartbeat).

use super::fields::MessageFields;
use crate::common::api_keys::{ApiKeys, MessageKind};
use crate::common::protocol::Errors;
use crate::common::uuid::Uuid;

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

impl CreatableTopic {
    /// The generated `CreatableTopic.toString()`, as "CreateTopics result(s)" prints it:
    /// `CreatableTopic(name='orders', numPartitions=3, replicationFactor=3, assignments=[],
    /// configs=[CreatableTopicConfig(name='cleanup.policy', value='compact')])`.
    pub fn java_to_string(&self) -> String {
        let configs: Vec<String> = self
            .configs
            .iter()
            .map(|(k, v)| format!("CreatableTopicConfig(name='{k}', value='{v}')"))
            .collect();
        format!(
            "CreatableTopic(name='{}', numPartitions={}, replicationFactor={}, assignments=[], configs=[{}])",
            self.name,
            self.num_partitions,
            self.replication_factor,
            configs.join(", ")
        )
    }
}

/// `AlterConfigOp.OpType` of one config of an IncrementalAlterConfigs request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlterConfigOpType {
    /// SET (0): set the value.
    Set,
    /// DELETE (1): remove the key (back to the default).
    Delete,
    /// APPEND (2): add values to a LIST config.
    Append,
    /// SUBTRACT (3): remove values from a LIST config.
    Subtract,
}

impl AlterConfigOpType {
    /// Kafka's name (`SET`, `DELETE`, `APPEND`, `SUBTRACT`).
    pub fn name(&self) -> &'static str {
        match self {
            AlterConfigOpType::Set => "SET",
            AlterConfigOpType::Delete => "DELETE",
            AlterConfigOpType::Append => "APPEND",
            AlterConfigOpType::Subtract => "SUBTRACT",
        }
    }
}

/// One config change (`AlterableConfig`) of an IncrementalAlterConfigs resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlterableConfig {
    /// name: the configuration key.
    pub name: String,
    /// configOperation
    pub op: AlterConfigOpType,
    /// value (None for DELETE).
    pub value: Option<String>,
}

/// One resource (`AlterConfigsResource`) of an IncrementalAlterConfigs request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlterConfigsResource {
    /// resourceType: see the `RESOURCE_TYPE_*` constants of [`crate::common::config_resource`].
    pub resource_type: i8,
    /// resourceName: the topic name, a broker id, or "" for the cluster default.
    pub resource_name: String,
    /// configs, in the request's order.
    pub configs: Vec<AlterableConfig>,
}

/// The result for one resource of IncrementalAlterConfigs (`AlterConfigsResourceResponse`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlterConfigsResourceResponse {
    /// resourceType
    pub resource_type: i8,
    /// resourceName
    pub resource_name: String,
    /// errorCode and errorMessage (None: the change was applied).
    pub error: Option<(ApiError, String)>,
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
    /// IncrementalAlterConfigsRequest (as the broker forwards it to the active controller).
    IncrementalAlterConfigs {
        /// resources
        resources: Vec<AlterConfigsResource>,
        /// validateOnly: check, but write no records.
        validate_only: bool,
    },
    /// BrokerRegistrationRequest from a broker's BrokerLifecycleManager.
    BrokerRegistration {
        /// brokerId
        broker_id: i32,
        /// incarnationId
        incarnation_id: Uuid,
        /// The PLAINTEXT listener port.
        port: u16,
        /// logDirs
        log_dirs: Vec<Uuid>,
        /// previousBrokerEpoch: the broker epoch in the clean-shutdown file, -1 without one.
        previous_broker_epoch: i64,
    },
    /// AlterPartitionRequest from a partition leader: a new ISR.
    AlterPartition {
        /// brokerId (the leader)
        broker_id: i32,
        /// brokerEpoch
        broker_epoch: i64,
        /// topicId
        topic_id: Uuid,
        /// partitionIndex
        partition_id: i32,
        /// leaderEpoch
        leader_epoch: i32,
        /// partitionEpoch
        partition_epoch: i32,
        /// newIsr
        new_isr: Vec<i32>,
    },
    /// BrokerHeartbeatRequest.
    BrokerHeartbeat {
        /// brokerId
        broker_id: i32,
        /// brokerEpoch
        broker_epoch: i64,
        /// currentMetadataOffset: how far the broker's MetadataLoader has read.
        current_metadata_offset: i64,
        /// wantFence: not ready to be unfenced yet.
        want_fence: bool,
        /// wantShutDown: asking for a controlled shutdown.
        want_shut_down: bool,
        /// cordonedLogDirs (v2+, nullable): null until the broker has caught up, then the
        /// ids of its cordoned log directories.
        cordoned_log_dirs: Option<Vec<Uuid>>,
    },
}

impl ControllerRequest {
    /// The response a node that is not the active controller gives (NOT_CONTROLLER).
    pub fn not_controller_response(&self) -> ControllerResponse {
        self.error_response(ApiError::NotController)
    }

    /// The response to this request failed as a whole with `error`.
    pub fn error_response(&self, error: ApiError) -> ControllerResponse {
        let error = Some(error);
        match self {
            ControllerRequest::ControllerRegistration { .. } => {
                ControllerResponse::ControllerRegistration { error }
            }
            ControllerRequest::CreateTopics { .. } => ControllerResponse::CreateTopics {
                topics: Vec::new(),
                error,
            },
            ControllerRequest::DeleteTopics { .. } => ControllerResponse::DeleteTopics {
                topics: Vec::new(),
                error,
            },
            ControllerRequest::IncrementalAlterConfigs { .. } => {
                ControllerResponse::IncrementalAlterConfigs {
                    responses: Vec::new(),
                    error,
                }
            }
            ControllerRequest::BrokerRegistration { .. } => {
                ControllerResponse::BrokerRegistration {
                    error,
                    broker_epoch: -1,
                }
            }
            ControllerRequest::BrokerHeartbeat { .. } => ControllerResponse::BrokerHeartbeat {
                error,
                is_caught_up: false,
                is_fenced: true,
                should_shut_down: false,
            },
            ControllerRequest::AlterPartition { .. } => {
                ControllerResponse::AlterPartition { error, state: None }
            }
        }
    }

    /// The name of the controller write event that handles the request.
    pub fn write_event_name(&self) -> &'static str {
        match self {
            ControllerRequest::ControllerRegistration { .. } => "registerController",
            ControllerRequest::CreateTopics { .. } => "createTopics",
            ControllerRequest::DeleteTopics { .. } => "deleteTopics",
            ControllerRequest::IncrementalAlterConfigs { .. } => "incrementalAlterConfigs",
            ControllerRequest::BrokerRegistration { .. } => "registerBroker",
            ControllerRequest::BrokerHeartbeat { .. } => "processBrokerHeartbeat",
            ControllerRequest::AlterPartition { .. } => "alterPartition",
        }
    }

    /// The API.
    pub fn api(&self) -> ApiKeys {
        match self {
            ControllerRequest::ControllerRegistration { .. } => ApiKeys::ControllerRegistration,
            ControllerRequest::CreateTopics { .. } => ApiKeys::CreateTopics,
            ControllerRequest::DeleteTopics { .. } => ApiKeys::DeleteTopics,
            ControllerRequest::IncrementalAlterConfigs { .. } => ApiKeys::IncrementalAlterConfigs,
            ControllerRequest::BrokerRegistration { .. } => ApiKeys::BrokerRegistration,
            ControllerRequest::BrokerHeartbeat { .. } => ApiKeys::BrokerHeartbeat,
            ControllerRequest::AlterPartition { .. } => ApiKeys::AlterPartition,
        }
    }
}

/// A partition's state in an AlterPartitionResponse (AlterPartitionResponse.json's
/// PartitionData: leaderEpoch, isr, partitionEpoch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlterPartitionState {
    /// topicId
    pub topic_id: Uuid,
    /// partitionIndex
    pub partition_id: i32,
    /// leaderEpoch
    pub leader_epoch: i32,
    /// isr
    pub isr: Vec<i32>,
    /// partitionEpoch
    pub partition_epoch: i32,
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
    /// STALE_BROKER_EPOCH
    StaleBrokerEpoch,
    /// BROKER_ID_NOT_REGISTERED
    BrokerIdNotRegistered,
    /// DUPLICATE_BROKER_REGISTRATION
    DuplicateBrokerRegistration,
    /// FENCED_LEADER_EPOCH
    FencedLeaderEpoch,
    /// INVALID_UPDATE_VERSION
    InvalidUpdateVersion,
    /// INELIGIBLE_REPLICA
    IneligibleReplica,
    /// NOT_LEADER_OR_FOLLOWER
    NotLeaderOrFollower,
    /// INVALID_REQUEST
    InvalidRequest,
    /// POLICY_VIOLATION
    PolicyViolation,
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
            ApiError::StaleBrokerEpoch => "STALE_BROKER_EPOCH",
            ApiError::BrokerIdNotRegistered => "BROKER_ID_NOT_REGISTERED",
            ApiError::DuplicateBrokerRegistration => "DUPLICATE_BROKER_REGISTRATION",
            ApiError::FencedLeaderEpoch => "FENCED_LEADER_EPOCH",
            ApiError::InvalidUpdateVersion => "INVALID_UPDATE_VERSION",
            ApiError::IneligibleReplica => "INELIGIBLE_REPLICA",
            ApiError::NotLeaderOrFollower => "NOT_LEADER_OR_FOLLOWER",
            ApiError::InvalidRequest => "INVALID_REQUEST",
            ApiError::PolicyViolation => "POLICY_VIOLATION",
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
            ApiError::StaleBrokerEpoch => {
                "org.apache.kafka.common.errors.StaleBrokerEpochException"
            }
            ApiError::BrokerIdNotRegistered => {
                "org.apache.kafka.common.errors.BrokerIdNotRegisteredException"
            }
            ApiError::DuplicateBrokerRegistration => {
                "org.apache.kafka.common.errors.DuplicateBrokerRegistrationException"
            }
            ApiError::FencedLeaderEpoch => {
                "org.apache.kafka.common.errors.FencedLeaderEpochException"
            }
            ApiError::InvalidUpdateVersion => {
                "org.apache.kafka.common.errors.InvalidUpdateVersionException"
            }
            ApiError::IneligibleReplica => {
                "org.apache.kafka.common.errors.IneligibleReplicaException"
            }
            ApiError::NotLeaderOrFollower => {
                "org.apache.kafka.common.errors.NotLeaderOrFollowerException"
            }
            ApiError::InvalidRequest => "org.apache.kafka.common.errors.InvalidRequestException",
            ApiError::PolicyViolation => "org.apache.kafka.common.errors.PolicyViolationException",
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
    /// IncrementalAlterConfigsResponse.
    IncrementalAlterConfigs {
        /// Per resource.
        responses: Vec<AlterConfigsResourceResponse>,
        /// A request-level error (NOT_CONTROLLER).
        error: Option<ApiError>,
    },
    /// BrokerRegistrationResponse.
    BrokerRegistration {
        /// errorCode
        error: Option<ApiError>,
        /// brokerEpoch
        broker_epoch: i64,
    },
    /// BrokerHeartbeatResponse.
    BrokerHeartbeat {
        /// errorCode
        error: Option<ApiError>,
        /// isCaughtUp
        is_caught_up: bool,
        /// isFenced
        is_fenced: bool,
        /// shouldShutDown
        should_shut_down: bool,
    },
    /// AlterPartitionResponse.
    AlterPartition {
        /// errorCode
        error: Option<ApiError>,
        /// The partition as the change left it (leaderEpoch, isr, partitionEpoch), on
        /// success.
        state: Option<AlterPartitionState>,
    },
    /// Synthesized by the sender's network client: connection refused, reset or timed out.
    Failed {
        /// The API of the lost request.
        api: ApiKeys,
        /// BROKER_NOT_AVAILABLE or REQUEST_TIMED_OUT.
        error: Errors,
    },
}

impl ControllerResponse {
    /// The API.
    pub fn api(&self) -> ApiKeys {
        match self {
            ControllerResponse::ControllerRegistration { .. } => ApiKeys::ControllerRegistration,
            ControllerResponse::CreateTopics { .. } => ApiKeys::CreateTopics,
            ControllerResponse::DeleteTopics { .. } => ApiKeys::DeleteTopics,
            ControllerResponse::IncrementalAlterConfigs { .. } => ApiKeys::IncrementalAlterConfigs,
            ControllerResponse::BrokerRegistration { .. } => ApiKeys::BrokerRegistration,
            ControllerResponse::BrokerHeartbeat { .. } => ApiKeys::BrokerHeartbeat,
            ControllerResponse::AlterPartition { .. } => ApiKeys::AlterPartition,
            ControllerResponse::Failed { api, .. } => *api,
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
    /// Its kind for views: `BrokerHeartbeatRequest`, `CreateTopicsResponse`, ...
    pub fn kind(&self) -> MessageKind {
        match self {
            ControllerMessage::Request { body, .. } => MessageKind::request(body.api()),
            ControllerMessage::Response { body, .. } => match body {
                ControllerResponse::Failed { api, .. } => MessageKind::failed(*api),
                other => MessageKind::response(other.api()),
            },
        }
    }

    /// The fields a view reads, by the schemas' names (see [`MessageFields`]).
    pub fn fields(&self) -> MessageFields {
        let mut f = MessageFields::default();
        let code = |e: &Option<ApiError>| Some(e.map_or("NONE", |e| e.name()));
        match self {
            ControllerMessage::Request { body, .. } => match body {
                ControllerRequest::ControllerRegistration { controller_id, .. } => {
                    f.replica_id = Some(*controller_id)
                }
                ControllerRequest::BrokerRegistration { broker_id, .. } => {
                    f.replica_id = Some(*broker_id)
                }
                ControllerRequest::BrokerHeartbeat {
                    broker_id,
                    broker_epoch,
                    current_metadata_offset,
                    want_fence,
                    ..
                } => {
                    f.replica_id = Some(*broker_id);
                    f.broker_epoch = Some(*broker_epoch);
                    f.offset = Some(*current_metadata_offset);
                    f.fenced = Some(*want_fence);
                }
                ControllerRequest::AlterPartition { broker_id, .. } => {
                    f.leader_id = Some(*broker_id)
                }
                ControllerRequest::CreateTopics { .. }
                | ControllerRequest::DeleteTopics { .. }
                | ControllerRequest::IncrementalAlterConfigs { .. } => {}
            },
            ControllerMessage::Response { body, .. } => match body {
                ControllerResponse::ControllerRegistration { error }
                | ControllerResponse::CreateTopics { error, .. }
                | ControllerResponse::DeleteTopics { error, .. }
                | ControllerResponse::IncrementalAlterConfigs { error, .. }
                | ControllerResponse::AlterPartition { error, .. } => f.error = code(error),
                ControllerResponse::BrokerRegistration {
                    error,
                    broker_epoch,
                } => {
                    f.error = code(error);
                    f.broker_epoch = Some(*broker_epoch);
                }
                ControllerResponse::BrokerHeartbeat {
                    error, is_fenced, ..
                } => {
                    f.error = code(error);
                    f.fenced = Some(*is_fenced);
                }
                ControllerResponse::Failed { error, .. } => f.error = Some(error.name()),
            },
        }
        f
    }

    /// Summary for views.
    pub fn summary(&self) -> String {
        match self {
            ControllerMessage::Request { body, .. } => body.summary(),
            ControllerMessage::Response { body, .. } => body.summary(),
        }
    }
}

impl ControllerRequest {
    /// The request's interesting fields, for views.
    pub fn summary(&self) -> String {
        match self {
            ControllerRequest::ControllerRegistration { controller_id, .. } => {
                format!("controllerId={controller_id}")
            }
            ControllerRequest::CreateTopics { topics } => format!(
                "topics={:?}",
                topics.iter().map(|t| t.name.as_str()).collect::<Vec<_>>()
            ),
            ControllerRequest::DeleteTopics { names } => format!("topics={names:?}"),
            ControllerRequest::IncrementalAlterConfigs { resources, .. } => resources
                .iter()
                .map(|r| {
                    let ops: Vec<String> = r
                        .configs
                        .iter()
                        .map(|c| match &c.value {
                            Some(v) => format!("{}:{}={v}", c.op.name(), c.name),
                            None => format!("{}:{}", c.op.name(), c.name),
                        })
                        .collect();
                    format!(
                        "{}:{} [{}]",
                        crate::common::config_resource::resource_type_name(
                            r.resource_type
                        ),
                        r.resource_name,
                        ops.join(", ")
                    )
                })
                .collect::<Vec<_>>()
                .join(" "),
            ControllerRequest::BrokerRegistration { broker_id, .. } => {
                format!("brokerId={broker_id}")
            }
            ControllerRequest::AlterPartition {
                broker_id,
                partition_id,
                new_isr,
                ..
            } => format!("leader={broker_id} partition={partition_id} newIsr={new_isr:?}"),
            ControllerRequest::BrokerHeartbeat {
                broker_id,
                broker_epoch,
                current_metadata_offset,
                want_fence,
                want_shut_down,
                cordoned_log_dirs,
            } => format!(
                "brokerId={broker_id} brokerEpoch={broker_epoch} currentMetadataOffset={current_metadata_offset} wantFence={want_fence} wantShutDown={want_shut_down}{}",
                match cordoned_log_dirs {
                    Some(d) => format!(
                        " cordonedLogDirs=[{}]",
                        d.iter().map(|u| u.to_string()).collect::<Vec<_>>().join(", ")
                    ),
                    None => String::new(),
                }
            ),
        }
    }
}

impl ControllerResponse {
    /// The response's interesting fields, for views.
    pub fn summary(&self) -> String {
        match self {
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
            ControllerResponse::IncrementalAlterConfigs { responses, error } => match error {
                Some(e) => format!("error={}", e.name()),
                None => responses
                    .iter()
                    .map(|r| {
                        format!(
                            "{}={}",
                            r.resource_name,
                            r.error.as_ref().map(|e| e.0.name()).unwrap_or("NONE")
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
            },
            ControllerResponse::BrokerRegistration {
                error,
                broker_epoch,
            } => format!(
                "error={} brokerEpoch={broker_epoch}",
                error.map(|e| e.name()).unwrap_or("NONE")
            ),
            ControllerResponse::BrokerHeartbeat {
                error,
                is_caught_up,
                is_fenced,
                should_shut_down,
            } => format!(
                "error={} isCaughtUp={is_caught_up} isFenced={is_fenced} shouldShutDown={should_shut_down}",
                error.map(|e| e.name()).unwrap_or("NONE")
            ),
            ControllerResponse::AlterPartition { error, .. } => {
                format!("error={}", error.map(|e| e.name()).unwrap_or("NONE"))
            }
            ControllerResponse::Failed { error, .. } => error.name().to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_read_a_heartbeat_by_its_schema_fields() {
        let hb = ControllerMessage::Request {
            correlation_id: 1,
            body: ControllerRequest::BrokerHeartbeat {
                broker_id: 2,
                broker_epoch: 9,
                current_metadata_offset: 40,
                want_fence: false,
                want_shut_down: false,
                cordoned_log_dirs: None,
            },
        };
        assert_eq!(hb.kind().name(), "BrokerHeartbeatRequest");
        let f = hb.fields();
        assert_eq!(
            (f.replica_id, f.broker_epoch, f.offset, f.fenced),
            (Some(2), Some(9), Some(40), Some(false))
        );
        let answer = ControllerMessage::Response {
            correlation_id: 1,
            body: ControllerResponse::BrokerHeartbeat {
                error: Some(ApiError::StaleBrokerEpoch),
                is_caught_up: true,
                is_fenced: true,
                should_shut_down: false,
            },
        };
        let f = answer.fields();
        assert_eq!(
            (f.error, f.fenced),
            (Some("STALE_BROKER_EPOCH"), Some(true))
        );
    }
}
