//! The controller side of a step: activation, renounce and revert, the active controller's
//! in-memory snapshots, broker registrations and fencing, each broker's own BrokerState,
//! topics and partitions, and the committed records the controllers and MetadataLoaders took.

use super::kafka::{self, KafkaRef};
use super::{grouped, ids, node, running_pairs, Change, ChangeKind};
use crate::view::{
    BrokerState, ClusterView, ControllerView, NodeView, PartitionView, ProcessState,
};

/// The active controller of a view and its controller view.
fn active(view: &ClusterView) -> Option<(&NodeView, &ControllerView)> {
    view.nodes
        .iter()
        .filter(|n| n.process == ProcessState::Running)
        .find_map(|n| n.controller.as_ref().filter(|c| c.active).map(|c| (n, c)))
}

/// Controllers that became active or renounced, and reverts of uncommitted state.
pub(super) fn controllers(before: &ClusterView, after: &ClusterView, out: &mut Vec<Change>) {
    for (b, n) in running_pairs(before, after) {
        let (Some(c), Some(bc)) = (n.controller.as_ref(), b.and_then(|b| b.controller.as_ref()))
        else {
            continue;
        };
        if c.active && !bc.active {
            let e = c.active_epoch.unwrap_or(n.epoch);
            out.push(
                Change::new(
                    ChangeKind::Controller,
                    vec![n.id],
                    Some(kafka::ACTIVATE),
                    format!("{} became the active controller (epoch {e})", n.id),
                    format!("{} 활성 컨트롤러가 됨 (에포크 {e})", n.id),
                )
                .tagged("active"),
            );
        } else if !c.active && bc.active {
            out.push(
                Change::new(
                    ChangeKind::Controller,
                    vec![n.id],
                    Some(kafka::RENOUNCE),
                    format!("{} renounced: no longer the active controller", n.id),
                    format!("{} 활성 컨트롤러 자리를 내놓음 (renounce)", n.id),
                )
                .tagged("renounce"),
            );
        }
        let revert = &c.topics_by_name.last_revert;
        if let Some(r) = revert
            .as_ref()
            .filter(|_| *revert != bc.topics_by_name.last_revert)
        {
            let dropped = r
                .dropped
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            out.push(
                Change::new(
                    ChangeKind::Controller,
                    vec![n.id],
                    Some(kafka::REVERT),
                    format!(
                        "{} reverted to its in-memory snapshot {} (dropped [{dropped}])",
                        n.id, r.to
                    ),
                    format!(
                        "{} 메모리 스냅숏 {} 으로 되돌림 ([{dropped}] 버림)",
                        n.id, r.to
                    ),
                )
                .tagged("revert"),
            );
        }
    }
}

/// `45` or `45, 46, …, 74 (30)`.
fn epochs(list: &[i64]) -> String {
    match list {
        [] => String::new(),
        [one] => one.to_string(),
        [a, b] => format!("{a}, {b}"),
        [first, .., last] => format!("{first} … {last} ({})", list.len()),
    }
}

/// The active controller's SnapshotRegistry: in-memory snapshots made and dropped.
pub(super) fn registry(before: &ClusterView, after: &ClusterView, out: &mut Vec<Change>) {
    let Some((n, c)) = active(after) else {
        return;
    };
    let Some(bc) = node(before, n.id).and_then(|b| b.controller.as_ref()) else {
        return;
    };
    let reverted: &[i64] = c
        .topics_by_name
        .last_revert
        .as_ref()
        .map_or(&[], |r| &r.dropped);
    let made: Vec<i64> = c
        .snapshots
        .iter()
        .filter(|e| !bc.snapshots.contains(e))
        .copied()
        .collect();
    let dropped: Vec<i64> = bc
        .snapshots
        .iter()
        .filter(|e| !c.snapshots.contains(e) && !reverted.contains(e))
        .copied()
        .collect();
    if !made.is_empty() {
        let at = epochs(&made);
        out.push(
            Change::new(
                ChangeKind::Registry,
                vec![n.id],
                Some(kafka::REGISTRY_CREATE),
                format!("{} in-memory snapshots at {at}", n.id),
                format!("{} 메모리 스냅숏 생성: {at}", n.id),
            )
            .tagged("created"),
        );
    }
    if !dropped.is_empty() {
        let at = epochs(&dropped);
        out.push(
            Change::new(
                ChangeKind::Registry,
                vec![n.id],
                Some(kafka::REGISTRY_DELETE),
                format!("{} dropped committed in-memory snapshots {at}", n.id),
                format!("{} 커밋된 메모리 스냅숏 삭제: {at}", n.id),
            )
            .tagged("deleted"),
        );
    }
}

/// Brokers registered, fenced and unfenced (as the active controller has them), and each
/// broker's own BrokerState.
pub(super) fn brokers(before: &ClusterView, after: &ClusterView, out: &mut Vec<Change>) {
    if let (Some((_, bc)), Some((_, c))) = (active(before), active(after)) {
        for &(id, epoch, fenced) in &c.brokers {
            let was = bc.brokers.iter().find(|b| b.0 == id);
            let (by, en, ko, tag) = match was {
                None => (
                    kafka::REGISTER_BROKER,
                    format!("registered (broker epoch {epoch}), fenced"),
                    format!("등록됨 (브로커 에포크 {epoch}), 펜스 상태"),
                    "registered",
                ),
                Some(&(_, e, _)) if e != epoch => (
                    kafka::REGISTER_BROKER,
                    format!("registered again (broker epoch {epoch})"),
                    format!("다시 등록됨 (브로커 에포크 {epoch})"),
                    "registered",
                ),
                Some(&(_, _, f)) if f == fenced => continue,
                Some(_) if fenced => {
                    let shutting =
                        node(after, id)
                            .and_then(|n| n.broker.as_ref())
                            .is_some_and(|b| {
                                matches!(
                                    b.state,
                                    BrokerState::PendingControlledShutdown
                                        | BrokerState::ShuttingDown
                                )
                            });
                    let (by, en, ko) = if shutting {
                        (
                            kafka::FENCE_SHUTDOWN,
                            "fenced: controlled shutdown",
                            "펜스됨: 정상 종료",
                        )
                    } else {
                        (
                            kafka::FENCE_STALE,
                            "fenced: its session timed out",
                            "펜스됨: 세션 만료",
                        )
                    };
                    (by, en.to_string(), ko.to_string(), "fenced")
                }
                Some(_) => (
                    kafka::UNFENCE,
                    "unfenced: caught up".to_string(),
                    "펜스 풀림: 따라잡음".to_string(),
                    "unfenced",
                ),
            };
            out.push(broker_change(id, by, &en, &ko, tag));
        }
    }
    for n in &after.nodes {
        let was = node(before, n.id)
            .and_then(|b| b.broker.as_ref())
            .map(|b| b.state);
        let Some(now) = n.broker.as_ref().map(|b| b.state) else {
            continue;
        };
        if was == Some(now) {
            continue;
        }
        let by = match now {
            BrokerState::Starting => kafka::BROKER_STARTUP,
            BrokerState::PendingControlledShutdown => kafka::BROKER_BEGIN_SHUTDOWN,
            BrokerState::ShuttingDown => kafka::BROKER_SHUTDOWN,
            _ => kafka::BROKER_HEARTBEAT_RESPONSE,
        };
        let text = match was {
            Some(w) => format!("{} → {}", w.name(), now.name()),
            None => now.name().to_string(),
        };
        out.push(broker_change(
            n.id,
            by,
            &format!("BrokerState {text}"),
            &format!("BrokerState {text}"),
            now.name(),
        ));
    }
}

/// A change of broker `id`.
fn broker_change(id: i32, by: KafkaRef, en: &str, ko: &str, tag: &str) -> Change {
    Change::new(
        ChangeKind::Broker,
        vec![id],
        Some(by),
        format!("broker {id} {en}"),
        format!("브로커 {id} {ko}"),
    )
    .tagged(tag)
}

/// Topics created or deleted, and partitions whose leader or ISR changed.
pub(super) fn topics(before: &ClusterView, after: &ClusterView, out: &mut Vec<Change>) {
    let names = |v: &ClusterView| {
        let mut t: Vec<String> = v.partitions.iter().map(|p| p.topic.clone()).collect();
        t.dedup();
        t
    };
    let (was, now) = (names(before), names(after));
    // Without an active controller a view has no partitions: nothing to compare.
    if was.is_empty() && active(before).is_none() || now.is_empty() && active(after).is_none() {
        return;
    }
    let nodes: Vec<i32> = active(after).map(|(n, _)| vec![n.id]).unwrap_or_default();
    for t in now.iter().filter(|t| !was.contains(t)) {
        let parts: Vec<&PartitionView> =
            after.partitions.iter().filter(|p| &p.topic == t).collect();
        let rf = parts.first().map_or(0, |p| p.replicas.len());
        out.push(
            Change::new(
                ChangeKind::Topic,
                nodes.clone(),
                Some(kafka::CREATE_TOPICS),
                format!(
                    "topic {t} created: {} partition(s), replication factor {rf}",
                    parts.len()
                ),
                format!("토픽 {t} 생성: 파티션 {}개, 복제 계수 {rf}", parts.len()),
            )
            .tagged(t.clone()),
        );
    }
    for t in was.iter().filter(|t| !now.contains(t)) {
        let by = KafkaRef {
            method: "ReplicationControlManager.deleteTopics → RemoveTopicRecord",
            source: None,
        };
        out.push(
            Change::new(
                ChangeKind::Topic,
                nodes.clone(),
                Some(by),
                format!("topic {t} deleted"),
                format!("토픽 {t} 삭제"),
            )
            .tagged(t.clone()),
        );
    }
    partitions(before, after, out);
}

/// Partitions whose leader or ISR changed, with the ReplicationControlManager path that changed
/// them (at most six, then a count).
fn partitions(before: &ClusterView, after: &ClusterView, out: &mut Vec<Change>) {
    let fenced = step_broker_events(out, "fenced");
    let unfenced = step_broker_events(out, "unfenced");
    let mut changed = Vec::new();
    for p in &after.partitions {
        let Some(b) = before
            .partitions
            .iter()
            .find(|b| b.topic == p.topic && b.partition == p.partition)
        else {
            continue;
        };
        if b.leader == p.leader && b.isr == p.isr {
            continue;
        }
        let shrank = b.isr.iter().any(|r| !p.isr.contains(r));
        let by = if shrank
            && fenced
                .iter()
                .any(|f| b.isr.contains(f) && !p.isr.contains(f))
        {
            kafka::ISR_FENCED
        } else if b.leader < 0 && p.leader >= 0 && unfenced.contains(&p.leader) {
            kafka::ISR_UNFENCED
        } else if shrank && shutting_down(after, b, p) {
            kafka::ISR_SHUTDOWN
        } else {
            kafka::ALTER_PARTITION
        };
        let list = |v: &[i32]| format!("[{}]", ids(v));
        let mut what = Vec::new();
        if b.isr != p.isr {
            what.push(format!("ISR {} → {}", list(&b.isr), list(&p.isr)));
        }
        if b.leader != p.leader {
            what.push(format!("leader {} → {}", b.leader, p.leader));
        }
        changed.push((
            by,
            format!("{}-{} {}", p.topic, p.partition, what.join(", ")),
        ));
    }
    let nodes: Vec<i32> = active(after).map(|(n, _)| vec![n.id]).unwrap_or_default();
    let more = changed.len().saturating_sub(6);
    for (by, text) in changed.into_iter().take(6) {
        out.push(
            Change::new(
                ChangeKind::Partition,
                nodes.clone(),
                Some(by),
                text.clone(),
                text,
            )
            .tagged("partition"),
        );
    }
    if more > 0 {
        out.push(
            Change::new(
                ChangeKind::Partition,
                nodes,
                None,
                format!("… and {more} more partition(s)"),
                format!("… 파티션 {more}개 더"),
            )
            .tagged("partition"),
        );
    }
}

/// The brokers this step's changes so far say were `tag` (fenced, unfenced).
fn step_broker_events(out: &[Change], tag: &str) -> Vec<i32> {
    out.iter()
        .filter(|c| c.kind == ChangeKind::Broker && c.tag == tag)
        .flat_map(|c| c.nodes.iter().copied())
        .collect()
}

/// Whether a replica dropped from the ISR belongs to a broker in controlled shutdown.
fn shutting_down(after: &ClusterView, b: &PartitionView, p: &PartitionView) -> bool {
    b.isr.iter().filter(|r| !p.isr.contains(r)).any(|r| {
        node(after, *r)
            .and_then(|n| n.broker.as_ref())
            .is_some_and(|x| {
                matches!(
                    x.state,
                    BrokerState::PendingControlledShutdown | BrokerState::ShuttingDown
                )
            })
    })
}

/// Committed records taken by the controllers (handleCommit) and the MetadataLoaders (a new
/// image), grouped by how far each got.
pub(super) fn applied(before: &ClusterView, after: &ClusterView, out: &mut Vec<Change>) {
    let committed = grouped(running_pairs(before, after).filter_map(|(b, n)| {
        let (c, bc) = (n.controller.as_ref()?, b?.controller.as_ref()?);
        (c.last_committed_offset > bc.last_committed_offset)
            .then_some((n.id, c.last_committed_offset))
    }));
    for (to, nodes) in committed {
        out.push(
            Change::new(
                ChangeKind::Apply,
                nodes.clone(),
                Some(kafka::CONTROLLER_COMMIT),
                format!(
                    "{} QuorumController took commits up to offset {to}",
                    ids(&nodes)
                ),
                format!(
                    "{} QuorumController 가 오프셋 {to} 까지 커밋을 받음",
                    ids(&nodes)
                ),
            )
            .tagged("controller"),
        );
    }
    let published = grouped(running_pairs(before, after).filter_map(|(b, n)| {
        let (i, bi) = (n.image.as_ref()?, b?.image.as_ref());
        (bi.is_none_or(|bi| bi.publish_count != i.publish_count)).then_some((n.id, i.offset))
    }));
    for (at, nodes) in published {
        out.push(
            Change::new(
                ChangeKind::Apply,
                nodes.clone(),
                Some(kafka::LOADER_COMMIT),
                format!(
                    "{} MetadataLoader published an image at offset {at}",
                    ids(&nodes)
                ),
                format!(
                    "{} MetadataLoader 가 오프셋 {at} 의 이미지를 게시",
                    ids(&nodes)
                ),
            )
            .tagged("image"),
        );
    }
}
