use kraft_core::sim::{World, WorldConfig};
fn main() {
    let mut w = World::new(WorldConfig::new(7, vec![101, 102, 103], vec![])).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    while w.now_ms() < 2500 {
        w.step();
        for m in &w.view().messages {
            if m.kind.contains("ControllerRegistration") && seen.insert(m.id) {
                println!(
                    "{} {} {}->{} {} {}",
                    w.now_ms(),
                    m.id,
                    m.from,
                    m.to,
                    m.kind,
                    m.summary
                );
            }
        }
    }
}
