//! A simulated process: its disk and log files (which survive kill -9) and its running
//! KafkaRaftClient (which does not).

use serde::Serialize;

use super::message::Message;
pub use super::node_config::Roles;
use crate::broker::BrokerLifecycleManager;
use crate::common::node_log::NodeLog;
use crate::common::uuid::Uuid;
use crate::controller::QuorumController;
use crate::image::MetadataLoader;
use crate::raft::disk::Disk;
use crate::raft::KafkaRaftClient;

/// The OS-level state of a process (serialised as `running`, `killed`, `stopped`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ProcessState {
    /// Running.
    Running,
    /// Killed with `kill -9` (or died of a fatal fault); restart with `start`.
    Killed,
    /// Frozen with SIGSTOP: timers and messages queue up until SIGCONT.
    Stopped,
}

impl ProcessState {
    /// Text for views.
    pub fn name(&self) -> &'static str {
        match self {
            ProcessState::Running => "running",
            ProcessState::Killed => "killed",
            ProcessState::Stopped => "stopped",
        }
    }
}

impl std::fmt::Display for ProcessState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

/// One node of the cluster.
#[derive(Clone, Debug)]
pub struct Node {
    /// node.id
    pub id: i32,
    /// process.roles
    pub roles: Roles,
    /// The metadata log directory's id (meta.properties directory.id).
    pub directory_id: Uuid,
    /// The disk.
    pub disk: Disk,
    /// server.log and controller.log.
    pub log: NodeLog,
    /// OS state.
    pub process: ProcessState,
    /// The Raft client while the process runs.
    pub raft: Option<KafkaRaftClient>,
    /// Messages that arrived while SIGSTOPped, in arrival order.
    pub stopped_inbox: Vec<(i32, Message)>,
    /// The time of the scheduled wake-up, if any.
    pub scheduled_wake_ms: Option<u64>,
    /// Generation of the scheduled wake-up; older wake events are stale.
    pub wake_gen: u64,
    /// How many times the process was started.
    pub incarnation: u32,
    /// The QuorumController while a controller process runs.
    pub controller: Option<QuorumController>,
    /// When the controller's event handler is scheduled to run next.
    pub controller_run_ms: Option<u64>,
    /// Generation of that schedule; older run events are stale.
    pub controller_gen: u64,
    /// The BrokerLifecycleManager while a broker process runs.
    pub broker: Option<BrokerLifecycleManager>,
    /// The broker's PLAINTEXT listener port.
    pub broker_port: u16,
    /// The controller's CONTROLLER listener port (0 on a broker).
    pub controller_port: u16,
    /// What its properties file says about the quorum (voters or bootstrap servers).
    pub quorum_props: super::node_config::QuorumProps,
    /// Whether `kafka-storage format` has run on it (an unformatted node cannot start).
    pub formatted: bool,
    /// The MetadataLoader of a running process (every node runs one, as SharedServer does).
    pub loader: Option<MetadataLoader>,
    /// The SnapshotGenerator publishing from that loader.
    pub snapshot_generator: Option<crate::image::SnapshotGenerator>,
    /// The ReplicaManager of a running broker (or combined) process.
    pub replicas: Option<crate::broker::replica_manager::ReplicaManager>,
}

impl Node {
    /// A node that has not been formatted or started yet.
    pub fn new(id: i32, roles: Roles, directory_id: Uuid, broker_port: u16) -> Node {
        let quorum_props = super::node_config::QuorumProps::BootstrapServers(Vec::new());
        Node {
            id,
            roles,
            directory_id,
            disk: Disk::default(),
            log: NodeLog::default(),
            process: ProcessState::Killed,
            raft: None,
            stopped_inbox: Vec::new(),
            scheduled_wake_ms: None,
            wake_gen: 0,
            incarnation: 0,
            controller: None,
            controller_run_ms: None,
            controller_gen: 0,
            broker: None,
            broker_port,
            controller_port: 0,
            quorum_props,
            formatted: false,
            loader: None,
            snapshot_generator: None,
            replicas: None,
        }
    }
}
