//! BeginTransactionRecord (apiKey 23) and EndTransactionRecord (apiKey 24): the markers around
//! a metadata transaction (e.g. the bootstrap records written at activation).

use super::wire::{field, JsonObject, Writer};

/// BeginTransactionRecord v0: opens a metadata transaction; its records take effect only once
/// the matching EndTransactionRecord is replayed.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BeginTransactionRecord {
    /// Name (tag 0, nullable, default null): an optional description, e.g.
    /// `"Bootstrap records"`. Printed only when set.
    pub name: Option<String>,
}

impl BeginTransactionRecord {
    pub(crate) fn write_json(&self, j: &mut JsonObject) {
        if let Some(name) = &self.name {
            j.str("name", name);
        }
    }

    pub(crate) fn write(&self, w: &mut Writer) {
        let mut tagged = Vec::new();
        if let Some(name) = &self.name {
            tagged.push((0, field(|w| w.compact_string(name))));
        }
        w.tagged_fields(tagged);
    }
}

/// EndTransactionRecord v0: closes the open metadata transaction. No fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct EndTransactionRecord;
