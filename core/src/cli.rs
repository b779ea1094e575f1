//! The `kraft` command line: `kraft sim ...` runs a cluster and prints its logs and a status
//! table; `kraft bench` measures the engine.

pub use crate::sim::args::{parse_duration_ms, parse_ids};
use crate::sim::{World, WorldConfig};
pub use crate::view::status::status_table;
use std::fmt::Write as _;
use std::time::Instant;

const USAGE: &str = "\
usage:
  kraft sim [--controllers 101,102,103] [--brokers 1,2] [--seed N] [--for 10s]
            [--kill ID@TIME]... [--start ID@TIME]... [--quiet]
      Run a simulated KRaft cluster and print every node's log lines and a final status table.
  kraft check [--rewrite] LESSON...
      Run lessons and compare every output with the file (--rewrite writes the outputs back).
  kraft run [--lang ko|en] LESSON...
      Print a transcript of each lesson: narration, commands, outputs (fails if a step fails).
  kraft console
      Type console commands (the lesson language) against a live cluster (a pasted lesson's
      narration, pause and expected outputs are passed over).
  kraft sweep [--from 0] [--seeds 1000] [--rule NAME=off]...
      Swarm-test seeds: random faults with invariants after every event, then liveness.
      With --rule: a rule switched off; stops at the first seed and event where an
      invariant broke and names it.
  kraft bench [--hours 1]
      Simulated seconds per wall second for 3 controllers + 3 brokers, idle.
Durations: 250ms, 10s, 2m, 1h (a bare number is milliseconds).";

/// The longest `kraft sim --for`: 24 virtual hours (an idle cluster runs ~200,000 events an
/// hour, so about a minute of work).
pub const MAX_SIM_MS: u64 = 24 * 3_600_000;

/// Run the CLI with `args` (without the program name); returns the exit code.
pub fn main(args: Vec<String>) -> i32 {
    let result = match args.first().map(|s| s.as_str()) {
        Some("sim") => sim(&args[1..]).map(|out| print!("{out}")),
        Some("bench") => bench(&args[1..]),
        Some("sweep") => sweep(&args[1..]),
        Some("check") => check(&args[1..]),
        Some("run") => run_lesson(&args[1..]),
        Some("console") => console(),
        Some("--help") | Some("-h") | Some("help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command '{other}'")),
        None => Err("missing command".to_string()),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            // The whole usage would bury a failed lesson's steps; a hint is enough.
            eprintln!("kraft: error: {e}\n(`kraft --help` lists the commands and their options)");
            2
        }
    }
}

fn parse_at(text: &str) -> Result<(i32, u64), String> {
    let (id, at) = text
        .split_once('@')
        .ok_or_else(|| format!("'{text}' should look like ID@TIME, e.g. 101@5s"))?;
    let id = parse_ids(id)?;
    if id.len() != 1 {
        return Err(format!("'{text}' should name one node"));
    }
    Ok((id[0], parse_duration_ms(at)?))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Action {
    Kill,
    Start,
}

fn sim(args: &[String]) -> Result<String, String> {
    let mut controllers = vec![101, 102, 103];
    let mut brokers = Vec::new();
    let mut seed = 7u64;
    let mut for_ms = 10_000u64;
    let mut actions: Vec<(u64, Action, i32)> = Vec::new();
    let mut quiet = false;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let mut value = || -> Result<&String, String> {
            i += 1;
            args.get(i)
                .ok_or_else(|| format!("option {flag} needs a value"))
        };
        match flag {
            "--controllers" => controllers = parse_ids(value()?)?,
            "--brokers" => brokers = parse_ids(value()?)?,
            "--seed" => {
                let v = value()?;
                seed = v
                    .parse()
                    .map_err(|_| format!("'{v}' is not a seed (a whole number)"))?
            }
            "--for" => {
                for_ms = parse_duration_ms(value()?)?;
                if for_ms > MAX_SIM_MS {
                    return Err(format!(
                        "--for {}: at most {} (about a minute of work)",
                        crate::common::clock::duration_text(for_ms),
                        crate::common::clock::duration_text(MAX_SIM_MS)
                    ));
                }
            }
            "--kill" => {
                let (id, at) = parse_at(value()?)?;
                actions.push((at, Action::Kill, id));
            }
            "--start" => {
                let (id, at) = parse_at(value()?)?;
                actions.push((at, Action::Start, id));
            }
            "--quiet" => quiet = true,
            other => return Err(format!("unknown option '{other}'")),
        }
        i += 1;
    }
    let mut world =
        World::new(WorldConfig::new(seed, controllers, brokers)).map_err(|e| e.to_string())?;
    for (_, _, id) in &actions {
        if world.node(*id).is_none() {
            return Err(format!(
                "--kill/--start names node {id}, which is not in the cluster"
            ));
        }
    }
    actions.sort();
    if let Some((at, _, id)) = actions.iter().find(|(at, _, _)| *at > for_ms) {
        return Err(format!(
            "--kill/--start {id}@{} comes after the end of the run (--for {})",
            crate::common::clock::duration_text(*at),
            crate::common::clock::duration_text(for_ms)
        ));
    }
    let mut notes = String::new();
    for (at, action, id) in actions {
        world.run_for(at.saturating_sub(world.now_ms()));
        let r = match action {
            Action::Kill => world.kill(id),
            Action::Start => world.restart(id),
        };
        if let Err(e) = r {
            let _ = writeln!(notes, "note: at {at} ms: {e}");
        }
    }
    world.run_for(for_ms.saturating_sub(world.now_ms()));
    let mut out = String::new();
    if !quiet {
        let mut lines: Vec<(u64, i32, String)> = Vec::new();
        for n in world.nodes() {
            for (k, l) in n.log.lines().enumerate() {
                lines.push((l.time_ms, n.id, format!("{k:08}{l}")));
            }
        }
        lines.sort();
        for (_, id, l) in lines {
            let _ = writeln!(out, "node {id}: {}", &l[8..]);
        }
        out.push('\n');
    }
    out.push_str(&notes);
    out.push_str(&status_table(&world));
    Ok(out)
}

fn sweep(args: &[String]) -> Result<(), String> {
    let (mut from, mut count) = (0u64, 1000u64);
    let mut rules = crate::common::rules::Rules::default();
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        i += 1;
        let v = args
            .get(i)
            .ok_or_else(|| format!("option {flag} needs a value"))?;
        i += 1;
        if flag == "--rule" {
            let (name, value) = v
                .split_once('=')
                .ok_or_else(|| format!("--rule takes NAME=off or NAME=on, not '{v}'"))?;
            let rule = crate::common::rules::Rule::from_name(name)
                .ok_or_else(|| crate::common::rules::unknown_rule(name))?;
            rules.set(rule, crate::common::rules::parse_switch(name, value)?);
            continue;
        }
        let n: u64 = v
            .parse()
            .map_err(|_| format!("'{v}' is not a whole number"))?;
        match flag {
            "--from" => from = n,
            "--seeds" => count = n,
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    if rules != crate::common::rules::Rules::default() {
        return sweep_rules(from, count, rules);
    }
    let started = Instant::now();
    let mut bad = 0;
    // The worst seed for each liveness figure: (value, seed).
    let (mut recovery, mut converged, mut quiet) = ((0, 0), (0, 0), (0, 0));
    // Every seed's event count, summed and folded into one FNV-1a digest: a refactor that
    // claims "behaviour unchanged" must print the same two numbers.
    let (mut events, mut digest) = (0u64, 0xcbf2_9ce4_8422_2325u64);
    let mut acked = 0;
    for seed in from..from + count {
        match crate::swarm::run_seed(seed, 20_000) {
            Ok(r) => {
                events += r.events;
                acked += r.acked_writes;
                for b in seed.to_le_bytes().into_iter().chain(r.events.to_le_bytes()) {
                    digest = (digest ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
                }
                recovery = recovery.max((r.recovery_ms, seed));
                converged = converged.max((r.converged_ms, seed));
                quiet = quiet.max((r.quiet_max_node_events, seed));
            }
            Err(e) => {
                bad += 1;
                println!("{e}");
            }
        }
    }
    println!(
        "sweep: {} passed, {bad} failed ({:.1} s); {events} events (digest {digest:016x}), {acked} acks=all batches acknowledged; worst after heal: a commit in {} ms (seed {}), converged in {} ms (seed {}), {} events of one node in the quiet {} s (seed {})",
        count - bad,
        started.elapsed().as_secs_f64(),
        recovery.0,
        recovery.1,
        converged.0,
        converged.1,
        quiet.0,
        crate::swarm::QUIET_MS / 1000,
        quiet.1
    );
    if bad > 0 {
        return Err(format!("{bad} seeds failed"));
    }
    Ok(())
}

/// `sweep --rule NAME=off`: seeds until an invariant breaks; prints the seed, the event and
/// the invariant, and stops (seeds that fail only their liveness bounds are counted).
fn sweep_rules(from: u64, count: u64, rules: crate::common::rules::Rules) -> Result<(), String> {
    let started = Instant::now();
    let names: Vec<&str> = rules.off().iter().map(|r| r.name()).collect();
    let mut liveness = 0;
    for seed in from..from.saturating_add(count) {
        let found =
            crate::swarm::first_violation(seed, rules, crate::swarm::Storm::for_rules(rules));
        match found {
            (Some(v), _) => {
                println!(
                    "sweep with {} off: seed {seed} broke {} at event {} ({} ms), nodes {:?}, after {} seeds ({:.1} s):\n  {}",
                    names.join(", "),
                    v.invariant.name(),
                    v.event,
                    v.time_ms,
                    v.nodes,
                    seed - from + 1,
                    started.elapsed().as_secs_f64(),
                    v.message.lines().next().unwrap_or_default()
                );
                return Ok(());
            }
            (None, Some(_)) => liveness += 1,
            (None, None) => {}
        }
    }
    Err(format!(
        "sweep with {} off: no invariant broke in {count} seeds ({liveness} failed only their liveness bounds)",
        names.join(", ")
    ))
}

fn read_lesson(path: &str) -> Result<crate::lesson::Lesson, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    crate::lesson::Lesson::parse(path, &text).map_err(|e| e.to_string())
}

fn check(args: &[String]) -> Result<(), String> {
    let rewrite = args.iter().any(|a| a == "--rewrite");
    let files: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    if let Some(bad) = args
        .iter()
        .find(|a| a.starts_with("--") && *a != "--rewrite")
    {
        return Err(format!("unknown option '{bad}'"));
    }
    if files.is_empty() {
        return Err("check needs at least one lesson file".into());
    }
    let (mut passed, mut failed) = (0, 0);
    for f in files {
        let mut lesson = read_lesson(f)?;
        let (outputs, mut mismatches) = crate::lesson::runner::check(&lesson);
        if rewrite {
            std::fs::write(f, lesson.render(&outputs)).map_err(|e| format!("{f}: {e}"))?;
            println!("rewrote {f}");
            // What a rewrite cannot mend: a step that fails without a pinned output, a
            // directive naming a node the cluster does not have.
            lesson = read_lesson(f)?;
            mismatches = crate::lesson::runner::check(&lesson).1;
        }
        if mismatches.is_empty() {
            println!("ok   {f} ({} steps)", lesson.steps.len());
            passed += 1;
        } else {
            failed += 1;
            println!("FAIL {f}");
            for m in mismatches {
                println!(
                    "  {}: {}
  expected:
{}
  actual:
{}",
                    m.location,
                    m.command,
                    indent(&m.expected),
                    indent(&m.actual)
                );
            }
        }
    }
    println!("lessons: {passed} passed, {failed} failed");
    if failed > 0 {
        return Err(format!("{failed} lesson(s) failed"));
    }
    Ok(())
}

fn indent(s: &str) -> String {
    s.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn run_lesson(args: &[String]) -> Result<(), String> {
    let mut lang = "en".to_string();
    let mut files = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--lang" => {
                i += 1;
                lang = args.get(i).ok_or("option --lang needs a value")?.clone();
                if lang != "ko" && lang != "en" {
                    return Err(format!("--lang must be ko or en, not '{lang}'"));
                }
            }
            other if other.starts_with("--") => return Err(format!("unknown option '{other}'")),
            other => files.push(other.to_string()),
        }
        i += 1;
    }
    if files.is_empty() {
        return Err("run needs a lesson file".into());
    }
    let mut failed = Vec::new();
    for file in &files {
        let lesson = read_lesson(file)?;
        let (text, steps) = crate::lesson::runner::transcript(&lesson, &lang);
        print!("{text}");
        failed.extend(steps);
    }
    if !failed.is_empty() {
        return Err(format!(
            "{} step(s) failed:\n{}",
            failed.len(),
            failed.join("\n")
        ));
    }
    Ok(())
}

fn console() -> Result<(), String> {
    use std::io::BufRead;
    let mut c = crate::lesson::Console::new();
    let mut reader = ConsoleInput::default();
    let stdin = std::io::stdin();
    for (n, bytes) in stdin.lock().split(b'\n').enumerate() {
        let bytes = bytes.map_err(|e| e.to_string())?;
        match reader.line(n + 1, &bytes) {
            Err(e) => println!("error: {e}"),
            Ok(None) => {}
            Ok(Some(line)) if line == "exit" || line == "quit" => break,
            Ok(Some(line)) => {
                println!("{}", crate::lesson::runner::step_output(&mut c, &line))
            }
        }
    }
    Ok(())
}

/// What `kraft console` makes of its input lines: UTF-8 (a bad line is refused, not the end of
/// the session), no byte-order mark, and a pasted lesson's narration, `pause` and expected
/// output blocks (`----` up to a blank line) passed over.
#[derive(Debug, Default)]
pub struct ConsoleInput {
    in_expected_block: bool,
}

impl ConsoleInput {
    /// The command on input line `n`, if it has one.
    pub fn line(&mut self, n: usize, bytes: &[u8]) -> Result<Option<String>, String> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            format!(
                "line {n} is not UTF-8 text (bad byte 0x{:02x} at column {}); ignored",
                bytes[e.valid_up_to()],
                e.valid_up_to() + 1
            )
        })?;
        let line = text
            .trim_start_matches('\u{feff}')
            .trim_end_matches('\r')
            .trim();
        if self.in_expected_block {
            if line.is_empty() {
                self.in_expected_block = false;
            }
            return Ok(None);
        }
        if line == "----" {
            self.in_expected_block = true;
            return Ok(None);
        }
        if line.is_empty() || line.starts_with('#') || line == "pause" {
            return Ok(None);
        }
        Ok(Some(line.to_string()))
    }
}

fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn bench(args: &[String]) -> Result<(), String> {
    let mut hours = 1u64;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--hours" => {
                i += 1;
                let v = args.get(i).ok_or("option --hours needs a value")?;
                hours = v
                    .parse()
                    .map_err(|_| format!("'{v}' is not a number of hours"))?;
            }
            other => return Err(format!("unknown option '{other}'")),
        }
        i += 1;
    }
    let rss_before = rss_kib();
    let mut world =
        World::new(WorldConfig::new(1, vec![1, 2, 3], vec![4, 5, 6])).map_err(|e| e.to_string())?;
    let sim_ms = hours * 3_600_000;
    let started = Instant::now();
    let mut rss_mid = None;
    for h in 0..hours * 60 {
        world.run_for(60_000);
        if h == 0 {
            rss_mid = rss_kib();
        }
    }
    let wall = started.elapsed().as_secs_f64();
    let rss_after = rss_kib();
    let ratio = (sim_ms as f64 / 1000.0) / wall.max(1e-9);
    println!("bench: idle cluster, 3 controllers + 3 brokers, {hours} simulated hour(s)");
    println!("  events run:             {}", world.events_run());
    println!("  wall time:              {wall:.3} s");
    println!("  simulated s per wall s: {ratio:.0}  (target >= 5000)");
    println!(
        "  events per wall s:      {:.0}",
        world.events_run() as f64 / wall.max(1e-9)
    );
    let kib = |v: Option<u64>| {
        v.map(|k| format!("{k} KiB"))
            .unwrap_or_else(|| "n/a".into())
    };
    println!(
        "  RSS before / after 1 simulated minute / at end: {} / {} / {}",
        kib(rss_before),
        kib(rss_mid),
        kib(rss_after)
    );
    let lines: usize = world.nodes().map(|n| n.log.len()).sum();
    println!(
        "  log lines kept: {lines}; messages in flight at end: {}",
        world.network().in_flight.len()
    );
    crate::swarm::bench_produce(10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sim_runs_and_reports_errors() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let out = sim(&args("--controllers 101,102,103 --seed 7 --for 5s --quiet")).unwrap();
        assert!(out.contains("Leader"), "{out}");
        assert!(sim(&args("--bogus"))
            .unwrap_err()
            .contains("unknown option '--bogus'"));
        assert!(sim(&args("--seed")).unwrap_err().contains("needs a value"));
        assert!(sim(&args("--kill 999@1s"))
            .unwrap_err()
            .contains("node 999"));
        assert!(sim(&args("--controllers 1,1"))
            .unwrap_err()
            .contains("appears twice"));
        assert_eq!(
            sim(&args("--kill 101@20s --for 5s")).unwrap_err(),
            "--kill/--start 101@20s comes after the end of the run (--for 5s)"
        );
        assert!(sim(&args("--for 1000h"))
            .unwrap_err()
            .starts_with("--for 1000h: at most 24h"));
    }

    #[test]
    fn console_input_survives_bad_bytes_a_bom_and_a_pasted_lesson() {
        let mut r = ConsoleInput::default();
        assert_eq!(
            r.line(1, "\u{feff}status\r".as_bytes()),
            Ok(Some("status".into()))
        );
        assert_eq!(
            r.line(2, b"sta\xfftus"),
            Err("line 2 is not UTF-8 text (bad byte 0xff at column 4); ignored".into())
        );
        let pasted = "#en: Start.\ncluster seed=1\n\nsleep 1s\n----\nleader 101\n\npause\nstatus\n";
        let got: Vec<String> = pasted
            .lines()
            .enumerate()
            .filter_map(|(n, l)| r.line(n + 3, l.as_bytes()).unwrap())
            .collect();
        assert_eq!(got, vec!["cluster seed=1", "sleep 1s", "status"]);
    }
}
