//! What travels between nodes: Raft RPCs and controller RPCs (registration, topics,
//! heartbeats), each a request or a response with a correlation id.

use crate::broker::messages::{DataMessage, DataResponse};
use crate::common::api_keys::ApiKeys;
use crate::common::api_keys::MessageKind;
use crate::common::message::controller::{ControllerMessage, ControllerResponse};
use crate::common::message::fields::MessageFields;
use crate::common::protocol::Errors;
use crate::raft::messages::{RaftMessage, RaftResponse};

/// A message on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// KRaft: Vote, BeginQuorumEpoch, EndQuorumEpoch, Fetch.
    Raft(RaftMessage),
    /// Controller APIs.
    Controller(ControllerMessage),
    /// The data plane: Produce, Fetch, ListOffsets, Metadata (clients and brokers).
    Data(crate::broker::messages::DataMessage),
}

impl Message {
    /// Its kind: `FetchRequest`, `CreateTopicsResponse`, ...
    pub fn kind(&self) -> MessageKind {
        match self {
            Message::Raft(m) => m.kind(),
            Message::Controller(m) => m.kind(),
            Message::Data(m) => m.kind(),
        }
    }

    /// The typed fields views read.
    pub fn fields(&self) -> MessageFields {
        match self {
            Message::Raft(m) => m.fields(),
            Message::Controller(m) => m.fields(),
            Message::Data(m) => m.fields(),
        }
    }

    /// One-line summary for views.
    pub fn summary(&self) -> String {
        match self {
            Message::Raft(m) => m.summary(),
            Message::Controller(m) => m.summary(),
            Message::Data(m) => m.summary(),
        }
    }

    /// The correlation id if this is a request.
    pub fn request_id(&self) -> Option<u64> {
        match self {
            Message::Raft(RaftMessage::Request { correlation_id, .. })
            | Message::Controller(ControllerMessage::Request { correlation_id, .. })
            | Message::Data(DataMessage::Request { correlation_id, .. }) => Some(*correlation_id),
            _ => None,
        }
    }

    /// The correlation id if this is a response.
    pub fn response_id(&self) -> Option<u64> {
        match self {
            Message::Raft(RaftMessage::Response { correlation_id, .. })
            | Message::Controller(ControllerMessage::Response { correlation_id, .. })
            | Message::Data(DataMessage::Response { correlation_id, .. }) => Some(*correlation_id),
            _ => None,
        }
    }

    /// Whether the network client synthesized this response (it crosses no wire).
    pub fn is_synthesized_failure(&self) -> bool {
        matches!(
            self,
            Message::Raft(RaftMessage::Response {
                body: RaftResponse::Failed { .. },
                ..
            }) | Message::Controller(ControllerMessage::Response {
                body: ControllerResponse::Failed { .. },
                ..
            }) | Message::Data(DataMessage::Response {
                body: DataResponse::Failed { .. },
                ..
            })
        )
    }

    /// The failure response a sender's network client makes up for this request when the
    /// connection is refused or reset.
    pub fn failure_response(&self, error: Errors) -> Option<Message> {
        match self {
            Message::Raft(RaftMessage::Request {
                correlation_id,
                body,
            }) => Some(Message::Raft(RaftMessage::Response {
                correlation_id: *correlation_id,
                body: RaftResponse::Failed {
                    api: body.api(),
                    error,
                },
            })),
            Message::Controller(ControllerMessage::Request {
                correlation_id,
                body,
            }) => Some(Message::Controller(ControllerMessage::Response {
                correlation_id: *correlation_id,
                body: ControllerResponse::Failed {
                    api: body.api(),
                    error,
                },
            })),
            Message::Data(m) => m.failure_response(error).map(Message::Data),
            _ => None,
        }
    }
}

/// The Raft API a failed response stands for, when it is one.
pub fn raft_api(m: &Message) -> Option<ApiKeys> {
    match m {
        Message::Raft(RaftMessage::Request { body, .. }) => Some(body.api()),
        _ => None,
    }
}
