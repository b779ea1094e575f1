//! ConfigRecord (apiKey 4).

use super::wire::{JsonObject, Writer};

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

/// ConfigRecord v0: sets (or, with `value = None`, deletes) one configuration key of one
/// resource. Activation writes `{resourceType:4, resourceName:"", name:"min.insync.replicas",
/// value:"1"}` when ELR is enabled.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ConfigRecord {
    /// ResourceType (int8): see the `RESOURCE_TYPE_*` constants.
    pub resource_type: i8,
    /// ResourceName: the topic name, the broker id, or "" for the cluster default.
    pub resource_name: String,
    /// Name: the configuration key.
    pub name: String,
    /// Value (nullable): the value, or `None` to delete the key (printed as `null`).
    pub value: Option<String>,
}

impl ConfigRecord {
    /// Kafka's `ConfigResource.Type` name of the resource type (`BROKER`, `TOPIC`, ...), as the
    /// controller's replay line prints it: `ConfigResource(type=BROKER, name='')`.
    pub fn resource_type_name(&self) -> &'static str {
        match self.resource_type {
            RESOURCE_TYPE_TOPIC => "TOPIC",
            RESOURCE_TYPE_BROKER => "BROKER",
            RESOURCE_TYPE_BROKER_LOGGER => "BROKER_LOGGER",
            RESOURCE_TYPE_CLIENT_METRICS => "CLIENT_METRICS",
            RESOURCE_TYPE_GROUP => "GROUP",
            _ => "UNKNOWN",
        }
    }

    pub(crate) fn write_json(&self, j: &mut JsonObject) {
        j.num("resourceType", self.resource_type);
        j.str("resourceName", &self.resource_name);
        j.str("name", &self.name);
        j.nullable_str("value", self.value.as_deref());
    }

    pub(crate) fn write(&self, w: &mut Writer) {
        w.i8(self.resource_type);
        w.compact_string(&self.resource_name);
        w.compact_string(&self.name);
        w.compact_nullable_string(self.value.as_deref());
        w.tagged_fields(Vec::new());
    }
}
