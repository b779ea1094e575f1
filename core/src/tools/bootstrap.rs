//! The admin client's way in through `--bootstrap-server` (KafkaAdminClient at
//! confluentinc/kafka 06d492d8): it knows the cluster only through the brokers listed. A call
//! waits for a node assignment: a listed broker that answers (a running broker that has caught
//! up with the metadata log and opened its listeners, BrokerServer.startup's
//! `enableRequestProcessing`); with none, the call fails "Timed out waiting for a node
//! assignment". Reads (listTopics, describeTopics, describeConfigs) are answered from that
//! broker's MetadataImage, as its MetadataCache answers Metadata. Writes (createTopics,
//! deleteTopics) in Kafka go to the controller the broker's Metadata names (in KRaft a random
//! live broker, KRaftMetadataCache.getRandomAliveBrokerId), which forwards them to the active
//! controller (broker/forwarding.rs); here they go to the active controller directly once a
//! bootstrap broker answers (see [`admin_call_via`]).

use super::{AdminFailure, ADMIN_TIMEOUT_MS};
use crate::common::message::controller::{ControllerRequest, ControllerResponse};
use crate::image::MetadataImage;
use crate::sim::node::{Node, ProcessState};
use crate::sim::World;

/// Whether broker `n` answers clients: running, its loader has published an image.
fn serves(n: &Node) -> bool {
    n.process == ProcessState::Running && n.loader.as_ref().is_some_and(|l| l.publish_count > 0)
}

/// The first broker of `list` that answers now.
pub(crate) fn bootstrap_broker(world: &World, list: &str) -> Option<i32> {
    super::client::bootstrap_brokers(world, list)
        .into_iter()
        .find(|id| world.node(*id).is_some_and(serves))
}

/// Wait (running the world) for a broker of `list` that answers; None at `deadline_ms`.
pub(crate) fn wait_for_bootstrap_broker(
    world: &mut World,
    list: &str,
    deadline_ms: u64,
) -> Option<i32> {
    if let Some(b) = bootstrap_broker(world, list) {
        return Some(b);
    }
    let left = deadline_ms.saturating_sub(world.now_ms());
    world.run_until(left, |w| bootstrap_broker(w, list).is_some());
    bootstrap_broker(world, list)
}

/// The image of the broker of `list` that answers a read (`call`), or the call's timeout.
pub(crate) fn bootstrap_image(
    world: &mut World,
    list: &str,
    call: &'static str,
) -> Result<MetadataImage, AdminFailure> {
    let deadline = world.now_ms() + ADMIN_TIMEOUT_MS;
    let b =
        wait_for_bootstrap_broker(world, list, deadline).ok_or(AdminFailure::NoNode { call })?;
    world
        .node(b)
        .and_then(|n| n.loader.as_ref())
        .map(|l| l.image.clone())
        .ok_or(AdminFailure::NoNode { call })
}

/// A write as the tools send it: once a broker of `list` answers (else the node-assignment
/// timeout), the request goes to the active controller directly, skipping the broker's
/// forwarding hop (broker/forwarding.rs): the lessons' pinned outputs (the article's examples) were
/// made with the direct path, and the hop's extra messages would move every later draw of
/// the seed. The answer is the same; the forwarding path itself is tested in
/// tests/data_plane.rs.
pub(crate) fn admin_call_via(
    world: &mut World,
    list: &str,
    call: &'static str,
    request: &ControllerRequest,
) -> Result<ControllerResponse, AdminFailure> {
    let deadline = world.now_ms() + ADMIN_TIMEOUT_MS;
    wait_for_bootstrap_broker(world, list, deadline).ok_or(AdminFailure::NoNode { call })?;
    super::admin_call(world, call, request)
}
