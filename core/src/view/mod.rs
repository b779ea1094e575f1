//! Serialisable, read-only views of the world that the UI and tools draw.
//!
//! The page never reaches into engine internals: it calls [`crate::sim::World::view`] and draws
//! what comes back.

use serde::Serialize;

mod build;
pub mod changes;
pub mod data;
pub mod pace;
pub mod quorum;
pub mod rules;
pub mod sequence;
pub mod status;
pub mod timeline;
pub mod transitions;

pub use crate::broker::lifecycle::BrokerState;
pub use crate::common::api_keys::{ApiKeys, Direction, MessageKind};
pub use crate::common::message::fields::MessageFields;
pub use crate::raft::state::StateKind;
pub use crate::sim::network::MessageView;
pub use crate::sim::node::{ProcessState, Roles};
pub(crate) use build::raft_timer_view;

pub use data::{DataPartitionView, ReplicaOffsetsView};
pub use quorum::{QuorumView, VoterChangeKind, VoterChangePhase, VoterChangeView};
pub use timeline::TimelineView;
pub use transitions::{LoggedTransition, TransitionCause};

/// Everything the page draws at one instant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClusterView {
    /// Virtual time in ms since the world started.
    pub now_ms: u64,
    /// The seed the world was built from (serialised as text: a seed may exceed the integers
    /// JavaScript holds exactly).
    #[serde(serialize_with = "as_text")]
    pub seed: u64,
    /// How many events have run so far.
    pub events_run: u64,
    /// Every node, sorted by id.
    pub nodes: Vec<NodeView>,
    /// Messages in flight (and recently dropped ones), sorted by send time.
    pub messages: Vec<MessageView>,
    /// Messages delivered in the last [`RECENT_MESSAGE_MS`] (at most the last 32), oldest first.
    pub recently_delivered: Vec<MessageView>,
    /// Directed links the network delivers nothing on (`partition`, isolate), sorted.
    pub blocked: Vec<(i32, i32)>,
    /// The data partitions as the active controller has them (none without an active
    /// controller), by topic name and partition.
    pub partitions: Vec<PartitionView>,
    /// The data partitions as their brokers hold them (each replica's log end offset and high
    /// watermark, the leader's ISR minimum), by topic name and partition.
    pub data_partitions: Vec<DataPartitionView>,
    /// The recent messages, process events and Raft transitions, for the sequence diagram.
    pub sequence: sequence::SequenceView,
    /// The rule switches (all on unless a lesson or the lecturer turned one off).
    pub rules: Vec<rules::RuleView>,
    /// Each invariant's status, as the monitor saw it after every event (empty without one).
    pub invariants: Vec<rules::InvariantView>,
    /// The metadata quorum (KIP-853): the voters in force, the observers, the majority, the
    /// newest VotersRecord and the leader's voter change in progress.
    pub quorum: QuorumView,
}

/// Serialises `v` as its decimal text.
fn as_text<S: serde::Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

impl ClusterView {
    /// The active controller's node id and QuorumController view, if one is active.
    pub fn active_controller(&self) -> Option<(i32, &ControllerView)> {
        self.nodes.iter().find_map(|n| {
            n.controller
                .as_ref()
                .filter(|c| c.active)
                .map(|c| (n.id, c))
        })
    }
}

/// A data partition as the active controller registered it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionView {
    /// The topic's name.
    pub topic: String,
    /// The partition id.
    pub partition: i32,
    /// The leader (-1 for none).
    pub leader: i32,
    /// The replicas, in assignment order.
    pub replicas: Vec<i32>,
    /// The in-sync replicas.
    pub isr: Vec<i32>,
}

/// How long (virtual ms) a dropped message (after its send) or a delivered one (after its
/// arrival) stays in the view.
pub const RECENT_MESSAGE_MS: u64 = 200;

/// One node (controller, broker or combined).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeView {
    /// node.id
    pub id: i32,
    /// Kafka's process.roles: `controller`, `broker` or `broker,controller`.
    pub roles: Roles,
    /// Whether this node is a voter of the metadata quorum.
    pub is_voter: bool,
    /// Running, killed (kill -9) or stopped (SIGSTOP).
    pub process: ProcessState,
    /// The Raft state (Unattached, Prospective, Candidate, Leader, Follower, Resigned); `None`
    /// when the process is not running.
    pub raft_state: Option<StateKind>,
    /// Current epoch (from memory when running, from quorum-state when down).
    pub epoch: i32,
    /// Leader this node believes in, if any.
    pub leader_id: Option<i32>,
    /// Voter this node voted for in the current epoch, if any.
    pub voted_id: Option<i32>,
    /// Log start offset of `__cluster_metadata-0`.
    pub log_start_offset: i64,
    /// Log end offset of `__cluster_metadata-0`.
    pub log_end_offset: i64,
    /// High watermark known to this node, if known.
    pub high_watermark: Option<i64>,
    /// The newest batches of the log (at most [`MAX_BATCHES_IN_VIEW`]), oldest first; before
    /// them, when it is further back, the newest batch a voter change wrote
    /// ([`BatchView::is_voter_change`]: the voter set in force).
    pub batches: Vec<BatchView>,
    /// Base offsets of the log segments, oldest first.
    pub segments: Vec<i64>,
    /// Snapshot files (`<offset>-<epoch>.checkpoint`), oldest first.
    pub snapshots: Vec<String>,
    /// A snapshot being downloaded with FetchSnapshot: (file name, bytes received).
    pub fetching_snapshot: Option<(String, usize)>,
    /// The newest log lines of this node (at most [`MAX_LOG_LINES_IN_VIEW`]), oldest first.
    pub log_tail: Vec<String>,
    /// Time (virtual ms) at which this node's next timer fires, if any.
    pub next_timer_ms: Option<u64>,
    /// The Raft timer of the current state (election, fetch or check-quorum), if it has one.
    pub raft_timer: Option<RaftTimerView>,
    /// The leader's high-watermark computation; `None` unless this node leads.
    pub high_watermark_calc: Option<HighWatermarkView>,
    /// The newest `Completed transition to ...` line of this node's server.log, if any.
    pub last_transition: Option<TransitionView>,
    /// The newest [`MAX_RECENT_TRANSITIONS`] transitions between two states (start-up's `from
    /// null` left out), oldest first.
    pub recent_transitions: Vec<TransitionView>,
    /// The QuorumController of a running controller node.
    pub controller: Option<ControllerView>,
    /// The BrokerLifecycleManager of a running broker node.
    pub broker: Option<BrokerView>,
    /// The MetadataImage the node's MetadataLoader last published, if it runs one.
    pub image: Option<ImageView>,
    /// How many lines this node has logged, rotated ones included: a step's new lines are
    /// those past this count in the view before it.
    pub log_lines_written: u64,
    /// The newest QuorumState transitions of its server.log (at most
    /// [`transitions::MAX_TRANSITIONS_IN_VIEW`]), oldest first, each with its trigger.
    pub logged_transitions: Vec<LoggedTransition>,
}

/// A published MetadataImage as kafka-metadata-shell shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ImageView {
    /// Provenance: the offset of the last record in the image (-1 before the first publication).
    pub offset: i64,
    /// Provenance: the epoch of that record (-1 before the first publication).
    pub epoch: i32,
    /// How many images the loader has published.
    pub publish_count: u64,
    /// The /image areas the last publication changed (`topics`, `cluster`, ...).
    pub changed: Vec<String>,
    /// The image itself (its areas are shared `Arc`s, so this is cheap to keep); see
    /// [`ImageView::tree`].
    #[serde(skip)]
    pub image: crate::image::MetadataImage,
}

impl ImageView {
    /// The shell's tree of the image: `/image/...` and `/local/version`. Built on demand, for
    /// the one image a panel draws, not for every node on every step.
    pub fn tree(&self) -> crate::image::shell_tree::ShellNode {
        crate::image::shell_tree::image_tree(&self.image)
    }
}

/// A Raft timer of the node's current state: when it fires and how long it was set for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RaftTimerView {
    /// Election (Unattached, Prospective, Candidate, Resigned), fetch (Follower) or
    /// check-quorum (Leader).
    pub kind: TimerKind,
    /// Virtual time (ms) at which it fires.
    pub deadline_ms: u64,
    /// The duration it was set for (ms): the randomized election timeout, fetchTimeoutMs, or
    /// the check-quorum timeout (fetchTimeoutMs * 1.5).
    pub duration_ms: u64,
}

/// Which Raft timer a state runs (serialised as `election`, `fetch`, `check-quorum`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TimerKind {
    /// The election timeout (election.timeout.ms plus a random part).
    Election,
    /// A follower's fetch timeout (fetchTimeoutMs).
    Fetch,
    /// The leader's check-quorum timer (fetchTimeoutMs * 1.5).
    CheckQuorum,
}

impl TimerKind {
    /// `election`, `fetch` or `check-quorum`.
    pub const fn name(self) -> &'static str {
        match self {
            TimerKind::Election => "election",
            TimerKind::Fetch => "fetch",
            TimerKind::CheckQuorum => "check-quorum",
        }
    }
}

/// `LeaderState.maybeUpdateHighWatermark` as the leader sees it right now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HighWatermarkView {
    /// Voters and their end offsets, sorted by end offset descending (ties by id); `None` when
    /// the leader has no fetch position for that voter yet.
    pub voters: Vec<(i32, Option<i64>)>,
    /// The index into `voters` that is picked: `voters.len() / 2`.
    pub index_of_hw: usize,
    /// The end offset at `index_of_hw`: the offset a majority holds, if known.
    pub candidate: Option<i64>,
    /// epochStartOffset of the current leader epoch (the LEO when this leader was elected).
    pub epoch_start_offset: i64,
    /// Whether the candidate is past the epoch start offset (only then can the HW move).
    pub past_epoch_start: bool,
    /// The leader's high watermark now.
    pub high_watermark: Option<i64>,
}

/// One QuorumState transition read back from a node's server.log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TransitionView {
    /// Virtual time (ms) of the log line.
    pub time_ms: u64,
    /// The state left (`None` at start-up, where the line says `from null`).
    pub from: Option<StateKind>,
    /// The state entered.
    pub to: StateKind,
    /// The epoch of the state entered.
    pub epoch: i32,
    /// The epoch of the state left (`None` at start-up).
    pub from_epoch: Option<i32>,
}

/// At most this many transitions in [`NodeView::recent_transitions`].
pub const MAX_RECENT_TRANSITIONS: usize = 4;

/// A QuorumController as the lecture panel draws it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ControllerView {
    /// Whether it is the active controller.
    pub active: bool,
    /// The epoch it is active in, if active.
    pub active_epoch: Option<i32>,
    /// Names of the queued events, in order.
    pub queue: Vec<String>,
    /// Deferred (timed) events: (name, deadline ms).
    pub deferred: Vec<(String, u64)>,
    /// Writes in the purgatory: (event name, offset it waits for).
    pub purgatory: Vec<(String, i64)>,
    /// The event that ran last.
    pub last_event: Option<String>,
    /// The last ControllerResult: its records (kafka-dump-log JSON) and whether atomic.
    pub last_result: Option<(Vec<String>, bool)>,
    /// lastCommittedOffset
    pub last_committed_offset: i64,
    /// lastStableOffset
    pub last_stable_offset: i64,
    /// nextWriteOffset (-1 on a standby)
    pub next_write_offset: i64,
    /// The in-memory snapshot epochs of the SnapshotRegistry.
    pub snapshots: Vec<i64>,
    /// topicsByName (a TimelineHashMap) with the SnapshotRegistry's snapshots and the last
    /// revert.
    pub topics_by_name: TimelineView,
    /// Registered brokers: (id, broker epoch, fenced).
    pub brokers: Vec<(i32, i64, bool)>,
    /// The registered brokers in controlled shutdown (`inControlledShutdown`), by id.
    pub brokers_in_controlled_shutdown: Vec<i32>,
    /// Registered controllers.
    pub controllers: Vec<i32>,
    /// Broker sessions on the active controller: (id, ms since last heartbeat).
    pub sessions: Vec<(i32, u64)>,
    /// broker.session.timeout.ms: a session without a heartbeat for this long is fenced.
    pub session_timeout_ms: u64,
    /// On the active controller, each broker's last few heartbeat arrival times (virtual ms,
    /// oldest first).
    pub heartbeats: Vec<(i32, Vec<u64>)>,
    /// The lives of its last few writes other than NoOpRecord (article section 3), oldest
    /// first: each step's virtual time, Raft's included.
    pub write_lives: Vec<crate::controller::write_life::WriteLife>,
}

/// One snapshot tier of topicsByName: its epoch and the saved (name, old value) pairs; `None`
/// means the name was absent at that snapshot.
pub type TopicTier = (i64, Vec<(String, Option<String>)>);

/// A broker's lifecycle as the panel draws it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BrokerView {
    /// Its BrokerState (STARTING, RECOVERY, RUNNING, ...).
    pub state: BrokerState,
    /// Broker epoch (-1 before registration).
    pub broker_epoch: i64,
    /// Whether the controller's last answer said fenced.
    pub fenced: bool,
    /// Virtual time of the last heartbeat sent.
    pub last_heartbeat_ms: Option<u64>,
}

/// At most this many batches per node are put in a view.
pub const MAX_BATCHES_IN_VIEW: usize = 40;
/// At most this many log lines per node are put in a view.
pub const MAX_LOG_LINES_IN_VIEW: usize = 30;

/// One record batch of the metadata log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BatchView {
    /// First offset of the batch.
    pub base_offset: i64,
    /// Last offset of the batch.
    pub last_offset: i64,
    /// partitionLeaderEpoch of the batch.
    pub epoch: i32,
    /// isControl of the batch.
    pub is_control: bool,
    /// Whether the whole batch is below the node's high watermark.
    pub committed: bool,
    /// One short description per record, e.g. `LeaderChange` or `NO_OP_RECORD`.
    pub records: Vec<String>,
}

impl BatchView {
    /// Whether it holds a VotersRecord (`KRaftVoters`): the voter set, in force from here on
    /// every node that reads it (KIP-853).
    pub fn holds_voters(&self) -> bool {
        self.is_control && self.records.iter().any(|r| r == "KRaftVoters")
    }

    /// Whether a voter change wrote it (AddVoter, RemoveVoter, UpdateVoter, the kraft.version
    /// upgrade): a VotersRecord without the LeaderChange that starts an epoch.
    pub fn is_voter_change(&self) -> bool {
        self.holds_voters() && !self.records.iter().any(|r| r == "LeaderChange")
    }
}
