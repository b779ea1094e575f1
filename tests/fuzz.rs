//! Bounded fuzzing of everything a user types: random console programs and mutated lessons,
//! from a fixed seed. Every command must end within its budget (`command.max.events` events,
//! `command.max.ms` of virtual time), nothing may panic, and every rejection must be a clear
//! error. `KRAFT_FUZZ_CASES=N` runs N programs and N/4 mutated lessons (default 600);
//! `KRAFT_FUZZ_SEED=S` changes the seed. A failure prints the case's seed and its input.

use kraft_core::common::rng::SimRng;
use kraft_core::lesson::console::Console;
use kraft_core::lesson::parse::Lesson;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Values that have broken parsers before: zero, negatives, the integer edges, units, junk.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "3",
    "-1",
    "-5",
    "250ms",
    "2s",
    "15s",
    "1m",
    "1000h",
    "2147483648",
    "18446744073709551615",
    "99999999999999999999999",
    "abc",
    "",
    "1e9",
    "0.5",
    "5",
    "NaN",
    "10s",
];

const NODES: &[&str] = &[
    "1", "2", "3", "4", "101", "102", "103", "0", "-1", "999", "x",
];

const SETTINGS: &[&str] = &[
    "controller.quorum.election.timeout.ms",
    "controller.quorum.fetch.timeout.ms",
    "controller.quorum.request.timeout.ms",
    "broker.session.timeout.ms",
    "broker.heartbeat.interval.ms",
    "metadata.max.idle.interval.ms",
    "network.latency.ms",
    "network.jitter.ms",
    "tick.ms",
    "command.max.ms",
    "command.max.events",
    "metadata.log.segment.bytes",
    "no.such.setting",
];

fn pick<'a>(rng: &mut SimRng, xs: &[&'a str]) -> &'a str {
    xs[rng.below(xs.len() as u64) as usize]
}

/// One random command line.
fn command(rng: &mut SimRng) -> String {
    // Mostly values a lecturer would type, the edge cases a third of the time.
    let n = |rng: &mut SimRng| {
        if rng.chance(0.35) {
            pick(rng, NUMBERS)
        } else {
            pick(rng, &["1", "3", "250ms", "2s", "5s", "15s", "2"])
        }
        .to_string()
    };
    let id = |rng: &mut SimRng| {
        if rng.chance(0.25) {
            pick(rng, NODES)
        } else {
            pick(rng, &["1", "2", "101", "102", "103"])
        }
        .to_string()
    };
    match rng.below(30) {
        0 => format!("sleep {}", n(rng)),
        1 => format!("run {}", n(rng)),
        2 => format!(
            "run until={} timeout={}",
            pick(
                rng,
                &[
                    "leader",
                    "leader-changed",
                    "leader=102",
                    "epoch=3",
                    "active-controller",
                    "fenced=1",
                    "unfenced=2",
                    "nothing=1",
                    "leader=abc"
                ]
            ),
            n(rng)
        ),
        3 => format!("step {}", n(rng)),
        4 => format!("tick {}", n(rng)),
        5 => format!(
            "kill {}{}",
            pick(rng, &["", "-9 ", "-TERM ", "-STOP ", "-CONT ", "-HUP "]),
            id(rng)
        ),
        6 => format!("start {}", id(rng)),
        7 => format!("slow {} {}", id(rng), n(rng)),
        8 => format!("partition {} | {},{}", id(rng), id(rng), id(rng)),
        9 => "heal".into(),
        10 => format!(
            "drop {}",
            pick(
                rng,
                &[
                    "",
                    "rate=0.2",
                    "rate=5",
                    "kind=Fetch",
                    "kind=FetchRequest from=101",
                    "to=2 kind=BrokerHeartbeatRequest",
                    "rate=-1",
                    "from=abc"
                ]
            )
        ),
        11 => format!("set {}={}", pick(rng, SETTINGS), n(rng)),
        12 => format!("add-broker {}", id(rng)),
        13 => format!(
            "kafka-topics.sh --bootstrap-server localhost:9092 --create --topic t{} --partitions {} --replication-factor {}",
            rng.below(3),
            n(rng),
            n(rng)
        ),
        14 => format!(
            "kafka-topics.sh --bootstrap-server localhost:9092 --create --topic c --config {}={}",
            pick(rng, &["retention.ms", "cleanup.policy", "min.insync.replicas", "nope"]),
            n(rng)
        ),
        15 => "kafka-metadata-quorum.sh --bootstrap-server localhost:9092 describe --status".into(),
        16 => "kafka-metadata-quorum.sh --bootstrap-server localhost:9092 describe --replication"
            .into(),
        17 => format!(
            "kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type topics --entity-name t0 --add-config retention.ms={}",
            n(rng)
        ),
        18 => format!(
            "grep {} {}/server.log",
            pick(
                rng,
                &["Leader", "-E 'Vote|Fetch'", "'a\\|b'", "-c .*", "'['", "-z x", "-i epoch"]
            ),
            id(rng)
        ),
        19 => "status".into(),
        20 => format!("transitions {}", id(rng)),
        21 => format!("controller {}", id(rng)),
        22 => format!("records {}", id(rng)),
        23 => format!(
            "expect leader={} epoch={} state({})=Follower",
            id(rng),
            n(rng),
            id(rng)
        ),
        24 => format!("mark m{}", rng.below(3)),
        25 => format!(
            "timeline {} {} {}",
            pick(rng, &["put", "remove", "snapshot", "get", "revert", "print", "nope"]),
            n(rng),
            n(rng)
        ),
        26 => format!(
            "kafka-dump-log.sh --cluster-metadata-decoder --files {}/__cluster_metadata-0/00000000000000000000.log",
            id(rng)
        ),
        27 => format!("tail -n {} {}/server.log", n(rng), id(rng)),
        28 => "help".into(),
        _ => {
            // Junk: a random printable line.
            let len = rng.below(20) as usize;
            (0..len)
                .map(|_| char::from(b' ' + rng.below(95) as u8))
                .collect()
        }
    }
}

/// A random program: a cluster (sometimes a bad one), then commands.
fn program(rng: &mut SimRng) -> Vec<String> {
    let mut lines = Vec::new();
    if rng.chance(0.3) {
        lines.push(format!(
            "set {}={}",
            pick(rng, SETTINGS),
            pick(rng, NUMBERS)
        ));
    }
    lines.push(
        match rng.below(10) {
            0 => "cluster controllers=101 brokers=1,2,3 seed=3",
            1..=3 => "cluster controllers=101,102,103 brokers=1,2 seed=7",
            4 | 5 => "cluster controllers=101,102 combined=103 brokers=1,2 seed=2",
            6 => "cluster controllers= brokers=1",
            7 => "cluster controllers=101,101 seed=x",
            _ => "cluster controllers=101,102,103,104,105 brokers=1,2,3 seed=11",
        }
        .to_string(),
    );
    for _ in 0..rng.range_inclusive(5, 25) {
        lines.push(command(rng));
    }
    lines
}

/// A lesson with a few random edits: lines deleted, duplicated or swapped, numbers replaced,
/// lines cut short or garbled.
fn mutate(rng: &mut SimRng, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for _ in 0..rng.range_inclusive(1, 4) {
        if lines.is_empty() {
            break;
        }
        let i = rng.below(lines.len() as u64) as usize;
        match rng.below(6) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2 => {
                let j = rng.below(lines.len() as u64) as usize;
                lines.swap(i, j);
            }
            3 => {
                let words: Vec<String> = lines[i]
                    .split(' ')
                    .map(|w| {
                        if w.chars().any(|c| c.is_ascii_digit()) && rng.chance(0.5) {
                            pick(rng, NUMBERS).to_string()
                        } else {
                            w.to_string()
                        }
                    })
                    .collect();
                lines[i] = words.join(" ");
            }
            4 => {
                let cut = lines[i]
                    .char_indices()
                    .map(|(k, _)| k)
                    .nth(rng.below(lines[i].chars().count() as u64 + 1) as usize)
                    .unwrap_or(lines[i].len());
                lines[i].truncate(cut);
            }
            _ => lines.insert(i, command(rng)),
        }
    }
    lines.join("\n") + "\n"
}

/// Run one line and check the rules: whether the console rejected it, or what broke.
fn run_line(console: &mut Console, line: &str) -> Result<bool, String> {
    let budget = console.budget();
    let before = console
        .world
        .as_ref()
        .map(|w| (w.events_run(), w.now_ms(), w.cluster_id()));
    let result = catch_unwind(AssertUnwindSafe(|| console.exec(line)))
        .map_err(|_| format!("`{line}` panicked"))?;
    if let (Some((events, now, id)), Some(w)) = (before, console.world.as_ref()) {
        // The same cluster (not one `cluster` just replaced, which may have the same id when it
        // has the same seed, but starts its count and clock again): within the budget.
        if w.cluster_id() == id && w.events_run() >= events && w.now_ms() >= now {
            let ran = w.events_run() - events;
            let passed = w.now_ms() - now;
            if ran > budget.max_events {
                return Err(format!(
                    "`{line}` ran {ran} events, past its budget of {}",
                    budget.max_events
                ));
            }
            if passed > budget.max_ms {
                return Err(format!(
                    "`{line}` ran {passed} virtual ms, past its budget of {}",
                    budget.max_ms
                ));
            }
        }
    }
    if let Err(e) = &result {
        let first = e.lines().next().unwrap_or("");
        if first.trim().len() < 8 {
            return Err(format!("`{line}` gave an unclear error: {e:?}"));
        }
        for sign in [
            "panicked",
            "unexpected response",
            "called `Option::unwrap()`",
        ] {
            if e.contains(sign) {
                return Err(format!("`{line}` gave an internal error: {e}"));
            }
        }
    }
    if std::env::var("KRAFT_FUZZ_VERBOSE").is_ok() {
        if let Err(e) = &result {
            println!("REJ {line} => {}", e.lines().next().unwrap_or(""));
        }
    }
    Ok(result.is_err())
}

fn cases() -> (u64, u64) {
    let seed = std::env::var("KRAFT_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20261203);
    let cases = std::env::var("KRAFT_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    (seed, cases)
}

#[test]
fn random_console_programs_end_within_budget_with_clear_errors() {
    let (seed, cases) = cases();
    let mut failures = Vec::new();
    let (mut commands, mut rejected) = (0, 0);
    for case in 0..cases {
        let case_seed = seed.wrapping_mul(1_000_003).wrapping_add(case);
        let mut rng = SimRng::new(case_seed);
        let lines = program(&mut rng);
        let mut console = Console::new();
        // Lessons and fuzzing keep commands short: 200,000 events and 1 h of virtual time.
        console
            .exec("set command.max.events=200000")
            .expect("a valid setting");
        for line in &lines {
            commands += 1;
            match run_line(&mut console, line) {
                Ok(was_rejected) => rejected += was_rejected as u32,
                Err(e) => {
                    failures.push(format!(
                        "case seed {case_seed}: {e}\nprogram:\n{}",
                        lines.join("\n")
                    ));
                    break;
                }
            }
        }
    }
    println!(
        "fuzz: {cases} programs from seed {seed}: {commands} commands, {rejected} rejected with an error"
    );
    assert!(
        failures.is_empty(),
        "{} of {cases} programs failed (rerun with KRAFT_FUZZ_SEED={seed}):\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn mutated_lessons_fail_with_a_location_or_run_within_budget() {
    let (seed, cases) = cases();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../lessons");
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("lessons directory")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "lesson"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            (name, std::fs::read_to_string(&p).expect("readable lesson"))
        })
        .collect();
    files.sort();
    assert!(files.len() >= 5, "lessons not found in {dir}");
    let mut failures = Vec::new();
    let (mut parse_errors, mut ran) = (0, 0);
    for case in 0..(cases / 4).max(1) {
        let case_seed = seed.wrapping_mul(7_919).wrapping_add(case);
        let mut rng = SimRng::new(case_seed);
        let (name, text) = &files[rng.below(files.len() as u64) as usize];
        let mutated = mutate(&mut rng, text);
        let parsed = catch_unwind(|| Lesson::parse(name, &mutated));
        let lesson = match parsed {
            Err(_) => {
                failures.push(format!("case seed {case_seed}: parsing {name} panicked"));
                continue;
            }
            Ok(Err(e)) => {
                // A parse error names the file and line.
                let text = e.to_string();
                if !text.contains(&format!("{name}:")) {
                    failures.push(format!(
                        "case seed {case_seed}: a parse error without its location: {text}"
                    ));
                }
                parse_errors += 1;
                continue;
            }
            Ok(Ok(l)) => l,
        };
        ran += 1;
        let mut console = Console::new();
        for step in lesson.steps.iter().filter(|s| !s.command.is_empty()) {
            if let Err(e) = run_line(&mut console, &step.command) {
                failures.push(format!("case seed {case_seed} ({name}:{}): {e}", step.line));
                break;
            }
        }
    }
    println!("fuzz: mutated lessons from seed {seed}: {parse_errors} parse errors, {ran} ran");
    assert!(
        failures.is_empty(),
        "{} mutated lessons failed (rerun with KRAFT_FUZZ_SEED={seed}):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
