//! The KIP-853 tools through the console: a second voter change while one is pending (two
//! tools cannot run at once in one command line, so the first request goes on the Raft path
//! directly), and bad input to `add-node`, `kafka-storage.sh`, `kafka-metadata-quorum.sh`
//! add/remove-controller and `kafka-features.sh` that changes nothing.

use kraft_core::lesson::Console;
use kraft_core::raft::messages::{AddRaftVoterRequest, RaftRequest};
use kraft_core::raft::replica_key::ReplicaKey;

/// A `--standalone` controller 101 with 102 and 103 observing, and a new controller 104
/// formatted `--no-initial-controllers`, started and caught up.
fn standalone_with_104() -> Console {
    let mut c = Console::new();
    for line in [
        "cluster controllers=101,102,103 brokers=1 seed=7 quorum=standalone",
        "run until=leader timeout=10s",
        "add-node 104 controller",
        "kafka-storage.sh format --cluster-id s1j69075dlpHXD2WT0gs0g --config 104/controller.properties --no-initial-controllers",
        "start 104",
        "sleep 3s",
    ] {
        c.exec(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    c
}

#[test]
fn a_second_voter_change_while_one_is_pending_times_out() {
    let mut c = standalone_with_104();
    let w = c.world.as_mut().unwrap();
    let cluster_id = w.cluster_id().to_string();
    let voter = ReplicaKey {
        id: 104,
        directory_id: Some(w.node(104).unwrap().directory_id),
    };
    // AddRaftVoter for 104, not waited for: the leader asks 104 for its ApiVersions, appends
    // the new voter set and answers once it commits.
    w.admin_send_raft(
        101,
        RaftRequest::AddRaftVoter(AddRaftVoterRequest {
            cluster_id,
            timeout_ms: 30_000,
            voter,
            port: Some(9099),
            ack_when_committed: true,
        }),
    )
    .unwrap();
    // The tool's AddRaftVoter for 102 arrives while that change is pending
    // (AddVoterHandler.java:133-146).
    let err = c
        .exec("kafka-metadata-quorum.sh --bootstrap-controller localhost:9093 --command-config 102/controller.properties add-controller")
        .unwrap_err();
    let exception = "org.apache.kafka.common.errors.TimeoutException: Request timed out waiting for leader to handle previous voter change request";
    assert_eq!(
        err,
        format!("{exception}\njava.util.concurrent.ExecutionException: {exception}\nCaused by: {exception}")
    );
    // The first change completes; then 102 can be added.
    c.exec("sleep 1s").unwrap();
    let out = c
        .exec("kafka-metadata-quorum.sh --bootstrap-controller localhost:9093 --command-config 102/controller.properties add-controller")
        .unwrap();
    assert!(
        out.starts_with("Added controller 102 with directory id "),
        "{out}"
    );
    let voters = c.world.as_ref().unwrap().voter_set().voter_ids();
    assert_eq!(voters, [101, 102, 104]);
}

#[test]
fn bad_input_to_the_new_tools_changes_nothing() {
    let mut c = standalone_with_104();
    let before = {
        let w = c.world.as_ref().unwrap();
        (
            w.now_ms(),
            w.events_run(),
            w.node_ids(),
            w.voter_set().voter_ids(),
        )
    };
    for line in [
        "add-node",
        "add-node 104 controller",
        "add-node -1 broker",
        "add-node 4294967296 broker",
        "add-node 7 zookeeper",
        "kafka-storage.sh",
        "kafka-storage.sh frobnicate",
        "kafka-storage.sh format",
        "kafka-storage.sh format --config 104/controller.properties --cluster-id x --bogus",
        "kafka-storage.sh format --config 104/nope.properties --cluster-id x",
        "kafka-storage.sh format --config 104/controller.properties --cluster-id s1j69075dlpHXD2WT0gs0g --standalone",
        "kafka-storage.sh format --config 104/controller.properties --cluster-id x --initial-controllers ,",
        "kafka-storage.sh format --config 104/controller.properties --cluster-id x --initial-controllers 1@[::1",
        "kafka-storage.sh format --config 104/controller.properties --cluster-id x --initial-controllers 1@h:99999:AAAAAAAAAAAAAAAAAAAAAA",
        "kafka-storage.sh format --config 104/controller.properties --cluster-id x --feature kraft.version=1",
        "kafka-storage.sh info --config 104/controller.properties",
        "kafka-metadata-quorum.sh --bootstrap-controller localhost:9093 add-controller",
        "kafka-metadata-quorum.sh --bootstrap-controller localhost:9093 --command-config 9/x add-controller",
        "kafka-metadata-quorum.sh --bootstrap-controller localhost:9093 --command-config 104/controller.properties add-controller --bogus",
        "kafka-metadata-quorum.sh --bootstrap-controller localhost:9093 remove-controller",
        "kafka-metadata-quorum.sh --bootstrap-controller localhost:9093 remove-controller --controller-id 1 --controller-directory-id ''",
        "kafka-metadata-quorum.sh --bootstrap-controller localhost:9093 remove-controller --controller-id 99999999999 --controller-directory-id AAAAAAAAAAAAAAAAAAAAAA",
        "kafka-features.sh",
        "kafka-features.sh --bootstrap-controller localhost:9093",
        "kafka-features.sh --bootstrap-controller localhost:9093 upgrade --feature =",
        "kafka-features.sh --bootstrap-controller localhost:9093 upgrade --feature kraft.version=99999",
        "kafka-features.sh --bootstrap-controller localhost:9093 describe --node-id x",
        "kafka-features.sh --bootstrap-controller localhost:9093 version-mapping",
    ] {
        assert!(c.exec(line).is_err(), "{line} should fail");
        let w = c.world.as_ref().unwrap();
        let now = (w.now_ms(), w.events_run(), w.node_ids(), w.voter_set().voter_ids());
        assert_eq!(now, before, "{line} changed the world");
    }
}
