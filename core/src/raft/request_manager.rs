//! RequestManager: at most one in-flight request per destination, with timeouts and backoff.

use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq)]
enum ConnectionState {
    Ready,
    AwaitingResponse {
        correlation_id: u64,
        deadline_ms: u64,
    },
    BackingOff {
        until_ms: u64,
    },
}

/// Tracks outbound requests per destination node.
#[derive(Clone, Debug, Default)]
pub struct RequestManager {
    connections: BTreeMap<i32, ConnectionState>,
}

impl RequestManager {
    /// Whether a request may be sent to `node` now.
    pub fn is_ready(&self, node: i32, now_ms: u64) -> bool {
        match self.connections.get(&node) {
            None | Some(ConnectionState::Ready) => true,
            Some(ConnectionState::BackingOff { until_ms }) => now_ms >= *until_ms,
            Some(ConnectionState::AwaitingResponse { .. }) => false,
        }
    }

    /// Whether `node` is in backoff at `now_ms`.
    pub fn is_backing_off(&self, node: i32, now_ms: u64) -> bool {
        matches!(self.connections.get(&node), Some(ConnectionState::BackingOff { until_ms }) if now_ms < *until_ms)
    }

    /// Whether the request to `node` has passed its deadline.
    pub fn has_request_timed_out(&self, node: i32, now_ms: u64) -> bool {
        matches!(self.connections.get(&node), Some(ConnectionState::AwaitingResponse { deadline_ms, .. }) if now_ms >= *deadline_ms)
    }

    /// Whether any request is awaiting a response (and not timed out).
    pub fn has_any_inflight_request(&self, now_ms: u64) -> bool {
        self.connections.values().any(|c| {
            matches!(c, ConnectionState::AwaitingResponse { deadline_ms, .. } if now_ms < *deadline_ms)
        })
    }

    /// Record a request sent to `node`.
    pub fn on_request_sent(&mut self, node: i32, correlation_id: u64, deadline_ms: u64) {
        self.connections.insert(
            node,
            ConnectionState::AwaitingResponse {
                correlation_id,
                deadline_ms,
            },
        );
    }

    /// Whether a response from `node` with `correlation_id` is the one expected.
    pub fn is_response_expected(&self, node: i32, correlation_id: u64) -> bool {
        matches!(self.connections.get(&node), Some(ConnectionState::AwaitingResponse { correlation_id: c, .. }) if *c == correlation_id)
    }

    /// Record the outcome of the expected response: ready again, or back off after a failure.
    pub fn on_response_result(&mut self, node: i32, success: bool, now_ms: u64, backoff_ms: u64) {
        let next = if success {
            ConnectionState::Ready
        } else {
            ConnectionState::BackingOff {
                until_ms: now_ms + backoff_ms,
            }
        };
        self.connections.insert(node, next);
    }

    /// Forget `node`'s state (a timed-out request is abandoned).
    pub fn reset(&mut self, node: i32) {
        self.connections.remove(&node);
    }

    /// Forget everything (on a state change, `resetConnections`).
    pub fn reset_all(&mut self) {
        self.connections.clear();
    }

    /// Move timed-out requests to backoff; returns the nodes whose requests timed out.
    pub fn expire_timed_out(&mut self, now_ms: u64, backoff_ms: u64) -> Vec<i32> {
        let mut out = Vec::new();
        for (node, c) in self.connections.iter_mut() {
            if let ConnectionState::AwaitingResponse { deadline_ms, .. } = c {
                if now_ms >= *deadline_ms {
                    *c = ConnectionState::BackingOff {
                        until_ms: now_ms + backoff_ms,
                    };
                    out.push(*node);
                }
            }
        }
        out
    }

    /// The earliest time something changes (a deadline or a backoff end), if any.
    pub fn next_deadline_ms(&self) -> Option<u64> {
        self.connections
            .values()
            .filter_map(|c| match c {
                ConnectionState::Ready => None,
                ConnectionState::AwaitingResponse { deadline_ms, .. } => Some(*deadline_ms),
                ConnectionState::BackingOff { until_ms } => Some(*until_ms),
            })
            .min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_inflight_per_destination_then_backoff() {
        let mut r = RequestManager::default();
        assert!(r.is_ready(1, 0));
        r.on_request_sent(1, 7, 2000);
        assert!(!r.is_ready(1, 10));
        assert!(r.is_response_expected(1, 7));
        assert!(!r.is_response_expected(1, 8));
        r.on_response_result(1, false, 100, 20);
        assert!(!r.is_ready(1, 110));
        assert!(r.is_ready(1, 120));
        r.on_request_sent(2, 9, 2000);
        assert_eq!(r.expire_timed_out(2000, 20), vec![2]);
        assert!(r.is_backing_off(2, 2010));
    }
}
