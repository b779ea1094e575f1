//! The invariants by name (issue 18): Kafka's RaftEventSimulationTest names where it has the
//! check, the engine's own otherwise; what a violation records; the status of each.

use std::fmt;

/// One invariant the checker holds the world to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Invariant {
    /// RaftEventSimulationTest's SingleLeader: at most one leader per epoch.
    SingleLeader,
    /// RaftEventSimulationTest's MonotonicEpoch: a node's epoch never goes back.
    MonotonicEpoch,
    /// RaftEventSimulationTest's MonotonicHighWatermark: a node's HW never goes back within
    /// a process lifetime, and never passes its log end.
    MonotonicHighWatermark,
    /// RaftEventSimulationTest's MajorityReachedHighWatermark: a leader's HW is held by a
    /// majority of voters.
    MajorityReachedHighWatermark,
    /// RaftEventSimulationTest's ConsistentCommittedData: every node has the same entry at
    /// every committed offset; the bootstrap transaction is committed once.
    ConsistentCommittedData,
    /// RaftEventSimulationTest's SnapshotAtLogStart: a log that starts past 0 starts at its
    /// earliest snapshot; snapshots of one id hold the same state, a replay of the log.
    SnapshotAtLogStart,
    /// RaftEventSimulationTest's LeaderNeverLoadSnapshot: the active controller never loads
    /// a snapshot.
    LeaderNeverLoadSnapshot,
    /// Committed data is never lost: a node keeps every entry below its HW, and a leader of
    /// the newest epoch holds every committed entry.
    CommittedDataNeverLost,
    /// A controller's state equals a replay of its committed log up to what it applied.
    ControllerStateIsCommittedReplay,
    /// A broker's published MetadataImage equals the controller state at the image's offset.
    BrokerImageMatchesController,
    /// A broker's image never goes back: a restarted broker's first published image is not
    /// older than the newest image it published before (the loader catches up first).
    BrokerImageNeverGoesBack,
    /// No fenced broker leads a partition or sits in an ISR of more than one replica.
    NoFencedBrokerInIsr,
    /// A data partition leader's high watermark is not past the log end of any replica in its
    /// ISR (Partition.maybeIncrementLeaderHW: the smallest LEO of the ISR).
    DataHighWatermarkWithinIsr,
    /// A record acknowledged with acks=all is held by every later leader of its partition.
    AckedRecordNeverLost,
    /// The active controller fences a broker whose session timed out (within its session
    /// timeout plus a grace of two fence-task periods and a commit).
    SessionExpiredBrokerFenced,
    /// A leader cut off from a majority does not stay leader once a newer epoch has a leader
    /// (check quorum resigns it within 1.5 × the fetch timeout).
    NoStaleLeader,
    /// A voter cut off from a majority of voters does not bump the epoch (PreVote: it needs a
    /// majority's pre-votes first), so it cannot depose the leader when it comes back.
    NoDisruptiveElection,
    /// No fatal fault (an engine error that ends a process).
    NoFatalFault,
}

impl Invariant {
    /// Every invariant, in the order the checker looks at them.
    pub const ALL: [Invariant; 18] = [
        Invariant::NoFatalFault,
        Invariant::MonotonicEpoch,
        Invariant::SingleLeader,
        Invariant::NoStaleLeader,
        Invariant::NoDisruptiveElection,
        Invariant::MonotonicHighWatermark,
        Invariant::MajorityReachedHighWatermark,
        Invariant::ConsistentCommittedData,
        Invariant::CommittedDataNeverLost,
        Invariant::SnapshotAtLogStart,
        Invariant::LeaderNeverLoadSnapshot,
        Invariant::ControllerStateIsCommittedReplay,
        Invariant::BrokerImageMatchesController,
        Invariant::BrokerImageNeverGoesBack,
        Invariant::NoFencedBrokerInIsr,
        Invariant::SessionExpiredBrokerFenced,
        Invariant::DataHighWatermarkWithinIsr,
        Invariant::AckedRecordNeverLost,
    ];

    /// Its name (CamelCase, as RaftEventSimulationTest's classes).
    pub fn name(self) -> &'static str {
        match self {
            Invariant::SingleLeader => "SingleLeader",
            Invariant::MonotonicEpoch => "MonotonicEpoch",
            Invariant::MonotonicHighWatermark => "MonotonicHighWatermark",
            Invariant::MajorityReachedHighWatermark => "MajorityReachedHighWatermark",
            Invariant::ConsistentCommittedData => "ConsistentCommittedData",
            Invariant::SnapshotAtLogStart => "SnapshotAtLogStart",
            Invariant::LeaderNeverLoadSnapshot => "LeaderNeverLoadSnapshot",
            Invariant::CommittedDataNeverLost => "CommittedDataNeverLost",
            Invariant::ControllerStateIsCommittedReplay => "ControllerStateIsCommittedReplay",
            Invariant::BrokerImageMatchesController => "BrokerImageMatchesController",
            Invariant::BrokerImageNeverGoesBack => "BrokerImageNeverGoesBack",
            Invariant::NoFencedBrokerInIsr => "NoFencedBrokerInIsr",
            Invariant::SessionExpiredBrokerFenced => "SessionExpiredBrokerFenced",
            Invariant::NoStaleLeader => "NoStaleLeader",
            Invariant::NoDisruptiveElection => "NoDisruptiveElection",
            Invariant::NoFatalFault => "NoFatalFault",
            Invariant::DataHighWatermarkWithinIsr => "DataHighWatermarkWithinIsr",
            Invariant::AckedRecordNeverLost => "AckedRecordNeverLost",
        }
    }
}

/// A broken invariant as a check finds it, before the event and time are stamped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    /// Which invariant.
    pub invariant: Invariant,
    /// The nodes involved.
    pub nodes: Vec<i32>,
    /// What was seen.
    pub message: String,
}

/// A [`Broken`] of `invariant` on `nodes`.
pub fn broken(invariant: Invariant, nodes: &[i32], message: String) -> Broken {
    Broken {
        invariant,
        nodes: nodes.to_vec(),
        message,
    }
}

/// A violation: which invariant, at which event and virtual time, on which nodes, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The invariant broken.
    pub invariant: Invariant,
    /// The world's event count when the check saw it (`World::events_run`).
    pub event: u64,
    /// Virtual time, ms.
    pub time_ms: u64,
    /// The nodes involved.
    pub nodes: Vec<i32>,
    /// What was seen.
    pub message: String,
}

impl Violation {
    /// `broken` stamped with the event count and time it was seen at.
    pub fn at(broken: Broken, event: u64, time_ms: u64) -> Self {
        Violation {
            invariant: broken.invariant,
            event,
            time_ms,
            nodes: broken.nodes,
            message: broken.message,
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nodes: Vec<String> = self.nodes.iter().map(|n| n.to_string()).collect();
        write!(
            f,
            "{} broken at event {} ({} ms), nodes [{}]: {}",
            self.invariant.name(),
            self.event,
            self.time_ms,
            nodes.join(", "),
            self.message
        )
    }
}

impl From<Violation> for String {
    fn from(v: Violation) -> String {
        v.to_string()
    }
}

/// Whether an invariant holds, and its first violation if not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvariantStatus {
    /// The invariant.
    pub invariant: Invariant,
    /// True while no violation was seen.
    pub holds: bool,
    /// The first violation seen.
    pub first_violation: Option<Violation>,
}

/// One line per invariant: `✓ Name` or `✗ Name at event N (T ms), nodes [...]: message`.
pub fn status_text(statuses: &[InvariantStatus]) -> String {
    statuses
        .iter()
        .map(|s| match &s.first_violation {
            None => format!("ok   {}", s.invariant.name()),
            Some(v) => {
                let first = v.message.lines().next().unwrap_or_default();
                let nodes: Vec<String> = v.nodes.iter().map(|n| n.to_string()).collect();
                format!(
                    "FAIL {} at event {} ({} ms), nodes [{}]: {first}",
                    s.invariant.name(),
                    v.event,
                    v.time_ms,
                    nodes.join(", ")
                )
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
