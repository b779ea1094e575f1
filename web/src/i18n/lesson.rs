//! Lesson mode: the picker, the lesson strip and the console, the quiz the strip asks, and the
//! speaker's window of the presenter view.

texts! {
    /// The lesson panel's and console's labels in one language.
    pub struct LessonText {
        /// The picker's label.
        lesson: "레슨" | "lesson",
        /// The picker's entry for no lesson.
        free_play: "자유 실습 (레슨 없음)" | "free play (no lesson)",
        /// `step` in `step k / n`.
        step: "단계" | "step",
        /// The previous-step button.
        prev: "◀ 이전" | "◀ Previous",
        /// The next-step button.
        next: "다음 ▶" | "Next ▶",
        /// The restart button.
        restart: "⟲ 처음부터" | "⟲ Restart",
        /// The pause marker.
        pause: "❚❚ 여기서 멈추고 설명합니다" | "❚❚ Pause here to explain",
        /// Shown before the first step.
        start_hint: "→ 또는 Space 를 누르면 첫 단계를 실행합니다."
            | "Press → or Space to run the first step.",
        /// Shown after the last step.
        end: "레슨 끝." | "End of the lesson.",
        /// The keyboard hint.
        keys: "→ / Space 다음 · ← 이전 · Home 처음부터"
            | "→ / Space next · ← previous · Home restart",
        /// Heading of the expected output that differs.
        expected: "레슨에 적힌 기대 출력과 다릅니다:"
            | "differs from the output the lesson expects:",
        /// Heading of the row of steps.
        steps: "단계로 이동" | "jump to step",
        /// The console panel's heading.
        console: "콘솔" | "console",
        /// The console input's placeholder.
        console_hint: "명령을 입력하고 Enter (예: status, kill -9 101, run until=leader)"
            | "type a command and press Enter (e.g. status, kill -9 101, run until=leader)",
        /// Shown when the console has no world yet.
        no_cluster: "아직 클러스터가 없습니다. `cluster` 명령이 클러스터를 띄웁니다."
            | "No cluster yet: a `cluster` command starts one.",
        /// A note that rewinding drops what was typed.
        rewind_note: "이전 단계로 가면 레슨을 처음부터 다시 실행합니다 (콘솔에서 바꾼 것은 사라집니다)."
            | "Going back replays the lesson from the start (what the console changed is gone).",
        /// A playing wait's moment: an election.
        moment_election: "선거 중: 아주 느리게" | "election: very slow",
        /// A playing wait's moment: a commit.
        moment_commit: "커밋을 기다림: 느리게" | "waiting for a commit: slow",
        /// A playing wait's moment: a timer running out.
        moment_timer: "타이머가 곧 끝남: 느리게" | "a timer runs out: slow",
        /// A playing wait's moment: a broker session running out.
        moment_session: "세션이 곧 끝남: 느리게" | "a session runs out: slow",
        /// A playing wait's moment: nothing happens.
        moment_idle: "조용함: 빠르게" | "idle: fast",
    }
}

impl LessonText {
    /// What a playing wait's moment (its `data-moment`) is called, for the strip.
    pub fn moment(&self, moment: &str) -> &'static str {
        match moment {
            "election" => self.moment_election,
            "commit" => self.moment_commit,
            "timer" => self.moment_timer,
            "session" => self.moment_session,
            _ => self.moment_idle,
        }
    }
}

texts! {
    /// The quiz card's status line in one language.
    pub struct QuizText {
        /// Before the step runs: the room raises hands.
        ask: "손을 들어 세어 보세요(선택지를 누르면 한 명씩 늘어납니다). → 를 누르면 단계가 실행되고 엔진의 답이 나옵니다."
            | "Count the hands (a click on a choice adds one). → runs the step and shows the engine's answer.",
        /// While the step plays.
        playing: "▶ 단계가 재생 중입니다. 끝나면 엔진의 답이 나옵니다."
            | "▶ The step plays; the engine's answer shows when it ends.",
        /// Once the step ran.
        answered: "엔진의 답" | "The engine's answer",
    }
}

texts! {
    /// The speaker panel's labels in one language.
    pub struct SpeakerText {
        /// Heading of the notes.
        notes: "발표자 메모" | "speaker notes",
        /// When the step has no notes.
        no_notes: "이 단계에는 메모가 없습니다." | "No notes for this step.",
        /// Heading of the next step's preview.
        next: "다음 단계" | "next step",
        /// After the last step.
        last: "마지막 단계입니다." | "This is the last step.",
        /// Heading of the elapsed time.
        elapsed: "경과" | "elapsed",
        /// The button that restarts the clock.
        reset: "⟲",
        /// The button that opens the audience window.
        open: "청중 창 열기 ↗" | "Open the audience window ↗",
        /// The audience window answered.
        connected: "청중 창 연결됨" | "audience window connected",
        /// The audience window has not answered.
        waiting: "청중 창 기다리는 중" | "waiting for the audience window",
        /// The browser blocked the window.
        blocked: "브라우저가 새 창을 막았습니다: 허용하고 다시 누르세요."
            | "The browser blocked the window: allow pop-ups and press again.",
    }
}
