//! EventHandlerExceptionInfo: how the QuorumController words a failed event in its INFO line
//! (`QuorumController.handleEventException`), and the modelled time an event takes.

/// The time one controller event is modelled to take, in microseconds. Kafka measures it with
/// the wall clock (`time.nanoseconds()`); the simulation has virtual milliseconds only, so an
/// event that fails while it runs is reported as taking this fixed cost, and an event that
/// waited in the purgatory adds the virtual time it waited.
pub const EVENT_PROCESSING_US: u64 = 120;

/// The microseconds an event that started at `start_ms` has taken at `now_ms`.
pub fn event_duration_us(start_ms: u64, now_ms: u64) -> u64 {
    now_ms.saturating_sub(start_ms) * 1000 + EVENT_PROCESSING_US
}

/// What an exception thrown inside a controller event means (`EventHandlerExceptionInfo`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventHandlerExceptionInfo {
    /// The internal exception's simple class name, e.g. `NotLeaderException`.
    pub internal: &'static str,
    /// The exception shown to RPC callers when it differs (`NotControllerException`).
    pub external: Option<&'static str>,
    /// True when the exception makes the active controller renounce.
    pub causes_failover: bool,
    /// The internal exception's message.
    pub message: Option<String>,
}

impl EventHandlerExceptionInfo {
    /// `fromInternal(NotLeaderException)`: Raft refused an append because this replica is not
    /// the leader (e.g. it resigned on its check-quorum timer); the controller fails over.
    pub fn not_leader() -> Self {
        EventHandlerExceptionInfo {
            internal: "NotLeaderException",
            external: Some("NotControllerException"),
            causes_failover: true,
            message: Some("Append failed because the replica is not the current leader".into()),
        }
    }

    /// An ApiException passed through unchanged (no failover), e.g.
    /// `DuplicateBrokerRegistrationException`.
    pub fn api(exception: &'static str, message: String) -> Self {
        EventHandlerExceptionInfo {
            internal: exception,
            external: None,
            causes_failover: false,
            message: Some(message),
        }
    }

    /// `ControllerExceptions.newWrongControllerException(controllerId)`.
    pub fn wrong_controller(controller_id: Option<i32>) -> Self {
        let message = match controller_id {
            Some(id) => format!("The active controller appears to be node {id}."),
            None => "No controller appears to be active.".into(),
        };
        Self::api("NotControllerException", message)
    }

    /// `failureMessage(epoch, deltaUs, isActiveController, lastCommittedOffset)`: the text
    /// after `<event name>: ` (every write event here has started, so `deltaUs` is known).
    pub fn failure_message(
        &self,
        epoch: i32,
        delta_us: u64,
        is_active_controller: bool,
        last_committed_offset: i64,
    ) -> String {
        let mut b = format!("event failed with {}", self.internal);
        if let Some(e) = self.external {
            b.push_str(&format!(" (treated as {e})"));
        }
        if self.causes_failover {
            b.push_str(&format!(" at epoch {epoch}"));
        }
        b.push_str(&format!(" in {delta_us} microseconds"));
        if self.causes_failover {
            if is_active_controller {
                b.push_str(&format!(
                    ". Renouncing leadership and reverting to the last committed offset {last_committed_offset}"
                ));
            } else {
                b.push_str(". The controller is already in standby mode");
            }
        }
        b.push('.');
        if let Some(m) = &self.message {
            b.push_str(" Exception message: ");
            b.push_str(m);
        }
        b
    }
}

/// `System.identityHashCode` of a controller event, as its `toString()` (`name(hash)`) shows
/// it: the JVM's value is arbitrary, so the simulation derives a 31-bit number from the node
/// and the event's sequence number (SplitMix64), without drawing from the run's RNG.
pub fn identity_hash_code(node_id: i32, event_seq: u64) -> i32 {
    let mut z = ((node_id as u32 as u64) << 40) ^ event_seq;
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 33) as i32 & 0x7fff_ffff
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failure_messages_are_worded_as_kafka_words_them() {
        assert_eq!(
            EventHandlerExceptionInfo::not_leader().failure_message(5, 212, true, 1234),
            "event failed with NotLeaderException (treated as NotControllerException) at epoch 5 in 212 microseconds. Renouncing leadership and reverting to the last committed offset 1234. Exception message: Append failed because the replica is not the current leader"
        );
        assert_eq!(
            EventHandlerExceptionInfo::not_leader().failure_message(5, 212, false, 1234),
            "event failed with NotLeaderException (treated as NotControllerException) at epoch 5 in 212 microseconds. The controller is already in standby mode. Exception message: Append failed because the replica is not the current leader"
        );
        assert_eq!(
            EventHandlerExceptionInfo::wrong_controller(None).failure_message(5, 51_234, false, 7),
            "event failed with NotControllerException in 51234 microseconds. Exception message: No controller appears to be active."
        );
        assert_eq!(
            EventHandlerExceptionInfo::wrong_controller(Some(102)).failure_message(5, 120, false, 7),
            "event failed with NotControllerException in 120 microseconds. Exception message: The active controller appears to be node 102."
        );
        assert_eq!(event_duration_us(1_000, 1_051), 51_120);
    }

    #[test]
    fn identity_hash_codes_are_stable_positive_and_spread() {
        let a = identity_hash_code(1, 7);
        assert_eq!(a, identity_hash_code(1, 7));
        assert!(a >= 0);
        assert_ne!(a, identity_hash_code(1, 8));
        assert_ne!(a, identity_hash_code(2, 7));
    }
}
