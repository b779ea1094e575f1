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
    /// UNKNOWN_SERVER_ERROR: an operation replaced before it completed.
    UnknownServerError,
    /// UNSUPPORTED_VERSION: e.g. a voter change on kraft.version 0.
    UnsupportedVersion,
    /// INVALID_REQUEST: a request without a valid voter or endpoint.
    InvalidRequest,
    /// INCONSISTENT_CLUSTER_ID: the request names another cluster.
    InconsistentClusterId,
    /// DUPLICATE_VOTER: the id is already a voter.
    DuplicateVoter,
    /// VOTER_NOT_FOUND: not a voter (or another directory id, or the last voter).
    VoterNotFound,
    /// OFFSET_OUT_OF_RANGE (Errors.java).
    OffsetOutOfRange,
    /// UNKNOWN_TOPIC_OR_PARTITION (Errors.java).
    UnknownTopicOrPartition,
    /// LEADER_NOT_AVAILABLE (Errors.java).
    LeaderNotAvailable,
    /// MESSAGE_TOO_LARGE (Errors.java).
    MessageTooLarge,
    /// NOT_ENOUGH_REPLICAS (Errors.java).
    NotEnoughReplicas,
    /// NOT_ENOUGH_REPLICAS_AFTER_APPEND (Errors.java).
    NotEnoughReplicasAfterAppend,
    /// INVALID_REQUIRED_ACKS (Errors.java).
    InvalidRequiredAcks,
    /// NOT_CONTROLLER (Errors.java).
    NotController,
    /// OFFSET_NOT_AVAILABLE (Errors.java).
    OffsetNotAvailable,
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
            Errors::UnknownServerError => "UNKNOWN_SERVER_ERROR",
            Errors::UnsupportedVersion => "UNSUPPORTED_VERSION",
            Errors::InvalidRequest => "INVALID_REQUEST",
            Errors::InconsistentClusterId => "INCONSISTENT_CLUSTER_ID",
            Errors::DuplicateVoter => "DUPLICATE_VOTER",
            Errors::VoterNotFound => "VOTER_NOT_FOUND",
            Errors::OffsetOutOfRange => "OFFSET_OUT_OF_RANGE",
            Errors::UnknownTopicOrPartition => "UNKNOWN_TOPIC_OR_PARTITION",
            Errors::LeaderNotAvailable => "LEADER_NOT_AVAILABLE",
            Errors::MessageTooLarge => "MESSAGE_TOO_LARGE",
            Errors::NotEnoughReplicas => "NOT_ENOUGH_REPLICAS",
            Errors::NotEnoughReplicasAfterAppend => "NOT_ENOUGH_REPLICAS_AFTER_APPEND",
            Errors::InvalidRequiredAcks => "INVALID_REQUIRED_ACKS",
            Errors::NotController => "NOT_CONTROLLER",
            Errors::OffsetNotAvailable => "OFFSET_NOT_AVAILABLE",
        }
    }

    /// The exception the client throws for it, as `Errors.java` maps each code
    /// (`org.apache.kafka.common.errors.<Name>`); `None` for NONE.
    pub fn exception(&self) -> Option<&'static str> {
        Some(match self {
            Errors::None => return None,
            Errors::FencedLeaderEpoch => "FencedLeaderEpochException",
            Errors::UnknownLeaderEpoch => "UnknownLeaderEpochException",
            Errors::NotLeaderOrFollower => "NotLeaderOrFollowerException",
            Errors::InconsistentVoterSet => "InconsistentVoterSetException",
            Errors::BrokerNotAvailable => "BrokerNotAvailableException",
            Errors::RequestTimedOut => "TimeoutException",
            Errors::SnapshotNotFound => "SnapshotNotFoundException",
            Errors::PositionOutOfRange => "PositionOutOfRangeException",
            Errors::UnknownServerError => "UnknownServerException",
            Errors::UnsupportedVersion => "UnsupportedVersionException",
            Errors::InvalidRequest => "InvalidRequestException",
            Errors::InconsistentClusterId => "InconsistentClusterIdException",
            Errors::DuplicateVoter => "DuplicateVoterException",
            Errors::VoterNotFound => "VoterNotFoundException",
            Errors::OffsetOutOfRange => "OffsetOutOfRangeException",
            Errors::UnknownTopicOrPartition => "UnknownTopicOrPartitionException",
            Errors::LeaderNotAvailable => "LeaderNotAvailableException",
            Errors::MessageTooLarge => "RecordTooLargeException",
            Errors::NotEnoughReplicas => "NotEnoughReplicasException",
            Errors::NotEnoughReplicasAfterAppend => "NotEnoughReplicasAfterAppendException",
            Errors::InvalidRequiredAcks => "InvalidRequiredAcksException",
            Errors::NotController => "NotControllerException",
            Errors::OffsetNotAvailable => "OffsetNotAvailableException",
        })
    }

    /// The default message of the code (clients/.../protocol/Errors.java:182-418), which an
    /// exception carries when the response has no message of its own.
    pub fn default_message(&self) -> &'static str {
        match self {
            Errors::None => "",
            Errors::FencedLeaderEpoch => "The leader epoch in the request is older than the epoch on the broker.",
            Errors::UnknownLeaderEpoch => "The leader epoch in the request is newer than the epoch on the broker.",
            Errors::NotLeaderOrFollower => "For requests intended only for the leader, this error indicates that the broker is not the current leader. For requests intended for any replica, this error indicates that the broker is not a replica of the topic partition.",
            Errors::InconsistentVoterSet => "Indicates that the either the sender or recipient of a voter-only request is not one of the expected voters.",
            Errors::BrokerNotAvailable => "The broker is not available.",
            Errors::RequestTimedOut => "The request timed out.",
            Errors::SnapshotNotFound => "Requested snapshot was not found.",
            Errors::PositionOutOfRange => "Requested position is not greater than or equal to zero, and less than the size of the snapshot.",
            Errors::UnknownServerError => "The server experienced an unexpected error when processing the request.",
            Errors::UnsupportedVersion => "The version of API is not supported.",
            Errors::InvalidRequest => "This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details.",
            Errors::InconsistentClusterId => "The clusterId in the request does not match that found on the server.",
            Errors::DuplicateVoter => "The voter is already part of the set of voters.",
            Errors::VoterNotFound => "The voter is not part of the set of voters.",
            Errors::OffsetOutOfRange => "The requested offset is not within the range of offsets maintained by the server.",
            Errors::UnknownTopicOrPartition => "This server does not host this topic-partition.",
            Errors::LeaderNotAvailable => "There is no leader for this topic-partition as we are in the middle of a leadership election.",
            Errors::MessageTooLarge => "The request included a message larger than the max message size the server will accept.",
            Errors::NotEnoughReplicas => "Messages are rejected since there are fewer in-sync replicas than required.",
            Errors::NotEnoughReplicasAfterAppend => "Messages are written to the log, but to fewer in-sync replicas than required.",
            Errors::InvalidRequiredAcks => "Produce request specified an invalid value for required acks.",
            Errors::NotController => "This is not the correct controller for this cluster.",
            Errors::OffsetNotAvailable => "The leader high watermark has not caught up from a recent leader election so the offsets cannot be guaranteed to be monotonically increasing.",
        }
    }
}
