//! Snapshots of the metadata log (article section 5): the SnapshotGenerator writes
//! `<offset>-<epoch>.checkpoint` files, the log cleaner deletes the segments before them, and a
//! replica behind the log start, or a new broker with an empty log, fetches the latest snapshot
//! with FetchSnapshot and loads it.

mod common;

use common::{lines_containing, run_checked, tool, world_from};
use kraft_core::invariants::InvariantChecker;
use kraft_core::sim::{World, WorldConfig};

/// A cluster that snapshots every ~4 KB of log, rolls 2 KB segments and keeps ~8 KB.
fn small_snapshot_world(seed: u64, brokers: &[i32]) -> World {
    let mut config = WorldConfig::new(seed, vec![101, 102, 103], brokers.to_vec());
    let m = &mut config.quorum.metadata_log;
    m.max_record_bytes_between_snapshots = 4_096;
    m.segment_bytes = 2_048;
    m.retention_bytes = Some(8_192);
    world_from(config)
}

#[test]
fn every_node_writes_snapshots_and_the_cleaner_deletes_old_segments() {
    let mut w = small_snapshot_world(3, &[1]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 240_000);
    for id in [1, 101, 102, 103] {
        let log = &w.node(id).unwrap().disk.metadata_log;
        let generated: Vec<_> = log
            .snapshots()
            .iter()
            .filter(|s| !s.is_bootstrap())
            .collect();
        assert!(!generated.is_empty(), "node {id} has no snapshot");
        assert!(
            !lines_containing(&w, id, "Creating new KRaft snapshot file snapshot ").is_empty(),
            "node {id}"
        );
        let wrote = lines_containing(&w, id, "Successfully wrote snapshot ");
        assert!(
            wrote[0].contains(&format!(
                "INFO [SnapshotEmitter id={id}] Successfully wrote snapshot 000"
            )),
            "{}",
            wrote[0]
        );
        // The reason names the configured threshold.
        assert!(
            lines_containing(&w, id, "because we have replayed at least 4096 bytes.").len() >= 2
        );
        // Retention moved the log start to a snapshot and deleted the segments before it.
        assert!(log.start_offset() > 0, "node {id} never cleaned its log");
        assert_eq!(
            log.snapshots().first().unwrap().id.offset,
            log.start_offset(),
            "node {id}: the earliest snapshot sits at the log start"
        );
        assert!(!lines_containing(&w, id, "Deleting segments due to log start offset").is_empty());
        assert!(!lines_containing(&w, id, "for deletion because the log size (").is_empty());
        assert!(log.segment_bases()[0] <= log.start_offset());
    }
    // The files as ls shows them, and kafka-dump-log reading a snapshot.
    let latest = w
        .node(102)
        .unwrap()
        .disk
        .metadata_log
        .latest_snapshot()
        .unwrap()
        .clone();
    let ls = tool(&mut w, "ls 102/__cluster_metadata-0");
    assert!(ls.contains(&latest.file_name()), "{ls}");
    assert!(
        !ls.contains("00000000000000000000.log"),
        "segment 0 deleted: {ls}"
    );
    let dump = tool(
        &mut w,
        &format!(
            "kafka-dump-log.sh --cluster-metadata-decoder --files 102/__cluster_metadata-0/{}",
            latest.file_name()
        ),
    );
    let head = format!(
        "Dumping 102/__cluster_metadata-0/{}\nSnapshot end offset: {}, epoch: {}\nbaseOffset: 0 ",
        latest.file_name(),
        latest.id.offset,
        latest.id.epoch
    );
    assert!(dump.starts_with(&head), "{dump}");
    assert!(dump.contains(" SnapshotHeader {\"version\":0,\"lastContainedLogTimestamp\":"));
    assert!(dump.contains(" KRaftVoters {\"version\":0,\"voters\":[{\"voterId\":101,"));
    assert!(dump.contains("\"type\":\"FEATURE_LEVEL_RECORD\""));
    assert!(dump.contains("\"type\":\"REGISTER_BROKER_RECORD\""));
    assert!(dump.contains(" SnapshotFooter {\"version\":0}\n"), "{dump}");
    // The shell reads the same snapshot as an image whose provenance is the snapshot's.
    let prov = tool(
        &mut w,
        &format!(
            "kafka-metadata-shell.sh --snapshot 102/__cluster_metadata-0/{} cat /image/provenance",
            latest.file_name()
        ),
    );
    assert!(
        prov.starts_with(&format!(
            "offset {}, epoch {}",
            latest.id.offset - 1,
            latest.id.epoch
        )),
        "{prov}"
    );
}

#[test]
fn a_new_broker_joining_loads_the_leaders_snapshot() {
    let mut w = small_snapshot_world(5, &[1]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 120_000);
    let (leader, _) = w.leader().expect("leader");
    let leader_snapshot = w
        .node(leader)
        .unwrap()
        .disk
        .metadata_log
        .latest_snapshot()
        .unwrap()
        .id;
    w.add_broker(4).unwrap();
    run_checked(&mut w, &mut c, 15_000);
    let fetching = lines_containing(&w, 4, "Fetching snapshot OffsetAndEpoch[offset=");
    assert!(!fetching.is_empty(), "broker 4 never fetched a snapshot");
    assert!(
        fetching[0].contains(&format!("from Fetch response from leader {leader}")),
        "{}",
        fetching[0]
    );
    let truncated = lines_containing(&w, 4, "Fully truncated the log at (");
    assert_eq!(truncated.len(), 1, "{truncated:?}");
    let loaded = lines_containing(&w, 4, "handleLoadSnapshot(");
    assert!(
        loaded[0].contains("INFO [MetadataLoader id=4] handleLoadSnapshot(")
            && loaded[0].contains("incrementing HandleLoadSnapshotCount to 1."),
        "{loaded:?}"
    );
    let node = w.node(4).unwrap();
    let log = &node.disk.metadata_log;
    assert!(log.start_offset() >= leader_snapshot.offset);
    assert!(
        log.start_offset() > 0,
        "the log starts at the snapshot, not at 0"
    );
    // It caught up from the snapshot, registered and was unfenced like any broker.
    let image = &node.loader.as_ref().unwrap().image;
    assert!(image
        .cluster
        .brokers
        .get(&4)
        .is_some_and(|b| !b.record.fenced));
    assert_eq!(
        node.broker.as_ref().unwrap().state,
        kraft_core::broker::BrokerState::Running
    );
    assert!(tool(&mut w, "ls 4/__cluster_metadata-0").contains(".checkpoint"));
}

#[test]
fn a_broker_behind_the_log_start_fetches_the_snapshot_and_a_restarted_controller_loads_its_own() {
    let mut w = small_snapshot_world(9, &[1, 2]);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 5_000);
    w.kill(2).unwrap();
    run_checked(&mut w, &mut c, 200_000);
    let (leader, _) = w.leader().expect("leader");
    let behind = w.node(2).unwrap().disk.metadata_log.end_offset();
    let leader_start = w.node(leader).unwrap().disk.metadata_log.start_offset();
    assert!(
        behind < leader_start,
        "broker 2 at {behind}, leader starts at {leader_start}"
    );
    w.restart(2).unwrap();
    run_checked(&mut w, &mut c, 15_000);
    assert_eq!(
        lines_containing(&w, 2, "after downloading snapshot").len(),
        1
    );
    assert!(lines_containing(&w, 2, "Fetching snapshot").len() == 1);
    let b = w.node(2).unwrap();
    assert!(b.disk.metadata_log.end_offset() > leader_start);
    // A standby controller restarting with snapshots on disk loads its latest one first.
    let standby = [101, 102, 103]
        .into_iter()
        .find(|id| *id != leader)
        .unwrap();
    w.kill(standby).unwrap();
    run_checked(&mut w, &mut c, 3_000);
    w.restart(standby).unwrap();
    run_checked(&mut w, &mut c, 10_000);
    let starting = lines_containing(&w, standby, "Starting to load snapshot ");
    assert_eq!(starting.len(), 1, "{starting:?}");
    assert!(
        starting[0].contains("Previous lastCommittedOffset was -1."),
        "{}",
        starting[0]
    );
    assert_eq!(
        lines_containing(&w, standby, "Successfully loaded snapshot ").len(),
        1
    );
    assert!(w.node(standby).unwrap().controller.is_some());
}

#[test]
fn the_time_trigger_snapshots_after_the_interval_without_enough_bytes() {
    let mut config = WorldConfig::new(11, vec![101], vec![]);
    config.quorum.metadata_log.max_snapshot_interval_ms = 60_000;
    let mut w = world_from(config);
    let mut c = InvariantChecker::new();
    run_checked(&mut w, &mut c, 59_000);
    assert!(lines_containing(&w, 101, "Creating new KRaft snapshot").is_empty());
    run_checked(&mut w, &mut c, 2_000);
    let made = lines_containing(&w, 101, "Creating new KRaft snapshot file snapshot ");
    assert_eq!(made.len(), 1, "{made:?}");
    assert!(
        made[0].contains("because we have waited at least 1 minute(s)."),
        "{}",
        made[0]
    );
    // One snapshot besides the bootstrap one; below the retention limits nothing is cleaned.
    let log = &w.node(101).unwrap().disk.metadata_log;
    assert_eq!(log.snapshots().len(), 2);
    assert_eq!(log.start_offset(), 0);
}
