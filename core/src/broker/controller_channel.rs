//! NodeToControllerChannelManager: a broker's channel to the active controller (Kafka's
//! NodeToControllerChannelManagerImpl and its NodeToControllerRequestThread over a
//! NetworkClient), here the lifecycle manager's, `name=heartbeat`.
//!
//! It sends the queued requests one at a time to the controller it has cached, which it takes
//! from its Raft client's leader (RaftControllerNodeProvider). A request unanswered after the
//! request timeout disconnects; a broken connection or a NOT_CONTROLLER answer forgets the
//! controller. Either way the request goes back to the head of the queue, to be sent to whatever
//! leader Raft knows then, unless it has waited the retry timeout since it was queued: then it
//! fails with `onTimeout`. The lifecycle manager's channel has a retry timeout of
//! broker.heartbeat.interval.ms (KAFKA-19294), so the request timeout is that too.
//! A new connection's ApiVersions exchange takes a correlation id, as in Kafka, but no time here.

use crate::common::message::controller::{
    ApiError, ControllerMessage, ControllerRequest, ControllerResponse,
};
use crate::common::node_log::{Level, LogFile, LogLine, NodeLog};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The correlation ids of a broker's lifecycle requests start here, apart from the
/// controller's and the replica manager's.
pub const CORRELATION_BASE: u64 = 1 << 32;
/// controller.socket.timeout.ms
pub const CONTROLLER_SOCKET_TIMEOUT_MS: u64 = 30_000;
/// The NetworkClient's reconnect.backoff.ms (and its maximum): how long after a disconnect
/// the channel waits before connecting to the same node again.
pub const RECONNECT_BACKOFF_MS: u64 = 50;

const NETWORK_CLIENT: &str = "org.apache.kafka.clients.NetworkClient";
const REQUEST_THREAD: &str = "org.apache.kafka.server.NodeToControllerRequestThread";
const CHANNEL_MANAGER: &str = "org.apache.kafka.server.NodeToControllerChannelManagerImpl";

/// How a request ended, for its completion handler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Completion {
    /// `onComplete`: the controller's response.
    Response(ControllerRequest, ControllerResponse),
    /// `onTimeout`: not sent (or not answered) within the retry timeout of being queued.
    Timeout(ControllerRequest),
}

/// A `NodeToControllerQueueItem`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct QueueItem {
    created_ms: u64,
    request: ControllerRequest,
}

/// The request on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
struct InFlight {
    to: i32,
    correlation_id: u64,
    sent_ms: u64,
    item: QueueItem,
}

/// The channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeToControllerChannelManager {
    name: &'static str,
    prefix: String,
    retry_timeout_ms: u64,
    request_timeout_ms: u64,
    active_controller: Option<i32>,
    queue: VecDeque<QueueItem>,
    in_flight: Option<InFlight>,
    /// Per node: no connection before this time (the reconnect backoff after a disconnect).
    reconnect_at_ms: BTreeMap<i32, u64>,
    /// The nodes with an open connection.
    connected: BTreeSet<i32>,
    next_correlation_id: u64,
    /// Where this channel's correlation ids start (apart from the other channels').
    correlation_base: u64,
    shut_down: bool,
}

impl NodeToControllerChannelManager {
    /// The channel `name` of node `node_id`, whose requests fail after `retry_timeout_ms`.
    pub fn new(node_id: i32, name: &'static str, retry_timeout_ms: u64) -> Self {
        NodeToControllerChannelManager {
            name,
            prefix: format!("[NodeToControllerChannelManager id={node_id} name={name}] "),
            retry_timeout_ms,
            request_timeout_ms: CONTROLLER_SOCKET_TIMEOUT_MS.min(retry_timeout_ms),
            active_controller: None,
            queue: VecDeque::new(),
            in_flight: None,
            reconnect_at_ms: BTreeMap::new(),
            connected: BTreeSet::new(),
            next_correlation_id: 0,
            correlation_base: CORRELATION_BASE,
            shut_down: false,
        }
    }

    /// The same channel with its correlation ids from `base` (the forwarding channel's).
    pub fn with_correlation_base(mut self, base: u64) -> Self {
        self.correlation_base = base;
        self
    }

    /// The controller the channel sends to, if it has one cached.
    pub fn active_controller(&self) -> Option<i32> {
        self.active_controller
    }

    /// `sendRequest`: queue `request`.
    pub fn send_request(&mut self, request: ControllerRequest, now_ms: u64) {
        if !self.shut_down {
            self.queue.push_back(QueueItem {
                created_ms: now_ms,
                request,
            });
        }
    }

    fn log(log: &mut NodeLog, now_ms: u64, logger: &'static str, prefix: &str, message: String) {
        log.push(LogLine {
            time_ms: now_ms,
            level: Level::Info,
            file: LogFile::Server,
            prefix: prefix.to_string(),
            message,
            logger,
        });
    }

    /// Forget the controller and wait out the reconnect backoff before connecting to `node`
    /// again; the request goes back to the head of the queue.
    fn disconnected(&mut self, node: i32, item: QueueItem, now_ms: u64) {
        self.active_controller = None;
        self.reconnect_at_ms
            .insert(node, now_ms + RECONNECT_BACKOFF_MS);
        self.queue.push_front(item);
    }

    /// The request thread's work at `now_ms`: time out the request in flight, find the
    /// controller (`controller`: Raft's leader and its CONTROLLER port), fail requests queued
    /// for the retry timeout, and send the next one. Returns the message to send and the
    /// requests that timed out.
    pub fn poll(
        &mut self,
        now_ms: u64,
        controller: Option<(i32, u16)>,
        log: &mut NodeLog,
    ) -> (Option<(i32, ControllerMessage)>, Vec<Completion>) {
        let mut timed_out = Vec::new();
        if self.shut_down {
            return (None, timed_out);
        }
        // NetworkClient.handleTimedOutRequests.
        if let Some(f) = self
            .in_flight
            .take_if(|f| now_ms - f.sent_ms > self.request_timeout_ms)
        {
            let elapsed = now_ms - f.sent_ms;
            Self::log(
                log,
                now_ms,
                NETWORK_CLIENT,
                &self.prefix,
                format!("Disconnecting from node {} due to request timeout.", f.to),
            );
            Self::log(
                log,
                now_ms,
                NETWORK_CLIENT,
                &self.prefix,
                format!(
                    "Cancelled in-flight {} request with correlation id {} due to node {} being disconnected (elapsed time since creation: {elapsed}ms, elapsed time since send: {elapsed}ms, throttle time: 0ms, request timeout: {}ms)",
                    api_key_name(&f.item.request),
                    f.correlation_id - self.correlation_base,
                    f.to,
                    self.request_timeout_ms
                ),
            );
            self.disconnected(f.to, f.item, now_ms);
        }
        // doWork: a thread without a controller looks one up.
        if self.active_controller.is_none() {
            if let Some((id, port)) = controller {
                Self::log(
                    log,
                    now_ms,
                    REQUEST_THREAD,
                    "",
                    format!("Recorded new KRaft controller, from now on will use node localhost:{port} (id: {id} rack: null isFenced: false)"),
                );
                self.active_controller = Some(id);
            }
        }
        // generateRequests: expire what waited too long, send the first one that can go.
        let mut send = None;
        let mut i = 0;
        while i < self.queue.len() {
            if now_ms - self.queue[i].created_ms >= self.retry_timeout_ms {
                if let Some(item) = self.queue.remove(i) {
                    timed_out.push(Completion::Timeout(item.request));
                }
                continue;
            }
            if let Some(to) = self.active_controller {
                let ready = self.in_flight.is_none()
                    && self.reconnect_at_ms.get(&to).is_none_or(|t| now_ms >= *t);
                if ready {
                    send = self.queue.remove(i).map(|item| (to, item));
                    break;
                }
            }
            i += 1;
        }
        let message = send.map(|(to, item)| {
            // A new connection first sends ApiVersions (discoverBrokerVersions), which takes
            // the network client's next correlation id.
            if self.connected.insert(to) {
                self.next_correlation_id += 1;
            }
            let correlation_id = self.correlation_base + self.next_correlation_id;
            self.next_correlation_id += 1;
            let body = item.request.clone();
            self.in_flight = Some(InFlight {
                to,
                correlation_id,
                sent_ms: now_ms,
                item,
            });
            (
                to,
                ControllerMessage::Request {
                    correlation_id,
                    body,
                },
            )
        });
        (message, timed_out)
    }

    /// A response (or the network client's failure) for `correlation_id` arrived: the
    /// completion to hand to the request's handler, or `None` when the request goes back to the
    /// queue (a broken connection, NOT_CONTROLLER) or is not the one in flight.
    pub fn handle_response(
        &mut self,
        correlation_id: u64,
        body: ControllerResponse,
        now_ms: u64,
        log: &mut NodeLog,
    ) -> Option<Completion> {
        let f = self
            .in_flight
            .take_if(|f| f.correlation_id == correlation_id)?;
        if matches!(body, ControllerResponse::Failed { .. }) {
            // wasDisconnected: look the controller up again.
            self.disconnected(f.to, f.item, now_ms);
            return None;
        }
        if not_controller(&body) {
            Self::log(
                log,
                now_ms,
                NETWORK_CLIENT,
                &self.prefix,
                format!("Client requested disconnect from node {}", f.to),
            );
            self.disconnected(f.to, f.item, now_ms);
            return None;
        }
        Some(Completion::Response(f.item.request, body))
    }

    /// When the channel next has something to do on its own (a request timeout, a queued
    /// request's retry timeout, the end of a reconnect backoff).
    pub fn next_wake_ms(&self, now_ms: u64) -> Option<u64> {
        if self.shut_down {
            return None;
        }
        let timeout = self
            .in_flight
            .as_ref()
            .map(|f| f.sent_ms + self.request_timeout_ms + 1);
        let expiry = self
            .queue
            .iter()
            .map(|q| q.created_ms + self.retry_timeout_ms)
            .min();
        let backoff = match (
            self.active_controller,
            &self.in_flight,
            self.queue.is_empty(),
        ) {
            (Some(to), None, false) => self.reconnect_at_ms.get(&to).copied(),
            _ => None,
        };
        [timeout, expiry, backoff]
            .into_iter()
            .flatten()
            .filter(|t| *t > now_ms)
            .min()
    }

    /// `shutdown`: drop what is queued or in flight.
    pub fn shutdown(&mut self, now_ms: u64, log: &mut NodeLog) {
        if self.shut_down {
            return;
        }
        self.shut_down = true;
        self.queue.clear();
        self.in_flight = None;
        Self::log(
            log,
            now_ms,
            CHANNEL_MANAGER,
            "",
            format!(
                "Node to controller channel manager for {} shutdown",
                self.name
            ),
        );
    }
}

/// Kafka's `ApiKeys` name of a request.
fn api_key_name(r: &ControllerRequest) -> &'static str {
    match r {
        ControllerRequest::ControllerRegistration { .. } => "CONTROLLER_REGISTRATION",
        ControllerRequest::CreateTopics { .. } => "CREATE_TOPICS",
        ControllerRequest::DeleteTopics { .. } => "DELETE_TOPICS",
        ControllerRequest::IncrementalAlterConfigs { .. } => "INCREMENTAL_ALTER_CONFIGS",
        ControllerRequest::BrokerRegistration { .. } => "BROKER_REGISTRATION",
        ControllerRequest::AlterPartition { .. } => "ALTER_PARTITION",
        ControllerRequest::BrokerHeartbeat { .. } => "BROKER_HEARTBEAT",
    }
}

/// `response.errorCounts().containsKey(NOT_CONTROLLER)`.
fn not_controller(body: &ControllerResponse) -> bool {
    let error = match body {
        ControllerResponse::ControllerRegistration { error }
        | ControllerResponse::CreateTopics { error, .. }
        | ControllerResponse::DeleteTopics { error, .. }
        | ControllerResponse::IncrementalAlterConfigs { error, .. }
        | ControllerResponse::BrokerRegistration { error, .. }
        | ControllerResponse::BrokerHeartbeat { error, .. }
        | ControllerResponse::AlterPartition { error, .. } => *error,
        ControllerResponse::Failed { .. } => None,
    };
    error == Some(ApiError::NotController)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heartbeat() -> ControllerRequest {
        ControllerRequest::BrokerHeartbeat {
            broker_id: 1,
            broker_epoch: 10,
            current_metadata_offset: 20,
            want_fence: false,
            want_shut_down: false,
            cordoned_log_dirs: None,
        }
    }

    fn sent(m: Option<(i32, ControllerMessage)>) -> (i32, u64) {
        match m {
            Some((to, ControllerMessage::Request { correlation_id, .. })) => (to, correlation_id),
            other => panic!("nothing sent: {other:?}"),
        }
    }

    #[test]
    fn an_unanswered_request_times_out_then_fails_after_the_retry_timeout() {
        let mut log = NodeLog::default();
        let mut c = NodeToControllerChannelManager::new(1, "heartbeat", 2_000);
        c.send_request(heartbeat(), 100);
        let (to, _) = sent(c.poll(100, Some((101, 9093)), &mut log).0);
        assert_eq!(to, 101);
        assert_eq!(c.next_wake_ms(100), Some(2_101));
        let (m, done) = c.poll(2_100, Some((101, 9093)), &mut log);
        assert!(m.is_none() && done.is_empty());
        // Strictly more than the request timeout: disconnect, look the controller up again,
        // and the request, queued 2001 ms ago, fails.
        let (m, done) = c.poll(2_101, Some((102, 9095)), &mut log);
        assert!(m.is_none());
        assert_eq!(done, vec![Completion::Timeout(heartbeat())]);
        assert_eq!(c.active_controller(), Some(102));
        let lines: Vec<String> = log.lines().map(|l| l.to_string()).collect();
        assert_eq!(lines.len(), 4, "{lines:#?}");
        assert!(lines[1].ends_with("INFO [NodeToControllerChannelManager id=1 name=heartbeat] Disconnecting from node 101 due to request timeout. (org.apache.kafka.clients.NetworkClient)"), "{}", lines[1]);
        assert!(lines[2].ends_with("INFO [NodeToControllerChannelManager id=1 name=heartbeat] Cancelled in-flight BROKER_HEARTBEAT request with correlation id 1 due to node 101 being disconnected (elapsed time since creation: 2001ms, elapsed time since send: 2001ms, throttle time: 0ms, request timeout: 2000ms) (org.apache.kafka.clients.NetworkClient)"), "{}", lines[2]);
        assert!(lines[3].ends_with("INFO Recorded new KRaft controller, from now on will use node localhost:9095 (id: 102 rack: null isFenced: false) (org.apache.kafka.server.NodeToControllerRequestThread)"), "{}", lines[3]);
    }

    #[test]
    fn not_controller_requeues_the_request_after_the_reconnect_backoff() {
        let mut log = NodeLog::default();
        let mut c = NodeToControllerChannelManager::new(1, "heartbeat", 2_000);
        c.send_request(heartbeat(), 0);
        let (_, cid) = sent(c.poll(0, Some((101, 9093)), &mut log).0);
        let nc = heartbeat().not_controller_response();
        assert_eq!(c.handle_response(cid, nc, 4, &mut log), None);
        // Raft still names 101: it is looked up again, and connected to after 50 ms.
        assert!(c.poll(4, Some((101, 9093)), &mut log).0.is_none());
        assert_eq!(c.next_wake_ms(4), Some(54));
        let (to, cid) = sent(c.poll(54, Some((101, 9093)), &mut log).0);
        assert_eq!(to, 101);
        let ok = ControllerResponse::BrokerHeartbeat {
            error: None,
            is_caught_up: true,
            is_fenced: false,
            should_shut_down: false,
        };
        assert_eq!(
            c.handle_response(cid, ok.clone(), 57, &mut log),
            Some(Completion::Response(heartbeat(), ok))
        );
        assert!(log
            .lines()
            .any(|l| l.message == "Client requested disconnect from node 101"));
    }

    #[test]
    fn without_a_controller_a_request_waits_then_times_out() {
        let mut log = NodeLog::default();
        let mut c = NodeToControllerChannelManager::new(1, "heartbeat", 2_000);
        c.send_request(heartbeat(), 0);
        assert!(c.poll(1_999, None, &mut log).1.is_empty());
        assert_eq!(c.next_wake_ms(1_999), Some(2_000));
        assert_eq!(c.poll(2_000, None, &mut log).1.len(), 1);
        assert_eq!(c.next_wake_ms(2_000), None);
    }
}
