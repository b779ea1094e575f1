//! Lesson mode: the picker and language toggle in the header, and the lesson panel (the current
//! step's narration, `$ command`, its output, the expected output when it differs, previous/next,
//! progress and a row of steps to jump to).

use std::rc::Rc;

use kraft_core::lesson::runner::normalize;
use kraft_core::lesson::wait::PlayedWait;
use kraft_core::lesson::Step;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::address::{self, Param};
use crate::i18n::{Chrome, LessonText};
use crate::lessons;
use crate::state::{Action, Lang, LessonRun};

/// Properties of [`LessonPicker`].
#[derive(Properties, PartialEq)]
pub struct LessonPickerProps {
    /// The lesson being played, by index in [`lessons::LESSONS`].
    pub current: Option<usize>,
    /// The language.
    pub lang: Lang,
    /// Sends an action to the reducer.
    pub on_action: Callback<Action>,
}

/// The lesson picker.
#[component]
pub fn LessonPicker(props: &LessonPickerProps) -> Html {
    let l = LessonText::of(props.lang);
    let titles = use_memo(props.lang, |lang| {
        (0..lessons::LESSONS.len())
            .map(|i| lessons::title_for(i, *lang))
            .collect::<Vec<_>>()
    });
    let on_change = props.on_action.reform(|e: Event| {
        let select = e.target_unchecked_into::<HtmlSelectElement>();
        let value = select.value();
        // Give the keys back to the lesson (arrows would change the menu otherwise).
        let _ = select.blur();
        let choice = lessons::find(&value);
        address::set_param(Param::Lesson, choice.map(|i| lessons::LESSONS[i].0));
        Action::ChooseLesson(choice)
    });
    html! {
        <div class="lesson-picker">
            <label>
                <span class="visually-hidden">{ l.lesson }</span>
                <select id="lesson-picker" onchange={on_change} title={l.lesson}>
                    <option value="" selected={props.current.is_none()}>{ l.free_play }</option>
                    { for lessons::LESSONS.iter().enumerate().map(|(i, (name, _))| html! {
                        <option value={*name} selected={props.current == Some(i)}>{ titles[i].clone() }</option>
                    }) }
                </select>
            </label>
        </div>
    }
}

/// Properties of [`LangToggle`].
#[derive(Properties, PartialEq)]
pub struct LangToggleProps {
    /// The language.
    pub lang: Lang,
    /// Sends an action to the reducer.
    pub on_action: Callback<Action>,
}

/// 한국어 / English: the narration's and the page's language.
#[component]
pub fn LangToggle(props: &LangToggleProps) -> Html {
    let lang_button = |lang: Lang, label: &str, title: &str| {
        let on_click = props.on_action.reform(move |_: MouseEvent| {
            address::set_param(Param::Lang, Some(lang.code()));
            Action::SetLang(lang)
        });
        let active = props.lang == lang;
        html! {
            <button id={format!("lang-{}", lang.code())} class={classes!("tab", active.then_some("active"))}
                    aria-pressed={active.to_string()} onclick={on_click} title={title.to_string()}>{ label.to_string() }</button>
        }
    };
    html! {
        <span class="lang-toggle" id="lang-toggle" role="group" aria-label="language">
            { lang_button(Lang::Ko, "한국어", "한국어") }
            { lang_button(Lang::En, "EN", "English") }
        </span>
    }
}

/// Properties of [`LessonPanel`] and [`LessonNav`].
#[derive(Properties, PartialEq)]
pub struct LessonPanelProps {
    /// The lesson and how far it ran.
    pub run: Rc<LessonRun>,
    /// The narration language.
    pub lang: Lang,
    /// The played clock (virtual ms) while a wait step plays.
    #[prop_or_default]
    pub clock_ms: f64,
    /// Sends an action to the reducer.
    pub on_action: Callback<Action>,
}

/// The lesson's title for `lang` (its `#title-ko:` in Korean when it has one).
pub fn lesson_title(run: &LessonRun, lang: Lang) -> String {
    let l = &run.lesson;
    match lang {
        Lang::Ko if !l.title_ko.is_empty() => l.title_ko.clone(),
        _ if !l.title.is_empty() => l.title.clone(),
        _ => run.name().to_string(),
    }
}

/// The header's lesson controls: ⟲ restart, ◀ previous, step k / n, next ▶.
#[component]
pub fn LessonNav(props: &LessonPanelProps) -> Html {
    let l = LessonText::of(props.lang);
    let run = &props.run;
    let (pos, n) = (run.pos, run.len());
    let send = |action: Action| props.on_action.reform(move |_: MouseEvent| action.clone());
    let playing = run.playing.is_some();
    html! {
        <div class="lesson-nav" id="lesson-nav">
            <button id="lesson-prev" onclick={send(Action::LessonPrev)} disabled={pos == 0} title={l.prev}>{"◀"}</button>
            <span id="lesson-progress" class="progress">{ format!("{} {pos} / {n}", l.step) }</span>
            <button id="lesson-next" class={classes!("next", playing.then_some("skip"))} onclick={send(Action::LessonNext)}
                    disabled={pos >= n && !playing} title={l.next}>{ if playing { "▶▶" } else { "▶" } }</button>
        </div>
    }
}

/// The lesson strip: the current step's narration beside its `$ command` and output (or the
/// wait playing, with how far it is), the pause marker, and a bar of every step to jump to.
#[component]
pub fn LessonPanel(props: &LessonPanelProps) -> Html {
    let l = LessonText::of(props.lang);
    let t = crate::i18n::use_chrome();
    let run = &props.run;
    let n = run.len();
    let pos = run.pos;
    let lang = props.lang.code();

    // A step with no command (a pause, the closing words) gives its narration the whole width;
    // a short command with an output of a line or two leaves it most of the width.
    let no_command = pos == 0 || run.lesson.steps[pos - 1].command.is_empty();
    let short_terminal = !no_command && short_terminal(run);
    // A long narration (over 220 characters) takes the wider column: it is read aloud.
    let long_narration = !no_command
        && step_narration(run, lang)
            .0
            .iter()
            .map(|t| t.chars().count())
            .sum::<usize>()
            > 220;
    let (narration, terminal) = if pos == 0 {
        (
            html! { <p class="hint" id="lesson-start">{ l.start_hint }</p> },
            html! {},
        )
    } else {
        current_step(props, l, t)
    };

    // A quiz asked before its step takes the strip's body; answered, it sits under it.
    let quiz = super::quiz::quiz_mode(run);
    let asking = matches!(quiz, Some((_, super::quiz::QuizMode::Ask)));
    let quiz = match quiz {
        Some((k, mode)) => html! {
            <super::quiz::QuizCard key={k.to_string()} run={run.clone()} step={k} mode={mode} lang={props.lang} />
        },
        None => html! {},
    };
    html! {
        <section class="panel lesson" id="lesson-panel" aria-label="lesson"
                 data-lesson={run.name().to_string()} data-step={pos.to_string()} data-steps={n.to_string()}
                 data-playing={run.playing.is_some().to_string()} data-lang={lang}>
            <h2 id="lesson-title" class="visually-hidden">{ lesson_title(run, props.lang) }</h2>
            <div class={classes!("strip-body", no_command.then_some("no-command"), short_terminal.then_some("short-terminal"), long_narration.then_some("long-narration"), asking.then_some("asking"))}>
                <div class="strip-narration">{ narration }</div>
                { terminal }
            </div>
            { quiz }
            { step_chips(props, l) }
        </section>
    }
}

/// The step just run (the lesson is past its start): its narration, its terminal (`$ command`,
/// the wait playing, the output, the expected output when it differs) and its pause marker.
fn current_step(props: &LessonPanelProps, l: &LessonText, t: &Chrome) -> (Html, Html) {
    let run = &props.run;
    let (n, pos) = (run.len(), run.pos);
    let step = &run.lesson.steps[pos - 1];
    let (texts, carried) = step_narration(run, props.lang.code());
    let playing = run.playing.as_ref().map(|p| wait_playing(p, props, t));
    // The pause cue and the end of the lesson follow the last words on their line, so they
    // take no line of their own when there is room.
    let end = pos == n && run.playing.is_none();
    let markers = html! {
        <>
            if step.pause {
                <span class="pause-marker" id="lesson-pause" role="note">{ l.pause }</span>
            }
            if end {
                <span class="hint lesson-end" id="lesson-end">{ l.end }</span>
            }
        </>
    };
    let last = texts.len().saturating_sub(1);
    let paragraph = |i: usize, text: &str| {
        let tail = if i == last {
            markers.clone()
        } else {
            html! {}
        };
        html! { <p>{ text.to_string() }{ " " }{ tail }</p> }
    };
    (
        html! {
            <div id="lesson-narration" class={classes!("narration", carried.then_some("carried"))}>
                { for texts.iter().enumerate().map(|(i, t)| paragraph(i, t)) }
                if texts.is_empty() && (step.pause || end) {
                    <p>{ markers.clone() }</p>
                }
            </div>
        },
        if step.command.is_empty() {
            html! {}
        } else {
            terminal(
                step,
                run.outputs.get(pos - 1).cloned().flatten(),
                playing,
                l,
            )
        },
    )
}

/// Whether the step just run shows little in its terminal: a command of at most 48 characters
/// and an output of at most two lines (none yet while it plays).
fn short_terminal(run: &LessonRun) -> bool {
    let k = run.pos - 1;
    let output_lines = run
        .outputs
        .get(k)
        .and_then(|o| o.as_deref())
        .map_or(0, |o| o.lines().count());
    run.lesson.steps[k].command.chars().count() <= 48 && output_lines <= 2
}

/// The narration of the step just run in `lang`, and whether it is carried: a step without
/// narration of its own (the second command of a group) keeps showing the narration of the step
/// that introduced the group, dimmed.
fn step_narration<'a>(run: &'a LessonRun, lang: &str) -> (Vec<&'a str>, bool) {
    let pos = run.pos;
    let narration_of = |k: usize| -> Vec<&str> {
        run.lesson.steps[k]
            .narration
            .iter()
            .filter(|x| x.lang == lang || x.lang == "any")
            .map(|x| x.text.as_str())
            .collect()
    };
    let own = narration_of(pos - 1);
    if own.is_empty() {
        let before = (0..pos - 1)
            .rev()
            .map(narration_of)
            .find(|n| !n.is_empty())
            .unwrap_or_default();
        (before, true)
    } else {
        (own, false)
    }
}

/// A wait step playing: a bar of how far it is, the virtual seconds played of its span and the
/// moment's pace, and the button that skips to its end.
fn wait_playing(p: &PlayedWait, props: &LessonPanelProps, t: &Chrome) -> Html {
    let w = &p.wait;
    let done = (props.clock_ms - w.start_ms as f64).max(0.0);
    let span = w.end_ms.saturating_sub(w.start_ms);
    let send = |action: Action| props.on_action.reform(move |_: MouseEvent| action.clone());
    html! {
        <div class="wait-playing" id="lesson-playing" data-moment={p.pace.moment.name()}
             data-rate={format!("{:.1}", p.pace.rate)}>
            <span class="wait-bar"><span class="wait-fill" style={format!("width: {:.1}%", w.progress(props.clock_ms) * 100.0)}></span></span>
            <span class="wait-text">{ format!("{} {:.3} / {:.3} s · {}", t.playing, done / 1000.0, span as f64 / 1000.0, LessonText::of(props.lang).moment(p.pace.moment.name())) }</span>
            <button id="lesson-skip" class="skip" onclick={send(Action::LessonNext)}>{ t.skip }</button>
        </div>
    }
}

/// The terminal of a step with a command: `$ command`, the wait `playing`, the `output` (red
/// when it failed) and the output the lesson expects when it differs.
fn terminal(step: &Step, output: Option<String>, playing: Option<Html>, l: &LessonText) -> Html {
    let mismatch = expected_if_different(step, output.as_deref());
    let failed = output.as_deref().is_some_and(|o| o.starts_with("error: "));
    html! {
        <div class="terminal" id="lesson-terminal">
            <div class="cmd" id="lesson-command">{ format!("$ {}", step.command) }</div>
            { for playing }
            <pre id="lesson-output" data-pinned={step.expected.is_some().to_string()}
                 class={classes!(failed.then_some("failed"), mismatch.is_some().then_some("mismatch"))}>{ output.clone().unwrap_or_default() }</pre>
            if let Some(exp) = mismatch {
                <div class="expected" id="lesson-expected">
                    <div class="expected-head">{ l.expected }</div>
                    <pre>{ exp }</pre>
                </div>
            }
        </div>
    }
}

/// The row of every step to jump to: done, current, and the pauses marked.
fn step_chips(props: &LessonPanelProps, l: &LessonText) -> Html {
    let run = &props.run;
    let pos = run.pos;
    let send = |action: Action| props.on_action.reform(move |_: MouseEvent| action.clone());
    html! {
        <ol class="lesson-steps" id="lesson-steps" aria-label={l.steps}>
            { for run.lesson.steps.iter().enumerate().map(|(i, s)| {
                let k = i + 1;
                let label = if s.command.is_empty() { "❚❚".to_string() } else { s.command.clone() };
                html! {
                    <li>
                        <button class={classes!("step-chip", (k == pos).then_some("current"), (k < pos).then_some("done"), s.pause.then_some("pause"))}
                                data-step={k.to_string()} title={format!("{} {k}: {label}", l.step)}
                                aria-label={format!("{} {k}", l.step)} onclick={send(Action::LessonGoto(k))}></button>
                    </li>
                }
            }) }
        </ol>
    }
}

/// The output `step` pins, when `output` (what the engine printed) differs from it; compared as
/// `kraft check` does ([`normalize`]: without trailing white space).
pub fn expected_if_different(step: &Step, output: Option<&str>) -> Option<String> {
    match (&step.expected, output) {
        (Some(exp), Some(out)) if normalize(exp) != normalize(out) => Some(exp.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_differing_output_shows_what_the_lesson_expects() {
        let l = kraft_core::lesson::Lesson::parse("x.lesson", "status\n----\nx\n\nheal\n").unwrap();
        let (pinned, bare) = (&l.steps[0], &l.steps[1]);
        assert_eq!(expected_if_different(pinned, Some("x")), None);
        assert_eq!(
            expected_if_different(pinned, Some("y")).as_deref(),
            Some("x")
        );
        assert_eq!(expected_if_different(bare, Some("y")), None);
        assert_eq!(
            expected_if_different(pinned, Some("x\t ")),
            None,
            "trailing tabs"
        );
    }
}
