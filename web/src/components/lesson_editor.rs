//! Writing lessons in the page (`#lesson-editor`): a header button (`#btn-editor`) opens a
//! text area for the lesson language with the parser's error under it (line, column, the line
//! and a caret), kept in localStorage as it is typed so no text is lost on a reload; *Run* plays
//! it as the lesson, *Download* saves it as a `.lesson` file, and in free play *This session
//! as a lesson* writes the session's commands with what the engine printed (the previous text
//! stays one click away).

use std::rc::Rc;

use kraft_core::lesson::Lesson;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::address::encode_component;
use crate::i18n::EditorText;
use crate::state::{too_big, Action, Lang, MAX_LESSON_BYTES};

/// Where the draft is kept.
pub const DRAFT_KEY: &str = "kraft-lesson-draft";

/// What a new draft starts with.
const TEMPLATE: &str = "#title: My lesson\n#title-ko: 나의 레슨\n\n#ko: 컨트롤러 세 대와 브로커 한 대로 클러스터를 띄웁니다.\n#en: Start three controllers and one broker.\ncluster controllers=101,102,103 brokers=1 seed=7\n\n#ko: 첫 리더를 기다립니다.\n#en: Wait for the first leader.\nrun until=leader timeout=10s\n\npause\n";

/// Free play's session, for *This session as a lesson*: the `cluster` command, the seed and the
/// history.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    /// The `cluster` command free play ran.
    pub cluster: String,
    /// The seed.
    pub seed: u64,
    /// The history (see `Playground::history`).
    pub history: Rc<Vec<String>>,
}

/// Properties of [`LessonEditorButton`].
#[derive(Properties, PartialEq)]
pub struct LessonEditorProps {
    /// The language of the labels.
    pub lang: Lang,
    /// Runs the lesson.
    pub on_action: Callback<Action>,
    /// Free play's session (`None` in a lesson).
    #[prop_or_default]
    pub session: Option<Session>,
}

/// The draft kept in localStorage, if any.
fn stored_draft() -> Option<String> {
    let storage = web_sys::window()?.local_storage().ok()??;
    storage.get_item(DRAFT_KEY).ok()?
}

/// Keeps `text` in localStorage; `false` when the browser refuses (the text stays on screen).
fn store_draft(text: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .is_some_and(|s| s.set_item(DRAFT_KEY, text).is_ok())
}

/// The parser's verdict on `text`: `Ok(steps)`, or the error with the line and a caret under
/// its column.
pub fn verdict(text: &str) -> Result<usize, (String, Option<String>)> {
    if text.len() > MAX_LESSON_BYTES {
        return Err((too_big(text.len()), None));
    }
    match Lesson::parse("editor.lesson", text) {
        Ok(l) if l.steps.is_empty() => Err(("editor.lesson: the lesson has no step".into(), None)),
        Ok(l) => Ok(l.steps.len()),
        Err(e) => {
            let line = text.lines().nth(e.line.saturating_sub(1)).unwrap_or("");
            let caret = " ".repeat(e.column.saturating_sub(1).min(200)) + "^";
            Err((e.to_string(), Some(format!("{line}\n{caret}"))))
        }
    }
}

/// A file name for the lesson: its title in lower case, letters and digits joined by `-`.
pub fn file_name(text: &str) -> String {
    let title = text
        .lines()
        .find_map(|l| l.strip_prefix("#title:"))
        .unwrap_or("lesson");
    let slug: Vec<String> = title
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(8)
        .map(|w| w.to_ascii_lowercase())
        .collect();
    if slug.is_empty() {
        "lesson.lesson".into()
    } else {
        format!("{}.lesson", slug.join("-"))
    }
}

/// The header's editor button and the editor it opens.
#[component]
pub fn LessonEditorButton(props: &LessonEditorProps) -> Html {
    let open = use_state(|| false);
    let text = use_state(|| stored_draft().unwrap_or_else(|| TEMPLATE.to_string()));
    // The text before *This session as a lesson* replaced it.
    let previous = use_state(|| None::<String>);
    let kept = use_state(|| true);
    let w = EditorText::of(props.lang);
    let set_text = {
        let (text, kept) = (text.clone(), kept.clone());
        Callback::from(move |t: String| {
            kept.set(store_draft(&t));
            text.set(t);
        })
    };
    let on_input =
        set_text.reform(|e: InputEvent| e.target_unchecked_into::<HtmlTextAreaElement>().value());
    let toggle = |v: bool| {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(v))
    };
    let on_run = {
        let (text, open, on_action) = (text.clone(), open.clone(), props.on_action.clone());
        Callback::from(move |_: MouseEvent| {
            if verdict(&text).is_ok() {
                on_action.emit(Action::RunLessonText(Rc::from(text.as_str())));
                open.set(false);
            }
        })
    };
    let on_session = props.session.clone().map(|s| {
        let (text, previous, set_text) = (text.clone(), previous.clone(), set_text.clone());
        Callback::from(move |_: MouseEvent| {
            if let Ok(lesson) = crate::state::session_lesson(&s.cluster, s.seed, &s.history) {
                previous.set(Some((*text).clone()));
                set_text.emit(lesson);
            }
        })
    });
    let on_back = {
        let (previous, set_text) = (previous.clone(), set_text.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(p) = (*previous).clone() {
                set_text.emit(p);
                previous.set(None);
            }
        })
    };
    let verdict = verdict(&text);
    let href = format!("data:text/plain;charset=utf-8,{}", encode_component(&text));
    html! {
        <>
            <button id="btn-editor" class="editor-button" onclick={toggle(true)} title={w.title} aria-label={w.open}>{"✎"}</button>
            if *open {
                <div class="editor-overlay" role="dialog" aria-label={w.title}>
                    <section id="lesson-editor" class="lesson-editor" data-valid={verdict.is_ok().to_string()}>
                        <header class="editor-head">
                            <h2>{ w.title }</h2>
                            <button id="editor-close" onclick={toggle(false)}>{ format!("× {}", w.close) }</button>
                        </header>
                        <textarea id="lesson-editor-text" spellcheck="false" value={(*text).clone()} oninput={on_input}
                                  aria-label={w.title} />
                        { status(&verdict, w, *kept) }
                        <div class="editor-actions">
                            <button id="editor-run" onclick={on_run} disabled={verdict.is_err()}>{ w.run }</button>
                            <a id="editor-download" class="button" href={href} download={file_name(&text)}>{ w.download }</a>
                            if let Some(on_session) = on_session {
                                <button id="editor-session" onclick={on_session}>{ w.session }</button>
                            }
                            if previous.is_some() {
                                <button id="editor-back" onclick={on_back}>{ w.back }</button>
                            }
                        </div>
                    </section>
                </div>
            }
        </>
    }
}

/// The parser's verdict under the text: steps, or the error with its line and caret.
fn status(verdict: &Result<usize, (String, Option<String>)>, w: &EditorText, kept: bool) -> Html {
    let keep = if kept { w.saved } else { "" };
    match verdict {
        Ok(steps) => html! {
            <p id="lesson-editor-status" class="editor-ok">{ format!("✓ {} · {steps} steps · {keep}", w.ok) }</p>
        },
        Err((message, line)) => html! {
            <div id="lesson-editor-errors" class="editor-error" role="alert">
                <p>{ message.clone() }</p>
                if let Some(line) = line { <pre>{ line.clone() }</pre> }
            </div>
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_point_at_their_line_and_column() {
        assert_eq!(verdict(TEMPLATE), Ok(2));
        let (message, line) = verdict("status\n focus 1\n").unwrap_err();
        assert!(message.starts_with("editor.lesson:2:1:"), "{message}");
        assert_eq!(line.unwrap(), " focus 1\n^");
        let (message, line) = verdict(&"#".repeat(MAX_LESSON_BYTES + 1)).unwrap_err();
        assert!(message.contains("over the 195 KB"), "{message}");
        assert!(line.is_none());
        assert!(verdict("").unwrap_err().0.contains("no step"));
    }

    #[test]
    fn file_names_come_from_the_title() {
        assert_eq!(file_name(TEMPLATE), "my-lesson.lesson");
        assert_eq!(
            file_name("#title: 02 Électing <a> new/leader!\n"),
            "02-lecting-a-new-leader.lesson"
        );
        assert_eq!(file_name("status\n"), "lesson.lesson");
        assert_eq!(file_name("#title: ///\n"), "lesson.lesson");
    }
}
