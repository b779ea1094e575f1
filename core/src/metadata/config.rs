//! ConfigRecord (apiKey 4).

use super::wire::{JsonObject, Writer};
use crate::common::config_resource::resource_type_name;

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
        resource_type_name(self.resource_type)
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
