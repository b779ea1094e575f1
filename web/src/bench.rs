//! The in-browser benchmark (`?bench=SECONDS`): the engine alone, as the page runs it, for a
//! cluster of 3 controllers and 3 brokers over SECONDS of virtual time. Like the page with
//! rewind on, it keeps a bounded ring of world checkpoints. The figures are written as JSON
//! into `#bench` for `cargo xtask bench` to read.

use kraft_core::invariants::InvariantMonitor;
use kraft_core::sim::{World, WorldConfig};

/// Checkpoints kept, as the page's rewind keeps at most this many.
pub const CHECKPOINTS: usize = 32;
/// Virtual ms between two checkpoints.
pub const CHECKPOINT_EVERY_MS: u64 = 60_000;

/// Run the benchmark for `sim_seconds` of virtual time, without and then with the invariant
/// monitor the page's console installs (checked after every event); returns the JSON figures.
pub fn run(sim_seconds: u64) -> String {
    let bare = match run_world(sim_seconds, false) {
        Ok(r) => r,
        Err(e) => return format!("{{\"error\":\"{e}\"}}"),
    };
    let memory_bytes = wasm_memory_bytes();
    let monitored = match run_world(sim_seconds, true) {
        Ok(r) => r,
        Err(e) => return format!("{{\"error\":\"{e}\"}}"),
    };
    let rate = |wall_ms: f64| sim_seconds as f64 / (wall_ms / 1000.0);
    format!(
        "{{\"sim_seconds\":{sim_seconds},\"events\":{},\"wall_ms\":{:.1},\"sim_s_per_wall_s\":{:.0},\"checkpoints\":{},\"wasm_memory_bytes\":{memory_bytes},\"monitored_wall_ms\":{:.1},\"monitored_sim_s_per_wall_s\":{:.0},\"monitored_broken\":{}}}",
        bare.events,
        bare.wall_ms,
        rate(bare.wall_ms),
        bare.checkpoints,
        monitored.wall_ms,
        rate(monitored.wall_ms),
        monitored.broken
    )
}

/// What one run measured.
struct Run {
    events: u64,
    wall_ms: f64,
    checkpoints: usize,
    /// Invariants the monitor found broken (0 without a monitor).
    broken: usize,
}

/// One run of the 3+3 cluster with rewind checkpoints, with or without the monitor.
fn run_world(sim_seconds: u64, monitor: bool) -> Result<Run, String> {
    let perf = web_sys::window().and_then(|w| w.performance());
    let now = || perf.as_ref().map(|p| p.now()).unwrap_or(0.0);
    let config = WorldConfig::new(1, vec![101, 102, 103], vec![1, 2, 3]);
    let mut world = World::new(config).map_err(|e| e.to_string())?;
    if monitor {
        world.set_watcher(Some(Box::new(InvariantMonitor::new())));
    }
    let mut checkpoints: std::collections::VecDeque<World> = Default::default();
    let started = now();
    let end_ms = sim_seconds * 1000;
    let mut next_checkpoint = 0;
    while world.now_ms() < end_ms {
        world.run_for(1000);
        if world.now_ms() >= next_checkpoint {
            next_checkpoint += CHECKPOINT_EVERY_MS;
            if checkpoints.len() == CHECKPOINTS {
                checkpoints.pop_front();
            }
            checkpoints.push_back(world.clone());
        }
    }
    let wall_ms = (now() - started).max(0.001);
    let broken = InvariantMonitor::of(&world)
        .map(|m| m.statuses().iter().filter(|s| !s.holds).count())
        .unwrap_or(0);
    Ok(Run {
        events: world.events_run(),
        wall_ms,
        checkpoints: checkpoints.len(),
        broken,
    })
}

/// The size of the module's linear memory (it only grows: the high-water mark).
fn wasm_memory_bytes() -> f64 {
    use wasm_bindgen::JsCast;
    wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .map(|m| {
            m.buffer()
                .dyn_into::<js_sys::ArrayBuffer>()
                .map(|b| b.byte_length() as f64)
                .unwrap_or(0.0)
        })
        .unwrap_or(0.0)
}
