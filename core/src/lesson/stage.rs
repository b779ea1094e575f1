//! What the lecture stage shows at each step of a lesson: the node in focus, the one side panel
//! the step talks about, what is lit, and which message kinds carry labels. A lesson says it
//! with directives (`focus 102`, `show states`, `highlight batch 41-44`, `labels Fetch`); a step
//! without them gets defaults from its command (`kill -9 101` focuses 101, `kafka-topics.sh`
//! shows the partitions, ...). Focus, panel and labels carry over to the next steps; highlights
//! belong to their step.

use std::fmt;

use super::console::split_words;
use super::parse::{Lesson, Step};

/// A side panel of the stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Panel {
    /// The focused node's Raft state machine.
    States,
    /// The leader's high-watermark computation.
    Hw,
    /// The focused node's metadata log: batches, HW, LEO.
    Log,
    /// The focused node's server.log and controller.log.
    Tail,
    /// The QuorumController: event queue, purgatory, offsets, snapshots, topicsByName.
    Controller,
    /// Brokers: BrokerState, fencing, sessions, heartbeats.
    Brokers,
    /// The focused node's MetadataImage as kafka-metadata-shell shows it.
    Image,
    /// The console's TimelineHashMap (the article's example 3).
    Timeline,
    /// The data partitions: leader, replicas, ISR.
    Partitions,
    /// The console.
    Console,
    /// The process table: kill -9, STOP, CONT, restart, isolate.
    Processes,
}

impl Panel {
    /// Every panel, in the order of the stage's tabs.
    pub const ALL: [Panel; 11] = [
        Panel::States,
        Panel::Hw,
        Panel::Log,
        Panel::Tail,
        Panel::Controller,
        Panel::Brokers,
        Panel::Image,
        Panel::Timeline,
        Panel::Partitions,
        Panel::Console,
        Panel::Processes,
    ];

    /// Its name in `show <panel>` and in the page's element ids.
    pub fn name(self) -> &'static str {
        match self {
            Panel::States => "states",
            Panel::Hw => "hw",
            Panel::Log => "log",
            Panel::Tail => "tail",
            Panel::Controller => "controller",
            Panel::Brokers => "brokers",
            Panel::Image => "image",
            Panel::Timeline => "timeline",
            Panel::Partitions => "partitions",
            Panel::Console => "console",
            Panel::Processes => "processes",
        }
    }

    /// Reads a panel name.
    pub fn parse(name: &str) -> Option<Panel> {
        Panel::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Every panel name, for messages.
    pub fn names() -> String {
        Panel::ALL.map(Panel::name).join(", ")
    }
}

/// Something a step lights on the stage (`highlight ...`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Highlight {
    /// `highlight node 102`: a node of the drawing.
    Node(i32),
    /// `highlight batch 41-44` (or `batch 41`): the metadata-log batches holding these offsets.
    Batch {
        /// First offset.
        first: i64,
        /// Last offset.
        last: i64,
    },
    /// `highlight offset 43`: the batch holding this record offset.
    Offset(i64),
    /// `highlight partition orders-0`: a data partition.
    Partition {
        /// The topic.
        topic: String,
        /// The partition.
        partition: i32,
    },
    /// `highlight session 3`: a broker's session on the active controller.
    Session(i32),
}

impl fmt::Display for Highlight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Highlight::Node(id) => write!(f, "node {id}"),
            Highlight::Batch { first, last } if first == last => write!(f, "batch {first}"),
            Highlight::Batch { first, last } => write!(f, "batch {first}-{last}"),
            Highlight::Offset(o) => write!(f, "offset {o}"),
            Highlight::Partition { topic, partition } => {
                write!(f, "partition {topic}-{partition}")
            }
            Highlight::Session(id) => write!(f, "session {id}"),
        }
    }
}

impl Highlight {
    /// Whether the batch `[base, last]` of a metadata log is lit by this highlight.
    pub fn lights_batch(&self, base: i64, last: i64) -> bool {
        match *self {
            Highlight::Batch { first, last: l } => base <= l && first <= last,
            Highlight::Offset(o) => base <= o && o <= last,
            _ => false,
        }
    }
}

/// A stage directive of a lesson.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Directive {
    /// `focus 102`: select the node (its state diagram, log, image); dim the others.
    Focus(i32),
    /// `show hw`: the side panel the step talks about.
    Show(Panel),
    /// `highlight batch 41-44`: light something.
    Highlight(Highlight),
    /// `labels Fetch,BrokerHeartbeat` (or `labels none`): message kinds drawn with a label on
    /// every message (others: one label per link, none for fetch and heartbeat chatter).
    Labels(Vec<String>),
}

/// The message kinds `labels` accepts (the API part of a message kind).
pub const LABEL_KINDS: [&str; 10] = [
    "Vote",
    "PreVote",
    "BeginQuorumEpoch",
    "EndQuorumEpoch",
    "Fetch",
    "FetchSnapshot",
    "BrokerHeartbeat",
    "BrokerRegistration",
    "AlterPartition",
    "ReplicaFetch",
];

/// The words that start a directive line.
pub const DIRECTIVES: [&str; 4] = ["focus", "show", "highlight", "labels"];

impl fmt::Display for Directive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Directive::Focus(id) => write!(f, "focus {id}"),
            Directive::Show(p) => write!(f, "show {}", p.name()),
            Directive::Highlight(h) => write!(f, "highlight {h}"),
            Directive::Labels(kinds) if kinds.is_empty() => write!(f, "labels none"),
            Directive::Labels(kinds) => write!(f, "labels {}", kinds.join(",")),
        }
    }
}

/// A directive that does not parse: the 1-based column of the word at fault and what is wrong.
pub type DirectiveError = (usize, String);

fn node_id(word: &str) -> Result<i32, String> {
    word.parse::<i32>()
        .ok()
        .filter(|id| *id >= 0)
        .ok_or_else(|| format!("'{word}' is not a node id"))
}

fn offset(word: &str) -> Result<i64, String> {
    word.parse::<i64>()
        .ok()
        .filter(|o| *o >= 0)
        .ok_or_else(|| format!("'{word}' is not an offset"))
}

impl Directive {
    /// Whether `line` is a directive line (its first word is one of [`DIRECTIVES`]).
    pub fn is_directive(line: &str) -> bool {
        line.split_whitespace()
            .next()
            .is_some_and(|w| DIRECTIVES.contains(&w))
    }

    /// Reads a directive line.
    pub fn parse(line: &str) -> Result<Directive, DirectiveError> {
        // The column of the n-th word, for errors.
        let column = |n: usize| -> usize {
            let mut words = 0;
            let mut in_word = false;
            for (i, c) in line.char_indices() {
                if c.is_whitespace() {
                    in_word = false;
                } else if !in_word {
                    if words == n {
                        return line[..i].chars().count() + 1;
                    }
                    words += 1;
                    in_word = true;
                }
            }
            line.chars().count() + 1
        };
        let words = split_words(line).map_err(|e| (1, e))?;
        let at = |n: usize, msg: String| (column(n), msg);
        let arg = |n: usize, usage: &str| -> Result<&str, DirectiveError> {
            words
                .get(n)
                .map(String::as_str)
                .ok_or_else(|| at(n, format!("usage: {usage}")))
        };
        let extra = |n: usize| -> Result<(), DirectiveError> {
            match words.get(n) {
                Some(w) => Err(at(n, format!("unexpected '{w}'"))),
                None => Ok(()),
            }
        };
        let directive = match words.first().map(String::as_str) {
            Some("focus") => {
                let id = arg(1, "focus NODE").and_then(|w| node_id(w).map_err(|e| at(1, e)))?;
                extra(2)?;
                Directive::Focus(id)
            }
            Some("show") => {
                let name = arg(1, &format!("show PANEL ({})", Panel::names()))?;
                let panel = Panel::parse(name).ok_or_else(|| {
                    at(
                        1,
                        format!("unknown panel '{name}' (panels: {})", Panel::names()),
                    )
                })?;
                extra(2)?;
                Directive::Show(panel)
            }
            Some("highlight") => {
                let usage = "highlight node N | batch FIRST-LAST | offset N | partition TOPIC-N | session BROKER";
                let what = arg(1, usage)?;
                let value = arg(2, usage)?;
                let h = match what {
                    "node" => Highlight::Node(node_id(value).map_err(|e| at(2, e))?),
                    "session" => Highlight::Session(node_id(value).map_err(|e| at(2, e))?),
                    "offset" => Highlight::Offset(offset(value).map_err(|e| at(2, e))?),
                    "batch" => {
                        let (a, b) = value.split_once('-').unwrap_or((value, value));
                        let (first, last) = (
                            offset(a).map_err(|e| at(2, e))?,
                            offset(b).map_err(|e| at(2, e))?,
                        );
                        if first > last {
                            return Err(at(2, format!("batch {value}: {first} is after {last}")));
                        }
                        Highlight::Batch { first, last }
                    }
                    "partition" => {
                        let bad = || at(2, format!("'{value}' is not TOPIC-PARTITION (orders-0)"));
                        let (topic, p) = value.rsplit_once('-').ok_or_else(bad)?;
                        let partition = p.parse::<i32>().ok().filter(|p| *p >= 0);
                        match partition {
                            Some(partition) if !topic.is_empty() => Highlight::Partition {
                                topic: topic.to_string(),
                                partition,
                            },
                            _ => return Err(bad()),
                        }
                    }
                    other => {
                        return Err(at(
                            1,
                            format!(
                            "cannot highlight '{other}' (node, batch, offset, partition, session)"
                        ),
                        ))
                    }
                };
                extra(3)?;
                Directive::Highlight(h)
            }
            Some("labels") => {
                let list = arg(1, "labels KIND[,KIND...] | labels none")?;
                extra(2)?;
                if list == "none" {
                    Directive::Labels(Vec::new())
                } else {
                    let kinds = list
                        .split(',')
                        .map(|k| {
                            LABEL_KINDS
                                .iter()
                                .find(|x| **x == k)
                                .map(|x| x.to_string())
                                .ok_or_else(|| {
                                    at(
                                        1,
                                        format!(
                                            "unknown message kind '{k}' (kinds: {}, or none)",
                                            LABEL_KINDS.join(", ")
                                        ),
                                    )
                                })
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    Directive::Labels(kinds)
                }
            }
            _ => return Err((1, "not a directive".into())),
        };
        Ok(directive)
    }

    /// The node ids it names (checked against the cluster by `kraft check`).
    pub fn node_ids(&self) -> Vec<i32> {
        match self {
            Directive::Focus(id)
            | Directive::Highlight(Highlight::Node(id))
            | Directive::Highlight(Highlight::Session(id)) => vec![*id],
            _ => Vec::new(),
        }
    }
}

/// What the stage shows after a step ran.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stage {
    /// The node in focus (selected, the others dimmed).
    pub focus: Option<i32>,
    /// The side panel.
    pub panel: Option<Panel>,
    /// What is lit.
    pub highlights: Vec<Highlight>,
    /// Message kinds drawn with a label on every message.
    pub labels: Vec<String>,
    /// Whether the focus, panel or highlights came from the step's directives (not from its
    /// command or from an earlier step).
    pub directed: bool,
}

/// The node a command names as its subject: `kill -9 101`, `start 101`, `transitions 102`,
/// `records 100`, `cat 103/__cluster_metadata-0/quorum-state`, `run until=fenced=3`, ...
fn subject(words: &[String]) -> Option<i32> {
    let first = |w: Option<&String>| w.and_then(|w| w.parse::<i32>().ok());
    let path_node = |w: &String| {
        w.split('/')
            .next()
            .and_then(|n| n.parse::<i32>().ok())
            .filter(|_| w.contains('/'))
    };
    match words.first().map(String::as_str)? {
        "kill" => first(words.get(2)),
        "start" | "slow" | "add-broker" | "transitions" | "records" | "record-types"
        | "controller" => first(words.get(1)),
        "run" => words.iter().find_map(|w| {
            w.strip_prefix("until=")
                .and_then(|c| c.split_once('='))
                .filter(|(k, _)| matches!(*k, "fenced" | "unfenced" | "leader"))
                .and_then(|(_, v)| v.parse().ok())
        }),
        _ => words.iter().skip(1).find_map(path_node),
    }
}

/// The panel a command's output is about, when it has one.
fn panel_of(words: &[String]) -> Option<Panel> {
    let cmd = words.first()?.rsplit('/').next()?;
    let path = words.iter().skip(1).find(|w| w.contains('/'));
    Some(match cmd {
        "kill" | "start" | "slow" | "transitions" => Panel::States,
        "add-broker" => Panel::Brokers,
        "records" | "record-types" => Panel::Log,
        "controller" => Panel::Controller,
        "timeline" => Panel::Timeline,
        "status" => Panel::Processes,
        "run"
            if words
                .iter()
                .any(|w| w.starts_with("until=fenced") || w.starts_with("until=unfenced")) =>
        {
            Panel::Brokers
        }
        "kafka-topics.sh" | "kafka-topics" => Panel::Partitions,
        "kafka-metadata-quorum.sh" | "kafka-metadata-quorum" => Panel::Hw,
        "kafka-dump-log.sh" | "kafka-dump-log" => Panel::Log,
        "kafka-metadata-shell.sh"
        | "kafka-metadata-shell"
        | "kafka-configs.sh"
        | "kafka-configs" => Panel::Image,
        "cat" | "grep" | "head" | "tail" | "ls" => match path {
            Some(p) if p.ends_with("quorum-state") => Panel::States,
            Some(p) if p.ends_with(".log") && p.contains("__cluster_metadata") => Panel::Log,
            Some(p) if p.ends_with("server.log") || p.ends_with("controller.log") => Panel::Tail,
            Some(p) if p.contains("__cluster_metadata") => Panel::Log,
            _ => Panel::Tail,
        },
        _ => return None,
    })
}

/// What a `kill`, `run until=fenced=` (and the like) lights by default.
fn highlight_of(words: &[String]) -> Vec<Highlight> {
    match words.first().map(String::as_str) {
        Some("run") => words
            .iter()
            .find_map(|w| {
                let (k, v) = w.strip_prefix("until=")?.split_once('=')?;
                let id = v.parse().ok()?;
                matches!(k, "fenced" | "unfenced").then_some(Highlight::Session(id))
            })
            .into_iter()
            .collect(),
        _ => Vec::new(),
    }
}

impl Stage {
    /// The stage after `step`, following `before` (the stage after the step before it).
    pub fn after(step: &Step, before: &Stage) -> Stage {
        let words = split_words(&step.command).unwrap_or_default();
        let mut stage = Stage {
            focus: before.focus,
            panel: before.panel,
            highlights: Vec::new(),
            labels: before.labels.clone(),
            directed: false,
        };
        if words.first().map(String::as_str) == Some("cluster") {
            stage = Stage::default();
        }
        let (mut focus, mut panel, mut lit) = (None, None, Vec::new());
        for d in &step.directives {
            match d {
                Directive::Focus(id) => focus = Some(*id),
                Directive::Show(p) => panel = Some(*p),
                Directive::Highlight(h) => lit.push(h.clone()),
                Directive::Labels(kinds) => stage.labels = kinds.clone(),
            }
        }
        stage.directed = focus.is_some() || panel.is_some() || !lit.is_empty();
        stage.focus = focus.or_else(|| subject(&words)).or(stage.focus);
        stage.panel = panel.or_else(|| panel_of(&words)).or(stage.panel);
        stage.highlights = if lit.is_empty() {
            highlight_of(&words)
        } else {
            lit
        };
        stage
    }

    /// The stage after each step of `lesson` (index k: after step k + 1 ran); the stage before
    /// the first step is [`Stage::default`].
    pub fn of_lesson(lesson: &Lesson) -> Vec<Stage> {
        let mut out: Vec<Stage> = Vec::with_capacity(lesson.steps.len());
        let mut before = Stage::default();
        for step in &lesson.steps {
            let s = Stage::after(step, &before);
            before = s.clone();
            out.push(s);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_parse_and_print_back() {
        for text in [
            "focus 102",
            "show hw",
            "show timeline",
            "highlight node 3",
            "highlight batch 41-44",
            "highlight batch 7",
            "highlight offset 43",
            "highlight partition orders-0",
            "highlight partition my-topic-12",
            "highlight session 3",
            "labels Fetch,BrokerHeartbeat",
            "labels none",
        ] {
            let d = Directive::parse(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            assert_eq!(d.to_string(), text);
        }
        assert_eq!(
            Directive::parse("highlight partition my-topic-12").unwrap(),
            Directive::Highlight(Highlight::Partition {
                topic: "my-topic".into(),
                partition: 12
            })
        );
    }

    #[test]
    fn bad_directives_name_the_word_at_fault() {
        let e = |t: &str| Directive::parse(t).unwrap_err();
        assert_eq!(e("focus abc"), (7, "'abc' is not a node id".into()));
        assert_eq!(e("focus").1, "usage: focus NODE");
        assert_eq!(e("show  hws").0, 7);
        assert!(e("show hws").1.contains("unknown panel 'hws'"));
        assert!(e("show hws").1.contains("states, hw, log"));
        assert_eq!(e("highlight batch 44-41").0, 17);
        assert!(e("highlight batch 4x").1.contains("not an offset"));
        assert!(e("highlight thing 1").1.contains("cannot highlight"));
        assert!(e("highlight partition orders")
            .1
            .contains("TOPIC-PARTITION"));
        assert!(e("labels Fetch,Nope")
            .1
            .contains("unknown message kind 'Nope'"));
        assert_eq!(e("focus 1 2"), (9, "unexpected '2'".into()));
        assert!(e("focus 99999999999").1.contains("not a node id"));
    }

    fn stages(text: &str) -> Vec<Stage> {
        Stage::of_lesson(&Lesson::parse("x.lesson", text).unwrap())
    }

    #[test]
    fn commands_give_defaults_and_directives_win() {
        let s = stages(
            "cluster seed=1\n\nkill -9 101\n\nsleep 15s\n\nfocus 103\nshow hw\ntransitions 102\n\nkafka-topics.sh --describe\n\nrun until=fenced=3\n\ncat 103/__cluster_metadata-0/quorum-state\n\nhighlight batch 41-44\nkafka-dump-log.sh --files 1/__cluster_metadata-0/00000000000000000000.log\n",
        );
        assert_eq!((s[0].focus, s[0].panel), (None, None));
        assert_eq!((s[1].focus, s[1].panel), (Some(101), Some(Panel::States)));
        assert!(!s[1].directed);
        assert_eq!(
            (s[2].focus, s[2].panel),
            (Some(101), Some(Panel::States)),
            "a wait carries the stage"
        );
        assert_eq!((s[3].focus, s[3].panel), (Some(103), Some(Panel::Hw)));
        assert!(s[3].directed);
        assert_eq!(
            (s[4].focus, s[4].panel),
            (Some(103), Some(Panel::Partitions))
        );
        assert_eq!((s[5].focus, s[5].panel), (Some(3), Some(Panel::Brokers)));
        assert_eq!(s[5].highlights, vec![Highlight::Session(3)]);
        assert_eq!((s[6].focus, s[6].panel), (Some(103), Some(Panel::States)));
        assert!(
            s[6].highlights.is_empty(),
            "highlights belong to their step"
        );
        assert_eq!((s[7].focus, s[7].panel), (Some(1), Some(Panel::Log)));
        assert_eq!(
            s[7].highlights,
            vec![Highlight::Batch {
                first: 41,
                last: 44
            }]
        );
        assert!(s[7].highlights[0].lights_batch(41, 44));
        assert!(s[7].highlights[0].lights_batch(40, 41));
        assert!(!s[7].highlights[0].lights_batch(45, 50));
    }
}
