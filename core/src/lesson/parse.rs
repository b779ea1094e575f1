//! The lesson file format, datadriven like etcd raft's testdata: narration lines, a command
//! line, `----`, the expected output up to a blank line (or, when the output itself has blank
//! lines, between `----`/`----` pairs), `pause` markers.
//!
//! ```text
//! #ko: 컨트롤러 세 대로 클러스터를 띄웁니다.
//! #en: Start a cluster of three controllers.
//! cluster controllers=101,102,103 brokers=1 seed=7
//!
//! run until=leader timeout=10s
//! ----
//! leader 101 epoch 1 at 1.180s
//!
//! pause
//! ```

use std::fmt;

use super::directive::Directive;
use super::quiz::{parse_question, Quiz, QUESTION, QUIZ};

pub use super::narration::Narration;

/// One step of a lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Narration shown before the command.
    pub narration: Vec<Narration>,
    /// Stage directives (`focus`, `show`, `highlight`, `labels`) for this step.
    pub directives: Vec<Directive>,
    /// Speaker notes for this step (`#note:` lines; the language is `ko`, `en` or `any`):
    /// shown in the presenter's window only, never run or checked.
    pub notes: Vec<Narration>,
    /// The command line (empty for a narration-only `pause`).
    pub command: String,
    /// Expected output, if the step pins it.
    pub expected: Option<String>,
    /// A question to the room before the step runs (`quiz` and `#quiz-ko:`/`#quiz-en:`
    /// lines), answered by the engine once it ran.
    pub quiz: Option<Quiz>,
    /// Whether the lecturer stops here to explain (a `pause` line after it).
    pub pause: bool,
    /// 1-based line of the command in the file.
    pub line: usize,
}

/// A parsed lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lesson {
    /// The file name, for messages.
    pub name: String,
    /// The `title:` line, if any (`#title:`).
    pub title: String,
    /// The Korean title (`#title-ko:`), if any.
    pub title_ko: String,
    /// The steps in order.
    pub steps: Vec<Step>,
}

/// A parse error with its location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// File name.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// The separator between a command and its expected output.
pub const SEPARATOR: &str = "----";

impl Lesson {
    /// Parse `text` (from file `name`).
    pub fn parse(name: &str, text: &str) -> Result<Lesson, ParseError> {
        let mut p = Parser {
            name,
            lines: text.lines().collect(),
            i: 0,
            steps: Vec::new(),
            narration: Vec::new(),
            directives: Vec::new(),
            notes: Vec::new(),
            quiz: None,
            questions: Vec::new(),
            title: String::new(),
            title_ko: String::new(),
        };
        while p.i < p.lines.len() {
            let raw = p.lines[p.i];
            let line = raw.trim_end();
            if line.trim().is_empty() {
                p.i += 1;
            } else if let Some(rest) = line.strip_prefix('#') {
                p.comment(rest)?;
                p.i += 1;
            } else if line == SEPARATOR {
                return Err(p.err(p.i + 1, 1, "'----' without a command before it".into()));
            } else if line.starts_with(QUIZ) || line == QUIZ.trim_end() {
                p.quiz(raw, line)?;
                p.i += 1;
            } else if Directive::is_directive(line) {
                p.directive(raw, line)?;
                p.i += 1;
            } else if line == "pause" {
                p.pause()?;
                p.i += 1;
            } else {
                p.command(raw, line)?;
            }
        }
        p.finish()
    }

    /// The lesson as text again, with `outputs` (one per step) as the expected blocks: what
    /// `kraft check --rewrite` writes.
    pub fn render(&self, outputs: &[Option<String>]) -> String {
        let mut out = String::new();
        if !self.title.is_empty() {
            out.push_str(&format!("#title: {}\n", self.title));
        }
        if !self.title_ko.is_empty() {
            out.push_str(&format!("#title-ko: {}\n", self.title_ko));
        }
        if !self.title.is_empty() || !self.title_ko.is_empty() {
            out.push('\n');
        }
        for (k, s) in self.steps.iter().enumerate() {
            for n in &s.narration {
                if n.lang == "any" {
                    out.push_str(&format!("# {}\n", n.text));
                } else {
                    out.push_str(&format!("#{}: {}\n", n.lang, n.text));
                }
            }
            for n in &s.notes {
                match n.lang.as_str() {
                    "any" => out.push_str(&format!("{NOTE}: {}\n", n.text)),
                    lang => out.push_str(&format!("{NOTE}-{lang}: {}\n", n.text)),
                }
            }
            if let Some(q) = &s.quiz {
                for n in &q.question {
                    match n.lang.as_str() {
                        "any" => out.push_str(&format!("{QUESTION}: {}\n", n.text)),
                        lang => out.push_str(&format!("{QUESTION}-{lang}: {}\n", n.text)),
                    }
                }
                out.push_str(&format!("{q}\n"));
            }
            for d in &s.directives {
                out.push_str(&format!("{d}\n"));
            }
            if !s.command.is_empty() {
                out.push_str(&s.command);
                out.push('\n');
                let output = outputs.get(k).cloned().flatten();
                if let Some(o) =
                    output.filter(|_| s.expected.is_some() || !s.command.starts_with("expect"))
                {
                    if o.is_empty() && s.expected.is_none() {
                        // Nothing printed and nothing pinned: keep the step bare.
                    } else if o.lines().any(|l| l.trim().is_empty()) {
                        out.push_str("----\n----\n");
                        out.push_str(&o);
                        out.push_str("\n----\n----\n");
                    } else {
                        out.push_str("----\n");
                        out.push_str(&o);
                        out.push('\n');
                    }
                }
            }
            if s.pause {
                if !s.command.is_empty() {
                    out.push('\n');
                }
                out.push_str("pause\n");
            }
            out.push('\n');
        }
        out.trim_end().to_string() + "\n"
    }
}

/// A lesson being parsed: the lines, where the parser is, the steps so far and what the next
/// step collects (narration and directives) before its command.
struct Parser<'a> {
    name: &'a str,
    lines: Vec<&'a str>,
    /// The 0-based index of the line being read.
    i: usize,
    steps: Vec<Step>,
    narration: Vec<Narration>,
    directives: Vec<Directive>,
    notes: Vec<Narration>,
    /// The `quiz` line of the next step, and its question lines.
    quiz: Option<(usize, Quiz)>,
    questions: Vec<(usize, Narration)>,
    title: String,
    title_ko: String,
}

impl Parser<'_> {
    /// An error at a 1-based line and column of the file.
    fn err(&self, line: usize, column: usize, message: String) -> ParseError {
        ParseError {
            file: self.name.to_string(),
            line,
            column,
            message,
        }
    }

    /// A `#` line (its text after `#`): `#title:`, `#title-ko:`, a speaker note (`#note:`,
    /// `#note-ko:`, `#note-en:`), or narration (`#ko:`, `#en:`, or a bare `#` for any language).
    fn comment(&mut self, rest: &str) -> Result<(), ParseError> {
        if let Some(q) = rest.strip_prefix(&QUESTION[1..]) {
            let n = parse_question(q).map_err(|(col, msg)| self.err(self.i + 1, col, msg))?;
            self.questions.push((self.i + 1, n));
            return Ok(());
        }
        if let Some(note) = rest.strip_prefix(&NOTE[1..]) {
            let n = parse_note(note).map_err(|(col, msg)| self.err(self.i + 1, col, msg))?;
            self.notes.push(n);
            return Ok(());
        }
        let (lang, text) = match rest.split_once(':') {
            Some((l, t)) if l == "ko" || l == "en" => (l.to_string(), t.trim().to_string()),
            Some(("title", t)) => {
                self.title = t.trim().to_string();
                return Ok(());
            }
            Some(("title-ko", t)) => {
                self.title_ko = t.trim().to_string();
                return Ok(());
            }
            _ => ("any".to_string(), rest.trim().to_string()),
        };
        self.narration.push(Narration { lang, text });
        Ok(())
    }

    /// Whether the next step has collected nothing yet (narration, directives, notes).
    fn nothing_pending(&self) -> bool {
        self.narration.is_empty()
            && self.directives.is_empty()
            && self.notes.is_empty()
            && self.quiz.is_none()
            && self.questions.is_empty()
    }

    /// A `quiz FACT choices=..` line (one per step, at the first column).
    fn quiz(&mut self, raw: &str, line: &str) -> Result<(), ParseError> {
        if raw.starts_with(' ') || raw.starts_with('\t') {
            return Err(self.err(
                self.i + 1,
                1,
                "a quiz must start at the first column".into(),
            ));
        }
        if let Some((at, _)) = &self.quiz {
            return Err(self.err(
                self.i + 1,
                1,
                format!("a step has one quiz, and line {at} already gave this one"),
            ));
        }
        let q = Quiz::parse(line).map_err(|(col, msg)| self.err(self.i + 1, col, msg))?;
        self.quiz = Some((self.i + 1, q));
        Ok(())
    }

    /// The quiz collected for a step (with its questions), checked: a question needs a quiz
    /// and a quiz a question and a command to answer it.
    fn take_quiz(&mut self, has_command: bool) -> Result<Option<Quiz>, ParseError> {
        let questions = std::mem::take(&mut self.questions);
        match self.quiz.take() {
            None => match questions.first() {
                Some((at, _)) => Err(self.err(
                    *at,
                    1,
                    "a quiz question without a `quiz FACT choices=..` line for its step".into(),
                )),
                None => Ok(None),
            },
            Some((at, _)) if !has_command => Err(self.err(
                at,
                1,
                "a quiz needs a command after it: the step whose run answers it".into(),
            )),
            Some((at, _)) if questions.is_empty() => Err(self.err(
                at,
                1,
                "a quiz needs its question: `#quiz-ko:` and `#quiz-en:` lines (or `#quiz:`)".into(),
            )),
            Some((_, mut q)) => {
                q.question = questions.into_iter().map(|(_, n)| n).collect();
                Ok(Some(q))
            }
        }
    }

    /// A directive line, which must start at the first column.
    fn directive(&mut self, raw: &str, line: &str) -> Result<(), ParseError> {
        if raw.starts_with(' ') || raw.starts_with('\t') {
            return Err(self.err(
                self.i + 1,
                1,
                "a directive must start at the first column".into(),
            ));
        }
        let d = Directive::parse(line).map_err(|(col, msg)| self.err(self.i + 1, col, msg))?;
        self.directives.push(d);
        Ok(())
    }

    /// A `pause` line: the step before pauses, or (after narration or directives of its own)
    /// a narration-only step that pauses.
    fn pause(&mut self) -> Result<(), ParseError> {
        let nothing_pending = self.nothing_pending();
        match self.steps.last_mut() {
            Some(s) if nothing_pending => s.pause = true,
            _ => {
                let quiz = self.take_quiz(false)?;
                self.steps.push(Step {
                    narration: std::mem::take(&mut self.narration),
                    directives: std::mem::take(&mut self.directives),
                    notes: std::mem::take(&mut self.notes),
                    command: String::new(),
                    expected: None,
                    quiz,
                    pause: true,
                    line: self.i + 1,
                })
            }
        }
        Ok(())
    }

    /// A command line and the expected output after it, if any: one step.
    fn command(&mut self, raw: &str, line: &str) -> Result<(), ParseError> {
        if raw.starts_with(' ') || raw.starts_with('\t') {
            return Err(self.err(
                self.i + 1,
                1,
                "a command must start at the first column".into(),
            ));
        }
        let command = line.to_string();
        let cmd_line = self.i + 1;
        self.check_rules_narrated(line, cmd_line)?;
        let quiz = self.take_quiz(true)?;
        self.i += 1;
        let expected = self.expected()?;
        self.steps.push(Step {
            narration: std::mem::take(&mut self.narration),
            directives: std::mem::take(&mut self.directives),
            notes: std::mem::take(&mut self.notes),
            command,
            expected,
            quiz,
            pause: false,
            line: cmd_line,
        });
        Ok(())
    }

    /// A `set rule.NAME=off` must be said out loud: the step's narration, in each language it
    /// has, names the rule (issue 18). Unknown rules are left to `set` itself.
    fn check_rules_narrated(&self, line: &str, cmd_line: usize) -> Result<(), ParseError> {
        let mut words = line.split_whitespace();
        if words.next() != Some("set") {
            return Ok(());
        }
        for word in words {
            let Some((name, value)) = word.strip_prefix("rule.").and_then(|w| w.split_once('='))
            else {
                continue;
            };
            if value.trim() != "off" {
                continue;
            }
            let silent =
                self.narration.is_empty() || self.narration.iter().any(|n| !n.text.contains(name));
            if silent {
                let column = line.find(word).map_or(1, |c| c + 1);
                return Err(self.err(
                    cmd_line,
                    column,
                    format!(
                        "this step turns the rule {name} off: its narration (#ko: and #en:) must say so and name {name}"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The expected output after a command: `----` and the lines up to a blank one, or
    /// `----` twice and the lines (blank ones too) up to `----` twice.
    fn expected(&mut self) -> Result<Option<String>, ParseError> {
        let lines = &self.lines;
        if !(self.i < lines.len() && lines[self.i].trim_end() == SEPARATOR) {
            return Ok(None);
        }
        self.i += 1;
        if self.i < lines.len() && lines[self.i].trim_end() == SEPARATOR {
            self.i += 1;
            return self.fenced_block().map(Some);
        }
        let mut out = Vec::new();
        while self.i < lines.len() && !lines[self.i].trim().is_empty() {
            out.push(lines[self.i]);
            self.i += 1;
        }
        Ok(Some(join(&out)))
    }

    /// The lines of a block opened by `----` twice, up to (and past) the `----` pair closing it.
    fn fenced_block(&mut self) -> Result<String, ParseError> {
        let lines = &self.lines;
        let start = self.i;
        let mut out = Vec::new();
        loop {
            if self.i >= lines.len() {
                return Err(self.err(start, 1, "unterminated '----' '----' block".into()));
            }
            if lines[self.i].trim_end() == SEPARATOR
                && self.i + 1 < lines.len()
                && lines[self.i + 1].trim_end() == SEPARATOR
            {
                self.i += 2;
                break;
            }
            out.push(lines[self.i]);
            self.i += 1;
        }
        Ok(join(&out))
    }

    /// The lesson: narration or directives left after the last command make a last,
    /// command-less step.
    fn finish(mut self) -> Result<Lesson, ParseError> {
        if !self.nothing_pending() {
            let quiz = self.take_quiz(false)?;
            self.steps.push(Step {
                narration: self.narration,
                directives: self.directives,
                notes: self.notes,
                command: String::new(),
                expected: None,
                quiz,
                pause: false,
                line: self.lines.len(),
            });
        }
        Ok(Lesson {
            name: self.name.to_string(),
            title: self.title,
            title_ko: self.title_ko,
            steps: self.steps,
        })
    }
}

/// How a speaker note line starts: `#note:` (any language), `#note-ko:`, `#note-en:`.
pub const NOTE: &str = "#note";

/// A speaker note: the text of a `#note…` line after `#note` (`: text`, `-ko: text`,
/// `-en: text`); `Err` with the 1-based column and what is wrong.
fn parse_note(rest: &str) -> Result<Narration, (usize, String)> {
    // Columns count characters of the line, `#note` being the first five.
    let col = |i: usize| NOTE.len() + 1 + rest[..i].chars().count();
    let usage = "a speaker note is `#note: text`, `#note-ko: text` or `#note-en: text`";
    let (lang, text, text_at) = if let Some(t) = rest.strip_prefix(':') {
        ("any", t, 1)
    } else if let Some(tagged) = rest.strip_prefix('-') {
        let Some((lang, t)) = tagged.split_once(':') else {
            return Err((
                col(0),
                format!("a note's language needs a ':' after it: {usage}"),
            ));
        };
        if lang != "ko" && lang != "en" {
            return Err((
                col(1),
                format!("unknown note language '{lang}' (ko or en): {usage}"),
            ));
        }
        (lang, t, 2 + lang.len())
    } else {
        return Err((col(0), format!("expected ':' or '-ko:' / '-en:': {usage}")));
    };
    let text = text.trim();
    if text.is_empty() {
        return Err((col(text_at), format!("an empty speaker note: {usage}")));
    }
    Ok(Narration {
        lang: lang.to_string(),
        text: text.to_string(),
    })
}

/// The lines of an expected output, each without trailing whitespace, joined by newlines.
fn join(lines: &[&str]) -> String {
    lines
        .iter()
        .map(|l| l.trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_narration_commands_outputs_and_pauses() {
        let text = "#title: Election\n#title-ko: 선거\n#ko: 안녕\n#en: hello\ncluster seed=7\n\nfocus 1\nshow states\nrun until=leader\n----\nleader 1 epoch 1\n\npause\n# bare\nhighlight node 1\nstatus\n----\n----\na\n\nb\n----\n----\n";
        let l = Lesson::parse("x.lesson", text).unwrap();
        assert_eq!(l.title, "Election");
        assert_eq!(l.title_ko, "선거");
        assert_eq!(l.steps.len(), 3);
        assert_eq!(l.steps[0].narration.len(), 2);
        assert_eq!(l.steps[0].narration[0].lang, "ko");
        assert_eq!(l.steps[0].expected, None);
        assert_eq!(l.steps[1].expected.as_deref(), Some("leader 1 epoch 1"));
        assert!(l.steps[1].pause);
        assert_eq!(l.steps[2].expected.as_deref(), Some("a\n\nb"));
        assert_eq!(l.steps[2].line, 16);
        assert_eq!(l.steps[1].directives.len(), 2);
        assert_eq!(l.steps[2].directives[0].to_string(), "highlight node 1");
        let again = Lesson::parse(
            "x.lesson",
            &l.render(&[None, Some("leader 1 epoch 1".into()), Some("a\n\nb".into())]),
        )
        .unwrap();
        let shape = |l: &Lesson| {
            l.steps
                .iter()
                .map(|s| {
                    (
                        s.command.clone(),
                        s.expected.clone(),
                        s.pause,
                        s.narration.clone(),
                        s.directives.clone(),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(shape(&again), shape(&l));
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let e = Lesson::parse("bad.lesson", "cluster\n  run 1s\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad.lesson:2:1: a command must start at the first column"
        );
        let e = Lesson::parse("bad.lesson", "----\n").unwrap_err();
        assert_eq!(e.line, 1);
        let e = Lesson::parse("bad.lesson", "status\n----\n----\nx\n").unwrap_err();
        assert!(e.message.contains("unterminated"));
        let e = Lesson::parse("bad.lesson", "cluster\n\nshow nothing\nstatus\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 6));
        assert!(e.message.contains("unknown panel 'nothing'"), "{e}");
        let e = Lesson::parse("bad.lesson", " focus 1\n").unwrap_err();
        assert!(e.message.contains("directive must start"), "{e}");
    }

    #[test]
    fn speaker_notes_belong_to_their_step_and_survive_a_rewrite() {
        let text = "#ko: 안녕\n#note: both\n#note-ko: 한국어 메모\n#note-en: an English note\nstatus\n----\nx\n\n#note-en: closing words\npause\n";
        let l = Lesson::parse("n.lesson", text).unwrap();
        assert_eq!(l.steps.len(), 2);
        let langs: Vec<(&str, &str)> = l.steps[0]
            .notes
            .iter()
            .map(|n| (n.lang.as_str(), n.text.as_str()))
            .collect();
        assert_eq!(
            langs,
            [
                ("any", "both"),
                ("ko", "한국어 메모"),
                ("en", "an English note")
            ]
        );
        assert_eq!(l.steps[0].narration.len(), 1, "a note is not narration");
        assert!(l.steps[1].command.is_empty() && l.steps[1].pause);
        assert_eq!(l.steps[1].notes[0].text, "closing words");
        let again = Lesson::parse("n.lesson", &l.render(&[Some("x".into()), None])).unwrap();
        assert_eq!(again.steps, l.steps);
    }

    #[test]
    fn a_quiz_needs_a_question_and_a_command() {
        let err = |t: &str| Lesson::parse("q.lesson", t).unwrap_err().to_string();
        let q = "#quiz-en: Who?\nquiz leader choices=1,2\n";
        assert!(Lesson::parse("q.lesson", &format!("{q}status\n"))
            .unwrap()
            .steps[0]
            .quiz
            .is_some());
        assert_eq!(err("quiz leader choices=1,2\nstatus\n"), "q.lesson:1:1: a quiz needs its question: `#quiz-ko:` and `#quiz-en:` lines (or `#quiz:`)");
        assert_eq!(
            err("#quiz-en: Who?\nstatus\n"),
            "q.lesson:1:1: a quiz question without a `quiz FACT choices=..` line for its step"
        );
        assert!(
            err(&format!("{q}pause\n")).contains("q.lesson:2:1: a quiz needs a command after it")
        );
        assert!(err(q).contains("q.lesson:2:1: a quiz needs a command after it"));
        assert!(err(&format!("{q}quiz epoch choices=1,2\nstatus\n"))
            .contains("q.lesson:3:1: a step has one quiz"));
        assert!(err("#quiz-fr: Qui?\n").starts_with("q.lesson:1:7: unknown language 'fr'"));
        assert!(
            err("quiz leader choices=1\n").starts_with("q.lesson:1:21: a quiz has 2 to 6 choices")
        );
        assert!(err(" quiz leader choices=1,2\n").contains("first column"));
    }

    #[test]
    fn a_malformed_note_is_an_error_with_its_place() {
        let err = |text: &str| Lesson::parse("bad.lesson", text).unwrap_err();
        let e = err("status\n\n#note-fr: bonjour\nstatus\n");
        assert_eq!((e.line, e.column), (3, 7), "{e}");
        assert!(e.message.contains("unknown note language 'fr'"), "{e}");
        let e = err("#note:   \nstatus\n");
        assert_eq!((e.line, e.column), (1, 7), "{e}");
        assert!(e.message.contains("empty speaker note"), "{e}");
        let e = err("#note-en:\nstatus\n");
        assert!(e.message.contains("empty speaker note"), "{e}");
        let e = err("#note text\n");
        assert_eq!((e.line, e.column), (1, 6), "{e}");
        assert!(e.message.contains("#note: text"), "{e}");
        let e = err("#note-en text\n");
        assert!(e.message.contains("needs a ':'"), "{e}");
        // A bare `# note` (with a space) is narration, as before.
        let l = Lesson::parse("ok.lesson", "# note this\nstatus\n").unwrap();
        assert_eq!(l.steps[0].narration[0].text, "note this");
        assert!(l.steps[0].notes.is_empty());
    }

    #[test]
    fn a_rule_turned_off_is_named_in_every_narration() {
        let silent = "#ko: 규칙을 끕니다.\n#en: Turn a rule off.\nset rule.durable-vote=off\n";
        let e = Lesson::parse("r.lesson", silent).unwrap_err();
        assert_eq!((e.line, e.column), (3, 5), "{e}");
        assert!(e.message.contains("durable-vote"), "{e}");
        let half =
            "#ko: durable-vote 규칙을 끕니다.\n#en: Turn it off.\nset rule.durable-vote=off\n";
        assert!(Lesson::parse("r.lesson", half).is_err());
        let bare = "set tick.ms=100 rule.prevote=off\n";
        assert_eq!(Lesson::parse("r.lesson", bare).unwrap_err().column, 17);
        let said = "#ko: durable-vote 규칙을 끕니다.\n#en: Turn durable-vote off.\nset rule.durable-vote=off\n";
        assert_eq!(Lesson::parse("r.lesson", said).unwrap().steps.len(), 1);
        // Turning a rule back on needs no narration.
        assert!(Lesson::parse("r.lesson", "set rule.prevote=on\n").is_ok());
    }
}
