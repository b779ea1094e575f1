//! The page's body under the header: the lecture stage (the strip, the drawing with the log
//! strip, and the side panel with its tabs) or the dashboard (the time controls, the drawing
//! beside every panel, the console, the controller and the logs); without a world, the console.

use std::rc::Rc;

use kraft_core::lesson::stage::{Highlight, Panel, Stage};
use kraft_core::view::{ApiKeys, ClusterView};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::components::broker_panel::BrokerPanel;
use crate::components::cluster_view::ClusterDiagram;
use crate::components::console::ConsolePanel;
use crate::components::controller_panel::ControllerPanel;
use crate::components::controls::{Controls, ProcessTable};
use crate::components::hw_panel::HighWatermarkPanel;
use crate::components::hw_two::HwTwoPanel;
use crate::components::image_panel::{ImagePanel, Toggled};
use crate::components::layout::{split_style, Splitter};
use crate::components::lesson_panel::LessonPanel;
use crate::components::log_strip::LogStrip;
use crate::components::log_tail::LogTail;
use crate::components::node_log::NodeLogs;
use crate::components::partitions_panel::PartitionsPanel;
use crate::components::rules_panel::RulesPanel;
use crate::components::sequence::SequencePanel;
use crate::components::stage::StageTabs;
use crate::components::state_diagram::StateDiagram;
use crate::components::step_changes::StepChanges;
use crate::components::timeline_panel::TimelinePanel;
use crate::components::write_life::WriteLifeCard;
use crate::i18n::{Chrome, LessonText};
use crate::state::{Action, Playground};

/// What the body is drawn from: the state, what the lesson step asks for, what the lecturer
/// picked, and where the parts send their clicks.
pub(super) struct Body<'a> {
    /// The speaker's panel of the presenter view, in place of the strip's lesson panel.
    pub(super) speaker: Option<Html>,
    /// The page's state.
    pub(super) state: &'a Playground,
    /// What the lesson step asks for (the default outside a lesson).
    pub(super) stage: &'a Stage,
    /// What a lesson step is: its position (the drawing's node menu closes when it changes).
    pub(super) step_key: usize,
    /// The lecture stage, not the dashboard.
    pub(super) stage_mode: bool,
    /// The node the panels show (None without a world).
    pub(super) shown: Option<i32>,
    /// What the step lights.
    pub(super) highlights: Rc<Vec<Highlight>>,
    /// The message kinds the step labels.
    pub(super) label_kinds: Rc<Vec<ApiKeys>>,
    /// The image tree's directories the lecturer opened or closed.
    pub(super) image_dirs: Toggled,
    /// The stage's tabs.
    pub(super) panels: Vec<Panel>,
    /// The stage's side panel.
    pub(super) panel: Panel,
    /// The cluster column's share of the width.
    pub(super) split: u32,
    /// Moves the splitter.
    pub(super) on_split: Callback<u32>,
    /// Picks a stage tab.
    pub(super) on_pick: Callback<Panel>,
    /// Sends an action to the reducer.
    pub(super) on_action: Callback<Action>,
    /// Selects a node.
    pub(super) on_select: Callback<i32>,
    /// The chrome's labels.
    pub(super) t: &'static Chrome,
}

impl Body<'_> {
    /// The body: the stage or the dashboard.
    pub(super) fn html(&self) -> Html {
        if self.stage_mode {
            self.stage_body()
        } else {
            self.dashboard()
        }
    }

    /// The console.
    fn console(&self) -> Html {
        let state = self.state;
        html! {
            <ConsolePanel scrollback={state.scrollback.clone()} lang={state.lang}
                          lesson_mode={state.lesson.is_some()} on_action={self.on_action.clone()} />
        }
    }

    /// What stands for the drawing without a world, with the last error.
    fn no_cluster(&self) -> Html {
        html! {
            <section class="panel no-cluster" id="no-cluster">
                <p>{ LessonText::of(self.state.lang).no_cluster }</p>
                if let Some(e) = &self.state.last_error {
                    <p id="error" class="error" role="alert">{ e.clone() }</p>
                }
            </section>
        }
    }

    /// The time controls.
    fn controls(&self, view: &Rc<ClusterView>) -> Html {
        let state = self.state;
        html! {
            <Controls view={view.clone()} playing={state.playing} sim_ms_per_frame={state.sim_ms_per_frame}
                      last_error={state.last_error.clone()} redo_end={state.redo_end()}
                      last_event={state.last_event.clone()} on_action={self.on_action.clone()} />
        }
    }

    /// The drawing, `shown` selected.
    fn diagram(&self, view: &Rc<ClusterView>, shown: i32) -> Html {
        let state = self.state;
        let stage = self.stage;
        html! {
            <ClusterDiagram view={view.clone()} clock_ms={state.clock_ms} selected={shown}
                            focus={if state.lesson.is_some() { stage.focus } else { None }}
                            highlights={self.highlights.clone()} labels={self.label_kinds.clone()} step_key={self.step_key}
                            compact={self.stage_mode}
                            on_select={self.on_select.clone()} on_action={self.on_action.clone()} />
        }
    }

    /// One side panel of the stage.
    fn side(&self, panel: Panel) -> Html {
        let state = self.state;
        let Some(view) = state.view.clone() else {
            return match (panel, &state.timeline) {
                (Panel::Timeline, Some(tl)) => html! { <TimelinePanel timeline={tl.clone()} /> },
                _ => self.console(),
            };
        };
        let shown = self.shown.unwrap_or_default();
        let node = view.nodes.iter().find(|n| n.id == shown).cloned();
        let (highlights, on_select) = (&self.highlights, &self.on_select);
        match panel {
            Panel::States => match node {
                Some(n) => html! { <StateDiagram node={n} /> },
                None => html! { <p class="empty">{ self.t.no_node }</p> },
            },
            Panel::Hw => html! { <HighWatermarkPanel view={view} /> },
            Panel::HwTwo => html! { <HwTwoPanel view={view} highlights={highlights.clone()} /> },
            Panel::Log => {
                html! { <NodeLogs view={view} only={Some(shown)} highlights={highlights.clone()} /> }
            }
            Panel::Tail => {
                html! { <LogTail view={view} selected={shown} on_select={on_select.clone()} /> }
            }
            Panel::Controller => html! { <ControllerPanel view={view} /> },
            Panel::Brokers => html! { <BrokerPanel view={view} focus={Some(shown)} /> },
            Panel::Image => {
                html! { <ImagePanel view={view} selected={shown} on_select={on_select.clone()} toggled={self.image_dirs.clone()} /> }
            }
            Panel::Timeline => match &state.timeline {
                Some(tl) => html! { <TimelinePanel timeline={tl.clone()} /> },
                None => html! { <ControllerPanel view={view} /> },
            },
            Panel::Partitions => {
                html! { <PartitionsPanel view={view} highlights={highlights.clone()} /> }
            }
            Panel::Console => self.console(),
            Panel::Processes => html! {
                <>
                    { self.controls(&view) }
                    <ProcessTable view={view} on_action={self.on_action.clone()} />
                </>
            },
            Panel::Sequence => self.sequence(view),
            Panel::Write => match view.active_controller() {
                Some((_, c)) if !c.write_lives.is_empty() => html! {
                    <div class="write-panel"><WriteLifeCard lives={c.write_lives.clone()} /></div>
                },
                _ => html! { <p class="empty">{ self.t.no_write }</p> },
            },
            Panel::Rules => html! {
                <RulesPanel view={view} free_play={state.lesson.is_none()} lang={state.lang}
                            on_action={self.on_action.clone()} />
            },
        }
    }

    /// The sequence diagram (a click rewinds free play).
    fn sequence(&self, view: Rc<ClusterView>) -> Html {
        html! {
            <SequencePanel view={view} free_play={self.state.lesson.is_none()} on_action={self.on_action.clone()} />
        }
    }

    /// The stage's strip: the lesson panel, or free play's time controls.
    fn strip(&self) -> Html {
        let state = self.state;
        if let Some(speaker) = &self.speaker {
            return speaker.clone();
        }
        match &state.lesson {
            Some(run) => html! {
                <LessonPanel run={run.clone()} lang={state.lang} clock_ms={state.clock_ms} on_action={self.on_action.clone()} />
            },
            None => match &state.view {
                Some(view) => self.controls(view),
                None => html! {},
            },
        }
    }

    /// The stage's drawing, with the shown node's log strip under it.
    fn stage_drawing(&self) -> Html {
        match (&self.state.view, self.shown) {
            (Some(view), Some(shown)) => {
                let node = view.nodes.iter().find(|n| n.id == shown).cloned();
                html! {
                    <>
                        { self.diagram(view, shown) }
                        if let Some(node) = node {
                            <LogStrip node={node} highlights={self.highlights.clone()} />
                        }
                    </>
                }
            }
            _ => self.no_cluster(),
        }
    }

    /// The lecture stage: the strip, a lesson's error, the drawing and the side panel.
    fn stage_body(&self) -> Html {
        let state = self.state;
        let (split, panel) = (self.split, self.panel);
        html! {
            <>
                <div class="strip" id="strip">{ self.strip() }</div>
                if let (Some(e), true) = (&state.last_error, state.lesson.is_some()) {
                    <p id="error" class="error stage-error" role="alert">{ e.clone() }</p>
                }
                <div class="stage-main" id="stage-main" style={split_style(split)}>
                    <div class="stage-drawing" id="stage-drawing">{ self.stage_drawing() }</div>
                    <Splitter split={split} on_split={self.on_split.clone()} />
                    <aside class="stage-side" id="stage-side" data-panel={panel.name()}>
                        <StageTabs panels={self.panels.clone()} current={panel} directed={self.stage.panel}
                                   on_pick={self.on_pick.clone()} />
                        <div class="stage-panel" id="stage-panel" data-panel={panel.name()}>{ self.side(panel) }</div>
                        <StepChanges changes={state.step_changes.clone()} shown={self.shown} />
                    </aside>
                </div>
            </>
        }
    }

    /// The dashboard: every panel at once (without a world: the console and the timeline).
    fn dashboard(&self) -> Html {
        let state = self.state;
        let Some(view) = state.view.clone() else {
            return html! {
                <>
                    { self.no_cluster() }
                    if let Some(tl) = &state.timeline {
                        <TimelinePanel timeline={tl.clone()} />
                    }
                    { self.console() }
                </>
            };
        };
        let shown = self.shown.unwrap_or_default();
        let (on_select, on_action) = (&self.on_select, &self.on_action);
        html! {
            <>
                { self.controls(&view) }
                <div class="panels" id="panels" style={split_style(self.split)}>
                    { self.diagram(&view, shown) }
                    <Splitter split={self.split} on_split={self.on_split.clone()} />
                    <div class="side">
                        <HighWatermarkPanel view={view.clone()} />
                        if let Some(node) = view.nodes.iter().find(|n| n.id == shown) {
                            <StateDiagram node={node.clone()} />
                        }
                        <StepChanges changes={state.step_changes.clone()} shown={self.shown} />
                        <LogTail view={view.clone()} selected={shown} on_select={on_select.clone()} />
                        <BrokerPanel view={view.clone()} focus={Some(shown)} />
                        <PartitionsPanel view={view.clone()} />
                        <ImagePanel view={view.clone()} selected={shown} on_select={on_select.clone()} toggled={self.image_dirs.clone()} />
                    </div>
                </div>
                { self.console() }
                <ControllerPanel view={view.clone()} />
                if let Some(tl) = &state.timeline {
                    <TimelinePanel timeline={tl.clone()} />
                }
                <ProcessTable view={view.clone()} on_action={on_action.clone()} />
                { self.sequence(view.clone()) }
                <NodeLogs view={view} />
            </>
        }
    }
}

/// Scrolls every lit element of the stage's side panel and log strip into its panel's view.
pub(super) fn scroll_focused_into_view() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(list) = doc
        .query_selector_all(".stage-panel [data-focused='true'], .log-strip [data-focused='true']")
    else {
        return;
    };
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(web_sys::ScrollLogicalPosition::Nearest);
    options.set_inline(web_sys::ScrollLogicalPosition::Nearest);
    for i in 0..list.length() {
        if let Some(el) = list
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
        {
            el.scroll_into_view_with_scroll_into_view_options(&options);
        }
    }
}
