//! Running a lesson: every command through one [`Console`], outputs compared with the
//! expected blocks (`kraft check`), or written back (`kraft check --rewrite`).

use super::console::Console;
use super::parse::{Lesson, Step};

/// What one step printed (errors are printed as `error: ...`, as etcd's datadriven tests do).
pub fn step_output(console: &mut Console, command: &str) -> String {
    match console.exec(command) {
        Ok(out) => out,
        Err(e) => format!("error: {e}"),
    }
}

/// Runs a step's command and, if it has a quiz, reads the quiz's answer once it ran: the
/// output, and the answer (`Err` when it is not among the choices).
pub fn run_step(console: &mut Console, step: &Step) -> (String, Option<Result<String, String>>) {
    let before = step.quiz.as_ref().map(|q| q.before(console.world.as_ref()));
    let out = step_output(console, &step.command);
    let answer = step
        .quiz
        .as_ref()
        .map(|q| q.answer(before.flatten(), console.world.as_ref()));
    (out, answer)
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
            mismatches.extend(bad_directive(&console, lesson, s));
            outputs.push(None);
            continue;
        }
        let (out, answer) = run_step(&mut console, s);
        mismatches.extend(bad_directive(&console, lesson, s));
        if let Some(Err(e)) = answer {
            mismatches.push(Mismatch {
                location: format!("{}:{}", lesson.name, s.line),
                command: s.quiz.as_ref().map(|q| q.to_string()).unwrap_or_default(),
                expected: "an answer among the choices".into(),
                actual: e,
            });
        }
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

/// A directive of `step` that names a node the cluster does not have once the step ran (the
/// stage shows the cluster after the step).
fn bad_directive(console: &Console, lesson: &Lesson, step: &Step) -> Option<Mismatch> {
    let ids: Vec<i32> = match &console.world {
        Some(w) => w.node_ids(),
        None => Vec::new(),
    };
    step.directives.iter().find_map(|d| {
        let missing = d.node_ids().into_iter().find(|id| !ids.contains(id))?;
        let known: Vec<String> = ids.iter().map(|i| i.to_string()).collect();
        Some(Mismatch {
            location: format!("{}:{}", lesson.name, step.line),
            command: d.to_string(),
            expected: "a node of the cluster".into(),
            actual: if known.is_empty() {
                format!("no node {missing}: no cluster yet")
            } else {
                format!("no node {missing} (nodes: {})", known.join(", "))
            },
        })
    })
}

/// A transcript of the lesson as the engine runs it: narration, `$ command`, output; and the
/// steps that failed (`file:line: command: error`), an error the lesson pins as its expected
/// output excepted.
pub fn transcript(lesson: &Lesson, lang: &str) -> (String, Vec<String>) {
    let mut console = Console::new();
    let mut out = String::new();
    let mut failed = Vec::new();
    for s in &lesson.steps {
        for n in &s.narration {
            if n.lang == lang || n.lang == "any" {
                out.push_str(&format!("# {}\n", n.text));
            }
        }
        if !s.command.is_empty() {
            if let Some(q) = &s.quiz {
                out.push_str(&format!(
                    "? {} ({})\n",
                    q.question_in(lang),
                    q.choices.join(" / ")
                ));
            }
            out.push_str(&format!("$ {}\n", s.command));
            let (o, answer) = run_step(&mut console, s);
            let pinned = s
                .expected
                .as_deref()
                .is_some_and(|e| normalize(e) == normalize(&o));
            if o.starts_with("error: ") && !pinned {
                failed.push(format!("{}:{}: {}: {}", lesson.name, s.line, s.command, o));
            }
            if !o.is_empty() {
                out.push_str(&o);
                out.push('\n');
            }
            match answer {
                Some(Ok(a)) => out.push_str(&format!("= {a}\n")),
                Some(Err(e)) => failed.push(format!("{}:{}: quiz: {e}", lesson.name, s.line)),
                None => {}
            }
        }
        if s.pause {
            out.push_str("-- pause --\n");
        }
    }
    (out, failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transcript_names_the_steps_that_failed_but_not_pinned_errors() {
        let l = Lesson::parse(
            "x.lesson",
            "cluster controllers=101 seed=1\n\nkill -9 999\n----\nerror: no node 999 in the cluster (nodes: 101)\n\nbogus\n",
        )
        .unwrap();
        let (text, failed) = transcript(&l, "en");
        assert!(
            text.contains("$ bogus\nerror: unknown command 'bogus'"),
            "{text}"
        );
        assert_eq!(failed.len(), 1, "{failed:?}");
        assert!(
            failed[0].starts_with("x.lesson:7: bogus: error: unknown command"),
            "{failed:?}"
        );
    }

    #[test]
    fn a_quiz_is_answered_by_the_run_and_checked_against_its_choices() {
        let text = "cluster controllers=101,102,103 seed=7\n\n#quiz-en: Who leads?\n#quiz-ko: 누가?\nquiz leader choices=101,102,103\nrun until=leader timeout=10s\n";
        let l = Lesson::parse("q.lesson", text).unwrap();
        let (outputs, mismatches) = check(&l);
        assert!(mismatches.is_empty(), "{mismatches:?}");
        assert_eq!(
            Lesson::parse("q.lesson", &l.render(&outputs))
                .unwrap()
                .steps[1]
                .quiz,
            l.steps[1].quiz
        );
        let (text_en, failed) = transcript(&l, "en");
        assert!(
            failed.is_empty() && text_en.contains("? Who leads? (101 / 102 / 103)\n"),
            "{text_en}"
        );
        assert!(text_en.contains("\n= 10"), "{text_en}");
        let wrong = text.replace("choices=101,102,103", "choices=201,202");
        let (_, mismatches) = check(&Lesson::parse("q.lesson", &wrong).unwrap());
        assert_eq!(mismatches.len(), 1, "{mismatches:?}");
        assert!(
            mismatches[0]
                .actual
                .contains("not among its choices 201,202"),
            "{mismatches:?}"
        );
        assert_eq!(mismatches[0].location, "q.lesson:6");
    }

    #[test]
    fn a_directive_naming_a_missing_node_is_a_mismatch_with_its_location() {
        let l = Lesson::parse(
            "x.lesson",
            "cluster controllers=101 seed=1\n\nfocus 101\nstatus\n\nfocus 999\nstatus\n",
        )
        .unwrap();
        let (_, mismatches) = check(&l);
        assert_eq!(mismatches.len(), 1, "{mismatches:?}");
        assert_eq!(mismatches[0].location, "x.lesson:7");
        assert_eq!(mismatches[0].command, "focus 999");
        assert_eq!(mismatches[0].actual, "no node 999 (nodes: 101)");
    }
}
