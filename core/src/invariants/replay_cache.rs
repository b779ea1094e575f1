//! The committed log replayed once, incrementally: the controller and image checks compare a
//! node's state with the state after the committed records up to an offset. Replaying each
//! node's whole log for every change made the checks quadratic in the log's length (an idle
//! hour of NoOps); one replayer moves forward through the committed records and keeps the
//! summaries of the recent offsets asked for.

use crate::controller::QuorumController;
use crate::raft::batch::Record;
use std::collections::BTreeMap;

/// How many recent summaries are kept (nodes lag the newest committed offset by a few).
const RECENT: usize = 256;

/// The incremental replay of the committed log.
#[derive(Clone, Debug)]
pub struct CommittedReplay {
    replayer: QuorumController,
    /// The last offset replayed (-1: none).
    applied: i64,
    /// Summary text by offset, for the recent offsets asked for.
    recent: BTreeMap<i64, String>,
}

impl Default for CommittedReplay {
    fn default() -> Self {
        CommittedReplay {
            replayer: QuorumController::replayer(),
            applied: -1,
            recent: BTreeMap::new(),
        }
    }
}

impl CommittedReplay {
    /// The state after the committed records up to and including `upto`; `Ok(None)` when
    /// `upto` is not committed yet or is older than the replay and no longer kept (the caller
    /// replays the node's log instead).
    pub fn summary_at(
        &mut self,
        committed: &[(i32, Record)],
        upto: i64,
    ) -> Result<Option<String>, String> {
        if upto < 0 || upto >= committed.len() as i64 {
            return Ok(None);
        }
        if let Some(s) = self.recent.get(&upto) {
            return Ok(Some(s.clone()));
        }
        if upto < self.applied {
            return Ok(None);
        }
        for offset in self.applied + 1..=upto {
            if let (_, Record::Metadata(m)) = &committed[offset as usize] {
                self.replayer.replay_committed(m, offset)?;
            }
        }
        self.applied = upto;
        let s = self.replayer.state.summary();
        self.recent.insert(upto, s.clone());
        if self.recent.len() > RECENT {
            self.recent.pop_first();
        }
        Ok(Some(s))
    }
}
