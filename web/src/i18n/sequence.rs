//! The sequence diagram panel.

texts! {
    /// The sequence panel's labels in one language.
    pub struct SequenceText {
        /// The heading.
        title: "시퀀스 다이어그램" | "Sequence diagram",
        /// The zoom-in button's tooltip.
        zoom_in: "확대: 구간을 절반으로 (=)" | "zoom in: half the time (=)",
        /// The zoom-out button's tooltip.
        zoom_out: "축소: 구간을 두 배로 (-)" | "zoom out: twice the time (-)",
        /// The earlier button's tooltip.
        earlier: "이전으로 반 구간 ([)" | "half a window earlier ([)",
        /// The later button's tooltip.
        later: "이후로 반 구간 (])" | "half a window later (])",
        /// The button back to the newest change.
        latest: "최근" | "latest",
        /// Its tooltip.
        latest_title: "가장 최근 변화로 (End)" | "back to the newest change (End)",
        /// The kinds filter's summary.
        kinds: "종류" | "kinds",
        /// The SVG export button's tooltip.
        svg_title: "이 구간을 SVG 파일로 내려받기" | "download this window as an SVG file",
        /// The Mermaid export button's tooltip.
        mermaid_title: "이 구간을 Mermaid sequenceDiagram 텍스트로"
            | "this window as Mermaid sequenceDiagram text",
        /// The copy button.
        copy: "복사" | "Copy",
        /// The close button of the Mermaid text.
        close: "닫기" | "Close",
        /// What a click does in free play.
        hint_free: "화살표나 칩을 누르면 그 순간으로 되감습니다."
            | "Click an arrow or a chip to rewind to that moment.",
        /// What a click does in a lesson.
        hint_lesson: "화살표나 칩을 누르면 자세히 봅니다 (레슨은 ◀ 로 되돌아갑니다)."
            | "Click an arrow or a chip for its details (a lesson goes back with ◀).",
        /// When the window shows nothing.
        empty: "이 구간에 보이는 메시지가 없습니다." | "No message shown in this window.",
        /// Before the present's time when it is after the window.
        now_after: "지금" | "now",
        /// Before the event count a click rewound to.
        rewound: "되감음: 이벤트" | "rewound to event",
    }
}
