//! The world's side of a write's life: after each event, while a controller keeps a write
//! whose Raft-side steps are not all seen yet, read (never change) the leader's log end offset
//! and high watermark and each other voter's log end offset and committed offset, and stamp
//! the steps they passed.

use super::world::World;

impl World {
    /// Stamp the Raft-side steps of the write lives still observed (a no-op when none is).
    pub(super) fn observe_write_lives(&mut self) {
        let observing: Vec<i32> = self
            .nodes
            .iter()
            .filter(|(_, n)| {
                n.controller
                    .as_ref()
                    .is_some_and(|c| c.write_lives.observing())
            })
            .map(|(id, _)| *id)
            .collect();
        for id in observing {
            self.observe_write_lives_of(id);
        }
    }

    /// Stamp the lives kept by the controller on node `leader`.
    fn observe_write_lives_of(&mut self, leader: i32) {
        let now = self.now_ms;
        let others: Vec<(i32, i64, Option<i64>)> = self
            .voters
            .iter()
            .map(|v| v.key.id)
            .filter(|&id| id != leader)
            .filter_map(|id| {
                let n = self.nodes.get(&id)?;
                let committed = n
                    .controller
                    .as_ref()
                    .map(|c| c.offset_control.last_committed_offset);
                Some((id, n.disk.metadata_log.end_offset(), committed))
            })
            .collect();
        let Some(node) = self.nodes.get_mut(&leader) else {
            return;
        };
        let end = node.disk.metadata_log.end_offset();
        let hw = node.raft.as_ref().and_then(|r| r.high_watermark());
        if let Some(c) = node.controller.as_mut() {
            for life in c.write_lives.observing_mut() {
                life.observe(now, end, hw, &others);
            }
            c.write_lives.settle();
        }
    }
}
