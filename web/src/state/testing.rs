//! Helpers shared by the state's unit tests: open an address, reopen a state's own address,
//! play a lesson's wait to its end.

use std::rc::Rc;

use yew::Reducible;

use super::{Action, PageConfig, Playground};

/// Lesson 03-timeline in English, at its start.
pub(super) fn timeline() -> Rc<Playground> {
    Rc::new(
        PageConfig::from_query("?lesson=03-timeline&lang=en")
            .unwrap()
            .build()
            .unwrap(),
    )
}

/// The state the address `query` gives.
pub(super) fn open(query: &str) -> Rc<Playground> {
    Rc::new(PageConfig::from_query(query).unwrap().build().unwrap())
}

/// What the address of `p` is, rebuilt from scratch.
pub(super) fn reopen(p: &Playground, base: &str) -> Rc<Playground> {
    let (step, cmds) = p.share_params();
    let q = crate::address::with_params(
        base,
        &[
            (crate::address::Param::Step, step),
            (crate::address::Param::Cmds, cmds),
        ],
    );
    open(&q)
}

/// Frames until the lesson's playing wait ends (at most `limit`); how many it took.
pub(super) fn play_out(mut s: Rc<Playground>, limit: u32) -> (Rc<Playground>, u32) {
    for n in 1..=limit {
        s = s.reduce(Action::Frame { wall_us: 16_667 });
        if !s.playing_wait() {
            return (s, n);
        }
    }
    (s, limit)
}
