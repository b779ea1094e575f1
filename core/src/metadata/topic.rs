//! TopicRecord (apiKey 2) and RemoveTopicRecord (apiKey 9).

use super::wire::{JsonObject, Writer};
use crate::common::uuid::Uuid;

/// TopicRecord v0: a topic's name and id. Written first when a topic is created, before its
/// ConfigRecords and PartitionRecords.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TopicRecord {
    /// Name: the topic name.
    pub name: String,
    /// TopicId: the unique id of this topic.
    pub topic_id: Uuid,
}

impl TopicRecord {
    pub(crate) fn write_json(&self, j: &mut JsonObject) {
        j.str("name", &self.name);
        j.uuid("topicId", self.topic_id);
    }

    pub(crate) fn write(&self, w: &mut Writer) {
        w.compact_string(&self.name);
        w.uuid(self.topic_id);
        w.tagged_fields(Vec::new());
    }
}

/// RemoveTopicRecord v0: deletes a topic and all its partitions.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RemoveTopicRecord {
    /// TopicId: the topic to remove.
    pub topic_id: Uuid,
}

impl RemoveTopicRecord {
    pub(crate) fn write_json(&self, j: &mut JsonObject) {
        j.uuid("topicId", self.topic_id);
    }

    pub(crate) fn write(&self, w: &mut Writer) {
        w.uuid(self.topic_id);
        w.tagged_fields(Vec::new());
    }
}
