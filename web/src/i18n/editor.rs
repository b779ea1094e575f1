//! The lesson editor (`#lesson-editor`).

texts! {
    /// The lesson editor's labels in one language.
    pub struct EditorText {
        /// The header button's accessible name.
        open: "레슨 편집기" | "Lesson editor",
        /// The editor's heading (and the header button's title).
        title: "레슨 편집기: 쓰고, 실행하고, 내려받기" | "Lesson editor: write, run, download",
        /// The button that plays the text as the lesson.
        run: "▶ 실행" | "▶ Run",
        /// The button that saves the text as a file.
        download: "⤓ 내려받기" | "⤓ Download",
        /// The button that writes free play's session as a lesson.
        session: "이 세션을 레슨으로" | "This session as a lesson",
        /// The button that restores the text the session replaced.
        back: "↶ 내 글로 돌아가기" | "↶ Back to my text",
        /// The close button.
        close: "닫기" | "Close",
        /// The status of a text that parses.
        ok: "문법 오류 없음" | "no syntax errors",
        /// The status while the text is kept in localStorage.
        saved: "입력하는 대로 이 브라우저에 저장됩니다" | "kept in this browser as you type",
    }
}
