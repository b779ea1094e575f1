//! Sending requests: `maybeSendRequests` to a set of nodes, Fetch or FetchSnapshot to the
//! leader or any bootstrap voter, Vote and BeginQuorumEpoch, and responding.

use super::KafkaRaftClient;
use crate::raft::io::RaftIo;
use crate::raft::messages::*;
use crate::raft::state::EpochState;

impl KafkaRaftClient {
    /// Send a request with the next correlation id and start its request timeout.
    pub(super) fn send_request(&mut self, to: i32, body: RaftRequest, io: &mut RaftIo) {
        let correlation_id = self.next_correlation_id;
        self.next_correlation_id += 1;
        self.requests.on_request_sent(
            to,
            correlation_id,
            io.now_ms + self.config.request_timeout_ms,
        );
        io.send(
            to,
            RaftMessage::Request {
                correlation_id,
                body,
            },
        );
    }

    /// Send a response to a request.
    pub(super) fn respond(
        &self,
        to: i32,
        correlation_id: u64,
        body: RaftResponse,
        io: &mut RaftIo,
    ) {
        io.send(
            to,
            RaftMessage::Response {
                correlation_id,
                body,
            },
        );
    }

    /// `maybeSendFetchOrFetchSnapshot`: a FetchSnapshot for the next chunk while a snapshot is
    /// being fetched, else a Fetch.
    fn build_fetch_or_fetch_snapshot(&self, io: &RaftIo) -> RaftRequest {
        match &io.disk.metadata_log.partial_snapshot {
            Some(p) if matches!(self.quorum.state, EpochState::Follower(_)) => {
                RaftRequest::FetchSnapshot(FetchSnapshotRequest {
                    replica_id: self.local_id(),
                    current_leader_epoch: self.quorum.epoch(),
                    snapshot_id: p.id,
                    position: p.received,
                    max_bytes: self.config.fetch_max_bytes,
                })
            }
            _ => RaftRequest::Fetch(self.build_fetch_request(io)),
        }
    }

    /// A Fetch from this replica's log end offset and epoch.
    fn build_fetch_request(&self, io: &RaftIo) -> FetchRequest {
        let end = self.end_offset(io);
        FetchRequest {
            replica_id: self.local_id(),
            replica_directory_id: self.quorum.local.directory_id,
            current_leader_epoch: self.quorum.epoch(),
            fetch_offset: end.offset,
            last_fetched_epoch: end.epoch,
            max_wait_ms: self.config.fetch_max_wait_ms,
            high_watermark: self.high_watermark().unwrap_or(-1),
        }
    }

    /// `maybeSendRequests`: to each node of `targets` that is ready (a timed-out request frees
    /// its connection); returns the time until one needs attention (its backoff or its request
    /// time left), `u64::MAX` without targets.
    pub(super) fn maybe_send_requests(
        &mut self,
        targets: &[i32],
        io: &mut RaftIo,
        build: impl Fn(&Self, i32, &RaftIo) -> RaftRequest,
    ) -> u64 {
        let now = io.now_ms;
        let mut wait = u64::MAX;
        for &t in targets {
            if self.requests.is_backing_off(t, now) {
                wait = wait.min(self.requests.remaining_backoff_ms(t, now));
                continue;
            }
            if self.requests.is_ready(t, now) {
                let body = build(self, t, io);
                self.send_request(t, body, io);
            }
            wait = wait.min(self.requests.remaining_request_time_ms(t, now).max(1));
        }
        wait
    }

    /// `maybeSendFetchToAnyBootstrap`: a Fetch to a ready voter picked from a random start,
    /// one at a time; else the time until one is available.
    pub(super) fn maybe_send_fetch_to_any_bootstrap(&mut self, io: &mut RaftIo) -> u64 {
        let now = io.now_ms;
        // The bootstrap servers (the static voters, or controller.quorum.bootstrap.servers)
        // other than this node (Kafka's list may hold the node itself).
        let local = self.local_id();
        let servers: Vec<i32> = self
            .bootstrap_servers
            .iter()
            .copied()
            .filter(|id| *id != local)
            .collect();
        if servers.is_empty() {
            return u64::MAX;
        }
        match self
            .requests
            .find_ready_bootstrap_server(&servers, io.rng, now)
        {
            Some(s) => {
                let body = self.build_fetch_or_fetch_snapshot(io);
                self.send_request(s, body, io);
                self.config.request_timeout_ms
            }
            None => self
                .requests
                .backoff_before_available_bootstrap_server(
                    &servers,
                    now,
                    self.config.retry_backoff_ms,
                )
                .max(1),
        }
    }

    /// `maybeSendFetchToBestNode`: to the leader, unless its request timed out or it backs
    /// off (then one Fetch to any bootstrap voter).
    pub(super) fn maybe_send_fetch_to_best_node(&mut self, leader: i32, io: &mut RaftIo) -> u64 {
        let now = io.now_ms;
        if self.requests.has_request_timed_out(leader, now) {
            self.requests.reset(leader);
            self.maybe_send_fetch_to_any_bootstrap(io)
        } else if self.requests.is_backing_off(leader, now) {
            self.maybe_send_fetch_to_any_bootstrap(io)
        } else if !self.requests.has_any_inflight_request(now) {
            let body = self.build_fetch_or_fetch_snapshot(io);
            self.send_request(leader, body, io);
            self.config.request_timeout_ms
        } else {
            let servers = self.quorum.remote_voter_ids();
            self.requests
                .backoff_before_available_bootstrap_server(
                    &servers,
                    now,
                    self.config.retry_backoff_ms,
                )
                .max(1)
        }
    }

    /// `maybeSendVoteRequests`: a Vote (or PreVote) to each voter not yet heard from while the
    /// election is not lost.
    pub(super) fn maybe_send_vote_requests(&mut self, io: &mut RaftIo) -> u64 {
        let (targets, pre_vote) = match &self.quorum.state {
            EpochState::Prospective(p) if !p.epoch_election.is_vote_rejected() => {
                (p.epoch_election.unrecorded_voters(), true)
            }
            EpochState::Candidate(c) if !c.epoch_election.is_vote_rejected() => {
                (c.epoch_election.unrecorded_voters(), false)
            }
            _ => return u64::MAX,
        };
        let targets: Vec<i32> = targets
            .into_iter()
            .filter(|t| *t != self.local_id())
            .collect();
        self.maybe_send_requests(&targets, io, move |c, to, io| {
            let end = c.end_offset(io);
            RaftRequest::Vote(VoteRequest {
                replica_epoch: c.quorum.epoch(),
                replica_id: c.local_id(),
                voter_id: to,
                last_offset: end,
                pre_vote,
            })
        })
    }

    /// `maybeSendBeginQuorumEpochRequests`: every fetchTimeout/2, BeginQuorumEpoch to the
    /// voters that have not fetched for that long (KAFKA-16926); the timer restarts whether or
    /// not anything was sent, and the wait is the sends' (none: until another poll).
    pub(super) fn maybe_send_begin_quorum_epoch(&mut self, io: &mut RaftIo) -> u64 {
        let now = io.now_ms;
        let (deadline, targets) = match &self.quorum.state {
            EpochState::Leader(l) => (
                l.begin_quorum_epoch_deadline_ms,
                l.need_to_send_begin_quorum_requests(now),
            ),
            _ => return u64::MAX,
        };
        if now < deadline {
            return deadline - now;
        }
        let wait = self.maybe_send_requests(&targets, io, |c, _, _| {
            RaftRequest::BeginQuorumEpoch(BeginQuorumEpochRequest {
                leader_epoch: c.quorum.epoch(),
                leader_id: c.local_id(),
            })
        });
        let period = self.config.fetch_timeout_ms / 2;
        if let EpochState::Leader(l) = &mut self.quorum.state {
            l.begin_quorum_epoch_deadline_ms = now + period;
        }
        wait
    }
}
