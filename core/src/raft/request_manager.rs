//! RequestManager, as Kafka's: at most one in-flight request per destination. A request that
//! times out (controller.quorum.request.timeout.ms) frees its connection at once, so the next
//! poll sends again; a failed response backs off (controller.quorum.retry.backoff.ms).

use std::collections::BTreeMap;

use crate::common::rng::SimRng;

#[derive(Clone, Debug, PartialEq, Eq)]
enum ConnectionState {
    AwaitingResponse {
        correlation_id: u64,
        deadline_ms: u64,
    },
    BackingOff {
        until_ms: u64,
    },
}

/// Tracks outbound requests per destination node (no entry: ready).
#[derive(Clone, Debug, Default)]
pub struct RequestManager {
    connections: BTreeMap<i32, ConnectionState>,
}

impl RequestManager {
    /// `isReady`: whether a request may be sent to `node` now. A backoff that ended and a
    /// request that timed out both free the connection (it is forgotten).
    pub fn is_ready(&mut self, node: i32, now_ms: u64) -> bool {
        let free = match self.connections.get(&node) {
            None => return true,
            Some(ConnectionState::BackingOff { until_ms }) => now_ms >= *until_ms,
            Some(ConnectionState::AwaitingResponse { deadline_ms, .. }) => now_ms >= *deadline_ms,
        };
        if free {
            self.connections.remove(&node);
        }
        free
    }

    /// Whether `node` is in backoff at `now_ms`.
    pub fn is_backing_off(&self, node: i32, now_ms: u64) -> bool {
        matches!(self.connections.get(&node), Some(ConnectionState::BackingOff { until_ms }) if now_ms < *until_ms)
    }

    /// Whether the request to `node` has passed its deadline.
    pub fn has_request_timed_out(&self, node: i32, now_ms: u64) -> bool {
        matches!(self.connections.get(&node), Some(ConnectionState::AwaitingResponse { deadline_ms, .. }) if now_ms >= *deadline_ms)
    }

    /// `hasAnyInflightRequest`: whether any request still awaits its response (timed-out and
    /// finished backoffs are forgotten on the way).
    pub fn has_any_inflight_request(&mut self, now_ms: u64) -> bool {
        self.connections.retain(|_, c| match c {
            ConnectionState::AwaitingResponse { deadline_ms, .. } => now_ms < *deadline_ms,
            ConnectionState::BackingOff { until_ms } => now_ms < *until_ms,
        });
        self.connections
            .values()
            .any(|c| matches!(c, ConnectionState::AwaitingResponse { .. }))
    }

    /// `remainingRequestTimeMs`: how long the request to `node` may still be awaited (0 when
    /// none is).
    pub fn remaining_request_time_ms(&self, node: i32, now_ms: u64) -> u64 {
        match self.connections.get(&node) {
            Some(ConnectionState::AwaitingResponse { deadline_ms, .. }) => {
                deadline_ms.saturating_sub(now_ms)
            }
            _ => 0,
        }
    }

    /// `remainingBackoffMs`: how long `node` still backs off (0 when it does not).
    pub fn remaining_backoff_ms(&self, node: i32, now_ms: u64) -> u64 {
        match self.connections.get(&node) {
            Some(ConnectionState::BackingOff { until_ms }) => until_ms.saturating_sub(now_ms),
            _ => 0,
        }
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
        if success {
            self.connections.remove(&node);
        } else {
            self.connections.insert(
                node,
                ConnectionState::BackingOff {
                    until_ms: now_ms + backoff_ms,
                },
            );
        }
    }

    /// Forget `node`'s state.
    pub fn reset(&mut self, node: i32) {
        self.connections.remove(&node);
    }

    /// Forget everything (on a state change, `resetConnections`).
    pub fn reset_all(&mut self) {
        self.connections.clear();
    }

    /// `findReadyBootstrapServer`: none while any request is in flight (one Fetch at a time);
    /// else the first ready server walking round from a random start.
    pub fn find_ready_bootstrap_server(
        &mut self,
        servers: &[i32],
        rng: &mut SimRng,
        now_ms: u64,
    ) -> Option<i32> {
        if servers.is_empty() || self.has_any_inflight_request(now_ms) {
            return None;
        }
        let start = rng.below(servers.len() as u64) as usize;
        (0..servers.len())
            .map(|i| servers[(start + i) % servers.len()])
            .find(|s| self.is_ready(*s, now_ms))
    }

    /// `backoffBeforeAvailableBootstrapServer`: the time left of the request in flight, else 0
    /// when a server is ready, else the shortest backoff left (at most `retry_backoff_ms`).
    pub fn backoff_before_available_bootstrap_server(
        &mut self,
        servers: &[i32],
        now_ms: u64,
        retry_backoff_ms: u64,
    ) -> u64 {
        // Every connection first (not only the bootstrap servers'): timed-out requests and
        // finished backoffs are forgotten, and a request in flight is waited for.
        self.connections.retain(|_, c| match c {
            ConnectionState::AwaitingResponse { deadline_ms, .. } => now_ms < *deadline_ms,
            ConnectionState::BackingOff { until_ms } => now_ms < *until_ms,
        });
        let mut min = retry_backoff_ms;
        for c in self.connections.values() {
            match c {
                ConnectionState::AwaitingResponse { deadline_ms, .. } => {
                    return deadline_ms - now_ms;
                }
                ConnectionState::BackingOff { until_ms } => min = min.min(until_ms - now_ms),
            }
        }
        // No request in flight: a ready bootstrap server may be fetched from at once.
        if servers.iter().any(|s| !self.connections.contains_key(s)) {
            return 0;
        }
        min
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
        assert_eq!(r.remaining_request_time_ms(1, 10), 1990);
        r.on_response_result(1, false, 100, 20);
        assert!(!r.is_ready(1, 110));
        assert_eq!(r.remaining_backoff_ms(1, 110), 10);
        assert!(r.is_ready(1, 120));
    }

    #[test]
    fn a_timed_out_request_frees_the_connection_without_backoff() {
        let mut r = RequestManager::default();
        r.on_request_sent(1, 7, 2000);
        assert!(!r.is_ready(1, 1999));
        assert!(r.has_any_inflight_request(1999));
        assert!(r.is_ready(1, 2000), "free once the request timed out");
        assert!(!r.is_backing_off(1, 2000));
        assert!(
            !r.is_response_expected(1, 7),
            "a late answer is not expected"
        );
        r.on_request_sent(2, 9, 2000);
        assert!(
            !r.has_any_inflight_request(2000),
            "timed out: not in flight"
        );
    }

    #[test]
    fn bootstrap_servers_one_fetch_at_a_time() {
        let mut r = RequestManager::default();
        let mut rng = SimRng::new(1);
        let s = r
            .find_ready_bootstrap_server(&[1, 2, 3], &mut rng, 0)
            .unwrap();
        r.on_request_sent(s, 1, 2000);
        assert_eq!(
            r.find_ready_bootstrap_server(&[1, 2, 3], &mut rng, 10),
            None
        );
        assert_eq!(
            r.backoff_before_available_bootstrap_server(&[s], 10, 20),
            1990
        );
        r.on_response_result(s, false, 100, 20);
        assert_eq!(
            r.backoff_before_available_bootstrap_server(&[s], 110, 20),
            10
        );
        assert!(r.find_ready_bootstrap_server(&[s], &mut rng, 110).is_none());
        assert_eq!(r.find_ready_bootstrap_server(&[s], &mut rng, 120), Some(s));
    }

    #[test]
    fn a_request_in_flight_to_the_leader_is_waited_for_not_polled_for() {
        // A follower's Fetch to leader 3 is in flight; 1 and 2 are ready, yet the wait is the
        // request's remaining time (Kafka walks every connection before the ready servers).
        let mut r = RequestManager::default();
        r.on_request_sent(3, 1, 2500);
        assert_eq!(
            r.backoff_before_available_bootstrap_server(&[1, 2, 3], 500, 20),
            2000
        );
        assert_eq!(
            r.backoff_before_available_bootstrap_server(&[1, 2, 3], 2500, 20),
            0,
            "timed out: forgotten, and a server is ready"
        );
    }
}
