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

/// Where a module path starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// `crate::`
    Crate,
    /// `super::` this many times.
    Super(usize),
    /// `self::`
    SelfModule,
}

/// One module path found in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathRef {
    /// 1-based line of the path.
    pub line: usize,
    /// What it is relative to.
    pub anchor: Anchor,
    /// The segments after the anchor (one `PathRef` per leaf of a `{..}` group; `self` in a
    /// group kept as a segment).
    pub segments: Vec<String>,
}

impl PathRef {
    /// The first segment after the anchor.
    pub fn first(&self) -> &str {
        self.segments.first().map_or("", String::as_str)
    }
}

/// Every `crate::..`, `super::..` and `self::..` path in the cleaned source; a use group such as
/// `crate::{a, b::{c, d}}` gives one entry per leaf (`a`, `b::c`, `b::d`).
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
        let (anchor, j) = if clean[i..].starts_with("crate::") {
            (Anchor::Crate, i + "crate::".len())
        } else if clean[i..].starts_with("self::") {
            (Anchor::SelfModule, i + "self::".len())
        } else if clean[i..].starts_with("super::") {
            let mut j = i;
            let mut n = 0;
            while clean[j..].starts_with("super::") {
                j += "super::".len();
                n += 1;
            }
            (Anchor::Super(n), j)
        } else {
            i += 1;
            continue;
        };
        let line = clean[..i].matches('\n').count() + 1;
        let (leaves, end) = path_tree(clean, j);
        for segments in leaves {
            refs.push(PathRef {
                line,
                anchor,
                segments,
            });
        }
        i = end.max(j);
    }
    refs
}

/// The leaves of the path (or use tree) starting at `j`, and where it ends.
fn path_tree(s: &str, mut j: usize) -> (Vec<Vec<String>>, usize) {
    let b = s.as_bytes();
    let mut prefix = Vec::new();
    loop {
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if b.get(j) == Some(&b'{') {
            let end = matching_brace(b, j);
            let mut leaves = Vec::new();
            for part in top_level_parts(&s[j + 1..end.saturating_sub(1)]) {
                for leaf in path_tree(part, 0).0 {
                    leaves.push(prefix.iter().cloned().chain(leaf).collect());
                }
            }
            return (leaves, end);
        }
        let ident: String = s[j..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if ident.is_empty() {
            break;
        }
        j += ident.len();
        prefix.push(ident);
        if s[j..].starts_with("::") {
            j += 2;
        } else {
            break;
        }
    }
    let leaves = if prefix.is_empty() {
        Vec::new()
    } else {
        vec![prefix]
    };
    (leaves, j)
}

/// The comma-separated parts of a use group's body, nested groups kept whole.
fn top_level_parts(body: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (k, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&body[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[start..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_strings_and_chars_are_blanked_lifetimes_kept() {
        let src = "use crate::a; // crate::b\n/* crate::c /* nested */ crate::d */\nlet s = \"crate::e \\\" crate::f\"; let r = r#\"crate::g\"#;\nfn f<'a>(x: &'a str) -> char { '{' }\n";
        let clean = blank_comments_and_literals(src);
        assert_eq!(clean.lines().count(), src.lines().count());
        let firsts: Vec<String> = path_refs(&clean).iter().map(|r| r.first().into()).collect();
        assert_eq!(firsts, ["a"]);
        assert!(clean.contains("fn f<'a>(x: &'a str)"));
        assert!(clean.contains("{ ' ' }"), "{clean}");
    }

    #[test]
    fn groups_supers_and_lines_are_read() {
        let src = "use crate::{\n    a::B,\n    c::{d, e::F},\n    self,\n};\nfn x() { super::super::g::h(); y::crate_like(); other::crate::no(); self::k::L::<u8>::m() }\n";
        let refs = path_refs(&blank_comments_and_literals(src));
        let got: Vec<(usize, Anchor, String)> = refs
            .iter()
            .map(|r| (r.line, r.anchor, r.segments.join("::")))
            .collect();
        let want = [
            (1, Anchor::Crate, "a::B"),
            (1, Anchor::Crate, "c::d"),
            (1, Anchor::Crate, "c::e::F"),
            (1, Anchor::Crate, "self"),
            (6, Anchor::Super(2), "g::h"),
            (6, Anchor::SelfModule, "k::L"),
        ];
        let want: Vec<(usize, Anchor, String)> = want
            .iter()
            .map(|(l, a, p)| (*l, *a, p.to_string()))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn test_items_are_removed_and_test_children_named() {
        let src = "use crate::a;\n#[cfg(test)]\nuse crate::b;\n#[cfg(test)]\nmod tests {\n    use crate::c;\n    fn f() { { } }\n}\n#[cfg(test)]\nmod more;\nuse crate::d;\n";
        let (clean, children, lines) = without_test_items(&blank_comments_and_literals(src));
        assert_eq!(lines, 2 + 5 + 2);
        let firsts: Vec<String> = path_refs(&clean).iter().map(|r| r.first().into()).collect();
        assert_eq!(firsts, ["a", "d"]);
        assert_eq!(children, ["more"]);
        assert_eq!(path_refs(&clean)[1].line, 11);
    }
}
