//! The data partitions' invariants (issue 31): a partition leader's high watermark never
//! passes the end of any replica in its ISR (Partition.maybeIncrementLeaderHW takes the
//! smallest LEO of the maximal ISR, Partition.scala:1010-1058), and a record acknowledged with
//! acks=all (DelayedProduce answers once the HW passes it, DelayedProduce.scala) is held by
//! every later leader of its partition: the controller elects leaders only from the ISR
//! (PartitionChangeBuilder.electLeader, unclean election off), and every ISR member holds
//! what is below the HW.

use std::collections::BTreeMap;

use super::named::{broken, Broken, Invariant};
use crate::common::message::replica::TopicPartition;
use crate::sim::node::{Node, ProcessState};
use crate::sim::World;

/// The data checks' memory: per leader (node, incarnation, partition, leader epoch), how many
/// acknowledged writes were already found in its log (a leader never truncates its own log
/// within its epoch, so each is checked once).
#[derive(Clone, Debug, Default)]
pub(super) struct DataChecks {
    verified_acks: BTreeMap<(i32, u32, TopicPartition, i32), usize>,
}

impl DataChecks {
    /// Both data invariants on every running partition leader.
    pub(super) fn check(&mut self, world: &World, found: &mut Vec<Broken>) {
        for node in world.nodes() {
            if node.process != ProcessState::Running {
                continue;
            }
            let Some(rm) = &node.replicas else { continue };
            for (tp, p) in rm.partitions.iter().filter(|(_, p)| p.is_leader()) {
                found.extend(check_hw_within_isr(world, node, p).err());
                found.extend(self.check_acked(world, node, *tp, p).err());
            }
        }
    }

    /// The acknowledged writes of `tp` since this leader was last checked: a leader of an
    /// epoch at or after the write's holds it at its offset.
    fn check_acked(
        &mut self,
        world: &World,
        node: &Node,
        tp: TopicPartition,
        p: &crate::broker::partition::Partition,
    ) -> Result<(), Broken> {
        let acked = world.acked_writes();
        let key = (node.id, node.incarnation, tp, p.leader_epoch);
        let from = self.verified_acks.get(&key).copied().unwrap_or(0);
        if from >= acked.len() {
            return Ok(());
        }
        let log = node.disk.data_logs.get(&p.name());
        for w in &acked[from..] {
            if w.partition != tp || w.leader_epoch > p.leader_epoch {
                continue;
            }
            for (i, record) in w.records.iter().enumerate() {
                let offset = w.base_offset + i as i64;
                let held = log.and_then(|l| l.record_at(offset));
                if held != Some(record) {
                    return Err(broken(
                        Invariant::AckedRecordNeverLost,
                        &[node.id],
                        format!(
                            "broker {} leads {} in epoch {} without the record acknowledged (acks=all) at offset {offset} in epoch {}: it has {}",
                            node.id,
                            w.name,
                            p.leader_epoch,
                            w.leader_epoch,
                            held.map_or("nothing".to_string(), describe)
                        ),
                    ));
                }
            }
        }
        self.verified_acks.insert(key, acked.len());
        Ok(())
    }
}

/// A data record as a violation names it: `value "v1"`.
fn describe(r: &crate::raft::batch::Record) -> String {
    match r {
        crate::raft::batch::Record::Data(d) => format!("value {:?}", d.value),
        other => other.short_name().to_string(),
    }
}

/// A leader's HW is not past the log end of any replica in its ISR (each broker's own log, as
/// on its disk).
fn check_hw_within_isr(
    world: &World,
    node: &Node,
    p: &crate::broker::partition::Partition,
) -> Result<(), Broken> {
    let name = p.name();
    for id in &p.isr {
        let Some(member) = world.node(*id) else {
            continue;
        };
        let Some(log) = member.disk.data_logs.get(&name) else {
            continue;
        };
        if p.high_watermark > log.end_offset() {
            return Err(broken(
                Invariant::DataHighWatermarkWithinIsr,
                &[node.id, *id],
                format!(
                    "leader {} of {name} has HW {} past the LEO {} of broker {id} in its ISR {:?}",
                    node.id,
                    p.high_watermark,
                    log.end_offset(),
                    p.isr
                ),
            ));
        }
    }
    Ok(())
}
