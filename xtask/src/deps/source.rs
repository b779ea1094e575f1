//! Reading Rust source just enough to find its module paths: comments, string and char literals
//! blanked out, `#[cfg(test)]` items removed, `crate::` and `super::` paths collected.
//!
//! Blanking keeps every newline, so a byte offset in the cleaned text has the line number it has
//! in the file.

/// `src` with comments and the contents of string and char literals replaced by spaces (newlines
/// kept), so that a `crate::` inside a doc comment or a string is not taken for an import.
pub fn blank_comments_and_literals(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = src[i..].find('\n').map_or(b.len(), |n| i + n);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let (mut depth, mut j) = (1, i + 2);
                while j < b.len() && depth > 0 {
                    if b[j] == b'/' && b.get(j + 1) == Some(&b'*') {
                        depth += 1;
                        j += 2;
                    } else if b[j] == b'*' && b.get(j + 1) == Some(&b'/') {
                        depth -= 1;
                        j += 2;
                    } else {
                        j += 1;
                    }
                }
                blank(&mut out, i, j);
                i = j;
            }
            b'r' if raw_string_hashes(b, i).is_some() && !ident_byte_before(b, i) => {
                let hashes = raw_string_hashes(b, i).unwrap_or(0);
                let open = i + 1 + hashes + 1;
                let close: String = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let end = src[open..].find(&close).map_or(b.len(), |n| open + n);
                blank(&mut out, open, end);
                i = (end + close.len()).min(b.len());
            }
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                blank(&mut out, i + 1, j.min(b.len()));
                i = j + 1;
            }
            b'\'' => {
                // A char literal ('x', '\n', '\u{1F600}') or a lifetime ('a): only the former
                // closes with a quote within a few bytes.
                let close = if b.get(i + 1) == Some(&b'\\') {
                    src[i + 2..].find('\'').map(|n| i + 2 + n)
                } else {
                    src[i + 1..]
                        .char_indices()
                        .nth(1)
                        .filter(|(_, c)| *c == '\'')
                        .map(|(n, _)| i + 1 + n)
                };
                match close {
                    Some(end) if end - i <= 12 => {
                        blank(&mut out, i + 1, end);
                        i = end + 1;
                    }
                    _ => i += 1,
                }
            }
            _ => i += 1,
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

/// `Some(n)` when a raw string literal `r#..#"` with `n` hashes starts at `i`.
fn raw_string_hashes(b: &[u8], i: usize) -> Option<usize> {
    let hashes = b[i + 1..].iter().take_while(|c| **c == b'#').count();
    (b.get(i + 1 + hashes) == Some(&b'"')).then_some(hashes)
}

/// Whether the byte before `i` belongs to an identifier (so `r` at `i` is not a prefix).
fn ident_byte_before(b: &[u8], i: usize) -> bool {
    i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

/// The index just past the `}` matching the `{` at `open` (or the end of `s`).
pub fn matching_brace(s: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    for (j, c) in s.iter().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
    }
    s.len()
}

/// Cleaned source (`blank_comments_and_literals` output) with every `#[cfg(test)]` item blanked,
/// the names of the test-only child modules declared as `#[cfg(test)] mod name;`, and how many
/// lines the removed items spanned.
pub fn without_test_items(clean: &str) -> (String, Vec<String>, usize) {
    const ATTR: &str = "#[cfg(test)]";
    let mut out = clean.as_bytes().to_vec();
    let mut test_children = Vec::new();
    let mut test_lines = 0;
    let mut from = 0;
    while let Some(n) = clean[from..].find(ATTR) {
        let start = from + n;
        let item = start + ATTR.len();
        let rest = &clean[item..];
        let brace = rest.find('{').map(|n| item + n);
        let semi = rest.find(';').map(|n| item + n);
        let end = match (brace, semi) {
            (Some(b), Some(s)) if s < b => s + 1,
            (Some(b), _) => matching_brace(clean.as_bytes(), b),
            (None, Some(s)) => s + 1,
            (None, None) => clean.len(),
        };
        let words: Vec<&str> = clean[item..end]
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        if clean[..end].ends_with(';') {
            if let Some(pos) = words.iter().position(|w| *w == "mod") {
                if let Some(name) = words.get(pos + 1) {
                    test_children.push((*name).to_string());
                }
            }
        }
        for c in &mut out[start..end] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
        test_lines += clean[start..end].matches('\n').count() + 1;
        from = end;
    }
    (
        String::from_utf8(out).unwrap_or_default(),
        test_children,
        test_lines,
    )
}

/// One module path found in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathRef {
    /// 1-based line of the path.
    pub line: usize,
    /// How many `super::` start it (0 for a `crate::` path).
    pub supers: usize,
    /// The first segment after `crate::`/`super::`s (one per name of a `{..}` group).
    pub first: String,
}

/// Every `crate::x` and `super::..::x` path in the cleaned source; a `crate::{a, b::c}` group
/// gives one entry per top-level name in it.
pub fn path_refs(clean: &str) -> Vec<PathRef> {
    let b = clean.as_bytes();
    let mut refs = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let at_word_start = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        let after_colons = i >= 2 && &b[i - 2..i] == b"::";
        if !at_word_start || after_colons {
            i += 1;
            continue;
        }
        let (supers, mut j) = if clean[i..].starts_with("crate::") {
            (0, i + "crate::".len())
        } else if clean[i..].starts_with("super::") {
            let mut j = i;
            let mut n = 0;
            while clean[j..].starts_with("super::") {
                j += "super::".len();
                n += 1;
            }
            (n, j)
        } else {
            i += 1;
            continue;
        };
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        let line = clean[..i].matches('\n').count() + 1;
        if b.get(j) == Some(&b'{') {
            let end = matching_brace(b, j);
            for first in group_firsts(&clean[j + 1..end.saturating_sub(1)]) {
                refs.push(PathRef {
                    line,
                    supers,
                    first,
                });
            }
            i = end;
        } else {
            let first: String = clean[j..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !first.is_empty() {
                refs.push(PathRef {
                    line,
                    supers,
                    first,
                });
            }
            i = j;
        }
    }
    refs
}

/// The first segment of each path in the body of a `{..}` use group (nested groups skipped).
fn group_firsts(body: &str) -> Vec<String> {
    let mut segments = vec![String::new()];
    let mut depth = 0;
    for c in body.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => segments.push(String::new()),
            _ => {}
        }
        if depth == 0 && c != '}' && c != ',' {
            if let Some(last) = segments.last_mut() {
                last.push(c);
            }
        }
    }
    segments
        .iter()
        .map(|s| {
            s.trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|w| !w.is_empty() && w != "self")
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_strings_and_chars_are_blanked_lifetimes_kept() {
        let src = "use crate::a; // crate::b\n/* crate::c /* nested */ crate::d */\nlet s = \"crate::e \\\" crate::f\"; let r = r#\"crate::g\"#;\nfn f<'a>(x: &'a str) -> char { '{' }\n";
        let clean = blank_comments_and_literals(src);
        assert_eq!(clean.lines().count(), src.lines().count());
        let firsts: Vec<String> = path_refs(&clean).into_iter().map(|r| r.first).collect();
        assert_eq!(firsts, ["a"]);
        assert!(clean.contains("fn f<'a>(x: &'a str)"));
        assert!(clean.contains("{ ' ' }"), "{clean}");
    }

    #[test]
    fn groups_supers_and_lines_are_read() {
        let src = "use crate::{\n    a::B,\n    c::{d, e::F},\n    self,\n};\nfn x() { super::super::g::h(); y::crate_like(); other::crate::no(); }\n";
        let refs = path_refs(&blank_comments_and_literals(src));
        let got: Vec<(usize, usize, &str)> = refs
            .iter()
            .map(|r| (r.line, r.supers, r.first.as_str()))
            .collect();
        assert_eq!(got, [(1, 0, "a"), (1, 0, "c"), (6, 2, "g")]);
    }

    #[test]
    fn test_items_are_removed_and_test_children_named() {
        let src = "use crate::a;\n#[cfg(test)]\nuse crate::b;\n#[cfg(test)]\nmod tests {\n    use crate::c;\n    fn f() { { } }\n}\n#[cfg(test)]\nmod more;\nuse crate::d;\n";
        let (clean, children, lines) = without_test_items(&blank_comments_and_literals(src));
        assert_eq!(lines, 2 + 5 + 2);
        let firsts: Vec<String> = path_refs(&clean).into_iter().map(|r| r.first).collect();
        assert_eq!(firsts, ["a", "d"]);
        assert_eq!(children, ["more"]);
        assert_eq!(path_refs(&clean)[1].line, 11);
    }
}
