//! What a message's arrow says: its API, the epoch of a request, whether a vote was granted,
//! read from the message's typed fields ([`MessageFields`]).

use kraft_core::view::{ApiKeys, Direction, MessageFields};

/// How a message's trip ended, as drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// It arrived.
    Delivered,
    /// It is still on the wire.
    InFlight,
    /// The network lost it (✕ partway).
    Dropped,
    /// Lost with its connection when a node died (✕ partway).
    Lost,
    /// A request to a node that was down or died: drawn as the request, ✕ at that node.
    Failed,
}

impl State {
    /// `delivered`, `in-flight`, `dropped`, `lost` or `failed`.
    pub fn name(self) -> &'static str {
        match self {
            State::Delivered => "delivered",
            State::InFlight => "in-flight",
            State::Dropped => "dropped",
            State::Lost => "lost",
            State::Failed => "failed",
        }
    }

    /// Whether it ends in ✕.
    pub fn crossed(self) -> bool {
        matches!(self, State::Dropped | State::Lost | State::Failed)
    }
}

/// The voter a voter change's request is about (KIP-853: AddRaftVoter, RemoveRaftVoter,
/// UpdateRaftVoter carry it as `voter`, read as the message's `replica_id`).
fn changed_voter(api: ApiKeys, f: &MessageFields) -> Option<i32> {
    matches!(
        api,
        ApiKeys::AddRaftVoter | ApiKeys::RemoveRaftVoter | ApiKeys::UpdateRaftVoter
    )
    .then_some(f.replica_id)
    .flatten()
}

/// The arrow's label: a request by its API and epoch (`PreVote e1`), a voter change by its API
/// and voter (`AddRaftVoter 103`); a response (a dashed arrow of its request's colour) as `✓`
/// (a vote granted, no error) or `✗` (refused, or its error: `✗ NOT_LEADER_OR_FOLLOWER`); a
/// failed request by its API.
pub fn arrow_label(api: ApiKeys, direction: Direction, f: &MessageFields) -> String {
    if let (Direction::Request, Some(v)) = (direction, changed_voter(api, f)) {
        return format!("{} {v}", api.name());
    }
    match direction {
        Direction::Request => match f.epoch {
            Some(e) => format!("{} e{e}", api.name()),
            None => api.name().to_string(),
        },
        Direction::Response => match (f.vote_granted, f.error) {
            (Some(false), _) => "✗".to_string(),
            (_, None | Some("NONE")) => "✓".to_string(),
            (_, Some(e)) => format!("✗ {e}"),
        },
        Direction::Failed => api.name().to_string(),
    }
}

/// The label in Mermaid: `PreVote (epoch 1)`, `AddRaftVoter (voter 103)`, `Vote response
/// (granted)`, `BeginQuorumEpoch response`, `Vote (no answer)`.
pub fn mermaid_label(api: ApiKeys, direction: Direction, f: &MessageFields) -> String {
    if let (Direction::Request, Some(v)) = (direction, changed_voter(api, f)) {
        return format!("{} (voter {v})", api.name());
    }
    let api = api.name();
    match direction {
        Direction::Request => match f.epoch {
            Some(e) => format!("{api} (epoch {e})"),
            None => api.to_string(),
        },
        Direction::Response => match f.vote_granted {
            Some(true) => format!("{api} response (granted)"),
            Some(false) => format!("{api} response (refused)"),
            None => format!("{api} response"),
        },
        Direction::Failed => format!("{api} (no answer)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kraft_core::view::MessageKind;

    /// The fields of a message the engine really sends (the test breaks when a field the
    /// labels read is renamed or no longer filled in).
    fn fields_of(kind: &str, summary_fields: MessageFields) -> (MessageKind, MessageFields) {
        (MessageKind::from_name(kind).unwrap(), summary_fields)
    }

    #[test]
    fn labels_say_the_api_the_epoch_and_the_vote() {
        let (k, req) = fields_of(
            "VoteRequest",
            MessageFields {
                epoch: Some(2),
                replica_id: Some(102),
                ..Default::default()
            },
        );
        assert_eq!(arrow_label(k.api, k.direction, &req), "Vote e2");
        assert_eq!(mermaid_label(k.api, k.direction, &req), "Vote (epoch 2)");
        let resp = MessageFields {
            vote_granted: Some(false),
            epoch: Some(1),
            error: Some("NONE"),
            ..Default::default()
        };
        assert_eq!(
            arrow_label(ApiKeys::PreVote, Direction::Response, &resp),
            "✗"
        );
        let granted = MessageFields {
            vote_granted: Some(true),
            error: Some("NONE"),
            ..Default::default()
        };
        assert_eq!(
            arrow_label(ApiKeys::Vote, Direction::Response, &granted),
            "✓"
        );
        let not_leader = MessageFields {
            error: Some("NOT_LEADER_OR_FOLLOWER"),
            ..Default::default()
        };
        assert_eq!(
            arrow_label(ApiKeys::Fetch, Direction::Response, &not_leader),
            "✗ NOT_LEADER_OR_FOLLOWER"
        );
        assert_eq!(
            mermaid_label(ApiKeys::PreVote, Direction::Response, &resp),
            "PreVote response (refused)"
        );
        let begin = MessageFields {
            epoch: Some(2),
            error: Some("NONE"),
            ..Default::default()
        };
        assert_eq!(
            arrow_label(ApiKeys::BeginQuorumEpoch, Direction::Response, &begin),
            "✓"
        );
        let failed = MessageFields {
            error: Some("BROKER_NOT_AVAILABLE"),
            ..Default::default()
        };
        assert_eq!(
            mermaid_label(ApiKeys::Vote, Direction::Failed, &failed),
            "Vote (no answer)"
        );
    }

    #[test]
    fn a_voter_change_says_which_voter() {
        let add = MessageFields {
            replica_id: Some(103),
            ..Default::default()
        };
        assert_eq!(
            arrow_label(ApiKeys::AddRaftVoter, Direction::Request, &add),
            "AddRaftVoter 103"
        );
        assert_eq!(
            mermaid_label(ApiKeys::RemoveRaftVoter, Direction::Request, &add),
            "RemoveRaftVoter (voter 103)"
        );
        let update = MessageFields {
            epoch: Some(3),
            ..add
        };
        assert_eq!(
            arrow_label(ApiKeys::UpdateRaftVoter, Direction::Request, &update),
            "UpdateRaftVoter 103"
        );
        let ok = MessageFields {
            error: Some("NONE"),
            ..Default::default()
        };
        assert_eq!(
            arrow_label(ApiKeys::AddRaftVoter, Direction::Response, &ok),
            "✓"
        );
        assert_eq!(
            arrow_label(
                ApiKeys::ApiVersions,
                Direction::Request,
                &MessageFields::default()
            ),
            "ApiVersions"
        );
    }
}
