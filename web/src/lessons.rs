//! The lessons compiled into the page: every `lessons/*.lesson` file, by name (its file name
//! without `.lesson`, which is what `?lesson=` takes).
//!
//! The lessons are compiled in with `include_str!`. To add `lessons/NN-name.lesson`, add one line
//! `"NN-name",` to [`LESSONS`] below, in file-name order. The test `every_lesson_file_is_listed`
//! (`cargo test -p kraft-web`) fails when a file in `lessons/` is missing here, and the browser
//! test fails when `02-election` is not compiled in.

use kraft_core::lesson::{Lesson, ParseError};

/// `("03-timeline", include_str!("../../lessons/03-timeline.lesson"))` for each name.
macro_rules! lessons {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../lessons/", $name, ".lesson")))),*]
    };
}

/// `(name, text)` of every lesson, in the order the picker shows them.
pub const LESSONS: &[(&str, &str)] = lessons![
    "01-metadata-log",
    "02-election",
    "02b-split-vote",
    "02c-overloaded",
    "03-timeline",
    "03b-revert-live",
    "04-fencing",
    "05-check-quorum",
    "06-snapshots",
    "07-rule-session-fencing",
    "08-rule-prevote",
    "09-rule-durable-vote",
    "10-rule-vote-log-check",
    "11-rule-hw-epoch-start",
    "12-rule-check-quorum",
    "13-rule-revert-on-renounce",
    "14-rule-snapshot-after-replay",
    "15-rule-loader-catch-up",
    "16-grow-quorum",
    "17-remove-leader",
    "18-majorities",
    "19-static-to-dynamic",
    "20-rule-single-voter-change",
    "21-two-high-watermarks",
    "22-rule-isr-high-watermark",
];

/// The index in [`LESSONS`] of the lesson called `name`.
pub fn find(name: &str) -> Option<usize> {
    LESSONS.iter().position(|(n, _)| *n == name)
}

/// Parses lesson `index` of [`LESSONS`].
pub fn parse(index: usize) -> Result<Lesson, ParseError> {
    let (name, text) = LESSONS[index];
    Lesson::parse(&format!("{name}.lesson"), text)
}

/// The title the picker shows for lesson `index`: its `#title:`, else its name.
pub fn title(index: usize) -> String {
    title_for(index, crate::state::Lang::En)
}

/// The title of lesson `index` in `lang`: its `#title-ko:` in Korean, else its `#title:`, else
/// its name.
pub fn title_for(index: usize, lang: crate::state::Lang) -> String {
    match parse(index) {
        Ok(l) if lang == crate::state::Lang::Ko && !l.title_ko.is_empty() => l.title_ko,
        Ok(l) if !l.title.is_empty() => l.title,
        _ => LESSONS[index].0.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lesson_parses() {
        for (i, (name, _)) in LESSONS.iter().enumerate() {
            let l = parse(i).unwrap_or_else(|e| panic!("{e}"));
            assert!(!l.steps.is_empty(), "{name} has no steps");
        }
    }

    #[test]
    fn every_lesson_file_is_listed() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../lessons");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .expect("lessons/ exists")
            .filter_map(|e| {
                let name = e.ok()?.file_name().into_string().ok()?;
                name.strip_suffix(".lesson").map(str::to_string)
            })
            .collect();
        files.sort();
        let listed: Vec<String> = LESSONS.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(
            listed, files,
            "web/src/lessons.rs must list every lessons/*.lesson"
        );
    }
}
