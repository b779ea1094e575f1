//! Light and dark themes for a projector: the class `theme-light` or `theme-dark` on `<html>`.
//!
//! `index.html` picks the theme before the first paint (the stored choice, else
//! `prefers-color-scheme`); the toggle flips it and keeps the choice in `localStorage`.

use yew::prelude::*;

/// The `localStorage` key that keeps the chosen theme.
pub const THEME_KEY: &str = "kraft-theme";

/// A colour theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Dark background, light text.
    Dark,
    /// Light background, dark text.
    Light,
}

impl Theme {
    /// `dark` or `light`, as stored and as in `data-theme`.
    pub fn code(self) -> &'static str {
        match self {
            Theme::Dark => "dark",
            Theme::Light => "light",
        }
    }

    /// The other theme.
    pub fn flipped(self) -> Theme {
        match self {
            Theme::Dark => Theme::Light,
            Theme::Light => Theme::Dark,
        }
    }
}

fn root() -> Option<web_sys::Element> {
    web_sys::window()?.document()?.document_element()
}

/// The theme `<html>` carries now (dark when it carries none).
pub fn current_theme() -> Theme {
    match root()
        .and_then(|r| r.get_attribute("data-theme"))
        .as_deref()
    {
        Some("light") => Theme::Light,
        _ => Theme::Dark,
    }
}

/// Puts `theme` on `<html>` and keeps it in `localStorage`.
pub fn apply_theme(theme: Theme) {
    if let Some(r) = root() {
        r.set_class_name(&format!("theme-{}", theme.code()));
        let _ = r.set_attribute("data-theme", theme.code());
    }
    if let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = storage.set_item(THEME_KEY, theme.code());
    }
    if let (Some(w), Ok(e)) = (web_sys::window(), web_sys::Event::new(THEME_EVENT)) {
        let _ = w.dispatch_event(&e);
    }
}

/// The event [`apply_theme`] sends so that the toggle follows a theme set from elsewhere (the
/// projector preset).
const THEME_EVENT: &str = "kraft-theme";

/// The header button that switches between the light and dark theme.
#[component]
pub fn ThemeToggle() -> Html {
    let theme = use_state(current_theme);
    {
        let theme = theme.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                gloo_events::EventListener::new(&w, THEME_EVENT, move |_| {
                    theme.set(current_theme())
                })
            });
            move || drop(listener)
        });
    }
    let onclick = {
        let theme = theme.clone();
        Callback::from(move |_: MouseEvent| {
            let next = theme.flipped();
            apply_theme(next);
            theme.set(next);
        })
    };
    let label = match *theme {
        Theme::Dark => "☀",
        Theme::Light => "☾",
    };
    html! {
        <button id="btn-theme" class="theme-toggle" data-theme={theme.code()} {onclick}
                title="Switch between the light and the dark theme"
                aria-label={match *theme { Theme::Dark => "light theme", Theme::Light => "dark theme" }}>{ label }</button>
    }
}
