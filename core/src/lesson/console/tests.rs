//! The console's unit tests: every command family, its errors and its budget.

use super::*;

#[test]
fn kafka_configs_runs_from_the_console() {
    let mut c = Console::new();
    c.exec("cluster controllers=100 brokers=1 seed=7").unwrap();
    c.exec("run until=active-controller timeout=10s").unwrap();
    c.exec("sleep 5s").unwrap();
    c.exec("kafka-topics.sh --bootstrap-server localhost:9092 --create --topic orders")
        .unwrap();
    assert_eq!(
        c.exec("kafka-configs.sh --bootstrap-server localhost:9092 --alter --topic orders --add-config retention.ms=1000")
            .unwrap(),
        "Completed updating config for topic orders."
    );
    assert_eq!(
        c.exec("bin/kafka-configs --bootstrap-server localhost:9092 --describe --topic orders")
            .unwrap(),
        "Dynamic configs for topic orders are:\n  retention.ms=1000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:retention.ms=1000}"
    );
    assert_eq!(
        c.exec("kafka-configs.sh --bootstrap-server localhost:9092 --alter --topic orders --delete-config segment.ms")
            .unwrap_err(),
        "Invalid config(s): segment.ms"
    );
    assert!(c
        .exec("frobnicate")
        .unwrap_err()
        .contains("kafka-configs.sh"));
}

#[test]
fn commands_drive_the_cluster_and_bad_input_gets_clear_errors() {
    let mut c = Console::new();
    assert!(c.exec("status").unwrap_err().contains("no cluster yet"));
    let help = c.exec("help").unwrap();
    for cmd in [
        "cluster",
        "run until=",
        "kill -9",
        "partition",
        "timeline",
        "kafka-topics.sh",
    ] {
        assert!(help.contains(cmd), "help lists {cmd}");
    }
    assert!(c.exec("bogus").unwrap_err().contains("`help` lists them"));
    c.exec("set controller.quorum.fetch.timeout.ms=2000")
        .unwrap();
    assert!(c
        .exec("set bogus=1")
        .unwrap_err()
        .contains("unknown setting 'bogus'"));
    c.exec("cluster controllers=101,102,103 brokers=1 seed=7")
        .unwrap();
    // Read at start: kept for the next cluster, the running one unchanged.
    assert!(c
        .exec("set controller.quorum.fetch.timeout.ms=1")
        .unwrap()
        .contains("the next `cluster` gets 1"));
    let out = c.exec("run until=leader timeout=10s").unwrap();
    assert!(out.starts_with("leader "), "{out}");
    assert!(c
        .exec("kill -9 999")
        .unwrap_err()
        .contains("no node 999 in the cluster (nodes: 1, 101, 102, 103)"));
    assert!(c
        .exec("kill -HUP 101")
        .unwrap_err()
        .contains("unknown signal"));
    assert!(c.exec("partition 101").unwrap_err().contains("usage"));
    assert!(c
        .exec("run until=nonsense")
        .unwrap_err()
        .contains("unknown condition"));
    assert!(c
        .exec("frobnicate")
        .unwrap_err()
        .contains("unknown command 'frobnicate'"));
    assert!(c.exec("sleep ten").unwrap_err().contains("not a duration"));
    c.exec("sleep 3s").unwrap();
    let (l, e) = c.world.as_ref().unwrap().leader().unwrap();
    c.exec(&format!("expect leader={l} epoch={e}")).unwrap();
    assert!(c
        .exec("expect leader=1")
        .unwrap_err()
        .starts_with("expected leader=1"));
    let fenced = c
        .world
        .as_ref()
        .unwrap()
        .active_registration(1)
        .map(|b| b.record.fenced);
    let (is, is_not) = if fenced == Some(true) {
        ("yes", "no")
    } else {
        ("no", "yes")
    };
    c.exec(&format!("expect fenced(1)={is}")).unwrap();
    let err = c.exec(&format!("expect fenced(1)={is_not}")).unwrap_err();
    assert!(
        err.starts_with(&format!("expected fenced(1)={is_not}, but fenced(1)={is}")),
        "{err}"
    );
    for (bad, says) in [
        ("expect state(9)=Follower", "expect: no node 9"),
        ("expect state(x)=Follower", "bad node id 'x'"),
        ("expect hw-moves=yes", "it is a quiz fact"),
        ("expect frob=1", "unknown fact 'frob'"),
    ] {
        let err = c.exec(bad).unwrap_err();
        assert!(err.contains(says), "{bad}: {err}");
    }
    c.exec("mark kill").unwrap();
    c.exec(&format!("kill -9 {l}")).unwrap();
    let out = c.exec("run until=leader-changed").unwrap();
    let (l2, e2) = c.world.as_ref().unwrap().leader().unwrap();
    assert!(l2 != l && e2 > e, "{out}");
    let other = [101, 102, 103].into_iter().find(|i| *i != l).unwrap();
    let t = c.exec(&format!("transitions {other} after=kill")).unwrap();
    assert!(
        t.contains("FollowerState -> ProspectiveState epoch="),
        "{t}"
    );
    assert!(c
        .exec("transitions 101 after=nope")
        .unwrap_err()
        .contains("no mark 'nope'"));
}

#[test]
fn step_and_tick_say_what_ran() {
    let mut c = Console::new();
    c.exec("cluster controllers=101,102,103 seed=1").unwrap();
    let out = c.exec("step 4").unwrap();
    assert_eq!(out.lines().count(), 4, "{out}");
    assert!(
        out.lines()
            .next()
            .unwrap()
            .starts_with("[2 ms] deliver FetchRequest 102 -> 101"),
        "{out}"
    );
    assert!(out.contains("deliver FetchRequest 102 -> 101"), "{out}");
    let before = c.world.as_ref().unwrap().events_run();
    let out = c.exec("tick 3").unwrap();
    let ran = c.world.as_ref().unwrap().events_run() - before;
    assert!(out.contains("+300 ms:"), "{out}");
    assert!(out.contains(&format!(" {ran} events")), "{out}");
    assert!(c.exec("step x").unwrap_err().contains("not a number"));
}

#[test]
fn every_command_runs_within_its_budget() {
    let mut c = Console::new();
    c.exec("cluster controllers=101,102,103 brokers=1 seed=1")
        .unwrap();
    for (cmd, says) in [
        (
            "sleep 1000h",
            "sleep: 1000h is longer than one command may run (1h;",
        ),
        ("tick 2147483648", "tick: "),
        ("run until=leader timeout=100000h", "run: 100000h is longer"),
        ("step 18446744073709551615", "step: at most 100000 events"),
        ("step 18446744073709551616", "is not a number of events"),
        ("slow 101 18446744073709551615ms", "slow: at most 168h"),
        ("sleep 5s extra", "sleep: unexpected 'extra'"),
    ] {
        let e = c.exec(cmd).unwrap_err();
        assert!(e.contains(says), "{cmd}: {e}");
    }
    assert_eq!(c.world.as_ref().unwrap().now_ms(), 0, "nothing ran");
    // An event budget stops a command where it got to, with a clear message; the
    // cluster stays usable.
    c.exec("set command.max.events=500").unwrap();
    let e = c.exec("sleep 10s").unwrap_err();
    assert!(
        e.starts_with("sleep: stopped at ") && e.contains("after 500 events"),
        "{e}"
    );
    let w = c.world.as_ref().unwrap();
    assert!(w.now_ms() < 10_000 && w.events_run() == 500);
    assert!(c.exec("step 600").unwrap_err().contains("after 500 events"));
    assert!(c
        .exec("tick 100")
        .unwrap_err()
        .starts_with("tick: stopped at"));
    c.exec("set command.max.events=1000000 command.max.ms=7200000")
        .unwrap();
    c.exec("sleep 2h").unwrap();
    assert!(c.exec("status").is_ok());
    // The page plays a wait in pieces: the same budget, over all of them.
    c.exec("set command.max.events=300").unwrap();
    let Begun::Wait(wait) = c.begin("sleep 20s") else {
        panic!("a wait")
    };
    let w = c.world.as_mut().unwrap();
    let mut out = None;
    for frame in 1..1000 {
        out = wait.advance(w, wait.start_ms + frame * 10, |_| false);
        if out.is_some() {
            break;
        }
    }
    assert!(out.unwrap().unwrap_err().contains("after 300 events"));
}

#[test]
fn settings_take_kafkas_ranges_and_texts() {
    let mut c = Console::new();
    assert_eq!(
        c.exec("set controller.quorum.retry.backoff.ms=-1").unwrap_err(),
        "Invalid value -1 for configuration controller.quorum.retry.backoff.ms: Value must be at least 0"
    );
    assert!(c
        .exec("set controller.quorum.request.timeout.ms=0")
        .unwrap_err()
        .contains("at least 1 in the playground"));
    assert!(c
        .exec("set network.latency.ms=18446744073709551615")
        .unwrap_err()
        .contains("0..=60000"));
    assert!(c
        .exec("set bogus=1")
        .unwrap_err()
        .contains("unknown setting 'bogus'"));
    c.exec("set metadata.max.idle.interval.ms=0 tick.ms=250")
        .unwrap();
    assert_eq!(c.tick_ms, 250);
    assert!(c.exec("help set").unwrap().contains("command.max.events"));
}

#[test]
fn rules_switch_before_and_during_a_run() {
    use crate::common::rules::Rule;
    let mut c = Console::new();
    let rules_off = |c: &Console| c.world.as_ref().unwrap().rules().off();
    assert!(c
        .exec("set rule.pre-vote=off")
        .unwrap_err()
        .contains("unknown rule 'pre-vote' (one of: prevote, durable-vote"));
    assert!(c
        .exec("set rule.prevote=no")
        .unwrap_err()
        .contains("on or off"));
    c.exec("set rule.loader-catch-up=off rule.durable-vote=off")
        .unwrap();
    c.exec("cluster controllers=101,102,103 brokers=1 seed=1")
        .unwrap();
    assert_eq!(rules_off(&c), vec![Rule::DurableVote, Rule::LoaderCatchUp]);
    c.exec("set rule.durable-vote=on rule.check-quorum=off")
        .unwrap();
    assert_eq!(rules_off(&c), vec![Rule::CheckQuorum, Rule::LoaderCatchUp]);
    // A rule read when a process starts is kept for the next cluster, and says so.
    assert_eq!(
        c.exec("set rule.loader-catch-up=on").unwrap(),
        "rule.loader-catch-up=on acts when a process starts: the running cluster keeps it off, the next `cluster` gets it on"
    );
    assert!(rules_off(&c).contains(&Rule::LoaderCatchUp));
    c.exec("cluster controllers=101 brokers=1 seed=1").unwrap();
    assert!(!rules_off(&c).contains(&Rule::LoaderCatchUp));
    c.exec("set rule.loader-catch-up=off").unwrap();
    c.exec("cluster controllers=101 brokers=1 seed=1").unwrap();
    assert!(rules_off(&c).contains(&Rule::LoaderCatchUp));
    assert!(c.exec("help set").unwrap().contains("rule.session-fencing"));
}

#[test]
fn drop_rules_and_limits_are_checked() {
    let mut c = Console::new();
    c.exec("cluster controllers=101,102,103 brokers=1 seed=1")
        .unwrap();
    assert!(c.exec("drop").unwrap_err().starts_with("usage: drop"));
    assert!(c.exec("drop rate=5").unwrap_err().contains("from 0 to 1"));
    assert!(c.exec("drop rate=NaN").unwrap_err().contains("from 0 to 1"));
    assert!(c
        .exec("drop kind=Fetch")
        .unwrap_err()
        .contains("did you mean FetchRequest or FetchResponse"));
    assert!(c
        .exec("drop kind=Bogus")
        .unwrap_err()
        .contains("BrokerHeartbeat"));
    c.exec("drop kind=fetchrequest from=102").unwrap();
    assert_eq!(
        c.world.as_ref().unwrap().network().drop_rules[0]
            .kind
            .map(|k| k.name()),
        Some("FetchRequest")
    );
    for id in 2..14 {
        c.exec(&format!("add-broker {id}")).unwrap();
    }
    assert!(c
        .exec("add-broker 99")
        .unwrap_err()
        .contains("at most 16 nodes"));
}

#[test]
fn every_kind_on_the_wire_is_one_a_drop_rule_may_name() {
    let kinds: Vec<&str> = crate::common::api_keys::MessageKind::all()
        .map(|k| k.name())
        .collect();
    let mut c = Console::new();
    c.exec("cluster controllers=101,102,103 brokers=1,2,3 seed=4")
        .unwrap();
    c.exec("sleep 10s").unwrap();
    c.exec("kafka-topics.sh --bootstrap-server localhost:9092 --create --topic t --replication-factor 3")
        .unwrap();
    c.exec("kill -9 101").unwrap();
    let w = c.world.as_mut().unwrap();
    for _ in 0..20_000 {
        let Some(line) = w.step_described() else {
            break;
        };
        if let Some(rest) = line.split("] deliver ").nth(1) {
            let kind = rest.split_whitespace().next().unwrap();
            assert!(kinds.contains(&kind), "{kind} not in {kinds:?}");
        }
    }
}

#[test]
fn words_split_with_quotes() {
    assert_eq!(
        split_words("grep \"a b\" x").unwrap(),
        vec!["grep", "a b", "x"]
    );
    assert!(split_words("grep \"a").is_err());
}

#[test]
fn every_command_in_the_table_is_in_help() {
    for (name, _) in COMMANDS {
        assert!(HELP.contains(name), "help lists {name}");
    }
}

#[test]
fn invariants_lists_each_by_name_and_the_first_violation() {
    let run = |rule: &str| {
        let mut c = Console::new();
        c.exec(rule).unwrap();
        c.exec("cluster controllers=101,102,103 brokers=1,2 seed=7")
            .unwrap();
        c.exec("run 20s").unwrap();
        c.exec("kill -9 1").unwrap();
        c.exec("run 30s").unwrap();
        c.exec("invariants").unwrap()
    };
    let held = run("set rule.session-fencing=on");
    assert_eq!(
        held.lines().count(),
        crate::invariants::Invariant::ALL.len(),
        "{held}"
    );
    assert!(held.lines().all(|l| l.starts_with("ok   ")), "{held}");
    assert!(held.contains("ok   SessionExpiredBrokerFenced"), "{held}");
    let broken = run("set rule.session-fencing=off");
    let line = broken
        .lines()
        .find(|l| l.starts_with("FAIL"))
        .unwrap_or_else(|| panic!("{broken}"));
    assert!(
        line.starts_with("FAIL SessionExpiredBrokerFenced at event ") && line.contains(", 1]"),
        "{line}"
    );
    assert!(broken.ends_with("rules off: session-fencing"), "{broken}");
    assert!(Console::new()
        .exec("invariants")
        .unwrap_err()
        .contains("no cluster yet"));
}

#[test]
fn a_second_partition_adds_its_cuts_and_says_so() {
    let mut c = Console::new();
    c.exec("cluster controllers=101,102,103 seed=1").unwrap();
    assert_eq!(c.exec("partition 101 | 102,103").unwrap(), "");
    assert_eq!(
        c.exec("partition 102 | 101,103").unwrap(),
        "the earlier cuts stay: 6 one-way links are cut now (`heal` mends them all)"
    );
    c.exec("heal").unwrap();
    assert!(c.world.as_ref().unwrap().network().blocked.is_empty());
    assert_eq!(c.exec("partition 103 | 101,102").unwrap(), "");
}

#[test]
fn unfenced_counts_once_the_record_is_committed() {
    use crate::sim::world::{World, WorldConfig};
    let mut w = World::new(WorldConfig::new(1, vec![101, 102, 103], vec![1])).unwrap();
    let uncommitted = |w: &World| {
        let c = w.node(w.active_controller()?)?.controller.as_ref()?;
        Some(c.state.cluster.brokers.get(&1)?.record.fenced)
    };
    let committed = |w: &World| w.active_registration(1).map(|b| b.record.fenced);
    let mut written_first = None;
    let done = w.run_until(10_000, |w| {
        if uncommitted(w) == Some(false) && written_first.is_none() {
            written_first = Some(w.now_ms());
        }
        committed(w) == Some(false)
    });
    assert!(done, "broker 1 never unfenced");
    let written = written_first.expect("the unfencing was never written");
    assert!(
        written < w.now_ms(),
        "committed at {} ms, no later than written at {written} ms",
        w.now_ms()
    );
}
