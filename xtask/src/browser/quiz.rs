//! Predict, then see (`#quiz`): lesson 02 asks which controller leads after 101's kill before
//! the step runs, counts raised hands on its choices, hides the answer while the step plays and
//! lights 102 (the engine's answer) once it has played; lesson 04's fencing quiz answers yes.

use std::path::Path;

use fantoccini::key::Key;
use fantoccini::Client;
use serde_json::Value;

use super::driver::{click, no_errors, press, screenshot, wait_until};
use super::stage::{open_at, restore_window, set_viewport};
use crate::Result;

/// The quiz as shown: mode, answer, choices (value, text, class), whether it fits the window.
const READ_JS: &str = "
    const q = document.getElementById('quiz');
    if (!q) return null;
    const r = q.getBoundingClientRect();
    return { mode: q.dataset.mode, answer: q.dataset.answer || null, playing: q.dataset.playing,
             step: Number(q.dataset.step), text: q.textContent,
             choices: Array.from(q.querySelectorAll('[data-choice]')).map(c =>
                 [c.dataset.choice, c.textContent, c.className]),
             fits: r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && r.height > 20 };";

async fn read(c: &Client) -> Result<Value> {
    Ok(c.execute(READ_JS, vec![]).await?)
}

/// Lesson 02 with its waits played at 1280×720: the quiz before `sleep 15s` is asked with three
/// lettered choices, two clicks on B count two hands, → plays the step with no answer shown,
/// then 102 is lit and the hands stay; at 1920×1080 too.
pub(super) async fn lesson_quiz(c: &Client, url: &str, artifacts: &Path) -> Result<()> {
    set_viewport(c, 1280, 720).await?;
    // Step 13 (1-based) is `sleep 15s`: asked with 12 steps run, answered with 13.
    let quiz_step = 13;
    let ask_at = quiz_step - 1;
    open_at(
        c,
        url,
        &format!("lesson=02-election&lang=en&step={ask_at}"),
        ask_at,
    )
    .await?;
    let v = wait_until("the quiz asked", || async {
        let v = read(c).await?;
        Ok((v["mode"] == "ask").then_some(v))
    })
    .await?;
    let choices: Vec<&str> = v["choices"]
        .as_array()
        .map(|a| a.iter().filter_map(|c| c[0].as_str()).collect())
        .unwrap_or_default();
    if choices != ["101", "102", "103"] || v["answer"] != Value::Null || v["fits"] != true {
        return Err(
            format!("the quiz is not asked with choices 101, 102, 103 on screen: {v}").into(),
        );
    }
    if !v["text"]
        .as_str()
        .unwrap_or("")
        .contains("Which controller")
    {
        return Err(format!("the quiz does not ask its question: {v}").into());
    }
    click(c, "#quiz [data-choice='102']").await?;
    click(c, "#quiz [data-choice='102']").await?;
    let v = read(c).await?;
    if !v["choices"][1][1].as_str().unwrap_or("").contains("×2") {
        return Err(format!("two clicks on 102 do not count two hands: {v}").into());
    }
    screenshot(c, &artifacts.join("quiz-ask-1280.png")).await;
    press(c, Key::Right).await?;
    let v = wait_until("the quiz's step playing", || async {
        let v = read(c).await?;
        Ok((v["mode"] == "playing" || v["mode"] == "answered").then_some(v))
    })
    .await?;
    if v["mode"] != "playing" || v["answer"] != Value::Null || v["playing"] != "true" {
        return Err(format!("the answer shows before the step has played: {v}").into());
    }
    let v = wait_until("the engine's answer", || async {
        let v = read(c).await?;
        Ok((v["mode"] == "answered").then_some(v))
    })
    .await?;
    let lit: Vec<&str> = v["choices"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|c| c[2].as_str().unwrap_or("").contains("correct"))
                .filter_map(|c| c[0].as_str())
                .collect()
        })
        .unwrap_or_default();
    if v["answer"] != "102" || lit != ["102"] || v["step"] != quiz_step - 1 || v["fits"] != true {
        return Err(format!("the answer is not 102 lit on screen: {v}").into());
    }
    if !v["choices"][1][1].as_str().unwrap_or("").contains("×2") {
        return Err(format!("the hands were lost when the answer came: {v}").into());
    }
    screenshot(c, &artifacts.join("quiz-answer-1280.png")).await;
    set_viewport(c, 1920, 1080).await?;
    screenshot(c, &artifacts.join("quiz-answer-1920.png")).await;
    fencing_quiz(c, url).await?;
    restore_window(c).await?;
    no_errors(c).await
}

/// Lesson 04's quiz (will broker 3 be fenced within 15 s?), answered `yes` by the engine when
/// the lesson opens past it without playing.
async fn fencing_quiz(c: &Client, url: &str) -> Result<()> {
    open_at(c, url, "lesson=04-fencing&lang=en&play=0", 0).await?;
    let k = super::stage::step_of(c, "run until=fenced=3 timeout=15s").await?;
    open_at(
        c,
        url,
        &format!("lesson=04-fencing&lang=en&play=0&step={k}"),
        k,
    )
    .await?;
    let v = read(c).await?;
    if v["answer"] != "yes" || v["mode"] != "answered" {
        return Err(format!("lesson 04's quiz is not answered yes: {v}").into());
    }
    Ok(())
}
