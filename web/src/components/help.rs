//! The keyboard help overlay: `?` opens it, Escape (or its close button) closes it.

use yew::prelude::*;

use crate::state::Lang;

/// Every keyboard shortcut of the page: (keys, what they do in Korean, in English).
pub const SHORTCUTS: [(&str, &str, &str); 15] = [
    ("?", "이 도움말 열기", "open this keyboard help"),
    (
        "Esc",
        "도움말이나 노드 메뉴 닫기",
        "close this keyboard help, or a node's menu",
    ),
    (
        "→ / Space",
        "레슨: 다음 단계 (기다림이 재생 중이면 끝으로)",
        "lesson: the next step (while a wait plays: skip to its end)",
    ),
    (
        "←",
        "레슨: 한 단계 뒤로 (처음부터 다시 실행)",
        "lesson: back one step (replays from the start)",
    ),
    ("Home", "레슨: 처음으로", "lesson: back to the start"),
    (
        "1 … 9, 0",
        "무대: 옆 패널 탭 고르기",
        "stage: pick a side panel tab",
    ),
    (
        "→",
        "자유 실습: 이벤트 하나 (되감은 뒤에는 앞으로 다시)",
        "free play: step one event (after a rewind: forward again along what happened)",
    ),
    (
        "←",
        "자유 실습: 이벤트 하나 뒤로 (체크포인트와 결정적 재실행)",
        "free play: back one event (a checkpoint and a deterministic replay)",
    ),
    (
        "Space / t",
        "자유 실습: 재생 / 멈춤 · 한 프레임",
        "free play: play / pause · one frame of virtual time",
    ),
    (
        "Tab, Enter",
        "그림: 노드를 고르고 메뉴 열기",
        "cluster drawing: focus a node, open its menu",
    ),
    (
        "Enter",
        "콘솔: 입력한 명령 실행",
        "console: run the typed command",
    ),
    ("↑", "콘솔: 이전 명령", "console: the previous command"),
    ("↓", "콘솔: 다음 명령", "console: the next command"),
    ("help", "콘솔: 명령 목록", "console: the list of commands"),
    (
        "= - [ ] End",
        "시퀀스 다이어그램: 확대 · 축소 · 이전 · 이후 · 최근 변화",
        "sequence diagram: zoom in · out · earlier · later · the newest change",
    ),
];

/// Properties of [`HelpOverlay`].
#[derive(Properties, PartialEq)]
pub struct HelpOverlayProps {
    /// The language.
    #[prop_or_default]
    pub lang: Lang,
    /// Called when the user closes the overlay.
    pub on_close: Callback<()>,
}

/// The overlay listing [`SHORTCUTS`].
#[component]
pub fn HelpOverlay(props: &HelpOverlayProps) -> Html {
    let close = props.on_close.reform(|_: MouseEvent| ());
    let (title, close_label) = match props.lang {
        Lang::Ko => ("키보드 단축키", "✕ 닫기"),
        Lang::En => ("Keyboard shortcuts", "✕ Close"),
    };
    html! {
        <div class="overlay" id="help-overlay" role="dialog" aria-modal="true" aria-labelledby="help-title">
            <div class="panel help">
                <div class="panel-head">
                    <h2 id="help-title">{ title }</h2>
                    <button id="help-close" onclick={close} title="Close (Esc)">{ close_label }</button>
                </div>
                <table class="shortcuts">
                    { for SHORTCUTS.iter().map(|(keys, ko, en)| html! {
                        <tr class="shortcut"><td><kbd>{ *keys }</kbd></td><td>{ if props.lang == Lang::Ko { *ko } else { *en } }</td></tr>
                    }) }
                </table>
            </div>
        </div>
    }
}
