//! File and function length limits, test code not counted.

use super::{production_code, Production, SourceFile};

/// Longest source file allowed, in lines of non-test code.
pub const MAX_FILE_LINES: usize = 800;
/// Longest function allowed, in lines from `fn` to its closing brace.
pub const MAX_FN_LINES: usize = 100;
/// Words a longer function's doc comment must hold, followed by the Java method's name
/// (e.g. "as long as Kafka's `KafkaRaftClient.handleFetchRequest`").
pub const KAFKA_LENGTH_MARK: &str = "as long as Kafka's";

/// What the size check measured.
#[derive(Debug, Default)]
pub struct SizeReport {
    /// Files measured.
    pub files: usize,
    /// Functions measured.
    pub functions: usize,
    /// Lines and path of the largest file.
    pub largest_file: (usize, String),
    /// Lines and `path:line name` of the longest function.
    pub longest_fn: (usize, String),
    /// Files and functions over the limits.
    pub problems: Vec<String>,
}

/// Measures every non-test file and function.
pub fn check(files: &[SourceFile]) -> SizeReport {
    let mut report = SizeReport::default();
    for (file, clean) in files.iter().zip(production_code_per_crate(files)) {
        let Some(Production { clean, test_lines }) = clean else {
            continue;
        };
        report.files += 1;
        let lines = file.text.lines().count().saturating_sub(test_lines);
        if lines > report.largest_file.0 {
            report.largest_file = (lines, file.path.clone());
        }
        if lines > MAX_FILE_LINES {
            report.problems.push(format!(
                "{}: {lines} lines of non-test code, over {MAX_FILE_LINES}: split it by concern",
                file.path
            ));
        }
        for f in functions(&clean) {
            report.functions += 1;
            let at = format!("{}:{} {}", file.path, f.line, f.name);
            if f.lines > report.longest_fn.0 {
                report.longest_fn = (f.lines, at.clone());
            }
            if f.lines > MAX_FN_LINES && !doc_before(&file.text, f.line).contains(KAFKA_LENGTH_MARK)
            {
                report.problems.push(format!(
                    "{at}: function of {} lines, over {MAX_FN_LINES}: split it into steps",
                    f.lines
                ));
            }
        }
    }
    report
}

/// `production_code` run per crate (files are grouped by their first path component).
fn production_code_per_crate(files: &[SourceFile]) -> Vec<Option<Production>> {
    let mut out = Vec::with_capacity(files.len());
    let mut start = 0;
    while start < files.len() {
        let krate = crate_of(&files[start].path);
        let end = start
            + files[start..]
                .iter()
                .take_while(|f| crate_of(&f.path) == krate)
                .count();
        out.extend(production_code(&files[start..end]));
        start = end;
    }
    out
}

/// `core` for `core/src/..`.
fn crate_of(path: &str) -> &str {
    path.split('/').next().unwrap_or("")
}

/// A function found in cleaned source.
#[derive(Debug, PartialEq, Eq)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// 1-based line of `fn`.
    pub line: usize,
    /// Lines from `fn` to the closing brace, both included.
    pub lines: usize,
}

/// Every function with a body in the cleaned source (declarations without a body skipped).
pub fn functions(clean: &str) -> Vec<Function> {
    let b = clean.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(n) = clean[from..].find("fn ") {
        let at = from + n;
        from = at + 3;
        if at > 0 && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_') {
            continue;
        }
        let name: String = clean[at + 3..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        let Some(open) = body_start(b, at + 3) else {
            continue;
        };
        let close = super::source::matching_brace(b, open);
        let line = clean[..at].matches('\n').count() + 1;
        let last = clean[..close].matches('\n').count() + 1;
        out.push(Function {
            name,
            line,
            lines: last - line + 1,
        });
    }
    out
}

/// The `{` opening the body of the function whose signature starts at `i`, or `None` when a `;`
/// ends it first (a trait method's declaration).
fn body_start(b: &[u8], i: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (j, c) in b.iter().enumerate().skip(i) {
        match c {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'{' if depth == 0 => return Some(j),
            b';' if depth == 0 => return None,
            _ => {}
        }
    }
    None
}

/// The `///` and attribute lines just above 1-based `line`, joined.
fn doc_before(text: &str, line: usize) -> String {
    let lines: Vec<&str> = text.lines().take(line - 1).collect();
    let doc: Vec<&str> = lines
        .iter()
        .rev()
        .map(|l| l.trim())
        .take_while(|l| l.starts_with("///") || l.starts_with("#["))
        .collect();
    doc.into_iter()
        .rev()
        .map(|l| l.trim_start_matches('/').trim())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_are_measured_from_fn_to_brace() {
        let src = "trait T { fn decl(&self) -> [u8; 2]; }\nfn one() {\n    let s = \"}\";\n}\nimpl X {\n    pub(crate) fn two<F: Fn() -> u8>(f: F) -> u8 where F: Copy {\n        f()\n    }\n}\n";
        let clean = super::super::source::blank_comments_and_literals(src);
        let got = functions(&clean);
        assert_eq!(
            got,
            [
                Function {
                    name: "one".into(),
                    line: 2,
                    lines: 3
                },
                Function {
                    name: "two".into(),
                    line: 6,
                    lines: 3
                },
            ]
        );
    }

    fn long_fn(doc: &str, body_lines: usize) -> String {
        format!(
            "{doc}\nfn long() {{\n{}}}\n",
            "    x();\n".repeat(body_lines)
        )
    }

    #[test]
    fn a_long_function_fails_unless_kafkas_is_as_long() {
        let file = |text: String| SourceFile {
            path: "core/src/a.rs".into(),
            module: vec!["a".into()],
            text,
        };
        let ok = check(&[file(long_fn("/// Short.", MAX_FN_LINES - 2))]);
        assert!(ok.problems.is_empty(), "{:?}", ok.problems);
        assert_eq!(ok.longest_fn.0, MAX_FN_LINES);
        let long = check(&[file(long_fn("/// Short.", MAX_FN_LINES - 1))]);
        assert_eq!(long.problems.len(), 1);
        assert!(long.problems[0].starts_with("core/src/a.rs:2 long: function of 101 lines"));
        let marked = format!("/// Steps of one fetch,\n/// {KAFKA_LENGTH_MARK} `A.b`.\n#[inline]");
        assert!(check(&[file(long_fn(&marked, 150))]).problems.is_empty());
    }

    #[test]
    fn test_code_does_not_count_toward_a_files_size() {
        let tests = format!(
            "#[cfg(test)]\nmod tests {{\n{}}}\n",
            "    // t\n".repeat(900)
        );
        let text = format!("{}{tests}", "const A: u8 = 1;\n\n".repeat(400));
        let file = SourceFile {
            path: "core/src/a.rs".into(),
            module: vec!["a".into()],
            text,
        };
        let report = check(&[file]);
        assert_eq!(report.largest_file.0, 800);
        assert!(report.problems.is_empty(), "{:?}", report.problems);
    }
}
