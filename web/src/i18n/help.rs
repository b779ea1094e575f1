//! The keyboard help overlay and the first-visit card.

texts! {
    /// The keyboard help's texts in one language: its heading, its close button and what each
    /// shortcut does.
    pub struct HelpText {
        /// The heading.
        title: "키보드 단축키" | "Keyboard shortcuts",
        /// The close button.
        close: "✕ 닫기" | "✕ Close",
        /// `?`.
        open_help: "이 도움말 열기" | "open this keyboard help",
        /// `Esc`.
        close_help: "도움말이나 노드 메뉴 닫기" | "close this keyboard help, or a node's menu",
        /// `→ / Space` in a lesson.
        lesson_next: "레슨: 다음 단계 (기다림이 재생 중이면 끝으로)"
            | "lesson: the next step (while a wait plays: skip to its end)",
        /// `←` in a lesson.
        lesson_back: "레슨: 한 단계 뒤로 (처음부터 다시 실행)"
            | "lesson: back one step (replays from the start)",
        /// `Home` in a lesson.
        lesson_start: "레슨: 처음으로" | "lesson: back to the start",
        /// The digits on the stage.
        stage_tab: "무대: 옆 패널 탭 고르기" | "stage: pick a side panel tab",
        /// `→` in free play.
        free_step: "자유 실습: 이벤트 하나 (되감은 뒤에는 앞으로 다시)"
            | "free play: step one event (after a rewind: forward again along what happened)",
        /// `←` in free play.
        free_back: "자유 실습: 이벤트 하나 뒤로 (체크포인트와 결정적 재실행)"
            | "free play: back one event (a checkpoint and a deterministic replay)",
        /// `Space / t` in free play.
        free_play: "자유 실습: 재생 / 멈춤 · 한 프레임"
            | "free play: play / pause · one frame of virtual time",
        /// `Tab, Enter` on the drawing.
        node_menu: "그림: 노드를 고르고 메뉴 열기" | "cluster drawing: focus a node, open its menu",
        /// `Enter` in the console.
        console_run: "콘솔: 입력한 명령 실행" | "console: run the typed command",
        /// `↑` in the console.
        console_previous: "콘솔: 이전 명령" | "console: the previous command",
        /// `↓` in the console.
        console_next: "콘솔: 다음 명령" | "console: the next command",
        /// `help` typed into the console.
        console_help: "콘솔: 명령 목록" | "console: the list of commands",
        /// The sequence diagram's keys.
        sequence_keys: "시퀀스 다이어그램: 확대 · 축소 · 이전 · 이후 · 최근 변화"
            | "sequence diagram: zoom in · out · earlier · later · the newest change",
    }
}

impl HelpText {
    /// Every keyboard shortcut of the page, in the order the help lists them: the keys (the same
    /// in both languages) and what they do.
    pub fn shortcuts(&self) -> [(&'static str, &'static str); 15] {
        [
            ("?", self.open_help),
            ("Esc", self.close_help),
            ("→ / Space", self.lesson_next),
            ("←", self.lesson_back),
            ("Home", self.lesson_start),
            ("1 … 9, 0", self.stage_tab),
            ("→", self.free_step),
            ("←", self.free_back),
            ("Space / t", self.free_play),
            ("Tab, Enter", self.node_menu),
            ("Enter", self.console_run),
            ("↑", self.console_previous),
            ("↓", self.console_next),
            ("help", self.console_help),
            ("= - [ ] End", self.sequence_keys),
        ]
    }
}

texts! {
    /// The first-visit card's texts in one language: heading, what the page is, and the three
    /// ways in.
    pub struct WelcomeText {
        /// The heading.
        title: "KRaft Playground",
        /// What the page is.
        what: "브라우저 안에서 도는 Apache Kafka KRaft 클러스터입니다. 컨트롤러 쿼럼의 Raft 선거, 메타데이터 로그의 복제와 하이 워터마크, 브로커의 하트비트와 펜스를 한 단계씩 보며 배웁니다. 모든 숫자는 시뮬레이터가 실제로 계산한 것이고, 같은 시드는 같은 실행을 줍니다."
            | "A whole Apache Kafka KRaft cluster running in your browser. Watch the controller quorum's Raft election, the metadata log's replication and high watermark, and the brokers' heartbeats and fencing, one step at a time. Every number comes from the simulated cluster; the same seed gives the same run.",
        /// The button that opens lesson 02.
        lesson: "레슨 02: 리더를 죽여 보기" | "Lesson 02: kill the leader",
        /// The button that stays in free play.
        free_play: "자유 실습" | "Free play",
        /// The button that opens the keyboard help.
        keys: "키보드 단축키" | "Keys",
    }
}
