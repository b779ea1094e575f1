//! A read-only watcher the world calls after every event (the invariant monitor of the
//! console, issue 18). The world knows only this trait: what watches it lives in a higher
//! layer. A watcher never changes the world, so runs stay deterministic.

use super::world::World;
use std::any::Any;
use std::fmt;

/// Something that looks at the world after every event.
pub trait EventWatcher: fmt::Debug {
    /// Called after every event with the world as it is now.
    fn after_event(&mut self, world: &World);
    /// A copy (worlds are cloned for checkpoints and rewinds).
    fn clone_box(&self) -> Box<dyn EventWatcher>;
    /// The watcher as `Any`, to read it back as its own type.
    fn as_any(&self) -> &dyn Any;
}

/// The world's watcher slot: empty unless one was installed.
#[derive(Default)]
pub struct WatcherSlot(pub(super) Option<Box<dyn EventWatcher>>);

impl Clone for WatcherSlot {
    fn clone(&self) -> Self {
        WatcherSlot(self.0.as_ref().map(|w| w.clone_box()))
    }
}

impl fmt::Debug for WatcherSlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(w) => write!(f, "WatcherSlot({w:?})"),
            None => f.write_str("WatcherSlot(None)"),
        }
    }
}

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
