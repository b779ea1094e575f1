//! Lessons: executable documents. A lesson file is narration, commands and their expected
//! outputs; the same file runs narrated in the page and checked in `cargo test`.

pub mod console;
pub mod directive;
pub mod narration;
pub mod parse;
pub mod quiz;
pub mod rewind;
pub mod runner;
pub mod settings;
pub mod stage;
pub mod test_records;
pub mod wait;

pub use console::{Begun, Console};
pub use directive::{Directive, Highlight, Panel};
pub use parse::{Lesson, ParseError, Step};
pub use stage::Stage;
