//! What a message's arrow says: its API, the epoch of a request, whether a vote was granted,
//! read from the message's summary (`epoch=2 candidate=102 ...`, `granted=true epoch=2 ...`).

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

/// The value of `key=` in a summary.
pub fn field<'a>(summary: &'a str, key: &str) -> Option<&'a str> {
    summary
        .split_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
}

/// The arrow's label: a request by its API and epoch (`PreVote e1`); a response (a dashed
/// arrow of its request's colour) as `✓` (a vote granted, no error) or `✗` (refused, or its
/// error: `✗ NOT_LEADER_OR_FOLLOWER`); a failed request by its API.
pub fn arrow_label(api: &str, dir: &str, summary: &str) -> String {
    match dir {
        "req" => match field(summary, "epoch") {
            Some(e) => format!("{api} e{e}"),
            None => api.to_string(),
        },
        "resp" => match (field(summary, "granted"), field(summary, "error")) {
            (Some("false"), _) => "✗".to_string(),
            (_, None | Some("NONE")) => "✓".to_string(),
            (_, Some(e)) => format!("✗ {e}"),
        },
        _ => api.to_string(),
    }
}

/// The label in Mermaid: `PreVote (epoch 1)`, `Vote response (granted)`,
/// `BeginQuorumEpoch response`, `Vote (no answer)`.
pub fn mermaid_label(api: &str, dir: &str, summary: &str) -> String {
    match dir {
        "req" => match field(summary, "epoch") {
            Some(e) => format!("{api} (epoch {e})"),
            None => api.to_string(),
        },
        "resp" => match field(summary, "granted") {
            Some("true") => format!("{api} response (granted)"),
            Some(_) => format!("{api} response (refused)"),
            None => format!("{api} response"),
        },
        "failed" => format!("{api} (no answer)"),
        _ => api.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_say_the_api_the_epoch_and_the_vote() {
        let req = "epoch=2 candidate=102 lastEpoch=1 lastOffset=31";
        assert_eq!(arrow_label("Vote", "req", req), "Vote e2");
        assert_eq!(mermaid_label("Vote", "req", req), "Vote (epoch 2)");
        let resp = "granted=false epoch=1 error=NONE";
        assert_eq!(arrow_label("PreVote", "resp", resp), "✗");
        assert_eq!(
            arrow_label("Vote", "resp", "granted=true epoch=2 error=NONE"),
            "✓"
        );
        assert_eq!(
            arrow_label("Fetch", "resp", "error=NOT_LEADER_OR_FOLLOWER"),
            "✗ NOT_LEADER_OR_FOLLOWER"
        );
        assert_eq!(
            mermaid_label("PreVote", "resp", resp),
            "PreVote response (refused)"
        );
        assert_eq!(
            arrow_label("BeginQuorumEpoch", "resp", "epoch=2 error=NONE"),
            "✓"
        );
        assert_eq!(
            mermaid_label("Vote", "failed", "BROKER_NOT_AVAILABLE"),
            "Vote (no answer)"
        );
        assert_eq!(field("lastEpoch=1 epoch=3", "epoch"), Some("3"));
    }
}
