//! Every lesson in lessons/ runs and prints exactly what the file expects (`kraft check`).

use kraft_core::lesson::{runner, Lesson};

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
