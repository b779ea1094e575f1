//! A line of narration (or a speaker note, or a quiz question) in one language.

/// A line of narration, with its language (`ko`, `en`, or `any` for a bare `#`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Narration {
    /// `ko`, `en` or `any`.
    pub lang: String,
    /// The text.
    pub text: String,
}
