//! The lecture stage's side column: a row of tabs (states · HW · log · ... ), one panel at a
//! time. A lesson step picks the panel it talks about (`show`, or the default of its command);
//! the lecturer can pick another tab (or press 1–9, 0) until the next step.

use kraft_core::lesson::stage::Panel;
use yew::prelude::*;

use crate::i18n::Chrome;

/// The tab label of `panel`.
pub fn panel_label(panel: Panel, t: &Chrome) -> &'static str {
    match panel {
        Panel::States => t.tab_states,
        Panel::Hw => t.tab_hw,
        Panel::Log => t.tab_log,
        Panel::Tail => t.tab_tail,
        Panel::Controller => t.tab_controller,
        Panel::Brokers => t.tab_brokers,
        Panel::Image => t.tab_image,
        Panel::Timeline => t.tab_timeline,
        Panel::Partitions => t.tab_partitions,
        Panel::Console => t.tab_console,
        Panel::Processes => t.tab_processes,
        Panel::Sequence => t.tab_sequence,
        Panel::Write => t.tab_write,
        Panel::Rules => t.tab_rules,
        Panel::HwTwo => t.tab_hw_two,
    }
}

/// The panel of a digit key on the stage: 1 = the first tab, ..., 9, then 0 = the tenth.
pub fn panel_for_key(key: &str, panels: &[Panel]) -> Option<Panel> {
    let d: usize = key.parse().ok()?;
    let i = if d == 0 { 9 } else { d - 1 };
    panels.get(i).copied()
}

/// Properties of [`StageTabs`].
#[derive(Properties, PartialEq)]
pub struct StageTabsProps {
    /// The panels offered, in order.
    pub panels: Vec<Panel>,
    /// The panel shown.
    pub current: Panel,
    /// The panel the lesson step asks for, marked on its tab.
    #[prop_or_default]
    pub directed: Option<Panel>,
    /// Called with the tab clicked.
    pub on_pick: Callback<Panel>,
}

/// The tabs of the stage's side column.
#[component]
pub fn StageTabs(props: &StageTabsProps) -> Html {
    let t = crate::i18n::use_chrome();
    html! {
        <nav class="stage-tabs" id="stage-tabs" role="tablist" data-current={props.current.name()}>
            { for props.panels.iter().enumerate().map(|(i, &p)| {
                let on_click = props.on_pick.reform(move |_: MouseEvent| p);
                let current = p == props.current;
                let key = if i < 9 { (i + 1).to_string() } else if i == 9 { "0".into() } else { String::new() };
                html! {
                    <button id={format!("tab-{}", p.name())} role="tab" aria-selected={current.to_string()}
                            class={classes!("stage-tab", current.then_some("active"), (props.directed == Some(p)).then_some("directed"))}
                            data-panel={p.name()} onclick={on_click}
                            title={if key.is_empty() { String::new() } else { format!("key {key}") }}>
                        { panel_label(p, t) }
                    </button>
                }
            }) }
        </nav>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_keys_pick_tabs() {
        let panels = Panel::ALL.to_vec();
        assert_eq!(panel_for_key("1", &panels), Some(Panel::States));
        assert_eq!(panel_for_key("0", &panels), Some(Panel::Console));
        assert_eq!(panel_for_key("x", &panels), None);
        assert_eq!(panel_for_key("5", &panels[..2]), None);
    }

    #[test]
    fn every_panel_has_a_label_in_both_languages() {
        for p in Panel::ALL {
            assert!(!panel_label(p, &Chrome::KO).is_empty());
            assert!(!panel_label(p, &Chrome::EN).is_empty());
        }
    }
}
