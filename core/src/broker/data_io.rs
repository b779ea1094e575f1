//! What the broker's data plane works with in one step: the time, the node's disk (its data
//! logs) and log files, the one RNG, and the messages it sends (to brokers and clients, and
//! AlterPartition to the active controller).

use crate::broker::messages::DataMessage;
use crate::common::message::controller::ControllerMessage;
use crate::common::node_log::NodeLog;
use crate::common::rng::SimRng;
use crate::common::rules::Rules;
use crate::raft::disk::Disk;

/// The broker's data plane's view of the world for one step.
pub struct DataIo<'a> {
    /// Virtual time, ms.
    pub now_ms: u64,
    /// The node's disk: its data logs and checkpoint files.
    pub disk: &'a mut Disk,
    /// The node's log files.
    pub log: &'a mut NodeLog,
    /// The world's one RNG.
    pub rng: &'a mut SimRng,
    /// Data-plane messages to send: (to, message).
    pub out: &'a mut Vec<(i32, DataMessage)>,
    /// Controller messages to send (AlterPartition): (to, message).
    pub cout: &'a mut Vec<(i32, ControllerMessage)>,
    /// The rule switches.
    pub rules: Rules,
}
