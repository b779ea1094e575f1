//! A small argparse4j: the parser of Kafka's newer tools (`kafka-storage`, `kafka-features`,
//! the subcommands of `kafka-metadata-quorum`). Options with aliases (`--config`, `-c`),
//! unambiguous prefixes of long options, `store` / `storeTrue` / `append` actions, required
//! options and mutually exclusive groups, with argparse4j's usage layout (width 75, the
//! options first, then the groups) and its error texts (`argument --config/-c is required`,
//! `argument --no-initial-controllers/-N: not allowed with argument --standalone/-s`).
//! The usage texts follow argparse4j's layout rules as `kafka-metadata-quorum`'s pinned usage
//! shows them; they were not produced by running argparse4j.

use super::ToolError;
use std::collections::BTreeMap;

/// What an option does with its argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// `store()`: one argument, the last one wins.
    Store,
    /// `storeTrue()`: no argument.
    StoreTrue,
    /// `append()`: one argument each time, all kept.
    Append,
}

/// One option of a parser.
#[derive(Clone, Copy, Debug)]
pub struct Opt {
    /// Its flags, the long one first (`["--config", "-c"]`).
    pub flags: &'static [&'static str],
    /// What it does.
    pub action: Action,
    /// `required(true)`.
    pub required: bool,
    /// The mutually exclusive group it belongs to (`None`: none).
    pub group: Option<u8>,
}

impl Opt {
    /// An option that stores one argument.
    pub const fn store(flags: &'static [&'static str]) -> Opt {
        Opt {
            flags,
            action: Action::Store,
            required: false,
            group: None,
        }
    }

    /// A flag without argument.
    pub const fn flag(flags: &'static [&'static str]) -> Opt {
        Opt {
            flags,
            action: Action::StoreTrue,
            required: false,
            group: None,
        }
    }

    /// The same option, required.
    pub const fn required(mut self) -> Opt {
        self.required = true;
        self
    }

    /// The same option, appending.
    pub const fn append(mut self) -> Opt {
        self.action = Action::Append;
        self
    }

    /// The same option, in mutually exclusive group `g`.
    pub const fn in_group(mut self, g: u8) -> Opt {
        self.group = Some(g);
        self
    }

    /// `--config/-c`: how argparse4j names an option in its errors.
    pub fn textual_name(&self) -> String {
        self.flags.join("/")
    }

    /// `CONFIG`: the metavariable of its argument (the long flag's name, upper case).
    fn metavar(&self) -> String {
        self.flags[0]
            .trim_start_matches('-')
            .replace('-', "_")
            .to_uppercase()
    }

    /// The option as the usage line shows it: `--config CONFIG` or `--dry-run`.
    fn usage_text(&self) -> String {
        match self.action {
            Action::StoreTrue => self.flags[0].to_string(),
            _ => format!("{} {}", self.flags[0], self.metavar()),
        }
    }
}

/// A (sub)parser: its program name (`kafka-storage format`) and options.
#[derive(Clone, Copy, Debug)]
pub struct Parser {
    /// The program name in the usage and errors.
    pub prog: &'static str,
    /// Its options, in the order they were added.
    pub opts: &'static [Opt],
    /// The trailing usage token of a parser with subcommands (`{info,format} ...`).
    pub subcommands: Option<&'static str>,
}

/// Parsed options, by the long flag.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Namespace {
    values: BTreeMap<&'static str, Vec<String>>,
}

impl Namespace {
    /// Whether the option (named by its long flag) was given.
    pub fn has(&self, flag: &str) -> bool {
        self.values.contains_key(flag)
    }

    /// The value of a `store` option (the last one given).
    pub fn get(&self, flag: &str) -> Option<&str> {
        self.values
            .get(flag)
            .and_then(|v| v.last())
            .map(String::as_str)
    }

    /// Every value of an `append` option.
    pub fn all(&self, flag: &str) -> &[String] {
        self.values.get(flag).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// The usage of a parser, laid out as argparse4j does: `usage: <prog>` then `[-h]`, the
/// options outside groups, then each group, wrapped at 75 columns under the first token.
pub fn usage(p: &Parser) -> String {
    let mut tokens = vec!["[-h]".to_string()];
    for o in p.opts.iter().filter(|o| o.group.is_none()) {
        tokens.push(if o.required {
            o.usage_text()
        } else {
            format!("[{}]", o.usage_text())
        });
    }
    let mut groups: Vec<u8> = p.opts.iter().filter_map(|o| o.group).collect();
    groups.dedup();
    for g in groups {
        let members: Vec<&Opt> = p.opts.iter().filter(|o| o.group == Some(g)).collect();
        let (open, close) = if members.iter().any(|o| o.required) {
            ("(", ")")
        } else {
            ("[", "]")
        };
        for (i, o) in members.iter().enumerate() {
            let mut t = String::new();
            if i == 0 {
                t.push_str(open);
            }
            t.push_str(&o.usage_text());
            t.push_str(if i + 1 == members.len() { close } else { " |" });
            tokens.push(t);
        }
    }
    if let Some(s) = p.subcommands {
        tokens.push(s.to_string());
    }
    let head = format!("usage: {} ", p.prog);
    let indent = head.len();
    let mut out = String::new();
    let mut line = head.trim_end().to_string();
    for t in tokens {
        if line.len() > indent && line.len() + 1 + t.len() > 75 {
            out.push_str(&line);
            out.push('\n');
            line = format!("{}{t}", " ".repeat(indent));
        } else {
            line.push(' ');
            line.push_str(&t);
        }
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// `ArgumentParser.handleError`: the usage, then `<prog>: error: <message>`.
pub fn error(p: &Parser, message: &str) -> ToolError {
    ToolError::new(format!("{}{}: error: {message}\n", usage(p), p.prog))
}

/// What parsing gave: the options, or `-h`.
pub enum Parsed {
    /// `-h` / `--help` was given.
    Help,
    /// The options.
    Args(Namespace),
}

/// Finds the option `arg` names: a flag exactly, or an unambiguous prefix of a long flag.
fn find<'a>(p: &'a Parser, name: &str) -> Option<&'a Opt> {
    if let Some(o) = p.opts.iter().find(|o| o.flags.contains(&name)) {
        return Some(o);
    }
    if !name.starts_with("--") || name.len() <= 2 {
        return None;
    }
    let m: Vec<&Opt> = p
        .opts
        .iter()
        .filter(|o| o.flags.iter().any(|f| f.starts_with(name)))
        .collect();
    (m.len() == 1).then(|| m[0])
}

/// Why parsing failed: the message, and whether the top-level parser reports it.
pub struct ParseError {
    /// argparse4j's message (`argument --config/-c is required`).
    pub message: String,
    /// Reported by the top-level parser (an unrecognized argument), not the subcommand's.
    pub by_main: bool,
}

/// Parses `args` against `p`. An unrecognized argument is reported with `main`'s usage (the
/// top-level parser reports what a subcommand left over), the other errors with `p`'s.
pub fn parse(p: &Parser, main: &Parser, args: &[String]) -> Result<Parsed, ToolError> {
    parse_raw(p, args).map_err(|e| error(if e.by_main { main } else { p }, &e.message))
}

/// Parses `args` against `p`, giving the error's message rather than the usage text (for the
/// tools that print `Command line error: ...` instead, like `kafka-features`).
pub fn parse_raw(p: &Parser, args: &[String]) -> Result<Parsed, ParseError> {
    let fail = |message: String, by_main: bool| Err(ParseError { message, by_main });
    let mut ns = Namespace::default();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if a == "-h" || a == "--help" {
            return Ok(Parsed::Help);
        }
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (a, None),
        };
        let Some(o) = find(p, name).filter(|_| a.starts_with('-')) else {
            return fail(format!("unrecognized arguments: '{a}'"), true);
        };
        if let Some(g) = o.group {
            let other = p
                .opts
                .iter()
                .find(|x| x.group == Some(g) && x.flags != o.flags && ns.has(x.flags[0]));
            if let Some(x) = other {
                return fail(
                    format!(
                        "argument {}: not allowed with argument {}",
                        o.textual_name(),
                        x.textual_name()
                    ),
                    false,
                );
            }
        }
        let entry = ns.values.entry(o.flags[0]).or_default();
        match o.action {
            Action::StoreTrue => entry.push("true".into()),
            Action::Store | Action::Append => {
                let value = match inline {
                    Some(v) => v,
                    None => match args.get(i) {
                        // A negative number is a value (no option looks like one).
                        Some(v)
                            if !v.starts_with('-') || v.len() == 1 || v.parse::<f64>().is_ok() =>
                        {
                            i += 1;
                            v.clone()
                        }
                        _ => {
                            return fail(
                                format!("argument {}: expected one argument", o.textual_name()),
                                false,
                            )
                        }
                    },
                };
                entry.push(value);
            }
        }
    }
    if let Some(o) = p.opts.iter().find(|o| o.required && !ns.has(o.flags[0])) {
        return fail(format!("argument {} is required", o.textual_name()), false);
    }
    Ok(Parsed::Args(ns))
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Parser = Parser {
        prog: "kafka-storage format",
        opts: &[
            Opt::store(&["--config", "-c"]).required(),
            Opt::flag(&["--standalone", "-s"]).in_group(1),
            Opt::store(&["--initial-controllers", "-I"]).in_group(1),
        ],
        subcommands: None,
    };

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn options_groups_and_errors() {
        let Ok(Parsed::Args(ns)) = parse(&P, &P, &args(&["-c", "x", "--stand"])) else {
            panic!()
        };
        assert_eq!(ns.get("--config"), Some("x"));
        assert!(ns.has("--standalone"));
        let e = parse(&P, &P, &args(&["-s"])).err().unwrap();
        assert!(e
            .message
            .ends_with("kafka-storage format: error: argument --config/-c is required\n"));
        let e = parse(&P, &P, &args(&["-c", "x", "-s", "-I", "y"]))
            .err()
            .unwrap();
        assert!(e.message.ends_with(
            "error: argument --initial-controllers/-I: not allowed with argument --standalone/-s\n"
        ));
        assert_eq!(
            usage(&P),
            "usage: kafka-storage format [-h] --config CONFIG [--standalone |\n                            --initial-controllers INITIAL_CONTROLLERS]\n"
        );
    }
}
