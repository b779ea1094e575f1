//! The keyboard help overlay: `?` opens it, Escape (or its close button) closes it.

use yew::prelude::*;

/// Every keyboard shortcut of the page: (keys, what they do).
pub const SHORTCUTS: [(&str, &str); 12] = [
    ("?", "open this keyboard help"),
    ("Esc", "close this keyboard help, or a node's menu"),
    ("→ / Space", "lesson: run the next step"),
    ("←", "lesson: go back one step (replays from the start)"),
    ("Home", "lesson: back to the start"),
    (
        "→",
        "free play: step one event (after a rewind: forward again along what happened)",
    ),
    (
        "←",
        "free play: back one event (a checkpoint and a deterministic replay)",
    ),
    (
        "Space / t",
        "free play: play / pause · one frame of virtual time",
    ),
    ("Tab, Enter", "cluster drawing: focus a node, open its menu"),
    ("Enter", "console: run the typed command"),
    ("↑", "console: the previous command"),
    ("↓", "console: the next command"),
];

/// Properties of [`HelpOverlay`].
#[derive(Properties, PartialEq)]
pub struct HelpOverlayProps {
    /// Called when the user closes the overlay.
    pub on_close: Callback<()>,
}

/// The overlay listing [`SHORTCUTS`].
#[component]
pub fn HelpOverlay(props: &HelpOverlayProps) -> Html {
    let close = props.on_close.reform(|_: MouseEvent| ());
    html! {
        <div class="overlay" id="help-overlay" role="dialog" aria-modal="true" aria-labelledby="help-title">
            <div class="panel help">
                <div class="panel-head">
                    <h2 id="help-title">{"Keyboard shortcuts"}</h2>
                    <button id="help-close" onclick={close} title="Close (Esc)">{"✕ Close"}</button>
                </div>
                <table class="shortcuts">
                    { for SHORTCUTS.iter().map(|(keys, what)| html! {
                        <tr class="shortcut"><td><kbd>{ *keys }</kbd></td><td>{ *what }</td></tr>
                    }) }
                </table>
            </div>
        </div>
    }
}
