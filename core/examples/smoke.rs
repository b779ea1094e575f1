use kraft_core::sim::{World, WorldConfig};
fn main() {
    let seed: u64 = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(7);
    let mut w = World::new(WorldConfig::new(seed, vec![101, 102, 103], vec![1])).unwrap();
    w.run_for(5000);
    for n in w.nodes() {
        println!("node {} {:?} {}", n.id, n.raft.as_ref().map(|r| (r.state().name(), r.quorum.epoch(), r.high_watermark())), n.disk.metadata_log.end_offset());
    }
    let (l, e) = w.leader().unwrap();
    println!("leader {l} epoch {e} at {}", w.now_ms());
    for _ in 0..20 { w.append_to_leader(vec![kraft_core::raft::batch::Record::Metadata(kraft_core::metadata::MetadataRecord::NoOp)], false); w.run_for(500); }
    w.kill(l).unwrap();
    w.run_for(15000);
    for n in w.nodes() {
        println!("node {} {:?} {}", n.id, n.raft.as_ref().map(|r| (r.state().name(), r.quorum.epoch(), r.high_watermark())), n.disk.metadata_log.end_offset());
    }
    println!("faults {:?}", w.fatal_faults());
    for n in w.nodes() { for line in n.log.lines() { if line.message.contains("Completed") || line.message.contains("Vote request") || line.message.contains("timeout") {println!("{}: {}", n.id, &line.to_string()[..line.to_string().len().min(200)]);} } }
    println!("events {}", w.events_run());
}
