//! `--add-config` and `--delete-config` parsing, as `ConfigCommand.parseConfigsToBeAdded` and
//! joptsimple's value splitting do it.

use super::message_error;
use crate::tools::ToolError;

/// The lookahead `(?=[^\]]*(?:\[|$))` at `pos`: the next bracket is an opening one, or none
/// follows (the separator is not inside `[...]`).
fn outside_brackets(s: &[char], pos: usize) -> bool {
    for c in &s[pos..] {
        match c {
            ']' => return false,
            '[' => return true,
            _ => {}
        }
    }
    true
}

/// Java's `s.split(",(?=[^\]]*(?:\[|$))")`: limit 0, so trailing empty strings are dropped.
fn split_pairs(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut matched = false;
    for (i, c) in chars.iter().enumerate() {
        if *c == ',' && outside_brackets(&chars, i + 1) {
            out.push(std::mem::take(&mut cur));
            matched = true;
        } else {
            cur.push(*c);
        }
    }
    out.push(cur);
    if matched {
        while out.last().is_some_and(|p| p.is_empty()) {
            out.pop();
        }
    }
    out
}

/// Java's `s.split("\\s*=\\s*(?=[^\]]*(?:\[|$))", -1)`, each part trimmed (as every use of a
/// part trims it, the whitespace around `=` can be dropped with it).
fn split_key_value(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    for (i, c) in chars.iter().enumerate() {
        if *c == '=' && outside_brackets(&chars, i + 1) {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.push(*c);
        }
    }
    out.push(cur);
    out
}

/// `parseConfigsToBeAdded` for `--add-config`: key-value pairs in the order given (a repeated
/// key keeps its first place and its last value).
pub(super) fn parse_configs_to_be_added(raw: &str) -> Result<Vec<(String, String)>, ToolError> {
    let pairs: Vec<Vec<String>> = split_pairs(raw)
        .iter()
        .map(|p| split_key_value(p))
        .collect();
    if pairs.iter().any(|p| p.len() != 2) {
        return Err(message_error(
            "Invalid entity config: all configs to be added must be in the format \"key=val\" or  \"key=[val1,val2]\" to group values which contain commas.",
        ));
    }
    let mut props: Vec<(String, String)> = Vec::new();
    for p in pairs {
        let key = p[0].trim().to_string();
        let value: String = p[1]
            .chars()
            .filter(|c| *c != '[' && *c != ']')
            .collect::<String>()
            .trim()
            .to_string();
        match props.iter_mut().find(|(k, _)| *k == key) {
            Some(e) => e.1 = value,
            None => props.push((key, value)),
        }
    }
    for (k, _) in &props {
        let valid = k
            .chars()
            .all(|c| c == '$' || c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-');
        if !valid {
            return Err(message_error(&format!(
                "Invalid character found for config key: {k}"
            )));
        }
    }
    Ok(props)
}

/// `--delete-config` values: joptsimple splits each at `,` (a StringTokenizer: empty pieces
/// vanish, an argument with no piece stays whole); ConfigCommand trims them.
pub(super) fn parse_configs_to_be_deleted(values: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for v in values {
        let pieces: Vec<&str> = v.split(',').filter(|p| !p.is_empty()).collect();
        if pieces.is_empty() {
            out.push(v.trim().to_string());
        } else {
            out.extend(pieces.iter().map(|p| p.trim().to_string()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_config_splits_like_config_command() {
        let p = parse_configs_to_be_added("a=1, b = 2,c=[x,y],d=").unwrap();
        assert_eq!(
            p,
            vec![
                ("a".to_string(), "1".to_string()),
                ("b".to_string(), "2".to_string()),
                ("c".to_string(), "x,y".to_string()),
                ("d".to_string(), String::new()),
            ]
        );
        assert_eq!(split_pairs("a=1,"), vec!["a=1"]);
        assert_eq!(split_pairs(""), vec![""]);
        assert!(split_pairs(",").is_empty());
        assert_eq!(split_key_value("k=[a=b]"), vec!["k", "[a=b]"]);
        assert!(parse_configs_to_be_added("a").is_err());
        assert!(parse_configs_to_be_added("a=b=c").is_err());
        assert!(parse_configs_to_be_added("a=1,,b=2").is_err());
        let e = parse_configs_to_be_added("a b=1").unwrap_err();
        assert_eq!(e.message, "Invalid character found for config key: a b\n");
    }

    #[test]
    fn delete_config_splits_like_joptsimple() {
        let v = vec!["a, b,,c".to_string(), ",".to_string()];
        assert_eq!(parse_configs_to_be_deleted(&v), vec!["a", "b", "c", ","]);
    }
}
