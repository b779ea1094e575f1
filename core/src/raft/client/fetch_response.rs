//! The follower side of Fetch: `handleFetchResponse` truncates on a diverging epoch, starts a
//! snapshot download, or appends the records and moves the high watermark.

use super::{KafkaRaftClient, RaftResult};
use crate::common::node_log::Level;
use crate::common::protocol::Errors;
use crate::raft::io::{loggers, RaftIo};
use crate::raft::messages::*;
use crate::raft::state::EpochState;

impl KafkaRaftClient {
    /// `handleFetchResponse`: follow the leader's answer; `Ok(false)` on an error to back off.
    pub(super) fn handle_fetch_response(
        &mut self,
        from: i32,
        r: FetchResponse,
        io: &mut RaftIo,
    ) -> RaftResult<bool> {
        if let Some(done) =
            self.maybe_handle_common_response(r.error, r.leader_id, r.leader_epoch, io)?
        {
            return Ok(done);
        }
        if r.error != Errors::None {
            self.log(
                io,
                Level::Error,
                format!(
                    "Unexpected error {} in FETCH response from {from}",
                    r.error.name()
                ),
            );
            return Ok(false);
        }
        let EpochState::Follower(f) = &self.quorum.state else {
            return Ok(true);
        };
        if f.leader_id != from {
            // A response from a bootstrap server that is not our leader: nothing to take.
            return Ok(true);
        }
        let now = io.now_ms;
        if let Some(d) = r.diverging_epoch {
            if let Some(hw) = f.high_watermark {
                if d.offset < hw {
                    return Err(format!(
                        "The leader requested truncation to offset {} , which is below the current high watermark {hw}",
                        d.offset
                    ));
                }
            }
            let to = io.disk.metadata_log.truncate_to_end_offset(d);
            self.truncate_partition_state(to, io);
            self.log(
                io,
                Level::Info,
                format!("Truncated to offset {to} from Fetch response from leader {from}"),
            );
            // The high watermark is not updated after a truncation.
            if let EpochState::Follower(f) = &mut self.quorum.state {
                f.reset_fetch_timeout_for_successful_fetch(now);
            }
            return Ok(true);
        } else if let Some(id) = r.snapshot_id {
            // The HW is not updated on this path.
            self.begin_fetching_snapshot(from, id, io);
            if let EpochState::Follower(f) = &mut self.quorum.state {
                f.reset_fetch_timeout_for_successful_fetch(now);
            }
            return Ok(true);
        } else if !r.records.is_empty() {
            io.disk.metadata_log.append_as_follower(&r.records)?;
            self.update_partition_state(io);
        }
        let end = io.disk.metadata_log.end_offset();
        let prefix = self.prefix.clone();
        if let EpochState::Follower(f) = &mut self.quorum.state {
            if r.high_watermark >= 0 {
                let new_hw = end.min(r.high_watermark);
                match f.high_watermark {
                    None => {
                        f.high_watermark = Some(new_hw);
                        let epoch = f.epoch;
                        io.log_line(
                            Level::Info,
                            &prefix,
                            loggers::FOLLOWER_STATE,
                            format!("High watermark set to Optional[LogOffsetMetadata(offset={new_hw}, metadata=Optional.empty)] for the first time for epoch {epoch}"),
                        );
                    }
                    Some(hw) if new_hw > hw => f.high_watermark = Some(new_hw),
                    _ => {}
                }
            }
            f.reset_fetch_timeout_for_successful_fetch(now);
        }
        Ok(true)
    }
}
