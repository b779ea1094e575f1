//! The one list of APIs the playground's nodes exchange, as Kafka's `ApiKeys` enum lists them
//! (clients/src/main/java/org/apache/kafka/common/protocol/ApiKeys.java, each key read from
//! its `clients/src/main/resources/common/message/<Api>Request.json`), and a message's kind:
//! its API and which side of the exchange it is.
//!
//! Everything that names a message reads this list: the engine's messages, the views, the
//! sequence diagram, the drawing's legend and colours, the console's `drop kind=` and the
//! lesson's `label` directive.

use serde::Serialize;

/// Defines [`ApiKeys`] with its variants, Kafka's key and name, and [`ApiKeys::ALL`].
macro_rules! api_keys {
    ($($(#[$doc:meta])* $variant:ident = $key:literal, $name:literal;)*) => {
        /// An API, by Kafka's name. Three entries are the playground's own:
        /// [`ApiKeys::PreVote`] (a Vote with `preVote` set, KIP-996), [`ApiKeys::ReplicaFetch`]
        /// (a broker's Fetch of data partitions) and [`ApiKeys::ConsumerFetch`] (a consumer's):
        /// Kafka sends them as Vote and Fetch, but a lecture tells them apart, so the drawing
        /// colours them apart.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        pub enum ApiKeys {
            $($(#[$doc])* $variant,)*
        }

        impl ApiKeys {
            /// Every API, in the order the legend and the help list them.
            pub const ALL: &'static [ApiKeys] = &[$(ApiKeys::$variant,)*];

            /// The name the playground shows (Kafka's, or `PreVote` / `ReplicaFetch`).
            pub const fn name(self) -> &'static str {
                match self {
                    $(ApiKeys::$variant => $name,)*
                }
            }

            /// Kafka's `apiKey` number of the request (Vote's for PreVote, Fetch's for
            /// ReplicaFetch).
            pub const fn id(self) -> i16 {
                match self {
                    $(ApiKeys::$variant => $key,)*
                }
            }
        }
    };
}

api_keys! {
    /// Vote with `preVote` set (KIP-996): "would you vote for me?", no epoch bump.
    PreVote = 52, "PreVote";
    /// Vote (VoteRequest.json, apiKey 52).
    Vote = 52, "Vote";
    /// BeginQuorumEpoch (apiKey 53): a new leader announces itself.
    BeginQuorumEpoch = 53, "BeginQuorumEpoch";
    /// EndQuorumEpoch (apiKey 54): a leader resigning gracefully.
    EndQuorumEpoch = 54, "EndQuorumEpoch";
    /// Fetch (apiKey 1) of the metadata log, by a follower or an observer.
    Fetch = 1, "Fetch";
    /// FetchSnapshot (apiKey 59).
    FetchSnapshot = 59, "FetchSnapshot";
    /// ControllerRegistration (apiKey 70).
    ControllerRegistration = 70, "ControllerRegistration";
    /// BrokerRegistration (apiKey 62).
    BrokerRegistration = 62, "BrokerRegistration";
    /// BrokerHeartbeat (apiKey 63).
    BrokerHeartbeat = 63, "BrokerHeartbeat";
    /// CreateTopics (apiKey 19).
    CreateTopics = 19, "CreateTopics";
    /// DeleteTopics (apiKey 20).
    DeleteTopics = 20, "DeleteTopics";
    /// IncrementalAlterConfigs (apiKey 44).
    IncrementalAlterConfigs = 44, "IncrementalAlterConfigs";
    /// AlterPartition (apiKey 56): a partition leader changes its ISR.
    AlterPartition = 56, "AlterPartition";
    /// Fetch (apiKey 1) of data partitions, by a follower broker from the leader's.
    ReplicaFetch = 1, "ReplicaFetch";
    /// AddRaftVoter (apiKey 80, KIP-853): add a controller to the voters.
    AddRaftVoter = 80, "AddRaftVoter";
    /// RemoveRaftVoter (apiKey 81, KIP-853): remove a voter.
    RemoveRaftVoter = 81, "RemoveRaftVoter";
    /// UpdateRaftVoter (apiKey 82, KIP-853): a voter tells the leader its endpoints and
    /// supported kraft.version.
    UpdateRaftVoter = 82, "UpdateRaftVoter";
    /// ApiVersions (apiKey 18): the leader asks a new voter which kraft.version it supports.
    ApiVersions = 18, "ApiVersions";
    /// Produce (apiKey 0): a producer's batch for a partition leader.
    Produce = 0, "Produce";
    /// Fetch (apiKey 1) of data partitions by a consumer (replicaId -1), up to the HW.
    ConsumerFetch = 1, "ConsumerFetch";
    /// ListOffsets (apiKey 2): a partition's earliest or latest offset.
    ListOffsets = 2, "ListOffsets";
    /// Metadata (apiKey 3): a client asks a bootstrap broker for the brokers and the
    /// partitions' leaders.
    Metadata = 3, "Metadata";
}

impl ApiKeys {
    /// The API named `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<ApiKeys> {
        ApiKeys::ALL
            .iter()
            .copied()
            .find(|a| a.name().eq_ignore_ascii_case(name))
    }

    /// Whether it belongs to the Raft protocol of the metadata quorum (the voters' and
    /// observers' RPCs of KafkaRaftClient).
    pub fn is_raft(self) -> bool {
        matches!(
            self,
            ApiKeys::PreVote
                | ApiKeys::Vote
                | ApiKeys::BeginQuorumEpoch
                | ApiKeys::EndQuorumEpoch
                | ApiKeys::Fetch
                | ApiKeys::FetchSnapshot
                | ApiKeys::AddRaftVoter
                | ApiKeys::RemoveRaftVoter
                | ApiKeys::UpdateRaftVoter
                | ApiKeys::ApiVersions
        )
    }
}

/// Which side of an exchange a message is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Direction {
    /// The request.
    Request,
    /// Its response.
    Response,
    /// The failure the sender's network client made up for a request to a dead node (it
    /// crosses no wire: NetworkClient's disconnected response).
    Failed,
}

impl Direction {
    /// Every direction, in the order of a kind's names.
    pub const ALL: [Direction; 3] = [Direction::Request, Direction::Response, Direction::Failed];

    /// The suffix of a kind's name: `Request`, `Response` or `Failed`.
    pub const fn suffix(self) -> &'static str {
        match self {
            Direction::Request => "Request",
            Direction::Response => "Response",
            Direction::Failed => "Failed",
        }
    }
}

/// A message's kind: its API and direction (`FetchRequest`, `VoteResponse`, `CreateTopicsFailed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct MessageKind {
    /// The API.
    pub api: ApiKeys,
    /// Request, response or a failure.
    pub direction: Direction,
}

/// The names of every kind, `<api><suffix>`, as static strings (a view labels thousands of
/// messages: no allocation per label).
macro_rules! kind_names {
    ($($variant:ident),*) => {
        /// `api`'s name with `direction`'s suffix.
        const fn kind_name(api: ApiKeys, direction: Direction) -> &'static str {
            match (api, direction) {
                $(
                    (ApiKeys::$variant, Direction::Request) => concat!(stringify!($variant), "Request"),
                    (ApiKeys::$variant, Direction::Response) => concat!(stringify!($variant), "Response"),
                    (ApiKeys::$variant, Direction::Failed) => concat!(stringify!($variant), "Failed"),
                )*
            }
        }
    };
}

kind_names!(
    PreVote,
    Vote,
    BeginQuorumEpoch,
    EndQuorumEpoch,
    Fetch,
    FetchSnapshot,
    ControllerRegistration,
    BrokerRegistration,
    BrokerHeartbeat,
    CreateTopics,
    DeleteTopics,
    IncrementalAlterConfigs,
    AlterPartition,
    ReplicaFetch,
    AddRaftVoter,
    RemoveRaftVoter,
    UpdateRaftVoter,
    ApiVersions,
    Produce,
    ConsumerFetch,
    ListOffsets,
    Metadata
);

impl MessageKind {
    /// The kind of `api`'s request.
    pub const fn request(api: ApiKeys) -> MessageKind {
        MessageKind {
            api,
            direction: Direction::Request,
        }
    }

    /// The kind of `api`'s response.
    pub const fn response(api: ApiKeys) -> MessageKind {
        MessageKind {
            api,
            direction: Direction::Response,
        }
    }

    /// The kind of a failed `api` request.
    pub const fn failed(api: ApiKeys) -> MessageKind {
        MessageKind {
            api,
            direction: Direction::Failed,
        }
    }

    /// `FetchRequest`, `VoteResponse`, `CreateTopicsFailed`, ...
    pub const fn name(self) -> &'static str {
        kind_name(self.api, self.direction)
    }

    /// Every kind: each API with each direction.
    pub fn all() -> impl Iterator<Item = MessageKind> {
        ApiKeys::ALL.iter().flat_map(|&api| {
            Direction::ALL
                .iter()
                .map(move |&direction| MessageKind { api, direction })
        })
    }

    /// The kind named `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<MessageKind> {
        MessageKind::all().find(|k| k.name().eq_ignore_ascii_case(name))
    }
}

impl std::fmt::Display for MessageKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_is_the_api_name_and_its_suffix() {
        assert_eq!(MessageKind::request(ApiKeys::Fetch).name(), "FetchRequest");
        assert_eq!(
            MessageKind::response(ApiKeys::AlterPartition).name(),
            "AlterPartitionResponse"
        );
        assert_eq!(MessageKind::failed(ApiKeys::Vote).name(), "VoteFailed");
        for k in MessageKind::all() {
            assert_eq!(
                k.name(),
                format!("{}{}", k.api.name(), k.direction.suffix())
            );
            assert_eq!(MessageKind::from_name(&k.name().to_lowercase()), Some(k));
        }
        assert_eq!(MessageKind::all().count(), ApiKeys::ALL.len() * 3);
        assert!(MessageKind::from_name("ProduceRequest").is_some());
        assert_eq!(MessageKind::from_name("JoinGroupRequest"), None);
    }

    #[test]
    fn api_keys_are_kafkas_numbers() {
        // clients/src/main/resources/common/message/{Fetch,Vote,BeginQuorumEpoch,
        // EndQuorumEpoch,FetchSnapshot,BrokerHeartbeat,ControllerRegistration,AddRaftVoter,
        // ApiVersions}Request.json
        let keys: Vec<(&str, i16)> = [
            ApiKeys::Fetch,
            ApiKeys::Vote,
            ApiKeys::BeginQuorumEpoch,
            ApiKeys::EndQuorumEpoch,
            ApiKeys::FetchSnapshot,
            ApiKeys::BrokerHeartbeat,
            ApiKeys::ControllerRegistration,
            ApiKeys::AddRaftVoter,
            ApiKeys::ApiVersions,
        ]
        .iter()
        .map(|a| (a.name(), a.id()))
        .collect();
        assert_eq!(
            keys,
            [
                ("Fetch", 1),
                ("Vote", 52),
                ("BeginQuorumEpoch", 53),
                ("EndQuorumEpoch", 54),
                ("FetchSnapshot", 59),
                ("BrokerHeartbeat", 63),
                ("ControllerRegistration", 70),
                ("AddRaftVoter", 80),
                ("ApiVersions", 18)
            ]
        );
        assert_eq!(ApiKeys::PreVote.id(), ApiKeys::Vote.id());
        assert_eq!(ApiKeys::from_name("prevote"), Some(ApiKeys::PreVote));
    }
}
