//! The lecturer's layout: the share of the width the cluster drawing takes (a splitter between
//! it and the side column, dragged or moved with the arrow keys) and the text size (A− / A+),
//! both kept in `localStorage` so the room's projector setup survives a reload.

use yew::prelude::*;

/// The `localStorage` key of the cluster column's share of the width (percent).
pub const SPLIT_KEY: &str = "kraft-split";
/// The `localStorage` key of the text size (px of the root font).
pub const TEXT_SIZE_KEY: &str = "kraft-text-size";
/// The cluster column's share at first (percent), as the stylesheet's 11fr : 9fr.
pub const DEFAULT_SPLIT: u32 = 55;
/// The root font size at first (px), as in the stylesheet.
pub const DEFAULT_TEXT_SIZE: u32 = 20;
/// The text sizes offered (px).
pub const TEXT_SIZES: [u32; 8] = [16, 18, 20, 22, 24, 26, 30, 34];

/// The share is kept between these (percent).
const SPLIT_RANGE: (u32, u32) = (25, 75);

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn load(key: &str) -> Option<u32> {
    storage()?.get_item(key).ok().flatten()?.parse().ok()
}

fn save(key: &str, value: u32) {
    if let Some(s) = storage() {
        let _ = s.set_item(key, &value.to_string());
    }
}

/// A share clamped to the range the splitter allows.
pub fn clamp_split(percent: u32) -> u32 {
    percent.clamp(SPLIT_RANGE.0, SPLIT_RANGE.1)
}

/// The stored share of the cluster column, or the default.
pub fn stored_split() -> u32 {
    clamp_split(load(SPLIT_KEY).unwrap_or(DEFAULT_SPLIT))
}

/// The CSS variables of `.panels` for a share: `--left` and `--right` as fr.
pub fn split_style(percent: u32) -> String {
    let p = clamp_split(percent);
    format!("--left: {p}fr; --right: {}fr;", 100 - p)
}

/// The next offered text size up (`step` = 1) or down (`step` = -1) from `px`.
pub fn next_text_size(px: u32, step: i32) -> u32 {
    let i = TEXT_SIZES
        .iter()
        .position(|s| *s >= px)
        .unwrap_or(TEXT_SIZES.len() - 1) as i32;
    TEXT_SIZES[(i + step).clamp(0, TEXT_SIZES.len() as i32 - 1) as usize]
}

/// Puts a text size on `<html>` (the stylesheet sizes everything in rem).
pub fn apply_text_size(px: u32) {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element());
    if let Some(r) = root {
        let _ = r.set_attribute("style", &format!("font-size: {px}px"));
        let _ = r.set_attribute("data-text-size", &px.to_string());
    }
}

/// The stored text size, or the default.
pub fn stored_text_size() -> u32 {
    load(TEXT_SIZE_KEY)
        .filter(|px| TEXT_SIZES.contains(px))
        .unwrap_or(DEFAULT_TEXT_SIZE)
}

/// Properties of [`Splitter`].
#[derive(Properties, PartialEq)]
pub struct SplitterProps {
    /// The cluster column's share now (percent).
    pub split: u32,
    /// Called with the new share while dragging or on an arrow key.
    pub on_split: Callback<u32>,
}

/// The bar between the cluster drawing and the side column: drag it, or focus it and press
/// ← / → (2 % a press); a double click gives back the default.
#[component]
pub fn Splitter(props: &SplitterProps) -> Html {
    let onpointerdown = Callback::from(|e: PointerEvent| {
        let el: web_sys::Element = e.target_unchecked_into();
        let _ = el.set_pointer_capture(e.pointer_id());
    });
    let onpointermove = {
        let on_split = props.on_split.clone();
        Callback::from(move |e: PointerEvent| {
            if e.buttons() & 1 == 0 {
                return;
            }
            let el: web_sys::Element = e.target_unchecked_into();
            let Some(parent) = el.parent_element() else {
                return;
            };
            let rect = parent.get_bounding_client_rect();
            if rect.width() <= 0.0 {
                return;
            }
            let share = (f64::from(e.client_x()) - rect.left()) / rect.width() * 100.0;
            on_split.emit(clamp_split(share.round().max(0.0) as u32));
        })
    };
    let onkeydown = {
        let on_split = props.on_split.clone();
        let split = props.split;
        Callback::from(move |e: KeyboardEvent| {
            let next = match e.key().as_str() {
                "ArrowLeft" => split.saturating_sub(2),
                "ArrowRight" => split + 2,
                _ => return,
            };
            e.prevent_default();
            e.stop_propagation();
            on_split.emit(clamp_split(next));
        })
    };
    let ondblclick = props.on_split.reform(|_: MouseEvent| DEFAULT_SPLIT);
    html! {
        <div class="splitter" id="splitter" role="separator" aria-orientation="vertical"
             aria-label="cluster / side panels width" tabindex="0"
             aria-valuemin={SPLIT_RANGE.0.to_string()} aria-valuemax={SPLIT_RANGE.1.to_string()}
             aria-valuenow={props.split.to_string()}
             title="drag, or ← / →; double click resets"
             {onpointerdown} {onpointermove} {onkeydown} {ondblclick}></div>
    }
}

/// The text size of the projector preset (px).
pub const PROJECTOR_TEXT_SIZE: u32 = 24;

/// The event the projector preset sends so that the A− / A+ buttons follow the new size.
const TEXT_SIZE_EVENT: &str = "kraft-text-size";

/// Sets and keeps a text size, and tells [`TextSize`].
pub fn set_text_size(px: u32) {
    save(TEXT_SIZE_KEY, px);
    apply_text_size(px);
    if let Some(w) = web_sys::window() {
        if let Ok(e) = web_sys::Event::new(TEXT_SIZE_EVENT) {
            let _ = w.dispatch_event(&e);
        }
    }
}

/// A− / A+ in the header: the text size for the room.
#[component]
pub fn TextSize() -> Html {
    let px = use_state(stored_text_size);
    {
        let px = *px;
        use_effect_with(px, move |px| apply_text_size(*px));
    }
    // The projector preset sets a size from outside.
    {
        let px = px.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                gloo_events::EventListener::new(&w, TEXT_SIZE_EVENT, move |_| {
                    px.set(stored_text_size())
                })
            });
            move || drop(listener)
        });
    }
    let change = |step: i32| {
        let px = px.clone();
        Callback::from(move |_: MouseEvent| {
            let next = next_text_size(*px, step);
            save(TEXT_SIZE_KEY, next);
            px.set(next);
        })
    };
    html! {
        <span class="text-size" role="group" aria-label="text size">
            <button id="btn-text-smaller" onclick={change(-1)} disabled={*px == TEXT_SIZES[0]}
                    title="smaller text">{"A−"}</button>
            <button id="btn-text-bigger" onclick={change(1)} disabled={*px == TEXT_SIZES[TEXT_SIZES.len() - 1]}
                    title="bigger text">{"A+"}</button>
        </span>
    }
}

/// Properties of [`ProjectorButton`].
#[derive(Properties, PartialEq)]
pub struct ProjectorButtonProps {
    /// The button's label.
    pub label: &'static str,
}

/// The projector preset: the light theme (a projector washes dark themes out) and large text.
#[component]
pub fn ProjectorButton(props: &ProjectorButtonProps) -> Html {
    let onclick = Callback::from(|_: MouseEvent| {
        super::theme::apply_theme(super::theme::Theme::Light);
        set_text_size(PROJECTOR_TEXT_SIZE);
    });
    html! {
        <button id="btn-projector" class="projector" {onclick}
                title="light theme and large text for a projector">{ props.label }</button>
    }
}

/// Keeps a share in `localStorage`.
pub fn save_split(percent: u32) {
    save(SPLIT_KEY, clamp_split(percent));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_and_text_sizes_stay_in_range() {
        assert_eq!(clamp_split(10), 25);
        assert_eq!(clamp_split(90), 75);
        assert_eq!(split_style(55), "--left: 55fr; --right: 45fr;");
        assert_eq!(next_text_size(20, 1), 22);
        assert_eq!(next_text_size(20, -1), 18);
        assert_eq!(next_text_size(34, 1), 34);
        assert_eq!(next_text_size(16, -1), 16);
        assert_eq!(next_text_size(21, 1), 24);
    }
}
