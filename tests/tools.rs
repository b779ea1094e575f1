//! The lecturer's tools: kafka-metadata-quorum, kafka-topics, kafka-dump-log and the shell
//! helpers, checked line by line against the real tools' layouts.

mod common;

use common::{controller_summary, example2, example4, messages_text, tool, tool_err};
use kraft_core::common::message::controller::{
    ApiError, ControllerRequest, ControllerResponse, CreatableTopic,
};
use kraft_core::sim::World;
use kraft_core::tools;

const QUORUM: &str = "kafka-metadata-quorum.sh --bootstrap-server localhost:9092";
const TOPICS: &str = "kafka-topics.sh --bootstrap-server localhost:9092";
const SEGMENT: &str = "__cluster_metadata-0/00000000000000000000.log";

/// A field of a `key: value key: value` line.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let pat = format!("{key}: ");
    let start = line
        .find(&pat)
        .unwrap_or_else(|| panic!("no {key} in {line}"))
        + pat.len();
    line[start..].split(' ').next().unwrap()
}

// ----- kafka-metadata-quorum -----

#[test]
fn describe_status_pads_labels_to_24_and_lists_voters_and_observers() {
    let mut w = example2();
    let out = tool(&mut w, &format!("{QUORUM} describe --status"));
    let lines: Vec<&str> = out.lines().collect();
    let labels = [
        "ClusterId:",
        "LeaderId:",
        "LeaderEpoch:",
        "HighWatermark:",
        "MaxFollowerLag:",
        "MaxFollowerLagTimeMs:",
        "CurrentVoters:",
        "CurrentObservers:",
    ];
    assert_eq!(lines.len(), labels.len(), "{out}");
    for (line, label) in lines.iter().zip(labels) {
        assert!(line.starts_with(&format!("{label:<24}")), "{line}");
        assert_ne!(
            line.as_bytes()[24],
            b' ',
            "value starts at column 24: {line}"
        );
    }
    assert_eq!(
        lines[0],
        format!("ClusterId:              {}", w.cluster_id())
    );
    let (leader, epoch) = w.leader().unwrap();
    assert_eq!(lines[1], format!("LeaderId:               {leader}"));
    assert_eq!(lines[2], format!("LeaderEpoch:            {epoch}"));
    let voters: Vec<String> = w
        .voters()
        .iter()
        .map(|v| {
            format!(
                "{{\"id\": {}, \"directoryId\": \"{}\", \"endpoints\": [\"CONTROLLER://localhost:{}\"]}}",
                v.key.id,
                v.key.directory_id.unwrap(),
                v.port
            )
        })
        .collect();
    assert_eq!(
        lines[6],
        format!("CurrentVoters:          [{}]", voters.join(", "))
    );
    assert!(lines[6].contains("CONTROLLER://localhost:9093"));
    assert!(lines[6].contains("CONTROLLER://localhost:9097"));
    assert_eq!(
        lines[7],
        format!(
            "CurrentObservers:       [{{\"id\": 1, \"directoryId\": \"{}\"}}]",
            w.node(1).unwrap().directory_id
        )
    );
    let lag: i64 = lines[4][24..].parse().unwrap();
    let lag_ms: i64 = lines[5][24..].parse().unwrap();
    assert!((0..=2).contains(&lag), "{out}");
    assert!((-1..2_000).contains(&lag_ms), "{out}");
    let hw: i64 = lines[3][24..].parse().unwrap();
    assert!(hw > 10);
    // The same through the controller listener.
    let again = tool(
        &mut w,
        "kafka-metadata-quorum.sh --bootstrap-controller localhost:9093 describe --status",
    );
    assert_eq!(again.lines().next(), lines.first().copied());
}

#[test]
fn describe_replication_is_a_tab_padded_table_leader_first() {
    let mut w = example2();
    let out = tool(&mut w, &format!("{QUORUM} describe --replication"));
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 5, "{out}");
    for r in &rows {
        assert_eq!(r.len(), 8, "7 cells each followed by a tab: {r:?}");
        assert_eq!(r[7], "");
    }
    let header: Vec<&str> = rows[0].iter().map(|c| c.trim_end()).collect();
    assert_eq!(
        header[..7],
        [
            "NodeId",
            "DirectoryId",
            "LogEndOffset",
            "Lag",
            "LastFetchTimestamp",
            "LastCaughtUpTimestamp",
            "Status"
        ]
    );
    for col in 0..7 {
        let width = rows[0][col].len();
        for r in &rows {
            assert_eq!(r[col].len(), width, "column {col} padded: {out}");
        }
    }
    let (leader, _) = w.leader().unwrap();
    let status: Vec<&str> = rows[1..].iter().map(|r| r[6].trim_end()).collect();
    assert_eq!(status, ["Leader", "Follower", "Follower", "Observer"]);
    assert_eq!(rows[1][0].trim_end(), leader.to_string());
    assert_eq!(rows[4][0].trim_end(), "1");
    let leo = |r: &Vec<&str>| r[2].trim_end().parse::<i64>().unwrap();
    for r in &rows[1..] {
        let lag: i64 = r[3].trim_end().parse().unwrap();
        assert_eq!(lag, leo(&rows[1]) - leo(r));
    }
    // The leader's timestamps are the time of the answer.
    let now = kraft_core::common::clock::to_epoch_ms(w.now_ms()).to_string();
    assert_eq!(rows[1][4].trim_end(), now);
    assert_eq!(rows[1][5].trim_end(), now);
    let human = tool(
        &mut w,
        &format!("{QUORUM} describe --replication --human-readable"),
    );
    let leader_row = human.lines().nth(1).unwrap();
    assert!(leader_row.contains("0 ms ago"), "{human}");
    assert!(!human.contains("172985"), "{human}");
}

#[test]
fn describe_with_no_leader_times_out_like_the_admin_client() {
    let mut w = example2();
    for id in [101, 102, 103] {
        w.kill(id).unwrap();
    }
    let before = w.now_ms();
    let e = tool_err(&mut w, &format!("{QUORUM} describe --status"));
    assert!(
        w.now_ms() >= before + 30_000,
        "the tool waited for a leader"
    );
    assert_eq!(
        e.message.lines().next().unwrap(),
        "org.apache.kafka.common.errors.TimeoutException: Timed out waiting for a node assignment. Call: describeMetadataQuorum"
    );
    assert_eq!(e.exit_code, 1);
}

#[test]
fn describe_waits_for_an_election_after_the_leader_dies() {
    let mut w = example2();
    let (old, epoch) = w.leader().unwrap();
    w.kill(old).unwrap();
    let out = tool(&mut w, &format!("{QUORUM} describe --status"));
    let leader: i32 = out.lines().nth(1).unwrap()[24..].parse().unwrap();
    let new_epoch: i32 = out.lines().nth(2).unwrap()[24..].parse().unwrap();
    assert_ne!(leader, old);
    assert!(new_epoch > epoch);
}

// ----- kafka-topics -----

#[test]
fn create_describe_list_delete_on_example4() {
    let mut w = example4();
    let out = tool(
        &mut w,
        &format!("{TOPICS} --create --topic orders --partitions 1 --replication-factor 3"),
    );
    assert_eq!(out, "Created topic orders.\n");
    let out = tool(&mut w, &format!("{TOPICS} --describe --topic orders"));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    let header: Vec<&str> = lines[0].split('\t').collect();
    assert_eq!(header[0], "Topic: orders");
    assert!(header[1].starts_with("TopicId: ") && header[1].len() == 9 + 22);
    assert_eq!(header[2], "PartitionCount: 1");
    assert_eq!(header[3], "ReplicationFactor: 3");
    assert!(header[4].starts_with("Configs: "), "{out}");
    let p: Vec<&str> = lines[1].split('\t').collect();
    assert_eq!(p[0], "");
    assert_eq!(p[1], "Topic: orders");
    assert_eq!(p[2], "Partition: 0");
    assert!(p[3].starts_with("Leader: "));
    let replicas = p[4].strip_prefix("Replicas: ").unwrap();
    let mut sorted: Vec<&str> = replicas.split(',').collect();
    sorted.sort();
    assert_eq!(sorted, ["1", "2", "3"]);
    assert_eq!(p[5], format!("Isr: {replicas}"));
    assert_eq!(
        p[3],
        format!("Leader: {}", replicas.split(',').next().unwrap())
    );
    assert_eq!(p[6], "Elr: ");
    assert_eq!(p[7], "LastKnownElr: ");
    assert_eq!(p.len(), 8);

    assert_eq!(tool(&mut w, &format!("{TOPICS} --list")), "orders\n");
    tool(&mut w, &format!("{TOPICS} --create --topic payments"));
    assert_eq!(
        tool(&mut w, &format!("{TOPICS} --list")),
        "orders\npayments\n"
    );
    assert_eq!(
        tool(&mut w, &format!("{TOPICS} --list --topic pay.*")),
        "payments\n"
    );
    assert_eq!(
        tool(&mut w, &format!("{TOPICS} --delete --topic orders")),
        ""
    );
    assert_eq!(tool(&mut w, &format!("{TOPICS} --list")), "payments\n");
    let e = tool_err(&mut w, &format!("{TOPICS} --describe --topic orders"));
    assert_eq!(e.message, "Topic 'orders' does not exist as expected\n");
    assert_eq!(
        tool(
            &mut w,
            &format!("{TOPICS} --describe --topic orders --if-exists")
        ),
        ""
    );
}

#[test]
fn a_frozen_broker_leaves_the_isr() {
    let mut w = example4();
    tool(
        &mut w,
        &format!("{TOPICS} --create --topic orders --partitions 1 --replication-factor 3"),
    );
    w.stop(3).unwrap();
    w.run_for(15_000);
    let out = tool(&mut w, &format!("{TOPICS} --describe --topic orders"));
    let line = out.lines().nth(1).unwrap();
    let isr = line.split('\t').nth(5).unwrap();
    assert!(!isr.contains('3'), "{out}");
    let grep = tool(&mut w, "grep Fencing 100/controller.log");
    assert!(grep.contains("Fencing broker 3 at epoch"), "{grep}");
    assert!(grep.lines().all(|l| l.starts_with("[2024-")), "{grep}");
}

#[test]
fn topic_configs_and_cluster_defaults_are_shown() {
    let mut w = example2();
    tool(
        &mut w,
        &format!("{TOPICS} --create --topic orders --partitions 3 --config retention.ms=1000"),
    );
    let out = tool(&mut w, &format!("{TOPICS} --describe"));
    let header = out.lines().next().unwrap();
    let configs = header.split("\tConfigs: ").nth(1).unwrap();
    let mut names: Vec<&str> = configs.split(',').collect();
    names.sort();
    assert_eq!(names, ["min.insync.replicas=1", "retention.ms=1000"]);
    assert_eq!(out.lines().count(), 4);
    for (i, l) in out.lines().skip(1).enumerate() {
        assert!(l.starts_with(&format!("\tTopic: orders\tPartition: {i}\tLeader: 1\t")));
    }
}

#[test]
fn topic_errors_print_like_topic_command() {
    let mut w = example2();
    tool(&mut w, &format!("{TOPICS} --create --topic orders"));
    let e = tool_err(&mut w, &format!("{TOPICS} --create --topic orders"));
    let lines: Vec<&str> = e.message.lines().collect();
    assert_eq!(
        lines[0],
        "Error while executing topic command : Topic 'orders' already exists."
    );
    assert!(lines[1].starts_with("[2024-10-25 "));
    assert!(lines[1].ends_with(
        "] ERROR org.apache.kafka.common.errors.TopicExistsException: Topic 'orders' already exists."
    ));
    assert_eq!(lines[2], " (org.apache.kafka.tools.TopicCommand)");
    assert_eq!(
        tool(
            &mut w,
            &format!("{TOPICS} --create --topic orders --if-not-exists")
        ),
        ""
    );

    let e = tool_err(
        &mut w,
        &format!("{TOPICS} --create --topic big --replication-factor 3"),
    );
    assert!(e.message.starts_with(
        "Error while executing topic command : Unable to replicate the partition 3 time(s)"
    ));
    assert!(e
        .message
        .contains("ERROR org.apache.kafka.common.errors.InvalidReplicationFactorException: "));

    let e = tool_err(&mut w, &format!("{TOPICS} --foo"));
    assert!(e
        .message
        .starts_with("Error while executing topic command : foo is not a recognized option\n"));
    assert!(e
        .message
        .contains("ERROR joptsimple.UnrecognizedOptionException: foo is not a recognized option"));
    let e = tool_err(
        &mut w,
        &format!("{TOPICS} --create --topic t --partitions x"),
    );
    assert!(e
        .message
        .contains("Cannot parse argument 'x' of option partitions"));
    let e = tool_err(&mut w, &format!("{TOPICS} --create --partitions 1"));
    assert_eq!(e.message, "Missing required argument \"[topic]\"\n");
    let e = tool_err(&mut w, &format!("{TOPICS} --list --create --topic t"));
    assert!(e
        .message
        .starts_with("Command must include exactly one action"));
    let e = tool_err(&mut w, "kafka-topics.sh --list");
    assert_eq!(e.message, "--bootstrap-server must be specified\n");
    let e = tool_err(
        &mut w,
        &format!("{TOPICS} --create --topic t --partitions 0"),
    );
    assert_eq!(e.message, "The partitions must be greater than 0\n");
    let e = tool_err(
        &mut w,
        &format!("{TOPICS} --create --topic t --config nope=1"),
    );
    assert!(e
        .message
        .starts_with("Error while executing topic command : Unknown topic config name: nope\n"));
    let e = tool_err(&mut w, &format!("{TOPICS} --delete --topic nope"));
    assert_eq!(e.message, "Topic 'nope' does not exist as expected\n");
    let out = tool(&mut w, &format!("{TOPICS} --create --topic a.b"));
    assert!(out.starts_with("WARNING: Due to limitations in metric names"));
    assert!(out.ends_with("Created topic a.b.\n"));
}

fn topic_names(w: &mut World) -> Vec<String> {
    tool(w, &format!("{TOPICS} --list"))
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn create_topics_validates_configs_and_sizes_as_kafka() {
    let mut w = example2();
    // TopicCommand's LogConfig.validate: the value must parse and pass its validator.
    for (config, message) in [
        (
            "retention.ms=abc",
            "Invalid value abc for configuration retention.ms: Not a number of type LONG",
        ),
        (
            "retention.ms=-5",
            "Invalid value -5 for configuration retention.ms: Value must be at least -1",
        ),
        (
            "cleanup.policy=tidy",
            "Invalid value tidy for configuration cleanup.policy: String must be one of: compact, delete",
        ),
        (
            "min.cleanable.dirty.ratio=2",
            "Invalid value 2 for configuration min.cleanable.dirty.ratio: Value must be no more than 1",
        ),
        (
            "compression.gzip.level=0",
            "Invalid value 0 for configuration compression.gzip.level: Value must be between 1 and 9 or equal to -1",
        ),
    ] {
        let e = tool_err(&mut w, &format!("{TOPICS} --create --topic t --config {config}"));
        assert!(
            e.message.starts_with(&format!(
                "Error while executing topic command : {message}\n"
            )),
            "{config}: {}",
            e.message
        );
        assert!(e
            .message
            .contains("ERROR org.apache.kafka.common.config.ConfigException: "));
    }
    // The controller checks too (a request from any client): INVALID_CONFIG, nothing written.
    let active = w.active_controller().unwrap();
    let cid = w
        .admin_send(
            active,
            ControllerRequest::CreateTopics {
                topics: vec![CreatableTopic {
                    name: "raw".into(),
                    num_partitions: 1,
                    replication_factor: 1,
                    configs: vec![("retention.ms".into(), "abc".into())],
                }],
            },
        )
        .unwrap();
    w.run_until(5_000, |w| w.admin_response(cid).is_some());
    match w.admin_response(cid) {
        Some(ControllerResponse::CreateTopics {
            topics,
            error: None,
        }) => assert_eq!(
            topics[0].error,
            Some((
                ApiError::InvalidConfig,
                "Invalid value abc for configuration retention.ms: Not a number of type LONG"
                    .into()
            ))
        ),
        other => panic!("{other:?}"),
    }
    // validateTotalNumberOfPartitions, then the BoundedList of 10,000 records.
    let e = tool_err(
        &mut w,
        &format!("{TOPICS} --create --topic t --partitions 100000"),
    );
    assert!(e.message.starts_with(
        "Error while executing topic command : Excessively large number of partitions per request.\n"
    ), "{}", e.message);
    assert!(e
        .message
        .contains("ERROR org.apache.kafka.common.errors.PolicyViolationException: "));
    let e = tool_err(
        &mut w,
        &format!("{TOPICS} --create --topic t --partitions 10000 --replication-factor 1"),
    );
    assert!(e.message.starts_with(
        "Error while executing topic command : Unable to perform excessively large batch operation.\n"
    ), "{}", e.message);
    let e = tool_err(
        &mut w,
        &format!("{TOPICS} --create --topic t --partitions 3000000000"),
    );
    assert!(e
        .message
        .contains("Cannot parse argument '3000000000' of option partitions"));
    let log = messages_text(&w, active);
    assert!(log.contains("createTopics: event failed with BoundedListTooLongException (treated as PolicyViolationException) in "), "{log}");
    // Nothing of the failed requests was written; a valid one still is.
    assert!(!topic_names(&mut w).iter().any(|t| t == "t" || t == "raw"));
    tool(
        &mut w,
        &format!("{TOPICS} --create --topic t --partitions 2 --config retention.ms=-1"),
    );
}

#[test]
fn create_retries_against_the_new_active_controller() {
    let mut w = example2();
    let old = w.active_controller().unwrap();
    w.kill(old).unwrap();
    let out = tool(&mut w, &format!("{TOPICS} --create --topic payments"));
    assert_eq!(out, "Created topic payments.\n");
    assert_ne!(w.active_controller(), Some(old));
    assert_eq!(tool(&mut w, &format!("{TOPICS} --list")), "payments\n");
}

#[test]
fn create_without_a_quorum_times_out() {
    let mut w = example2();
    w.kill(101).unwrap();
    w.kill(102).unwrap();
    w.kill(103).unwrap();
    let e = tool_err(&mut w, &format!("{TOPICS} --create --topic t"));
    assert!(e.message.starts_with(
        "Error while executing topic command : Timed out waiting for a node assignment. Call: createTopics\n"
    ), "{e}");
    assert!(e
        .message
        .contains("ERROR org.apache.kafka.common.errors.TimeoutException: "));
}

// ----- kafka-dump-log -----

fn dump(w: &mut World, node: i32) -> String {
    tool(
        w,
        &format!("kafka-dump-log.sh --cluster-metadata-decoder --files {node}/{SEGMENT}"),
    )
}

#[test]
fn dump_log_prints_batches_with_real_sizes_positions_and_crcs() {
    let mut w = example2();
    tool(
        &mut w,
        &format!("{TOPICS} --create --topic orders --partitions 3"),
    );
    w.run_for(2_000);
    let out = dump(&mut w, 101);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], format!("Dumping 101/{SEGMENT}"));
    assert_eq!(lines[1], "Log starting offset: 0");
    assert!(lines[2].starts_with("baseOffset: 0 lastOffset: 2 count: 3 baseSequence: -1 lastSequence: -1 producerId: -1 producerEpoch: -1 partitionLeaderEpoch: 1 isTransactional: false isControl: true deleteHorizonMs: OptionalLong.empty position: 0 CreateTime: "));
    assert!(lines[2].contains(" magic: 2 compresscodec: none crc: "));
    assert!(lines[2].ends_with(" isvalid: true"));
    assert!(lines[3].starts_with("| offset: 0 CreateTime: "));
    assert!(lines[3].contains(" keySize: 4 valueSize: 34 sequence: -1 headerKeys: [] LeaderChange: {\"version\":0,\"leaderId\":"));
    assert!(lines[4].ends_with("headerKeys: [] KRaftVersion {\"version\":0,\"kRaftVersion\":1}"));
    assert!(lines[4].contains("keySize: 4 valueSize: 5 "));
    assert!(lines[5]
        .contains("headerKeys: [] KRaftVoters {\"version\":0,\"voters\":[{\"voterId\":101,"));

    // position = the sum of the sizes before; offsets follow on.
    let mut position = 0u64;
    let mut next_offset = 0i64;
    let mut batches = 0;
    let mut current_last = -1i64;
    for l in &lines[2..] {
        if l.starts_with("baseOffset: ") {
            assert_eq!(field(l, "position").parse::<u64>().unwrap(), position);
            assert_eq!(field(l, "baseOffset").parse::<i64>().unwrap(), next_offset);
            let size: u64 = field(l, "size").parse().unwrap();
            let count: i64 = field(l, "count").parse().unwrap();
            current_last = field(l, "lastOffset").parse().unwrap();
            assert_eq!(current_last - next_offset + 1, count);
            assert!(size >= 61 + 8 * count as u64);
            position += size;
            batches += 1;
        } else {
            assert!(l.starts_with("| offset: "), "{l}");
            assert_eq!(field(l, "offset").parse::<i64>().unwrap(), next_offset);
            assert!(next_offset <= current_last);
            next_offset += 1;
        }
    }
    assert!(batches > 5);
    assert_eq!(
        next_offset,
        w.node(101).unwrap().disk.metadata_log.end_offset()
    );

    // The topic's batch: TopicRecord then three PartitionRecords, key null.
    let topic_line = lines
        .iter()
        .find(|l| l.contains("\"type\":\"TOPIC_RECORD\""))
        .unwrap();
    assert!(topic_line.contains(" keySize: -1 valueSize: 27 sequence: -1 headerKeys: [] payload: {\"type\":\"TOPIC_RECORD\",\"version\":0,\"data\":{\"name\":\"orders\",\"topicId\":\""));
    let described = tool(&mut w, &format!("{TOPICS} --describe --topic orders"));
    let id = described
        .split("TopicId: ")
        .nth(1)
        .unwrap()
        .split('\t')
        .next()
        .unwrap();
    assert!(topic_line.ends_with(&format!("\"topicId\":\"{id}\"}}}}")));
    let partitions = lines
        .iter()
        .filter(|l| {
            l.contains(
                "payload: {\"type\":\"PARTITION_RECORD\",\"version\":2,\"data\":{\"partitionId\":",
            )
        })
        .count();
    assert_eq!(partitions, 3);
}

#[test]
fn dump_log_crcs_are_stable_and_equal_on_every_replica() {
    let mut w = example2();
    let a = dump(&mut w, 101);
    let b = dump(&mut w, 101);
    assert_eq!(a, b);
    let c = dump(&mut w, 102);
    // The follower holds the same batches (it may lag by a batch at the end).
    let batch_lines = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with("baseOffset: "))
            .map(|l| l.to_string())
            .collect()
    };
    let (ba, bc) = (batch_lines(&a), batch_lines(&c));
    let n = ba.len().min(bc.len());
    assert!(n > 5);
    assert_eq!(ba[..n - 1], bc[..n - 1]);
    let crcs: std::collections::BTreeSet<&str> = ba.iter().map(|l| field(l, "crc")).collect();
    assert!(crcs.len() > n / 2, "crcs differ between batches");
}

#[test]
fn dump_log_errors_and_options() {
    let mut w = example2();
    let e = tool_err(
        &mut w,
        "kafka-dump-log.sh --cluster-metadata-decoder --files 101/__cluster_metadata-0/00000000000000000099.log",
    );
    assert_eq!(
        e.stdout,
        "Dumping 101/__cluster_metadata-0/00000000000000000099.log\nLog starting offset: 99\n"
    );
    assert_eq!(
        e.message,
        "101/__cluster_metadata-0/00000000000000000099.log\njava.nio.file.NoSuchFileException: 101/__cluster_metadata-0/00000000000000000099.log\n"
    );
    let e = tool_err(&mut w, &format!("kafka-dump-log.sh --files 999/{SEGMENT}"));
    assert!(e.message.contains("NoSuchFileException: 999/"));
    let e = tool_err(&mut w, "kafka-dump-log.sh --foo");
    assert_eq!(
        e.message,
        "foo is not a recognized option\njoptsimple.UnrecognizedOptionException: foo is not a recognized option\n"
    );
    let e = tool_err(&mut w, "kafka-dump-log.sh --cluster-metadata-decoder");
    assert_eq!(e.message, "Missing required argument \"[files]\"\n");

    // Several files, comma-separated.
    let out = tool(
        &mut w,
        &format!(
            "kafka-dump-log.sh --cluster-metadata-decoder --files 101/{SEGMENT},102/{SEGMENT}"
        ),
    );
    let dumping: Vec<&str> = out.lines().filter(|l| l.starts_with("Dumping ")).collect();
    assert_eq!(
        dumping,
        [
            format!("Dumping 101/{SEGMENT}"),
            format!("Dumping 102/{SEGMENT}")
        ]
    );
    // Without a decoder: batch lines only.
    let shallow = tool(&mut w, &format!("kafka-dump-log.sh --files 101/{SEGMENT}"));
    assert!(shallow
        .lines()
        .skip(2)
        .all(|l| l.starts_with("baseOffset: ")));
    // --skip-record-metadata prints "| payload: ..." only.
    let skip = tool(
        &mut w,
        &format!("kafka-dump-log.sh --cluster-metadata-decoder --skip-record-metadata --files 101/{SEGMENT}"),
    );
    assert!(skip
        .lines()
        .any(|l| l == "| payload: {\"type\":\"NO_OP_RECORD\",\"version\":0,\"data\":{}}"));
}

// ----- shell helpers -----

#[test]
fn ls_cat_grep_tail_over_a_node() {
    let mut w = example2();
    let out = tool(&mut w, "ls 101/__cluster_metadata-0");
    assert_eq!(
        out,
        "00000000000000000000-0000000000.checkpoint\n00000000000000000000.index\n00000000000000000000.log\n00000000000000000000.timeindex\nleader-epoch-checkpoint\npartition.metadata\nquorum-state\n"
    );
    let root = tool(&mut w, "ls 101");
    assert!(root.contains("__cluster_metadata-0\n") && root.contains("server.log\n"));
    let e = tool_err(&mut w, "ls 101/nope");
    assert_eq!(
        e.message,
        "ls: cannot access '101/nope': No such file or directory\n"
    );
    let e = tool_err(&mut w, "ls 7/__cluster_metadata-0");
    assert_eq!(
        e.message,
        "ls: cannot access '7/__cluster_metadata-0': No such file or directory\n"
    );

    let (leader, epoch) = w.leader().unwrap();
    let qs = tool(&mut w, "cat 101/__cluster_metadata-0/quorum-state");
    assert!(qs.starts_with(&format!("{{\"leaderId\":{leader},\"leaderEpoch\":{epoch},")));
    assert!(qs.contains("\"data_version\":1}"));
    let e = tool_err(&mut w, "cat 101/__cluster_metadata-0/nope");
    assert_eq!(
        e.message,
        "cat: 101/__cluster_metadata-0/nope: No such file or directory\n"
    );
    let e = tool_err(&mut w, "cat 101/__cluster_metadata-0");
    assert_eq!(e.message, "cat: 101/__cluster_metadata-0: Is a directory\n");

    let all = tool(&mut w, "grep Replayed 101/controller.log");
    let count = tool(&mut w, "grep -c Replayed 101/controller.log");
    assert_eq!(count, format!("{}\n", all.lines().count()));
    assert!(all.lines().count() > 5);
    for l in all.lines() {
        assert!(l.starts_with("[2024-10-25 ") && l.contains("] INFO [QuorumController id=101] "));
        assert!(l.ends_with(")"));
    }
    // Raft lines are in server.log, not controller.log.
    assert_eq!(
        tool(&mut w, "grep -c RaftManager 101/controller.log"),
        "0\n"
    );
    assert!(tool(&mut w, "grep -c RaftManager 101/server.log") != "0\n");

    let tail = tool(&mut w, "tail -n 2 1/server.log");
    assert_eq!(tail.lines().count(), 2);
    let whole = tool(&mut w, "cat 1/server.log");
    assert!(whole.ends_with(&tail));
    assert_eq!(tool(&mut w, "tail -3 1/server.log").lines().count(), 3);
    assert_eq!(tool(&mut w, "head -n 1 1/server.log").lines().count(), 1);

    let e = tool_err(&mut w, "frobnicate 1");
    assert_eq!(e.message, "frobnicate: command not found\n");
    assert_eq!(e.exit_code, 127);
}

#[test]
fn create_retries_when_a_partitioned_controller_answers_not_controller() {
    let mut w = example2();
    let old = w.active_controller().unwrap();
    let others: Vec<i32> = w.node_ids().into_iter().filter(|i| *i != old).collect();
    w.partition(&[vec![old], others]).unwrap();
    let out = tool(&mut w, &format!("{TOPICS} --create --topic orders"));
    assert_eq!(out, "Created topic orders.\n");
    let now_active = w.active_controller().unwrap();
    assert_ne!(now_active, old);
    // --list is answered from broker 1's image: the observer finds the new leader (its fetch
    // to the old one times out) and its loader takes the commit.
    w.run_for(5_000);
    assert_eq!(tool(&mut w, &format!("{TOPICS} --list")), "orders\n");
    let replayed = tool(
        &mut w,
        &format!("grep -c \"Replayed TopicRecord for topic orders\" {now_active}/controller.log"),
    );
    assert_eq!(replayed, "1\n");
    // The first try reached the old controller, which replayed the records before losing the
    // leadership and answering NOT_CONTROLLER.
    let first = tool(
        &mut w,
        &format!("grep -c \"Replayed TopicRecord for topic orders\" {old}/controller.log"),
    );
    assert_eq!(first, "1\n");
}

// ----- kafka-configs -----

const CONFIGS: &str = "kafka-configs.sh --bootstrap-server localhost:9092";

/// Example 4's cluster with topic `orders` (1 partition, 3 replicas).
fn example4_with_orders() -> World {
    let mut w = example4();
    tool(
        &mut w,
        &format!("{TOPICS} --create --topic orders --partitions 1 --replication-factor 3"),
    );
    w
}

#[test]
fn configs_alter_then_describe_shows_dynamic_topic_configs_with_synonyms() {
    let mut w = example4_with_orders();
    let out = tool(
        &mut w,
        &format!("{CONFIGS} --alter --entity-type topics --entity-name orders --add-config retention.ms=1000,min.insync.replicas=2"),
    );
    assert_eq!(out, "Completed updating config for topic orders.\n");
    let out = tool(
        &mut w,
        &format!("{CONFIGS} --describe --entity-type topics --entity-name orders"),
    );
    assert_eq!(
        out,
        "Dynamic configs for topic orders are:\n\
         \x20 min.insync.replicas=2 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:min.insync.replicas=2, DYNAMIC_DEFAULT_BROKER_CONFIG:min.insync.replicas=1, DEFAULT_CONFIG:min.insync.replicas=1}\n\
         \x20 retention.ms=1000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:retention.ms=1000}\n"
    );
    // --topic is the shorthand; values are shown as parsed; a broker default follows.
    let out = tool(
        &mut w,
        &format!("{CONFIGS} --alter --topic orders --add-config segment.bytes=2000000,cleanup.policy=[compact,delete]"),
    );
    assert_eq!(out, "Completed updating config for topic orders.\n");
    let out = tool(&mut w, &format!("{CONFIGS} --describe --topic orders"));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert_eq!(
        lines[1],
        "  cleanup.policy=compact,delete sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:cleanup.policy=compact,delete, DEFAULT_CONFIG:log.cleanup.policy=delete}"
    );
    assert_eq!(
        lines[4],
        "  segment.bytes=2000000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:segment.bytes=2000000, DEFAULT_CONFIG:log.segment.bytes=1073741824}"
    );

    // The records replayed on the controller and reached the brokers' MetadataImage.
    let grep = tool(
        &mut w,
        "grep -c \"Replayed ConfigRecord for ConfigResource(type=TOPIC, name='orders') which set configuration retention.ms to 1000\" 100/controller.log",
    );
    assert_eq!(grep, "1\n");
    w.run_for(2_000);
    for b in [1, 2, 3] {
        let image = &w.node(b).unwrap().loader.as_ref().unwrap().image;
        assert_eq!(
            image
                .configs
                .configs
                .get(&(2, "orders".to_string(), "retention.ms".to_string()))
                .map(|s| s.as_str()),
            Some("1000"),
            "broker {b}"
        );
    }
    // kafka-topics --describe shows the overrides.
    let out = tool(&mut w, &format!("{TOPICS} --describe --topic orders"));
    let configs = out
        .lines()
        .next()
        .unwrap()
        .split("\tConfigs: ")
        .nth(1)
        .unwrap();
    let mut names: Vec<&str> = configs.split(',').collect();
    names.sort();
    assert_eq!(
        names,
        [
            "cleanup.policy=compact",
            "delete",
            "min.insync.replicas=2",
            "retention.ms=1000",
            "segment.bytes=2000000"
        ]
    );

    // --delete-config takes the overrides away again.
    let out = tool(
        &mut w,
        &format!("{CONFIGS} --alter --topic orders --delete-config retention.ms,segment.bytes,cleanup.policy"),
    );
    assert_eq!(out, "Completed updating config for topic orders.\n");
    let out = tool(&mut w, &format!("{CONFIGS} --describe --topic orders"));
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("  min.insync.replicas=2 "));
    let grep = tool(
        &mut w,
        "grep -c \"which removed configuration retention.ms\" 100/controller.log",
    );
    assert_eq!(grep, "1\n");
    // The brokers follow the metadata log a fetch later.
    w.run_for(2_000);
    let image = &w.node(2).unwrap().loader.as_ref().unwrap().image;
    assert!(!image.configs.configs.contains_key(&(
        2,
        "orders".to_string(),
        "retention.ms".to_string()
    )));
    let out = tool(&mut w, &format!("{TOPICS} --describe --topic orders"));
    assert!(
        out.lines()
            .next()
            .unwrap()
            .ends_with("\tConfigs: min.insync.replicas=2"),
        "{out}"
    );
}

#[test]
fn configs_describe_all_topics_and_missing_topics() {
    let mut w = example4_with_orders();
    tool(&mut w, &format!("{TOPICS} --create --topic payments"));
    tool(
        &mut w,
        &format!("{CONFIGS} --alter --topic payments --add-config max.message.bytes=2000"),
    );
    let out = tool(
        &mut w,
        &format!("{CONFIGS} --describe --entity-type topics"),
    );
    let mut blocks: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("Dynamic configs for topic "))
        .collect();
    blocks.sort();
    assert_eq!(
        blocks,
        [
            "Dynamic configs for topic orders are:",
            "Dynamic configs for topic payments are:"
        ]
    );
    assert!(out.contains(
        "Dynamic configs for topic payments are:\n  max.message.bytes=2000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:max.message.bytes=2000, DEFAULT_CONFIG:message.max.bytes=1048588}\n"
    ), "{out}");
    assert_eq!(out.lines().count(), 3, "{out}");
    let out = tool(&mut w, &format!("{CONFIGS} --describe --topic nope"));
    assert_eq!(
        out,
        "The topic 'nope' doesn't exist and doesn't have dynamic config.\n"
    );
    // A topic without overrides has an empty block.
    let out = tool(&mut w, &format!("{CONFIGS} --describe --topic orders"));
    assert_eq!(out, "Dynamic configs for topic orders are:\n");
}

#[test]
fn configs_errors_print_like_config_command() {
    let mut w = example4_with_orders();
    let e = tool_err(
        &mut w,
        &format!("{CONFIGS} --entity-type topics --entity-name orders"),
    );
    assert_eq!(
        e.message,
        "Command must include exactly one action: --describe, --alter\n"
    );
    assert_eq!(e.exit_code, 1);
    let e = tool_err(&mut w, "kafka-configs.sh --describe --topic orders");
    assert_eq!(
        e.message,
        "Either --bootstrap-server or --bootstrap-controller must be specified.\n"
    );
    let e = tool_err(
        &mut w,
        &format!("{CONFIGS} --describe --topic orders --foo"),
    );
    assert_eq!(e.message, "foo is not a recognized option\n");
    let e = tool_err(&mut w, &format!("{CONFIGS} --alter --topic orders"));
    assert_eq!(
        e.message,
        "At least one of --add-config, --add-config-file, or --delete-config must be specified with --alter\n"
    );
    let e = tool_err(
        &mut w,
        &format!("{CONFIGS} --alter --topic orders --add-config retention.ms"),
    );
    assert_eq!(
        e.message,
        "Invalid entity config: all configs to be added must be in the format \"key=val\" or  \"key=[val1,val2]\" to group values which contain commas.\n"
    );
    let e = tool_err(
        &mut w,
        &format!("{CONFIGS} --alter --entity-type brokers --entity-name 1 --add-config log.retention.ms=1"),
    );
    assert!(
        e.message.contains("not supported by the KRaft Playground"),
        "{e}"
    );
    assert_eq!(e.exit_code, 1);
    let e = tool_err(
        &mut w,
        &format!("{CONFIGS} --describe --entity-type widgets --entity-name x"),
    );
    assert_eq!(
        e.message,
        "Invalid entity type widgets, the entity type must be one of broker-loggers, topics, clients, users, brokers, ips, client-metrics, groups with a --bootstrap-server or --bootstrap-controller argument\n"
    );
    let e = tool_err(
        &mut w,
        &format!("{CONFIGS} --alter --entity-type topics --add-config retention.ms=1"),
    );
    assert_eq!(
        e.message,
        "An entity name must be specified with --alter of topics\n"
    );
    let e = tool_err(
        &mut w,
        &format!("{CONFIGS} --describe --topic orders --add-config retention.ms=1"),
    );
    assert_eq!(
        e.message,
        "Option \"[describe]\" can't be used with option \"[add-config]\"\n"
    );
    let e = tool_err(
        &mut w,
        &format!("{CONFIGS} --describe --entity-name orders --topic orders"),
    );
    assert_eq!(
        e.message,
        "--entity-{type,name,default} should not be used in conjunction with specific entity flags\n"
    );

    // Unknown config name: INVALID_CONFIG from the controller.
    let args = "--bootstrap-server localhost:9092 --alter --topic orders --add-config nope=1";
    let e = tool_err(&mut w, &format!("kafka-configs.sh {args}"));
    assert_eq!(
        e.message,
        format!("Error while executing config command with args '{args}'\njava.util.concurrent.ExecutionException: org.apache.kafka.common.errors.InvalidConfigurationException: Unknown topic config name: nope\n")
    );
    // A value that does not parse.
    let e = tool_err(
        &mut w,
        &format!("{CONFIGS} --alter --topic orders --add-config retention.ms=abc"),
    );
    assert!(e.message.ends_with(
        "java.util.concurrent.ExecutionException: org.apache.kafka.common.errors.InvalidConfigurationException: Invalid value abc for configuration retention.ms: Not a number of type LONG\n"
    ), "{e}");
    // Deleting a config that is not set: the tool's own check.
    let e = tool_err(
        &mut w,
        &format!("{CONFIGS} --alter --topic orders --delete-config retention.ms,segment.ms"),
    );
    assert_eq!(e.message, "Invalid config(s): retention.ms,segment.ms\n");
    // An unknown topic: describeConfigs fails first.
    let args = "--bootstrap-server localhost:9092 --alter --topic nope --add-config retention.ms=1";
    let e = tool_err(&mut w, &format!("kafka-configs.sh {args}"));
    assert_eq!(
        e.message,
        format!("Error while executing config command with args '{args}'\njava.util.concurrent.ExecutionException: org.apache.kafka.common.errors.UnknownTopicOrPartitionException: This server does not host this topic-partition.\n")
    );
    // Nothing failed was written.
    let out = tool(&mut w, &format!("{CONFIGS} --describe --topic orders"));
    assert_eq!(out, "Dynamic configs for topic orders are:\n");
    // The console knows the tool.
    assert!(tools::COMMANDS.contains(&"kafka-configs.sh"));
}

#[test]
fn configs_controller_rejects_unknown_topics_with_kafkas_message() {
    use kraft_core::common::message::controller::{
        AlterConfigOpType, AlterConfigsResource, AlterableConfig, ApiError, ControllerRequest,
        ControllerResponse,
    };
    let mut w = example4_with_orders();
    let active = w.active_controller().unwrap();
    let request = |topic: &str, name: &str| ControllerRequest::IncrementalAlterConfigs {
        resources: vec![AlterConfigsResource {
            resource_type: 2,
            resource_name: topic.to_string(),
            configs: vec![AlterableConfig {
                name: name.to_string(),
                op: AlterConfigOpType::Set,
                value: Some("1".to_string()),
            }],
        }],
        validate_only: false,
    };
    let ask = |w: &mut World, r: ControllerRequest| {
        let cid = w.admin_send(active, r).unwrap();
        w.run_until(5_000, |w| w.admin_response(cid).is_some());
        match w.admin_response(cid).cloned() {
            Some(ControllerResponse::IncrementalAlterConfigs { responses, error }) => {
                assert_eq!(error, None);
                responses[0].error.clone()
            }
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(
        ask(&mut w, request("nope", "retention.ms")),
        Some((
            ApiError::UnknownTopicOrPartition,
            "The topic 'nope' does not exist.".to_string()
        ))
    );
    assert_eq!(
        ask(&mut w, request("orders", "nope")),
        Some((
            ApiError::InvalidConfig,
            "Unknown topic config name: nope".to_string()
        ))
    );
    assert_eq!(ask(&mut w, request("orders", "retention.ms")), None);
}

#[test]
fn configs_survive_a_kill_of_the_active_controller() {
    let mut w = example2();
    tool(
        &mut w,
        &format!("{TOPICS} --create --topic orders --partitions 3"),
    );
    let out = tool(
        &mut w,
        &format!("{CONFIGS} --alter --topic orders --add-config retention.ms=1000"),
    );
    assert_eq!(out, "Completed updating config for topic orders.\n");
    let old = w.active_controller().unwrap();
    w.kill(old).unwrap();
    w.run_until(30_000, |w| w.active_controller().is_some());
    let new = w.active_controller().unwrap();
    assert_ne!(new, old);
    let out = tool(&mut w, &format!("{CONFIGS} --describe --topic orders"));
    assert_eq!(
        out,
        "Dynamic configs for topic orders are:\n  retention.ms=1000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:retention.ms=1000}\n"
    );
    let state = controller_summary(&w, new);
    assert!(
        state.contains("config 2 'orders' retention.ms=1000"),
        "{state}"
    );
    // The new active controller takes alters too.
    let out = tool(
        &mut w,
        &format!("{CONFIGS} --alter --topic orders --add-config retention.ms=2000"),
    );
    assert_eq!(out, "Completed updating config for topic orders.\n");
    let out = tool(&mut w, &format!("{CONFIGS} --describe --topic orders"));
    assert!(out.contains("  retention.ms=2000 "), "{out}");
}

#[test]
fn configs_alter_retries_on_not_controller_and_times_out_without_a_quorum() {
    let mut w = example2();
    tool(&mut w, &format!("{TOPICS} --create --topic orders"));
    let old = w.active_controller().unwrap();
    let others: Vec<i32> = w.node_ids().into_iter().filter(|i| *i != old).collect();
    w.partition(&[vec![old], others]).unwrap();
    let out = tool(
        &mut w,
        &format!("{CONFIGS} --alter --topic orders --add-config retention.ms=1000"),
    );
    assert_eq!(out, "Completed updating config for topic orders.\n");
    let now_active = w.active_controller().unwrap();
    assert_ne!(now_active, old);
    let out = tool(&mut w, &format!("{CONFIGS} --describe --topic orders"));
    assert!(out.contains("  retention.ms=1000 "), "{out}");
    // The first try reached the old controller, which replayed the record before losing the
    // leadership and answering NOT_CONTROLLER.
    let replayed = "Replayed ConfigRecord for ConfigResource(type=TOPIC, name='orders') which set configuration retention.ms to 1000";
    for id in [old, now_active] {
        let n = tool(
            &mut w,
            &format!("grep -c \"{replayed}\" {id}/controller.log"),
        );
        assert_eq!(n, "1\n", "controller {id}");
    }

    w.heal();
    for id in [101, 102, 103] {
        w.kill(id).unwrap();
    }
    let args = "--bootstrap-server localhost:9092 --describe --topic orders";
    let e = tool_err(&mut w, &format!("kafka-configs.sh {args}"));
    assert_eq!(
        e.message,
        format!("Error while executing config command with args '{args}'\njava.util.concurrent.ExecutionException: org.apache.kafka.common.errors.TimeoutException: Timed out waiting for a node assignment. Call: listTopics\n")
    );
    let e = tool_err(
        &mut w,
        &format!("{CONFIGS} --alter --topic orders --add-config retention.ms=5"),
    );
    assert!(
        e.message
            .ends_with("\njava.util.concurrent.TimeoutException\n"),
        "{e}"
    );
}
