//! The stage directives of a lesson (`focus 102`, `show states`, `highlight batch 41-44`,
//! `labels Fetch`): what they name (a [`Panel`], a [`Highlight`], message kinds), how a
//! directive line parses and how it prints back. What the stage then shows is in `stage`.

use std::fmt;

use super::console::split_words;
use crate::common::api_keys::ApiKeys;

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
    /// The sequence diagram: messages between the nodes over recent virtual time.
    Sequence,
    /// The life of the active controller's last write (the article's section 3), alone.
    Write,
    /// The rule switches and the invariants (which hold, which broke and where).
    Rules,
    /// The two high watermarks side by side: the metadata log's (the offset a majority of the
    /// voters holds) and a data partition's (the smallest log end offset of its ISR).
    HwTwo,
}

impl Panel {
    /// Every panel, in the order of the stage's tabs.
    pub const ALL: [Panel; 15] = [
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
        Panel::Sequence,
        Panel::Write,
        Panel::Rules,
        Panel::HwTwo,
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
            Panel::Sequence => "sequence",
            Panel::Write => "write",
            Panel::Rules => "rules",
            Panel::HwTwo => "hw-two",
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
    /// `labels Fetch,BrokerHeartbeat` (or `labels none`): the APIs whose messages are drawn
    /// with a label on every message (others: one label per link, none for fetch and
    /// heartbeat chatter).
    Labels(Vec<ApiKeys>),
}

/// The words that start a directive line.
pub const DIRECTIVES: [&str; 4] = ["focus", "show", "highlight", "labels"];

impl fmt::Display for Directive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Directive::Focus(id) => write!(f, "focus {id}"),
            Directive::Show(p) => write!(f, "show {}", p.name()),
            Directive::Highlight(h) => write!(f, "highlight {h}"),
            Directive::Labels(kinds) if kinds.is_empty() => write!(f, "labels none"),
            Directive::Labels(apis) => {
                let names: Vec<&str> = apis.iter().map(|a| a.name()).collect();
                write!(f, "labels {}", names.join(","))
            }
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
        let words = split_words(line).map_err(|e| (1, e))?;
        let w = Words {
            line,
            words: &words,
        };
        match words.first().map(String::as_str) {
            Some("focus") => parse_focus(&w),
            Some("show") => parse_show(&w),
            Some("highlight") => parse_highlight(&w),
            Some("labels") => parse_labels(&w),
            _ => Err((1, "not a directive".into())),
        }
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

/// The words of a directive line, with the line itself to place errors at a word's column.
struct Words<'a> {
    line: &'a str,
    words: &'a [String],
}

impl Words<'_> {
    /// The 1-based column of the n-th word (just past the line's end when there is none).
    fn column(&self, n: usize) -> usize {
        let line = self.line;
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
    }

    /// An error at the n-th word.
    fn at(&self, n: usize, msg: String) -> DirectiveError {
        (self.column(n), msg)
    }

    /// The n-th word, or a usage error at where it should be.
    fn arg(&self, n: usize, usage: &str) -> Result<&str, DirectiveError> {
        self.words
            .get(n)
            .map(String::as_str)
            .ok_or_else(|| self.at(n, format!("usage: {usage}")))
    }

    /// No n-th word (nothing after the directive's arguments).
    fn extra(&self, n: usize) -> Result<(), DirectiveError> {
        match self.words.get(n) {
            Some(w) => Err(self.at(n, format!("unexpected '{w}'"))),
            None => Ok(()),
        }
    }
}

/// `focus NODE`.
fn parse_focus(w: &Words) -> Result<Directive, DirectiveError> {
    let id = w
        .arg(1, "focus NODE")
        .and_then(|word| node_id(word).map_err(|e| w.at(1, e)))?;
    w.extra(2)?;
    Ok(Directive::Focus(id))
}

/// `show PANEL`.
fn parse_show(w: &Words) -> Result<Directive, DirectiveError> {
    let name = w.arg(1, &format!("show PANEL ({})", Panel::names()))?;
    let panel = Panel::parse(name).ok_or_else(|| {
        w.at(
            1,
            format!("unknown panel '{name}' (panels: {})", Panel::names()),
        )
    })?;
    w.extra(2)?;
    Ok(Directive::Show(panel))
}

/// `highlight node N | batch FIRST-LAST | offset N | partition TOPIC-N | session BROKER`.
fn parse_highlight(w: &Words) -> Result<Directive, DirectiveError> {
    let usage =
        "highlight node N | batch FIRST-LAST | offset N | partition TOPIC-N | session BROKER";
    let what = w.arg(1, usage)?;
    let value = w.arg(2, usage)?;
    let h = match what {
        "node" => Highlight::Node(node_id(value).map_err(|e| w.at(2, e))?),
        "session" => Highlight::Session(node_id(value).map_err(|e| w.at(2, e))?),
        "offset" => Highlight::Offset(offset(value).map_err(|e| w.at(2, e))?),
        "batch" => highlight_batch(w, value)?,
        "partition" => highlight_partition(w, value)?,
        other => {
            return Err(w.at(
                1,
                format!("cannot highlight '{other}' (node, batch, offset, partition, session)"),
            ))
        }
    };
    w.extra(3)?;
    Ok(Directive::Highlight(h))
}

/// `highlight batch FIRST-LAST` (or `batch N`).
fn highlight_batch(w: &Words, value: &str) -> Result<Highlight, DirectiveError> {
    let (a, b) = value.split_once('-').unwrap_or((value, value));
    let (first, last) = (
        offset(a).map_err(|e| w.at(2, e))?,
        offset(b).map_err(|e| w.at(2, e))?,
    );
    if first > last {
        return Err(w.at(2, format!("batch {value}: {first} is after {last}")));
    }
    Ok(Highlight::Batch { first, last })
}

/// `highlight partition TOPIC-N` (the topic may hold dashes: the last one splits).
fn highlight_partition(w: &Words, value: &str) -> Result<Highlight, DirectiveError> {
    let bad = || w.at(2, format!("'{value}' is not TOPIC-PARTITION (orders-0)"));
    let (topic, p) = value.rsplit_once('-').ok_or_else(bad)?;
    let partition = p.parse::<i32>().ok().filter(|p| *p >= 0);
    match partition {
        Some(partition) if !topic.is_empty() => Ok(Highlight::Partition {
            topic: topic.to_string(),
            partition,
        }),
        _ => Err(bad()),
    }
}

/// `labels KIND[,KIND...]` or `labels none`.
fn parse_labels(w: &Words) -> Result<Directive, DirectiveError> {
    let list = w.arg(1, "labels KIND[,KIND...] | labels none")?;
    w.extra(2)?;
    if list == "none" {
        return Ok(Directive::Labels(Vec::new()));
    }
    let kinds = list
        .split(',')
        .map(|k| {
            ApiKeys::from_name(k).ok_or_else(|| {
                let names: Vec<&str> = ApiKeys::ALL.iter().map(|a| a.name()).collect();
                w.at(
                    1,
                    format!(
                        "unknown message kind '{k}' (kinds: {}, or none)",
                        names.join(", ")
                    ),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Directive::Labels(kinds))
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
            "show hw-two",
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
        assert!(e("show hw-2").1.contains("unknown panel 'hw-2'"));
        assert!(e("show hw-2").1.contains("rules, hw-two"));
        assert_eq!(e("show hw-two now").0, 13);
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
}
