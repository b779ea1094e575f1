//! The browser checks, one table in the order they run: each row names what it asserts, the
//! module its code lives in, the lesson it needs (if any), what it needs from earlier checks
//! and what it finds for later ones. [`super::runner`] runs the rows `KRAFT_BROWSER_ONLY`
//! picks and counts them: a new check is one new row, and no count is written anywhere.

use super::driver::{self, element_screenshot, screenshot};
use super::runner::{Check, Found};
use super::{
    addresses, changes, chrome, console, diagrams, drawing, editor, free_play, hw_two, lessons,
    panels, presenter, quiz, rules, sequence, single_file, stage, timeline_figure, voters,
    write_life,
};

/// Every browser check, in the order they run (later ones build on the page earlier ones left).
pub(super) static CHECKS: &[Check] = &[
    Check {
        name: "page loads without panic or script error",
        area: "free_play",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(free_play::page_loads(&s.c, &s.url)),
    },
    Check {
        name: "first visit: a card offers lesson 02, free play and the keys; Free play dismisses it for good; Lesson 02 opens the lesson on the stage",
        area: "free_play",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(free_play::first_visit(&s.c, &s.url)),
    },
    Check {
        name: "shows controllers 101, 102, 103 and brokers 1, 2, 3",
        area: "free_play",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(free_play::shows_nodes(&s.c)),
    },
    Check {
        name: "window.kraft: a bare address gets a fresh seed in its address and header; view() is the engine's view (the drawing's leader, typed message fields); the API is read-only",
        area: "free_play",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(free_play::kraft_api(&s.c, &s.url)),
    },
    Check {
        name: "theme toggle switches the class on <html> and the choice survives a reload",
        area: "chrome",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(chrome::theme_toggle(&s.c, &s.artifacts)),
    },
    Check {
        name: "한국어 / English switch the controls' and panels' labels",
        area: "chrome",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(chrome::ui_language(&s.c)),
    },
    Check {
        name: "the splitter widens the cluster column, A+ enlarges the text; both survive a reload",
        area: "chrome",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(chrome::layout_controls(&s.c)),
    },
    Check {
        name: "`?` opens the keyboard help, Escape and its close button close it",
        area: "chrome",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(async move { chrome::keyboard_help(&s.c, &s.artifact("help.png")).await }),
    },
    Check {
        name: "step runs one event and says what it ran",
        area: "free_play",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(free_play::step_runs_one_event(&s.c)),
    },
    Check {
        name: "step back returns to the state one event earlier",
        area: "free_play",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(free_play::step_back_rewinds(&s.c)),
    },
    Check {
        name: "free-play keys: ← ← ← back three events, → → → forward again along what happened to the same view; ↷ shows what is ahead",
        area: "free_play",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(free_play::keys_back_and_forward(&s.c)),
    },
    Check {
        name: "play elects a leader with epoch >= 1",
        area: "free_play",
        lesson: None,
        needs: &[],
        finds: &[Found::Leader],
        run: |s| Box::pin(async move {
            let leader = free_play::play_elects_leader(&s.c).await?;
            s.set_leader(leader);
            Ok(())
        }),
    },
    Check {
        name: "after 5 s the controller panel shows the active controller deferring writeNoOpRecord",
        area: "panels",
        lesson: None,
        needs: &[Found::Leader],
        finds: &[Found::Leader],
        run: |s| Box::pin(async move {
            let active = panels::controller_panel_shows_active(&s.c).await?;
            s.set_leader(active);
            Ok(())
        }),
    },
    Check {
        name: "the broker panel shows brokers 1, 2, 3 RUNNING and unfenced, their heartbeats (2 s apart once running) on a timeline against the 9 s session",
        area: "panels",
        lesson: None,
        needs: &[Found::Leader],
        finds: &[],
        run: |s| Box::pin(panels::brokers_running(&s.c)),
    },
    Check {
        name: "the HW panel shows the leader's sorted voters, the index size/2 and the log's HW",
        area: "panels",
        lesson: None,
        needs: &[Found::Leader],
        finds: &[],
        run: |s| Box::pin(async move { panels::hw_panel_matches(&s.c, s.leader()?.0).await }),
    },
    Check {
        name: "timer arcs: check-quorum around the leader, fetch around the followers, each broker's session on the active controller",
        area: "drawing",
        lesson: None,
        needs: &[Found::Leader],
        finds: &[],
        run: |s| Box::pin(async move {
            drawing::timer_arcs(&s.c, s.leader()?.0).await?;
            screenshot(&s.c, &s.artifact("panels.png")).await;
            element_screenshot(&s.c, "#broker-panel", &s.artifact("broker-panel.png")).await;
            Ok(())
        }),
    },
    Check {
        name: "a controller tab shows a standby controller, the active tab follows the active one",
        area: "panels",
        lesson: None,
        needs: &[Found::Leader],
        finds: &[],
        run: |s| Box::pin(async move { panels::controller_tabs(&s.c, s.leader()?.0).await }),
    },
    Check {
        name: "kill -9 of the leader elects a new leader with a higher epoch",
        area: "free_play",
        lesson: None,
        needs: &[Found::Leader],
        finds: &[Found::NewLeader],
        run: |s| Box::pin(async move {
            let (old_id, old_epoch) = s.leader()?;
            let new_leader = free_play::failover(&s.c, old_id, old_epoch).await?;
            s.set_new_leader(new_leader);
            Ok(())
        }),
    },
    Check {
        name: "after kill -9 of the active controller another controller becomes active",
        area: "panels",
        lesson: None,
        needs: &[Found::Leader, Found::NewLeader],
        finds: &[],
        run: |s| Box::pin(async move {
            panels::another_controller_active(&s.c, s.leader()?.0).await?;
            screenshot(&s.c, &s.artifact("page.png")).await;
            Ok(())
        }),
    },
    Check {
        name: "restart rejoins the old leader as a follower",
        area: "free_play",
        lesson: None,
        needs: &[Found::Leader, Found::NewLeader],
        finds: &[],
        run: |s| Box::pin(async move {
            let (new_id, new_epoch) = s.new_leader()?;
            free_play::restart_rejoins(&s.c, s.leader()?.0, new_id, new_epoch).await
        }),
    },
    Check {
        name: "isolate cuts the leader off, a new leader is elected; heal brings it back as a follower",
        area: "free_play",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(free_play::isolate_and_heal(&s.c)),
    },
    Check {
        name: "clicking a node opens its menu: STOP, CONT, kill -9 and restart of a follower from it; Escape and a second click close it",
        area: "free_play",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(async move { free_play::node_menu(&s.c, &s.artifact("node-menu.png")).await }),
    },
    Check {
        name: "the log tail filters by file and text",
        area: "panels",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(panels::log_filter(&s.c)),
    },
    Check {
        name: "no panic or script error during the run",
        area: "driver",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(driver::no_errors(&s.c)),
    },
    Check {
        name: "lesson 01-metadata-log: node 1 leads epoch 1, the log panel's HW is the tool's HighWatermark",
        area: "lessons",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(async move { lessons::lesson_metadata_log(&s.c, &s.url, &s.artifact("lesson-01.png")).await }),
    },
    Check {
        name: "lesson 04-fencing: broker 3 stopped and fenced at that step, unfenced at the end; back and forward match; the MetadataImage tree shows the fencing records applied",
        area: "lessons",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(async move { lessons::lesson_fencing(&s.c, &s.url, &s.artifact("lesson-04.png")).await }),
    },
    Check {
        name: "lesson 03-timeline (en): Right arrow runs every step and shows its outputs",
        area: "lessons",
        lesson: None,
        needs: &[],
        finds: &[Found::TimelineSteps],
        run: |s| Box::pin(async move {
            let steps = lessons::lesson_timeline_to_the_end(&s.c, &s.url).await?;
            s.set_timeline_steps(steps);
            Ok(())
        }),
    },
    Check {
        name: "Left arrow goes back one step and shows its output again; Home, Space, jump to a step; not under the help",
        area: "lessons",
        lesson: None,
        needs: &[Found::TimelineSteps],
        finds: &[],
        run: |s| Box::pin(async move {
            let shot = s.artifact("lesson.png");
            lessons::lesson_goes_back(&s.c, s.timeline_steps()?, &shot).await
        }),
    },
    Check {
        name: "lesson 03 in the TimelineHashMap panel: the map, the snapshots, the tiers' saved values, reading as of 10 and 11, the revert to 11",
        area: "lessons",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(async move { lessons::lesson_timeline_panel(&s.c, &s.url, &s.artifact("timeline-panel.png")).await }),
    },
    Check {
        name: "lesson 03 in the timeline figure: committed green, applied yellow, deleteSnapshotsUpTo blue, revertToSnapshot red, each step's change lit, the six lines in #timeline-lines; both themes, both languages",
        area: "timeline_figure",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(async move { timeline_figure::lesson_timeline_figure(&s.c, &s.url, &s.artifact("timeline-figure.png")).await }),
    },
    Check {
        name: "lesson 02-election to the end: 102 leads with epoch 2, 101 is killed",
        area: "lessons",
        lesson: Some("02-election"),
        needs: &[],
        finds: &[],
        run: |s| Box::pin(async move { lessons::lesson_election(&s.c, &s.url, &s.artifact("lesson-election.png")).await }),
    },
    Check {
        name: "after lesson 02 the state diagram of 102 lights Leader, Candidate → Leader last (animated)",
        area: "panels",
        lesson: Some("02-election"),
        needs: &[],
        finds: &[],
        run: |s| Box::pin(async move { panels::state_diagram_leader(&s.c, &s.artifact("state-diagram.png")).await }),
    },
    Check {
        name: "lesson 02 played: after kill -9 101 the drawing shows 102 Prospective → Candidate → Leader and 103 Prospective → Unattached (voted 102) → Follower, a 10-20 s story",
        area: "stage",
        lesson: Some("02-election"),
        needs: &[],
        finds: &[],
        run: |s| {
            Box::pin(async move {
                let shot = s.artifact("stage-election.png");
                stage::lesson_election_played(&s.c, &s.url, &shot).await?;
                Ok(())
            })
        },
    },
    Check {
        name: "lesson 02's `kafka-topics.sh --create --topic payments`: the controller panel's #write-life shows createTopics from prepareAppend to completeUpTo and the response, in order, the linger, a fetch before the HW; both themes at 1280x720",
        area: "write_life",
        lesson: Some("02-election"),
        needs: &[],
        finds: &[],
        run: |s| Box::pin(write_life::write_life_in_lesson(&s.c, &s.url, &s.artifacts)),
    },
    Check {
        name: "lesson 02 after the kill: the sequence diagram holds PreVote/Vote and BeginQuorumEpoch arrows between 102 and 103 and the kill on 101's lane; the Mermaid export starts with sequenceDiagram and names the nodes",
        area: "sequence",
        lesson: Some("02-election"),
        needs: &[],
        finds: &[],
        run: |s| Box::pin(async move { sequence::lesson_sequence(&s.c, &s.url, &s.artifact("sequence.png")).await }),
    },
    Check {
        name: "free play: the sequence tab draws the first election, `-` doubles its span, a click on an arrow rewinds to the event it was sent at",
        area: "sequence",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(sequence::free_play_rewinds(&s.c, &s.url)),
    },
    Check {
        name: "every step of every lesson, and free play on the stage while it plays, fits 1280x720 and 1920x1080: the drawing and what the step lights on screen, the narration in its box, no page scrolling, no label over a node, no two nodes' arcs touching, no text under 16 px at 1280x720",
        area: "stage",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(stage::every_step_fits(&s.c, &s.url, &s.artifacts)),
    },
    Check {
        name: "the voter set at 1280x720: the console's auto-join cluster draws 101 alone on the ring and 102, 103 apart as observers, the legend lists the voter changes and fits; 10 s in, the step's changes name AddVoterHandler and KRaftControlRecordStateMachine and the sequence labels 102's AddRaftVoter; 30 s in, three voters and `majority 2 of 3` (as kraft.view().quorum says) and the HW panel's set; no text over another text or a node, in English and Korean",
        area: "voters",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(async move { voters::voters_join(&s.c, &s.url, &s.artifact("voters-1280.png")).await }),
    },
    Check {
        name: "two high watermarks at 1280x720 (orders-0 written through the address's #produce line, broker 3 stopped between two writes): the metadata log's HW and the partition's as kraft.view() has them, broker 3 drawn apart and labelled out of the ISR, the ISR line at the ISR's smallest LEO, both halves named SVG images; nothing of the figure cut off and no text under 16 px, in English and Korean; the partitions panel's LEO / HW per replica; replica fetches as steady links with a legend entry",
        area: "hw_two",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(async move { hw_two::two_high_watermarks(&s.c, &s.url, &s.artifact("hw-two-1280.png")).await }),
    },
    Check {
        name: "the header's Projector preset sets the light theme and 24 px text",
        area: "stage",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(stage::projector_preset(&s.c, &s.url)),
    },
    Check {
        name: "contrast on the stage, both themes: text at least 4.5:1, lines at least 3:1",
        area: "stage",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(stage::contrast(&s.c, &s.url)),
    },
    Check {
        name: "what the step changed: lesson 02 lists 101 killed, then 102's fetch timeout and its transition to Leader named as KafkaRaftClient/QuorumState code with the article's path:Lx-Ly linked at ab1e816411, in English and Korean",
        area: "changes",
        lesson: Some("02-election"),
        needs: &[],
        finds: &[],
        run: |s| Box::pin(async move { changes::election_changes(&s.c, &s.url, &s.artifact("step-changes.png")).await }),
    },
    Check {
        name: "what the step changed: lesson 04 lists broker 3 fenced by ReplicationControlManager.maybeFenceOneStaleBroker and BrokerHeartbeatManager.fence, and orders-0's ISR change by handleBrokerFenced",
        area: "changes",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(changes::fencing_changes(&s.c, &s.url)),
    },
    Check {
        name: "lesson 02 after the kill: the state diagram of 103 numbers its last four transitions (Follower → Prospective → Unattached → Unattached → Follower) with their times and lights their edges; every edge has data-from, data-to and a trigger, labelled in both languages; no two edges cross as drawn",
        area: "diagrams",
        lesson: Some("02-election"),
        needs: &[],
        finds: &[],
        run: |s| Box::pin(diagrams::raft_states_of_103(&s.c, &s.url, &s.artifacts)),
    },
    Check {
        name: "lesson 04: the BrokerState diagram of broker 3 has one [data-state] per BrokerState and lights RUNNING beside the active controller's fenced and its ended session; unfenced after the thaw",
        area: "diagrams",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(diagrams::broker_state_of_3(&s.c, &s.url, &s.artifacts)),
    },
    Check {
        name: "free play: the Rules tab lists eleven switches, all on, and the invariants, all holding; a click switches session-fencing off through the console and back on",
        area: "rules",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(rules::free_play_rules(&s.c, &s.url, &s.artifacts)),
    },
    Check {
        name: "lesson 07's last step: the Rules tab shows SessionExpiredBrokerFenced red with its event, time and nodes [100, 1] inside 1280x720, session-fencing OFF and read-only",
        area: "rules",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(rules::lesson_broken_invariant(&s.c, &s.url, &s.artifacts)),
    },
    Check {
        name: "free play: `status` typed into the console prints the status table",
        area: "console",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(console::console_status(&s.c, &s.url)),
    },
    Check {
        name: "an address with cmds= replays frames, commands and a kill to the same world after reload",
        area: "addresses",
        lesson: None,
        needs: &[],
        finds: &[Found::ReplayedWorld],
        run: |s| Box::pin(async move {
            let seen = addresses::url_replays_commands(&s.c, &s.url).await?;
            s.set_replayed_world(seen);
            Ok(())
        }),
    },
    Check {
        name: "a bare address restores the session kept in localStorage; Start fresh forgets it",
        area: "addresses",
        lesson: None,
        needs: &[Found::ReplayedWorld],
        finds: &[],
        run: |s| Box::pin(async move {
            let shot = s.artifact("restored.png");
            addresses::bare_address_restores(&s.c, &s.url, s.replayed_world()?, &shot).await
        }),
    },
    Check {
        name: "bad step= and cmds= values show an error, a good step= opens that step",
        area: "addresses",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(addresses::bad_url_values(&s.c, &s.url)),
    },
    Check {
        name: "messages move along their links, one label per link; fetch and heartbeats as steady links (the legend turns Fetch labels on); a dropped answer fails the link; a request to a killed node is drawn failing at it",
        area: "drawing",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(async move { drawing::messages_in_flight(&s.c, &s.url, &s.artifact("messages.png")).await }),
    },
    Check {
        name: "the single file dist/kraft-playground.html opened from file:// with no server: lesson 02's first three steps run with →, its controllers are drawn, nothing else is fetched",
        area: "single_file",
        lesson: Some("02-election"),
        needs: &[],
        finds: &[],
        run: |s| Box::pin(async move {
            let file = crate::dist_dir().join(crate::single_file::FILE_NAME);
            single_file::single_file_offline(&s.c, &file, &s.artifacts).await
        }),
    },
    Check {
        name: "the lesson editor: a malformed lesson shows the parser's error at line 3 column 1 with a caret and cannot run; the text survives a reload; a 210 KB text is refused but kept; free play's session becomes a lesson with kill -9 1 (and back to the previous text); a download link session-seed-42.lesson; Run plays it",
        area: "editor",
        lesson: None,
        needs: &[],
        finds: &[],
        run: |s| Box::pin(editor::lesson_editor(&s.c, &s.url, &s.artifacts)),
    },
    Check {
        name: "quizzes: lesson 02 asks who leads after 101's kill with choices 101/102/103 before the step, counts hands, hides the answer while the step plays, then lights 102; lesson 04's fencing quiz answers yes",
        area: "quiz",
        lesson: Some("02-election"),
        needs: &[],
        finds: &[],
        run: |s| Box::pin(quiz::lesson_quiz(&s.c, &s.url, &s.artifacts)),
    },
    Check {
        name: "?presenter=1: the speaker window (notes, next step, elapsed time) opens its audience window; they pair over a BroadcastChannel; → in either moves both; the audience shows the stage without the notes",
        area: "presenter",
        lesson: Some("02-election"),
        needs: &[],
        finds: &[],
        run: |s| Box::pin(presenter::presenter_pairing(&s.c, &s.url, &s.artifacts)),
    },
    Check {
        name: "?embed=1&lesson=&step=: a chromeless stage, also in an iframe; an unknown lesson, a step out of range and a bad number show their error in the frame",
        area: "presenter",
        lesson: Some("02-election"),
        needs: &[],
        finds: &[],
        run: |s| Box::pin(presenter::embed_stage(&s.c, &s.url, &s.artifacts)),
    },
    Check {
        name: "the QR button shows a code of the share address at step 2, over 450 px at 1280x720; Escape closes it",
        area: "presenter",
        lesson: Some("02-election"),
        needs: &[],
        finds: &[],
        run: |s| Box::pin(presenter::qr_code(&s.c, &s.url, &s.artifacts)),
    },
];
