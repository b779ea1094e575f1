//! The MetadataImage a node's MetadataLoader last published, drawn as kafka-metadata-shell
//! browses it: `/image/cluster/brokers/1`, `/image/topics/byName/orders/0`, ... with a tab per
//! node that runs a loader and the image's provenance (offset, epoch) on top.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use kraft_core::image::shell_tree::ShellNode;
use kraft_core::view::{ClusterView, ImageView, NodeView};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Properties of [`ImagePanel`].
#[derive(Properties, PartialEq)]
pub struct ImagePanelProps {
    /// The view the images come from.
    pub view: Rc<ClusterView>,
    /// The node selected on the page; its image is shown if it has one.
    pub selected: i32,
    /// Called with a node id when a tab is clicked.
    pub on_select: Callback<i32>,
    /// The directories the lecturer opened or closed, kept while the panel is not shown (the
    /// stage shows one panel at a time).
    #[prop_or_default]
    pub toggled: Toggled,
}

/// Which directories of which node's tree the lecturer opened (`true`) or closed (`false`);
/// shared by the page so that it outlives the panel. Equal when it is the same map.
#[derive(Clone, Default)]
pub struct Toggled(pub Rc<RefCell<BTreeMap<(i32, String), bool>>>);

impl PartialEq for Toggled {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Toggled {
    /// Whether `path` of node `node`'s tree is drawn open.
    pub fn is_open(&self, node: i32, path: &str) -> bool {
        self.0
            .borrow()
            .get(&(node, path.to_string()))
            .copied()
            .unwrap_or_else(|| open_at_first(path))
    }
}

/// Whose image is drawn: the selected node if it runs a MetadataLoader, else the first broker
/// that does, else the first node that does.
pub fn shown_node(view: &ClusterView, selected: i32) -> Option<&NodeView> {
    let with_image = || view.nodes.iter().filter(|n| n.image.is_some());
    with_image()
        .find(|n| n.id == selected)
        .or_else(|| with_image().find(|n| n.roles.has_broker()))
        .or_else(|| with_image().next())
}

/// Directories drawn open at first: the way down to brokers, topics by name and their
/// partitions. The rest (byId, acls, ...) starts closed; the lecturer opens what they need.
pub fn open_at_first(path: &str) -> bool {
    matches!(
        path,
        "/image"
            | "/image/cluster"
            | "/image/cluster/brokers"
            | "/image/topics"
            | "/image/topics/byName"
            | "/image/features"
            | "/image/configs"
    ) || path.starts_with("/image/topics/byName/")
}

/// The image panel.
#[component]
pub fn ImagePanel(props: &ImagePanelProps) -> Html {
    let view = &props.view;
    let shown = shown_node(view, props.selected);
    let t = crate::i18n::use_chrome();
    html! {
        <section class="panel image-panel" id="image-panel" aria-label="metadata image"
                 data-node={shown.map(|n| n.id.to_string()).unwrap_or_default()}
                 data-offset={shown.and_then(|n| n.image.as_ref()).map(|i| i.offset.to_string()).unwrap_or_default()}
                 data-epoch={shown.and_then(|n| n.image.as_ref()).map(|i| i.epoch.to_string()).unwrap_or_default()}>
            <h2>{"MetadataImage"}<span class="sub">{ t.image_sub }</span></h2>
            <div class="tabs" role="tablist">
                { for view.nodes.iter().filter(|n| n.image.is_some()).map(|n| {
                    let id = n.id;
                    let active = shown.is_some_and(|s| s.id == id);
                    html! {
                        <button id={format!("image-node-{id}")} role="tab" aria-selected={active.to_string()}
                                class={classes!("tab", super::role_class(n), active.then_some("active"))}
                                onclick={props.on_select.reform(move |_: MouseEvent| id)}>{ id }</button>
                    }
                }) }
            </div>
            { match shown.and_then(|n| n.image.as_ref().map(|i| (n, i))) {
                Some((n, image)) => image_body(n, image, &props.toggled, t),
                None => html! { <p class="empty">{ t.no_loader }</p> },
            } }
        </section>
    }
}

fn image_body(
    node: &NodeView,
    image: &ImageView,
    toggled: &Toggled,
    t: &crate::i18n::Chrome,
) -> Html {
    let provenance = if image.publish_count == 0 {
        t.nothing_published.to_string()
    } else {
        format!(
            "provenance offset {}, epoch {} · {} {}",
            image.offset, image.epoch, image.publish_count, t.publications
        )
    };
    let changed = if image.changed.is_empty() {
        String::new()
    } else {
        format!(" {} {}", t.last_changed, image.changed.join(", "))
    };
    let ShellNode::Dir(children) = image.tree() else {
        return html! {};
    };
    html! {
        <>
            <p class="provenance" id="image-provenance">
                <span class="who">{ format!("node {} · ", node.id) }</span>{ provenance }{ changed }
            </p>
            // Keyed by node, so switching tabs draws a fresh tree with its own open/closed state.
            <ul class="shell-tree" key={node.id.to_string()}>
                { for children.iter().map(|(name, child)| shell_node(name, "", child, &image.changed, (node.id, toggled))) }
            </ul>
        </>
    }
}

fn shell_node(
    name: &str,
    parent: &str,
    node: &ShellNode,
    changed: &[String],
    (id, toggled): (i32, &Toggled),
) -> Html {
    let path = format!("{parent}/{name}");
    match node {
        ShellNode::File(text) => html! {
            <li class="file" key={path.clone()} data-path={path}>
                <span class="name">{ name.to_string() }</span>{": "}<span class="text">{ text.clone() }</span>
            </li>
        },
        ShellNode::Dir(children) => {
            // /image/<area> lit when the last publication changed it.
            let lit = parent == "/image" && changed.iter().any(|c| c == name);
            html! {
                <li class={classes!("dir", lit.then_some("changed"), children.is_empty().then_some("empty"))}
                    key={path.clone()} data-path={path.clone()}>
                    <details open={toggled.is_open(id, &path)}>
                        // A click on the summary toggles the directory: kept for when the panel is
                        // drawn again (the `toggle` event does not bubble to Yew's listeners).
                        <summary onclick={{
                            let (toggled, path) = (toggled.clone(), path.clone());
                            Callback::from(move |e: MouseEvent| {
                                let target: web_sys::Element = e.target_unchecked_into();
                                let details = target.closest("details").ok().flatten();
                                if let Some(d) = details.and_then(|d| d.dyn_into::<web_sys::HtmlDetailsElement>().ok()) {
                                    toggled.0.borrow_mut().insert((id, path.clone()), !d.open());
                                }
                            })
                        }}>
                            <span class="name">{ format!("{name}/") }</span>
                            if children.is_empty() {
                                <span class="count">{" (empty)"}</span>
                            } else {
                                <span class="count">{ format!(" ({})", children.len()) }</span>
                            }
                        </summary>
                        if !children.is_empty() {
                            <ul>
                                { for children.iter().map(|(n, c)| shell_node(n, &path, c, changed, (id, toggled))) }
                            </ul>
                        }
                    </details>
                </li>
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_the_way_to_topics_and_brokers() {
        assert!(open_at_first("/image/topics/byName/orders"));
        assert!(open_at_first("/image/cluster/brokers"));
        assert!(!open_at_first("/image/topics/byId"));
        assert!(!open_at_first("/image/acls"));
        assert!(!open_at_first("/local"));
    }
}
