//! A message's label for views (`FetchRequest`, `VoteResponse`, `CreateTopicsFailed`) as one
//! static string, so that labelling every message of a run allocates nothing.

/// Which side of an exchange a message is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// The request.
    Request,
    /// Its response.
    Response,
    /// The failure the sender's network client made up for a request to a dead node.
    Failed,
}

/// Every API the playground's nodes exchange, by Kafka's name.
macro_rules! kinds {
    ($api:ident, $dir:ident; $($name:literal),* $(,)?) => {
        match ($api, $dir) {
            $(
                ($name, Direction::Request) => concat!($name, "Request"),
                ($name, Direction::Response) => concat!($name, "Response"),
                ($name, Direction::Failed) => concat!($name, "Failed"),
            )*
            _ => "",
        }
    };
}

/// `api` with the direction's suffix (empty for an API the playground does not send).
pub fn message_kind(api: &str, dir: Direction) -> &'static str {
    kinds!(api, dir;
        "Vote", "BeginQuorumEpoch", "EndQuorumEpoch", "Fetch", "FetchSnapshot",
        "ControllerRegistration", "CreateTopics", "DeleteTopics", "IncrementalAlterConfigs",
        "BrokerRegistration", "BrokerHeartbeat", "AlterPartition",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_is_the_api_name_and_its_suffix_and_unknown_apis_have_none() {
        assert_eq!(message_kind("Fetch", Direction::Request), "FetchRequest");
        assert_eq!(
            message_kind("AlterPartition", Direction::Response),
            "AlterPartitionResponse"
        );
        assert_eq!(message_kind("Vote", Direction::Failed), "VoteFailed");
        assert_eq!(message_kind("Produce", Direction::Request), "");
    }
}
