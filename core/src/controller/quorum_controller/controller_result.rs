//! `ControllerResult`: what a write operation generates, the records to append and the
//! response to send once they commit.

use crate::common::message::controller::ControllerResponse;
use crate::metadata::MetadataRecord;

/// `ControllerResult`: records to write plus the response, and whether they must go in one
/// batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControllerResult {
    /// records
    pub records: Vec<MetadataRecord>,
    /// response
    pub response: Option<ControllerResponse>,
    /// isAtomic
    pub is_atomic: bool,
}
