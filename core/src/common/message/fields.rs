//! The fields of a message that the page reads, typed: the epoch it carries, the ids it names,
//! its offsets, its error. Each message fills in what its schema has (Kafka's field names are
//! on each field); the rest stay `None`. The page draws labels from these, never by parsing a
//! summary's text.

use serde::Serialize;

/// What a message says, as far as a view needs it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MessageFields {
    /// The epoch it carries: a Vote's `replicaEpoch`, a request's `currentLeaderEpoch` or
    /// `leaderEpoch`, a response's `leaderEpoch`.
    pub epoch: Option<i32>,
    /// The leader it names: `leaderId` (BeginQuorumEpoch, EndQuorumEpoch, Raft responses, -1
    /// for none), or the partition leader of an AlterPartition.
    pub leader_id: Option<i32>,
    /// The replica that sends a request about itself: a Vote's `replicaId` (the candidate), a
    /// Fetch's or FetchSnapshot's `replicaId`, a registration's or heartbeat's
    /// `brokerId` / `controllerId`.
    pub replica_id: Option<i32>,
    /// A Vote response's `voteGranted`.
    pub vote_granted: Option<bool>,
    /// A response's `errorCode` by Kafka's name (`NONE` included), or the error of a failed
    /// request (`BROKER_NOT_AVAILABLE`, `REQUEST_TIMED_OUT`).
    pub error: Option<&'static str>,
    /// The offset it carries: a Vote's `lastOffset`, a Fetch's `fetchOffset`, a
    /// FetchSnapshot's `position`, a heartbeat's `currentMetadataOffset`.
    pub offset: Option<i64>,
    /// The epoch of that offset: a Vote's `lastOffsetEpoch`, a Fetch's `lastFetchedEpoch`.
    pub offset_epoch: Option<i32>,
    /// `highWatermark` of a Fetch request (KIP-1166) or response.
    pub high_watermark: Option<i64>,
    /// How many records a Fetch response carries.
    pub records: Option<u32>,
    /// `brokerEpoch` of a heartbeat or a registration response.
    pub broker_epoch: Option<i64>,
    /// `isFenced` of a heartbeat response, `wantFence` of a heartbeat request.
    pub fenced: Option<bool>,
}

impl MessageFields {
    /// Whether it answers with an error (a refused vote aside): `errorCode` other than NONE.
    pub fn is_error(&self) -> bool {
        self.error.is_some_and(|e| e != "NONE")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_is_any_code_but_none() {
        let ok = MessageFields {
            error: Some("NONE"),
            ..Default::default()
        };
        assert!(!ok.is_error());
        assert!(!MessageFields::default().is_error());
        let e = MessageFields {
            error: Some("NOT_LEADER_OR_FOLLOWER"),
            ..Default::default()
        };
        assert!(e.is_error());
    }
}
