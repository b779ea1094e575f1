//! A compact strip of one node's metadata log beside the ring: its newest batches (control
//! batches marked, committed or not), the high watermark and the log end offset, and the
//! batches the lesson step lights.

use std::rc::Rc;

use kraft_core::lesson::stage::Highlight;
use kraft_core::view::NodeView;
use yew::prelude::*;

use super::node_log::summarise_records;

/// At most this many batches are drawn in the strip (the newest, plus the lit ones).
pub const STRIP_BATCHES: usize = 8;

/// Properties of [`LogStrip`].
#[derive(Properties, PartialEq)]
pub struct LogStripProps {
    /// The node whose log is drawn.
    pub node: NodeView,
    /// What the stage lights (batches, offsets).
    #[prop_or_default]
    pub highlights: Rc<Vec<Highlight>>,
}

/// The batches the strip shows: the newest [`STRIP_BATCHES`], and further back, instead of the
/// oldest of those, the lit ones and the newest batch a voter change wrote (the voter set in
/// force, KIP-853), which, named `voters`, takes the room of two.
pub fn shown_batches(node: &NodeView, lit: &[Highlight]) -> Vec<usize> {
    let n = node.batches.len();
    let voters = (0..n).rev().find(|&i| node.batches[i].is_voter_change());
    let room = STRIP_BATCHES - usize::from(voters.is_some());
    let mut shown: Vec<usize> = (n.saturating_sub(room)..n).collect();
    let lit_idx: Vec<usize> = (0..n)
        .filter(|&i| {
            let b = &node.batches[i];
            Some(i) == voters
                || lit
                    .iter()
                    .any(|h| h.lights_batch(b.base_offset, b.last_offset))
        })
        .collect();
    for i in lit_idx.into_iter().rev() {
        if !shown.contains(&i) {
            if shown.len() >= room {
                shown.remove(0);
            }
            shown.push(i);
        }
    }
    shown.sort_unstable();
    shown
}

/// The strip.
#[component]
pub fn LogStrip(props: &LogStripProps) -> Html {
    let node = &props.node;
    let t = crate::i18n::use_chrome();
    let qt = crate::i18n::QuorumText::of(crate::i18n::use_lang());
    let hw = node.high_watermark;
    let shown = shown_batches(node, &props.highlights);
    let mut last_shown: Option<i64> = None;
    let items = shown.iter().map(|&i| {
        let b = &node.batches[i];
        let gap = last_shown.is_some_and(|l| b.base_offset > l + 1) || (last_shown.is_none() && i > 0);
        last_shown = Some(b.last_offset);
        let lit = props
            .highlights
            .iter()
            .any(|h| h.lights_batch(b.base_offset, b.last_offset));
        let offsets = if b.base_offset == b.last_offset {
            b.base_offset.to_string()
        } else {
            format!("{}–{}", b.base_offset, b.last_offset)
        };
        let hw_here = hw.is_some_and(|h| b.base_offset < h && h <= b.last_offset);
        html! {
            <>
                if gap {
                    <span class="strip-gap">{"…"}</span>
                }
                <span class={classes!("sb", if b.committed { "committed" } else { "uncommitted" },
                                      b.is_control.then_some("control"), b.holds_voters().then_some("voters"),
                                      lit.then_some("lit"), hw_here.then_some("hw-inside"))}
                      data-base-offset={b.base_offset.to_string()} data-last-offset={b.last_offset.to_string()}
                      data-committed={b.committed.to_string()} data-focused={lit.then_some("true")}
                      data-voters={b.is_voter_change().then_some("true")}
                      title={format!("offsets {offsets}, epoch {}: {}", b.epoch, summarise_records(&b.records))}>
                    { offsets }
                    if b.is_voter_change() {
                        <span class="sb-voters">{ format!(" {}", qt.voters_batch) }</span>
                    }
                </span>
            </>
        }
    });
    let leo = node.log_end_offset;
    html! {
        <div class="log-strip" id="log-strip" data-node-id={node.id.to_string()}
             data-hw={hw.map(|h| h.to_string()).unwrap_or_default()} data-leo={leo.to_string()}>
            <span class="strip-head">{ format!("{} {}", node.id, t.log_strip) }</span>
            <span class="strip-batches">{ for items }</span>
            <span class="marker hw" data-offset={hw.map(|h| h.to_string()).unwrap_or_default()}>
                { format!("HW {}", hw.map(|h| h.to_string()).unwrap_or_else(|| "?".into())) }
            </span>
            <span class="marker leo" data-offset={leo.to_string()}>{ format!("LEO {leo}") }</span>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strip_shows_the_newest_batches_and_a_lit_one_further_back() {
        let mut w =
            kraft_core::sim::World::new(kraft_core::sim::WorldConfig::new(1, vec![101], vec![]))
                .unwrap();
        w.run_for(10_000);
        let v = w.view();
        let node = &v.nodes[0];
        assert!(node.batches.len() > STRIP_BATCHES);
        let newest = shown_batches(node, &[]);
        assert_eq!(newest.len(), STRIP_BATCHES);
        assert_eq!(*newest.last().unwrap(), node.batches.len() - 1);
        let first = &node.batches[0];
        let lit = [Highlight::Offset(first.base_offset)];
        let shown = shown_batches(node, &lit);
        assert_eq!(shown.len(), STRIP_BATCHES);
        assert_eq!(shown[0], 0, "the lit batch is shown");
        assert_eq!(*shown.last().unwrap(), node.batches.len() - 1);
    }

    #[test]
    fn the_strip_keeps_the_newest_voter_change_batch() {
        let mut c = kraft_core::lesson::Console::new();
        c.exec("set controller.quorum.auto.join.enable=true")
            .unwrap();
        c.exec("cluster controllers=101,102,103 brokers=1 quorum=standalone seed=11")
            .unwrap();
        c.exec("sleep 30s").unwrap();
        let v = c.world.as_ref().unwrap().view();
        let node = v.nodes.iter().find(|n| n.id == 101).unwrap();
        let voters = v.quorum.voters_record.expect("a VotersRecord").offset;
        let shown = shown_batches(node, &[]);
        assert_eq!(
            shown.len(),
            STRIP_BATCHES - 1,
            "the voters batch takes two places"
        );
        let first = &node.batches[shown[0]];
        assert!(first.is_voter_change() && first.base_offset == voters);
        assert_eq!(*shown.last().unwrap(), node.batches.len() - 1);
    }
}
