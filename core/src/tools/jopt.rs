//! A small joptsimple: the option parser of Kafka's Java tools (`--name value`, `--name=value`,
//! unambiguous abbreviations, typed arguments), with joptsimple's exception texts.

use std::collections::BTreeMap;

/// What an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// No argument (`--list`).
    None,
    /// A required string argument (`--topic orders`).
    Str,
    /// A required integer argument (`--partitions 3`).
    Int,
}

/// A joptsimple `OptionException`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    /// The exception class, e.g. `joptsimple.UnrecognizedOptionException`.
    pub class: &'static str,
    /// Its message, e.g. `foo is not a recognized option`.
    pub message: String,
}

impl OptionError {
    /// `class: message`, as Java's `Throwable.toString()` prints it.
    pub fn to_java_string(&self) -> String {
        format!("{}: {}", self.class, self.message)
    }
}

/// Parsed options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    values: BTreeMap<&'static str, Vec<String>>,
    /// Arguments that are not options, in order.
    pub non_options: Vec<String>,
}

impl Options {
    /// Whether `name` was given.
    pub fn has(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    /// The first argument of `name`.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values
            .get(name)
            .and_then(|v| v.first())
            .map(|s| s.as_str())
    }

    /// Every argument of `name`, in order.
    pub fn values(&self, name: &str) -> &[String] {
        self.values.get(name).map(|v| v.as_slice()).unwrap_or(&[])
    }

    /// The first argument of `name` as an integer (already validated by [`parse`]).
    pub fn int(&self, name: &str) -> Option<i64> {
        self.value(name).and_then(|v| v.trim().parse().ok())
    }
}

/// Parse `args` against `spec` as joptsimple's `OptionParser.parse` does.
pub fn parse(spec: &[(&'static str, Arg)], args: &[String]) -> Result<Options, OptionError> {
    let mut out = Options::default();
    let mut i = 0;
    let mut only_non_options = false;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if only_non_options || !a.starts_with('-') || a == "-" {
            out.non_options.push(a.clone());
            continue;
        }
        if a == "--" {
            only_non_options = true;
            continue;
        }
        let body = a.trim_start_matches('-');
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        let found = spec.iter().find(|(n, _)| *n == name).copied().or_else(|| {
            let matches: Vec<_> = spec
                .iter()
                .filter(|(n, _)| !name.is_empty() && n.starts_with(name))
                .collect();
            if matches.len() == 1 {
                Some(*matches[0])
            } else {
                None
            }
        });
        let Some((opt, kind)) = found else {
            return Err(OptionError {
                class: "joptsimple.UnrecognizedOptionException",
                message: format!("{name} is not a recognized option"),
            });
        };
        let entry = out.values.entry(opt).or_default();
        match kind {
            Arg::None => {
                if inline.is_some() {
                    return Err(OptionError {
                        class: "joptsimple.UnrecognizedOptionException",
                        message: format!("{name} is not a recognized option"),
                    });
                }
            }
            Arg::Str | Arg::Int => {
                let value = match inline {
                    Some(v) => v,
                    None => {
                        let Some(v) = args.get(i) else {
                            return Err(OptionError {
                                class: "joptsimple.OptionMissingRequiredArgumentException",
                                message: format!("Option {opt} requires an argument"),
                            });
                        };
                        i += 1;
                        v.clone()
                    }
                };
                if kind == Arg::Int && value.trim().parse::<i32>().is_err() {
                    return Err(OptionError {
                        class: "joptsimple.OptionArgumentConversionException",
                        message: format!("Cannot parse argument '{value}' of option {opt}"),
                    });
                }
                entry.push(value);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    const SPEC: &[(&str, Arg)] = &[
        ("topic", Arg::Str),
        ("topic-id", Arg::Str),
        ("partitions", Arg::Int),
        ("list", Arg::None),
    ];

    #[test]
    fn parses_like_joptsimple() {
        let o = parse(SPEC, &args(&["--topic", "a", "--part=3", "--list", "x"])).unwrap();
        assert_eq!(o.value("topic"), Some("a"));
        assert_eq!(o.int("partitions"), Some(3));
        assert!(o.has("list"));
        assert_eq!(o.non_options, vec!["x"]);
        let e = parse(SPEC, &args(&["--foo"])).unwrap_err();
        assert_eq!(
            e.to_java_string(),
            "joptsimple.UnrecognizedOptionException: foo is not a recognized option"
        );
        // "top" is ambiguous (topic, topic-id).
        assert!(parse(SPEC, &args(&["--top", "a"])).is_err());
        let e = parse(SPEC, &args(&["--topic"])).unwrap_err();
        assert_eq!(e.message, "Option topic requires an argument");
        let e = parse(SPEC, &args(&["--partitions", "x"])).unwrap_err();
        assert_eq!(e.message, "Cannot parse argument 'x' of option partitions");
    }
}
