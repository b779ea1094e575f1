//! BrokerHeartbeatManager: the active controller's in-memory record of when each broker last
//! heartbeated, for the session timeout. Not replicated: a new active controller starts every
//! unfenced broker's session afresh.

use std::collections::{BTreeMap, VecDeque};

/// One broker's heartbeat state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrokerHeartbeatState {
    /// Virtual time of the last heartbeat (or of activation).
    pub last_contact_ms: u64,
    /// currentMetadataOffset of the last heartbeat.
    pub metadata_offset: i64,
    /// Whether the controller considers it fenced.
    pub fenced: bool,
}

/// Heartbeats by broker id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BrokerHeartbeatManager {
    /// The brokers.
    pub brokers: BTreeMap<i32, BrokerHeartbeatState>,
    /// The last [`RECENT_CONTACTS`] contact times of each broker, oldest first (for the
    /// page's heartbeat timeline; Kafka keeps only the last).
    pub recent: BTreeMap<i32, VecDeque<u64>>,
}

/// How many contact times per broker [`BrokerHeartbeatManager::recent`] keeps.
pub const RECENT_CONTACTS: usize = 8;

impl BrokerHeartbeatManager {
    /// `touch`: a heartbeat (or a registration) arrived.
    pub fn touch(&mut self, broker_id: i32, fenced: bool, metadata_offset: i64, now_ms: u64) {
        let recent = self.recent.entry(broker_id).or_default();
        if recent.back() != Some(&now_ms) {
            recent.push_back(now_ms);
        }
        while recent.len() > RECENT_CONTACTS {
            recent.pop_front();
        }
        self.brokers.insert(
            broker_id,
            BrokerHeartbeatState {
                last_contact_ms: now_ms,
                metadata_offset,
                fenced,
            },
        );
    }

    /// `fence`: stop tracking the session of a fenced broker.
    pub fn fence(&mut self, broker_id: i32) {
        if let Some(b) = self.brokers.get_mut(&broker_id) {
            b.fenced = true;
        }
    }

    /// `findOneStaleBroker`: an unfenced broker whose session has timed out (lowest id first).
    pub fn find_one_stale_broker(&self, now_ms: u64, session_timeout_ms: u64) -> Option<i32> {
        self.brokers
            .iter()
            .find(|(_, b)| {
                !b.fenced && now_ms.saturating_sub(b.last_contact_ms) >= session_timeout_ms
            })
            .map(|(id, _)| *id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broker_goes_stale_after_the_session_timeout_unless_fenced() {
        let mut h = BrokerHeartbeatManager::default();
        h.touch(1, false, 10, 0);
        h.touch(2, false, 10, 5_000);
        assert_eq!(h.find_one_stale_broker(8_999, 9_000), None);
        assert_eq!(h.find_one_stale_broker(9_000, 9_000), Some(1));
        h.fence(1);
        assert_eq!(h.find_one_stale_broker(14_000, 9_000), Some(2));
    }

    #[test]
    fn the_last_few_contacts_are_kept_oldest_first() {
        let mut h = BrokerHeartbeatManager::default();
        for t in 0..12u64 {
            h.touch(1, false, 10, t * 2_000);
        }
        h.touch(1, false, 10, 22_000);
        let kept: Vec<u64> = h.recent[&1].iter().copied().collect();
        assert_eq!(kept, (4..12u64).map(|t| t * 2_000).collect::<Vec<_>>());
        assert_eq!(kept.len(), RECENT_CONTACTS);
    }
}
