//! The newest log lines of one node, with a tab per node to choose which.

use std::rc::Rc;

use kraft_core::view::ClusterView;
use yew::prelude::*;

/// Properties of [`LogTail`].
#[derive(Properties, PartialEq)]
pub struct LogTailProps {
    /// The view the lines come from.
    pub view: Rc<ClusterView>,
    /// Whose lines are shown.
    pub selected: i32,
    /// Called with a node id when a tab is clicked.
    pub on_select: Callback<i32>,
}

/// The log-line tail panel.
#[component]
pub fn LogTail(props: &LogTailProps) -> Html {
    let node = props.view.nodes.iter().find(|n| n.id == props.selected);
    html! {
        <section class="panel tail" aria-label="log tail">
            <h2>{"log tail"}</h2>
            <div class="tabs" role="tablist">
                { for props.view.nodes.iter().map(|n| {
                    let id = n.id;
                    html! {
                        <button id={format!("tail-node-{id}")} role="tab"
                                class={classes!("tab", super::role_class(n), (id == props.selected).then_some("active"))}
                                onclick={props.on_select.reform(move |_: MouseEvent| id)}>{ id }</button>
                    }
                }) }
            </div>
            <pre id="log-tail" data-node-id={props.selected.to_string()}><code>
                { match node {
                    Some(n) if n.log_tail.is_empty() => "(no log lines yet)".to_string(),
                    Some(n) => n.log_tail.join("\n"),
                    None => format!("no node {}", props.selected),
                } }
            </code>
            </pre>
        </section>
    }
}
