//! Metadata records: what the active controller decides and every node replays.
//!
//! One typed struct per Kafka record schema (`metadata/src/main/resources/common/metadata/`),
//! wrapped by [`MetadataRecord`]. Each record prints as the JSON kafka-dump-log's
//! `--cluster-metadata-decoder` shows, and [`MetadataRecord::encode`] gives the exact bytes
//! Kafka's `MetadataRecordSerde` writes (so `valueSize` matches):
//!
//! ```
//! use kraft_core::metadata::{MetadataRecord, TopicRecord};
//! use kraft_core::common::uuid::Uuid;
//! let topic = MetadataRecord::from(TopicRecord { name: "orders".into(), topic_id: Uuid::ZERO });
//! assert_eq!(
//!     topic.to_json(),
//!     r#"{"type":"TOPIC_RECORD","version":0,"data":{"name":"orders","topicId":"AAAAAAAAAAAAAAAAAAAAAA"}}"#
//! );
//! assert_eq!(topic.value_size(), 27);
//! assert_eq!(MetadataRecord::NoOp.to_json(), r#"{"type":"NO_OP_RECORD","version":0,"data":{}}"#);
//! ```

mod broker;
pub mod broker_registration;
mod config;
mod controller;
mod feature;
mod partition;
mod record;
mod topic;
mod transaction;
pub(crate) mod wire;

#[cfg(test)]
mod tests;

pub use crate::common::config_resource::{
    resource_type_name, RESOURCE_TYPE_BROKER, RESOURCE_TYPE_BROKER_LOGGER,
    RESOURCE_TYPE_CLIENT_METRICS, RESOURCE_TYPE_GROUP, RESOURCE_TYPE_TOPIC, RESOURCE_TYPE_UNKNOWN,
};
pub use broker::{
    BrokerRegistrationChangeRecord, Endpoint, FeatureRange, RegisterBrokerRecord, FENCING_FENCE,
    FENCING_NONE, FENCING_UNFENCE, IN_CONTROLLED_SHUTDOWN, IN_CONTROLLED_SHUTDOWN_NONE,
    SECURITY_PROTOCOL_PLAINTEXT, SECURITY_PROTOCOL_SASL_PLAINTEXT, SECURITY_PROTOCOL_SASL_SSL,
    SECURITY_PROTOCOL_SSL,
};
pub use config::ConfigRecord;
pub use controller::RegisterControllerRecord;
pub use feature::FeatureLevelRecord;
pub use partition::{
    PartitionChangeRecord, PartitionRecord, LEADER_RECOVERY_NO_CHANGE, LEADER_RECOVERY_RECOVERED,
    LEADER_RECOVERY_RECOVERING, NO_LEADER, NO_LEADER_CHANGE,
};
pub use record::{MetadataRecord, NoOpRecord};
pub use topic::{RemoveTopicRecord, TopicRecord};
pub use transaction::{BeginTransactionRecord, EndTransactionRecord};
