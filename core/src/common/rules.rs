//! The rule switches (issue 18): each KRaft rule the article explains can be turned off to
//! show what breaks without it. Every rule is on by default (Kafka as it is); each is read at
//! one clearly marked `if rules.<rule>` in the engine, at the place Kafka makes the check.
//! The world holds one [`Rules`] and hands it to every node's step (in `RaftIo`), so a switch
//! takes effect at the next event.

/// One rule that can be switched off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// KIP-996 PreVote: a node whose election timer fires first asks for pre-votes as
    /// Prospective in its own epoch and bumps the epoch only once a majority would vote
    /// (`QuorumState.transitionToProspective`, `EpochState`/`ProspectiveState`,
    /// `KafkaRaftClient.pollFollowerAsVoter`). Off: it goes straight to Candidate in epoch + 1.
    PreVote,
    /// The vote is written to the `quorum-state` file before the VoteResponse is sent
    /// (`QuorumState.transitionToUnattachedVotedState` → `durableTransitionTo` →
    /// `FileQuorumStateStore.writeElectionState`). Off: the vote lives in memory only and a
    /// restarted voter forgets it.
    DurableVote,
    /// A vote only for a candidate whose log is at least as up to date as the voter's
    /// (`KafkaRaftClient.handleVoteRequest`: `isLogUpToDate` → `ReplicatedLog.endOffset`
    /// comparison). Off: every candidate's log counts as up to date.
    VoteLogCheck,
    /// The leader moves the high watermark only past its `epochStartOffset`, i.e. once a
    /// record of its own epoch is held by a majority (`LeaderState.maybeUpdateHighWatermark`:
    /// `highWatermarkUpdateOffset > epochStartOffset`; the Raft paper's figure 8). Off: a
    /// majority holding any offset commits it.
    HwEpochStart,
    /// A leader that has not heard a fetch from a majority for 1.5 × fetch timeout resigns
    /// (`LeaderState.timeUntilCheckQuorumExpires`, `KafkaRaftClient.pollLeader`). Off: a
    /// cut-off leader stays Leader.
    CheckQuorum,
    /// An active controller that loses leadership reverts its in-memory state to the last
    /// stable offset (`QuorumController.renounce` → `OffsetControlManager.deactivate` →
    /// `SnapshotRegistry.revertToSnapshot(lastStableOffset)`). Off: uncommitted writes stay
    /// in its state.
    RevertOnRenounce,
    /// The active controller takes the in-memory snapshot at offset N after replaying the
    /// records up to N (`QuorumController` replays, then
    /// `OffsetControlManager.handleScheduleAppend` creates the snapshot). Off: the snapshot
    /// is taken before the replay, so "snapshot N" lacks record N (the article's pitfall).
    SnapshotAfterReplay,
    /// The MetadataLoader publishes no image before it has caught up with the high watermark
    /// (`MetadataLoader.stillNeedToCatchUp` in `handleCommit` / `handleLoadSnapshot`). Off:
    /// it publishes after every batch it reads, however far behind.
    LoaderCatchUp,
    /// The active controller fences a broker whose session timed out
    /// (`QuorumController.maybeFenceStaleBroker` → `BrokerHeartbeatManager.findOneStaleBroker`
    /// → `ReplicationControlManager.maybeFenceOneStaleBroker`). Off: a silent broker stays
    /// unfenced (and in its ISRs, leading its partitions).
    SessionFencing,
    /// One voter change at a time: the leader refuses AddVoter and RemoveVoter while the last
    /// VotersRecord is not committed (`AddVoterHandler.handleAddVoterRequest` /
    /// `RemoveVoterHandler.handleRemoveVoterRequest`: "Request timed out waiting for voters to
    /// commit the latest voter change"). Off: a second change starts at once, and two
    /// majorities that do not intersect can elect two leaders (the classic single-server
    /// change bug).
    SingleVoterChange,
    /// A data partition's leader moves the high watermark only to the smallest log end offset
    /// of its ISR (`Partition.maybeIncrementLeaderHW`, Partition.scala:1010-1058), so an
    /// acks=all write is answered only once every ISR member holds it. Off: the HW is the
    /// offset a majority of the replicas holds, as the metadata log's is, and a replica still
    /// in the ISR may lack an acknowledged record that its election then loses.
    IsrHighWatermark,
}

/// When a rule may be switched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Switchable {
    /// Before `cluster` and at any time while it runs (it is read at every event).
    Anytime,
    /// Only before `cluster`: the rule acts when a process starts, not while it runs.
    BeforeCluster,
}

impl Rule {
    /// Every rule, in the order the article meets them.
    pub const ALL: [Rule; 11] = [
        Rule::PreVote,
        Rule::DurableVote,
        Rule::VoteLogCheck,
        Rule::HwEpochStart,
        Rule::CheckQuorum,
        Rule::RevertOnRenounce,
        Rule::SnapshotAfterReplay,
        Rule::LoaderCatchUp,
        Rule::SessionFencing,
        Rule::SingleVoterChange,
        Rule::IsrHighWatermark,
    ];

    /// Its name in `set rule.<name>=off` (kebab-case).
    pub fn name(self) -> &'static str {
        match self {
            Rule::PreVote => "prevote",
            Rule::DurableVote => "durable-vote",
            Rule::VoteLogCheck => "vote-log-check",
            Rule::HwEpochStart => "hw-epoch-start",
            Rule::CheckQuorum => "check-quorum",
            Rule::RevertOnRenounce => "revert-on-renounce",
            Rule::SnapshotAfterReplay => "snapshot-after-replay",
            Rule::LoaderCatchUp => "loader-catch-up",
            Rule::SessionFencing => "session-fencing",
            Rule::SingleVoterChange => "single-voter-change",
            Rule::IsrHighWatermark => "isr-high-watermark",
        }
    }

    /// The rule named `name`.
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.name() == name)
    }

    /// The Kafka code whose check the switch removes (one line, for help and the page).
    pub fn kafka_code(self) -> &'static str {
        match self {
            Rule::PreVote => "QuorumState.transitionToProspective (ProspectiveState, KIP-996)",
            Rule::DurableVote => {
                "QuorumState.transitionToUnattachedVotedState -> durableTransitionTo (quorum-state)"
            }
            Rule::VoteLogCheck => "KafkaRaftClient.handleVoteRequest: isLogUpToDate",
            Rule::HwEpochStart => {
                "LeaderState.maybeUpdateHighWatermark: highWatermark > epochStartOffset"
            }
            Rule::CheckQuorum => "LeaderState.timeUntilCheckQuorumExpires in pollLeader",
            Rule::RevertOnRenounce => {
                "QuorumController.renounce -> SnapshotRegistry.revertToSnapshot(lastStableOffset)"
            }
            Rule::SnapshotAfterReplay => {
                "QuorumController replay, then OffsetControlManager.handleScheduleAppend"
            }
            Rule::LoaderCatchUp => "MetadataLoader.stillNeedToCatchUp",
            Rule::SessionFencing => "QuorumController.maybeFenceStaleBroker",
            Rule::SingleVoterChange => {
                "AddVoterHandler/RemoveVoterHandler: no uncommitted VotersRecord"
            }
            Rule::IsrHighWatermark => {
                "Partition.maybeIncrementLeaderHW: the smallest LEO of the ISR"
            }
        }
    }

    /// When the rule may be switched: the loader's catch-up acts when a loader starts, so it
    /// is set before `cluster` (off from then on, also for restarted brokers); every other
    /// rule is read at every event and may be switched at any time.
    pub fn switchable(self) -> Switchable {
        match self {
            Rule::LoaderCatchUp => Switchable::BeforeCluster,
            _ => Switchable::Anytime,
        }
    }
}

/// One switch per rule; all on by default (Kafka as it is).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// [`Rule::PreVote`]
    pub prevote: bool,
    /// [`Rule::DurableVote`]
    pub durable_vote: bool,
    /// [`Rule::VoteLogCheck`]
    pub vote_log_check: bool,
    /// [`Rule::HwEpochStart`]
    pub hw_epoch_start: bool,
    /// [`Rule::CheckQuorum`]
    pub check_quorum: bool,
    /// [`Rule::RevertOnRenounce`]
    pub revert_on_renounce: bool,
    /// [`Rule::SnapshotAfterReplay`]
    pub snapshot_after_replay: bool,
    /// [`Rule::LoaderCatchUp`]
    pub loader_catch_up: bool,
    /// [`Rule::SessionFencing`]
    pub session_fencing: bool,
    /// [`Rule::SingleVoterChange`]
    pub single_voter_change: bool,
    /// [`Rule::IsrHighWatermark`]
    pub isr_high_watermark: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            prevote: true,
            durable_vote: true,
            vote_log_check: true,
            hw_epoch_start: true,
            check_quorum: true,
            revert_on_renounce: true,
            snapshot_after_replay: true,
            loader_catch_up: true,
            session_fencing: true,
            single_voter_change: true,
            isr_high_watermark: true,
        }
    }
}

impl Rules {
    /// The switch of `rule`.
    pub fn get(&self, rule: Rule) -> bool {
        match rule {
            Rule::PreVote => self.prevote,
            Rule::DurableVote => self.durable_vote,
            Rule::VoteLogCheck => self.vote_log_check,
            Rule::HwEpochStart => self.hw_epoch_start,
            Rule::CheckQuorum => self.check_quorum,
            Rule::RevertOnRenounce => self.revert_on_renounce,
            Rule::SnapshotAfterReplay => self.snapshot_after_replay,
            Rule::LoaderCatchUp => self.loader_catch_up,
            Rule::SessionFencing => self.session_fencing,
            Rule::SingleVoterChange => self.single_voter_change,
            Rule::IsrHighWatermark => self.isr_high_watermark,
        }
    }

    /// Switch `rule` on or off.
    pub fn set(&mut self, rule: Rule, on: bool) {
        let slot = match rule {
            Rule::PreVote => &mut self.prevote,
            Rule::DurableVote => &mut self.durable_vote,
            Rule::VoteLogCheck => &mut self.vote_log_check,
            Rule::HwEpochStart => &mut self.hw_epoch_start,
            Rule::CheckQuorum => &mut self.check_quorum,
            Rule::RevertOnRenounce => &mut self.revert_on_renounce,
            Rule::SnapshotAfterReplay => &mut self.snapshot_after_replay,
            Rule::LoaderCatchUp => &mut self.loader_catch_up,
            Rule::SessionFencing => &mut self.session_fencing,
            Rule::SingleVoterChange => &mut self.single_voter_change,
            Rule::IsrHighWatermark => &mut self.isr_high_watermark,
        };
        *slot = on;
    }

    /// The rules switched off, in [`Rule::ALL`] order.
    pub fn off(&self) -> Vec<Rule> {
        Rule::ALL.into_iter().filter(|r| !self.get(*r)).collect()
    }
}

/// Reads `on` or `off` (the value of `set rule.<name>=...`).
pub fn parse_switch(name: &str, value: &str) -> Result<bool, String> {
    match value.trim() {
        "on" => Ok(true),
        "off" => Ok(false),
        other => Err(format!("set: rule.{name} takes on or off, not '{other}'")),
    }
}

/// `set`'s error for a rule name it does not know.
pub fn unknown_rule(name: &str) -> String {
    let names: Vec<&str> = Rule::ALL.iter().map(|r| r.name()).collect();
    format!("set: unknown rule '{name}' (one of: {})", names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_all_on_by_default() {
        let rules = Rules::default();
        for r in Rule::ALL {
            assert_eq!(Rule::from_name(r.name()), Some(r));
            assert!(rules.get(r), "{}", r.name());
            let mut off = rules;
            off.set(r, false);
            assert_eq!(off.off(), vec![r]);
        }
        assert_eq!(Rule::from_name("pre-vote"), None);
        assert!(unknown_rule("x").contains("durable-vote"));
        assert_eq!(parse_switch("prevote", " off"), Ok(false));
        assert!(parse_switch("prevote", "no")
            .unwrap_err()
            .contains("on or off"));
    }
}
