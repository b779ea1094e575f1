//! A node's newest QuorumState transitions read back from its server.log, each with what the
//! KafkaRaftClient lines logged around it say triggered it (a fetch timeout, a Vote request, a
//! lost check-quorum, ...), so that a step's changes can name the Kafka method that moved it.

use serde::Serialize;

use super::{StateKind, TransitionView};
use crate::common::node_log::{LogLine, NodeLog};
use crate::raft::io::loggers;

/// At most this many transitions per node are put in a view.
pub const MAX_TRANSITIONS_IN_VIEW: usize = 12;

/// What triggered a transition, as the KafkaRaftClient lines logged with it (same node, same
/// virtual millisecond) say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum TransitionCause {
    /// The first state, read from quorum-state at start-up (`from null`).
    Startup,
    /// `Transitioning to Prospective state due to fetch timeout` (pollFollowerAsVoter).
    FetchTimeout,
    /// `Election was not granted, transitioning to prospective` (pollCandidate).
    ElectionNotGranted,
    /// `Election timed out before receiving sufficient vote responses to become candidate`
    /// (pollProspective).
    PreVoteTimedOut,
    /// `Insufficient remaining votes to become candidate` (handleVoteResponse).
    PreVoteRejected,
    /// `Did not receive fetch request from the majority of the voters` (pollLeader).
    CheckQuorumLost,
    /// `Leader is not in the committed voter set ... resign from epoch` (RemoveVoterHandler,
    /// then pollLeader): the leader removed itself and the removal committed.
    RemovedFromVoters,
    /// Followed by `Vote request ... is granted|rejected` (handleVoteRequest).
    VoteRequest,
    /// Right after another transition of the same handler (onBecomeProspective going on to
    /// Candidate, handleVoteRequest recording its vote, ...).
    Chained,
    /// No KafkaRaftClient line says: the state pair tells (a poll deadline, or a request or
    /// response naming a newer epoch or the leader).
    Other,
}

/// A QuorumState transition of a node's server.log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoggedTransition {
    /// The line's number among every line the node logged (0 = its first; rotated lines count),
    /// to compare with [`super::NodeView::log_lines_written`] of an earlier view.
    pub line: u64,
    /// From, to, epoch and time.
    pub transition: TransitionView,
    /// What triggered it.
    pub cause: TransitionCause,
}

/// How many lines `log` has had, the rotated ones included.
pub(crate) fn lines_written(log: &NodeLog) -> u64 {
    log.rotated + log.len() as u64
}

/// Whether `l` is one of QuorumState's transition lines (`Attempting durable transition ...`,
/// `Completed transition ...`).
fn is_quorum_state(l: &LogLine) -> bool {
    l.logger == loggers::QUORUM_STATE
}

/// The logger of RemoveVoterHandler (raft/.../internals/RemoveVoterHandler.java).
const REMOVE_VOTER_HANDLER: &str = "org.apache.kafka.raft.internals.RemoveVoterHandler";

/// The cause a KafkaRaftClient (or LeaderState, or RemoveVoterHandler) line logged just before
/// a transition names.
fn cause_before(l: &LogLine) -> Option<TransitionCause> {
    let m = l.message.as_str();
    if l.logger == REMOVE_VOTER_HANDLER {
        return m
            .starts_with("Leader is not in the committed voter set")
            .then_some(TransitionCause::RemovedFromVoters);
    }
    if l.logger != loggers::KAFKA_RAFT_CLIENT && l.logger != loggers::LEADER_STATE {
        return None;
    }
    let cause = if m.starts_with("Transitioning to Prospective state due to fetch timeout") {
        TransitionCause::FetchTimeout
    } else if m.starts_with("Election was not granted") {
        TransitionCause::ElectionNotGranted
    } else if m.starts_with("Election timed out before receiving sufficient vote responses") {
        TransitionCause::PreVoteTimedOut
    } else if m.starts_with("Insufficient remaining votes to become candidate") {
        TransitionCause::PreVoteRejected
    } else if m.starts_with("Did not receive fetch request from the majority") {
        TransitionCause::CheckQuorumLost
    } else {
        return None;
    };
    Some(cause)
}

/// A transition found while reading the log backwards, waiting for the lines before it.
struct Pending {
    at: usize,
    time_ms: u64,
}

/// The newest transitions of `log` (at most [`MAX_TRANSITIONS_IN_VIEW`]), oldest first.
///
/// One backward pass: a transition's cause is the KafkaRaftClient line just before it (past
/// `Attempting durable transition` lines; another `Completed transition` there makes it
/// [`TransitionCause::Chained`]) or, failing that, a `Vote request` line just after it, both in
/// the same virtual millisecond.
pub(crate) fn recent_transitions(log: &NodeLog) -> Vec<LoggedTransition> {
    let mut out: Vec<LoggedTransition> = Vec::new();
    let mut pending: Option<Pending> = None;
    // The nearest later line that is not QuorumState's: (time, whether it is a Vote request).
    let mut later: Option<(u64, bool)> = None;
    for (i, l) in log.lines().enumerate().rev() {
        if let Some(p) = pending.as_ref() {
            let settled = if l.time_ms != p.time_ms {
                Some(None)
            } else if is_quorum_state(l) {
                l.message
                    .starts_with("Completed transition")
                    .then_some(Some(TransitionCause::Chained))
            } else {
                Some(cause_before(l))
            };
            if let Some(cause) = settled {
                if let Some(cause) = cause {
                    out[p.at].cause = cause;
                }
                pending = None;
            }
        }
        if pending.is_none() && out.len() >= MAX_TRANSITIONS_IN_VIEW {
            break;
        }
        if !is_quorum_state(l) {
            later = Some((l.time_ms, l.message.starts_with("Vote request ")));
            continue;
        }
        let Some(transition) = transition_view(l) else {
            continue;
        };
        let cause = if transition.from.is_none() {
            TransitionCause::Startup
        } else if later == Some((l.time_ms, true)) {
            TransitionCause::VoteRequest
        } else {
            TransitionCause::Other
        };
        pending = (cause == TransitionCause::Other).then_some(Pending {
            at: out.len(),
            time_ms: l.time_ms,
        });
        out.push(LoggedTransition {
            line: log.rotated + i as u64,
            transition,
            cause,
        });
    }
    out.reverse();
    out
}

/// Reads a `Completed transition to XState(..) from YState(..)` line, as the console's
/// `transitions` command does.
pub(crate) fn transition_view(l: &LogLine) -> Option<TransitionView> {
    let rest = l.message.strip_prefix("Completed transition to ")?;
    let kind = |t: &str| {
        let t = t.split('(').next().unwrap_or(t);
        StateKind::from_name(t.strip_suffix("State").unwrap_or(t))
    };
    let (to_text, from_text) = rest.rsplit_once(" from ").unwrap_or((rest, ""));
    Some(TransitionView {
        time_ms: l.time_ms,
        from: kind(from_text),
        to: kind(rest)?,
        epoch: epoch_of(to_text).unwrap_or(0),
        from_epoch: epoch_of(from_text),
    })
}

/// The `epoch=` of a state as its `toString` prints it.
fn epoch_of(state: &str) -> Option<i32> {
    state
        .split("epoch=")
        .nth(1)
        .and_then(|e| e.split([',', ')']).next())
        .and_then(|e| e.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::node_log::{Level, LogFile};

    fn line(time_ms: u64, logger: &'static str, message: &str) -> LogLine {
        LogLine {
            time_ms,
            level: Level::Info,
            file: LogFile::Server,
            prefix: String::new(),
            message: message.to_string(),
            logger,
        }
    }

    fn completed(time_ms: u64, to: &str, from: &str) -> LogLine {
        line(
            time_ms,
            loggers::QUORUM_STATE,
            &format!("Completed transition to {to}(epoch=2) from {from}(epoch=1)"),
        )
    }

    #[test]
    fn causes_come_from_the_lines_around_a_transition() {
        let mut log = NodeLog::default();
        log.push(line(
            5,
            loggers::QUORUM_STATE,
            "Completed transition to UnattachedState(epoch=0) from null",
        ));
        log.push(line(
            9,
            loggers::KAFKA_RAFT_CLIENT,
            "Transitioning to Prospective state due to fetch timeout",
        ));
        log.push(completed(9, "ProspectiveState", "FollowerState"));
        log.push(completed(9, "CandidateState", "ProspectiveState"));
        log.push(line(
            12,
            loggers::QUORUM_STATE,
            "Attempting durable transition to UnattachedState(epoch=2) from ProspectiveState(epoch=1)",
        ));
        log.push(completed(12, "UnattachedState", "ProspectiveState"));
        log.push(completed(12, "UnattachedState", "UnattachedState"));
        log.push(line(
            12,
            loggers::KAFKA_RAFT_CLIENT,
            "Vote request VoteRequestData(...) with epoch 2 is granted",
        ));
        log.push(completed(14, "FollowerState", "UnattachedState"));
        let got: Vec<(String, TransitionCause, u64)> = recent_transitions(&log)
            .into_iter()
            .map(|t| (t.transition.to.name().to_string(), t.cause, t.line))
            .collect();
        let want = [
            ("Unattached", TransitionCause::Startup, 0),
            ("Prospective", TransitionCause::FetchTimeout, 2),
            ("Candidate", TransitionCause::Chained, 3),
            ("Unattached", TransitionCause::VoteRequest, 5),
            ("Unattached", TransitionCause::VoteRequest, 6),
            ("Follower", TransitionCause::Other, 8),
        ];
        let want: Vec<(String, TransitionCause, u64)> = want
            .iter()
            .map(|(s, c, l)| (s.to_string(), *c, *l))
            .collect();
        assert_eq!(got, want);
        assert_eq!(lines_written(&log), 9);
    }
}
