//! Every piece of the page's text that differs by language, Korean and English side by side, one
//! file per area of the page. Each area is a struct of `&'static str` fields declared with
//! `texts!`: an entry reads `name: "한국어" | "English",` (or `name: "Same",` for a text that
//! is deliberately the same in both), and the struct gets two instances, `KO` and `EN`, and
//! `of(lang)` to pick one. A component looks its struct up once per render and reads fields:
//! no allocation and no hashing per label.
//!
//! A text around a value whose place differs between the languages holds `{}` where the value
//! goes, and [`fill`] puts it there. Kafka's names (MetadataImage, BrokerState, High watermark,
//! record names) stay as Kafka spells them and need no entry. Text the engine writes (the
//! changes' words, a lesson's `#ko:` / `#en:` narration) is the engine's, not the page's.

use yew::prelude::*;

/// Declares a struct of texts and its Korean and English instances from entries written side by
/// side: `name: "한국어" | "English",`, or `name: "Same",` for a text that reads the same in
/// both languages. The struct gets `KO`, `EN` and `of(lang)`.
macro_rules! texts {
    (@en $ko:literal) => { $ko };
    (@en $ko:literal $en:literal) => { $en };
    (@same $ko:literal) => { true };
    (@same $ko:literal $en:literal) => { false };
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[$doc:meta])*
                $field:ident: $ko:literal $(| $en:literal)?
            ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, PartialEq, Eq)]
        pub struct $name {
            $( $(#[$doc])* pub $field: &'static str, )+
        }

        impl $name {
            /// The texts in Korean.
            pub const KO: $name = $name { $( $field: $ko, )+ };
            /// The texts in English.
            pub const EN: $name = $name { $( $field: texts!(@en $ko $($en)?), )+ };

            /// The texts in `lang`.
            pub const fn of(lang: $crate::i18n::Lang) -> &'static $name {
                match lang {
                    $crate::i18n::Lang::Ko => &Self::KO,
                    $crate::i18n::Lang::En => &Self::EN,
                }
            }

            /// Every entry, for the checks.
            #[cfg(test)]
            pub(crate) fn area() -> $crate::i18n::tests::Area {
                $crate::i18n::tests::Area {
                    name: stringify!($name),
                    entries: vec![$(
                        $crate::i18n::tests::Entry {
                            key: stringify!($field),
                            ko: Self::KO.$field,
                            en: Self::EN.$field,
                            same: texts!(@same $ko $($en)?),
                        },
                    )+],
                }
            }
        }
    };
}

mod changes;
mod chrome;
mod diagrams;
mod editor;
mod figures;
mod help;
mod hw_two;
mod lesson;
mod quorum;
mod rules;
mod sequence;
mod share;

pub use changes::ChangesText;
pub use chrome::{use_chrome, Chrome};
pub use diagrams::{BrokerDiagramText, StateDiagramText};
pub use editor::EditorText;
pub use figures::{TimelineText, WriteLifeText};
pub use help::{HelpText, WelcomeText};
pub use hw_two::HwTwoText;
pub use lesson::{LessonText, QuizText, SpeakerText};
pub use quorum::QuorumText;
pub use rules::RulesText;
pub use sequence::SequenceText;
pub use share::{EmbedText, QrText};

/// The language of the narration and of the page's text (serialised as `ko` or `en`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// Korean (the default).
    #[default]
    Ko,
    /// English.
    En,
}

impl Lang {
    /// `ko` or `en`, as in `#ko:` lines and `?lang=`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Ko => "ko",
            Lang::En => "en",
        }
    }

    /// Reads `ko` or `en`.
    pub fn from_code(code: &str) -> Option<Lang> {
        match code {
            "ko" => Some(Lang::Ko),
            "en" => Some(Lang::En),
            _ => None,
        }
    }
}

/// The language the page provides as context (Korean without one).
#[hook]
pub fn use_lang() -> Lang {
    use_context::<Lang>().unwrap_or_default()
}

/// `text` with its `{}` replaced by `value`: for words around a value whose order differs
/// between the languages (`컨트롤러 {} 가 보기에` / `controller {} sees`).
pub fn fill(text: &str, value: impl std::fmt::Display) -> String {
    text.replacen("{}", &value.to_string(), 1)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// One entry of an area: its key and its two texts.
    pub(crate) struct Entry {
        pub key: &'static str,
        pub ko: &'static str,
        pub en: &'static str,
        /// Written once: the same in both languages on purpose.
        pub same: bool,
    }

    /// An area's entries, in the order written.
    pub(crate) struct Area {
        pub name: &'static str,
        pub entries: Vec<Entry>,
    }

    /// Every area of the page's text.
    fn areas() -> Vec<Area> {
        vec![
            Chrome::area(),
            TimelineText::area(),
            WriteLifeText::area(),
            HelpText::area(),
            WelcomeText::area(),
            LessonText::area(),
            QuizText::area(),
            SpeakerText::area(),
            RulesText::area(),
            ChangesText::area(),
            SequenceText::area(),
            EditorText::area(),
            QrText::area(),
            EmbedText::area(),
            StateDiagramText::area(),
            BrokerDiagramText::area(),
            QuorumText::area(),
            HwTwoText::area(),
        ]
    }

    fn has_hangul(s: &str) -> bool {
        s.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c))
    }

    #[test]
    fn every_area_is_checked() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/i18n");
        let mut declared = 0;
        for file in std::fs::read_dir(dir).expect("the i18n folder") {
            let path = file.expect("a file").path();
            if path.file_name().is_some_and(|n| n != "mod.rs") {
                let text = std::fs::read_to_string(&path).expect("a source file");
                declared += text.matches("texts! {").count();
            }
        }
        assert_eq!(declared, areas().len(), "an area missing from areas()");
    }

    #[test]
    fn every_key_has_both_languages() {
        for area in areas() {
            for e in &area.entries {
                let at = format!("{}.{}", area.name, e.key);
                assert!(
                    !e.ko.trim().is_empty() && !e.en.trim().is_empty(),
                    "{at} is empty"
                );
                if e.same {
                    assert_eq!(e.ko, e.en, "{at}");
                    continue;
                }
                // Written twice, the two must differ: the Korean is Korean, the English is not.
                assert_ne!(e.ko, e.en, "{at}: the same text twice, write it once");
                assert!(
                    has_hangul(e.ko),
                    "{at}: the Korean has no Hangul: {:?}",
                    e.ko
                );
                assert!(
                    !has_hangul(e.en),
                    "{at}: the English has Hangul: {:?}",
                    e.en
                );
                assert_eq!(
                    e.ko.matches("{}").count(),
                    e.en.matches("{}").count(),
                    "{at}: the two languages fill a different number of values"
                );
                // A text put beside a value keeps the same space on the same side.
                let edges = |t: &str| (t.starts_with(' '), t.ends_with(' '));
                assert_eq!(edges(e.ko), edges(e.en), "{at}: the spaces around differ");
            }
        }
    }

    /// Keys whose English is the same on purpose while their Korean differs: (area, key, key).
    const SAME_ENGLISH: [(&str, &str, &str); 1] = [
        // RECOVERY → RUNNING (펜스 풀림: it got unfenced) and the controller's view of a
        // registered broker (펜스 안 됨: not fenced) both read "unfenced" in English.
        ("BrokerDiagramText", "unfenced", "sees_unfenced"),
    ];

    #[test]
    fn no_two_keys_share_the_english_of_different_korean() {
        for area in areas() {
            for (i, a) in area.entries.iter().enumerate() {
                for b in &area.entries[i + 1..] {
                    let known = SAME_ENGLISH.contains(&(area.name, a.key, b.key));
                    assert!(
                        a.en != b.en || a.ko == b.ko || known,
                        "{}: {} and {} read {:?} in English but {:?} and {:?} in Korean",
                        area.name,
                        a.key,
                        b.key,
                        a.en,
                        a.ko,
                        b.ko
                    );
                }
            }
        }
    }

    #[test]
    fn lang_reads_and_writes_its_code() {
        for lang in [Lang::Ko, Lang::En] {
            assert_eq!(Lang::from_code(lang.code()), Some(lang));
        }
        assert_eq!(Lang::from_code("de"), None);
        assert_eq!(Lang::default(), Lang::Ko);
        assert_eq!(serde_json::to_string(&Lang::En).unwrap(), "\"en\"");
        assert_eq!(fill("컨트롤러 {} 가 보기에", 101), "컨트롤러 101 가 보기에");
    }
}
