//! The speaker's window of the presenter view (`?presenter=1`): the lesson strip (narration,
//! `$ command`, output), the step's speaker notes, a preview of the next step, the time since
//! the talk started, and the pairing with the audience window (open it, connected or not).

use std::rc::Rc;

use gloo_timers::callback::Interval;
use kraft_core::lesson::parse::Narration;
use yew::prelude::*;

use crate::components::lesson_panel::LessonPanel;
use crate::i18n::SpeakerText;
use crate::presenter::link::open_audience;
use crate::state::{Action, Lang, LessonRun};

/// Properties of [`SpeakerPanel`].
#[derive(Properties, PartialEq)]
pub struct SpeakerPanelProps {
    /// The lesson and how far it ran (`None` in free play).
    pub run: Option<Rc<LessonRun>>,
    /// The language.
    pub lang: Lang,
    /// The played clock (virtual ms) while a wait step plays.
    pub clock_ms: f64,
    /// Sends an action to the reducer.
    pub on_action: Callback<Action>,
    /// The pair's link id.
    pub link: AttrValue,
    /// Whether the audience window has answered.
    pub peer: bool,
}

/// The texts of `lines` in `lang` (and those for every language).
fn in_lang(lines: &[Narration], lang: Lang) -> Vec<String> {
    lines
        .iter()
        .filter(|n| n.lang == lang.code() || n.lang == "any")
        .map(|n| n.text.clone())
        .collect()
}

/// `m:ss` (or `h:mm:ss`) of a number of seconds.
pub fn clock_text(seconds: u64) -> String {
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// The speaker's strip: the lesson panel beside the notes, the next step and the clock.
#[component]
pub fn SpeakerPanel(props: &SpeakerPanelProps) -> Html {
    let l = SpeakerText::of(props.lang);
    let blocked = use_state(|| false);
    let on_open = {
        let (link, blocked) = (props.link.clone(), blocked.clone());
        Callback::from(move |_: MouseEvent| blocked.set(!open_audience(&link)))
    };
    // Try at once: a browser that blocks windows opened without a click shows the button.
    {
        let link = props.link.clone();
        use_effect_with((), move |_| {
            let _ = open_audience(&link);
        });
    }
    let (notes, next) = match &props.run {
        Some(run) => step_notes_and_next(run, props.lang, l),
        None => (html! {}, html! {}),
    };
    html! {
        <section class="panel speaker" id="speaker" data-link={props.link.clone()}>
            if let Some(run) = &props.run {
                <LessonPanel run={run.clone()} lang={props.lang} clock_ms={props.clock_ms}
                             on_action={props.on_action.clone()} />
            }
            { notes }
            <div class="speaker-side">
                { next }
                <Elapsed lang={props.lang} />
                <div class="presenter-link" id="presenter-link"
                     data-peer={if props.peer { "connected" } else { "waiting" }}>
                    <span class="peer-dot"></span>
                    <span>{ if props.peer { l.connected } else { l.waiting } }</span>
                    <button id="open-audience" onclick={on_open}>{ l.open }</button>
                    if *blocked {
                        <p class="error" role="alert">{ l.blocked }</p>
                    }
                </div>
            </div>
        </section>
    }
}

/// The notes of the step just run, and the preview of the step to come.
fn step_notes_and_next(run: &LessonRun, lang: Lang, l: &SpeakerText) -> (Html, Html) {
    let notes = run
        .pos
        .checked_sub(1)
        .and_then(|k| run.lesson.steps.get(k))
        .map(|s| in_lang(&s.notes, lang))
        .unwrap_or_default();
    let notes = html! {
        <div class="speaker-notes" id="speaker-notes" data-count={notes.len().to_string()}>
            <h3>{ l.notes }</h3>
            if notes.is_empty() {
                <p class="empty">{ l.no_notes }</p>
            }
            { for notes.iter().map(|n| html! { <p class="note">{ n.clone() }</p> }) }
        </div>
    };
    let next = match run.lesson.steps.get(run.pos) {
        Some(s) => html! {
            <div class="next-step" id="next-step" data-step={(run.pos + 1).to_string()}>
                <h3>{ format!("{} {}", l.next, run.pos + 1) }</h3>
                { for in_lang(&s.narration, lang).into_iter().take(2).map(|n| html! { <p>{ n }</p> }) }
                if !s.command.is_empty() {
                    <code>{ format!("$ {}", s.command) }</code>
                }
            </div>
        },
        None => html! {
            <div class="next-step" id="next-step" data-step="end"><h3>{ l.next }</h3><p>{ l.last }</p></div>
        },
    };
    (notes, next)
}

/// Properties of [`Elapsed`].
#[derive(Properties, PartialEq)]
struct ElapsedProps {
    lang: Lang,
}

/// The wall-clock time since the speaker window opened (or since ⟲), every second.
#[component]
fn Elapsed(props: &ElapsedProps) -> Html {
    let l = SpeakerText::of(props.lang);
    let start = use_state(js_sys::Date::now);
    let now = use_state(js_sys::Date::now);
    {
        let now = now.clone();
        use_effect_with((), move |_| {
            let timer = Interval::new(1000, move || now.set(js_sys::Date::now()));
            move || drop(timer)
        });
    }
    let seconds = ((*now - *start).max(0.0) / 1000.0) as u64;
    let on_reset = {
        let (start, now) = (start.clone(), now.clone());
        Callback::from(move |_: MouseEvent| {
            let t = js_sys::Date::now();
            start.set(t);
            now.set(t);
        })
    };
    html! {
        <div class="elapsed">
            <span>{ l.elapsed }{" "}</span>
            <strong id="elapsed" data-seconds={seconds.to_string()}>{ clock_text(seconds) }</strong>
            <button id="elapsed-reset" onclick={on_reset} title={l.reset}>{ l.reset }</button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_reads_minutes_and_hours() {
        assert_eq!(clock_text(0), "0:00");
        assert_eq!(clock_text(65), "1:05");
        assert_eq!(clock_text(3 * 3600 + 7), "3:00:07");
    }

    #[test]
    fn notes_are_picked_in_the_language() {
        let l = kraft_core::lesson::Lesson::parse(
            "n.lesson",
            "#note: all\n#note-ko: 한\n#note-en: en\nstatus\n",
        )
        .unwrap();
        assert_eq!(in_lang(&l.steps[0].notes, Lang::En), ["all", "en"]);
        assert_eq!(in_lang(&l.steps[0].notes, Lang::Ko), ["all", "한"]);
    }
}
