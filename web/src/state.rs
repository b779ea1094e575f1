//! The page's state: the simulated world plus play/pause settings, changed only through [`Action`]s.

use std::cell::RefCell;
use std::rc::Rc;

use kraft_core::sim::{World, WorldConfig};
use kraft_core::view::ClusterView;
use yew::Reducible;

/// Wall-clock milliseconds between two frames while playing.
pub const FRAME_WALL_MS: u32 = 50;
/// Virtual milliseconds run per frame unless the user picks another speed.
pub const DEFAULT_SIM_MS_PER_FRAME: u64 = 50;
/// The speeds offered in the speed menu, as virtual milliseconds per frame.
pub const SIM_MS_PER_FRAME_CHOICES: [u64; 7] = [1, 5, 10, 25, 50, 100, 250];
/// Seed used when the page URL has no `?seed=N`.
pub const DEFAULT_SEED: u64 = 42;
/// The controllers (voters of the metadata quorum) of the default cluster.
pub const DEFAULT_CONTROLLERS: [i32; 3] = [101, 102, 103];
/// The brokers of the default cluster.
pub const DEFAULT_BROKERS: [i32; 3] = [1, 2, 3];

/// Everything the user can ask the page to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Run exactly one engine event.
    Step,
    /// Advance virtual time by one frame's worth (the chosen speed) while paused.
    StepTick,
    /// Start advancing virtual time at a steady rate.
    Play,
    /// Stop advancing virtual time.
    Pause,
    /// `kill -9` the node.
    Kill(i32),
    /// Start the node again after `kill -9`.
    Restart(i32),
    /// `SIGSTOP` the node.
    Stop(i32),
    /// `SIGCONT` the node.
    Cont(i32),
    /// One frame of the play timer: advance virtual time when playing.
    Tick,
    /// Choose how many virtual milliseconds one frame runs.
    SetSpeed(u64),
}

/// The reducer state: the world, the view drawn from it and the play settings.
///
/// The world itself is mutated in place (behind a shared `RefCell`) so that a frame does not clone
/// it; every action produces a fresh [`ClusterView`], which is what components compare and draw.
#[derive(Clone)]
pub struct Playground {
    world: Rc<RefCell<World>>,
    /// The view of the world after the last action.
    pub view: Rc<ClusterView>,
    /// Whether the play timer is running.
    pub playing: bool,
    /// Virtual milliseconds run per frame while playing (and by [`Action::StepTick`]).
    pub sim_ms_per_frame: u64,
    /// The error of the last action, if it failed (e.g. restarting a node that runs).
    pub last_error: Option<String>,
    /// Counts the actions applied; two states are equal when they have the same count.
    pub revision: u64,
}

impl PartialEq for Playground {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.world, &other.world) && self.revision == other.revision
    }
}

impl Playground {
    /// Builds the default cluster (controllers 101, 102, 103 and brokers 1, 2, 3) from `seed`.
    pub fn new(seed: u64) -> Result<Self, String> {
        Self::with_nodes(seed, DEFAULT_CONTROLLERS.to_vec(), DEFAULT_BROKERS.to_vec())
    }

    /// Builds a cluster of `controllers` (voters) and `brokers` from `seed`.
    pub fn with_nodes(seed: u64, controllers: Vec<i32>, brokers: Vec<i32>) -> Result<Self, String> {
        let config = WorldConfig::new(seed, controllers, brokers);
        let world = World::new(config).map_err(|e| format!("cannot build the world: {e}"))?;
        let view = Rc::new(world.view());
        Ok(Self {
            world: Rc::new(RefCell::new(world)),
            view,
            playing: false,
            sim_ms_per_frame: DEFAULT_SIM_MS_PER_FRAME,
            last_error: None,
            revision: 0,
        })
    }
}

impl Reducible for Playground {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        if action == Action::Tick && !self.playing {
            // A frame that fired after Pause.
            return self;
        }
        let mut next = (*self).clone();
        next.revision += 1;
        next.last_error = None;
        {
            let mut world = self.world.borrow_mut();
            let result = match action {
                Action::Step => {
                    if !world.step() {
                        next.last_error = Some("no event is pending".to_string());
                    }
                    Ok(())
                }
                Action::StepTick | Action::Tick => {
                    world.run_for(self.sim_ms_per_frame);
                    Ok(())
                }
                Action::Play => {
                    next.playing = true;
                    Ok(())
                }
                Action::Pause => {
                    next.playing = false;
                    Ok(())
                }
                Action::SetSpeed(ms) => {
                    next.sim_ms_per_frame = ms.max(1);
                    Ok(())
                }
                Action::Kill(id) => world.kill(id).map_err(|e| format!("kill -9 {id}: {e}")),
                Action::Restart(id) => world.restart(id).map_err(|e| format!("restart {id}: {e}")),
                Action::Stop(id) => world.stop(id).map_err(|e| format!("STOP {id}: {e}")),
                Action::Cont(id) => world.cont(id).map_err(|e| format!("CONT {id}: {e}")),
            };
            if let Err(e) = result {
                next.last_error = Some(e);
            }
            next.view = Rc::new(world.view());
        }
        Rc::new(next)
    }
}

/// Reads `seed=N` from a query string like `?seed=7&x=1`.
pub fn seed_from_query(query: &str) -> Option<u64> {
    query
        .trim_start_matches('?')
        .split('&')
        .find_map(|pair| pair.strip_prefix("seed="))
        .and_then(|v| v.parse().ok())
}

/// The cluster a page address asks for: `?seed=7&controllers=101,102,103&brokers=1,2,3`, each part
/// optional (the defaults are [`DEFAULT_SEED`], [`DEFAULT_CONTROLLERS`], [`DEFAULT_BROKERS`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageConfig {
    /// The seed of the world.
    pub seed: u64,
    /// Controller-only node ids.
    pub controllers: Vec<i32>,
    /// Broker-only node ids.
    pub brokers: Vec<i32>,
}

impl PageConfig {
    /// Reads the query string; a malformed `controllers=` or `brokers=` is an error.
    pub fn from_query(query: &str) -> Result<Self, String> {
        let ids = |key: &str, default: &[i32]| -> Result<Vec<i32>, String> {
            match query_value(query, key) {
                Some(v) => kraft_core::cli::parse_ids(v).map_err(|e| format!("?{key}=: {e}")),
                None => Ok(default.to_vec()),
            }
        };
        Ok(PageConfig {
            seed: seed_from_query(query).unwrap_or(DEFAULT_SEED),
            controllers: ids("controllers", &DEFAULT_CONTROLLERS)?,
            brokers: ids("brokers", &DEFAULT_BROKERS)?,
        })
    }

    /// Builds the world this address asks for.
    pub fn build(&self) -> Result<Playground, String> {
        Playground::with_nodes(self.seed, self.controllers.clone(), self.brokers.clone())
    }
}

fn query_value<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    query
        .trim_start_matches('?')
        .split('&')
        .find_map(|pair| pair.strip_prefix(key)?.strip_prefix('='))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_is_read_from_the_query() {
        assert_eq!(seed_from_query("?seed=7"), Some(7));
        assert_eq!(seed_from_query("?a=1&seed=9"), Some(9));
        assert_eq!(seed_from_query(""), None);
        assert_eq!(seed_from_query("?seed=x"), None);
    }

    #[test]
    fn cluster_is_read_from_the_query() {
        let d = PageConfig::from_query("").expect("defaults");
        assert_eq!(d.seed, DEFAULT_SEED);
        assert_eq!(d.controllers, DEFAULT_CONTROLLERS);
        assert_eq!(d.brokers, DEFAULT_BROKERS);
        let c = PageConfig::from_query("?seed=3&brokers=4,5&controllers=7").expect("parsed");
        assert_eq!((c.seed, c.controllers, c.brokers), (3, vec![7], vec![4, 5]));
        assert!(PageConfig::from_query("?brokers=a").is_err());
    }

    #[test]
    fn actions_drive_the_world() {
        let s = Rc::new(Playground::new(1).expect("world"));
        let s = s.reduce(Action::Step);
        assert_eq!(s.view.events_run, 1);
        let s = s.reduce(Action::Tick);
        assert_eq!(s.view.events_run, 1, "a tick while paused does nothing");
        let s = s.reduce(Action::Play).reduce(Action::Tick);
        assert!(s.view.now_ms >= DEFAULT_SIM_MS_PER_FRAME);
        let s = s.reduce(Action::Kill(9999));
        assert!(
            s.last_error.is_some(),
            "killing an unknown node is an error"
        );
    }
}
