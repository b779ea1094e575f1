//! The free console: a line typed into `#console-input` runs through `Console::exec` on Enter;
//! `$ command` and its output are appended to the scrollback `#console-output`. Up/Down walk
//! through the commands typed before.

use std::rc::Rc;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::i18n::LessonText;
use crate::state::{Action, ConsoleEntry, Lang};

/// Properties of [`ConsolePanel`].
#[derive(Properties, PartialEq)]
pub struct ConsolePanelProps {
    /// What was typed and printed, oldest first.
    pub scrollback: Rc<Vec<ConsoleEntry>>,
    /// The language of the labels.
    pub lang: Lang,
    /// Whether a lesson is playing (rewinding it drops what the console changed).
    pub lesson_mode: bool,
    /// Sends an action to the reducer.
    pub on_action: Callback<Action>,
}

/// The console panel.
#[component]
pub fn ConsolePanel(props: &ConsolePanelProps) -> Html {
    let l = LessonText::of(props.lang);
    // How far back in the typed commands Up went (None: the line being typed).
    let back = use_state(|| None::<usize>);
    let onkeydown = {
        let on_action = props.on_action.clone();
        let scrollback = props.scrollback.clone();
        let back = back.clone();
        Callback::from(move |e: KeyboardEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let commands: Vec<&str> = scrollback.iter().map(|x| x.command.as_str()).collect();
            match e.key().as_str() {
                "Enter" => {
                    let line = input.value();
                    input.set_value("");
                    back.set(None);
                    on_action.emit(Action::Exec(line));
                }
                "ArrowUp" if !commands.is_empty() => {
                    e.prevent_default();
                    let k = back.map_or(0, |k| (k + 1).min(commands.len() - 1));
                    input.set_value(commands[commands.len() - 1 - k]);
                    back.set(Some(k));
                }
                "ArrowDown" => {
                    e.prevent_default();
                    match *back {
                        Some(0) | None => {
                            input.set_value("");
                            back.set(None);
                        }
                        Some(k) => {
                            input.set_value(commands[commands.len() - k]);
                            back.set(Some(k - 1));
                        }
                    }
                }
                _ => {}
            }
        })
    };
    html! {
        <section class="panel console" id="console-panel" aria-label="console">
            <h2>{ l.console }
                if props.lesson_mode { <span class="sub">{" · "}{ l.rewind_note }</span> }
            </h2>
            <div class="scrollback" id="console-output" role="log" aria-live="polite"
                 data-entries={props.scrollback.len().to_string()}>
                <div>
                    { for props.scrollback.iter().map(|entry| html! {
                        <div class={classes!("entry", entry.failed.then_some("failed"))}>
                            <div class="cmd">{ format!("$ {}", entry.command) }</div>
                            if !entry.output.is_empty() {
                                <pre class="out">{ entry.output.clone() }</pre>
                            }
                        </div>
                    }) }
                </div>
            </div>
            <div class="prompt">
                <span class="dollar">{"$"}</span>
                <input id="console-input" type="text" autocomplete="off" spellcheck="false"
                       placeholder={l.console_hint} aria-label={l.console} {onkeydown} />
            </div>
        </section>
    }
}
