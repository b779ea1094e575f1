//! One component per file, as in Yew's `function_todomvc` example.

pub mod broker_panel;
pub mod broker_state_diagram;
pub mod cluster_view;
pub mod console;
pub mod controller_panel;
pub mod controls;
pub mod help;
pub mod hw_panel;
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

/// The CSS class for a Raft state or process state, e.g. `role-leader`, `role-down`.
pub fn role_class(node: &kraft_core::view::NodeView) -> String {
    if node.process != "running" {
        format!("role-{}", node.process)
    } else {
        format!("role-{}", node.raft_state.to_ascii_lowercase())
    }
}
