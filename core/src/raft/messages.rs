//! The KRaft RPCs: Vote (and PreVote), BeginQuorumEpoch, EndQuorumEpoch, Fetch, FetchSnapshot.
//!
//! Field names follow the request/response JSON schemas in Kafka's clients module.

use super::batch::RecordBatch;
use super::replica_key::ReplicaKey;
use super::snapshot::RawSnapshot;
use crate::common::api_keys::{ApiKeys, MessageKind};
use crate::common::message::fields::MessageFields;
use crate::common::offset_and_epoch::OffsetAndEpoch;
use crate::common::protocol::Errors;
use std::sync::Arc;

/// VoteRequest (a PreVote when `pre_vote`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VoteRequest {
    /// replicaEpoch: the epoch the candidate runs in.
    pub replica_epoch: i32,
    /// replicaId: the candidate.
    pub replica_id: i32,
    /// voterId: the receiver this was meant for.
    pub voter_id: i32,
    /// lastOffsetEpoch and lastOffset of the candidate's log.
    pub last_offset: OffsetAndEpoch,
    /// preVote (KIP-996).
    pub pre_vote: bool,
}

/// VoteResponse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VoteResponse {
    /// errorCode
    pub error: Errors,
    /// leaderEpoch: the receiver's epoch.
    pub leader_epoch: i32,
    /// leaderId: the leader the receiver knows, -1 if none.
    pub leader_id: i32,
    /// voteGranted
    pub vote_granted: bool,
    /// Whether it answers a PreVote.
    pub pre_vote: bool,
}

/// BeginQuorumEpochRequest: "I am the leader of this epoch".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BeginQuorumEpochRequest {
    /// leaderEpoch
    pub leader_epoch: i32,
    /// leaderId
    pub leader_id: i32,
}

/// EndQuorumEpochRequest: a leader resigning gracefully.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndQuorumEpochRequest {
    /// leaderEpoch
    pub leader_epoch: i32,
    /// leaderId
    pub leader_id: i32,
    /// preferredSuccessors, in order of preference.
    pub preferred_successors: Vec<i32>,
}

/// A response carrying only an error and the receiver's view of the leader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpochResponse {
    /// errorCode
    pub error: Errors,
    /// leaderEpoch
    pub leader_epoch: i32,
    /// leaderId
    pub leader_id: i32,
}

/// FetchRequest for `__cluster_metadata-0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchRequest {
    /// replicaId (the follower or observer).
    pub replica_id: i32,
    /// ReplicaDirectoryId (Fetch v17+): the fetching replica's metadata directory id.
    pub replica_directory_id: Option<crate::common::uuid::Uuid>,
    /// currentLeaderEpoch
    pub current_leader_epoch: i32,
    /// fetchOffset: also the acknowledgement "I have everything before this".
    pub fetch_offset: i64,
    /// lastFetchedEpoch: epoch of the batch just before fetchOffset.
    pub last_fetched_epoch: i32,
    /// maxWaitMs: how long the leader may hold the request when there is nothing new.
    pub max_wait_ms: u64,
    /// HighWatermark (Fetch v18, KIP-1166): the high watermark the fetching replica knows, -1
    /// when it knows none; the leader answers at once when its own is newer.
    pub high_watermark: i64,
}

/// FetchResponse for `__cluster_metadata-0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchResponse {
    /// errorCode
    pub error: Errors,
    /// currentLeader.leaderEpoch
    pub leader_epoch: i32,
    /// currentLeader.leaderId
    pub leader_id: i32,
    /// highWatermark
    pub high_watermark: i64,
    /// logStartOffset
    pub log_start_offset: i64,
    /// divergingEpoch: set when the follower's log diverges from the leader's.
    pub diverging_epoch: Option<OffsetAndEpoch>,
    /// snapshotId: set when the follower must fetch this snapshot (FetchSnapshot) first.
    pub snapshot_id: Option<OffsetAndEpoch>,
    /// records
    pub records: Vec<Arc<RecordBatch>>,
}

/// FetchSnapshotRequest: the next chunk of a snapshot, from `position`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchSnapshotRequest {
    /// replicaId
    pub replica_id: i32,
    /// currentLeaderEpoch
    pub current_leader_epoch: i32,
    /// snapshotId (endOffset, epoch)
    pub snapshot_id: OffsetAndEpoch,
    /// position: bytes already received.
    pub position: usize,
    /// maxBytes
    pub max_bytes: usize,
}

/// FetchSnapshotResponse: one chunk (`unalignedRecords`) of the snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchSnapshotResponse {
    /// errorCode
    pub error: Errors,
    /// currentLeader.leaderEpoch
    pub leader_epoch: i32,
    /// currentLeader.leaderId
    pub leader_id: i32,
    /// snapshotId
    pub snapshot_id: OffsetAndEpoch,
    /// size: the whole snapshot's size in bytes.
    pub size: usize,
    /// position: where this chunk starts.
    pub position: usize,
    /// Bytes in this chunk.
    pub chunk_bytes: usize,
    /// The snapshot the bytes belong to (the simulator ships the frozen snapshot itself and
    /// counts bytes, instead of byte slices).
    pub snapshot: Option<Arc<RawSnapshot>>,
}

/// AddRaftVoterRequest (KIP-853): add `voter` with its CONTROLLER endpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddRaftVoterRequest {
    /// ClusterId
    pub cluster_id: String,
    /// TimeoutMs
    pub timeout_ms: u64,
    /// VoterId and VoterDirectoryId (`None`: the zero id, not a valid voter).
    pub voter: ReplicaKey,
    /// Listeners: the CONTROLLER listener's port, if the request names one.
    pub port: Option<u16>,
    /// AckWhenCommitted: answer once the new voter set commits (true) or once appended.
    pub ack_when_committed: bool,
}

/// RemoveRaftVoterRequest (KIP-853).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoveRaftVoterRequest {
    /// ClusterId
    pub cluster_id: String,
    /// VoterId and VoterDirectoryId.
    pub voter: ReplicaKey,
}

/// UpdateRaftVoterRequest (KIP-853): a voter's endpoint and supported kraft.version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UpdateRaftVoterRequest {
    /// ClusterId
    pub cluster_id: String,
    /// CurrentLeaderEpoch
    pub current_leader_epoch: i32,
    /// VoterId and VoterDirectoryId.
    pub voter: ReplicaKey,
    /// Listeners: the CONTROLLER listener's port.
    pub port: u16,
    /// KRaftVersionFeature: (MinSupportedVersion, MaxSupportedVersion).
    pub kraft_versions: (i16, i16),
}

/// The answer to AddRaftVoter or RemoveRaftVoter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VoterChangeResponse {
    /// ErrorCode
    pub error: Errors,
    /// ErrorMessage
    pub error_message: Option<String>,
}

/// UpdateRaftVoterResponse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UpdateRaftVoterResponse {
    /// ErrorCode
    pub error: Errors,
    /// CurrentLeader.LeaderEpoch
    pub leader_epoch: i32,
    /// CurrentLeader.LeaderId
    pub leader_id: i32,
}

/// ApiVersionsResponse, as far as KRaft reads it: the kraft.version feature's range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiVersionsResponse {
    /// ErrorCode
    pub error: Errors,
    /// SupportedFeatures' kraft.version: (MinVersion, MaxVersion).
    pub kraft_versions: Option<(i16, i16)>,
}

/// A request body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RaftRequest {
    /// Vote or PreVote.
    Vote(VoteRequest),
    /// BeginQuorumEpoch.
    BeginQuorumEpoch(BeginQuorumEpochRequest),
    /// EndQuorumEpoch.
    EndQuorumEpoch(EndQuorumEpochRequest),
    /// Fetch.
    Fetch(FetchRequest),
    /// FetchSnapshot.
    FetchSnapshot(FetchSnapshotRequest),
    /// AddRaftVoter (from the admin client, or an observer that auto-joins).
    AddRaftVoter(AddRaftVoterRequest),
    /// RemoveRaftVoter.
    RemoveRaftVoter(RemoveRaftVoterRequest),
    /// UpdateRaftVoter (a voter to the leader).
    UpdateRaftVoter(UpdateRaftVoterRequest),
    /// ApiVersions (the leader to a voter being added).
    ApiVersions,
}

/// A response body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RaftResponse {
    /// Vote or PreVote.
    Vote(VoteResponse),
    /// BeginQuorumEpoch.
    BeginQuorumEpoch(EpochResponse),
    /// EndQuorumEpoch.
    EndQuorumEpoch(EpochResponse),
    /// Fetch.
    Fetch(FetchResponse),
    /// FetchSnapshot.
    FetchSnapshot(FetchSnapshotResponse),
    /// AddRaftVoter.
    AddRaftVoter(VoterChangeResponse),
    /// RemoveRaftVoter.
    RemoveRaftVoter(VoterChangeResponse),
    /// UpdateRaftVoter.
    UpdateRaftVoter(UpdateRaftVoterResponse),
    /// ApiVersions.
    ApiVersions(ApiVersionsResponse),
    /// Synthesized by the network client: the connection failed or the request timed out.
    Failed {
        /// Which API the lost request was.
        api: ApiKeys,
        /// BROKER_NOT_AVAILABLE or REQUEST_TIMED_OUT.
        error: Errors,
    },
}

/// A message on the wire between two Raft clients.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RaftMessage {
    /// A request, answered by a response with the same correlation id.
    Request {
        /// correlationId
        correlation_id: u64,
        /// The request.
        body: RaftRequest,
    },
    /// A response.
    Response {
        /// correlationId of the request answered.
        correlation_id: u64,
        /// The response.
        body: RaftResponse,
    },
}

impl RaftRequest {
    /// The API of the request.
    pub fn api(&self) -> ApiKeys {
        match self {
            RaftRequest::Vote(_) => ApiKeys::Vote,
            RaftRequest::BeginQuorumEpoch(_) => ApiKeys::BeginQuorumEpoch,
            RaftRequest::EndQuorumEpoch(_) => ApiKeys::EndQuorumEpoch,
            RaftRequest::Fetch(_) => ApiKeys::Fetch,
            RaftRequest::FetchSnapshot(_) => ApiKeys::FetchSnapshot,
            RaftRequest::AddRaftVoter(_) => ApiKeys::AddRaftVoter,
            RaftRequest::RemoveRaftVoter(_) => ApiKeys::RemoveRaftVoter,
            RaftRequest::UpdateRaftVoter(_) => ApiKeys::UpdateRaftVoter,
            RaftRequest::ApiVersions => ApiKeys::ApiVersions,
        }
    }
}

impl RaftResponse {
    /// The API of the response.
    pub fn api(&self) -> ApiKeys {
        match self {
            RaftResponse::Vote(_) => ApiKeys::Vote,
            RaftResponse::BeginQuorumEpoch(_) => ApiKeys::BeginQuorumEpoch,
            RaftResponse::EndQuorumEpoch(_) => ApiKeys::EndQuorumEpoch,
            RaftResponse::Fetch(_) => ApiKeys::Fetch,
            RaftResponse::FetchSnapshot(_) => ApiKeys::FetchSnapshot,
            RaftResponse::AddRaftVoter(_) => ApiKeys::AddRaftVoter,
            RaftResponse::RemoveRaftVoter(_) => ApiKeys::RemoveRaftVoter,
            RaftResponse::UpdateRaftVoter(_) => ApiKeys::UpdateRaftVoter,
            RaftResponse::ApiVersions(_) => ApiKeys::ApiVersions,
            RaftResponse::Failed { api, .. } => *api,
        }
    }
}

impl RaftMessage {
    /// Its kind for views: `PreVoteRequest`, `FetchResponse`, `VoteFailed`, ...
    pub fn kind(&self) -> MessageKind {
        match self {
            RaftMessage::Request { body, .. } => MessageKind::request(match body {
                RaftRequest::Vote(v) if v.pre_vote => ApiKeys::PreVote,
                other => other.api(),
            }),
            RaftMessage::Response { body, .. } => match body {
                RaftResponse::Vote(v) if v.pre_vote => MessageKind::response(ApiKeys::PreVote),
                RaftResponse::Failed { api, .. } => MessageKind::failed(*api),
                other => MessageKind::response(other.api()),
            },
        }
    }

    /// The fields a view reads, by the schemas' names (see [`MessageFields`]).
    pub fn fields(&self) -> MessageFields {
        let mut f = MessageFields::default();
        match self {
            RaftMessage::Request { body, .. } => match body {
                RaftRequest::Vote(v) => {
                    f.epoch = Some(v.replica_epoch);
                    f.replica_id = Some(v.replica_id);
                    f.offset = Some(v.last_offset.offset);
                    f.offset_epoch = Some(v.last_offset.epoch);
                }
                RaftRequest::BeginQuorumEpoch(b) => {
                    f.epoch = Some(b.leader_epoch);
                    f.leader_id = Some(b.leader_id);
                }
                RaftRequest::EndQuorumEpoch(e) => {
                    f.epoch = Some(e.leader_epoch);
                    f.leader_id = Some(e.leader_id);
                }
                RaftRequest::Fetch(r) => {
                    f.epoch = Some(r.current_leader_epoch);
                    f.replica_id = Some(r.replica_id);
                    f.offset = Some(r.fetch_offset);
                    f.offset_epoch = Some(r.last_fetched_epoch);
                    f.high_watermark = Some(r.high_watermark);
                }
                RaftRequest::FetchSnapshot(r) => {
                    f.epoch = Some(r.current_leader_epoch);
                    f.replica_id = Some(r.replica_id);
                    f.offset = i64::try_from(r.position).ok();
                }
                RaftRequest::AddRaftVoter(r) => f.replica_id = Some(r.voter.id),
                RaftRequest::RemoveRaftVoter(r) => f.replica_id = Some(r.voter.id),
                RaftRequest::UpdateRaftVoter(r) => {
                    f.epoch = Some(r.current_leader_epoch);
                    f.replica_id = Some(r.voter.id);
                }
                RaftRequest::ApiVersions => {}
            },
            RaftMessage::Response { body, .. } => match body {
                RaftResponse::Vote(v) => {
                    f.epoch = Some(v.leader_epoch);
                    f.leader_id = Some(v.leader_id);
                    f.vote_granted = Some(v.vote_granted);
                    f.error = Some(v.error.name());
                }
                RaftResponse::BeginQuorumEpoch(e) | RaftResponse::EndQuorumEpoch(e) => {
                    f.epoch = Some(e.leader_epoch);
                    f.leader_id = Some(e.leader_id);
                    f.error = Some(e.error.name());
                }
                RaftResponse::Fetch(r) => {
                    f.epoch = Some(r.leader_epoch);
                    f.leader_id = Some(r.leader_id);
                    f.high_watermark = Some(r.high_watermark);
                    let records: usize = r.records.iter().map(|b| b.records.len()).sum();
                    f.records = u32::try_from(records).ok();
                    f.error = Some(r.error.name());
                }
                RaftResponse::FetchSnapshot(r) => {
                    f.epoch = Some(r.leader_epoch);
                    f.leader_id = Some(r.leader_id);
                    f.offset = i64::try_from(r.position).ok();
                    f.error = Some(r.error.name());
                }
                RaftResponse::AddRaftVoter(r) | RaftResponse::RemoveRaftVoter(r) => {
                    f.error = Some(r.error.name())
                }
                RaftResponse::UpdateRaftVoter(r) => {
                    f.epoch = Some(r.leader_epoch);
                    f.leader_id = Some(r.leader_id);
                    f.error = Some(r.error.name());
                }
                RaftResponse::ApiVersions(r) => f.error = Some(r.error.name()),
                RaftResponse::Failed { error, .. } => f.error = Some(error.name()),
            },
        }
        f
    }

    /// A one-line summary of the interesting fields, for views.
    pub fn summary(&self) -> String {
        match self {
            RaftMessage::Request { body, .. } => match body {
                RaftRequest::Vote(v) => format!(
                    "epoch={} candidate={} lastEpoch={} lastOffset={}",
                    v.replica_epoch, v.replica_id, v.last_offset.epoch, v.last_offset.offset
                ),
                RaftRequest::BeginQuorumEpoch(b) => {
                    format!("epoch={} leader={}", b.leader_epoch, b.leader_id)
                }
                RaftRequest::EndQuorumEpoch(e) => format!(
                    "epoch={} leader={} successors={:?}",
                    e.leader_epoch, e.leader_id, e.preferred_successors
                ),
                RaftRequest::Fetch(f) => format!(
                    "epoch={} fetchOffset={} lastFetchedEpoch={} hw={}",
                    f.current_leader_epoch, f.fetch_offset, f.last_fetched_epoch, f.high_watermark
                ),
                RaftRequest::FetchSnapshot(f) => format!(
                    "epoch={} snapshot={} position={}",
                    f.current_leader_epoch,
                    super::snapshot::snapshot_name(f.snapshot_id),
                    f.position
                ),
                RaftRequest::AddRaftVoter(r) => format!(
                    "voter={} port={} ackWhenCommitted={}",
                    r.voter,
                    r.port.map_or("-".into(), |p| p.to_string()),
                    r.ack_when_committed
                ),
                RaftRequest::RemoveRaftVoter(r) => format!("voter={}", r.voter),
                RaftRequest::UpdateRaftVoter(r) => format!(
                    "epoch={} voter={} port={} kraftVersions={}..{}",
                    r.current_leader_epoch, r.voter, r.port, r.kraft_versions.0, r.kraft_versions.1
                ),
                RaftRequest::ApiVersions => String::new(),
            },
            RaftMessage::Response { body, .. } => match body {
                RaftResponse::Vote(v) => format!(
                    "granted={} epoch={} error={}",
                    v.vote_granted,
                    v.leader_epoch,
                    v.error.name()
                ),
                RaftResponse::BeginQuorumEpoch(e) | RaftResponse::EndQuorumEpoch(e) => {
                    format!("epoch={} error={}", e.leader_epoch, e.error.name())
                }
                RaftResponse::Fetch(f) => {
                    let records: usize = f.records.iter().map(|b| b.records.len()).sum();
                    let mut s = format!(
                        "epoch={} hw={} records={} error={}",
                        f.leader_epoch,
                        f.high_watermark,
                        records,
                        f.error.name()
                    );
                    if let Some(d) = f.diverging_epoch {
                        s.push_str(&format!(" diverging=({}, {})", d.epoch, d.offset));
                    }
                    if let Some(id) = f.snapshot_id {
                        s.push_str(&format!(
                            " snapshotId={}",
                            super::snapshot::snapshot_name(id)
                        ));
                    }
                    s
                }
                RaftResponse::FetchSnapshot(f) => format!(
                    "epoch={} snapshot={} position={} bytes={} size={} error={}",
                    f.leader_epoch,
                    super::snapshot::snapshot_name(f.snapshot_id),
                    f.position,
                    f.chunk_bytes,
                    f.size,
                    f.error.name()
                ),
                RaftResponse::AddRaftVoter(r) | RaftResponse::RemoveRaftVoter(r) => {
                    match &r.error_message {
                        Some(m) => format!("error={} message={m}", r.error.name()),
                        None => format!("error={}", r.error.name()),
                    }
                }
                RaftResponse::UpdateRaftVoter(r) => format!(
                    "epoch={} leader={} error={}",
                    r.leader_epoch,
                    r.leader_id,
                    r.error.name()
                ),
                RaftResponse::ApiVersions(r) => match r.kraft_versions {
                    Some((lo, hi)) => format!("error={} kraft.version={lo}..{hi}", r.error.name()),
                    None => format!("error={}", r.error.name()),
                },
                RaftResponse::Failed { error, .. } => error.name().to_string(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's labels read these fields: a field renamed or no longer filled in breaks this
    /// test, not the page in silence.
    #[test]
    fn views_read_each_message_by_its_schema_fields() {
        let vote = RaftMessage::Request {
            correlation_id: 1,
            body: RaftRequest::Vote(VoteRequest {
                replica_epoch: 2,
                replica_id: 102,
                voter_id: 103,
                last_offset: OffsetAndEpoch {
                    offset: 31,
                    epoch: 1,
                },
                pre_vote: true,
            }),
        };
        assert_eq!(vote.kind(), MessageKind::request(ApiKeys::PreVote));
        let f = vote.fields();
        assert_eq!(
            (f.epoch, f.replica_id, f.offset, f.offset_epoch),
            (Some(2), Some(102), Some(31), Some(1))
        );
        assert_eq!(
            vote.summary(),
            "epoch=2 candidate=102 lastEpoch=1 lastOffset=31"
        );
        let answer = RaftMessage::Response {
            correlation_id: 1,
            body: RaftResponse::Vote(VoteResponse {
                error: Errors::None,
                leader_epoch: 2,
                leader_id: -1,
                vote_granted: false,
                pre_vote: true,
            }),
        };
        let f = answer.fields();
        assert_eq!(
            (f.vote_granted, f.error, f.epoch),
            (Some(false), Some("NONE"), Some(2))
        );
        let fetch = RaftMessage::Response {
            correlation_id: 2,
            body: RaftResponse::Fetch(FetchResponse {
                error: Errors::NotLeaderOrFollower,
                leader_epoch: 3,
                leader_id: 101,
                high_watermark: 40,
                log_start_offset: 0,
                diverging_epoch: None,
                snapshot_id: None,
                records: Vec::new(),
            }),
        };
        let f = fetch.fields();
        assert_eq!(
            (f.error, f.high_watermark, f.leader_id, f.records),
            (Some("NOT_LEADER_OR_FOLLOWER"), Some(40), Some(101), Some(0))
        );
        let failed = RaftMessage::Response {
            correlation_id: 3,
            body: RaftResponse::Failed {
                api: ApiKeys::BeginQuorumEpoch,
                error: Errors::BrokerNotAvailable,
            },
        };
        assert_eq!(failed.kind().name(), "BeginQuorumEpochFailed");
        assert_eq!(failed.fields().error, Some("BROKER_NOT_AVAILABLE"));
    }
}
