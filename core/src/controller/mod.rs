//! The QuorumController: the active controller decides (writes metadata records through Raft),
//! every controller replays the committed records into the same in-memory state.

pub mod deferred_event_queue;
pub mod event_queue;
pub mod rpc;
