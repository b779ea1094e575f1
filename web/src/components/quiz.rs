//! Predict, then see (`#quiz`): before a step with a `quiz` runs, the lesson strip asks the
//! room its question with one button per choice (`[data-choice]`, lettered, each click counts a
//! raised hand); → runs the step, and once it has played the choice the engine's run gives is
//! lit (`data-answer`). While the step plays the answer stays hidden (`data-playing`).

use std::collections::BTreeMap;

use yew::prelude::*;

use crate::i18n::QuizText;
use crate::state::{Lang, LessonRun};

/// Which quiz the strip shows, and how.
#[derive(Clone, Debug, PartialEq)]
pub enum QuizMode {
    /// The next step's quiz, asked before it runs.
    Ask,
    /// The quiz of the step being played: the answer is not out yet.
    Playing,
    /// The quiz of the step just run, with the engine's answer.
    Answered(String),
}

/// The quiz the strip shows for `run`, if any: its step index and mode.
pub fn quiz_mode(run: &LessonRun) -> Option<(usize, QuizMode)> {
    let pos = run.pos;
    let steps = &run.lesson.steps;
    if let Some(k) = pos.checked_sub(1).filter(|k| steps[*k].quiz.is_some()) {
        if run.playing.is_some() {
            return Some((k, QuizMode::Playing));
        }
        if let Some(Some(answer)) = run.answers.get(k) {
            return Some((k, QuizMode::Answered(answer.clone())));
        }
    }
    (run.playing.is_none() && steps.get(pos).is_some_and(|s| s.quiz.is_some()))
        .then_some((pos, QuizMode::Ask))
}

/// Properties of [`QuizCard`].
#[derive(Properties, PartialEq)]
pub struct QuizCardProps {
    /// The lesson and how far it ran.
    pub run: std::rc::Rc<LessonRun>,
    /// The quiz's step.
    pub step: usize,
    /// How it shows.
    pub mode: QuizMode,
    /// The language.
    pub lang: Lang,
}

/// The quiz card: the question, the lettered choices with the hands counted, and the answer.
#[function_component]
pub fn QuizCard(props: &QuizCardProps) -> Html {
    let hands = use_state(BTreeMap::<usize, u32>::new);
    let Some(quiz) = props
        .run
        .lesson
        .steps
        .get(props.step)
        .and_then(|s| s.quiz.as_ref())
    else {
        return html! {};
    };
    let t = QuizText::of(props.lang);
    let (mode, status) = match &props.mode {
        QuizMode::Ask => ("ask", t.ask),
        QuizMode::Playing => ("playing", t.playing),
        QuizMode::Answered(_) => ("answered", t.answered),
    };
    let answer = match &props.mode {
        QuizMode::Answered(a) => Some(a.clone()),
        _ => None,
    };
    let choice = |(i, c): (usize, &String)| {
        let letter = char::from(b'A' + i as u8);
        let count = hands.get(&i).copied().unwrap_or(0);
        let onclick = {
            let hands = hands.clone();
            Callback::from(move |_: MouseEvent| {
                let mut next = (*hands).clone();
                *next.entry(i).or_insert(0) += 1;
                hands.set(next);
            })
        };
        let lit = answer.as_deref().map(|a| a == c);
        html! {
            <li>
                <button class={classes!("quiz-choice", lit.map(|l| if l { "correct" } else { "wrong" }))}
                        data-choice={c.clone()} onclick={onclick}
                        disabled={answer.is_some()}>
                    <span class="quiz-letter">{ letter }</span>
                    <span class="quiz-text">{ c.clone() }</span>
                    if count > 0 { <span class="quiz-hands">{ format!("×{count}") }</span> }
                    if lit == Some(true) { <span class="quiz-mark">{ "✔" }</span> }
                </button>
            </li>
        }
    };
    html! {
        <section id="quiz" class={classes!("quiz", format!("quiz-{mode}"))} data-mode={mode}
                 data-step={props.step.to_string()} data-fact={quiz.fact.to_string()}
                 data-answer={answer.clone()} data-playing={(mode == "playing").to_string()}
                 aria-live="polite">
            <p class="quiz-question"><span class="quiz-q">{ "?" }</span>{ quiz.question_in(props.lang.code()) }</p>
            <ol class="quiz-choices">{ for quiz.choices.iter().enumerate().map(choice) }</ol>
            <p class="quiz-status">{ status }</p>
        </section>
    }
}
