//! ChangeVoterHandlerState: the one voter change a leader has in progress (add, remove or
//! update), with its timer and the reply it owes, as raft/.../internals/ChangeVoterHandlerState.java
//! and its Add/Remove/UpdateVoterHandlerState keep them. One change at a time: a second
//! request while one is pending is refused (KIP-853's single-server changes).

use super::messages::{RaftResponse, UpdateRaftVoterResponse, VoterChangeResponse};
use super::voter_set::VoterNode;
use crate::common::protocol::Errors;

/// Who waits for a voter change's answer: the requester and its correlation id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PendingReply {
    /// The node (or the admin client) that sent the request.
    pub to: i32,
    /// Its correlation id.
    pub correlation_id: u64,
}

/// An AddVoter in progress (AddVoterHandlerState).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddVoterHandlerState {
    /// The voter to add, with its endpoint.
    pub voter: VoterNode,
    /// ackWhenCommitted: answer on commit (else on append).
    pub ack_when_committed: bool,
    /// When the operation times out (virtual ms).
    pub deadline_ms: u64,
    /// The offset of the VotersRecord, once appended.
    pub last_offset: Option<i64>,
    /// The reply still owed (`None` once sent).
    pub reply: Option<PendingReply>,
}

impl AddVoterHandlerState {
    /// `expectingApiResponse`: an ApiVersions answer from `id` is this operation's.
    pub fn expecting_api_response(&self, id: i32) -> bool {
        self.last_offset.is_none() && id == self.voter.key.id
    }
}

/// A RemoveVoter in progress (RemoveVoterHandlerState).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoveVoterHandlerState {
    /// The offset of the VotersRecord.
    pub last_offset: i64,
    /// When the operation times out (virtual ms).
    pub deadline_ms: u64,
    /// The reply still owed.
    pub reply: Option<PendingReply>,
}

/// An UpdateVoter in progress (UpdateVoterHandlerState): answered on append, pending until the
/// VotersRecord commits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UpdateVoterHandlerState {
    /// The voter as the request describes it.
    pub voter: VoterNode,
    /// The offset of the VotersRecord, once appended.
    pub last_offset: Option<i64>,
    /// When the operation times out (virtual ms).
    pub deadline_ms: u64,
    /// The reply still owed.
    pub reply: Option<PendingReply>,
}

/// The change in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VoterChange {
    /// AddVoter.
    Add(AddVoterHandlerState),
    /// RemoveVoter.
    Remove(RemoveVoterHandlerState),
    /// UpdateVoter.
    Update(UpdateVoterHandlerState),
}

/// What a reset answers: the reply owed, and the response to send.
pub type Completion = (PendingReply, RaftResponse);

/// The leader's voter change in progress, if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChangeVoterHandlerState {
    /// The change in progress.
    pub pending: Option<VoterChange>,
}

/// The response a pending change of `change`'s kind answers with `error`.
fn response(
    change: &VoterChange,
    error: Errors,
    message: Option<String>,
    leader: (i32, i32),
) -> RaftResponse {
    match change {
        VoterChange::Add(_) => RaftResponse::AddRaftVoter(VoterChangeResponse {
            error,
            error_message: message,
        }),
        VoterChange::Remove(_) => RaftResponse::RemoveRaftVoter(VoterChangeResponse {
            error,
            error_message: message,
        }),
        VoterChange::Update(_) => RaftResponse::UpdateRaftVoter(UpdateRaftVoterResponse {
            error,
            leader_epoch: leader.1,
            leader_id: leader.0,
        }),
    }
}

impl ChangeVoterHandlerState {
    /// `hasPendingOperation`.
    pub fn has_pending_operation(&self) -> bool {
        self.pending.is_some()
    }

    /// The pending AddVoter, if that is what is pending.
    pub fn add_state(&mut self) -> Option<&mut AddVoterHandlerState> {
        match &mut self.pending {
            Some(VoterChange::Add(a)) => Some(a),
            _ => None,
        }
    }

    /// `reset*VoterHandlerState`: end the pending change, answering its requester with
    /// `error` and `message` if the reply is still owed, and start `next`. `leader` is
    /// (leader id, epoch) for an UpdateVoter answer.
    pub fn reset(
        &mut self,
        error: Errors,
        message: Option<String>,
        next: Option<VoterChange>,
        leader: (i32, i32),
    ) -> Option<Completion> {
        let done = std::mem::replace(&mut self.pending, next)?;
        let reply = match &done {
            VoterChange::Add(a) => a.reply,
            VoterChange::Remove(r) => r.reply,
            VoterChange::Update(u) => u.reply,
        }?;
        Some((reply, response(&done, error, message, leader)))
    }

    /// The time until the pending change times out (`u64::MAX` without one).
    pub fn time_until_expiration(&self, now_ms: u64) -> u64 {
        match &self.pending {
            None => u64::MAX,
            Some(VoterChange::Add(a)) => a.deadline_ms.saturating_sub(now_ms),
            Some(VoterChange::Remove(r)) => r.deadline_ms.saturating_sub(now_ms),
            Some(VoterChange::Update(u)) => u.deadline_ms.saturating_sub(now_ms),
        }
    }

    /// `maybeExpirePendingOperation`: a change past its deadline ends with REQUEST_TIMED_OUT
    /// (no message: the client shows "The request timed out.").
    pub fn maybe_expire(&mut self, now_ms: u64, leader: (i32, i32)) -> Option<Completion> {
        if self.pending.is_some() && self.time_until_expiration(now_ms) == 0 {
            return self.reset(Errors::RequestTimedOut, None, None, leader);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::replica_key::ReplicaKey;

    #[test]
    fn a_change_answers_once_and_times_out() {
        let mut s = ChangeVoterHandlerState::default();
        let reply = PendingReply {
            to: -1,
            correlation_id: 7,
        };
        s.pending = Some(VoterChange::Remove(RemoveVoterHandlerState {
            last_offset: 40,
            deadline_ms: 2_000,
            reply: Some(reply),
        }));
        assert_eq!(s.time_until_expiration(500), 1_500);
        assert!(s.maybe_expire(1_999, (101, 1)).is_none());
        let (to, resp) = s.maybe_expire(2_000, (101, 1)).expect("timed out");
        assert_eq!(to, reply);
        assert_eq!(
            resp,
            RaftResponse::RemoveRaftVoter(VoterChangeResponse {
                error: Errors::RequestTimedOut,
                error_message: None
            })
        );
        assert!(!s.has_pending_operation());
        // An add already answered (ackWhenCommitted false) owes nothing more.
        s.pending = Some(VoterChange::Add(AddVoterHandlerState {
            voter: VoterNode::new(
                ReplicaKey {
                    id: 104,
                    directory_id: None,
                },
                9099,
            ),
            ack_when_committed: false,
            deadline_ms: 10,
            last_offset: Some(50),
            reply: None,
        }));
        assert!(s.reset(Errors::None, None, None, (101, 1)).is_none());
        assert!(!s.has_pending_operation());
    }
}
