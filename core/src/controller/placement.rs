//! Kafka's `StripedReplicaPlacer` (metadata/placement): replicas striped over racks, then over
//! the brokers of each rack, the first replica always on an unfenced broker, later replicas on
//! unfenced brokers first and fenced ones after.
//!
//! Kafka draws from the controller's `java.util.Random`; the simulation draws from the world's
//! [`SimRng`] in the same places and order, so the number of draws matches Kafka's:
//! - per `place` call (one topic), for each rack: `initialize` the fenced list, then the
//!   unfenced list — one `nextInt(size)` each for the start offset, none for an empty list;
//! - then one `nextInt(rackCount)` for the rack offset (drawn even with one rack);
//! - each time as many partitions as there are unfenced brokers (more than one) have been
//!   placed: `shuffle` — `Collections.shuffle` of the rack names, then of each rack's fenced
//!   and unfenced lists (`nextInt(i)` for `i = size..2`).
//!
//! Racks are visited in sorted name order where Kafka iterates a `HashMap`; simulated brokers
//! have no rack, so there is only one rack and the order cannot differ.

use crate::common::rng::SimRng;
use std::collections::BTreeMap;

/// `UsableBroker`: a registered broker placement may use, with its rack and whether the
/// heartbeat manager holds it fenced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsableBroker {
    /// The broker id.
    pub id: i32,
    /// Its rack (`broker.rack`), `None` when unset.
    pub rack: Option<String>,
    /// Whether it is fenced.
    pub fenced: bool,
}

/// `BrokerList`: brokers iterated from a random offset, one pass per iteration epoch.
#[derive(Clone, Debug, Default)]
struct BrokerList {
    brokers: Vec<i32>,
    index: usize,
    offset: usize,
    epoch: i32,
}

impl BrokerList {
    /// `initialize`: sort, then a random start offset.
    fn initialize(&mut self, rng: &mut SimRng) {
        if !self.brokers.is_empty() {
            self.brokers.sort_unstable();
            self.offset = rng.below(self.brokers.len() as u64) as usize;
        }
    }

    /// `shuffle`: `Collections.shuffle`.
    fn shuffle(&mut self, rng: &mut SimRng) {
        java_shuffle(&mut self.brokers, rng);
    }

    /// `next(epoch)`: the next broker of this epoch's pass, or `None` when it is done. A new
    /// epoch starts a pass one further along.
    fn next(&mut self, epoch: i32) -> Option<i32> {
        if self.brokers.is_empty() {
            return None;
        }
        if self.epoch != epoch {
            self.epoch = epoch;
            self.index = 0;
            self.offset = (self.offset + 1) % self.brokers.len();
        }
        if self.index >= self.brokers.len() {
            return None;
        }
        let broker = self.brokers[(self.index + self.offset) % self.brokers.len()];
        self.index += 1;
        Some(broker)
    }
}

/// `Rack`: its fenced and unfenced brokers.
#[derive(Clone, Debug, Default)]
struct Rack {
    fenced: BrokerList,
    unfenced: BrokerList,
}

impl Rack {
    /// `next`: an unfenced broker first, a fenced one when they are used up.
    fn next(&mut self, epoch: i32) -> Option<i32> {
        self.unfenced
            .next(epoch)
            .or_else(|| self.fenced.next(epoch))
    }
}

/// `Collections.shuffle(list, random)`: from the end, swap each element with a random one at
/// or before it.
fn java_shuffle<T>(list: &mut [T], rng: &mut SimRng) {
    for i in (2..=list.len()).rev() {
        let j = rng.below(i as u64) as usize;
        list.swap(i - 1, j);
    }
}

/// `RackList`: the racks of one `place` call.
struct RackList<'a> {
    rng: &'a mut SimRng,
    racks: BTreeMap<Option<String>, Rack>,
    rack_names: Vec<Option<String>>,
    num_total_brokers: usize,
    num_unfenced_brokers: usize,
    epoch: i32,
    offset: usize,
}

impl<'a> RackList<'a> {
    fn new(rng: &'a mut SimRng, brokers: &[UsableBroker]) -> Self {
        let mut racks: BTreeMap<Option<String>, Rack> = BTreeMap::new();
        let mut rack_names = Vec::new();
        let (mut total, mut unfenced) = (0, 0);
        for b in brokers {
            let rack = racks.entry(b.rack.clone()).or_insert_with(|| {
                rack_names.push(b.rack.clone());
                Rack::default()
            });
            if b.fenced {
                rack.fenced.brokers.push(b.id);
            } else {
                unfenced += 1;
                rack.unfenced.brokers.push(b.id);
            }
            total += 1;
        }
        for rack in racks.values_mut() {
            rack.fenced.initialize(rng);
            rack.unfenced.initialize(rng);
        }
        rack_names.sort();
        let offset = if rack_names.is_empty() {
            0
        } else {
            rng.below(rack_names.len() as u64) as usize
        };
        RackList {
            rng,
            racks,
            rack_names,
            num_total_brokers: total,
            num_unfenced_brokers: unfenced,
            epoch: 0,
            offset,
        }
    }

    fn rack(&mut self, index: usize) -> &mut Rack {
        let name = &self.rack_names[index];
        self.racks
            .get_mut(name)
            .expect("every rack name has a rack")
    }

    /// `place`: one partition's replicas (the caller has checked the factor).
    fn place(&mut self, replication_factor: usize) -> Vec<i32> {
        // After as many partitions as there are unfenced brokers, reshuffle to avoid repeating
        // the same assignments (not for a single unfenced broker: that would loop forever).
        if self.epoch as usize == self.num_unfenced_brokers && self.num_unfenced_brokers > 1 {
            self.shuffle();
            self.epoch = 0;
        }
        if self.offset == self.rack_names.len() {
            self.offset = 0;
        }
        let epoch = self.epoch;
        let mut brokers = Vec::with_capacity(replication_factor);
        // The first replica: the first rack from the offset with an unfenced broker left.
        let mut first_rack_index = self.offset as isize;
        loop {
            if let Some(b) = self.rack(first_rack_index as usize).unfenced.next(epoch) {
                brokers.push(b);
                break;
            }
            first_rack_index += 1;
            if first_rack_index as usize == self.rack_names.len() {
                first_rack_index = 0;
            }
        }
        let mut rack_index = self.offset;
        for _ in 1..replication_factor {
            let mut result = None;
            while result.is_none() {
                if rack_index as isize == first_rack_index {
                    first_rack_index = -1;
                } else {
                    result = self.rack(rack_index).next(epoch);
                }
                rack_index += 1;
                if rack_index == self.rack_names.len() {
                    rack_index = 0;
                }
            }
            brokers.extend(result);
        }
        self.epoch += 1;
        self.offset += 1;
        brokers
    }

    fn shuffle(&mut self) {
        java_shuffle(&mut self.rack_names, self.rng);
        for rack in self.racks.values_mut() {
            rack.fenced.shuffle(self.rng);
            rack.unfenced.shuffle(self.rng);
        }
    }
}

/// `StripedReplicaPlacer.place`: the replicas of `num_partitions` partitions of
/// `replication_factor` each over `brokers`, or the `InvalidReplicationFactorException`
/// message. Fenced brokers count towards the factor and may hold later replicas; at least one
/// broker must be unfenced.
pub fn place(
    rng: &mut SimRng,
    num_partitions: i32,
    replication_factor: i16,
    brokers: &[UsableBroker],
) -> Result<Vec<Vec<i32>>, String> {
    let mut racks = RackList::new(rng, brokers);
    if replication_factor <= 0 {
        return Err(format!(
            "Invalid replication factor {replication_factor}: the replication factor must be positive."
        ));
    }
    if racks.num_unfenced_brokers == 0 {
        return Err(
            "All brokers are currently fenced, or have all their log directories cordoned.".into(),
        );
    }
    if replication_factor as usize > racks.num_total_brokers {
        return Err(format!(
            "The target replication factor of {replication_factor} cannot be reached because only {} broker(s) are registered or some brokers have all their log directories cordoned.",
            racks.num_total_brokers
        ));
    }
    Ok((0..num_partitions.max(0))
        .map(|_| racks.place(replication_factor as usize))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brokers(unfenced: &[i32], fenced: &[i32]) -> Vec<UsableBroker> {
        let mk = |id: i32, fenced: bool| UsableBroker {
            id,
            rack: None,
            fenced,
        };
        unfenced
            .iter()
            .map(|&i| mk(i, false))
            .chain(fenced.iter().map(|&i| mk(i, true)))
            .collect()
    }

    #[test]
    fn placement_stripes_consecutive_brokers_from_a_random_start() {
        for seed in 0..50 {
            let mut rng = SimRng::new(seed);
            let p = place(&mut rng, 3, 2, &brokers(&[1, 2, 3], &[])).unwrap();
            // One pass per partition, each one further along; every broker leads once.
            let mut leaders: Vec<i32> = p.iter().map(|r| r[0]).collect();
            leaders.sort();
            assert_eq!(leaders, vec![1, 2, 3], "seed {seed}: {p:?}");
            for r in &p {
                assert_eq!(r[1], r[0] % 3 + 1, "seed {seed}: {p:?}");
            }
        }
    }

    #[test]
    fn placement_uses_fenced_brokers_only_as_followers() {
        for seed in 0..50 {
            let mut rng = SimRng::new(seed);
            let p = place(&mut rng, 6, 3, &brokers(&[1, 2], &[3])).unwrap();
            for r in &p {
                assert_ne!(r[0], 3, "seed {seed}: {p:?}");
                assert_eq!(r[2], 3, "seed {seed}: the fenced broker comes last: {p:?}");
                let mut s = r.clone();
                s.sort();
                assert_eq!(s, vec![1, 2, 3]);
            }
        }
    }

    #[test]
    fn placement_errors_carry_kafkas_texts_in_kafkas_order() {
        let mut rng = SimRng::new(1);
        assert_eq!(
            place(&mut rng, 1, 0, &[]).unwrap_err(),
            "Invalid replication factor 0: the replication factor must be positive."
        );
        assert_eq!(
            place(&mut rng, 1, 4, &brokers(&[], &[1, 2, 3])).unwrap_err(),
            "All brokers are currently fenced, or have all their log directories cordoned."
        );
        assert_eq!(
            place(&mut rng, 1, 4, &brokers(&[1], &[2, 3])).unwrap_err(),
            "The target replication factor of 4 cannot be reached because only 3 broker(s) are registered or some brokers have all their log directories cordoned."
        );
    }

    #[test]
    fn placement_reshuffles_after_one_round_per_unfenced_broker() {
        // 1 rack, 3 unfenced: two initialize draws (fenced list empty: none), one rack offset
        // draw; after 3 partitions a shuffle of 3 brokers draws twice.
        let mut a = SimRng::new(9);
        let mut b = SimRng::new(9);
        place(&mut a, 4, 1, &brokers(&[1, 2, 3], &[])).unwrap();
        for _ in 0..(1 + 1 + 2) {
            b.next_u64();
        }
        assert_eq!(a, b);
    }

    #[test]
    fn java_shuffle_draws_like_collections_shuffle() {
        let mut rng = SimRng::new(5);
        let mut v = vec![1, 2, 3, 4];
        java_shuffle(&mut v, &mut rng);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, vec![1, 2, 3, 4]);
    }
}
