//! What the step changed, and which Kafka code did it: a compact list under the stage's side
//! panel (`#step-changes`). Each entry says what changed (a Raft transition, an HW move, records
//! appended or committed, a file, a broker fenced, ...), names the Kafka class and method
//! responsible and, where the reference article cites that code, links the file and line range
//! at the article's commit of apache/kafka (KIP-853's voter handlers, which the article names
//! by file only, at the confluentinc/kafka commit the facts were read at). The entries of the
//! node on show are lit.

use std::rc::Rc;

use kraft_core::view::changes::kafka::Tree;
use kraft_core::view::changes::{Change, ChangeKind};
use yew::prelude::*;

use crate::i18n::{ChangesText, Lang};

/// `8.950s`.
fn seconds(ms: u64) -> String {
    format!("{}.{:03}s", ms / 1000, ms % 1000)
}

/// Properties of [`StepChanges`].
#[derive(Properties, PartialEq)]
pub struct StepChangesProps {
    /// What the current step changed.
    pub changes: Rc<Vec<Change>>,
    /// The node on show: its entries are lit.
    #[prop_or_default]
    pub shown: Option<i32>,
}

/// One entry.
fn entry(c: &Change, lang: Lang, shown: Option<i32>, l: &ChangesText, hidden: bool) -> Html {
    let lit = shown.is_some_and(|s| c.nodes.contains(&s));
    let nodes = c
        .nodes
        .iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(",");
    html! {
        <li class={classes!("change", format!("ck-{}", c.kind.name()), lit.then_some("lit"))}
            data-kind={c.kind.name()} data-node={nodes} data-tag={c.tag.clone()}
            data-kafka={c.kafka.unwrap_or_default()} hidden={hidden}>
            <span class="sc-text">
                if let Some(t) = c.time_ms {
                    <span class="sc-time" title={l.time}>
                        { seconds(t) }
                    </span>
                }
                { c.text(lang.code()) }
            </span>
            if let Some(k) = c.kafka {
                <code class="sc-kafka">{ k }</code>
            }
            if let Some(s) = c.source {
                <a class="sc-source" href={s.url()} target="_blank" rel="noopener noreferrer"
                   title={format!("{}: {}", if s.tree == Tree::Article { l.source } else { l.source_facts }, s.text())} dir="rtl">
                    <span dir="ltr">{ s.text() }</span>
                </a>
            }
        </li>
    }
}

/// Whether `c` is a detail folded under the main entries until asked for: the followers'
/// replication, the commits the controllers and loaders took, the in-memory snapshots.
fn is_detail(c: &Change) -> bool {
    matches!(
        c.kind,
        ChangeKind::Replicate | ChangeKind::Apply | ChangeKind::Registry
    ) && !c.nodes.is_empty()
}

/// The list of what the step changed: open under the side panel, closed to its heading, or
/// filling the side column (the panel above hidden).
#[component]
pub fn StepChanges(props: &StepChangesProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let l = ChangesText::of(lang);
    let open = use_state(|| true);
    let full = use_state(|| false);
    let details = use_state(|| false);
    let flip = |s: &UseStateHandle<bool>| {
        let s = s.clone();
        Callback::from(move |_: MouseEvent| s.set(!*s))
    };
    let n = props.changes.len();
    let folded = props.changes.iter().filter(|c| is_detail(c)).count();
    let main = props.changes.iter().filter(|c| !is_detail(c));
    let rest = props.changes.iter().filter(|c| is_detail(c));
    let entry = |c: &Change, hidden: bool| entry(c, lang, props.shown, l, hidden);
    let full_now = *full && *open;
    html! {
        <section class={classes!("panel", "step-changes", (!*open).then_some("closed"), full_now.then_some("full"))}
                 id="step-changes-box" aria-label={l.title}>
            <h2>
                <button class="sc-toggle" aria-expanded={open.to_string()} onclick={flip(&open)}
                        title={if *open { l.hide } else { l.show }}>
                    { if *open { "▾ " } else { "▸ " } }{ l.title }
                    <span class="sc-count">{ n }</span>
                </button>
                if *open {
                    <button class="sc-full" id="step-changes-full" aria-pressed={full.to_string()}
                            onclick={flip(&full)} title={if *full { l.unfull } else { l.full }}>
                        { if *full { "⤡" } else { "⤢" } }
                    </button>
                }
            </h2>
            <ol id="step-changes" data-count={n.to_string()} hidden={!*open}>
                { for main.map(|c| entry(c, false)) }
                if folded > 0 {
                    <li class="sc-more">
                        <button id="step-changes-more" aria-expanded={details.to_string()} onclick={flip(&details)}>
                            { if *details { format!("▴ {}", l.fewer) } else { format!("▸ +{folded} {}", l.more) } }
                        </button>
                    </li>
                }
                { for rest.map(|c| entry(c, !*details)) }
            </ol>
            if *open && n == 0 {
                <p class="empty sc-none">{ l.none }</p>
            }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_seconds() {
        assert_eq!(seconds(8_950), "8.950s");
        assert_eq!(seconds(12), "0.012s");
    }
}
