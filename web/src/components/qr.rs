//! The QR code of the share address, for students to follow on their phones: a header button
//! (`#btn-qr`) opens an overlay (`#qr-overlay`) with the code as large as the window allows
//! (scannable from the back of a hall) and the address under it. Made with the `qrcode` crate
//! and drawn as one SVG path (no image libraries).

use gloo_events::EventListener;
use qrcode::{Color, EcLevel, QrCode};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::address;
use crate::i18n::QrText;
use crate::share;
use crate::state::Lang;

/// The quiet zone around the code, in modules (the standard asks for four).
pub const QUIET_ZONE: usize = 4;

/// A QR code of `text` as an SVG path (one `M x y h1 v1 h-1 z` square per dark module) and the
/// side of the code with its quiet zone, in modules; `Err` when the text is too long.
pub fn qr_path(text: &str) -> Result<(String, usize), String> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::L)
        .map_err(|e| format!("no QR code for an address of {} bytes: {e}", text.len()))?;
    let width = code.width();
    let mut d = String::new();
    for (i, color) in code.to_colors().into_iter().enumerate() {
        if color == Color::Dark {
            let (x, y) = (i % width + QUIET_ZONE, i / width + QUIET_ZONE);
            d.push_str(&format!("M{x} {y}h1v1h-1z"));
        }
    }
    Ok((d, width + 2 * QUIET_ZONE))
}

/// The address now (the pending save written first, so `step=` and `cmds=` are current).
fn current_address() -> String {
    share::flush_pending();
    address::share_address(&address::base(), &address::current())
}

/// Properties of [`QrButton`].
#[derive(Properties, PartialEq)]
pub struct QrButtonProps {
    /// The language of its labels.
    pub lang: Lang,
}

/// The header's QR button and the overlay it opens (Escape, a click or × close it).
#[component]
pub fn QrButton(props: &QrButtonProps) -> Html {
    let shown = use_state(|| None::<String>);
    let &QrText { title, close, hint } = QrText::of(props.lang);
    let on_open = {
        let shown = shown.clone();
        Callback::from(move |_: MouseEvent| shown.set(Some(current_address())))
    };
    let on_close = {
        let shown = shown.clone();
        Callback::from(move |_: MouseEvent| shown.set(None))
    };
    {
        let shown = shown.clone();
        use_effect_with(shown.is_some(), move |open| {
            let listener = (*open).then(web_sys::window).flatten().map(|w| {
                EventListener::new(&w, "keydown", move |e| {
                    if let Some(k) = e.dyn_ref::<KeyboardEvent>() {
                        if k.key() == "Escape" {
                            shown.set(None);
                        }
                    }
                })
            });
            move || drop(listener)
        });
    }
    html! {
        <>
            <button id="btn-qr" class="qr-button" onclick={on_open} title={title} aria-label={title}>{"QR"}</button>
            if let Some(address) = &*shown {
                <div class="qr-overlay" id="qr-overlay" role="dialog" aria-label={title} onclick={on_close.clone()}>
                    { qr_card(address, close, hint, on_close) }
                </div>
            }
        </>
    }
}

/// The code and the address it holds (or why there is no code).
fn qr_card(address: &str, close: &str, hint: &str, on_close: Callback<MouseEvent>) -> Html {
    let code = match qr_path(address) {
        Ok((d, side)) => html! {
            <svg id="qr" class="qr" viewBox={format!("0 0 {side} {side}")} data-text={address.to_string()}
                 data-modules={(side - 2 * QUIET_ZONE).to_string()} role="img" aria-label={address.to_string()}
                 shape-rendering="crispEdges">
                <rect width={side.to_string()} height={side.to_string()} fill="#fff" />
                <path d={d} fill="#000" />
            </svg>
        },
        Err(e) => html! { <p class="error" id="qr-error" role="alert">{ e }</p> },
    };
    html! {
        <div class="qr-card">
            { code }
            <p class="qr-address" id="qr-address">{ address.to_string() }</p>
            <p class="qr-hint">{ hint }</p>
            <button id="qr-close" onclick={on_close}>{ format!("× {close}") }</button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_address_becomes_a_path_of_modules() {
        let url = "http://127.0.0.1:8080/?lesson=02-election&lang=en&step=4";
        let (d, side) = qr_path(url).expect("a code");
        // Version 4 at level L holds 78 bytes: 33 modules, plus the quiet zone.
        assert_eq!(side, 33 + 2 * QUIET_ZONE);
        let squares = d.matches('M').count();
        assert!(
            squares > 33 * 33 / 3 && squares < 33 * 33 * 2 / 3,
            "{squares}"
        );
        // The finder pattern's corner is dark, at the quiet zone's edge.
        assert!(d.starts_with(&format!("M{QUIET_ZONE} {QUIET_ZONE}h1")));
        assert!(
            qr_path(&"x".repeat(10_000)).is_err(),
            "too long is an error"
        );
    }
}
