//! `grep` over a node's files, as GNU grep reads its patterns: basic regular expressions by
//! default (`-G`: `.`, `*`, `[...]`, `^`, `$`, and GNU's `\|`, `\+`, `\?`, `\(...\)`),
//! extended ones with `-E` (`|`, `+`, `?`, `(...)`), fixed strings with `-F`.

use super::shell::{finish, read_text, unknown_option};
use super::ToolError;
use crate::sim::World;
use regex_lite::Regex;

/// How the pattern is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Syntax {
    Basic,
    Extended,
    Fixed,
}

fn usage_error(message: String) -> ToolError {
    ToolError {
        stdout: String::new(),
        message,
        exit_code: 2,
    }
}

/// GNU grep's basic syntax in the `regex` crate's: `\|`, `\+`, `\?`, `\(`, `\)`, `\{`, `\}`
/// become operators; bare `|`, `+`, `?`, `(`, `)`, `{`, `}` are literal, and so is a `*` that
/// starts an expression.
fn basic_to_extended(pattern: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = pattern.chars().peekable();
    // Whether the next `*` would start an expression (then it is a literal star).
    let mut at_start = true;
    while let Some(c) = chars.next() {
        let starts = matches!(c, '^') && at_start;
        match c {
            '\\' => match chars.next() {
                Some(op @ ('|' | '(')) => {
                    out.push(op);
                    at_start = true;
                    continue;
                }
                Some(op @ (')' | '{' | '}' | '+' | '?')) => out.push(op),
                Some(d) if d.is_ascii_digit() => {
                    return Err("back-references (\\1) are not supported here".into())
                }
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => return Err("Trailing backslash".into()),
            },
            '|' | '+' | '?' | '(' | ')' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '*' if at_start => out.push_str("\\*"),
            '[' => {
                // A bracket expression is copied as it is, up to its closing `]`.
                out.push('[');
                let mut first = true;
                loop {
                    let Some(b) = chars.next() else {
                        return Err("Unmatched [, [^, [:, [., or [=".into());
                    };
                    if b == '^' && first {
                        out.push('^');
                        continue;
                    }
                    if b == ']' && !first {
                        out.push(']');
                        break;
                    }
                    if b == '[' && chars.peek() == Some(&':') {
                        // [:class:]
                        out.push('[');
                        for k in chars.by_ref() {
                            out.push(k);
                            if k == ']' {
                                break;
                            }
                        }
                        first = false;
                        continue;
                    }
                    if b == '\\' || b == '[' || (b == ']' && first) {
                        out.push('\\');
                    }
                    out.push(b);
                    first = false;
                }
            }
            other => out.push(other),
        }
        at_start = starts;
    }
    Ok(out)
}

/// The regular expression `pattern` means in `syntax`.
fn compile(pattern: &str, syntax: Syntax, ignore_case: bool) -> Result<Regex, String> {
    let body = match syntax {
        Syntax::Fixed => regex_lite::escape(pattern),
        Syntax::Basic => basic_to_extended(pattern)?,
        Syntax::Extended => {
            if pattern.contains("\\1") || pattern.contains("\\2") {
                return Err("back-references (\\1) are not supported here".into());
            }
            pattern.to_string()
        }
    };
    let body = if ignore_case {
        format!("(?i){body}")
    } else {
        body
    };
    Regex::new(&body).map_err(|e| {
        let text = e.to_string();
        let first = text.lines().last().unwrap_or(&text).trim().to_string();
        format!("Invalid regular expression ({first})")
    })
}

/// `grep [-c] [-i] [-v] [-n] [-G|-E|-F] [-e] PATTERN FILE...`.
pub fn grep(world: &World, args: &[String]) -> Result<String, ToolError> {
    let (mut count, mut ignore_case, mut invert, mut numbers) = (false, false, false, false);
    let mut syntax = Syntax::Basic;
    let mut pattern: Option<String> = None;
    let mut files = Vec::new();
    let mut options_done = false;
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if !options_done && a == "--" {
            options_done = true;
        } else if !options_done && a.starts_with('-') && a.len() > 1 {
            let flags: Vec<char> = a[1..].chars().collect();
            for (k, c) in flags.iter().enumerate() {
                match c {
                    'c' => count = true,
                    'i' => ignore_case = true,
                    'v' => invert = true,
                    'n' => numbers = true,
                    'G' => syntax = Syntax::Basic,
                    'E' => syntax = Syntax::Extended,
                    'F' => syntax = Syntax::Fixed,
                    'e' => {
                        let rest: String = flags[k + 1..].iter().collect();
                        let p = if rest.is_empty() {
                            let p = args.get(i).cloned().ok_or_else(|| {
                                usage_error("grep: option requires an argument -- 'e'\nUsage: grep [OPTION]... PATTERNS [FILE]...\n".into())
                            })?;
                            i += 1;
                            p
                        } else {
                            rest
                        };
                        pattern = Some(p);
                        break;
                    }
                    _ => return Err(unknown_option("grep", &format!("-{c}"))),
                }
            }
        } else if pattern.is_none() {
            pattern = Some(a.clone());
        } else {
            files.push(a.clone());
        }
    }
    let Some(pattern) = pattern else {
        return Err(usage_error(
            "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n"
                .into(),
        ));
    };
    if files.is_empty() {
        return Err(usage_error(
            "grep: (standard input): no input in the KRaft Playground; name a file such as 101/server.log\n"
                .into(),
        ));
    }
    let re =
        compile(&pattern, syntax, ignore_case).map_err(|e| usage_error(format!("grep: {e}\n")))?;
    let mut out = String::new();
    let mut err = String::new();
    for f in &files {
        let text = match read_text(world, "grep", f) {
            Ok(t) => t,
            Err(e) => {
                err.push_str(&e);
                continue;
            }
        };
        let prefix = if files.len() > 1 {
            format!("{f}:")
        } else {
            String::new()
        };
        let mut n = 0;
        for (k, line) in text.lines().enumerate() {
            if re.is_match(line) != invert {
                n += 1;
                if !count {
                    let num = if numbers {
                        format!("{}:", k + 1)
                    } else {
                        String::new()
                    };
                    out.push_str(&format!("{prefix}{num}{line}\n"));
                }
            }
        }
        if count {
            out.push_str(&format!("{prefix}{n}\n"));
        }
    }
    finish(out, err, 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, syntax: Syntax, line: &str) -> bool {
        compile(pattern, syntax, false).unwrap().is_match(line)
    }

    #[test]
    fn basic_expressions_as_gnu_grep_reads_them() {
        let b = Syntax::Basic;
        assert!(matches("Fencing\\|Unfenced", b, "Unfenced broker 3"));
        assert!(!matches("Fencing|Unfenced", b, "Unfenced broker 3"));
        assert!(matches("a|b", b, "x a|b y"));
        assert!(matches(
            "Replayed.*orders",
            b,
            "Replayed TopicRecord for topic orders"
        ));
        assert!(matches("^\\[2024", b, "[2024-10-25 09:53:20,000] INFO"));
        assert!(matches("epoch=[0-9]\\+,", b, "epoch=12,"));
        assert!(matches("(none)", b, "the leader is (none)."));
        assert!(matches("*star", b, "a *star"));
        assert!(matches("[]x]", b, "]"));
        assert!(matches("[[:digit:]]ms", b, "within 3000ms"));
    }

    #[test]
    fn extended_and_fixed() {
        assert!(matches(
            "Fencing|Unfenced",
            Syntax::Extended,
            "Unfenced broker"
        ));
        assert!(matches("epoch=(1|2)", Syntax::Extended, "epoch=2"));
        assert!(matches("a.*b", Syntax::Fixed, "x a.*b"));
        assert!(!matches("a.*b", Syntax::Fixed, "a and b"));
        assert!(compile("ORDERS", Syntax::Basic, true)
            .unwrap()
            .is_match("orders"));
    }

    #[test]
    fn bad_patterns_are_errors_not_silence() {
        assert_eq!(
            compile("[abc", Syntax::Basic, false).unwrap_err(),
            "Unmatched [, [^, [:, [., or [="
        );
        assert!(compile("\\(a", Syntax::Basic, false)
            .unwrap_err()
            .starts_with("Invalid regular expression"));
        assert!(compile("(a)\\1", Syntax::Extended, false)
            .unwrap_err()
            .contains("back-references"));
    }
}
