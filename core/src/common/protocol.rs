//! Kafka's `org.apache.kafka.common.protocol.Errors`: the error codes the playground's RPCs
//! carry.

/// Kafka error codes used by the RPCs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Errors {
    /// NONE
    None,
    /// FENCED_LEADER_EPOCH: the request's epoch is older than the receiver's.
    FencedLeaderEpoch,
    /// UNKNOWN_LEADER_EPOCH: the request's epoch is newer than the receiver's.
    UnknownLeaderEpoch,
    /// NOT_LEADER_OR_FOLLOWER
    NotLeaderOrFollower,
    /// INCONSISTENT_VOTER_SET
    InconsistentVoterSet,
    /// BROKER_NOT_AVAILABLE: what a sender sees when the connection is refused or lost.
    BrokerNotAvailable,
    /// REQUEST_TIMED_OUT: no response within request.timeout.ms.
    RequestTimedOut,
    /// SNAPSHOT_NOT_FOUND: the leader does not have the snapshot asked for.
    SnapshotNotFound,
    /// POSITION_OUT_OF_RANGE: a FetchSnapshot position past the snapshot's size.
    PositionOutOfRange,
}

impl Errors {
    /// Kafka's name of the error.
    pub fn name(&self) -> &'static str {
        match self {
            Errors::None => "NONE",
            Errors::FencedLeaderEpoch => "FENCED_LEADER_EPOCH",
            Errors::UnknownLeaderEpoch => "UNKNOWN_LEADER_EPOCH",
            Errors::NotLeaderOrFollower => "NOT_LEADER_OR_FOLLOWER",
            Errors::InconsistentVoterSet => "INCONSISTENT_VOTER_SET",
            Errors::BrokerNotAvailable => "BROKER_NOT_AVAILABLE",
            Errors::RequestTimedOut => "REQUEST_TIMED_OUT",
            Errors::SnapshotNotFound => "SNAPSHOT_NOT_FOUND",
            Errors::PositionOutOfRange => "POSITION_OUT_OF_RANGE",
        }
    }
}
