//! What `set KEY=VALUE` accepts: Kafka's configurations with Kafka's types, ranges and error
//! texts (ConfigDef's `Invalid value ... for configuration ...`), the playground's own knobs
//! (network, tick, a command's budget), and where a Kafka range lets through a value the
//! simulation cannot run, a narrower range that says why.

use crate::sim::WorldConfig;

/// How a setting's value is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A Kafka `INT` configuration.
    Int,
    /// A Kafka `LONG` configuration.
    Long,
    /// A Kafka `BOOLEAN` configuration (`true` or `false`, read as 1 or 0).
    Boolean,
    /// A setting of the playground itself (not Kafka's).
    Playground,
}

/// One setting `set` accepts.
#[derive(Clone, Copy, Debug)]
pub struct Setting {
    /// Its name, as in Kafka's configuration where it is Kafka's.
    pub name: &'static str,
    /// How its value is read.
    pub kind: Kind,
    /// The smallest value accepted.
    pub min: i64,
    /// The largest value accepted.
    pub max: i64,
    /// Why the playground asks for more than Kafka's own lower bound, if it does.
    pub narrower: Option<&'static str>,
    /// What it changes.
    pub doc: &'static str,
}

const INT_MAX: i64 = i32::MAX as i64;

/// The settings of the next `cluster` (or of the console, for the playground's own).
pub const SETTINGS: &[Setting] = &[
    Setting {
        name: "controller.quorum.election.timeout.ms",
        kind: Kind::Int,
        min: 1,
        max: INT_MAX,
        narrower: Some("Kafka accepts 0 (atLeast(0)), but its first election then throws: the timeout is 0 + random.nextInt(0)"),
        doc: "election timeout: 1000 ms + a random 0-1000 ms by default",
    },
    Setting {
        name: "controller.quorum.fetch.timeout.ms",
        kind: Kind::Int,
        min: 1,
        max: INT_MAX,
        narrower: Some("Kafka accepts 0 (atLeast(0)), but a follower then times out on its leader the moment it has one"),
        doc: "a follower goes Prospective when its leader is silent this long (2000)",
    },
    Setting {
        name: "controller.quorum.election.backoff.max.ms",
        kind: Kind::Int,
        min: 0,
        max: INT_MAX,
        narrower: None,
        doc: "still a Kafka 4.5 configuration; since KAFKA-18345 a lost election waits out its election timeout instead",
    },
    Setting {
        name: "controller.quorum.append.linger.ms",
        kind: Kind::Int,
        min: 0,
        max: INT_MAX,
        narrower: None,
        doc: "how long the leader gathers records into one batch (25)",
    },
    Setting {
        name: "controller.quorum.request.timeout.ms",
        kind: Kind::Int,
        min: 1,
        max: INT_MAX,
        narrower: Some("Kafka accepts 0 (atLeast(0)), but every request then times out as it is sent and is sent again at once: the quorum spins without ever hearing an answer"),
        doc: "a Raft request with no answer this long is sent again (2000)",
    },
    Setting {
        name: "controller.quorum.retry.backoff.ms",
        kind: Kind::Int,
        min: 0,
        max: INT_MAX,
        narrower: None,
        doc: "the wait before a failed Raft request is retried (20)",
    },
    Setting {
        name: "metadata.max.idle.interval.ms",
        kind: Kind::Int,
        min: 0,
        max: INT_MAX,
        narrower: None,
        doc: "the active controller writes a NoOp record this often (500); 0 turns the NoOps off",
    },
    Setting {
        name: "broker.session.timeout.ms",
        kind: Kind::Int,
        min: 1,
        max: INT_MAX,
        narrower: Some("Kafka has no validator here, but a session of 0 ms or less would fence every broker at its first heartbeat"),
        doc: "a broker with no heartbeat this long is fenced (9000)",
    },
    Setting {
        name: "metadata.log.segment.bytes",
        kind: Kind::Int,
        min: 8 * 1024 * 1024,
        max: INT_MAX,
        narrower: None,
        doc: "metadata log segment size (1 GiB); for tiny segments use internal.metadata.log.segment.bytes",
    },
    Setting {
        name: "internal.metadata.log.segment.bytes",
        kind: Kind::Int,
        min: 1,
        max: INT_MAX,
        narrower: Some("Kafka defines it with no validator (\"only for testing\"), but a segment needs room for one batch"),
        doc: "Kafka's testing-only segment size, below metadata.log.segment.bytes' 8 MiB minimum",
    },
    Setting {
        name: "metadata.log.max.record.bytes.between.snapshots",
        kind: Kind::Long,
        min: 1,
        max: i64::MAX,
        narrower: None,
        doc: "a snapshot after this many bytes of new records (20 MiB)",
    },
    Setting {
        name: "metadata.log.max.snapshot.interval.ms",
        kind: Kind::Long,
        min: 0,
        max: i64::MAX,
        narrower: None,
        doc: "a snapshot at least this often (1 h); 0 turns time-based snapshots off",
    },
    Setting {
        name: "metadata.max.retention.bytes",
        kind: Kind::Long,
        min: i64::MIN,
        max: i64::MAX,
        narrower: None,
        doc: "log and snapshots beyond this size are deleted (100 MiB); negative: no limit",
    },
    Setting {
        name: "metadata.max.retention.ms",
        kind: Kind::Long,
        min: i64::MIN,
        max: i64::MAX,
        narrower: None,
        doc: "snapshots older than this are deleted (7 days); negative: no limit",
    },
    Setting {
        name: "network.latency.ms",
        kind: Kind::Playground,
        min: 0,
        max: 60_000,
        narrower: None,
        doc: "one-way latency of every link (1)",
    },
    Setting {
        name: "network.jitter.ms",
        kind: Kind::Playground,
        min: 0,
        max: 60_000,
        narrower: None,
        doc: "extra random latency, 0 to this (2)",
    },
    Setting {
        name: "tick.ms",
        kind: Kind::Playground,
        min: 1,
        max: 3_600_000,
        narrower: None,
        doc: "virtual time of one `tick` (100)",
    },
    Setting {
        name: "command.max.ms",
        kind: Kind::Playground,
        // A tool's admin call may wait out default.api.timeout.ms (60 s) before it fails.
        min: 60_000,
        max: 7 * 24 * 3_600_000,
        narrower: None,
        doc: "the most virtual time one command may run (1 h; at least the admin client's 60 s)",
    },
    Setting {
        name: "controller.quorum.auto.join.enable",
        kind: Kind::Boolean,
        min: 0,
        max: 1,
        narrower: None,
        doc: "an observing controller adds itself to the voters (KIP-1186, default false)",
    },
    Setting {
        name: "command.max.events",
        kind: Kind::Playground,
        min: 1,
        max: 1_000_000_000,
        narrower: None,
        doc: "the most events one command may run (1,000,000)",
    },
];

/// The default `command.max.ms`: one hour of virtual time.
pub const DEFAULT_COMMAND_MAX_MS: u64 = 3_600_000;
/// The default `command.max.events`: about a second of engine work natively (an idle
/// 6-node cluster runs ~210,000 events per virtual hour).
pub const DEFAULT_COMMAND_MAX_EVENTS: u64 = 1_000_000;

/// The setting named `name`.
pub fn find(name: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.name == name)
}

impl Setting {
    /// Reads `text` as this setting's value, with Kafka's ConfigException texts.
    pub fn parse(&self, text: &str) -> Result<i64, String> {
        let invalid = |why: String| {
            format!(
                "Invalid value {text} for configuration {}: {why}",
                self.name
            )
        };
        let v: i64 = match self.kind {
            Kind::Int => text
                .trim()
                .parse::<i32>()
                .map(i64::from)
                .map_err(|_| invalid("Not a number of type INT".into()))?,
            Kind::Long => text
                .trim()
                .parse::<i64>()
                .map_err(|_| invalid("Not a number of type LONG".into()))?,
            // ConfigDef.parseType, case BOOLEAN (ConfigDef.java:712-723).
            Kind::Boolean => match text.trim().to_ascii_lowercase().as_str() {
                "true" => 1,
                "false" => 0,
                _ => return Err(invalid("Expected value to be either true or false".into())),
            },
            Kind::Playground => text.trim().parse::<i64>().map_err(|_| {
                invalid(format!(
                    "not a whole number (accepted: {}..={})",
                    self.min, self.max
                ))
            })?,
        };
        if v < self.min {
            return Err(match self.narrower {
                Some(why) => invalid(format!(
                    "Value must be at least {} in the playground. {why}.",
                    self.min
                )),
                None => invalid(format!("Value must be at least {}", self.min)),
            });
        }
        if v > self.max {
            return Err(invalid(format!("Value must be no more than {}", self.max)));
        }
        Ok(v)
    }
}

/// Puts a checked Kafka setting into the configuration of the next cluster (the playground's
/// own settings are the console's).
pub fn apply(config: &mut WorldConfig, name: &str, v: i64) {
    let ms = v.max(0) as u64;
    let limit = (v >= 0).then_some(ms);
    match name {
        "controller.quorum.election.timeout.ms" => config.quorum.election_timeout_ms = ms,
        "controller.quorum.fetch.timeout.ms" => config.quorum.fetch_timeout_ms = ms,
        "controller.quorum.election.backoff.max.ms" => config.quorum.election_backoff_max_ms = ms,
        "controller.quorum.append.linger.ms" => config.quorum.append_linger_ms = ms,
        "controller.quorum.request.timeout.ms" => config.quorum.request_timeout_ms = ms,
        "controller.quorum.retry.backoff.ms" => config.quorum.retry_backoff_ms = ms,
        "metadata.max.idle.interval.ms" => config.controller.no_op_interval_ms = ms,
        "broker.session.timeout.ms" => config.controller.session_timeout_ms = ms,
        "metadata.log.segment.bytes" | "internal.metadata.log.segment.bytes" => {
            config.quorum.metadata_log.segment_bytes = ms as usize
        }
        "metadata.log.max.record.bytes.between.snapshots" => {
            config
                .quorum
                .metadata_log
                .max_record_bytes_between_snapshots = ms
        }
        "metadata.log.max.snapshot.interval.ms" => {
            config.quorum.metadata_log.max_snapshot_interval_ms = ms
        }
        "metadata.max.retention.bytes" => config.quorum.metadata_log.retention_bytes = limit,
        "metadata.max.retention.ms" => config.quorum.metadata_log.retention_ms = limit,
        "network.latency.ms" => config.network.latency_ms = ms,
        "network.jitter.ms" => config.network.jitter_ms = ms,
        "controller.quorum.auto.join.enable" => config.quorum.auto_join_enable = v != 0,
        _ => {}
    }
}

/// `set`'s error for a name it does not know.
pub fn unknown(name: &str) -> String {
    let names: Vec<&str> = SETTINGS.iter().map(|s| s.name).collect();
    format!(
        "set: unknown setting '{name}' (one of: {})",
        names.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(name: &str, v: &str) -> Result<i64, String> {
        find(name).expect(name).parse(v)
    }

    #[test]
    fn kafka_types_and_ranges_with_kafkas_texts() {
        assert_eq!(
            parse("controller.quorum.request.timeout.ms", "2000"),
            Ok(2000)
        );
        assert_eq!(
            parse("controller.quorum.request.timeout.ms", "abc").unwrap_err(),
            "Invalid value abc for configuration controller.quorum.request.timeout.ms: Not a number of type INT"
        );
        assert!(parse("controller.quorum.request.timeout.ms", "2147483648")
            .unwrap_err()
            .ends_with("Not a number of type INT"));
        assert_eq!(
            parse("controller.quorum.retry.backoff.ms", "-1").unwrap_err(),
            "Invalid value -1 for configuration controller.quorum.retry.backoff.ms: Value must be at least 0"
        );
        let zero = parse("controller.quorum.request.timeout.ms", "0").unwrap_err();
        assert!(
            zero.contains("at least 1 in the playground") && zero.contains("spins"),
            "{zero}"
        );
        assert_eq!(parse("metadata.max.idle.interval.ms", "0"), Ok(0));
        assert!(parse("metadata.log.segment.bytes", "2048")
            .unwrap_err()
            .ends_with("Value must be at least 8388608"));
        assert_eq!(
            parse("internal.metadata.log.segment.bytes", "2048"),
            Ok(2048)
        );
        assert_eq!(parse("metadata.max.retention.bytes", "-1"), Ok(-1));
        assert!(parse("network.latency.ms", "18446744073709551615")
            .unwrap_err()
            .contains("0..=60000"));
        assert!(parse("network.latency.ms", "60001")
            .unwrap_err()
            .ends_with("Value must be no more than 60000"));
    }

    #[test]
    fn negative_retention_means_no_limit() {
        let mut c = WorldConfig::new(1, vec![1], vec![]);
        apply(&mut c, "metadata.max.retention.bytes", -1);
        assert_eq!(c.quorum.metadata_log.retention_bytes, None);
        apply(&mut c, "metadata.max.retention.ms", 60_000);
        assert_eq!(c.quorum.metadata_log.retention_ms, Some(60_000));
    }
}
