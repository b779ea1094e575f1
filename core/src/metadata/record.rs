//! The metadata record types as typed values.

/// One metadata record (an `ApiMessageAndVersion` in Kafka).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MetadataRecord {
    /// NoOpRecord (apiKey 20): written every `metadata.max.idle.interval.ms` by the active
    /// controller so the log and the high watermark keep moving.
    NoOp,
}

impl MetadataRecord {
    /// The record's type as kafka-dump-log prints it (`NO_OP_RECORD`).
    pub fn type_name(&self) -> &'static str {
        match self {
            MetadataRecord::NoOp => "NO_OP_RECORD",
        }
    }

    /// The schema version written.
    pub fn version(&self) -> u16 {
        match self {
            MetadataRecord::NoOp => 0,
        }
    }

    /// The record's JSON as kafka-dump-log prints it after `payload: `.
    pub fn to_json(&self) -> String {
        let data = match self {
            MetadataRecord::NoOp => "{}".to_string(),
        };
        format!(
            "{{\"type\":\"{}\",\"version\":{},\"data\":{}}}",
            self.type_name(),
            self.version(),
            data
        )
    }

    /// The serialized size of the record value in bytes (valueSize in kafka-dump-log), as
    /// Kafka's frame would count it: 2 bytes frame version, apiKey and version varints, the data.
    pub fn value_size(&self) -> usize {
        match self {
            // frame version (1 byte varint) + apiKey 20 (1) + version (1) + tagged fields (1)
            MetadataRecord::NoOp => 4,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noop_json_is_kafkas() {
        assert_eq!(
            MetadataRecord::NoOp.to_json(),
            r#"{"type":"NO_OP_RECORD","version":0,"data":{}}"#
        );
    }
}
