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
    let t = crate::i18n::use_chrome();
    // Which lines: all, controller.log's (the controller loggers) or server.log's, and a text.
    let file = use_state(|| "all".to_string());
    let text = use_state(String::new);
    let on_file = {
        let file = file.clone();
        Callback::from(move |e: Event| {
            file.set(
                e.target_unchecked_into::<web_sys::HtmlSelectElement>()
                    .value(),
            )
        })
    };
    let on_text = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            text.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            )
        })
    };
    let shown = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| {
                let controller = l.contains("(org.apache.kafka.controller.");
                match file.as_str() {
                    "controller.log" => controller,
                    "server.log" => !controller,
                    _ => true,
                }
            })
            .filter(|l| text.is_empty() || l.contains(text.as_str()))
            .cloned()
            .collect()
    };
    html! {
        <section class="panel tail" aria-label="log tail">
            <h2>{ t.log_tail }</h2>
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
            <div class="log-filter">
                <select id="log-file" onchange={on_file} title="which log file">
                    { for ["all", "server.log", "controller.log"].iter().map(|f| html! {
                        <option value={*f} selected={file.as_str() == *f}>{ *f }</option>
                    }) }
                </select>
                <input id="log-grep" type="search" placeholder="filter (text)" value={(*text).clone()}
                       oninput={on_text} />
            </div>
            <pre id="log-tail" data-node-id={props.selected.to_string()}><code>
                { match node {
                    Some(n) if n.log_tail.is_empty() => "(no log lines yet)".to_string(),
                    Some(n) => {
                        let lines = shown(&n.log_tail);
                        if lines.is_empty() { "(no line matches the filter)".to_string() } else { lines.join("\n") }
                    }
                    None => format!("no node {}", props.selected),
                } }
            </code>
            </pre>
        </section>
    }
}
