//! BrokerHeartbeatTracker: when the active controller last heard from each (broker id, broker
//! epoch), updated as a heartbeat arrives (before its event is queued), for the session timeout.
//! Kafka keeps these in a `ConcurrentHashMap` and fences the first expired entry its iterator
//! finds, so the entries are kept in that map's iteration order here.

/// `BrokerIdAndEpoch`: a broker incarnation's session key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BrokerIdAndEpoch {
    /// The broker id.
    pub id: i32,
    /// The broker epoch.
    pub epoch: i64,
}

impl BrokerIdAndEpoch {
    /// The hash code of the Java record `BrokerIdAndEpoch(int id, long epoch)`:
    /// `31 * Integer.hashCode(id) + Long.hashCode(epoch)`.
    fn java_hash_code(&self) -> i32 {
        let long_hash = (self.epoch ^ ((self.epoch as u64) >> 32) as i64) as i32;
        self.id.wrapping_mul(31).wrapping_add(long_hash)
    }

    /// `ConcurrentHashMap.spread`: the hash a bin index is taken from.
    fn spread(&self) -> usize {
        let h = self.java_hash_code() as u32;
        ((h ^ (h >> 16)) & 0x7fff_ffff) as usize
    }
}

/// The table size of a new `ConcurrentHashMap`.
const INITIAL_CAPACITY: usize = 16;

/// Contact times (virtual ms) by (id, epoch), in `ConcurrentHashMap` bins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokerHeartbeatTracker {
    /// broker.session.timeout.ms
    session_timeout_ms: u64,
    /// The bins, each in list order (new entries go to the tail).
    table: Vec<Vec<(BrokerIdAndEpoch, u64)>>,
    /// How many entries the map holds.
    count: usize,
}

impl BrokerHeartbeatTracker {
    /// An empty tracker.
    pub fn new(session_timeout_ms: u64) -> Self {
        BrokerHeartbeatTracker {
            session_timeout_ms,
            table: vec![Vec::new(); INITIAL_CAPACITY],
            count: 0,
        }
    }

    /// broker.session.timeout.ms
    pub fn session_timeout_ms(&self) -> u64 {
        self.session_timeout_ms
    }

    /// `updateContactTime`: `key` was heard from at `now_ms`.
    pub fn update_contact_time(&mut self, key: BrokerIdAndEpoch, now_ms: u64) {
        let n = self.table.len();
        let bin = &mut self.table[key.spread() & (n - 1)];
        if let Some(e) = bin.iter_mut().find(|(k, _)| *k == key) {
            e.1 = now_ms;
            return;
        }
        bin.push((key, now_ms));
        self.count += 1;
        // addCount: resize once the count reaches sizeCtl (three quarters of the table).
        if self.count >= n - (n >> 2) {
            self.transfer();
        }
    }

    /// `ConcurrentHashMap.transfer` to a table twice as large: each bin splits into a low and a
    /// high list; the run at the end of a bin that goes one way keeps its order, the nodes
    /// before it are prepended one by one.
    fn transfer(&mut self) {
        let n = self.table.len();
        let mut next = vec![Vec::new(); 2 * n];
        for (i, bin) in std::mem::take(&mut self.table).into_iter().enumerate() {
            if bin.is_empty() {
                continue;
            }
            let high = |e: &(BrokerIdAndEpoch, u64)| e.0.spread() & n != 0;
            let mut last_run = 0;
            for j in 1..bin.len() {
                if high(&bin[j]) != high(&bin[j - 1]) {
                    last_run = j;
                }
            }
            let run_high = high(&bin[last_run]);
            let (mut lo, mut hi): (Vec<_>, Vec<_>) = if run_high {
                (Vec::new(), bin[last_run..].to_vec())
            } else {
                (bin[last_run..].to_vec(), Vec::new())
            };
            for e in bin[..last_run].iter() {
                if high(e) {
                    hi.insert(0, *e);
                } else {
                    lo.insert(0, *e);
                }
            }
            next[i] = lo;
            next[i + n] = hi;
        }
        self.table = next;
    }

    /// `contactTime`: when `key` was last heard from.
    pub fn contact_time(&self, key: BrokerIdAndEpoch) -> Option<u64> {
        self.entries().find(|(k, _)| *k == key).map(|(_, t)| t)
    }

    /// Every entry with its contact time, in the map's iteration order.
    pub fn entries(&self) -> impl Iterator<Item = (BrokerIdAndEpoch, u64)> + '_ {
        self.table.iter().flatten().copied()
    }

    /// `isExpired`: strictly more than a session has passed since `time_ms`.
    pub fn is_expired(&self, time_ms: u64, now_ms: u64) -> bool {
        now_ms > time_ms && time_ms + self.session_timeout_ms < now_ms
    }

    /// `maybeRemoveExpired`: remove and return the first expired entry the iterator finds.
    pub fn maybe_remove_expired(&mut self, now_ms: u64) -> Option<BrokerIdAndEpoch> {
        let key = self
            .entries()
            .find(|(_, t)| self.is_expired(*t, now_ms))
            .map(|(k, _)| k)?;
        self.remove(key);
        Some(key)
    }

    fn remove(&mut self, key: BrokerIdAndEpoch) {
        for bin in self.table.iter_mut() {
            if let Some(i) = bin.iter().position(|(k, _)| *k == key) {
                bin.remove(i);
                self.count -= 1;
                return;
            }
        }
    }

    /// `hasValidSession`: `key` is tracked and its session has not expired.
    pub fn has_valid_session(&self, key: BrokerIdAndEpoch, now_ms: u64) -> bool {
        self.contact_time(key)
            .is_some_and(|t| !self.is_expired(t, now_ms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(id: i32, epoch: i64) -> BrokerIdAndEpoch {
        BrokerIdAndEpoch { id, epoch }
    }

    #[test]
    fn iteration_follows_concurrent_hash_map_bins() {
        // JDK 17: new ConcurrentHashMap<BrokerIdAndEpoch, Long>() after putting (1,9), (2,3),
        // (3,20) iterates (2,3), (3,20), (1,9): bins 40 & 15 = 8, 65 & 15 = 1, 113 & 15 = 1.
        let mut t = BrokerHeartbeatTracker::new(9_000);
        for k in [key(1, 9), key(2, 3), key(3, 20)] {
            t.update_contact_time(k, 0);
        }
        let order: Vec<_> = t.entries().map(|(k, _)| k).collect();
        assert_eq!(order, vec![key(2, 3), key(3, 20), key(1, 9)]);
        // An update keeps the entry where it is.
        t.update_contact_time(key(2, 3), 5);
        assert_eq!(t.entries().next(), Some((key(2, 3), 5)));
    }

    #[test]
    fn the_table_doubles_at_twelve_entries_and_keeps_every_entry() {
        let mut t = BrokerHeartbeatTracker::new(9_000);
        for id in 0..40 {
            t.update_contact_time(key(id, 100 + id as i64), id as u64);
        }
        assert_eq!(t.table.len(), 64);
        let mut seen: Vec<_> = t.entries().map(|(k, _)| k.id).collect();
        seen.sort();
        assert_eq!(seen, (0..40).collect::<Vec<_>>());
        for (k, _) in t.entries() {
            assert_eq!(
                t.table.iter().position(|b| b.iter().any(|(x, _)| *x == k)),
                Some(k.spread() & 63)
            );
        }
    }

    #[test]
    fn expiry_is_strict_and_removes_one_entry_at_a_time() {
        let mut t = BrokerHeartbeatTracker::new(9_000);
        t.update_contact_time(key(1, 10), 1_000);
        t.update_contact_time(key(2, 11), 1_000);
        assert_eq!(t.maybe_remove_expired(10_000), None);
        assert!(t.has_valid_session(key(1, 10), 10_000));
        let first = t.maybe_remove_expired(10_001).expect("one expired");
        let second = t.maybe_remove_expired(10_001).expect("the other");
        assert_ne!(first, second);
        assert_eq!(t.maybe_remove_expired(10_001), None);
        assert!(!t.has_valid_session(key(1, 10), 10_001));
    }
}
