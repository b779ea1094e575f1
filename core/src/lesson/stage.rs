//! What the lecture stage shows at each step of a lesson: the node in focus, the one side panel
//! the step talks about, what is lit, and which message kinds carry labels. A lesson says it
//! with directives (`focus 102`, `show states`, `highlight batch 41-44`, `labels Fetch`); a step
//! without them gets defaults from its command (`kill -9 101` focuses 101, `kafka-topics.sh`
//! shows the partitions, ...). Focus, panel and labels carry over to the next steps; highlights
//! belong to their step. The directives themselves (and the panels and highlights they name)
//! are in `directive`.

use super::console::split_words;
use crate::common::api_keys::ApiKeys;
// Re-exported so `lesson::stage::{Panel, Highlight, ...}` keep naming them.
pub use super::directive::{Directive, DirectiveError, Highlight, Panel, DIRECTIVES};
use super::parse::{Lesson, Step};

/// What the stage shows after a step ran.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stage {
    /// The node in focus (selected, the others dimmed).
    pub focus: Option<i32>,
    /// The side panel.
    pub panel: Option<Panel>,
    /// What is lit.
    pub highlights: Vec<Highlight>,
    /// The APIs whose messages are drawn with a label on every message.
    pub labels: Vec<ApiKeys>,
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
