//! `window.kraft`: a read-only JavaScript API of the page, for embedding the playground in
//! slides and for the browser checks (which read the engine's numbers here instead of scraping
//! the DOM).
//!
//! ```js
//! kraft.view()   // the ClusterView now drawn: nodes (roles, process, raft_state, epoch, ...),
//!                // messages with their typed fields, partitions, the sequence, rules, the
//!                // quorum (voters, observers, majority, kraft.version, VotersRecord, pending)
//! kraft.shown()  // what the page shows: {lesson, step, steps, lang, seed, playing, revision}
//! kraft.version  // the page's version
//! ```
//!
//! Values cross the JS boundary with serde-wasm-bindgen as plain objects; nothing in it
//! changes the page. The app [`publish`]es what it draws after every change.

use std::cell::RefCell;
use std::rc::Rc;

use kraft_core::view::ClusterView;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// What the page shows, besides the view.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Shown {
    /// The lesson played (its file name), if any.
    pub lesson: Option<String>,
    /// Steps run of the lesson (0 before the first).
    pub step: usize,
    /// The lesson's steps (0 in free play).
    pub steps: usize,
    /// `ko` or `en`.
    pub lang: &'static str,
    /// The seed of the world, as text (a seed may exceed JavaScript's safe integers).
    pub seed: String,
    /// Whether time is playing.
    pub playing: bool,
    /// How many actions the page has applied: it grows with every change.
    pub revision: u64,
}

thread_local! {
    static PUBLISHED: RefCell<(Option<Rc<ClusterView>>, Shown)> = RefCell::new(Default::default());
}

/// Keeps what the page draws now for `window.kraft` to return.
pub fn publish(view: Option<Rc<ClusterView>>, shown: Shown) {
    PUBLISHED.with(|p| *p.borrow_mut() = (view, shown));
}

/// `value` as a plain JS object (maps as objects, not `Map`s).
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsValue::from_str(&format!("kraft: {e}")))
}

/// The view now drawn (`null` before a cluster exists).
fn view() -> Result<JsValue, JsValue> {
    PUBLISHED.with(|p| match &p.borrow().0 {
        Some(v) => to_js(&**v),
        None => Ok(JsValue::NULL),
    })
}

/// What the page shows.
fn shown() -> Result<JsValue, JsValue> {
    PUBLISHED.with(|p| to_js(&p.borrow().1))
}

/// Installs `window.kraft` (once, at start-up).
pub fn install() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let api = js_sys::Object::new();
    let view_fn = Closure::<dyn Fn() -> Result<JsValue, JsValue>>::new(view);
    let shown_fn = Closure::<dyn Fn() -> Result<JsValue, JsValue>>::new(shown);
    let _ = js_sys::Reflect::set(&api, &"view".into(), view_fn.as_ref());
    let _ = js_sys::Reflect::set(&api, &"shown".into(), shown_fn.as_ref());
    let _ = js_sys::Reflect::set(&api, &"version".into(), &env!("CARGO_PKG_VERSION").into());
    // The closures live as long as the page.
    view_fn.forget();
    shown_fn.forget();
    let _ = js_sys::Object::freeze(&api);
    let _ = js_sys::Reflect::set(&window, &"kraft".into(), &api);
}
