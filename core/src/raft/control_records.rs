//! KRaftControlRecordStateMachine: the voter set and kraft.version as the log says them, read
//! UNCOMMITTED after every change of the log (raft/.../internals/KRaftControlRecordStateMachine.java).
//!
//! A new voter set is in force as soon as its VotersRecord is in the log (KIP-853: "in force on
//! append, done on commit"); a truncation takes back what it removed (`truncateNewEntries`).
//! Without a VotersRecord the static set (`controller.quorum.voters`) holds; without a
//! KRaftVersionRecord kraft.version is 0.

use super::batch::Record;
use super::io::RaftIo;
use super::log::RaftLog;
use super::voter_set::VoterSet;
use crate::common::node_log::Level;

/// The logger of KRaftControlRecordStateMachine.
pub const LOGGER: &str = "org.apache.kafka.raft.internals.KRaftControlRecordStateMachine";

/// `STARTING_NEXT_OFFSET`: nothing read yet.
const STARTING_NEXT_OFFSET: i64 = -1;

/// The control records read so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KRaftControlRecordStateMachine {
    static_voters: VoterSet,
    /// VoterSetHistory: (offset, set), ascending; a snapshot's at its last contained offset.
    voter_history: Vec<(i64, VoterSet)>,
    /// The kraft.version history: (offset, level), ascending.
    kraft_history: Vec<(i64, u16)>,
    /// The next log offset to read.
    next_offset: i64,
}

impl KRaftControlRecordStateMachine {
    /// A state machine over `static_voters` (empty when the node has
    /// `controller.quorum.bootstrap.servers` instead of `controller.quorum.voters`).
    pub fn new(static_voters: VoterSet) -> Self {
        KRaftControlRecordStateMachine {
            static_voters,
            voter_history: Vec::new(),
            kraft_history: Vec::new(),
            next_offset: STARTING_NEXT_OFFSET,
        }
    }

    /// `updateState`: load the latest snapshot if the log starts past what was read, then
    /// read the log from the next offset to its end. Returns whether the voter set changed.
    pub fn update_state(&mut self, io: &mut RaftIo, prefix: &str) -> bool {
        let before = self.last_voter_set().clone();
        self.maybe_load_snapshot(io, prefix);
        self.maybe_load_log(io, prefix);
        *self.last_voter_set() != before
    }

    /// `truncateNewEntries`: forget what was read at or after `end_offset` (the log was
    /// truncated there). Returns whether the voter set changed.
    pub fn truncate_new_entries(&mut self, end_offset: i64) -> bool {
        let before = self.last_voter_set().clone();
        self.voter_history.retain(|(o, _)| *o < end_offset);
        self.kraft_history.retain(|(o, _)| *o < end_offset);
        self.next_offset = self.next_offset.min(end_offset);
        *self.last_voter_set() != before
    }

    /// `lastVoterSet`: the newest set (the static one when the log has none).
    pub fn last_voter_set(&self) -> &VoterSet {
        self.voter_history
            .last()
            .map_or(&self.static_voters, |(_, s)| s)
    }

    /// `lastVoterSetEntry`: the newest VotersRecord's offset and set, if the log has one.
    pub fn last_voter_set_entry(&self) -> Option<(i64, &VoterSet)> {
        self.voter_history.last().map(|(o, s)| (*o, s))
    }

    /// Every VotersRecord read so far (VoterSetHistory): (offset, set), oldest first; a
    /// snapshot's at its last contained offset. Read-only, for the views.
    pub fn voter_history(&self) -> &[(i64, VoterSet)] {
        &self.voter_history
    }

    /// `voterSetAtOffset`: the set in force at `offset` (inclusive).
    pub fn voter_set_at_offset(&self, offset: i64) -> &VoterSet {
        self.voter_history
            .iter()
            .rev()
            .find(|(o, _)| *o <= offset)
            .map_or(&self.static_voters, |(_, s)| s)
    }

    /// `kraftVersionAtOffset`: the kraft.version in force at `offset` (0 without a record).
    pub fn kraft_version_at_offset(&self, offset: i64) -> u16 {
        self.kraft_history
            .iter()
            .rev()
            .find(|(o, _)| *o <= offset)
            .map_or(0, |(_, v)| *v)
    }

    /// `lastKraftVersion`: the newest kraft.version (0 without a record).
    pub fn last_kraft_version(&self) -> u16 {
        self.kraft_history.last().map_or(0, |(_, v)| *v)
    }

    /// The static voter set this node was configured with.
    pub fn static_voters(&self) -> &VoterSet {
        &self.static_voters
    }

    fn maybe_load_snapshot(&mut self, io: &mut RaftIo, prefix: &str) {
        let log: &RaftLog = &io.disk.metadata_log;
        let start = log.start_offset();
        let snapshot = log.latest_snapshot().cloned();
        match snapshot {
            Some(s) if self.next_offset == STARTING_NEXT_OFFSET || self.next_offset < start => {
                self.voter_history.clear();
                self.kraft_history.clear();
                io.log_line(
                    Level::Info,
                    prefix,
                    LOGGER,
                    format!(
                        "Loading snapshot (OffsetAndEpoch[offset={}, epoch={}]) since log start offset ({start}) is greater than the internal listener's next offset ({})",
                        s.id.offset,
                        s.id.epoch,
                        self.next_offset
                    ),
                );
                let last_contained = s.id.offset - 1;
                for b in &s.batches {
                    if b.is_control {
                        for r in &b.records {
                            self.handle(r, last_contained, io, prefix);
                        }
                    }
                }
                self.next_offset = s.id.offset;
            }
            _ if self.next_offset == STARTING_NEXT_OFFSET => self.next_offset = 0,
            _ => {}
        }
    }

    fn maybe_load_log(&mut self, io: &mut RaftIo, prefix: &str) {
        let end = io.disk.metadata_log.end_offset();
        if end <= self.next_offset {
            return;
        }
        let batches = io.disk.metadata_log.batches();
        let first = batches.partition_point(|b| b.last_offset() < self.next_offset);
        let new: Vec<_> = batches[first..].to_vec();
        for b in new {
            if b.is_control {
                for (i, r) in b.records.iter().enumerate() {
                    let offset = b.base_offset + i as i64;
                    if offset >= self.next_offset {
                        self.handle(r, offset, io, prefix);
                    }
                }
            }
            self.next_offset = self.next_offset.max(b.last_offset() + 1);
        }
    }

    /// `handleBatch` for one control record at `offset`.
    fn handle(&mut self, r: &Record, offset: i64, io: &mut RaftIo, prefix: &str) {
        match r {
            Record::KRaftVoters { voters } => {
                let set = VoterSet::from_record(voters);
                io.log_line(
                    Level::Info,
                    prefix,
                    LOGGER,
                    format!("Latest set of voters is {set} at offset {offset}"),
                );
                self.voter_history.retain(|(o, _)| *o < offset);
                self.voter_history.push((offset, set));
            }
            Record::KRaftVersion { kraft_version } => {
                io.log_line(
                    Level::Info,
                    prefix,
                    LOGGER,
                    format!(
                        "Latest kraft.version is KRAFT_VERSION_{kraft_version} at offset {offset}"
                    ),
                );
                self.kraft_history.retain(|(o, _)| *o < offset);
                self.kraft_history.push((offset, *kraft_version));
            }
            _ => {}
        }
    }
}
