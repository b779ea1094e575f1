//! Every lesson in lessons/ runs and prints exactly what the file expects (`kraft check`).

use kraft_core::lesson::wait::PlayedWait;
use kraft_core::lesson::{runner, Begun, Console, Lesson};
use kraft_core::raft::state::StateKind;

fn lessons() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../lessons");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("lessons/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "lesson"))
        .map(|p| {
            let name = format!("lessons/{}", p.file_name().unwrap().to_string_lossy());
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// The lesson whose file name contains `stem`, parsed.
fn lesson(stem: &str) -> Lesson {
    let (name, text) = lessons()
        .into_iter()
        .find(|(n, _)| n.contains(stem))
        .unwrap_or_else(|| panic!("no lesson {stem}"));
    Lesson::parse(&name, &text).unwrap()
}

/// The outputs of `lesson`'s steps, after checking that each is what the file expects.
fn checked(lesson: &Lesson) -> Vec<Option<String>> {
    let (outputs, mismatches) = runner::check(lesson);
    assert!(mismatches.is_empty(), "{mismatches:?}");
    outputs
}

#[test]
fn every_lesson_reproduces_its_expected_output() {
    let all = lessons();
    assert!(!all.is_empty());
    let mut failures = Vec::new();
    for (name, text) in &all {
        let lesson = Lesson::parse(name, text).unwrap_or_else(|e| panic!("{e}"));
        let (_, mismatches) = runner::check(&lesson);
        for m in mismatches {
            failures.push(format!(
                "{}: {}\nexpected:\n{}\nactual:\n{}",
                m.location, m.command, m.expected, m.actual
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    println!("lessons: {} passed, 0 failed", all.len());
}

/// Lesson 03 prints, line for line, the output of the article's example 3 (Timeline.java).
#[test]
fn lesson_03_is_the_articles_example_3() {
    let lesson = lesson("03-timeline");
    let (outputs, _) = runner::check(&lesson);
    let printed: Vec<String> = outputs
        .into_iter()
        .flatten()
        .filter(|o| !o.is_empty())
        .collect();
    assert_eq!(
        printed,
        vec![
            "committed up to 10 current={orders=id-A} snapshots=[10]",
            "applied 11, 12 (not committed) current={payments=id-B} snapshots=[10, 11, 12]",
            " as of 10: orders=id-A payments=null",
            " as of 11: orders=id-A payments=id-B",
            "committed up to 11 current={payments=id-B} snapshots=[11, 12]",
            "lost leadership, reverted to 11 current={orders=id-A, payments=id-B} snapshots=[11]",
        ]
    );
}

/// Lesson 02 shows the article's example 2: 101 leads epoch 1, is killed, and 102 wins epoch 2
/// with the same transitions on both survivors as the article's log lines.
#[test]
fn lesson_02_is_the_articles_example_2() {
    let lesson = lesson("02-election");
    let outputs = checked(&lesson);
    let out = |prefix: &str| -> String {
        lesson
            .steps
            .iter()
            .zip(&outputs)
            .find(|(s, _)| s.command.starts_with(prefix))
            .and_then(|(_, o)| o.clone())
            .unwrap()
    };
    let shape = |t: String| -> Vec<String> { t.lines().map(|l| l[13..].to_string()).collect() };
    assert!(out("run until=leader").starts_with("leader 101 epoch 1"));
    assert_eq!(
        shape(out("transitions 102")),
        [
            "FollowerState -> ProspectiveState epoch=1",
            "ProspectiveState -> CandidateState epoch=2",
            "CandidateState -> Leader epoch=2"
        ]
    );
    assert_eq!(
        shape(out("transitions 103")),
        [
            "FollowerState -> ProspectiveState epoch=1",
            "ProspectiveState -> UnattachedState epoch=2",
            "UnattachedState -> UnattachedState epoch=2",
            "UnattachedState -> FollowerState epoch=2"
        ]
    );
    assert!(out("cat 103/").starts_with("{\"leaderId\":102,\"leaderEpoch\":2,\"votedId\":102,"));
    assert!(out("cat 102/").starts_with("{\"leaderId\":102,\"leaderEpoch\":2,\"votedId\":-1,"));
    assert_eq!(
        out("kafka-topics.sh --bootstrap-server localhost:9092 --create --topic payments"),
        "Created topic payments."
    );
}

/// The page compiles every lesson in (web/src/lessons.rs lists them by name).
#[test]
fn the_page_lists_every_lesson() {
    let list = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../web/src/lessons.rs"
    ))
    .expect("web/src/lessons.rs");
    for (name, _) in lessons() {
        let stem = name
            .trim_start_matches("lessons/")
            .trim_end_matches(".lesson");
        assert!(
            list.contains(&format!("\"{stem}\"")),
            "web/src/lessons.rs does not list {stem}"
        );
    }
}

/// Lesson 04 shows the article's example 4 in its own run's shape: orders on leader 1 with
/// replicas 1,2,3; broker 3 frozen is fenced 7–10 s later; the records are handleBrokerFenced()'s
/// (the ISR change without a leader change, then fenced 1), and after the thaw fenced -1 and
/// later the leader's ISR expansion back to 1,2,3.
#[test]
fn lesson_04_is_the_articles_example_4() {
    let lesson = lesson("04-fencing");
    let outputs = checked(&lesson);
    let all: Vec<(&str, String)> = lesson
        .steps
        .iter()
        .zip(&outputs)
        .filter_map(|(s, o)| Some((s.command.as_str(), o.clone()?)))
        .collect();
    let outs = |prefix: &str| -> Vec<&String> {
        all.iter()
            .filter(|(c, _)| c.starts_with(prefix))
            .map(|(_, o)| o)
            .collect()
    };
    let partition = |o: &str| o.lines().nth(1).unwrap_or_default().trim().to_string();
    let describes = outs("kafka-topics.sh --bootstrap-server localhost:9092 --describe");
    assert_eq!(
        describes.iter().map(|o| partition(o)).collect::<Vec<_>>(),
        [
            "Topic: orders\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2,3\tElr: \tLastKnownElr:",
            "Topic: orders\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2\tElr: \tLastKnownElr:",
            "Topic: orders\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2,3\tElr: \tLastKnownElr:",
        ]
    );
    let fenced = outs("run until=fenced=3")[0];
    let secs: f64 = fenced
        .trim_start_matches("broker 3 fenced after ")
        .trim_end_matches('s')
        .parse()
        .unwrap();
    assert!((7.0..=10.0).contains(&secs), "{fenced}");
    let shape = |o: &str| -> Vec<String> {
        o.lines()
            .map(|l| {
                let json = &l[l.find('{').unwrap()..];
                let ty = json.split('"').nth(3).unwrap().to_string();
                let tail = json.rsplit_once("\"data\":").unwrap().1;
                let field = if ty == "PARTITION_CHANGE_RECORD" {
                    tail.split_once("\"isr\":").unwrap().1
                } else {
                    tail.split_once("\"fenced\":").unwrap().1
                };
                format!("{ty} {}", field.trim_end_matches('}'))
            })
            .collect()
    };
    assert_eq!(
        shape(outs("records 100 since=freeze")[0]),
        [
            "PARTITION_CHANGE_RECORD [1,2]",
            "BROKER_REGISTRATION_CHANGE_RECORD 1"
        ]
    );
    assert_eq!(
        shape(outs("records 100 since=thaw")[0]),
        [
            "BROKER_REGISTRATION_CHANGE_RECORD -1",
            "PARTITION_CHANGE_RECORD [1,2,3]"
        ]
    );
}

/// The page's frame: 60 frames a wall second.
const FRAME_WALL_MS: f64 = 1000.0 / 60.0;

/// Runs `lesson` as the page plays it: every wait step (`sleep`, `run`) frame by frame with
/// adaptive time, every other step at once. Calls `each_frame` after every frame of a wait with
/// the step's index. Gives each step's output.
fn played(lesson: &Lesson, mut each_frame: impl FnMut(usize, &Console)) -> Vec<Option<String>> {
    let mut console = Console::new();
    let mut outputs = Vec::new();
    for (k, s) in lesson.steps.iter().enumerate() {
        if s.command.is_empty() {
            outputs.push(None);
            continue;
        }
        let out = match console.begin(&s.command) {
            Begun::Done(r) => r,
            Begun::Wait(wait) => {
                let world = console.world.as_ref().unwrap();
                let mut play = PlayedWait::new(wait, world);
                let mut frames = 0u64;
                loop {
                    let done = play.frame(console.world.as_mut().unwrap(), FRAME_WALL_MS);
                    frames += 1;
                    each_frame(k, &console);
                    if let Some(r) = done {
                        break r;
                    }
                    assert!(
                        frames < 60 * 120,
                        "{}:{} plays for over 2 minutes",
                        lesson.name,
                        s.line
                    );
                }
            }
        };
        outputs.push(Some(out.unwrap_or_else(|e| format!("error: {e}"))));
    }
    outputs
}

/// Playing a lesson's waits frame by frame with adaptive time (as the page does) prints the same
/// outputs as running them at once (`kraft check`), and leaves the same world.
#[test]
fn every_lesson_played_with_adaptive_time_prints_its_pinned_outputs() {
    for (name, text) in lessons() {
        let lesson = Lesson::parse(&name, &text).unwrap();
        let at_once = checked(&lesson);
        let played = played(&lesson, |_, _| {});
        assert_eq!(played, at_once, "{name}");
    }
    // The same world, not only the same outputs: the final views are equal.
    let l = lesson("02-election");
    let mut at_once = Console::new();
    for s in &l.steps {
        runner::step_output(&mut at_once, &s.command);
    }
    let mut last = None;
    played(&l, |_, c| last = Some(c.world.as_ref().unwrap().view()));
    let mut paced = Console::new();
    for s in &l.steps {
        if let Begun::Wait(w) = paced.begin(&s.command) {
            let world = paced.world.as_mut().unwrap();
            let mut play = PlayedWait::new(w, world);
            while play.frame(world, FRAME_WALL_MS).is_none() {}
        }
    }
    assert_eq!(
        paced.world.as_ref().unwrap().view(),
        at_once.world.as_ref().unwrap().view()
    );
}

/// Lesson 02's kill step (`sleep 15s`) played with adaptive time is a 10-20 s story in which the
/// room sees 102 go Prospective, Candidate and Leader and 103 go Prospective, Unattached (with
/// its vote for 102) and Follower, each for at least a quarter of a second.
#[test]
fn lesson_02s_election_plays_as_a_story_the_room_can_follow() {
    let l = lesson("02-election");
    let kill = l
        .steps
        .iter()
        .position(|s| s.command == "kill -9 101")
        .expect("the kill step");
    let wait = kill + 1;
    assert_eq!(l.steps[wait].command, "sleep 15s");
    // (node, state) -> frames seen, in order of first sight.
    let mut seen: Vec<((i32, String), u64)> = Vec::new();
    let mut frames = 0u64;
    played(&l, |k, c| {
        if k != wait {
            return;
        }
        frames += 1;
        for n in c.world.as_ref().unwrap().view().nodes {
            let state = match n.voted_id {
                Some(v) if n.raft_state == Some(StateKind::Unattached) => {
                    format!("Unattached voted {v}")
                }
                _ => n.raft_state.map_or("-", StateKind::name).to_string(),
            };
            match seen
                .iter_mut()
                .find(|(key, _)| *key == (n.id, state.clone()))
            {
                Some((_, count)) => *count += 1,
                None => seen.push(((n.id, state), 1)),
            }
        }
    });
    let wall_s = frames as f64 * FRAME_WALL_MS / 1000.0;
    assert!(
        (10.0..=20.0).contains(&wall_s),
        "the kill step plays {wall_s:.1} s"
    );
    let shown = |id: i32, state: &str| {
        seen.iter()
            .find(|((n, s), _)| *n == id && s == state)
            .map(|(_, f)| *f)
            .unwrap_or(0)
    };
    let quarter_second = (250.0 / FRAME_WALL_MS) as u64;
    for (id, state) in [
        (102, "Prospective"),
        (102, "Candidate"),
        (102, "Leader"),
        (103, "Prospective"),
        (103, "Unattached voted 102"),
        (103, "Follower"),
    ] {
        let f = shown(id, state);
        assert!(
            f >= quarter_second,
            "{id} {state} shown {f} frames: {seen:?}"
        );
    }
}
