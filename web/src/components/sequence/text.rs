//! The sequence panel's words in Korean and English (Kafka's names stay as Kafka spells them).

use crate::state::Lang;

/// The panel's labels in one language.
#[derive(Debug, PartialEq, Eq)]
pub struct Text {
    /// The heading.
    pub title: &'static str,
    /// The zoom-in button's tooltip.
    pub zoom_in: &'static str,
    /// The zoom-out button's tooltip.
    pub zoom_out: &'static str,
    /// The earlier button's tooltip.
    pub earlier: &'static str,
    /// The later button's tooltip.
    pub later: &'static str,
    /// The button back to the newest change.
    pub latest: &'static str,
    /// Its tooltip.
    pub latest_title: &'static str,
    /// The kinds filter's summary.
    pub kinds: &'static str,
    /// The SVG export button's tooltip.
    pub svg_title: &'static str,
    /// The Mermaid export button's tooltip.
    pub mermaid_title: &'static str,
    /// The copy button.
    pub copy: &'static str,
    /// The close button of the Mermaid text.
    pub close: &'static str,
    /// What a click does in free play.
    pub hint_free: &'static str,
    /// What a click does in a lesson.
    pub hint_lesson: &'static str,
    /// When the window shows nothing.
    pub empty: &'static str,
    /// Before the present's time when it is after the window.
    pub now_after: &'static str,
    /// Before the event count a click rewound to.
    pub rewound: &'static str,
}

const KO: Text = Text {
    title: "시퀀스 다이어그램",
    zoom_in: "확대: 구간을 절반으로 (=)",
    zoom_out: "축소: 구간을 두 배로 (-)",
    earlier: "이전으로 반 구간 ([)",
    later: "이후로 반 구간 (])",
    latest: "최근",
    latest_title: "가장 최근 변화로 (End)",
    kinds: "종류",
    svg_title: "이 구간을 SVG 파일로 내려받기",
    mermaid_title: "이 구간을 Mermaid sequenceDiagram 텍스트로",
    copy: "복사",
    close: "닫기",
    hint_free: "화살표나 칩을 누르면 그 순간으로 되감습니다.",
    hint_lesson: "화살표나 칩을 누르면 자세히 봅니다 (레슨은 ◀ 로 되돌아갑니다).",
    empty: "이 구간에 보이는 메시지가 없습니다.",
    now_after: "지금",
    rewound: "되감음: 이벤트",
};

const EN: Text = Text {
    title: "Sequence diagram",
    zoom_in: "zoom in: half the time (=)",
    zoom_out: "zoom out: twice the time (-)",
    earlier: "half a window earlier ([)",
    later: "half a window later (])",
    latest: "latest",
    latest_title: "back to the newest change (End)",
    kinds: "kinds",
    svg_title: "download this window as an SVG file",
    mermaid_title: "this window as Mermaid sequenceDiagram text",
    copy: "Copy",
    close: "Close",
    hint_free: "Click an arrow or a chip to rewind to that moment.",
    hint_lesson: "Click an arrow or a chip for its details (a lesson goes back with ◀).",
    empty: "No message shown in this window.",
    now_after: "now",
    rewound: "rewound to event",
};

/// The labels in `lang`.
pub fn text(lang: Lang) -> &'static Text {
    match lang {
        Lang::Ko => &KO,
        Lang::En => &EN,
    }
}
