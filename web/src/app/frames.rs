//! The play timer: a loop of animation frames, each sending the reducer a frame of the wall
//! clock's time, while free play plays or a lesson's wait plays.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo_render::{request_animation_frame, AnimationFrame};
use yew::prelude::*;

use crate::state::{Action, Playground};

/// Runs `f` with each animation frame's wall-clock ms since the last frame, until dropped.
struct FrameLoop {
    _handle: Rc<RefCell<Option<AnimationFrame>>>,
}

impl FrameLoop {
    fn start(f: impl Fn(f64) + 'static) -> FrameLoop {
        fn schedule(
            handle: Rc<RefCell<Option<AnimationFrame>>>,
            last: Rc<Cell<Option<f64>>>,
            f: Rc<dyn Fn(f64)>,
        ) {
            let next = Rc::clone(&handle);
            *handle.borrow_mut() = Some(request_animation_frame(move |ts| {
                let dt = last.get().map_or(1000.0 / 60.0, |l| ts - l);
                last.set(Some(ts));
                f(dt);
                schedule(next, last, f);
            }));
        }
        let handle = Rc::new(RefCell::new(None));
        schedule(Rc::clone(&handle), Rc::new(Cell::new(None)), Rc::new(f));
        FrameLoop { _handle: handle }
    }
}

impl Drop for FrameLoop {
    fn drop(&mut self) {
        // Cancels the pending frame and breaks the loop's cycle.
        self._handle.borrow_mut().take();
    }
}

/// Animation frames while free play plays or a lesson's wait plays: each sends
/// [`Action::Frame`] with the wall time since the last one (at most 250 ms).
#[hook]
pub(super) fn use_frames(state: &UseReducerHandle<Playground>) {
    let dispatcher = state.dispatcher();
    use_effect_with(state.animating(), move |animating| {
        let frames = animating.then(|| {
            FrameLoop::start(move |dt| {
                let wall_us = (dt.clamp(0.0, 250.0) * 1000.0) as u32;
                dispatcher.dispatch(Action::Frame { wall_us });
            })
        });
        move || drop(frames)
    });
}
