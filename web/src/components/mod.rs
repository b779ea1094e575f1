//! One component per file, as in Yew's `function_todomvc` example.

use kraft_core::view::{NodeView, ProcessState, StateKind};

pub mod broker_panel;
pub mod broker_state_diagram;
pub mod cluster_view;
pub mod console;
pub mod controller_panel;
pub mod controls;
pub mod help;
pub mod hw_panel;
pub mod hw_two;
pub mod hw_two_bars;
pub mod image_panel;
pub mod layout;
pub mod lesson_editor;
pub mod lesson_panel;
pub mod log_strip;
pub mod log_tail;
pub mod node_log;
pub mod partitions_panel;
pub mod qr;
pub mod quiz;
pub mod rules_panel;
pub mod sequence;
pub mod speaker_panel;
pub mod stage;
pub mod state_diagram;
pub mod state_layout;
pub mod step_changes;
pub mod theme;
pub mod timeline_figure;
pub mod timeline_panel;
pub mod welcome;
pub mod write_life;

/// The CSS class for a Raft state or process state: `role-leader`, `role-killed`, ...
pub fn role_class(node: &NodeView) -> &'static str {
    match (node.process, node.raft_state) {
        (ProcessState::Killed, _) => "role-killed",
        (ProcessState::Stopped, _) => "role-stopped",
        (ProcessState::Running, None) => "role--",
        (ProcessState::Running, Some(s)) => match s {
            StateKind::Unattached => "role-unattached",
            StateKind::Prospective => "role-prospective",
            StateKind::Candidate => "role-candidate",
            StateKind::Leader => "role-leader",
            StateKind::Follower => "role-follower",
            StateKind::Resigned => "role-resigned",
        },
    }
}

/// A node's Raft state by name, `-` when its process does not run.
pub fn state_name(node: &NodeView) -> &'static str {
    node.raft_state.map_or("-", StateKind::name)
}
