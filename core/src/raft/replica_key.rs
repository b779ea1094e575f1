//! ReplicaKey and the durable ElectionState written to `quorum-state`.

use crate::common::uuid::Uuid;
use std::fmt;

/// A replica: node id plus its metadata log directory id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ReplicaKey {
    /// node.id
    pub id: i32,
    /// The directory id of the replica's metadata log directory.
    pub directory_id: Option<Uuid>,
}

impl fmt::Display for ReplicaKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.directory_id {
            Some(d) => write!(f, "ReplicaKey(id={}, directoryId={})", self.id, d),
            None => write!(f, "ReplicaKey(id={}, directoryId=<undefined>)", self.id),
        }
    }
}

/// What `quorum-state` holds: epoch, leader, and the vote cast in that epoch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElectionState {
    /// leaderEpoch
    pub epoch: i32,
    /// leaderId (None is written as -1)
    pub leader_id: Option<i32>,
    /// votedId and votedDirectoryId
    pub voted_key: Option<ReplicaKey>,
}

/// The file name of the election state, inside `__cluster_metadata-0`.
pub const QUORUM_STATE_FILE: &str = "quorum-state";

impl ElectionState {
    /// The file content, as FileQuorumStateStore writes it (data_version 1).
    pub fn to_json(&self) -> String {
        let voted_id = self.voted_key.map(|k| k.id).unwrap_or(-1);
        let voted_dir = self
            .voted_key
            .and_then(|k| k.directory_id)
            .unwrap_or(Uuid::ZERO);
        format!(
            "{{\"leaderId\":{},\"leaderEpoch\":{},\"votedId\":{},\"votedDirectoryId\":\"{}\",\"data_version\":1}}",
            self.leader_id.unwrap_or(-1),
            self.epoch,
            voted_id,
            voted_dir
        )
    }

    /// Parse the file content written by [`ElectionState::to_json`]; directory ids are kept
    /// as the text printed, so they are looked up in `dirs` (id text -> Uuid).
    pub fn from_json(text: &str, dirs: &[(i32, Uuid)]) -> Result<ElectionState, String> {
        let field = |name: &str| -> Result<String, String> {
            let key = format!("\"{name}\":");
            let start = text
                .find(&key)
                .ok_or_else(|| format!("quorum-state: missing field {name}"))?
                + key.len();
            let rest = &text[start..];
            let end = rest.find([',', '}']).unwrap_or(rest.len());
            Ok(rest[..end].trim_matches('"').to_string())
        };
        let num = |name: &str| -> Result<i32, String> {
            field(name)?
                .parse::<i32>()
                .map_err(|e| format!("quorum-state: bad {name}: {e}"))
        };
        let epoch = num("leaderEpoch")?;
        let leader = num("leaderId")?;
        let voted = num("votedId")?;
        let voted_dir_text = field("votedDirectoryId")?;
        let voted_key = (voted >= 0).then(|| ReplicaKey {
            id: voted,
            directory_id: dirs
                .iter()
                .find(|(id, d)| *id == voted && d.to_string() == voted_dir_text)
                .map(|(_, d)| *d),
        });
        Ok(ElectionState {
            epoch,
            leader_id: (leader >= 0).then_some(leader),
            voted_key,
        })
    }
}

/// Java's `OptionalInt` text: `OptionalInt[2]` or `OptionalInt.empty`.
pub fn optional_int(v: Option<i32>) -> String {
    match v {
        Some(x) => format!("OptionalInt[{x}]"),
        None => "OptionalInt.empty".to_string(),
    }
}

/// Java's `Optional` text: `Optional[x]` or `Optional.empty`.
pub fn optional<T: fmt::Display>(v: Option<T>) -> String {
    match v {
        Some(x) => format!("Optional[{x}]"),
        None => "Optional.empty".to_string(),
    }
}

/// `LogOffsetMetadata(offset=N, metadata=Optional.empty)` wrapped in Optional.
pub fn optional_offset(v: Option<i64>) -> String {
    optional(v.map(|o| format!("LogOffsetMetadata(offset={o}, metadata=Optional.empty)")))
}

/// A Java set of ids: `[101, 102, 103]`.
pub fn id_set(ids: &[i32]) -> String {
    let parts: Vec<String> = ids.iter().map(|i| i.to_string()).collect();
    format!("[{}]", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quorum_state_json_matches_the_article() {
        let dir = Uuid([7; 16]);
        let s = ElectionState {
            epoch: 2,
            leader_id: Some(102),
            voted_key: Some(ReplicaKey {
                id: 102,
                directory_id: Some(dir),
            }),
        };
        let json = s.to_json();
        assert_eq!(
            json,
            format!("{{\"leaderId\":102,\"leaderEpoch\":2,\"votedId\":102,\"votedDirectoryId\":\"{dir}\",\"data_version\":1}}")
        );
        assert_eq!(ElectionState::from_json(&json, &[(102, dir)]).unwrap(), s);
        let none = ElectionState {
            epoch: 1,
            leader_id: Some(1),
            voted_key: None,
        };
        assert_eq!(
            none.to_json(),
            r#"{"leaderId":1,"leaderEpoch":1,"votedId":-1,"votedDirectoryId":"AAAAAAAAAAAAAAAAAAAAAA","data_version":1}"#
        );
        assert_eq!(
            ElectionState::from_json(&none.to_json(), &[]).unwrap(),
            none
        );
    }
}
