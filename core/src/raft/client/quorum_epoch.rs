//! BeginQuorumEpoch (a new leader announces itself) and EndQuorumEpoch (a resigning leader
//! names its preferred successors), requests and responses.

use super::{KafkaRaftClient, RaftResult};
use crate::common::protocol::Errors;
use crate::raft::io::RaftIo;
use crate::raft::messages::*;
use crate::raft::state::EpochState;

impl KafkaRaftClient {
    /// `handleBeginQuorumEpochRequest`: follow the leader that announces itself.
    pub(super) fn handle_begin_quorum_epoch(
        &mut self,
        r: BeginQuorumEpochRequest,
        io: &mut RaftIo,
    ) -> RaftResult<EpochResponse> {
        if let Some(e) = self.validate_voter_only_request(r.leader_epoch) {
            return Ok(self.epoch_response(e));
        }
        self.maybe_transition(Some(r.leader_id), r.leader_epoch, io)?;
        Ok(self.epoch_response(Errors::None))
    }

    /// A Begin/EndQuorumEpoch response with this replica's epoch and leader.
    fn epoch_response(&self, error: Errors) -> EpochResponse {
        EpochResponse {
            error,
            leader_epoch: self.quorum.epoch(),
            leader_id: self.leader_or_sentinel(),
        }
    }

    /// `handleBeginQuorumEpochResponse`: the leader records the voter's acknowledgement.
    pub(super) fn handle_begin_quorum_epoch_response(
        &mut self,
        from: i32,
        r: EpochResponse,
        io: &mut RaftIo,
    ) -> RaftResult<bool> {
        if let Some(done) =
            self.maybe_handle_common_response(r.error, r.leader_id, r.leader_epoch, io)?
        {
            return Ok(done);
        }
        if r.error == Errors::None {
            if let EpochState::Leader(l) = &mut self.quorum.state {
                l.add_acknowledgement_from(from);
            }
            return Ok(true);
        }
        Ok(false)
    }

    /// `handleEndQuorumEpochRequest`: follow the resigning leader's successor choice, a
    /// follower's fetch timeout shortened by its place among the preferred successors.
    pub(super) fn handle_end_quorum_epoch(
        &mut self,
        r: EndQuorumEpochRequest,
        io: &mut RaftIo,
    ) -> RaftResult<EpochResponse> {
        if let Some(e) = self.validate_voter_only_request(r.leader_epoch) {
            return Ok(self.epoch_response(e));
        }
        self.maybe_transition(Some(r.leader_id), r.leader_epoch, io)?;
        let local = self.local_id();
        let backoff_max = self.config.election_backoff_max_ms;
        let now = io.now_ms;
        if let EpochState::Follower(f) = &mut self.quorum.state {
            if f.leader_id == r.leader_id {
                let n = r.preferred_successors.len();
                let pos = r
                    .preferred_successors
                    .iter()
                    .position(|s| *s == local)
                    .unwrap_or(n);
                let backoff = strict_exponential_election_backoff_ms(pos, n, backoff_max);
                f.fetch_deadline_ms = now + backoff;
            }
        }
        Ok(self.epoch_response(Errors::None))
    }

    /// `handleEndQuorumEpochResponse`: the resigned leader stops asking that voter.
    pub(super) fn handle_end_quorum_epoch_response(
        &mut self,
        from: i32,
        r: EpochResponse,
        io: &mut RaftIo,
    ) -> RaftResult<bool> {
        if let Some(done) =
            self.maybe_handle_common_response(r.error, r.leader_id, r.leader_epoch, io)?
        {
            return Ok(done);
        }
        if r.error == Errors::None {
            if let EpochState::Resigned(s) = &mut self.quorum.state {
                s.unacked_voters.retain(|v| *v != from);
            }
            return Ok(true);
        }
        Ok(false)
    }
}

/// `strictExponentialElectionBackoffMs(positionInSuccessors, totalNumSuccessors)`.
pub fn strict_exponential_election_backoff_ms(position: usize, total: usize, max_ms: u64) -> u64 {
    if position == 0 {
        0
    } else if position >= total {
        max_ms
    } else {
        let base = max_ms >> (total - 1);
        max_ms.min(base << (position - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_backoff_matches_kafka_examples() {
        assert_eq!(strict_exponential_election_backoff_ms(0, 2, 1000), 0);
        assert_eq!(strict_exponential_election_backoff_ms(1, 2, 1000), 500);
        assert_eq!(strict_exponential_election_backoff_ms(1, 4, 1000), 125);
        assert_eq!(strict_exponential_election_backoff_ms(3, 4, 1000), 500);
        assert_eq!(strict_exponential_election_backoff_ms(4, 4, 1000), 1000);
    }
}
