//! The KRaft Playground page: a Yew app that runs the [`kraft_core`] engine in the browser and draws
//! its [`kraft_core::view::ClusterView`].
//!
//! Layout follows Yew's `function_todomvc` example: [`state`] holds the reducer (the world and an
//! [`state::Action`] enum), [`components`] has one component per file, and [`app`] wires them up.
//! The page only reads views and sends actions; it never reaches into engine internals.
#![deny(missing_docs)]

pub mod address;
pub mod api;
pub mod app;
pub mod bench;
pub mod components;
pub mod i18n;
pub mod lessons;
pub mod presenter;
pub mod share;
pub mod state;

use wasm_bindgen::prelude::wasm_bindgen;

/// Id of the element the app is mounted into (see `index.html`).
pub const ROOT_ID: &str = "app";
/// Id of the element a panic message is written into, so tests and users see it.
pub const PANIC_ID: &str = "panic";

/// Entry point, run by the wasm-bindgen glue when `init()` has loaded the module.
#[wasm_bindgen(start)]
pub fn start() {
    yew::set_custom_panic_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_panic(&info.to_string());
    }));
    api::install();
    let document = gloo_document();
    if let Some(seconds) = bench_seconds() {
        let out = bench::run(seconds);
        if let (Ok(el), Some(body)) = (document.create_element("pre"), document.body()) {
            el.set_id("bench");
            el.set_text_content(Some(&out));
            let _ = body.append_with_node_1(&el);
        }
        return;
    }
    match document.get_element_by_id(ROOT_ID) {
        Some(root) => {
            yew::Renderer::<app::App>::with_root(root).render();
        }
        None => {
            yew::Renderer::<app::App>::new().render();
        }
    }
}

/// `?bench=SECONDS` in the URL: run the benchmark instead of the app.
fn bench_seconds() -> Option<u64> {
    address::value(&address::current(), address::Param::Bench)?
        .parse()
        .ok()
}

fn gloo_document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("the page has a document")
}

/// Writes a panic message into a visible `#panic` element at the top of the page.
fn show_panic(message: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(body) = document.body() else {
        return;
    };
    if let Ok(el) = document.create_element("pre") {
        el.set_id(PANIC_ID);
        el.set_text_content(Some(&format!("The simulation crashed (panic): {message}")));
        let _ = body.prepend_with_node_1(&el);
    }
}
