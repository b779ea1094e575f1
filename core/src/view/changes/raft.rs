//! The Raft side of a step: processes, state transitions (with the KafkaRaftClient method that
//! made each), quorum-state writes, the leader's appends and commits, the followers' and
//! observers' replication, and snapshot and segment files.

use super::kafka::{self, KafkaRef};
use super::{counted, grouped, ids, node, offsets, running_pairs, Change, ChangeKind};
use crate::common::api_keys::{ApiKeys, Direction, MessageKind};
use crate::view::{
    BatchView, ClusterView, LoggedTransition, NodeView, ProcessState, StateKind, TransitionCause,
};
use StateKind::{Candidate, Follower, Leader, Prospective, Resigned, Unattached};

/// Processes killed, stopped, continued or started.
pub(super) fn processes(before: &ClusterView, after: &ClusterView, out: &mut Vec<Change>) {
    for n in &after.nodes {
        let was = node(before, n.id).map(|b| b.process);
        let (en, ko) = match (was, n.process) {
            (Some(a), b) if a == b => continue,
            (_, ProcessState::Killed) => ("killed (kill -9)", "강제 종료 (kill -9)"),
            (_, ProcessState::Stopped) => ("stopped (SIGSTOP)", "일시 정지 (SIGSTOP)"),
            (Some(ProcessState::Stopped), ProcessState::Running) => {
                ("continued (SIGCONT)", "재개 (SIGCONT)")
            }
            (None, _) => ("added and started", "추가되어 시작"),
            _ => ("started again", "다시 시작"),
        };
        out.push(
            Change::new(
                ChangeKind::Process,
                vec![n.id],
                None,
                format!("{} {en}", n.id),
                format!("{} {ko}", n.id),
            )
            .tagged(n.process.name()),
        );
    }
}

/// The transitions a node logged since `before`.
fn new_transitions<'a>(b: Option<&NodeView>, n: &'a NodeView) -> &'a [LoggedTransition] {
    let since = b.map_or(0, |b| b.log_lines_written);
    let first = n
        .logged_transitions
        .iter()
        .position(|t| t.line >= since)
        .unwrap_or(n.logged_transitions.len());
    &n.logged_transitions[first..]
}

/// Every node's new Raft transitions, by time, and the quorum-state writes they made (one
/// entry for the step).
pub(super) fn transitions(before: &ClusterView, after: &ClusterView, out: &mut Vec<Change>) {
    let mut found: Vec<Change> = Vec::new();
    let mut writes: Vec<(&NodeView, usize)> = Vec::new();
    for n in &after.nodes {
        let new = new_transitions(node(before, n.id), n);
        for t in new {
            found.push(transition_change(n, t, after));
        }
        let durable = new
            .iter()
            .filter(|t| matches!(t.transition.to, Unattached | Candidate | Leader | Follower))
            .count();
        if durable > 0 {
            writes.push((n, durable));
        }
    }
    found.sort_by_key(|c| c.time_ms);
    out.extend(found);
    if !writes.is_empty() {
        out.push(quorum_state_change(&writes));
    }
}

/// One transition, with the method that made it and its trigger in words.
fn transition_change(n: &NodeView, t: &LoggedTransition, after: &ClusterView) -> Change {
    let tr = &t.transition;
    let from = tr.from.map_or("null", StateKind::name);
    let (by, en, ko) = trigger(n, t, after);
    let (en, ko) = if en.is_empty() {
        (
            format!("{} {from} → {} (epoch {})", n.id, tr.to, tr.epoch),
            format!("{} {from} → {} (에포크 {})", n.id, tr.to, tr.epoch),
        )
    } else if t.cause == TransitionCause::Startup {
        (
            format!("{} starts as {} (epoch {}): {en}", n.id, tr.to, tr.epoch),
            format!("{} {} 로 시작 (에포크 {}): {ko}", n.id, tr.to, tr.epoch),
        )
    } else {
        (
            format!("{} {from} → {} (epoch {}): {en}", n.id, tr.to, tr.epoch),
            format!("{} {from} → {} (에포크 {}): {ko}", n.id, tr.to, tr.epoch),
        )
    };
    Change::new(ChangeKind::Transition, vec![n.id], Some(by), en, ko)
        .at(tr.time_ms)
        .tagged(tr.to.name())
}

/// The method behind a transition and its trigger in English and Korean: from the
/// KafkaRaftClient line logged with it, else from the state pair (and, for a request or
/// response, the message delivered at that moment if the view still has it).
fn trigger(n: &NodeView, t: &LoggedTransition, after: &ClusterView) -> (KafkaRef, String, String) {
    let tr = &t.transition;
    let s = |by: KafkaRef, en: &str, ko: &str| (by, en.to_string(), ko.to_string());
    match t.cause {
        TransitionCause::Startup => s(
            kafka::STARTUP,
            "read from quorum-state",
            "quorum-state 에서 읽음",
        ),
        TransitionCause::FetchTimeout => s(kafka::FETCH_TIMEOUT, "fetch timeout", "fetch 타임아웃"),
        TransitionCause::ElectionNotGranted => s(
            kafka::CANDIDATE_TIMEOUT,
            "election timeout, not elected",
            "선거 타임아웃, 당선 못 함",
        ),
        TransitionCause::PreVoteTimedOut => s(
            kafka::PREVOTE_TIMEOUT,
            "PreVote timed out",
            "PreVote 타임아웃",
        ),
        TransitionCause::PreVoteRejected => {
            s(kafka::PREVOTE_REJECTED, "PreVotes rejected", "PreVote 거절")
        }
        TransitionCause::CheckQuorumLost => s(
            kafka::CHECK_QUORUM,
            "check quorum lost",
            "check quorum 실패",
        ),
        TransitionCause::RemovedFromVoters => s(
            kafka::RESIGN_REMOVED,
            "removed itself from the voters; the removal committed",
            "투표자에서 스스로를 뺐고, 그 변경이 커밋됨",
        ),
        TransitionCause::VoteRequest => match (tr.from, tr.to) {
            (Some(Unattached), Unattached) => {
                let v = n.voted_id.map_or("-".to_string(), |v| v.to_string());
                (
                    kafka::VOTE_GRANTED,
                    format!("voted for {v}"),
                    format!("{v} 에게 투표"),
                )
            }
            (Some(Prospective), Prospective) => s(kafka::PROSPECTIVE_VOTED, "voted", "투표"),
            _ => (
                kafka::VOTE_REQUEST_EPOCH,
                format!("a Vote request of epoch {}", tr.epoch),
                format!("에포크 {} 의 Vote 요청", tr.epoch),
            ),
        },
        TransitionCause::Chained if (tr.from, tr.to) == (Some(Prospective), Candidate) => s(
            kafka::PROSPECTIVE_CHAINED,
            "every PreVote granted",
            "PreVote 모두 얻음",
        ),
        TransitionCause::Chained if (tr.from, tr.to) == (Some(Candidate), Leader) => s(
            kafka::CANDIDATE_CHAINED,
            "every vote granted",
            "표를 모두 얻음",
        ),
        _ => by_state_pair(n, t, after),
    }
}

/// The method behind a transition no KafkaRaftClient line explains.
fn by_state_pair(
    n: &NodeView,
    t: &LoggedTransition,
    after: &ClusterView,
) -> (KafkaRef, String, String) {
    let tr = &t.transition;
    let s = |by: KafkaRef, en: &str, ko: &str| (by, en.to_string(), ko.to_string());
    match (tr.from, tr.to) {
        (Some(Unattached), Prospective) => s(
            kafka::UNATTACHED_TIMEOUT,
            "election timeout",
            "선거 타임아웃",
        ),
        (Some(Candidate), Prospective) => s(
            kafka::CANDIDATE_TIMEOUT,
            "election timeout",
            "선거 타임아웃",
        ),
        (Some(Prospective), Candidate) => {
            s(kafka::PREVOTE_MAJORITY, "PreVote majority", "PreVote 과반")
        }
        (Some(Candidate), Leader) => s(kafka::VOTE_MAJORITY, "vote majority", "투표 과반"),
        (Some(Resigned), Unattached) => s(
            kafka::RESIGNED_TIMEOUT,
            "election timeout after resigning",
            "사임 뒤 선거 타임아웃",
        ),
        (Some(Leader), Resigned) => s(kafka::RESIGN_SHUTDOWN, "graceful shutdown", "정상 종료"),
        (_, to @ (Follower | Unattached)) => {
            let generic = if to == Follower {
                kafka::TO_FOLLOWER
            } else {
                kafka::TO_UNATTACHED
            };
            let by = delivered_trigger(n.id, tr.time_ms, after).unwrap_or(generic);
            if to == Follower {
                let leader = n.leader_id.filter(|_| n.epoch == tr.epoch);
                let l = leader.map_or("the leader".to_string(), |l| l.to_string());
                let lk = leader.map_or("리더".to_string(), |l| l.to_string());
                (
                    by,
                    format!("{l} is the leader of epoch {}", tr.epoch),
                    format!("{lk} 가 에포크 {} 의 리더", tr.epoch),
                )
            } else {
                (
                    by,
                    format!("epoch {} seen", tr.epoch),
                    format!("에포크 {} 를 봄", tr.epoch),
                )
            }
        }
        _ => s(
            KafkaRef {
                method: "KafkaRaftClient.poll",
                source: None,
            },
            "",
            "",
        ),
    }
}

/// The handler of a request or response delivered to `id` at `time_ms`, if the view still
/// holds it (it keeps the last 200 ms).
fn delivered_trigger(id: i32, time_ms: u64, after: &ClusterView) -> Option<KafkaRef> {
    let kinds: Vec<MessageKind> = after
        .recently_delivered
        .iter()
        .filter(|m| m.to == id && m.arrive_ms == time_ms && !m.dropped)
        .map(|m| m.kind)
        .collect();
    if kinds.contains(&MessageKind::request(ApiKeys::BeginQuorumEpoch)) {
        Some(kafka::BEGIN_QUORUM_EPOCH)
    } else if kinds.contains(&MessageKind::request(ApiKeys::EndQuorumEpoch)) {
        Some(kafka::END_QUORUM_EPOCH)
    } else if kinds.iter().any(|k| k.direction == Direction::Response) {
        Some(kafka::COMMON_RESPONSE)
    } else {
        None
    }
}

/// The quorum-state files the step's durable transitions wrote: per node, how many times and
/// what the file holds now.
fn quorum_state_change(writes: &[(&NodeView, usize)]) -> Change {
    let opt = |v: Option<i32>| v.map_or("-1".to_string(), |v| v.to_string());
    let each: Vec<String> = writes
        .iter()
        .map(|(n, count)| {
            let times = if *count > 1 {
                format!(" ×{count}")
            } else {
                String::new()
            };
            format!(
                "{}{times} ({{leaderEpoch {}, leaderId {}, votedId {}}})",
                n.id,
                n.epoch,
                opt(n.leader_id),
                opt(n.voted_id)
            )
        })
        .collect();
    let each = each.join("; ");
    Change::new(
        ChangeKind::File,
        writes.iter().map(|(n, _)| n.id).collect(),
        Some(kafka::QUORUM_STATE_FILE),
        format!("quorum-state written: {each}"),
        format!("quorum-state 기록: {each}"),
    )
    .tagged("quorum-state")
}

/// The metadata log: what the leader appended and committed, what the others replicated.
pub(super) fn log(before: &ClusterView, after: &ClusterView, out: &mut Vec<Change>) {
    let leader = after
        .nodes
        .iter()
        .find(|n| n.process == ProcessState::Running && n.raft_state == Some(Leader));
    if let Some(l) = leader {
        if let Some(b) = node(before, l.id) {
            appended(b, l, out);
            committed(b, l, out);
        }
    }
    let others =
        || running_pairs(before, after).filter(|(_, n)| Some(n.id) != leader.map(|l| l.id));
    // Nodes that moved the same way share one entry: (LEO from, to), (HW from, to).
    let moved = grouped(others().filter_map(|(b, n)| {
        let b = b?;
        let leo =
            (b.log_end_offset != n.log_end_offset).then_some((b.log_end_offset, n.log_end_offset));
        let hw = n
            .high_watermark
            .filter(|h| b.high_watermark != Some(*h))
            .map(|h| (b.high_watermark, h));
        (leo.is_some() || hw.is_some()).then_some((n.id, (leo, hw)))
    }));
    for ((leo, hw), nodes) in moved {
        let mut what = Vec::new();
        if let Some((from, to)) = leo {
            what.push(format!("LEO {from} → {to}"));
        }
        if let Some((from, to)) = hw {
            let from = from.map_or("-".to_string(), |f| f.to_string());
            what.push(format!("HW {from} → {to}"));
        }
        let what = what.join(", ");
        let (by, en, ko) = match leo {
            Some((from, to)) if to < from => (kafka::TRUNCATE, "truncated", "잘라냄"),
            Some(_) if hw.is_some() => (kafka::FOLLOWER_FETCH, "fetched", "가져옴"),
            Some(_) => (kafka::APPEND_AS_FOLLOWER, "fetched", "가져옴"),
            None => (kafka::FOLLOWER_HW, "learnt the HW", "HW 를 알게 됨"),
        };
        let list = ids(&nodes);
        out.push(
            Change::new(
                ChangeKind::Replicate,
                nodes,
                Some(by),
                format!("{list} {en}: {what}"),
                format!("{list} {ko}: {what}"),
            )
            .tagged(if leo.is_some() { "leo" } else { "hw" }),
        );
    }
}

/// Which Kafka code wrote a batch the leader appended.
fn writer(b: &BatchView) -> KafkaRef {
    let first = b.records.first().map(String::as_str).unwrap_or("");
    if b.is_control {
        kafka::START_OF_EPOCH
    } else if b.records.iter().all(|r| r == "NO_OP_RECORD") {
        kafka::NO_OP
    } else if first == "BEGIN_TRANSACTION_RECORD" || first == "FEATURE_LEVEL_RECORD" {
        kafka::ACTIVATION_RECORDS
    } else {
        kafka::WRITE_EVENT
    }
}

/// The batches the leader `n` appended in its own epoch since `b`, grouped by what wrote them
/// (at most four groups of other writes, then the rest together); a voter change's batch is
/// left to [`super::voters`].
fn appended(b: &NodeView, n: &NodeView, out: &mut Vec<Change>) {
    let new: Vec<&BatchView> = n
        .batches
        .iter()
        .filter(|x| x.base_offset >= b.log_end_offset && x.epoch == n.epoch)
        .filter(|x| !x.is_voter_change())
        .collect();
    let mut groups: Vec<(KafkaRef, Vec<&BatchView>)> = Vec::new();
    for x in new {
        let w = writer(x);
        let merge = w == kafka::NO_OP || w == kafka::START_OF_EPOCH || groups.len() >= 5;
        match groups
            .iter_mut()
            .rev()
            .find(|(g, _)| *g == w)
            .filter(|_| merge)
        {
            Some((_, v)) => v.push(x),
            None => groups.push((w, vec![x])),
        }
    }
    for (w, batches) in groups {
        let (first, last) = (
            batches[0].base_offset,
            batches[batches.len() - 1].last_offset,
        );
        let records = counted(
            batches
                .iter()
                .flat_map(|x| x.records.iter().map(String::as_str)),
        );
        let at = offsets(first, last);
        out.push(
            Change::new(
                ChangeKind::Append,
                vec![n.id],
                Some(w),
                format!("{} appended offsets {at}: {records}", n.id),
                format!("{} 오프셋 {at} 추가: {records}", n.id),
            )
            .tagged(at),
        );
    }
}

/// The leader's high watermark since `b`: the offsets it committed and their records.
fn committed(b: &NodeView, n: &NodeView, out: &mut Vec<Change>) {
    let (Some(to), from) = (n.high_watermark, b.high_watermark) else {
        return;
    };
    if from.is_some_and(|f| f >= to) {
        return;
    }
    let first = from.unwrap_or(0);
    let records = counted(
        n.batches
            .iter()
            .filter(|x| x.last_offset >= first && x.base_offset < to)
            .flat_map(|x| x.records.iter().map(String::as_str)),
    );
    let at = offsets(first, to - 1);
    let from = from.map_or("-".to_string(), |f| f.to_string());
    let alone = n
        .high_watermark_calc
        .as_ref()
        .is_some_and(|c| c.voters.len() == 1);
    out.push(
        Change::new(
            ChangeKind::Commit,
            vec![n.id],
            Some(if alone {
                kafka::LEADER_HW_ALONE
            } else {
                kafka::LEADER_HW
            }),
            format!("{} HW {from} → {to}: committed {at} ({records})", n.id),
            format!("{} HW {from} → {to}: {at} 커밋 ({records})", n.id),
        )
        .tagged(to.to_string()),
    );
}

/// Snapshot files written, downloaded or deleted, and log segments rolled or deleted.
pub(super) fn files(before: &ClusterView, after: &ClusterView, out: &mut Vec<Change>) {
    let mut made = Vec::new();
    let mut gone = Vec::new();
    for n in &after.nodes {
        let Some(b) = node(before, n.id) else {
            continue;
        };
        for s in n.snapshots.iter().filter(|s| !b.snapshots.contains(s)) {
            let fetched = b.fetching_snapshot.as_ref().is_some_and(|(f, _)| f == s);
            made.push((n.id, (s.clone(), fetched)));
        }
        for s in b.snapshots.iter().filter(|s| !n.snapshots.contains(s)) {
            gone.push((n.id, s.clone()));
        }
        for s in n.segments.iter().filter(|s| !b.segments.contains(s)) {
            made.push((n.id, (format!("{s:020}.log"), false)));
        }
        for s in b.segments.iter().filter(|s| !n.segments.contains(s)) {
            gone.push((n.id, format!("{s:020}.log")));
        }
    }
    for ((file, fetched), nodes) in grouped(made.into_iter()) {
        let (by, en, ko) = match (file.ends_with(".log"), fetched) {
            (true, _) => (kafka::SEGMENT_ROLLED, "rolled a new segment", "새 세그먼트"),
            (false, true) => (
                kafka::SNAPSHOT_FETCHED,
                "downloaded snapshot",
                "스냅숏 내려받음",
            ),
            (false, false) => (kafka::SNAPSHOT_GENERATED, "wrote snapshot", "스냅숏 작성"),
        };
        out.push(file_change(nodes, by, en, ko, file));
    }
    for (file, nodes) in grouped(gone.into_iter()) {
        let (by, en, ko) = if file.ends_with(".log") {
            (kafka::SEGMENT_DELETED, "deleted segment", "세그먼트 삭제")
        } else {
            (kafka::SNAPSHOT_CLEANED, "deleted snapshot", "스냅숏 삭제")
        };
        out.push(file_change(nodes, by, en, ko, file));
    }
}

/// A file change of `nodes`.
fn file_change(nodes: Vec<i32>, by: KafkaRef, en: &str, ko: &str, file: String) -> Change {
    Change::new(
        ChangeKind::File,
        nodes.clone(),
        Some(by),
        format!("{} {en} {file}", ids(&nodes)),
        format!("{} {ko} {file}", ids(&nodes)),
    )
    .tagged(file)
}
