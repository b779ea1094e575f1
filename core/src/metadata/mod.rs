//! Metadata records: what the active controller decides and every node replays.
//!
//! Each record prints as the JSON kafka-dump-log's `--cluster-metadata-decoder` shows:
//! `{"type":"NO_OP_RECORD","version":0,"data":{}}`.

mod record;

pub use record::MetadataRecord;
