//! The page's two languages.

/// The language of the narration and of the lesson panel's labels (serialised as `ko` or
/// `en`).
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
