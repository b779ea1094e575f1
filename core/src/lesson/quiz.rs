//! Predict, then see: a `quiz` on a lesson step asks the room a question before the step runs;
//! the answer is a fact read from the engine once the step has run, never written in the file.
//!
//! ```text
//! #quiz-ko: 어느 컨트롤러가 새 리더가 될까요?
//! #quiz-en: Which controller becomes the new leader?
//! quiz leader choices=101,102,103
//! run until=leader-changed timeout=10s
//! ```
//!
//! Facts: `leader`, `epoch` (the Raft leader and its epoch, `none` without one), `active` (the
//! active controller), `state(N)` (node N's Raft state, or its process state), `fenced(N)`
//! (`yes`/`no`: the active controller has broker N fenced), `hw-moves` (`yes`/`no`: the
//! leader's high watermark after the step is past the one before it), `voters` (how many
//! voters the set in force has, KIP-853), `voter(N)` (`yes`/`no`: node N is one of them),
//! `hw(T-P)` (data partition T-P's high watermark at its leader, `none` without one) and
//! `in-isr(T-P,N)` (`yes`/`no`: broker N is in the ISR its leader has).

use std::fmt;

use super::narration::Narration;
use crate::sim::World;

/// The fact a quiz asks about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fact {
    /// The Raft leader's id.
    Leader,
    /// The Raft leader's epoch.
    Epoch,
    /// The active controller's id.
    Active,
    /// Node N's Raft state (`Follower`, `Candidate`, ...), or its process state.
    State(i32),
    /// Whether the active controller has broker N fenced.
    Fenced(i32),
    /// Whether the leader's high watermark moves during the step.
    HwMoves,
    /// How many voters the voter set in force has (KIP-853: it changes).
    Voters,
    /// Whether node N is a voter of the set in force.
    Voter(i32),
    /// A data partition's (`orders-0`) high watermark at its leader.
    DataHw(String),
    /// Whether broker N is in a data partition's ISR, as its leader has it.
    InIsr(String, i32),
}

/// A question to the room on a step, with its choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quiz {
    /// What the answer is read from.
    pub fact: Fact,
    /// The choices, in order (2 to 6).
    pub choices: Vec<String>,
    /// The question, per language (`#quiz-ko:`, `#quiz-en:`, `#quiz:`).
    pub question: Vec<Narration>,
}

/// The facts, as an error lists them.
const FACTS: &str =
    "leader, epoch, active, state(N), fenced(N), hw-moves, voters, voter(N), hw(T-P), in-isr(T-P,N)";

/// How a quiz line starts.
pub const QUIZ: &str = "quiz ";
/// How a quiz's question line starts (`#quiz:`, `#quiz-ko:`, `#quiz-en:`).
pub const QUESTION: &str = "#quiz";

impl fmt::Display for Fact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fact::Leader => write!(f, "leader"),
            Fact::Epoch => write!(f, "epoch"),
            Fact::Active => write!(f, "active"),
            Fact::State(n) => write!(f, "state({n})"),
            Fact::Fenced(n) => write!(f, "fenced({n})"),
            Fact::HwMoves => write!(f, "hw-moves"),
            Fact::Voters => write!(f, "voters"),
            Fact::Voter(n) => write!(f, "voter({n})"),
            Fact::DataHw(p) => write!(f, "hw({p})"),
            Fact::InIsr(p, n) => write!(f, "in-isr({p},{n})"),
        }
    }
}

impl fmt::Display for Quiz {
    /// The `quiz FACT choices=A,B` line (the question lines are written by the lesson).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "quiz {} choices={}", self.fact, self.choices.join(","))
    }
}

/// A node id in `name(N)`.
fn node_in(word: &str, name: &str) -> Option<Result<i32, String>> {
    let inner = word
        .strip_prefix(name)?
        .strip_prefix('(')?
        .strip_suffix(')')?;
    Some(
        inner
            .parse::<i32>()
            .ok()
            .filter(|n| *n >= 0)
            .ok_or_else(|| format!("bad node id '{inner}' in '{word}'")),
    )
}

impl Fact {
    /// Parses a fact's name; `Err` says which facts exist.
    pub fn parse(word: &str) -> Result<Fact, String> {
        let fact = match word {
            "leader" => Fact::Leader,
            "epoch" => Fact::Epoch,
            "active" => Fact::Active,
            "hw-moves" => Fact::HwMoves,
            "voters" => Fact::Voters,
            w if w.starts_with("hw(") || w.starts_with("in-isr(") => return data_fact(w),
            w => match (
                node_in(w, "state"),
                node_in(w, "fenced"),
                node_in(w, "voter"),
            ) {
                (Some(n), _, _) => Fact::State(n?),
                (_, Some(n), _) => Fact::Fenced(n?),
                (_, _, Some(n)) => Fact::Voter(n?),
                _ => return Err(format!("unknown fact '{w}' ({FACTS})")),
            },
        };
        Ok(fact)
    }

    /// The node the fact names, if any (it must exist once the step ran).
    pub fn node(&self) -> Option<i32> {
        match self {
            Fact::State(n) | Fact::Fenced(n) | Fact::Voter(n) | Fact::InIsr(_, n) => Some(*n),
            _ => None,
        }
    }

    /// What the fact reads in `world` (`none` without a world or a leader).
    pub(crate) fn read(&self, world: Option<&World>, before: Option<i64>) -> String {
        let Some(w) = world else {
            return "none".into();
        };
        let or_none = |v: Option<String>| v.unwrap_or_else(|| "none".into());
        let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
        match self {
            Fact::Leader => or_none(w.leader().map(|l| l.0.to_string())),
            Fact::Epoch => or_none(w.leader().map(|l| l.1.to_string())),
            Fact::Active => or_none(w.active_controller().map(|c| c.to_string())),
            Fact::State(id) => or_none(w.node(*id).map(|n| {
                n.raft
                    .as_ref()
                    .map(|r| r.state().name().to_string())
                    .unwrap_or_else(|| n.process.name().to_string())
            })),
            Fact::Fenced(id) => yes_no(w.active_registration(*id).is_some_and(|b| b.record.fenced)),
            Fact::HwMoves => yes_no(leader_hw(w) > before),
            Fact::Voters => w.voter_set().len().to_string(),
            Fact::Voter(id) => yes_no(w.voter_set().contains_id(*id)),
            Fact::DataHw(name) => {
                or_none(data_leader(w, name).map(|p| p.high_watermark.to_string()))
            }
            Fact::InIsr(name, id) => {
                yes_no(data_leader(w, name).is_some_and(|p| p.isr.contains(id)))
            }
        }
    }
}

/// `hw(orders-0)` or `in-isr(orders-0,3)`: a data partition's name (a topic, `-`, an index)
/// and, for `in-isr`, a broker id.
fn data_fact(word: &str) -> Result<Fact, String> {
    let bad =
        || format!("bad fact '{word}': write hw(TOPIC-P) or in-isr(TOPIC-P,N), e.g. hw(orders-0)");
    let (head, inner) = word
        .strip_suffix(')')
        .and_then(|w| w.split_once('('))
        .ok_or_else(bad)?;
    let partition_ok = |p: &str| {
        p.rsplit_once('-').is_some_and(|(t, i)| {
            !t.is_empty()
                && t.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
                && i.parse::<u32>().is_ok()
        })
    };
    match head {
        "hw" if partition_ok(inner) => Ok(Fact::DataHw(inner.to_string())),
        "in-isr" => {
            let (p, n) = inner.split_once(',').ok_or_else(bad)?;
            let n = n.trim().parse::<i32>().map_err(|_| bad())?;
            if partition_ok(p) {
                Ok(Fact::InIsr(p.to_string(), n))
            } else {
                Err(bad())
            }
        }
        _ => Err(bad()),
    }
}

/// The leader of data partition `name` among the running brokers (the newest leader epoch).
fn data_leader<'a>(w: &'a World, name: &str) -> Option<&'a crate::broker::partition::Partition> {
    w.nodes()
        .filter(|n| n.process == crate::sim::node::ProcessState::Running)
        .filter_map(|n| n.replicas.as_ref())
        .flat_map(|rm| rm.partitions.values())
        .filter(|p| p.is_leader() && p.name() == name)
        .max_by_key(|p| p.leader_epoch)
}

/// The Raft leader's high watermark, if there is a leader that knows one.
fn leader_hw(w: &World) -> Option<i64> {
    let (id, _) = w.leader()?;
    w.node(id)?.raft.as_ref()?.high_watermark()
}

impl Quiz {
    /// Parses a `quiz FACT choices=A,B,...` line; `Err` with the 1-based column and what is
    /// wrong.
    pub fn parse(line: &str) -> Result<Quiz, (usize, String)> {
        let usage = format!("a quiz is `quiz FACT choices=A,B,C` (FACT: {FACTS})");
        let rest = line
            .strip_prefix(QUIZ)
            .ok_or((1, format!("not a quiz line: {usage}")))?;
        let col = |word: &str| line.find(word).map_or(1, |c| c + 1);
        let words: Vec<&str> = rest.split_whitespace().collect();
        let [fact, choices] = words[..] else {
            return Err((QUIZ.len() + 1, usage.to_string()));
        };
        let fact = Fact::parse(fact).map_err(|e| (col(fact), e))?;
        let list = choices
            .strip_prefix("choices=")
            .ok_or((col(choices), format!("expected choices=A,B,...: {usage}")))?;
        let choices: Vec<String> = list.split(',').map(|c| c.trim().to_string()).collect();
        if choices
            .iter()
            .any(|c| c.is_empty() || c.chars().count() > 24)
        {
            return Err((
                col(list),
                "a choice is empty or longer than 24 characters".into(),
            ));
        }
        if !(2..=6).contains(&choices.len()) {
            return Err((
                col(list),
                format!("a quiz has 2 to 6 choices, not {}", choices.len()),
            ));
        }
        if let Some(dup) = choices
            .iter()
            .enumerate()
            .find(|(i, c)| choices[..*i].contains(c))
        {
            return Err((col(list), format!("the choice '{}' is listed twice", dup.1)));
        }
        Ok(Quiz {
            fact,
            choices,
            question: Vec::new(),
        })
    }

    /// What is read before the step runs (the leader's high watermark, for `hw-moves`).
    pub fn before(&self, world: Option<&World>) -> Option<i64> {
        world.and_then(leader_hw)
    }

    /// The answer once the step ran: the fact read from `world`; `Err` when it is not one of
    /// the choices (the lesson's choices miss what the engine did).
    pub fn answer(&self, before: Option<i64>, world: Option<&World>) -> Result<String, String> {
        let answer = self.fact.read(world, before);
        if self.choices.contains(&answer) {
            Ok(answer)
        } else {
            Err(format!(
                "the quiz's answer is {} = {answer}, which is not among its choices {}",
                self.fact,
                self.choices.join(",")
            ))
        }
    }

    /// The question in `lang` (`ko`/`en`), else the one for every language, else any.
    pub fn question_in(&self, lang: &str) -> String {
        let of = |l: &str| self.question.iter().find(|n| n.lang == l);
        of(lang)
            .or_else(|| of("any"))
            .or_else(|| self.question.first())
            .map(|n| n.text.clone())
            .unwrap_or_default()
    }
}

/// A question line: the text of a `#quiz…` line after `#quiz` (`: text`, `-ko: text`,
/// `-en: text`); `Err` with the 1-based column and what is wrong.
pub fn parse_question(rest: &str) -> Result<Narration, (usize, String)> {
    let usage = "a quiz question is `#quiz: text`, `#quiz-ko: text` or `#quiz-en: text`";
    let (lang, text) = if let Some(t) = rest.strip_prefix(':') {
        ("any", t)
    } else if let Some((lang, t)) = rest.strip_prefix('-').and_then(|r| r.split_once(':')) {
        if lang != "ko" && lang != "en" {
            return Err((
                QUESTION.len() + 2,
                format!("unknown language '{lang}': {usage}"),
            ));
        }
        (lang, t)
    } else {
        return Err((QUESTION.len() + 1, usage.to_string()));
    };
    if text.trim().is_empty() {
        return Err((QUESTION.len() + 1, format!("an empty question: {usage}")));
    }
    Ok(Narration {
        lang: lang.to_string(),
        text: text.trim().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_facts_and_choices() {
        let q = Quiz::parse("quiz leader choices=101,102,103").unwrap();
        assert_eq!(q.fact, Fact::Leader);
        assert_eq!(q.choices, ["101", "102", "103"]);
        assert_eq!(q.to_string(), "quiz leader choices=101,102,103");
        let q = Quiz::parse("quiz state(103) choices=Follower,Candidate").unwrap();
        assert_eq!(q.fact, Fact::State(103));
        assert_eq!(
            Fact::parse("hw(orders-0)"),
            Ok(Fact::DataHw("orders-0".into()))
        );
        assert_eq!(
            Fact::parse("in-isr(my.topic-12,3)"),
            Ok(Fact::InIsr("my.topic-12".into(), 3))
        );
        for bad in [
            "hw(orders)",
            "hw()",
            "in-isr(orders-0)",
            "in-isr(orders-0,x)",
            "hw(o-0",
        ] {
            assert!(
                Fact::parse(bad).unwrap_err().contains("hw(TOPIC-P)"),
                "{bad}"
            );
        }
        assert_eq!(
            Quiz::parse("quiz fenced(3) choices=yes,no").unwrap().fact,
            Fact::Fenced(3)
        );
        assert_eq!(
            Quiz::parse("quiz hw-moves choices=yes,no").unwrap().fact,
            Fact::HwMoves
        );
    }

    #[test]
    fn bad_quiz_lines_say_where_and_why() {
        let err = |l: &str| Quiz::parse(l).unwrap_err();
        assert_eq!(err("quiz bogus choices=a,b").0, 6);
        assert!(err("quiz bogus choices=a,b").1.contains("unknown fact"));
        assert!(err("quiz leader choices=101").1.contains("2 to 6"));
        assert!(err("quiz leader choices=1,2,1").1.contains("twice"));
        assert!(err("quiz leader choices=1,,2").1.contains("empty"));
        assert!(err("quiz leader 101,102").1.contains("choices="));
        assert!(err("quiz leader").1.contains("quiz FACT"));
        assert!(err("quiz state(x) choices=a,b").1.contains("bad node id"));
        assert!(err("quiz state(-1) choices=a,b").1.contains("bad node id"));
    }

    #[test]
    fn questions_have_a_language() {
        assert_eq!(parse_question("-en: Who leads?").unwrap().lang, "en");
        assert_eq!(parse_question(": 누구?").unwrap().lang, "any");
        assert!(parse_question("-fr: Qui?").is_err());
        assert!(parse_question("-en:   ").is_err());
        assert!(parse_question(" who").is_err());
    }

    #[test]
    fn the_answer_must_be_a_choice() {
        let q = Quiz::parse("quiz leader choices=101,102").unwrap();
        assert_eq!(
            q.answer(None, None).unwrap_err(),
            "the quiz's answer is leader = none, which is not among its choices 101,102"
        );
        let q = Quiz::parse("quiz leader choices=101,none").unwrap();
        assert_eq!(q.answer(None, None).unwrap(), "none");
    }
}
