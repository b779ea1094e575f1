//! The data partitions as their brokers hold them: each replica's log end offset and high
//! watermark on its own broker, and the leader's rule for the data high watermark (the
//! smallest log end offset of the ISR, Partition.scala's `maybeIncrementLeaderHW`). The
//! metadata log's rule (the offset a majority of the voters holds) is
//! [`super::HighWatermarkView`]: the page draws the two side by side.

use std::collections::BTreeMap;

use serde::Serialize;

use super::PartitionView;
use crate::broker::partition::{partition_name, Partition};
use crate::sim::node::{Node, ProcessState};
use crate::sim::World;

/// One data partition: its leader, ISR and each replica's offsets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DataPartitionView {
    /// The topic's name.
    pub topic: String,
    /// The partition id.
    pub partition: i32,
    /// The broker that leads it (as the newest leader epoch a running broker holds says; else
    /// as the active controller registered it), if any.
    pub leader: Option<i32>,
    /// The leader's epoch (-1 when no running broker leads it).
    pub leader_epoch: i32,
    /// The in-sync replicas: the leader's committed ISR, else the active controller's.
    pub isr: Vec<i32>,
    /// Every replica of the assignment, in assignment order.
    pub replicas: Vec<ReplicaOffsetsView>,
    /// The leader's high watermark (`None` without a running leader).
    pub leader_high_watermark: Option<i64>,
    /// The smallest log end offset of the leader's ISR as the leader knows it (its own LEO and
    /// the offsets its followers' fetches reported; a replica being added counts, as Kafka's
    /// maximal ISR): what the leader's HW moves up to. `None` without a running leader.
    pub isr_min_log_end_offset: Option<i64>,
}

impl DataPartitionView {
    /// `orders-0`
    pub fn name(&self) -> String {
        partition_name(&self.topic, self.partition)
    }

    /// The replica on broker `id`, if it is one.
    pub fn replica(&self, id: i32) -> Option<&ReplicaOffsetsView> {
        self.replicas.iter().find(|r| r.broker == id)
    }

    /// The largest log end offset of its replicas (0 when none is known).
    pub fn max_log_end_offset(&self) -> i64 {
        self.replicas
            .iter()
            .filter_map(|r| r.log_end_offset)
            .max()
            .unwrap_or(0)
    }
}

/// One replica of a data partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReplicaOffsetsView {
    /// The broker holding it.
    pub broker: i32,
    /// Its log end offset, from its broker's disk (`None` when the broker has no log for it).
    pub log_end_offset: Option<i64>,
    /// The high watermark its broker knows (`None` while the broker is down or has not
    /// learned of the partition).
    pub high_watermark: Option<i64>,
    /// The log end offset the leader holds for it (its last fetch offset; the leader's own LEO
    /// for the leader); `None` unknown.
    pub end_offset_at_leader: Option<i64>,
    /// Whether it is in [`DataPartitionView::isr`].
    pub in_isr: bool,
    /// Whether its broker's process runs.
    pub running: bool,
}

/// A partition's assignment and the active controller's registration of it, if any.
type Assigned<'a> = (Vec<i32>, Option<&'a PartitionView>);

impl World {
    /// Every data partition the active controller or a running broker knows, by topic then
    /// partition, with its replicas' offsets; `registered` is the active controller's list.
    pub(super) fn data_partition_views(
        &self,
        registered: &[PartitionView],
    ) -> Vec<DataPartitionView> {
        let mut assigned: BTreeMap<(String, i32), Assigned> = BTreeMap::new();
        for p in registered {
            assigned.insert(
                (p.topic.clone(), p.partition),
                (p.replicas.clone(), Some(p)),
            );
        }
        for part in self.nodes().filter_map(|n| n.replicas.as_ref()) {
            for p in part.partitions.values() {
                assigned
                    .entry((p.topic.clone(), p.index))
                    .or_insert_with(|| (p.replicas.clone(), None));
            }
        }
        assigned
            .into_iter()
            .map(|((topic, partition), (replicas, registered))| {
                self.data_partition_view(topic, partition, &replicas, registered)
            })
            .collect()
    }

    /// One data partition: its leader's state, then each replica on its own broker.
    fn data_partition_view(
        &self,
        topic: String,
        partition: i32,
        replicas: &[i32],
        registered: Option<&PartitionView>,
    ) -> DataPartitionView {
        let name = partition_name(&topic, partition);
        let leading = self
            .nodes()
            .filter(|n| n.process == ProcessState::Running)
            .filter_map(|n| Some((n, local_partition(n, &topic, partition)?)))
            .filter(|(_, p)| p.is_leader())
            .max_by_key(|(_, p)| p.leader_epoch);
        let leader_leo = leading
            .and_then(|(n, _)| n.disk.data_logs.get(&name))
            .map(|l| l.end_offset());
        let isr = match (leading, registered) {
            (Some((_, p)), _) => p.isr.clone(),
            (None, Some(r)) => r.isr.clone(),
            (None, None) => Vec::new(),
        };
        let at_leader = |id: i32| -> Option<i64> {
            let (n, p) = leading?;
            if n.id == id {
                return leader_leo;
            }
            p.remote
                .get(&id)
                .map(|r| r.log_end_offset)
                .filter(|o| *o >= 0)
        };
        let replica_views = replicas
            .iter()
            .map(|&id| {
                let node = self.node(id);
                ReplicaOffsetsView {
                    broker: id,
                    log_end_offset: node
                        .and_then(|n| n.disk.data_logs.get(&name))
                        .map(|l| l.end_offset()),
                    high_watermark: node
                        .filter(|n| n.process != ProcessState::Killed)
                        .and_then(|n| local_partition(n, &topic, partition))
                        .map(|p| p.high_watermark),
                    end_offset_at_leader: at_leader(id),
                    in_isr: isr.contains(&id),
                    running: node.is_some_and(|n| n.process == ProcessState::Running),
                }
            })
            .collect();
        let isr_min_log_end_offset = leading.and_then(|(n, p)| {
            p.maximal_isr()
                .into_iter()
                .chain(std::iter::once(n.id))
                .map(at_leader)
                .collect::<Option<Vec<i64>>>()?
                .into_iter()
                .min()
        });
        DataPartitionView {
            leader: leading
                .map(|(n, _)| n.id)
                .or(registered.map(|r| r.leader).filter(|l| *l >= 0)),
            leader_epoch: leading.map_or(-1, |(_, p)| p.leader_epoch),
            leader_high_watermark: leading.map(|(_, p)| p.high_watermark),
            isr,
            replicas: replica_views,
            isr_min_log_end_offset,
            topic,
            partition,
        }
    }
}

/// Node `n`'s state of partition `topic`-`index`, if its ReplicaManager has it.
fn local_partition<'a>(n: &'a Node, topic: &str, index: i32) -> Option<&'a Partition> {
    n.replicas
        .as_ref()?
        .partitions
        .values()
        .find(|p| p.topic == topic && p.index == index)
}

#[cfg(test)]
mod tests {
    use crate::lesson::test_records::{orders_cluster, produce_test_records, send_test_records};
    use crate::lesson::Console;

    /// [`orders_cluster`] with `orders-0` holding 3 records.
    fn console_with_data() -> Console {
        let mut c = orders_cluster();
        let w = c.world.as_mut().unwrap();
        assert_eq!(produce_test_records(w, "orders-0", 3), Ok(0));
        w.run_for(1_000);
        c
    }

    #[test]
    fn every_replica_shows_its_own_end_offset_and_high_watermark() {
        let c = console_with_data();
        let v = c.world.as_ref().unwrap().view();
        assert_eq!(v.data_partitions.len(), 1);
        let p = &v.data_partitions[0];
        assert_eq!(
            (p.topic.as_str(), p.partition, p.name()),
            ("orders", 0, "orders-0".into())
        );
        let leader = p.leader.expect("a leader");
        assert!(p.leader_epoch >= 0);
        assert_eq!(Some(leader), v.partitions[0].leader.into());
        assert_eq!(p.isr.len(), 3);
        assert_eq!(p.replicas.len(), 3);
        for r in &p.replicas {
            assert!(r.in_isr && r.running, "{r:?}");
            assert_eq!(
                (r.log_end_offset, r.high_watermark, r.end_offset_at_leader),
                (Some(3), Some(3), Some(3)),
                "broker {}",
                r.broker
            );
        }
        assert_eq!(p.leader_high_watermark, Some(3));
        assert_eq!(p.isr_min_log_end_offset, Some(3));
        assert_eq!(p.max_log_end_offset(), 3);
        assert!(p.replica(leader).is_some() && p.replica(42).is_none());
    }

    #[test]
    fn a_stopped_follower_holds_the_isr_minimum_and_the_leaders_hw() {
        let mut c = console_with_data();
        let leader = c.world.as_ref().unwrap().view().data_partitions[0]
            .leader
            .unwrap();
        let follower = (1..=3).find(|b| *b != leader).unwrap();
        c.exec(&format!("kill -STOP {follower}")).unwrap();
        let w = c.world.as_mut().unwrap();
        send_test_records(w, "orders-0", 2).unwrap();
        w.run_for(2_000);
        let v = w.view();
        let p = &v.data_partitions[0];
        let lagging = p.replica(follower).unwrap();
        assert_eq!(lagging.log_end_offset, Some(3));
        assert!(lagging.in_isr && !lagging.running);
        assert_eq!(p.replica(leader).unwrap().log_end_offset, Some(5));
        assert_eq!(p.isr_min_log_end_offset, Some(3));
        assert_eq!(p.leader_high_watermark, Some(3));
        // The stopped follower leaves the ISR (fenced, or replica.lag.time.max.ms passed): the
        // HW moves to 5 and it is drawn out of the ISR.
        w.run_for(50_000);
        let v = w.view();
        let p = &v.data_partitions[0];
        assert!(!p.replica(follower).unwrap().in_isr, "{p:?}");
        assert_eq!(p.isr.len(), 2);
        assert_eq!(p.isr_min_log_end_offset, Some(5));
        assert_eq!(p.leader_high_watermark, Some(5));
    }
}
