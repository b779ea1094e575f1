//! Kafka's `org.apache.kafka.common.config.ConfigResource.Type`: the kinds of resource a
//! configuration belongs to, by id and name.

/// ConfigResource type id UNKNOWN.
pub const RESOURCE_TYPE_UNKNOWN: i8 = 0;
/// ConfigResource type id TOPIC.
pub const RESOURCE_TYPE_TOPIC: i8 = 2;
/// ConfigResource type id BROKER (`resourceName` "" is the cluster-wide default).
pub const RESOURCE_TYPE_BROKER: i8 = 4;
/// ConfigResource type id BROKER_LOGGER.
pub const RESOURCE_TYPE_BROKER_LOGGER: i8 = 8;
/// ConfigResource type id CLIENT_METRICS.
pub const RESOURCE_TYPE_CLIENT_METRICS: i8 = 16;
/// ConfigResource type id GROUP.
pub const RESOURCE_TYPE_GROUP: i8 = 32;

/// Kafka's `ConfigResource.Type` name of a resource type id (`BROKER`, `TOPIC`, ...).
pub fn resource_type_name(resource_type: i8) -> &'static str {
    match resource_type {
        RESOURCE_TYPE_TOPIC => "TOPIC",
        RESOURCE_TYPE_BROKER => "BROKER",
        RESOURCE_TYPE_BROKER_LOGGER => "BROKER_LOGGER",
        RESOURCE_TYPE_CLIENT_METRICS => "CLIENT_METRICS",
        RESOURCE_TYPE_GROUP => "GROUP",
        _ => "UNKNOWN",
    }
}
