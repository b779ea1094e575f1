//! The in-browser benchmark (`?bench=SECONDS`): the engine alone, as the page runs it, for a
//! cluster of 3 controllers and 3 brokers over SECONDS of virtual time. Like the page with
//! rewind on, it keeps a bounded ring of world checkpoints. The figures are written as JSON
//! into `#bench` for `cargo xtask bench` to read.

use kraft_core::sim::{World, WorldConfig};

/// Checkpoints kept, as the page's rewind keeps at most this many.
pub const CHECKPOINTS: usize = 32;
/// Virtual ms between two checkpoints.
pub const CHECKPOINT_EVERY_MS: u64 = 60_000;

/// Run the benchmark for `sim_seconds` of virtual time; returns the JSON figures.
pub fn run(sim_seconds: u64) -> String {
    let perf = web_sys::window().and_then(|w| w.performance());
    let now = || perf.as_ref().map(|p| p.now()).unwrap_or(0.0);
    let config = WorldConfig::new(1, vec![101, 102, 103], vec![1, 2, 3]);
    let mut world = match World::new(config) {
        Ok(w) => w,
        Err(e) => return format!("{{\"error\":\"{e}\"}}"),
    };
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
    let memory_bytes = wasm_memory_bytes();
    format!(
        "{{\"sim_seconds\":{sim_seconds},\"events\":{},\"wall_ms\":{wall_ms:.1},\"sim_s_per_wall_s\":{:.0},\"checkpoints\":{},\"wasm_memory_bytes\":{memory_bytes}}}",
        world.events_run(),
        sim_seconds as f64 / (wall_ms / 1000.0),
        checkpoints.len()
    )
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
