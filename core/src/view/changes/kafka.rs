//! The Kafka code behind each change: the class and method (as Kafka 4.5 names them) and,
//! where the reference article cites it, the file and line range at the article's commit of
//! apache/kafka. KIP-853's voter changes, which the article names by file only ("이 글에서 뺀
//! 것": AddVoterHandler.java, RemoveVoterHandler.java, UpdateVoterHandler.java,
//! KRaftControlRecordStateMachine.java), cite the lines of confluentinc/kafka at
//! [`FACTS_COMMIT`], where the reference facts (kip-853-facts.md) were read; that tree's raft/
//! files hold the article's cited lines unchanged (LeaderState 660-680, KafkaRaftClient 670-673,
//! QuorumState 641). Only names and pointers: no Kafka code is copied here.

use serde::Serialize;

/// The apache/kafka commit the reference article cites its line numbers at.
pub const KAFKA_COMMIT: &str = "ab1e816411";

/// The confluentinc/kafka commit (trunk, 4.5) the KIP-853 facts were read at.
pub const FACTS_COMMIT: &str = "06d492d813";

/// Which tree a [`Source`]'s lines are read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tree {
    /// apache/kafka at [`KAFKA_COMMIT`], as the article cites it.
    Article,
    /// confluentinc/kafka at [`FACTS_COMMIT`]: code the article names by file only.
    Facts,
}

impl Tree {
    /// `apache/kafka` or `confluentinc/kafka`.
    pub const fn repo(self) -> &'static str {
        match self {
            Tree::Article => "apache/kafka",
            Tree::Facts => "confluentinc/kafka",
        }
    }

    /// [`KAFKA_COMMIT`] or [`FACTS_COMMIT`].
    pub const fn commit(self) -> &'static str {
        match self {
            Tree::Article => KAFKA_COMMIT,
            Tree::Facts => FACTS_COMMIT,
        }
    }
}

/// A file and line range of Kafka's source: apache/kafka at [`KAFKA_COMMIT`] as the article
/// cites it, or (KIP-853's handlers) confluentinc/kafka at [`FACTS_COMMIT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Source {
    /// The path in the repository.
    pub path: &'static str,
    /// The first line.
    pub first: u32,
    /// The last line (the same as `first` for one line).
    pub last: u32,
    /// The tree the lines are read in.
    pub tree: Tree,
}

impl Source {
    /// `path:L670-L673` (or `path:L641` for one line), as plain text.
    pub fn text(&self) -> String {
        format!("{}:{}", self.path, self.anchor())
    }

    /// The file at its tree's commit on github.com, scrolled to the lines.
    pub fn url(&self) -> String {
        format!(
            "https://github.com/{}/blob/{}/{}#{}",
            self.tree.repo(),
            self.tree.commit(),
            self.path,
            self.anchor()
        )
    }

    fn anchor(&self) -> String {
        if self.first == self.last {
            format!("L{}", self.first)
        } else {
            format!("L{}-L{}", self.first, self.last)
        }
    }
}

/// The Kafka method responsible for a change, and the article's citation of it if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KafkaRef {
    /// `Class.method`, or a short chain `A.b → C.d` from the caller to what changed.
    pub method: &'static str,
    /// Where the article cites it.
    pub source: Option<Source>,
}

const KRC: &str = "raft/src/main/java/org/apache/kafka/raft/KafkaRaftClient.java";
const QS: &str = "raft/src/main/java/org/apache/kafka/raft/QuorumState.java";
const LS: &str = "raft/src/main/java/org/apache/kafka/raft/LeaderState.java";
const QC: &str = "metadata/src/main/java/org/apache/kafka/controller/QuorumController.java";
const OCM: &str = "metadata/src/main/java/org/apache/kafka/controller/OffsetControlManager.java";
const RCM: &str =
    "metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java";
const ARG: &str =
    "metadata/src/main/java/org/apache/kafka/controller/ActivationRecordsGenerator.java";
const ML: &str = "metadata/src/main/java/org/apache/kafka/image/loader/MetadataLoader.java";
const SG: &str = "metadata/src/main/java/org/apache/kafka/image/publisher/SnapshotGenerator.java";
const SR: &str = "server-common/src/main/java/org/apache/kafka/timeline/SnapshotRegistry.java";
const BLM: &str = "server/src/main/java/org/apache/kafka/server/BrokerLifecycleManager.java";
const AVH: &str = "raft/src/main/java/org/apache/kafka/raft/internals/AddVoterHandler.java";
const RVH: &str = "raft/src/main/java/org/apache/kafka/raft/internals/RemoveVoterHandler.java";
const UVH: &str = "raft/src/main/java/org/apache/kafka/raft/internals/UpdateVoterHandler.java";
const KCRSM: &str =
    "raft/src/main/java/org/apache/kafka/raft/internals/KRaftControlRecordStateMachine.java";

const fn cited(method: &'static str, path: &'static str, first: u32, last: u32) -> KafkaRef {
    KafkaRef {
        method,
        source: Some(Source {
            path,
            first,
            last,
            tree: Tree::Article,
        }),
    }
}

/// A KIP-853 method the article names by file only, at its lines in [`Tree::Facts`].
const fn read_at(method: &'static str, path: &'static str, first: u32, last: u32) -> KafkaRef {
    KafkaRef {
        method,
        source: Some(Source {
            path,
            first,
            last,
            tree: Tree::Facts,
        }),
    }
}

const fn named(method: &'static str) -> KafkaRef {
    KafkaRef {
        method,
        source: None,
    }
}

// ----- Raft states (QuorumState's javadoc: QuorumState.java 35-83) -----

/// `from null`: the state read back from quorum-state at start-up.
pub const STARTUP: KafkaRef = named("KafkaRaftClient.initialize → QuorumState.initialize");
/// Follower → Prospective on the fetch timeout.
pub const FETCH_TIMEOUT: KafkaRef =
    named("KafkaRaftClient.pollFollowerAsVoter → QuorumState.transitionToProspective");
/// Unattached → Prospective on the election timeout.
pub const UNATTACHED_TIMEOUT: KafkaRef =
    named("KafkaRaftClient.pollUnattachedAsVoter → QuorumState.transitionToProspective");
/// Candidate → Prospective: the election timed out.
pub const CANDIDATE_TIMEOUT: KafkaRef =
    named("KafkaRaftClient.pollCandidate → QuorumState.transitionToProspective");
/// Prospective → Follower/Unattached: the pre-vote timed out.
pub const PREVOTE_TIMEOUT: KafkaRef =
    named("KafkaRaftClient.pollProspective → prospectiveTransitionAfterElectionLoss");
/// Prospective → Follower/Unattached: the pre-votes were rejected.
pub const PREVOTE_REJECTED: KafkaRef =
    named("KafkaRaftClient.maybeHandleElectionLoss → prospectiveTransitionAfterElectionLoss");
/// Prospective → Candidate on a PreVote majority (a new epoch: `epoch() + 1`).
pub const PREVOTE_MAJORITY: KafkaRef = cited(
    "KafkaRaftClient.handleVoteResponse → QuorumState.transitionToCandidate",
    QS,
    641,
    641,
);
/// Prospective → Candidate at once (every pre-vote already granted: a single voter).
pub const PROSPECTIVE_CHAINED: KafkaRef = cited(
    "KafkaRaftClient.onBecomeProspective → QuorumState.transitionToCandidate",
    QS,
    641,
    641,
);
/// Candidate → Leader on a vote majority; the leader writes its start-of-epoch control batch.
pub const VOTE_MAJORITY: KafkaRef = cited(
    "KafkaRaftClient.handleVoteResponse → onBecomeLeader → QuorumState.transitionToLeader",
    KRC,
    670,
    673,
);
/// Candidate → Leader at once (a single voter).
pub const CANDIDATE_CHAINED: KafkaRef = cited(
    "KafkaRaftClient.onBecomeCandidate → onBecomeLeader → QuorumState.transitionToLeader",
    KRC,
    670,
    673,
);
/// A Vote request of a newer epoch: Unattached in that epoch.
pub const VOTE_REQUEST_EPOCH: KafkaRef = cited(
    "KafkaRaftClient.handleVoteRequest → QuorumState.transitionToUnattached",
    KRC,
    896,
    929,
);
/// A vote granted: the vote is recorded (durably) before the response goes out.
pub const VOTE_GRANTED: KafkaRef = cited(
    "KafkaRaftClient.handleVoteRequest → QuorumState.unattachedAddVotedState",
    KRC,
    931,
    937,
);
/// A pre-vote that was a Prospective's vote (`prospectiveAddVotedState`).
pub const PROSPECTIVE_VOTED: KafkaRef =
    named("KafkaRaftClient.handleVoteRequest → QuorumState.prospectiveAddVotedState");
/// Leader → Resigned: check quorum lost.
pub const CHECK_QUORUM: KafkaRef =
    named("KafkaRaftClient.pollLeader → QuorumState.transitionToResigned");
/// Leader → Resigned on a graceful shutdown.
pub const RESIGN_SHUTDOWN: KafkaRef =
    named("KafkaRaftClient.pollLeader (shutdown) → QuorumState.transitionToResigned");
/// Resigned → Unattached at the end of its election timeout.
pub const RESIGNED_TIMEOUT: KafkaRef =
    named("KafkaRaftClient.pollResigned → QuorumState.transitionToUnattached");
/// A BeginQuorumEpoch request names the leader.
pub const BEGIN_QUORUM_EPOCH: KafkaRef =
    named("KafkaRaftClient.handleBeginQuorumEpochRequest → maybeTransition");
/// An EndQuorumEpoch request of a newer epoch.
pub const END_QUORUM_EPOCH: KafkaRef =
    named("KafkaRaftClient.handleEndQuorumEpochRequest → maybeTransition");
/// A response names a newer epoch or the leader.
pub const COMMON_RESPONSE: KafkaRef =
    named("KafkaRaftClient.maybeHandleCommonResponse → maybeTransition");
/// A request or response names the leader (BeginQuorumEpoch, or a response).
pub const TO_FOLLOWER: KafkaRef =
    named("KafkaRaftClient.maybeTransition → QuorumState.transitionToFollower");
/// A request or response names a newer epoch without a leader.
pub const TO_UNATTACHED: KafkaRef =
    named("KafkaRaftClient.maybeTransition → QuorumState.transitionToUnattached");
/// quorum-state written before the state changes in memory.
pub const QUORUM_STATE_FILE: KafkaRef = cited(
    "QuorumState.durableTransitionTo → FileQuorumStateStore.writeElectionState",
    QS,
    729,
    733,
);

// ----- the metadata log -----

/// The leader's start-of-epoch control batch (LeaderChange, KRaftVersion, KRaftVoters).
pub const START_OF_EPOCH: KafkaRef = cited(
    "KafkaRaftClient.onBecomeLeader → LeaderState.appendStartOfEpochControlRecords",
    KRC,
    670,
    673,
);
/// The active controller's NoOpRecord every metadata.max.idle.interval.ms.
pub const NO_OP: KafkaRef = cited(
    "QuorumController.registerWriteNoOpRecord → ControllerWriteEvent.run",
    QC,
    1634,
    1636,
);
/// A controller write: records generated, appended through Raft, an in-memory snapshot.
pub const WRITE_EVENT: KafkaRef = cited(
    "QuorumController.ControllerWriteEvent.run → KafkaRaftClient.prepareAppend",
    QC,
    792,
    853,
);
/// The bootstrap records of the first activation.
pub const ACTIVATION_RECORDS: KafkaRef = cited(
    "QuorumController.CompleteActivationEvent → ActivationRecordsGenerator.generate",
    ARG,
    81,
    81,
);
/// A follower or observer appends what its Fetch returned.
pub const APPEND_AS_FOLLOWER: KafkaRef =
    named("KafkaRaftClient.handleFetchResponse → KafkaRaftLog.appendAsFollower");
/// A follower or observer appends what its Fetch returned and takes the HW it carried.
pub const FOLLOWER_FETCH: KafkaRef =
    named("KafkaRaftClient.handleFetchResponse → appendAsFollower, updateFollowerHighWatermark");
/// A follower truncates to where its log and the leader's diverge.
pub const TRUNCATE: KafkaRef =
    named("KafkaRaftClient.handleFetchResponse → KafkaRaftLog.truncateToEndOffset");
/// The leader's high watermark: the end offset a majority of voters holds, moved by a
/// voter's Fetch.
pub const LEADER_HW: KafkaRef = cited(
    "LeaderState.updateReplicaState → maybeUpdateHighWatermark",
    LS,
    660,
    680,
);
/// The only voter's high watermark, moved by its own flushed append.
pub const LEADER_HW_ALONE: KafkaRef = cited(
    "LeaderState.updateLocalState → maybeUpdateHighWatermark",
    LS,
    660,
    680,
);
/// A follower's high watermark, from the leader's Fetch response.
pub const FOLLOWER_HW: KafkaRef =
    named("KafkaRaftClient.handleFetchResponse → updateFollowerHighWatermark");
/// The controllers learn of committed batches.
pub const CONTROLLER_COMMIT: KafkaRef = cited(
    "QuorumController.QuorumMetaLogListener.handleCommit → OffsetControlManager.handleCommitBatch",
    QC,
    969,
    1020,
);
/// A MetadataLoader publishes a new image of committed batches.
pub const LOADER_COMMIT: KafkaRef = cited(
    "MetadataLoader.handleCommit → maybePublishMetadata",
    ML,
    395,
    414,
);

// ----- files -----

/// A snapshot file written from the published image.
pub const SNAPSHOT_GENERATED: KafkaRef = cited(
    "SnapshotGenerator.publishLogDelta → KafkaRaftClient.createSnapshot",
    SG,
    232,
    253,
);
/// A snapshot downloaded from the leader.
pub const SNAPSHOT_FETCHED: KafkaRef =
    named("KafkaRaftClient.handleFetchSnapshotResponse → KafkaRaftLog.onSnapshotFrozen");
/// Snapshots past retention marked for deletion (`.checkpoint.deleted`).
pub const SNAPSHOT_CLEANED: KafkaRef = named("KafkaRaftLog.maybeClean → cleanSnapshots");
/// A new log segment rolled.
pub const SEGMENT_ROLLED: KafkaRef = named("UnifiedLog.maybeRoll → roll");
/// Segments wholly before the log start offset deleted.
pub const SEGMENT_DELETED: KafkaRef =
    named("KafkaRaftLog.deleteBeforeSnapshot → UnifiedLog.deleteOldSegments");

// ----- the controller -----

/// A controller becomes active: an in-memory snapshot at the last committed offset.
pub const ACTIVATE: KafkaRef = cited(
    "QuorumController.QuorumMetaLogListener.handleLeaderChange → claim → OffsetControlManager.activate",
    OCM,
    249,
    252,
);
/// The active controller renounces (a leader change reaches it).
pub const RENOUNCE: KafkaRef = cited(
    "QuorumController.renounce → OffsetControlManager.deactivate",
    QC,
    1204,
    1216,
);
/// The uncommitted in-memory state is reverted.
pub const REVERT: KafkaRef = cited(
    "OffsetControlManager.deactivate → SnapshotRegistry.revertToSnapshot",
    OCM,
    260,
    272,
);
/// An in-memory snapshot at the last offset of each write.
pub const REGISTRY_CREATE: KafkaRef = cited(
    "OffsetControlManager.handleScheduleAppend → SnapshotRegistry.idempotentCreateSnapshot",
    OCM,
    302,
    305,
);
/// In-memory snapshots below the last stable offset dropped on commit.
pub const REGISTRY_DELETE: KafkaRef = cited(
    "OffsetControlManager.maybeAdvanceLastStableOffset → SnapshotRegistry.deleteSnapshotsUpTo",
    OCM,
    319,
    333,
);
/// A broker registered (fenced until it catches up).
pub const REGISTER_BROKER: KafkaRef =
    named("ClusterControlManager.registerBroker → RegisterBrokerRecord");
/// A broker fenced because its session timed out.
pub const FENCE_STALE: KafkaRef = cited(
    "ReplicationControlManager.maybeFenceOneStaleBroker → handleBrokerFenced, BrokerHeartbeatManager.fence",
    RCM,
    1809,
    1816,
);
/// A broker fenced by its controlled shutdown (SHUTDOWN_NOW).
pub const FENCE_SHUTDOWN: KafkaRef = cited(
    "ReplicationControlManager.processBrokerHeartbeat → handleBrokerFenced",
    RCM,
    1449,
    1460,
);
/// A broker unfenced: it caught up with its registration.
pub const UNFENCE: KafkaRef = cited(
    "ReplicationControlManager.processBrokerHeartbeat → handleBrokerUnfenced",
    RCM,
    1494,
    1501,
);
/// A broker's own state moved on a heartbeat response.
pub const BROKER_HEARTBEAT_RESPONSE: KafkaRef = cited(
    "BrokerLifecycleManager.BrokerHeartbeatResponseEvent.run",
    BLM,
    645,
    702,
);
/// A broker begins its controlled shutdown.
pub const BROKER_BEGIN_SHUTDOWN: KafkaRef = cited(
    "BrokerLifecycleManager.BeginControlledShutdownEvent.run",
    BLM,
    343,
    343,
);
/// A broker shuts down.
pub const BROKER_SHUTDOWN: KafkaRef = named("BrokerLifecycleManager.ShutdownEvent.run");
/// A broker starts.
pub const BROKER_STARTUP: KafkaRef = named("BrokerLifecycleManager.StartupEvent.run");
/// A topic created: its TopicRecord replayed into topicsByName and topics.
pub const CREATE_TOPICS: KafkaRef = cited(
    "ReplicationControlManager.createTopics → replay(TopicRecord)",
    RCM,
    336,
    361,
);
/// A partition's leader or ISR changed when a broker was fenced.
pub const ISR_FENCED: KafkaRef = cited(
    "ReplicationControlManager.handleBrokerFenced → generateLeaderAndIsrUpdates",
    RCM,
    1449,
    1460,
);
/// A partition's leader or ISR changed when a broker was unfenced.
pub const ISR_UNFENCED: KafkaRef = cited(
    "ReplicationControlManager.handleBrokerUnfenced → generateLeaderAndIsrUpdates",
    RCM,
    1494,
    1501,
);
/// A partition's leader or ISR changed on a controlled shutdown.
pub const ISR_SHUTDOWN: KafkaRef = cited(
    "ReplicationControlManager.handleBrokerInControlledShutdown → generateLeaderAndIsrUpdates",
    RCM,
    1514,
    1523,
);
/// A partition's ISR changed on a leader's AlterPartition.
pub const ALTER_PARTITION: KafkaRef =
    named("ReplicationControlManager.alterPartition → PartitionChangeBuilder");

// ----- the voter set (KIP-853) -----

/// AddRaftVoter accepted: the leader asks the new voter for its ApiVersions first (to learn
/// the kraft.version range it supports).
pub const ADD_VOTER_API_VERSIONS: KafkaRef = read_at(
    "KafkaRaftClient.handleAddVoterRequest → AddVoterHandler.handleAddVoterRequest (ApiVersions)",
    AVH,
    204,
    220,
);
/// The new voter answered and is caught up: the set with it appended as a VotersRecord, in
/// force from its append.
pub const ADD_VOTER_APPENDED: KafkaRef = read_at(
    "AddVoterHandler.handleApiVersionsResponse → LeaderState.appendVotersRecord",
    AVH,
    370,
    392,
);
/// The added voter's VotersRecord committed: the change is done.
pub const ADD_VOTER_COMMITTED: KafkaRef = read_at(
    "AddVoterHandler.highWatermarkUpdated → resetAddVoterHandlerState",
    AVH,
    415,
    432,
);
/// RemoveRaftVoter accepted: the set without the voter appended at once (no ApiVersions).
pub const REMOVE_VOTER_APPENDED: KafkaRef = read_at(
    "KafkaRaftClient.handleRemoveVoterRequest → RemoveVoterHandler.handleRemoveVoterRequest → LeaderState.appendVotersRecord",
    RVH,
    191,
    196,
);
/// The removal's VotersRecord committed: the change is done.
pub const REMOVE_VOTER_COMMITTED: KafkaRef = read_at(
    "RemoveVoterHandler.highWatermarkUpdated → resetRemoveVoterHandlerState",
    RVH,
    212,
    222,
);
/// A leader that removed itself resigns once the removal commits.
pub const RESIGN_REMOVED: KafkaRef = read_at(
    "RemoveVoterHandler.highWatermarkUpdated → LeaderState.requestResign → KafkaRaftClient.pollLeader → transitionToResigned",
    RVH,
    222,
    239,
);
/// UpdateRaftVoter accepted: ApiVersions to the voter first.
pub const UPDATE_VOTER_API_VERSIONS: KafkaRef = read_at(
    "KafkaRaftClient.handleUpdateVoterRequest → UpdateVoterHandler.handleUpdateVoterRequest (ApiVersions)",
    UVH,
    136,
    232,
);
/// A voter's new endpoint or kraft.version range appended as a VotersRecord.
pub const UPDATE_VOTER_APPENDED: KafkaRef = read_at(
    "UpdateVoterHandler.completeUpdateVoter → storeUpdatedVoters → LeaderState.appendVotersRecord",
    UVH,
    451,
    466,
);
/// The update's VotersRecord committed.
pub const UPDATE_VOTER_COMMITTED: KafkaRef = read_at(
    "UpdateVoterHandler.highWatermarkUpdated → resetUpdateVoterHandlerState",
    UVH,
    545,
    560,
);
/// kraft.version upgraded: KRaftVersion 1 and the voter set appended together.
pub const KRAFT_VERSION_UPGRADE: KafkaRef =
    named("KafkaRaftClient.upgradeKRaftVersion → LeaderState.maybeAppendUpgradedKRaftVersion");
/// Each replica reads every VotersRecord its log gets, uncommitted: the set is in force there
/// from that moment.
pub const VOTERS_READ: KafkaRef = read_at(
    "KRaftControlRecordStateMachine.updateState → maybeLoadLog → handleBatch",
    KCRSM,
    294,
    308,
);

// ----- a standalone TimelineHashMap (the console's `timeline`) -----

/// `timeline put` / `timeline remove`: the old value saved in the newest snapshot's tier.
pub const TIMELINE_CHANGE: KafkaRef =
    named("TimelineHashMap.put / remove → SnapshottableHashTable");
/// `timeline snapshot N`.
pub const TIMELINE_SNAPSHOT: KafkaRef = named("SnapshotRegistry.idempotentCreateSnapshot");
/// `timeline commit N`.
pub const TIMELINE_DELETE: KafkaRef = cited("SnapshotRegistry.deleteSnapshotsUpTo", SR, 297, 305);
/// `timeline revert N`.
pub const TIMELINE_REVERT: KafkaRef = named("SnapshotRegistry.revertToSnapshot");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_print_as_path_and_lines_and_link_to_the_commit() {
        let s = VOTE_MAJORITY.source.unwrap();
        assert_eq!(
            s.text(),
            "raft/src/main/java/org/apache/kafka/raft/KafkaRaftClient.java:L670-L673"
        );
        assert_eq!(
            s.url(),
            "https://github.com/apache/kafka/blob/ab1e816411/raft/src/main/java/org/apache/kafka/raft/KafkaRaftClient.java#L670-L673"
        );
        assert!(PREVOTE_MAJORITY.source.unwrap().text().ends_with(":L641"));
        assert_eq!(
            ADD_VOTER_APPENDED.source.unwrap().url(),
            "https://github.com/confluentinc/kafka/blob/06d492d813/raft/src/main/java/org/apache/kafka/raft/internals/AddVoterHandler.java#L370-L392"
        );
    }
}
