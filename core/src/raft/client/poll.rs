//! The poll loop: `poll` runs `pollCurrentState` until the state settles, and each state's
//! poll (`pollLeader`, `pollCandidate`, `pollProspective`, `pollFollower`, `pollUnattached`,
//! `pollResigned`) does its work and says how long it may wait.

use super::{KafkaRaftClient, RaftResult};
use crate::common::node_log::Level;
use crate::raft::io::{loggers, RaftIo};
use crate::raft::messages::*;
use crate::raft::replica_key::id_set;
use crate::raft::state::{EpochState, LeaderState};

impl KafkaRaftClient {
    /// Do the current state's work at `io.now_ms`; returns the virtual time at which the
    /// client next needs to be polled.
    pub fn poll(&mut self, io: &mut RaftIo) -> RaftResult<u64> {
        // Requests past request.timeout.ms are abandoned (the connection becomes ready again).
        let now = io.now_ms;
        self.maybe_complete_shutdown(io)?;
        if self.is_shutdown_complete() {
            return Ok(u64::MAX);
        }
        // FollowerState.close(): a snapshot download belongs to one follower epoch.
        let keep_partial = match (&self.quorum.state, &io.disk.metadata_log.partial_snapshot) {
            (EpochState::Follower(f), Some(p)) => p.leader_epoch == f.epoch,
            _ => false,
        };
        if !keep_partial {
            io.disk.metadata_log.partial_snapshot = None;
        }
        let clean_wake = self.maybe_clean(io);
        for _ in 0..16 {
            let epoch_before = self.quorum.epoch();
            let name_before = self.quorum.state.name();
            let wait = self.poll_current_state(io)?;
            let changed =
                self.quorum.epoch() != epoch_before || self.quorum.state.name() != name_before;
            if !changed && wait > 0 {
                return Ok(now.saturating_add(wait).min(clean_wake));
            }
        }
        Ok(now + 1)
    }

    /// `pollCurrentState`: the current state's poll; returns how long it may wait (0: poll
    /// again at once, the state changed).
    fn poll_current_state(&mut self, io: &mut RaftIo) -> RaftResult<u64> {
        match &self.quorum.state {
            EpochState::Leader(_) => self.poll_leader(io),
            EpochState::Candidate(c) => self.poll_candidate(c.election_deadline_ms, io),
            EpochState::Prospective(p) => self.poll_prospective(p.election_deadline_ms, io),
            EpochState::Follower(f) => {
                let (deadline, leader) = (f.fetch_deadline_ms, f.leader_id);
                if self.quorum.is_voter() {
                    self.poll_follower_as_voter(deadline, leader, io)
                } else {
                    Ok(self.poll_follower_as_observer(deadline, leader, io))
                }
            }
            EpochState::Unattached(u) => self.poll_unattached(u.election_deadline_ms, io),
            EpochState::Resigned(r) => {
                let unacked = r.unacked_voters.clone();
                let (deadline, epoch) = (r.election_deadline_ms, r.epoch);
                self.poll_resigned(&unacked, deadline, epoch, io)
            }
        }
    }

    /// `pollCandidate`: ask for votes until the election deadline.
    fn poll_candidate(&mut self, election_deadline_ms: u64, io: &mut RaftIo) -> RaftResult<u64> {
        let now = io.now_ms;
        // Shutting down, an election goes on until a leader is known or the shutdown
        // times out.
        if let Some(left) = self.shutdown_remaining_ms(now) {
            return Ok(self.maybe_send_vote_requests(io).min(left));
        }
        // A Candidate that lost waits out the rest of its election timeout
        // (KAFKA-18345): no backoff, no retries.
        if now >= election_deadline_ms {
            self.log(
                io,
                Level::Info,
                "Election was not granted, transitioning to prospective".into(),
            );
            self.transition_to_prospective(io)?;
            return Ok(0);
        }
        let remaining = election_deadline_ms - now;
        Ok(self.maybe_send_vote_requests(io).min(remaining))
    }

    /// `pollProspective`: ask for pre-votes until the election deadline.
    fn poll_prospective(&mut self, election_deadline_ms: u64, io: &mut RaftIo) -> RaftResult<u64> {
        let now = io.now_ms;
        if let Some(left) = self.shutdown_remaining_ms(now) {
            return Ok(self.maybe_send_vote_requests(io).min(left));
        }
        if now >= election_deadline_ms {
            let text = match &self.quorum.state {
                EpochState::Prospective(p) => p.epoch_election.to_string(),
                _ => String::new(),
            };
            self.log(
                io,
                Level::Info,
                format!("Election timed out before receiving sufficient vote responses to become candidate. Current epoch election state: {text}"),
            );
            self.prospective_transition_after_election_loss(io)?;
            return Ok(0);
        }
        let remaining = election_deadline_ms - now;
        Ok(self.maybe_send_vote_requests(io).min(remaining))
    }

    /// `pollFollowerAsVoter`: fetch from the leader; past the fetch timeout, stand for
    /// election.
    fn poll_follower_as_voter(
        &mut self,
        fetch_deadline_ms: u64,
        leader: i32,
        io: &mut RaftIo,
    ) -> RaftResult<u64> {
        let now = io.now_ms;
        if now >= fetch_deadline_ms {
            self.log(
                io,
                Level::Info,
                "Transitioning to Prospective state due to fetch timeout".into(),
            );
            self.transition_to_prospective(io)?;
            return Ok(0);
        }
        let update_due = matches!(
            &self.quorum.state,
            EpochState::Follower(f) if f.has_update_voter_set_period_expired(now)
        );
        let backoff = if update_due {
            // pollFollowerAsVoter (KafkaRaftClient.java:3335-3371): the voter's own entry to
            // the leader when it must be updated.
            let (sent, wait) = if self.should_send_update_voter_request() {
                self.maybe_send_update_voter_request(leader, io)
            } else {
                (true, self.maybe_send_fetch_to_best_node(leader, io))
            };
            if sent {
                if let EpochState::Follower(f) = &mut self.quorum.state {
                    f.reset_update_voter_set_period(now);
                }
            }
            wait
        } else {
            self.maybe_send_fetch_to_best_node(leader, io)
        };
        Ok(backoff.min(fetch_deadline_ms - now))
    }

    /// `pollFollowerAsObserver`: fetch from the leader.
    fn poll_follower_as_observer(
        &mut self,
        fetch_deadline_ms: u64,
        leader: i32,
        io: &mut RaftIo,
    ) -> u64 {
        let now = io.now_ms;
        // pollFollowerAsObserver (KafkaRaftClient.java:3381-3413): a controller with
        // controller.quorum.auto.join.enable adds itself (or removes its old directory's
        // entry) once per update period.
        if self.should_send_add_or_remove_voter_request(now) {
            let (sent, wait) = self.maybe_send_auto_join_request(leader, io);
            if sent {
                if let EpochState::Follower(f) = &mut self.quorum.state {
                    f.reset_update_voter_set_period(now);
                }
            }
            return wait;
        }
        // An observer keeps fetching from its leader after its fetch timeout
        // (KAFKA-19354): only a newer epoch or leader moves it. (Kafka spins while
        // the expired timer is its wait; the engine waits for the request instead.)
        let fetch = self.maybe_send_fetch_to_best_node(leader, io);
        match fetch_deadline_ms.checked_sub(now).filter(|d| *d > 0) {
            Some(left) => fetch.min(left),
            None => fetch,
        }
    }

    /// `pollUnattached`: a voter stands for election at its deadline; until then (and an
    /// observer always) fetch from any bootstrap voter to find the leader.
    fn poll_unattached(
        &mut self,
        election_deadline_ms: Option<u64>,
        io: &mut RaftIo,
    ) -> RaftResult<u64> {
        let now = io.now_ms;
        if self.quorum.is_voter() {
            // Shutting down, an unattached voter waits for a leader, sending nothing.
            if let Some(left) = self.shutdown_remaining_ms(now) {
                return Ok(left);
            }
            if let Some(d) = election_deadline_ms {
                if now >= d {
                    self.transition_to_prospective(io)?;
                    return Ok(0);
                }
            }
        }
        let remaining = self.quorum.state.remaining_election_ms(now);
        Ok(self.maybe_send_fetch_to_any_bootstrap(io).min(remaining))
    }

    /// `pollResigned`: EndQuorumEpoch to the voters that have not acknowledged it; at the
    /// election deadline (unless shutting down) become unattached in the next epoch.
    fn poll_resigned(
        &mut self,
        unacked: &[i32],
        election_deadline_ms: u64,
        epoch: i32,
        io: &mut RaftIo,
    ) -> RaftResult<u64> {
        let now = io.now_ms;
        let wait = self.maybe_send_requests(unacked, io, |c, _, _| {
            let successors = match &c.quorum.state {
                EpochState::Resigned(r) => r.preferred_successors.iter().map(|k| k.id).collect(),
                _ => Vec::new(),
            };
            RaftRequest::EndQuorumEpoch(EndQuorumEpochRequest {
                leader_epoch: c.quorum.epoch(),
                leader_id: c.local_id(),
                preferred_successors: successors,
            })
        });
        if let Some((shutdown_at, _, _)) = self.shutdown {
            return Ok(wait.min(shutdown_at.saturating_sub(now)).max(1));
        }
        if now >= election_deadline_ms {
            self.transition_to_unattached(epoch + 1, None, io)?;
            return Ok(0);
        }
        Ok(wait.min(election_deadline_ms - now))
    }

    /// `pollLeader`: check the quorum (resign when it is lost or on shutdown), append the
    /// accumulated batches, send BeginQuorumEpoch, expire parked fetches.
    fn poll_leader(&mut self, io: &mut RaftIo) -> RaftResult<u64> {
        let now = io.now_ms;
        let (until_check, timeout_ms, fetched, voters, successors, resign) =
            match &self.quorum.state {
                EpochState::Leader(l) => (
                    l.time_until_check_quorum_expires(now),
                    l.check_quorum_timeout_ms,
                    l.fetched_voters.iter().copied().collect::<Vec<_>>(),
                    l.voter_states.values().map(|v| v.key).collect::<Vec<_>>(),
                    leader_successors(l),
                    l.resign_requested,
                ),
                _ => return Ok(u64::MAX),
            };
        // RULE check-quorum (LeaderState.timeUntilCheckQuorumExpires): off, a leader that hears
        // from no majority never resigns (and never wakes for it).
        let until_check = if io.rules.check_quorum {
            until_check
        } else {
            u64::MAX
        };
        // A leader shutting down resigns (a single voter never gets here: its shutdown completes
        // at once).
        // A leader that removed itself resigns once the change committed (RemoveVoterHandler's
        // requestResign).
        if self.shutdown.is_some() || resign {
            self.transition_to_resigned(successors, io)?;
            return Ok(0);
        }
        if until_check == 0 {
            // LeaderState.timeUntilCheckQuorumExpires logs it, with the voters' ReplicaKeys (a
            // Java Set.of, whose order varies per JVM: ascending id here).
            let keys: Vec<String> = voters.iter().map(|k| k.to_string()).collect();
            io.log_line(
                Level::Info,
                &self.prefix,
                loggers::LEADER_STATE,
                format!(
                    "Did not receive fetch request from the majority of the voters within {timeout_ms}ms. Current fetched voters are {}, and voters are [{}]",
                    id_set(&fetched),
                    keys.join(", ")
                ),
            );
            self.transition_to_resigned(successors, io)?;
            return Ok(0);
        }
        let until_change = self.expire_voter_change(io);
        let until_flush = self.maybe_append_batches(io);
        let until_begin = self.maybe_send_begin_quorum_epoch(io);
        let until_parked = self.expire_parked_fetches(io);
        Ok(until_check
            .min(until_change)
            .min(until_flush)
            .min(until_begin)
            .min(until_parked))
    }
}

/// Voters other than the leader by descending fetch offset (the preferred successors).
fn leader_successors(l: &LeaderState) -> Vec<i32> {
    l.voters_by_descending_end_offset()
        .into_iter()
        .map(|(id, _)| id)
        .filter(|id| *id != l.local.id)
        .collect()
}
