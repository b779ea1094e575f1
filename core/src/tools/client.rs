//! The clients' side of the data plane, shared by the producer, the console consumer and
//! `kafka-get-offsets`: the brokers `--bootstrap-server` names, one request sent and awaited
//! (NetworkClient's request timeout), and a Metadata request retried over the known brokers
//! until a deadline (NetworkClient.leastLoadedNode, `reconnect.backoff.ms`).

use crate::broker::messages::{DataRequest, DataResponse, MetadataRequest, MetadataResponse};
use crate::common::protocol::Errors;
use crate::sim::node::Roles;
use crate::sim::World;

/// `reconnect.backoff.ms` (CommonClientConfigs.DEFAULT_RECONNECT_BACKOFF_MS): the wait before
/// trying another node after a failed connection.
pub const RECONNECT_BACKOFF_MS: u64 = 50;

/// Why a request got no useful answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallError {
    /// The connection failed or was cut (the broker is down): NETWORK_EXCEPTION.
    Disconnected,
    /// No answer within the request timeout (NetworkClient cuts the connection).
    TimedOut,
    /// The tool was killed (`timeout`) before the answer.
    Killed,
}

/// The ports of a `host:port,host:port` list (`--bootstrap-server`, `--bootstrap-controller`),
/// in its order; an entry without a port is left out.
pub(crate) fn ports(list: &str) -> Vec<u16> {
    list.split(',')
        .filter_map(|hp| hp.trim().rsplit(':').next()?.parse::<u16>().ok())
        .collect()
}

/// The broker nodes `--bootstrap-server` (`localhost:9092,localhost:9094`) names, in order:
/// a node whose PLAINTEXT port is one of the listed ports, running or not. A port no broker
/// has is left out (nothing listens there: the client never connects).
pub fn bootstrap_brokers(world: &World, list: &str) -> Vec<i32> {
    let mut out = Vec::new();
    for port in ports(list) {
        for n in world.nodes() {
            if n.roles != Roles::Controller && n.broker_port == port && !out.contains(&n.id) {
                out.push(n.id);
            }
        }
    }
    out
}

/// Send `request` to broker `to` and run the world until its answer or `timeout_ms`.
pub fn call(
    world: &mut World,
    to: i32,
    request: DataRequest,
    timeout_ms: u64,
) -> Result<DataResponse, CallError> {
    let Ok(cid) = world.client_send(to, request) else {
        return Err(if world.tool_killed() {
            CallError::Killed
        } else {
            CallError::Disconnected
        });
    };
    world.run_until(timeout_ms, |w| w.client_response(cid).is_some());
    match world.client_response(cid).cloned() {
        Some(DataResponse::Failed { .. }) => Err(CallError::Disconnected),
        Some(r) => Ok(r),
        None if world.tool_killed() => Err(CallError::Killed),
        None => Err(CallError::TimedOut),
    }
}

/// A Metadata request for `topics` (`None`: every topic), tried on `nodes` in turn (each failure waits
/// [`RECONNECT_BACKOFF_MS`]) until one answers or `deadline_ms` passes.
pub fn metadata(
    world: &mut World,
    nodes: &[i32],
    topics: Option<&[String]>,
    request_timeout_ms: u64,
    deadline_ms: u64,
) -> Option<MetadataResponse> {
    if nodes.is_empty() {
        world.run_for(deadline_ms.saturating_sub(world.now_ms()));
        return None;
    }
    let mut i = 0usize;
    while world.now_ms() < deadline_ms && !world.tool_killed() {
        let to = nodes[i % nodes.len()];
        i += 1;
        let wait = request_timeout_ms.min(deadline_ms - world.now_ms());
        let request = DataRequest::Metadata(MetadataRequest {
            topics: topics.map(<[String]>::to_vec),
        });
        match call(world, to, request, wait) {
            Ok(DataResponse::Metadata(m)) => return Some(m),
            Err(CallError::Killed) => return None,
            _ => {
                let left = deadline_ms.saturating_sub(world.now_ms());
                world.run_for(RECONNECT_BACKOFF_MS.min(left));
            }
        }
    }
    None
}

/// The brokers a MetadataResponse names, then the bootstrap ones: where the next Metadata
/// request may go.
pub fn known_brokers(meta: Option<&MetadataResponse>, bootstrap: &[i32]) -> Vec<i32> {
    let mut out: Vec<i32> = meta
        .map(|m| m.brokers.iter().map(|b| b.node_id).collect())
        .unwrap_or_default();
    for b in bootstrap {
        if !out.contains(b) {
            out.push(*b);
        }
    }
    out
}

/// The Java exception (`org.apache.kafka.common.errors.NotEnoughReplicasException: ...`) a
/// client raises for a broker's error code (Errors.java): the response's message if any,
/// else the error's default message.
pub fn exception(error: Errors, message: Option<&str>) -> String {
    let class = error.exception().unwrap_or("UnknownServerException");
    let text = message.unwrap_or(error.default_message());
    format!("org.apache.kafka.common.errors.{class}: {text}")
}

/// A ListOffsets request (`timestamp` -1 latest, -2 earliest) for `topic`-`partition` to its
/// leader in `meta`: the offset, or the error.
pub fn list_offset(
    world: &mut World,
    meta: &MetadataResponse,
    topic: &str,
    partition: i32,
    timestamp: i64,
    timeout_ms: u64,
) -> Result<i64, Errors> {
    let t = meta
        .topics
        .iter()
        .find(|t| t.name == topic)
        .ok_or(Errors::UnknownTopicOrPartition)?;
    let p = t
        .partitions
        .iter()
        .find(|p| p.index == partition)
        .ok_or(Errors::UnknownTopicOrPartition)?;
    if p.leader < 0 {
        return Err(Errors::LeaderNotAvailable);
    }
    let request = DataRequest::ListOffsets(crate::broker::messages::ListOffsetsRequest {
        partition: (t.id, partition),
        timestamp,
    });
    match call(world, p.leader, request, timeout_ms) {
        Ok(DataResponse::ListOffsets(r)) if r.error == Errors::None => Ok(r.offset),
        Ok(DataResponse::ListOffsets(r)) => Err(r.error),
        Ok(_) => Err(Errors::UnknownServerError),
        Err(CallError::TimedOut) => Err(Errors::RequestTimedOut),
        Err(_) => Err(Errors::NotLeaderOrFollower),
    }
}
