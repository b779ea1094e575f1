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

/// A line of narration, with its language (`ko`, `en`, or `any` for a bare `#`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Narration {
    /// `ko`, `en` or `any`.
    pub lang: String,
    /// The text.
    pub text: String,
}

/// One step of a lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Narration shown before the command.
    pub narration: Vec<Narration>,
    /// Stage directives (`focus`, `show`, `highlight`, `labels`) for this step.
    pub directives: Vec<Directive>,
    /// The command line (empty for a narration-only `pause`).
    pub command: String,
    /// Expected output, if the step pins it.
    pub expected: Option<String>,
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
        let lines: Vec<&str> = text.lines().collect();
        let err = |line: usize, column: usize, message: String| ParseError {
            file: name.to_string(),
            line,
            column,
            message,
        };
        let mut steps: Vec<Step> = Vec::new();
        let mut narration: Vec<Narration> = Vec::new();
        let mut directives: Vec<Directive> = Vec::new();
        let mut title = String::new();
        let mut title_ko = String::new();
        let mut i = 0;
        while i < lines.len() {
            let raw = lines[i];
            let line = raw.trim_end();
            if line.trim().is_empty() {
                i += 1;
                continue;
            }
            if let Some(rest) = line.strip_prefix('#') {
                let (lang, text) = match rest.split_once(':') {
                    Some((l, t)) if l == "ko" || l == "en" => (l.to_string(), t.trim().to_string()),
                    Some(("title", t)) => {
                        title = t.trim().to_string();
                        i += 1;
                        continue;
                    }
                    Some(("title-ko", t)) => {
                        title_ko = t.trim().to_string();
                        i += 1;
                        continue;
                    }
                    _ => ("any".to_string(), rest.trim().to_string()),
                };
                narration.push(Narration { lang, text });
                i += 1;
                continue;
            }
            if line == SEPARATOR {
                return Err(err(i + 1, 1, "'----' without a command before it".into()));
            }
            if Directive::is_directive(line) {
                if raw.starts_with(' ') || raw.starts_with('\t') {
                    return Err(err(
                        i + 1,
                        1,
                        "a directive must start at the first column".into(),
                    ));
                }
                let d = Directive::parse(line).map_err(|(col, msg)| err(i + 1, col, msg))?;
                directives.push(d);
                i += 1;
                continue;
            }
            if line == "pause" {
                match steps.last_mut() {
                    Some(s) if narration.is_empty() && directives.is_empty() => s.pause = true,
                    _ => steps.push(Step {
                        narration: std::mem::take(&mut narration),
                        directives: std::mem::take(&mut directives),
                        command: String::new(),
                        expected: None,
                        pause: true,
                        line: i + 1,
                    }),
                }
                i += 1;
                continue;
            }
            if raw.starts_with(' ') || raw.starts_with('\t') {
                return Err(err(
                    i + 1,
                    1,
                    "a command must start at the first column".into(),
                ));
            }
            let command = line.to_string();
            let cmd_line = i + 1;
            i += 1;
            let mut expected = None;
            if i < lines.len() && lines[i].trim_end() == SEPARATOR {
                i += 1;
                // `----` twice opens a block that may hold blank lines, closed by `----` twice.
                if i < lines.len() && lines[i].trim_end() == SEPARATOR {
                    i += 1;
                    let start = i;
                    let mut out = Vec::new();
                    loop {
                        if i >= lines.len() {
                            return Err(err(start, 1, "unterminated '----' '----' block".into()));
                        }
                        if lines[i].trim_end() == SEPARATOR
                            && i + 1 < lines.len()
                            && lines[i + 1].trim_end() == SEPARATOR
                        {
                            i += 2;
                            break;
                        }
                        out.push(lines[i]);
                        i += 1;
                    }
                    expected = Some(join(&out));
                } else {
                    let mut out = Vec::new();
                    while i < lines.len() && !lines[i].trim().is_empty() {
                        out.push(lines[i]);
                        i += 1;
                    }
                    expected = Some(join(&out));
                }
            }
            steps.push(Step {
                narration: std::mem::take(&mut narration),
                directives: std::mem::take(&mut directives),
                command,
                expected,
                pause: false,
                line: cmd_line,
            });
        }
        if !narration.is_empty() || !directives.is_empty() {
            steps.push(Step {
                narration,
                directives,
                command: String::new(),
                expected: None,
                pause: false,
                line: lines.len(),
            });
        }
        Ok(Lesson {
            name: name.to_string(),
            title,
            title_ko,
            steps,
        })
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
}
