//! The QuorumController: the active controller decides (writes metadata records through Raft),
//! every controller replays the committed records into the same in-memory state.

pub mod cluster_control;
pub mod configuration_control;
pub mod deferred_event_queue;
pub mod event_handler_exception_info;
pub mod event_queue;
pub mod feature_control;
pub mod heartbeat_manager;
pub mod heartbeat_tracker;
pub mod offset_control;
pub mod partition_change_builder;
pub mod periodic_task_control;
pub mod placement;
pub mod quorum_controller;
pub mod replication_control;
pub mod write_life;

pub use quorum_controller::{ControllerConfig, QuorumController};
