//! A read-only watcher the world calls after every event (the invariant monitor of the
//! console, issue 18). The world knows only this trait: what watches it lives in a higher
//! layer. A watcher never changes the world, so runs stay deterministic. (The trait and the
//! world's slot are in `world.rs`, which holds the slot.)

pub use super::world::EventWatcher;
use super::world::{WatcherSlot, World};

impl World {
    /// Install (or with `None` remove) the watcher called after every event.
    pub fn set_watcher(&mut self, watcher: Option<Box<dyn EventWatcher>>) {
        self.watcher = WatcherSlot(watcher);
    }

    /// The watcher, if one is installed.
    pub fn watcher(&self) -> Option<&dyn EventWatcher> {
        self.watcher.0.as_deref()
    }

    /// Hand the world to its watcher after an event (taken out meanwhile, so it reads a
    /// world that does not hold it).
    pub(super) fn run_watcher(&mut self) {
        if let Some(mut w) = self.watcher.0.take() {
            w.after_event(self);
            self.watcher.0 = Some(w);
        }
    }
}
