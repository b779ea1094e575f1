//! BrokerHeartbeatManager: the active controller's soft state about brokers — whether each is
//! fenced, the metadata offset it last reported, the offset at which its controlled shutdown
//! completes — and the BrokerHeartbeatTracker of sessions. Not replicated: a new active
//! controller starts it afresh (`ClusterControlManager.activate`), which is why it may take a
//! session longer to fence a broker after a failover.

use super::heartbeat_tracker::{BrokerHeartbeatTracker, BrokerIdAndEpoch};
use std::collections::{BTreeMap, VecDeque};

/// The logger of the heartbeat manager's lines.
pub const LOGGER: &str = "org.apache.kafka.controller.BrokerHeartbeatManager";

/// One broker's `BrokerHeartbeatState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrokerHeartbeatState {
    /// Whether the controller considers it fenced.
    pub fenced: bool,
    /// The currentMetadataOffset of its last heartbeat (-1 when unknown).
    pub metadata_offset: i64,
    /// The offset at which its controlled shutdown completes, or -1 when not shutting down.
    pub controlled_shutdown_offset: i64,
}

impl BrokerHeartbeatState {
    /// `shuttingDown`: in controlled shutdown.
    pub fn shutting_down(&self) -> bool {
        self.controlled_shutdown_offset >= 0
    }

    /// Whether it counts for `lowestActiveOffset`: unfenced and not shutting down.
    fn is_active(&self) -> bool {
        !self.fenced && !self.shutting_down()
    }
}

/// `BrokerControlState`: where a broker stands, as a heartbeat moves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrokerControlState {
    /// FENCED
    Fenced,
    /// UNFENCED
    Unfenced,
    /// CONTROLLED_SHUTDOWN: unfenced, leadership being moved away.
    ControlledShutdown,
    /// SHUTDOWN_NOW: fenced, told to shut down.
    ShutdownNow,
}

impl BrokerControlState {
    /// Whether the broker is fenced in this state.
    pub fn fenced(&self) -> bool {
        matches!(
            self,
            BrokerControlState::Fenced | BrokerControlState::ShutdownNow
        )
    }

    /// Whether the broker is in controlled shutdown in this state.
    pub fn in_controlled_shutdown(&self) -> bool {
        *self == BrokerControlState::ControlledShutdown
    }

    /// Whether the broker should shut down now.
    pub fn should_shut_down(&self) -> bool {
        *self == BrokerControlState::ShutdownNow
    }
}

/// What a heartbeat asks for (the fields of BrokerHeartbeatRequest that
/// `calculateNextBrokerState` reads).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeartbeatAsk {
    /// wantFence
    pub want_fence: bool,
    /// wantShutDown
    pub want_shut_down: bool,
    /// currentMetadataOffset
    pub current_metadata_offset: i64,
}

/// The current and next state of a broker (`BrokerControlStates`), with the INFO line
/// `calculateNextBrokerState` logged, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokerControlStates {
    /// The state before the heartbeat.
    pub current: BrokerControlState,
    /// The state after it.
    pub next: BrokerControlState,
    /// The INFO line (logger [`LOGGER`]).
    pub line: Option<String>,
}

/// The heartbeat state of every registered broker, and the sessions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokerHeartbeatManager {
    /// The brokers, by id.
    pub brokers: BTreeMap<i32, BrokerHeartbeatState>,
    /// The sessions.
    pub tracker: BrokerHeartbeatTracker,
    /// The last [`RECENT_CONTACTS`] heartbeat arrival times of each broker, oldest first (for
    /// the page's heartbeat timeline; Kafka keeps only the last).
    pub recent: BTreeMap<i32, VecDeque<u64>>,
}

/// How many contact times per broker [`BrokerHeartbeatManager::recent`] keeps.
pub const RECENT_CONTACTS: usize = 8;

impl Default for BrokerHeartbeatManager {
    fn default() -> Self {
        BrokerHeartbeatManager::new(9_000)
    }
}

impl BrokerHeartbeatManager {
    /// An empty manager with sessions of `session_timeout_ms`.
    pub fn new(session_timeout_ms: u64) -> Self {
        BrokerHeartbeatManager {
            brokers: BTreeMap::new(),
            tracker: BrokerHeartbeatTracker::new(session_timeout_ms),
            recent: BTreeMap::new(),
        }
    }

    /// `ClusterControlManager.activate`: every registered broker `(id, epoch, fenced)` is
    /// registered with an unknown metadata offset (-1), and an unfenced one gets a session
    /// starting now.
    pub fn activate(
        brokers: impl IntoIterator<Item = (i32, i64, bool)>,
        session_timeout_ms: u64,
        now_ms: u64,
    ) -> Self {
        let mut m = BrokerHeartbeatManager::new(session_timeout_ms);
        for (id, epoch, fenced) in brokers {
            m.register(id, fenced);
            if !fenced {
                m.tracker
                    .update_contact_time(BrokerIdAndEpoch { id, epoch }, now_ms);
            }
        }
        m
    }

    /// `trackBrokerHeartbeat`: a heartbeat from (`id`, `epoch`) arrived at `now_ms`.
    pub fn track_broker_heartbeat(&mut self, id: i32, epoch: i64, now_ms: u64) {
        self.tracker
            .update_contact_time(BrokerIdAndEpoch { id, epoch }, now_ms);
        let recent = self.recent.entry(id).or_default();
        if recent.back() != Some(&now_ms) {
            recent.push_back(now_ms);
        }
        while recent.len() > RECENT_CONTACTS {
            recent.pop_front();
        }
    }

    /// `register`: track the broker if it is not yet, with its fencing state right. The
    /// metadata offset is kept only when the fencing state changes; otherwise it becomes
    /// unknown (-1) until the next heartbeat.
    pub fn register(&mut self, id: i32, fenced: bool) {
        let offset = match self.brokers.get(&id) {
            Some(b) if b.fenced != fenced => b.metadata_offset,
            Some(_) => -1,
            None => {
                self.brokers.insert(
                    id,
                    BrokerHeartbeatState {
                        fenced,
                        metadata_offset: -1,
                        controlled_shutdown_offset: -1,
                    },
                );
                -1
            }
        };
        self.touch(id, fenced, offset);
    }

    /// `remove`: forget the broker (a new incarnation registered, or it was unregistered).
    pub fn remove(&mut self, id: i32) {
        self.brokers.remove(&id);
    }

    /// `touch`: set the broker's fencing state and metadata offset; a fenced broker leaves
    /// controlled shutdown.
    pub fn touch(&mut self, id: i32, fenced: bool, metadata_offset: i64) {
        let b = self.brokers.entry(id).or_insert(BrokerHeartbeatState {
            fenced,
            metadata_offset,
            controlled_shutdown_offset: -1,
        });
        b.fenced = fenced;
        b.metadata_offset = metadata_offset;
        if fenced {
            b.controlled_shutdown_offset = -1;
        }
    }

    /// `fence`: mark the broker fenced (its session timed out).
    pub fn fence(&mut self, id: i32) {
        if let Some(b) = self.brokers.get_mut(&id) {
            b.fenced = true;
        }
    }

    /// `lowestActiveOffset`: the lowest metadata offset reported by an active broker
    /// (unfenced, not shutting down), or `i64::MAX` when there is none.
    pub fn lowest_active_offset(&self) -> i64 {
        self.brokers
            .values()
            .filter(|b| b.is_active())
            .map(|b| b.metadata_offset)
            .min()
            .unwrap_or(i64::MAX)
    }

    /// `maybeUpdateControlledShutdownOffset`: the broker's controlled shutdown completes at
    /// `offset` (set only the first time).
    pub fn maybe_update_controlled_shutdown_offset(
        &mut self,
        id: i32,
        offset: i64,
    ) -> Result<(), String> {
        let b = self
            .brokers
            .get_mut(&id)
            .ok_or_else(|| format!("Broker {id} is not registered."))?;
        if b.fenced {
            return Err("Fenced brokers cannot enter controlled shutdown.".into());
        }
        if b.controlled_shutdown_offset < 0 {
            b.controlled_shutdown_offset = offset;
        }
        Ok(())
    }

    /// `currentBrokerState`.
    pub fn current_broker_state(&self, id: i32) -> Option<BrokerControlState> {
        self.brokers.get(&id).map(|b| {
            if b.shutting_down() {
                BrokerControlState::ControlledShutdown
            } else if b.fenced {
                BrokerControlState::Fenced
            } else {
                BrokerControlState::Unfenced
            }
        })
    }

    /// `calculateNextBrokerState` for a heartbeat from broker `id` whose RegisterBrokerRecord
    /// is at `register_offset`; `has_leaderships` tells whether it leads a partition. `None`
    /// when the broker is not registered (Kafka throws IllegalStateException).
    pub fn calculate_next_broker_state(
        &self,
        id: i32,
        ask: HeartbeatAsk,
        register_offset: i64,
        has_leaderships: impl Fn() -> bool,
    ) -> Option<BrokerControlStates> {
        use BrokerControlState::*;
        let broker = self.brokers.get(&id)?;
        let current = self.current_broker_state(id)?;
        let (next, line) = match current {
            Fenced if ask.want_shut_down => (
                ShutdownNow,
                Some(format!(
                    "Fenced broker {id} has requested and been granted an immediate shutdown."
                )),
            ),
            Fenced if !ask.want_fence && ask.current_metadata_offset >= register_offset => (
                Unfenced,
                Some(format!(
                    "The request from broker {id} to unfence has been granted because it has caught up with the offset of its register broker record {register_offset}."
                )),
            ),
            Fenced => (Fenced, None),
            Unfenced if ask.want_fence && ask.want_shut_down => (
                ShutdownNow,
                Some(format!(
                    "Unfenced broker {id} has requested and been granted an immediate shutdown."
                )),
            ),
            Unfenced if ask.want_fence => (
                Fenced,
                Some(format!(
                    "Unfenced broker {id} has requested and been granted fencing"
                )),
            ),
            Unfenced if ask.want_shut_down && has_leaderships() => (
                ControlledShutdown,
                Some(format!(
                    "Unfenced broker {id} has requested and been granted a controlled shutdown."
                )),
            ),
            Unfenced if ask.want_shut_down => (
                ShutdownNow,
                Some(format!(
                    "Unfenced broker {id} has requested and been granted an immediate shutdown."
                )),
            ),
            Unfenced => (Unfenced, None),
            ControlledShutdown if has_leaderships() => (ControlledShutdown, None),
            ControlledShutdown => {
                let lowest = self.lowest_active_offset();
                if broker.controlled_shutdown_offset <= lowest {
                    (
                        ShutdownNow,
                        Some(format!(
                            "The request from broker {id} to shut down has been granted since the lowest active offset {lowest} is now greater than the broker's controlled shutdown offset {}.",
                            broker.controlled_shutdown_offset
                        )),
                    )
                } else {
                    (ControlledShutdown, None)
                }
            }
            ShutdownNow => (ShutdownNow, None),
        };
        Some(BrokerControlStates {
            current,
            next,
            line,
        })
    }

    /// The sessions of the brokers' current epochs: `(id, last contact)` for every broker
    /// whose registration `(id, epoch)` is tracked.
    pub fn sessions<'a>(
        &'a self,
        epochs: impl Fn(i32) -> Option<i64> + 'a,
    ) -> impl Iterator<Item = (i32, u64)> + 'a {
        self.tracker
            .entries()
            .filter(move |(k, _)| epochs(k.id) == Some(k.epoch))
            .map(|(k, t)| (k.id, t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use BrokerControlState::*;

    fn ask(want_fence: bool, want_shut_down: bool, offset: i64) -> HeartbeatAsk {
        HeartbeatAsk {
            want_fence,
            want_shut_down,
            current_metadata_offset: offset,
        }
    }

    fn next(
        m: &BrokerHeartbeatManager,
        id: i32,
        a: HeartbeatAsk,
        leads: bool,
    ) -> BrokerControlState {
        m.calculate_next_broker_state(id, a, 10, || leads)
            .unwrap()
            .next
    }

    #[test]
    fn next_broker_state_follows_calculate_next_broker_state() {
        let mut m = BrokerHeartbeatManager::new(9_000);
        m.register(1, true);
        assert_eq!(next(&m, 1, ask(true, false, 20), false), Fenced);
        assert_eq!(next(&m, 1, ask(false, false, 9), false), Fenced);
        assert_eq!(next(&m, 1, ask(false, false, 10), false), Unfenced);
        assert_eq!(next(&m, 1, ask(false, true, 10), true), ShutdownNow);
        m.touch(1, false, 10);
        assert_eq!(next(&m, 1, ask(true, false, 10), true), Fenced);
        assert_eq!(next(&m, 1, ask(true, true, 10), true), ShutdownNow);
        assert_eq!(next(&m, 1, ask(false, true, 10), true), ControlledShutdown);
        assert_eq!(next(&m, 1, ask(false, true, 10), false), ShutdownNow);
    }

    #[test]
    fn controlled_shutdown_waits_for_every_active_broker_to_reach_its_offset() {
        let mut m = BrokerHeartbeatManager::activate([(1, 5, false), (2, 6, false)], 9_000, 0);
        // Seeded at activation: offsets unknown (-1) until each heartbeats.
        assert_eq!(m.lowest_active_offset(), -1);
        m.touch(1, false, 40);
        m.maybe_update_controlled_shutdown_offset(1, 42).unwrap();
        m.maybe_update_controlled_shutdown_offset(1, 50).unwrap();
        assert_eq!(m.brokers[&1].controlled_shutdown_offset, 42);
        let still = m.calculate_next_broker_state(1, ask(false, true, 45), 10, || false);
        assert_eq!(still.unwrap().next, ControlledShutdown);
        m.touch(2, false, 42);
        let done = m
            .calculate_next_broker_state(1, ask(false, true, 45), 10, || false)
            .unwrap();
        assert_eq!(done.next, ShutdownNow);
        assert_eq!(done.line.unwrap(), "The request from broker 1 to shut down has been granted since the lowest active offset 42 is now greater than the broker's controlled shutdown offset 42.");
        // Fencing leaves controlled shutdown; with no active broker the lowest offset is MAX.
        m.touch(1, true, 45);
        m.touch(2, true, 45);
        assert_eq!(m.current_broker_state(1), Some(Fenced));
        assert_eq!(m.lowest_active_offset(), i64::MAX);
    }

    #[test]
    fn register_keeps_the_offset_only_when_fencing_changes() {
        let mut m = BrokerHeartbeatManager::new(9_000);
        m.register(1, true);
        m.touch(1, true, 30);
        m.register(1, false);
        assert_eq!(m.brokers[&1].metadata_offset, 30);
        m.register(1, false);
        assert_eq!(m.brokers[&1].metadata_offset, -1);
    }

    #[test]
    fn activation_starts_sessions_of_unfenced_brokers_only() {
        let m = BrokerHeartbeatManager::activate([(1, 5, false), (2, 6, true)], 9_000, 70);
        let sessions: Vec<_> = m.sessions(|id| Some(4 + id as i64)).collect();
        assert_eq!(sessions, vec![(1, 70)]);
    }

    #[test]
    fn the_last_few_contacts_are_kept_oldest_first() {
        let mut h = BrokerHeartbeatManager::default();
        for t in 0..12u64 {
            h.track_broker_heartbeat(1, 10, t * 2_000);
        }
        h.track_broker_heartbeat(1, 10, 22_000);
        let kept: Vec<u64> = h.recent[&1].iter().copied().collect();
        assert_eq!(kept, (4..12u64).map(|t| t * 2_000).collect::<Vec<_>>());
        assert_eq!(kept.len(), RECENT_CONTACTS);
    }
}
