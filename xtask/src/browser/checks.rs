//! The list of checks in the order they run, the tally that prints `ok`/`FAIL` lines, and the
//! summary line.

use std::path::Path;
use std::time::Instant;

use fantoccini::Client;

use super::addresses::{bad_url_values, bare_address_restores, url_replays_commands};
use super::changes;
use super::chrome::{keyboard_help, layout_controls, theme_toggle, ui_language};
use super::console::console_status;
use super::diagrams;
use super::drawing::{messages_in_flight, timer_arcs};
use super::driver::{element_screenshot, no_errors, screenshot};
use super::free_play::{
    failover, first_visit, isolate_and_heal, keys_back_and_forward, node_menu, page_loads,
    play_elects_leader, restart_rejoins, shows_nodes, step_back_rewinds, step_runs_one_event,
};
use super::lessons::{
    lesson_election, lesson_fencing, lesson_goes_back, lesson_metadata_log, lesson_timeline_panel,
    lesson_timeline_to_the_end,
};
use super::panels::{
    another_controller_active, brokers_running, controller_panel_shows_active, controller_tabs,
    hw_panel_matches, log_filter, state_diagram_leader,
};
use super::presenter;
use super::rules::{free_play_rules, lesson_broken_invariant};
use super::sequence;
use super::stage;
use super::timeline_figure::lesson_timeline_figure;
use crate::{root_dir, Result};

/// The checks, in order; once one fails the rest are skipped (they build on each other).
pub(super) async fn checks(c: &Client, url: &str, artifacts: &Path) -> Result<()> {
    let mut t = Tally::default();
    page_checks(&mut t, c, url, artifacts).await;
    let leader = leader_checks(&mut t, c, artifacts).await;
    failover_checks(&mut t, c, artifacts, leader).await;
    lesson_checks(&mut t, c, url, artifacts).await;
    stage_checks(&mut t, c, url, artifacts).await;
    diagram_checks(&mut t, c, url, artifacts).await;
    address_checks(&mut t, c, url, artifacts).await;
    toolkit_checks(&mut t, c, url, artifacts).await;
    if !t.ok() {
        screenshot(c, &artifacts.join("page-failure.png")).await;
    }
    let skipped = checks_total().saturating_sub(t.passed + t.failed);
    println!(
        "browser: {} passed, {} failed{}",
        t.passed,
        t.failed,
        if skipped > 0 {
            format!(", {skipped} skipped")
        } else {
            String::new()
        }
    );
    if t.ok() && only().is_none() && t.passed != checks_total() {
        // The count the "skipped" figure is taken from must follow the checks.
        Err(format!(
            "{} checks ran but checks_total() says {}: update it",
            t.passed,
            checks_total()
        )
        .into())
    } else if t.ok() {
        Ok(())
    } else {
        Err(format!(
            "{} browser check(s) failed, {skipped} skipped (screenshot: artifacts/page-failure.png)",
            t.failed
        )
        .into())
    }
}

/// The page, the first visit, the chrome (theme, language, layout, help) and free play's Step,
/// Step back and keys.
async fn page_checks(t: &mut Tally, c: &Client, url: &str, artifacts: &Path) {
    t.check(
        "page loads without panic or script error",
        page_loads(c, url),
    )
    .await;
    if t.ok() {
        t.check(
            "first visit: a card offers lesson 02, free play and the keys; Free play dismisses it for good; Lesson 02 opens the lesson on the stage",
            first_visit(c, url),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "shows controllers 101, 102, 103 and brokers 1, 2, 3",
            shows_nodes(c),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "theme toggle switches the class on <html> and the choice survives a reload",
            theme_toggle(c, artifacts),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "한국어 / English switch the controls' and panels' labels",
            ui_language(c),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "the splitter widens the cluster column, A+ enlarges the text; both survive a reload",
            layout_controls(c),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "`?` opens the keyboard help, Escape and its close button close it",
            keyboard_help(c, &artifacts.join("help.png")),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "step runs one event and says what it ran",
            step_runs_one_event(c),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "step back returns to the state one event earlier",
            step_back_rewinds(c),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "free-play keys: ← ← ← back three events, → → → forward again along what happened to the same view; ↷ shows what is ahead",
            keys_back_and_forward(c),
        )
        .await;
    }
}

/// Play elects a leader; the controller, broker and HW panels, the timer arcs and the
/// controller tabs; the leader (id, epoch) for the failover checks.
async fn leader_checks(t: &mut Tally, c: &Client, artifacts: &Path) -> Option<(i32, i32)> {
    let mut leader = None;
    if t.ok() {
        leader = t
            .check(
                "play elects a leader with epoch >= 1",
                play_elects_leader(c),
            )
            .await;
    }
    if leader.is_some() {
        leader = t
            .check(
                "after 5 s the controller panel shows the active controller deferring writeNoOpRecord",
                controller_panel_shows_active(c),
            )
            .await;
    }
    if leader.is_some() {
        t.check(
            "the broker panel shows brokers 1, 2, 3 RUNNING and unfenced, their heartbeats (2 s apart once running) on a timeline against the 9 s session",
            brokers_running(c),
        )
        .await;
    }
    if let (true, Some((leader_id, _))) = (t.ok(), leader) {
        t.check(
            "the HW panel shows the leader's sorted voters, the index size/2 and the log's HW",
            hw_panel_matches(c, leader_id),
        )
        .await;
    }
    if let (true, Some((leader_id, _))) = (t.ok(), leader) {
        t.check(
            "timer arcs: check-quorum around the leader, fetch around the followers, each broker's session on the active controller",
            timer_arcs(c, leader_id),
        )
        .await;
        if t.ok() {
            screenshot(c, &artifacts.join("panels.png")).await;
            element_screenshot(c, "#broker-panel", &artifacts.join("broker-panel.png")).await;
        }
    }
    if let (true, Some((active_id, _))) = (t.ok(), leader) {
        t.check(
            "a controller tab shows a standby controller, the active tab follows the active one",
            controller_tabs(c, active_id),
        )
        .await;
    }
    leader
}

/// kill -9 of the leader and its restart, isolate and heal, the node menu, the log filter and
/// no page error so far.
async fn failover_checks(t: &mut Tally, c: &Client, artifacts: &Path, leader: Option<(i32, i32)>) {
    let mut new_leader = None;
    if let (true, Some((old_id, old_epoch))) = (t.ok(), leader) {
        new_leader = t
            .check(
                "kill -9 of the leader elects a new leader with a higher epoch",
                failover(c, old_id, old_epoch),
            )
            .await;
    }
    if let (Some((old_id, _)), Some(_)) = (leader, new_leader) {
        let became_active = t
            .check(
                "after kill -9 of the active controller another controller becomes active",
                another_controller_active(c, old_id),
            )
            .await;
        if became_active.is_some() {
            screenshot(c, &artifacts.join("page.png")).await;
        }
    }
    if let (Some((old_id, _)), Some((new_id, new_epoch))) = (leader, new_leader) {
        t.check(
            "restart rejoins the old leader as a follower",
            restart_rejoins(c, old_id, new_id, new_epoch),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "isolate cuts the leader off, a new leader is elected; heal brings it back as a follower",
            isolate_and_heal(c),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "clicking a node opens its menu: STOP, CONT, kill -9 and restart of a follower from it; Escape and a second click close it",
            node_menu(c, &artifacts.join("node-menu.png")),
        )
        .await;
    }
    if t.ok() {
        t.check("the log tail filters by file and text", log_filter(c))
            .await;
    }
    if t.ok() {
        t.check("no panic or script error during the run", no_errors(c))
            .await;
    }
}

/// Lessons 01, 04 and 03 (to the end, back, and in the TimelineHashMap panel).
async fn lesson_checks(t: &mut Tally, c: &Client, url: &str, artifacts: &Path) {
    if t.ok() {
        t.check(
            "lesson 01-metadata-log: node 1 leads epoch 1, the log panel's HW is the tool's HighWatermark",
            lesson_metadata_log(c, url, &artifacts.join("lesson-01.png")),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "lesson 04-fencing: broker 3 stopped and fenced at that step, unfenced at the end; back and forward match; the MetadataImage tree shows the fencing records applied",
            lesson_fencing(c, url, &artifacts.join("lesson-04.png")),
        )
        .await;
    }
    let mut timeline = None;
    if t.ok() {
        timeline = t
            .check(
                "lesson 03-timeline (en): Right arrow runs every step and shows its outputs",
                lesson_timeline_to_the_end(c, url),
            )
            .await;
    }
    if let (true, Some(outputs)) = (t.ok(), timeline) {
        t.check(
            "Left arrow goes back one step and shows its output again; Home, Space, jump to a step; not under the help",
            lesson_goes_back(c, &outputs, &artifacts.join("lesson.png")),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "lesson 03 in the TimelineHashMap panel: the map, the snapshots, the tiers' saved values, reading as of 10 and 11, the revert to 11",
            lesson_timeline_panel(c, url, &artifacts.join("timeline-panel.png")),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "lesson 03 in the timeline figure: committed green, applied yellow, deleteSnapshotsUpTo blue, revertToSnapshot red, each step's change lit, the six lines in #timeline-lines; both themes, both languages",
            lesson_timeline_figure(c, url, &artifacts.join("timeline-figure.png")),
        )
        .await;
    }
}

/// Lesson 02 and its state diagram, then the stage: every step fits, the projector preset,
/// contrast.
async fn stage_checks(t: &mut Tally, c: &Client, url: &str, artifacts: &Path) {
    if t.ok() && has_election_lesson() {
        t.check(
            "lesson 02-election to the end: 102 leads with epoch 2, 101 is killed",
            lesson_election(c, url, &artifacts.join("lesson-election.png")),
        )
        .await;
        if t.ok() {
            t.check(
                "after lesson 02 the state diagram of 102 lights Leader, Candidate → Leader last (animated)",
                state_diagram_leader(c, &artifacts.join("state-diagram.png")),
            )
            .await;
        }
    }
    if t.ok() && has_election_lesson() {
        t.check(
            "lesson 02 played: after kill -9 101 the drawing shows 102 Prospective → Candidate → Leader and 103 Prospective → Unattached (voted 102) → Follower, a 10-20 s story",
            stage::lesson_election_played(c, url, &artifacts.join("stage-election.png")),
        )
        .await;
    }
    if t.ok() && has_election_lesson() {
        t.check(
            "lesson 02's `kafka-topics.sh --create --topic payments`: the controller panel's #write-life shows createTopics from prepareAppend to completeUpTo and the response, in order, the linger, a fetch before the HW; both themes at 1280x720",
            super::write_life::write_life_in_lesson(c, url, artifacts),
        )
        .await;
    }
    if t.ok() && has_election_lesson() {
        t.check(
            "lesson 02 after the kill: the sequence diagram holds PreVote/Vote and BeginQuorumEpoch arrows between 102 and 103 and the kill on 101's lane; the Mermaid export starts with sequenceDiagram and names the nodes",
            sequence::lesson_sequence(c, url, &artifacts.join("sequence.png")),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "free play: the sequence tab draws the first election, `-` doubles its span, a click on an arrow rewinds to the event it was sent at",
            sequence::free_play_rewinds(c, url),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "every step of every lesson, and free play on the stage while it plays, fits 1280x720 and 1920x1080: the drawing and what the step lights on screen, the narration in its box, no page scrolling, no label over a node, no two nodes' arcs touching, no text under 16 px at 1280x720",
            stage::every_step_fits(c, url, artifacts),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "the header's Projector preset sets the light theme and 24 px text",
            stage::projector_preset(c, url),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "contrast on the stage, both themes: text at least 4.5:1, lines at least 3:1",
            stage::contrast(c, url),
        )
        .await;
    }
    changes_checks(t, c, url, artifacts).await;
}

/// What the step changed, and which Kafka code did it (`#step-changes`).
async fn changes_checks(t: &mut Tally, c: &Client, url: &str, artifacts: &Path) {
    if t.ok() && has_election_lesson() {
        t.check(
            "what the step changed: lesson 02 lists 101 killed, then 102's fetch timeout and its transition to Leader named as KafkaRaftClient/QuorumState code with the article's path:Lx-Ly linked at ab1e816411, in English and Korean",
            changes::election_changes(c, url, &artifacts.join("step-changes.png")),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "what the step changed: lesson 04 lists broker 3 fenced by ReplicationControlManager.maybeFenceOneStaleBroker and BrokerHeartbeatManager.fence, and orders-0's ISR change by handleBrokerFenced",
            changes::fencing_changes(c, url),
        )
        .await;
    }
}

/// The article's pictures: lesson 02's Raft state diagram, lesson 04's BrokerState diagram.
async fn diagram_checks(t: &mut Tally, c: &Client, url: &str, artifacts: &Path) {
    if t.ok() && has_election_lesson() {
        t.check(
            "lesson 02 after the kill: the state diagram of 103 numbers its last four transitions (Follower → Prospective → Unattached → Unattached → Follower) with their times and lights their edges; every edge has data-from, data-to and a trigger, labelled in both languages; no two edges cross as drawn",
            diagrams::raft_states_of_103(c, url, artifacts),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "lesson 04: the BrokerState diagram of broker 3 has one [data-state] per BrokerState and lights RUNNING beside the active controller's fenced and its ended session; unfenced after the thaw",
            diagrams::broker_state_of_3(c, url, artifacts),
        )
        .await;
    }
}

/// The console, addresses (replay, restore, bad values) and the messages drawn.
async fn address_checks(t: &mut Tally, c: &Client, url: &str, artifacts: &Path) {
    if t.ok() {
        t.check(
            "free play: the Rules tab lists nine switches, all on, and the invariants, all holding; a click switches session-fencing off through the console and back on",
            free_play_rules(c, url, artifacts),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "lesson 07's last step: the Rules tab shows SessionExpiredBrokerFenced red with its event, time and nodes [100, 1] inside 1280x720, session-fencing OFF and read-only",
            lesson_broken_invariant(c, url, artifacts),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "free play: `status` typed into the console prints the status table",
            console_status(c, url),
        )
        .await;
    }
    let mut replayed = None;
    if t.ok() {
        replayed = t
            .check(
                "an address with cmds= replays frames, commands and a kill to the same world after reload",
                url_replays_commands(c, url),
            )
            .await;
    }
    if let (true, Some(seen)) = (t.ok(), replayed) {
        t.check(
            "a bare address restores the session kept in localStorage; Start fresh forgets it",
            bare_address_restores(c, url, &seen, &artifacts.join("restored.png")),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "bad step= and cmds= values show an error, a good step= opens that step",
            bad_url_values(c, url),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "messages move along their links, one label per link; fetch and heartbeats as steady links (the legend turns Fetch labels on); a dropped answer fails the link; a request to a killed node is drawn failing at it",
            messages_in_flight(c, url, &artifacts.join("messages.png")),
        )
        .await;
    }
}

/// The lecturer's toolkit: the offline single file, the presenter pair, the embedded stage,
/// the QR code.
async fn toolkit_checks(t: &mut Tally, c: &Client, url: &str, artifacts: &Path) {
    if t.ok() && has_election_lesson() {
        let file = crate::dist_dir().join(crate::single_file::FILE_NAME);
        t.check(
            "the single file dist/kraft-playground.html opened from file:// with no server: lesson 02's first three steps run with →, its controllers are drawn, nothing else is fetched",
            super::single_file::single_file_offline(c, &file, artifacts),
        )
        .await;
    }
    if t.ok() {
        t.check(
            "the lesson editor: a malformed lesson shows the parser's error at line 3 column 1 with a caret and cannot run; the text survives a reload; a 210 KB text is refused but kept; free play's session becomes a lesson with kill -9 1 (and back to the previous text); a download link session-seed-42.lesson; Run plays it",
            super::editor::lesson_editor(c, url, artifacts),
        )
        .await;
    }
    if t.ok() && has_election_lesson() {
        t.check(
            "quizzes: lesson 02 asks who leads after 101's kill with choices 101/102/103 before the step, counts hands, hides the answer while the step plays, then lights 102; lesson 04's fencing quiz answers yes",
            super::quiz::lesson_quiz(c, url, artifacts),
        )
        .await;
    }
    if t.ok() && has_election_lesson() {
        t.check(
            "?presenter=1: the speaker window (notes, next step, elapsed time) opens its audience window; they pair over a BroadcastChannel; → in either moves both; the audience shows the stage without the notes",
            presenter::presenter_pairing(c, url, artifacts),
        )
        .await;
    }
    if t.ok() && has_election_lesson() {
        t.check(
            "?embed=1&lesson=&step=: a chromeless stage, also in an iframe; an unknown lesson, a step out of range and a bad number show their error in the frame",
            presenter::embed_stage(c, url, artifacts),
        )
        .await;
    }
    if t.ok() && has_election_lesson() {
        t.check(
            "the QR button shows a code of the share address at step 2, over 450 px at 1280x720; Escape closes it",
            presenter::qr_code(c, url, artifacts),
        )
        .await;
    }
}

/// The checks run when every one passes (the 02-election check only when that lesson exists).
pub(super) fn checks_total() -> usize {
    43 + 12 * usize::from(has_election_lesson())
}

/// Whether lesson 02-election exists (its checks run only then).
pub(super) fn has_election_lesson() -> bool {
    root_dir().join("lessons/02-election.lesson").exists()
}

/// `KRAFT_BROWSER_ONLY=text`: run only the checks whose name contains `text` (for working on
/// one check; `cargo xtask test` runs them all).
fn only() -> Option<String> {
    std::env::var("KRAFT_BROWSER_ONLY")
        .ok()
        .filter(|o| !o.is_empty())
}

#[derive(Default)]
pub(super) struct Tally {
    passed: usize,
    failed: usize,
}

impl Tally {
    fn ok(&self) -> bool {
        self.failed == 0
    }

    async fn check<T>(
        &mut self,
        name: &str,
        f: impl std::future::Future<Output = Result<T>>,
    ) -> Option<T> {
        if only().is_some_and(|o| !name.contains(o.as_str())) {
            return None;
        }
        let started = Instant::now();
        match f.await {
            Ok(v) => {
                self.passed += 1;
                println!("  ok   {name} ({:.2} s)", started.elapsed().as_secs_f64());
                Some(v)
            }
            Err(e) => {
                self.failed += 1;
                println!(
                    "  FAIL {name} ({:.2} s): {e}",
                    started.elapsed().as_secs_f64()
                );
                None
            }
        }
    }
}
