//! Running a lesson: every command through one [`Console`], outputs compared with the
//! expected blocks (`kraft check`), or written back (`kraft check --rewrite`).

use super::console::Console;
use super::parse::Lesson;

/// What one step printed (errors are printed as `error: ...`, as etcd's datadriven tests do).
pub fn step_output(console: &mut Console, command: &str) -> String {
    match console.exec(command) {
        Ok(out) => out,
        Err(e) => format!("error: {e}"),
    }
}

/// A difference between a lesson and what the engine printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// file:line of the command.
    pub location: String,
    /// The command.
    pub command: String,
    /// What the lesson expects.
    pub expected: String,
    /// What the engine printed.
    pub actual: String,
}

/// Outputs compare line by line without trailing white space (tools end table cells with tabs;
/// lesson files do not keep them).
pub fn normalize(text: &str) -> String {
    text.lines()
        .map(|l| l.trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Run every step; returns the outputs (one per step) and the mismatches.
pub fn check(lesson: &Lesson) -> (Vec<Option<String>>, Vec<Mismatch>) {
    let mut console = Console::new();
    let mut outputs = Vec::new();
    let mut mismatches = Vec::new();
    for s in &lesson.steps {
        if s.command.is_empty() {
            outputs.push(None);
            continue;
        }
        let out = step_output(&mut console, &s.command);
        let is_expect = s.command.starts_with("expect");
        if is_expect && !out.is_empty() {
            mismatches.push(Mismatch {
                location: format!("{}:{}", lesson.name, s.line),
                command: s.command.clone(),
                expected: String::new(),
                actual: out.clone(),
            });
        }
        if let Some(exp) = &s.expected {
            if normalize(exp) != normalize(&out) {
                mismatches.push(Mismatch {
                    location: format!("{}:{}", lesson.name, s.line),
                    command: s.command.clone(),
                    expected: exp.clone(),
                    actual: out.clone(),
                });
            }
        } else if !is_expect && out.starts_with("error: ") {
            // An unpinned step must not fail.
            mismatches.push(Mismatch {
                location: format!("{}:{}", lesson.name, s.line),
                command: s.command.clone(),
                expected: "(no error)".into(),
                actual: out.clone(),
            });
        }
        outputs.push(Some(out));
    }
    (outputs, mismatches)
}

/// A transcript of the lesson as the engine runs it: narration, `$ command`, output.
pub fn transcript(lesson: &Lesson, lang: &str) -> String {
    let mut console = Console::new();
    let mut out = String::new();
    for s in &lesson.steps {
        for n in &s.narration {
            if n.lang == lang || n.lang == "any" {
                out.push_str(&format!("# {}\n", n.text));
            }
        }
        if !s.command.is_empty() {
            out.push_str(&format!("$ {}\n", s.command));
            let o = step_output(&mut console, &s.command);
            if !o.is_empty() {
                out.push_str(&o);
                out.push('\n');
            }
        }
        if s.pause {
            out.push_str("-- pause --\n");
        }
    }
    out
}
