//! The life of a write (article section 3) as the view keeps it: a topic created on a
//! three-controller cluster, its ten steps in order, the linger, the followers' fetches before
//! the high watermark, the high watermark before handleCommit and completeUpTo.

mod common;

use common::{topic, world};
use kraft_core::common::message::controller::ControllerRequest;
use kraft_core::controller::write_life::WriteLife;
use kraft_core::sim::World;

/// The active controller's lives after creating `payments` (and 2 s more).
fn created_topic_life(seed: u64) -> (World, WriteLife) {
    let mut w = world(seed, &[101, 102, 103], &[1]);
    w.run_for(5_000);
    let active = w
        .active_controller()
        .expect("an active controller after 5 s");
    let cid = w
        .admin_send(
            active,
            ControllerRequest::CreateTopics {
                topics: vec![topic("payments", 1, 1)],
            },
        )
        .expect("sent");
    assert!(w.run_until(10_000, |w| w.admin_response(cid).is_some()));
    w.run_for(2_000);
    let life = w
        .node(active)
        .and_then(|n| n.controller.as_ref())
        .and_then(|c| {
            c.write_lives
                .iter()
                .find(|l| l.event.starts_with("createTopics"))
        })
        .cloned()
        .expect("the createTopics write's life");
    (w, life)
}

#[test]
fn a_topic_creation_lives_its_ten_steps_in_order() {
    for seed in [7, 17, 42] {
        let (w, l) = created_topic_life(seed);
        assert_eq!(Some(l.controller_id), w.active_controller());
        assert!(l.epoch >= 1);
        assert_eq!(l.record_types, vec!["TOPIC_RECORD", "PARTITION_RECORD"]);
        assert_eq!(l.last_offset - l.base_offset + 1, 2);
        assert_eq!(l.snapshot_epoch, l.last_offset);
        assert!(l.responds);
        let log_write = l.log_write_ms.expect("written to the leader's log");
        let hw = l.high_watermark_ms.expect("the HW passed it");
        let commit = l.handle_commit_ms.expect("handleCommit");
        let done = l.complete_up_to_ms.expect("completeUpTo");
        let sent = l.response_ms.expect("response");
        let order = [
            l.start_ms,
            l.generate_ms,
            l.prepare_append_ms,
            l.replay_ms,
            l.schedule_append_ms,
            l.purgatory_add_ms,
            log_write,
            hw,
            commit,
            done,
            sent,
        ];
        assert!(order.windows(2).all(|p| p[0] <= p[1]), "seed {seed}: {l:?}");
        // The 25 ms linger (the batch holds two records: it does not fill).
        assert_eq!(l.linger_ms, 25);
        let linger = log_write - l.prepare_append_ms;
        assert!(
            (1..=l.linger_ms + 5).contains(&linger),
            "seed {seed}: {linger}"
        );
        // Both other voters fetched it; a majority (one follower) before the HW moved.
        assert_eq!(l.voters.len(), 2, "{l:?}");
        let fetched: Vec<u64> = l.voters.iter().filter_map(|v| v.fetched_ms).collect();
        assert_eq!(fetched.len(), 2, "seed {seed}: {l:?}");
        assert!(fetched.iter().all(|&f| f >= log_write));
        assert!(fetched.iter().any(|&f| f <= hw), "seed {seed}: {l:?}");
        // The standbys replay it once they learn the commit, after the leader's HW.
        for v in &l.voters {
            assert!(v.replayed_ms.expect("standby replayed") >= hw, "{l:?}");
        }
        assert!(l.failed_ms.is_none());
    }
}

#[test]
fn the_view_shows_the_active_controllers_write_lives() {
    let (w, l) = created_topic_life(7);
    let view = w.view();
    let c = view
        .nodes
        .iter()
        .find(|n| n.id == l.controller_id)
        .and_then(|n| n.controller.as_ref())
        .expect("the active controller's view");
    assert!(c.write_lives.contains(&l));
    assert!(c.write_lives.len() <= kraft_core::controller::write_life::WRITE_LIVES_KEPT);
}

#[test]
fn lesson_02_creates_payments_with_a_write_life_on_the_new_leader() {
    let text = std::fs::read_to_string("../lessons/02-election.lesson").expect("lesson 02");
    let lesson = kraft_core::lesson::parse::Lesson::parse("02-election", &text).expect("parses");
    let mut console = kraft_core::lesson::console::Console::new();
    for step in &lesson.steps {
        kraft_core::lesson::runner::step_output(&mut console, &step.command);
    }
    let w = console.world.as_ref().expect("a world");
    let active = w.active_controller().expect("an active controller");
    let c = w.node(active).and_then(|n| n.controller.as_ref()).unwrap();
    let l = c.write_lives.iter().last().expect("a write life");
    assert!(l.event.starts_with("createTopics"), "{l:?}");
    assert!(
        l.complete_up_to_ms.is_some() && l.response_ms.is_some(),
        "{l:?}"
    );
}
