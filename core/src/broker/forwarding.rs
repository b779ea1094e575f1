//! The broker's ForwardingManager (core/src/main/scala/kafka/server/ForwardingManager.scala at
//! confluentinc/kafka 06d492d8): a client's admin request that only the controller can answer
//! (CreateTopics, DeleteTopics, IncrementalAlterConfigs) reaches a broker, which forwards it
//! to the active controller over its own NodeToControllerChannelManager, `name=forwarding`,
//! with a retry timeout of 60 s (BrokerServer.scala: `channelName = "forwarding"`,
//! `retryTimeoutMs = 60000`), and hands the controller's answer back to the client. A
//! NOT_CONTROLLER answer or a lost connection sends it again to whatever controller Raft knows
//! then; a request still unanswered after the retry timeout is answered REQUEST_TIMED_OUT
//! (`ForwardingManagerImpl.forwardRequest`'s `onTimeout`).
//!
//! Kafka wraps the request in an Envelope with the client's principal; here the request goes
//! as it is (no security model).

use std::collections::VecDeque;

use super::controller_channel::{Completion, NodeToControllerChannelManager};
use super::messages::{DataMessage, DataResponse};
use crate::common::message::controller::{ApiError, ControllerMessage, ControllerRequest};
use crate::common::node_log::NodeLog;

/// The forwarding channel's correlation ids start here, apart from the lifecycle channel's
/// (1 << 32) and the replica manager's (2 << 32).
pub const FORWARDING_CORRELATION_BASE: u64 = 3 << 32;
/// The forwarding channel's retry timeout (BrokerServer.scala).
pub const FORWARDING_RETRY_TIMEOUT_MS: u64 = 60_000;

/// What a poll of the channel gives: the request to send to the controller, and the answers
/// for clients.
pub type ForwardingOutput = (Option<(i32, ControllerMessage)>, Vec<(i32, DataMessage)>);

/// The forwarding manager of one broker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForwardingManager {
    channel: NodeToControllerChannelManager,
    /// The clients waiting, in the channel's order: (client, its correlation id). The channel
    /// completes its requests first in, first out (one in flight; a retried one goes back to
    /// the head of its queue; the ones that time out are the oldest), so the oldest waiting
    /// client owns each completion.
    waiting: VecDeque<(i32, u64)>,
}

impl Default for ForwardingManager {
    fn default() -> Self {
        ForwardingManager::new(-1)
    }
}

impl ForwardingManager {
    /// The forwarding manager of broker `node_id`.
    pub fn new(node_id: i32) -> Self {
        ForwardingManager {
            channel: NodeToControllerChannelManager::new(
                node_id,
                "forwarding",
                FORWARDING_RETRY_TIMEOUT_MS,
            )
            .with_correlation_base(FORWARDING_CORRELATION_BASE),
            waiting: VecDeque::new(),
        }
    }

    /// `forwardRequest`: queue `request` of client `from` (its correlation id `cid`).
    pub fn forward(&mut self, from: i32, cid: u64, request: ControllerRequest, now_ms: u64) {
        self.channel.send_request(request, now_ms);
        self.waiting.push_back((from, cid));
    }

    /// The channel's work at `now_ms` (`controller`: Raft's leader and its CONTROLLER port):
    /// the request to send to the controller, and the answers for clients whose request timed
    /// out.
    pub fn poll(
        &mut self,
        now_ms: u64,
        controller: Option<(i32, u16)>,
        log: &mut NodeLog,
    ) -> ForwardingOutput {
        let (message, timed_out) = self.channel.poll(now_ms, controller, log);
        let answers = timed_out
            .into_iter()
            .filter_map(|c| self.complete(c))
            .collect();
        (message, answers)
    }

    /// The controller answered the forwarded request `correlation_id` (or the connection
    /// failed): the answer for its client, unless the request goes round again.
    pub fn handle_response(
        &mut self,
        correlation_id: u64,
        body: crate::common::message::controller::ControllerResponse,
        now_ms: u64,
        log: &mut NodeLog,
    ) -> Option<(i32, DataMessage)> {
        let c = self
            .channel
            .handle_response(correlation_id, body, now_ms, log)?;
        self.complete(c)
    }

    /// The answer a completion gives the oldest waiting client.
    fn complete(&mut self, c: Completion) -> Option<(i32, DataMessage)> {
        let (client, correlation_id) = self.waiting.pop_front()?;
        let body = match c {
            Completion::Response(_, r) => r,
            Completion::Timeout(request) => request.error_response(ApiError::RequestTimedOut),
        };
        Some((
            client,
            DataMessage::Response {
                correlation_id,
                body: DataResponse::Admin(body),
            },
        ))
    }

    /// When the channel next has something to do on its own.
    pub fn next_wake_ms(&self, now_ms: u64) -> Option<u64> {
        self.channel.next_wake_ms(now_ms)
    }
}
