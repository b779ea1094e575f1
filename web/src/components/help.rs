//! The keyboard help overlay: `?` opens it, Escape (or its close button) closes it.

use yew::prelude::*;

use crate::i18n::{HelpText, Lang};

/// Properties of [`HelpOverlay`].
#[derive(Properties, PartialEq)]
pub struct HelpOverlayProps {
    /// The language.
    #[prop_or_default]
    pub lang: Lang,
    /// Called when the user closes the overlay.
    pub on_close: Callback<()>,
}

/// The overlay listing every keyboard shortcut ([`HelpText::shortcuts`]).
#[component]
pub fn HelpOverlay(props: &HelpOverlayProps) -> Html {
    let close = props.on_close.reform(|_: MouseEvent| ());
    let t = HelpText::of(props.lang);
    html! {
        <div class="overlay" id="help-overlay" role="dialog" aria-modal="true" aria-labelledby="help-title">
            <div class="panel help">
                <div class="panel-head">
                    <h2 id="help-title">{ t.title }</h2>
                    <button id="help-close" onclick={close} title="Close (Esc)">{ t.close }</button>
                </div>
                <table class="shortcuts">
                    { for t.shortcuts().into_iter().map(|(keys, what)| html! {
                        <tr class="shortcut"><td><kbd>{ keys }</kbd></td><td>{ what }</td></tr>
                    }) }
                </table>
            </div>
        </div>
    }
}
