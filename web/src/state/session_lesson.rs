//! "Save this session as a lesson": free play's history (typed commands, the buttons as the
//! console commands they run, the time played) becomes a lesson whose outputs are what the
//! engine prints when the lesson runs, so `kraft check` passes it.

use kraft_core::lesson::runner::check;
use kraft_core::lesson::{Directive, Lesson};

use super::play::{play_line, PLAY_PREFIX};
use super::replay::FRAMES_PREFIX;
use crate::address::NEXT_STEP_LINE;

/// The lesson of a free-play session: `cluster` (the one free play ran) and each line of
/// `history` as a step (`#play Tms` and `#frames N MSms` as `sleep`), with the outputs the engine
/// prints; `Err` when it does not parse.
pub fn session_lesson(cluster: &str, seed: u64, history: &[String]) -> Result<String, String> {
    let mut text = format!(
        "#title: Session (seed {seed})\n#title-ko: 세션 (시드 {seed})\n\n#ko: 자유 실습에서 저장한 세션입니다 (시드 {seed}).\n#en: A free-play session saved as a lesson (seed {seed}).\n{cluster}\n\n"
    );
    for line in history {
        if let Some(step) = step_of(line) {
            text.push_str(&step);
            text.push_str("\n\n");
        }
    }
    let lesson = Lesson::parse("session.lesson", &text).map_err(|e| e.to_string())?;
    let (outputs, _) = check(&lesson);
    Ok(lesson.render(&outputs))
}

/// The lesson line for one history line (`None` for what is not a command of its own).
fn step_of(line: &str) -> Option<String> {
    let line = line.trim();
    if let Some(ms) = play_line(line) {
        return Some(format!("sleep {ms}ms"));
    }
    if let Some(rest) = line.strip_prefix(FRAMES_PREFIX) {
        let (n, ms) = rest.split_once(' ')?;
        let total = n.parse::<u64>().ok()? * ms.strip_suffix("ms")?.parse::<u64>().ok()?;
        return Some(format!("sleep {total}ms"));
    }
    // What a lesson reads as something else than a command.
    let other = line.is_empty()
        || line.starts_with('#')
        || line.starts_with(PLAY_PREFIX)
        || line == NEXT_STEP_LINE
        || line == "pause"
        || line == "----"
        || line.starts_with("quiz")
        || Directive::is_directive(line);
    (!other).then(|| line.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_becomes_a_lesson_that_checks() {
        let history: Vec<String> = [
            "kill -9 101",
            "#play 5000ms",
            "status",
            "#frames 4 50ms",
            "bogus",
            "show states",
            "pause",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let text = session_lesson(
            "cluster controllers=101,102,103 brokers=1 seed=7",
            7,
            &history,
        )
        .unwrap();
        assert!(text.contains("kill -9 101\n"), "{text}");
        assert!(text.contains("sleep 5000ms\n"), "{text}");
        assert!(text.contains("sleep 200ms\n"), "{text}");
        assert!(text.contains("status\n----\nseed 7"), "{text}");
        assert!(
            text.contains("bogus\n----\nerror: unknown command"),
            "{text}"
        );
        assert!(
            !text.contains("show states") && !text.contains("\npause"),
            "{text}"
        );
        let lesson = Lesson::parse("s.lesson", &text).unwrap();
        let (_, mismatches) = check(&lesson);
        assert!(mismatches.is_empty(), "{mismatches:?}");
    }
}
