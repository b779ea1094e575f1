//! A shell pipeline into a tool: `echo "v" | kafka-console-producer.sh ...` or
//! `printf 'a\nb\n' | kafka-console-producer.sh ...`. The left side (`echo` or `printf`, as
//! coreutils prints them) makes the text; the tool on the right reads it as its stdin.

use super::{run_with_stdin, split_command_line, ToolError};
use crate::sim::World;

/// The two sides of `line` when it is `echo ... | tool ...` or `printf ... | tool ...`: the
/// text before the first `|` outside quotes and the text after it. Other lines (the console's
/// `partition 101 | 102,103` among them) are no pipelines.
pub fn split(line: &str) -> Option<(&str, &str)> {
    let first = line.split_whitespace().next()?;
    if first != "echo" && first != "printf" {
        return None;
    }
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match (quote, c) {
            (Some('\''), '\'') | (Some('"'), '"') => quote = None,
            (Some('"'), '\\') | (None, '\\') => escaped = true,
            (None, '\'' | '"') => quote = Some(c),
            (None, '|') => return Some((&line[..i], &line[i + 1..])),
            _ => {}
        }
    }
    None
}

/// Run `line` if it is a pipeline ([`split`]); `None` when it is not one.
pub fn run_line(world: &mut World, line: &str) -> Option<Result<String, ToolError>> {
    let (left, right) = split(line)?;
    let right = split_command_line(right);
    if right.is_empty() {
        return Some(Err(ToolError {
            stdout: String::new(),
            message: "syntax error near unexpected token `|'\n".into(),
            exit_code: 2,
        }));
    }
    Some(run(&split_command_line(left)).and_then(|text| run_with_stdin(world, &right, Some(&text))))
}

/// `echo [-n] [-e] ARG...` or `printf FORMAT [ARG]...`: the text they print.
pub fn run(argv: &[String]) -> Result<String, ToolError> {
    let Some(cmd) = argv.first() else {
        return Ok(String::new());
    };
    let args = &argv[1..];
    if cmd == "printf" {
        let Some(format) = args.first() else {
            return Err(
                ToolError::new("printf: usage: printf [-v var] format [arguments]").code(2),
            );
        };
        return Ok(printf(format, &args[1..]));
    }
    let mut newline = true;
    let mut escapes = false;
    let mut i = 0;
    while let Some(flag) = args
        .get(i)
        .filter(|a| matches!(a.as_str(), "-n" | "-e" | "-E" | "-ne" | "-en"))
    {
        newline &= !flag.contains('n');
        escapes = flag.contains('e');
        i += 1;
    }
    let text = args[i..].join(" ");
    let mut out = if escapes { unescape(&text) } else { text };
    if newline {
        out.push('\n');
    }
    Ok(out)
}

/// `printf`: the format's backslash escapes, `%s` / `%d` filled from `args` in turn, `%%`;
/// the format is used again while arguments remain.
fn printf(format: &str, args: &[String]) -> String {
    let mut out = String::new();
    let mut next = 0usize;
    loop {
        let mut chars = unescape(format)
            .chars()
            .collect::<Vec<_>>()
            .into_iter()
            .peekable();
        let mut used = false;
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('%') => out.push('%'),
                Some('s' | 'd') => {
                    out.push_str(args.get(next).map(String::as_str).unwrap_or(""));
                    next += 1;
                    used = true;
                }
                Some(o) => {
                    out.push('%');
                    out.push(o);
                }
                None => out.push('%'),
            }
        }
        if !used || next >= args.len() {
            return out;
        }
    }
}

/// Backslash escapes: `\n`, `\t`, `\\`, `\"`, `\'`; any other stays as typed.
fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some('"') => out.push('"'),
            Some('\'') => out.push('\''),
            Some(o) => {
                out.push('\\');
                out.push(o);
            }
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        split_command_line(s)
    }

    #[test]
    fn pipelines_split_outside_quotes() {
        assert_eq!(split("echo \"a|b\" | t x"), Some(("echo \"a|b\" ", " t x")));
        assert_eq!(split("partition 101 | 102"), None);
        assert_eq!(split("echo a"), None);
    }

    #[test]
    fn echo_and_printf_print_as_coreutils() {
        assert_eq!(run(&words("echo a b")).unwrap(), "a b\n");
        assert_eq!(run(&words("echo -n a")).unwrap(), "a");
        assert_eq!(run(&words(r"printf 'a\nb\n'")).unwrap(), "a\nb\n");
        assert_eq!(run(&words(r"printf '%s\n' x y")).unwrap(), "x\ny\n");
    }
}
