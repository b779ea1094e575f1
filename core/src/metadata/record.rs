//! The metadata record types as typed values, and `MetadataRecord`, the one the log carries.

use super::broker::{BrokerRegistrationChangeRecord, RegisterBrokerRecord};
use super::config::ConfigRecord;
use super::controller::RegisterControllerRecord;
use super::feature::FeatureLevelRecord;
use super::partition::{PartitionChangeRecord, PartitionRecord};
use super::topic::{RemoveTopicRecord, TopicRecord};
use super::transaction::{BeginTransactionRecord, EndTransactionRecord};
use super::wire::{JsonObject, Writer};

/// NoOpRecord v0: no fields. The active controller writes one every
/// `metadata.max.idle.interval.ms` (500 ms) so the log and the high watermark keep moving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct NoOpRecord;

/// The frame version `MetadataRecordSerde` writes before apiKey and version.
const FRAME_VERSION: u32 = 1;

/// One metadata record (an `ApiMessageAndVersion` in Kafka). The version written is fixed per
/// type (see [`MetadataRecord::version`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MetadataRecord {
    /// RegisterBrokerRecord (apiKey 0), version 4.
    RegisterBroker(RegisterBrokerRecord),
    /// TopicRecord (apiKey 2), version 0.
    Topic(TopicRecord),
    /// PartitionRecord (apiKey 3), version 2.
    Partition(PartitionRecord),
    /// ConfigRecord (apiKey 4), version 0.
    Config(ConfigRecord),
    /// PartitionChangeRecord (apiKey 5), version 2.
    PartitionChange(PartitionChangeRecord),
    /// RemoveTopicRecord (apiKey 9), version 0.
    RemoveTopic(RemoveTopicRecord),
    /// FeatureLevelRecord (apiKey 12), version 0.
    FeatureLevel(FeatureLevelRecord),
    /// BrokerRegistrationChangeRecord (apiKey 17), version 0-3 by content (0 for fencing).
    BrokerRegistrationChange(BrokerRegistrationChangeRecord),
    /// NoOpRecord (apiKey 20), version 0: written every `metadata.max.idle.interval.ms` by the
    /// active controller so the log and the high watermark keep moving.
    NoOp,
    /// BeginTransactionRecord (apiKey 23), version 0.
    BeginTransaction(BeginTransactionRecord),
    /// EndTransactionRecord (apiKey 24), version 0.
    EndTransaction(EndTransactionRecord),
    /// RegisterControllerRecord (apiKey 27), version 0.
    RegisterController(RegisterControllerRecord),
}

impl MetadataRecord {
    /// The record type's apiKey (`MetadataRecordType` id).
    pub fn api_key(&self) -> u16 {
        match self {
            MetadataRecord::RegisterBroker(_) => 0,
            MetadataRecord::Topic(_) => 2,
            MetadataRecord::Partition(_) => 3,
            MetadataRecord::Config(_) => 4,
            MetadataRecord::PartitionChange(_) => 5,
            MetadataRecord::RemoveTopic(_) => 9,
            MetadataRecord::FeatureLevel(_) => 12,
            MetadataRecord::BrokerRegistrationChange(_) => 17,
            MetadataRecord::NoOp => 20,
            MetadataRecord::BeginTransaction(_) => 23,
            MetadataRecord::EndTransaction(_) => 24,
            MetadataRecord::RegisterController(_) => 27,
        }
    }

    /// The record's type as kafka-dump-log prints it (`NO_OP_RECORD`, `TOPIC_RECORD`, ...).
    pub fn type_name(&self) -> &'static str {
        match self {
            MetadataRecord::RegisterBroker(_) => "REGISTER_BROKER_RECORD",
            MetadataRecord::Topic(_) => "TOPIC_RECORD",
            MetadataRecord::Partition(_) => "PARTITION_RECORD",
            MetadataRecord::Config(_) => "CONFIG_RECORD",
            MetadataRecord::PartitionChange(_) => "PARTITION_CHANGE_RECORD",
            MetadataRecord::RemoveTopic(_) => "REMOVE_TOPIC_RECORD",
            MetadataRecord::FeatureLevel(_) => "FEATURE_LEVEL_RECORD",
            MetadataRecord::BrokerRegistrationChange(_) => "BROKER_REGISTRATION_CHANGE_RECORD",
            MetadataRecord::NoOp => "NO_OP_RECORD",
            MetadataRecord::BeginTransaction(_) => "BEGIN_TRANSACTION_RECORD",
            MetadataRecord::EndTransaction(_) => "END_TRANSACTION_RECORD",
            MetadataRecord::RegisterController(_) => "REGISTER_CONTROLLER_RECORD",
        }
    }

    /// The schema's name (`TopicRecord`, `PartitionRecord`, ...), as Kafka's log lines use it
    /// (`Replayed TopicRecord for topic ...`).
    pub fn record_name(&self) -> &'static str {
        match self {
            MetadataRecord::RegisterBroker(_) => "RegisterBrokerRecord",
            MetadataRecord::Topic(_) => "TopicRecord",
            MetadataRecord::Partition(_) => "PartitionRecord",
            MetadataRecord::Config(_) => "ConfigRecord",
            MetadataRecord::PartitionChange(_) => "PartitionChangeRecord",
            MetadataRecord::RemoveTopic(_) => "RemoveTopicRecord",
            MetadataRecord::FeatureLevel(_) => "FeatureLevelRecord",
            MetadataRecord::BrokerRegistrationChange(_) => "BrokerRegistrationChangeRecord",
            MetadataRecord::NoOp => "NoOpRecord",
            MetadataRecord::BeginTransaction(_) => "BeginTransactionRecord",
            MetadataRecord::EndTransaction(_) => "EndTransactionRecord",
            MetadataRecord::RegisterController(_) => "RegisterControllerRecord",
        }
    }

    /// The schema version written: PartitionRecord and PartitionChangeRecord 2,
    /// RegisterBrokerRecord 4, BrokerRegistrationChangeRecord the lowest that carries its
    /// fields (0 for fence/unfence), everything else 0.
    pub fn version(&self) -> u16 {
        match self {
            MetadataRecord::RegisterBroker(_) => RegisterBrokerRecord::VERSION,
            MetadataRecord::Partition(_) => PartitionRecord::VERSION,
            MetadataRecord::PartitionChange(_) => PartitionChangeRecord::VERSION,
            MetadataRecord::BrokerRegistrationChange(r) => r.version(),
            _ => 0,
        }
    }

    /// The record's `data` object as the generated JSON converter prints it: compact, fields in
    /// schema order with lowerCamel names, tagged fields only when not at their default.
    pub fn data_json(&self) -> String {
        let mut j = JsonObject::new();
        match self {
            MetadataRecord::RegisterBroker(r) => r.write_json(&mut j),
            MetadataRecord::Topic(r) => r.write_json(&mut j),
            MetadataRecord::Partition(r) => r.write_json(&mut j),
            MetadataRecord::Config(r) => r.write_json(&mut j),
            MetadataRecord::PartitionChange(r) => r.write_json(&mut j),
            MetadataRecord::RemoveTopic(r) => r.write_json(&mut j),
            MetadataRecord::FeatureLevel(r) => r.write_json(&mut j),
            MetadataRecord::BrokerRegistrationChange(r) => r.write_json(&mut j),
            MetadataRecord::NoOp | MetadataRecord::EndTransaction(_) => {}
            MetadataRecord::BeginTransaction(r) => r.write_json(&mut j),
            MetadataRecord::RegisterController(r) => r.write_json(&mut j),
        }
        j.finish()
    }

    /// The record's JSON as kafka-dump-log prints it after `payload: `:
    /// `{"type":"NO_OP_RECORD","version":0,"data":{}}`.
    pub fn to_json(&self) -> String {
        format!(
            "{{\"type\":\"{}\",\"version\":{},\"data\":{}}}",
            self.type_name(),
            self.version(),
            self.data_json()
        )
    }

    /// The record value exactly as Kafka's `MetadataRecordSerde` serializes it: unsigned varint
    /// frame version (1), apiKey and version, then the message in its flexible-version encoding
    /// (compact strings and arrays, 16-byte uuids, a tagged-fields section per struct).
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::new();
        w.uvarint(FRAME_VERSION);
        w.uvarint(self.api_key() as u32);
        w.uvarint(self.version() as u32);
        match self {
            MetadataRecord::RegisterBroker(r) => r.write(&mut w),
            MetadataRecord::Topic(r) => r.write(&mut w),
            MetadataRecord::Partition(r) => r.write(&mut w),
            MetadataRecord::Config(r) => r.write(&mut w),
            MetadataRecord::PartitionChange(r) => r.write(&mut w),
            MetadataRecord::RemoveTopic(r) => r.write(&mut w),
            MetadataRecord::FeatureLevel(r) => r.write(&mut w),
            MetadataRecord::BrokerRegistrationChange(r) => r.write(&mut w),
            MetadataRecord::NoOp | MetadataRecord::EndTransaction(_) => w.tagged_fields(Vec::new()),
            MetadataRecord::BeginTransaction(r) => r.write(&mut w),
            MetadataRecord::RegisterController(r) => r.write(&mut w),
        }
        w.into_bytes()
    }

    /// The serialized size of the record value in bytes (`valueSize` in kafka-dump-log):
    /// `encode().len()`.
    pub fn value_size(&self) -> usize {
        self.encode().len()
    }
}

impl From<NoOpRecord> for MetadataRecord {
    fn from(_: NoOpRecord) -> Self {
        MetadataRecord::NoOp
    }
}

macro_rules! from_record {
    ($($ty:ty => $variant:ident),* $(,)?) => {
        $(impl From<$ty> for MetadataRecord {
            fn from(r: $ty) -> Self {
                MetadataRecord::$variant(r)
            }
        })*
    };
}

from_record! {
    RegisterBrokerRecord => RegisterBroker,
    TopicRecord => Topic,
    PartitionRecord => Partition,
    ConfigRecord => Config,
    PartitionChangeRecord => PartitionChange,
    RemoveTopicRecord => RemoveTopic,
    FeatureLevelRecord => FeatureLevel,
    BrokerRegistrationChangeRecord => BrokerRegistrationChange,
    BeginTransactionRecord => BeginTransaction,
    EndTransactionRecord => EndTransaction,
    RegisterControllerRecord => RegisterController,
}
