//! The voter set's side of a step (KIP-853): the leader asking a new voter for its ApiVersions,
//! each VotersRecord it appended (a voter added, removed or updated: in force from the
//! append), each one the high watermark passed (the change done), and the set each node read
//! from its own log (KRaftControlRecordStateMachine reads it uncommitted). The leader that
//! resigns after removing itself is a transition (see `raft`).

use super::kafka::{self, KafkaRef};
use super::{grouped, ids, Change, ChangeKind};
use crate::view::quorum::{VoterChangeKind, VoterChangePhase, VoterSetEntry};
use crate::view::{BatchView, ClusterView, NodeView, ProcessState, StateKind};

/// What one VotersRecord did to the set before it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum SetChange {
    /// One voter added.
    Add(i32),
    /// One voter removed.
    Remove(i32),
    /// The same voters, another endpoint or kraft.version range (UpdateRaftVoter).
    Update,
    /// kraft.version 1 and the voter set, appended together (the upgrade).
    Upgrade,
    /// Anything else (more than one voter at once: the single-voter-change rule switched off).
    Other,
}

impl SetChange {
    /// The method that appended it, and the one that saw it committed.
    fn code(&self) -> (KafkaRef, KafkaRef) {
        match self {
            SetChange::Add(_) => (kafka::ADD_VOTER_APPENDED, kafka::ADD_VOTER_COMMITTED),
            SetChange::Remove(_) => (kafka::REMOVE_VOTER_APPENDED, kafka::REMOVE_VOTER_COMMITTED),
            SetChange::Update => (kafka::UPDATE_VOTER_APPENDED, kafka::UPDATE_VOTER_COMMITTED),
            SetChange::Upgrade | SetChange::Other => {
                (kafka::KRAFT_VERSION_UPGRADE, kafka::LEADER_HW)
            }
        }
    }

    /// `add-103`, `remove-101`, `update`, `upgrade`, `set`.
    fn tag(&self) -> String {
        match self {
            SetChange::Add(id) => format!("add-{id}"),
            SetChange::Remove(id) => format!("remove-{id}"),
            SetChange::Update => "update".into(),
            SetChange::Upgrade => "upgrade".into(),
            SetChange::Other => "set".into(),
        }
    }

    /// What it did, in English and Korean: `adding 103` / `103 추가`.
    fn words(&self) -> (String, String) {
        match self {
            SetChange::Add(id) => (format!("adding {id}"), format!("{id} 추가")),
            SetChange::Remove(id) => (format!("removing {id}"), format!("{id} 제거")),
            SetChange::Update => (
                "updating a voter's endpoint".into(),
                "투표자 엔드포인트 갱신".into(),
            ),
            SetChange::Upgrade => (
                "kraft.version 1 with the voter set".into(),
                "kraft.version 1 과 투표자 집합".into(),
            ),
            SetChange::Other => ("a new voter set".into(), "새 투표자 집합".into()),
        }
    }
}

/// `voters 101, 103 (majority 2 of 2)` and its Korean.
fn set_words(voters: &[i32]) -> (String, String) {
    let (n, k) = (voters.len(), voters.len() / 2 + 1);
    (
        format!("voters {} (majority {k} of {n})", ids(voters)),
        format!("투표자 {} (과반 {n} 중 {k})", ids(voters)),
    )
}

/// The batch of `leader`'s log that holds `offset`, if the view still has it.
fn batch_at(leader: Option<&NodeView>, offset: i64) -> Option<&BatchView> {
    leader?
        .batches
        .iter()
        .find(|b| b.base_offset <= offset && offset <= b.last_offset)
}

/// What the VotersRecord `e` changed from `prev` (`None`: the start of an epoch restating the
/// set, or the bootstrap checkpoint's, neither a change).
fn set_change(
    e: &VoterSetEntry,
    prev: Option<&[i32]>,
    batch: Option<&BatchView>,
) -> Option<SetChange> {
    if e.offset < 0 || batch.is_some_and(|b| b.records.iter().any(|r| r == "LeaderChange")) {
        return None;
    }
    let upgrade = batch.is_some_and(|b| b.records.iter().any(|r| r == "KRaftVersion"));
    let Some(prev) = prev else {
        return upgrade.then_some(SetChange::Upgrade);
    };
    let added: Vec<i32> = e
        .voters
        .iter()
        .copied()
        .filter(|v| !prev.contains(v))
        .collect();
    let removed: Vec<i32> = prev
        .iter()
        .copied()
        .filter(|v| !e.voters.contains(v))
        .collect();
    Some(match (added.as_slice(), removed.as_slice()) {
        _ if upgrade => SetChange::Upgrade,
        ([a], []) => SetChange::Add(*a),
        ([], [r]) => SetChange::Remove(*r),
        // The same ids: an UpdateRaftVoter, if the batch shows it is not an epoch's start.
        ([], []) if batch.is_some() => SetChange::Update,
        ([], []) => return None,
        _ => SetChange::Other,
    })
}

/// The voter set's changes between `before` and `after`.
pub(super) fn voters(before: &ClusterView, after: &ClusterView, out: &mut Vec<Change>) {
    if before.nodes.is_empty() {
        return;
    }
    let leader = after
        .nodes
        .iter()
        .find(|n| n.process == ProcessState::Running && n.raft_state == Some(StateKind::Leader));
    pending(before, after, out);
    records(before, after, leader, out);
    reads(before, after, out);
}

/// The leader began a change and waits for the voter's ApiVersions.
fn pending(before: &ClusterView, after: &ClusterView, out: &mut Vec<Change>) {
    let Some(p) = after.quorum.pending else {
        return;
    };
    let was = before.quorum.pending;
    let same = was.is_some_and(|w| (w.kind, w.voter, w.phase) == (p.kind, p.voter, p.phase));
    if same || p.phase != VoterChangePhase::WaitingForApiVersions {
        return;
    }
    let (by, api) = match p.kind {
        VoterChangeKind::Update => (kafka::UPDATE_VOTER_API_VERSIONS, "UpdateRaftVoter"),
        _ => (kafka::ADD_VOTER_API_VERSIONS, "AddRaftVoter"),
    };
    let (l, v) = (p.leader, p.voter);
    out.push(
        Change::new(
            ChangeKind::Voters,
            vec![l, v],
            Some(by),
            format!("{l} took {api} for {v}: first ApiVersions to {v} (its kraft.version range; is it caught up?)"),
            format!("{l} 가 {v} 의 {api} 를 받음: 먼저 {v} 에 ApiVersions (kraft.version 범위, 따라잡았는지)"),
        )
        .tagged(format!("api-versions-{v}")),
    );
}

/// The VotersRecords appended and committed since `before`.
fn records(
    before: &ClusterView,
    after: &ClusterView,
    leader: Option<&NodeView>,
    out: &mut Vec<Change>,
) {
    let old = &before.quorum.history;
    let newest_before = old.last().map_or(i64::MIN, |e| e.offset);
    let by = leader.map_or(String::new(), |l| format!("{} ", l.id));
    let history = &after.quorum.history;
    for (i, e) in history.iter().enumerate() {
        let prev = i
            .checked_sub(1)
            .map(|p| history[p].voters.as_slice())
            .or_else(|| {
                old.iter()
                    .rev()
                    .find(|o| o.offset < e.offset)
                    .map(|o| o.voters.as_slice())
            });
        let Some(change) = set_change(e, prev, batch_at(leader, e.offset)) else {
            continue;
        };
        let (appended, committed) = change.code();
        let (what_en, what_ko) = change.words();
        let (set_en, set_ko) = set_words(&e.voters);
        let at = e.offset;
        if at > newest_before {
            out.push(
                Change::new(
                    ChangeKind::Voters,
                    leader.map(|l| vec![l.id]).unwrap_or_default(),
                    Some(appended),
                    format!("{by}appended a VotersRecord at offset {at}, {what_en}: {set_en}, in force from the append"),
                    format!("{by}VotersRecord 추가 (오프셋 {at}), {what_ko}: {set_ko}, 추가된 때부터 적용"),
                )
                .tagged(change.tag()),
            );
        }
        let was_committed = old.iter().any(|o| o.offset == at && o.committed);
        if e.committed && !was_committed {
            out.push(
                Change::new(
                    ChangeKind::Voters,
                    leader.map(|l| vec![l.id]).unwrap_or_default(),
                    Some(committed),
                    format!("the VotersRecord at offset {at} committed: {what_en} is done"),
                    format!("오프셋 {at} 의 VotersRecord 커밋: {what_ko} 완료"),
                )
                .tagged(format!("committed-{}", change.tag())),
            );
        }
    }
}

/// The nodes whose own log gave them another set of voters, grouped by what they read (a node
/// reading its first set, as every observer does at start-up, is left out: nothing changed).
fn reads(before: &ClusterView, after: &ClusterView, out: &mut Vec<Change>) {
    let moved = grouped(after.quorum.read_by.iter().filter_map(|r| {
        let b = before.quorum.read_by.iter().find(|b| b.node == r.node)?;
        let changed = !b.voters.is_empty() && b.voters != r.voters;
        changed.then_some((r.node, (r.voters.clone(), r.offset)))
    }));
    for ((voters, offset), nodes) in moved {
        let at = offset.map_or("-".to_string(), |o| o.to_string());
        let (set_en, set_ko) = set_words(&voters);
        let list = ids(&nodes);
        out.push(
            Change::new(
                ChangeKind::Voters,
                nodes,
                Some(kafka::VOTERS_READ),
                format!("{list} read the VotersRecord at offset {at} from their logs, uncommitted: {set_en}"),
                format!("{list} 가 자기 로그에서 오프셋 {at} 의 VotersRecord 를 읽음 (커밋 전에도): {set_ko}"),
            )
            .tagged(format!("read-{at}")),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::{step_changes, Change, ChangeKind};
    use crate::lesson::Console;
    use crate::raft::messages::{RaftRequest, RemoveRaftVoterRequest};
    use crate::raft::replica_key::ReplicaKey;
    use crate::sim::{World, WorldConfig};
    use crate::view::{ClusterView, VoterChangePhase};

    fn voters(changes: &[Change]) -> Vec<(&str, Vec<i32>, &str)> {
        changes
            .iter()
            .filter(|c| c.kind == ChangeKind::Voters)
            .map(|c| (c.tag.as_str(), c.nodes.clone(), c.kafka.unwrap_or("")))
            .collect()
    }

    /// The console's auto-join cluster: 101 `--standalone`, 102 and 103 add themselves.
    fn auto_join() -> Console {
        let mut c = Console::new();
        c.exec("set controller.quorum.auto.join.enable=true")
            .unwrap();
        c.exec("cluster controllers=101,102,103 brokers=1 quorum=standalone seed=11")
            .unwrap();
        c.exec("sleep 3s").unwrap();
        c
    }

    fn view(c: &Console) -> ClusterView {
        c.world.as_ref().unwrap().view()
    }

    #[test]
    fn two_controllers_joining_name_the_add_voter_handler() {
        let mut c = auto_join();
        let before = view(&c);
        c.exec("sleep 30s").unwrap();
        let after = view(&c);
        let changes = step_changes(&before, &after);
        let got = voters(&changes);
        let tags: Vec<&str> = got.iter().map(|(t, _, _)| *t).collect();
        assert_eq!(
            tags,
            [
                "add-103",
                "committed-add-103",
                "add-102",
                "committed-add-102",
                tags[4]
            ],
            "{changes:#?}"
        );
        assert_eq!(
            got[0].2,
            "AddVoterHandler.handleApiVersionsResponse → LeaderState.appendVotersRecord"
        );
        assert_eq!(got[0].1, [101]);
        assert_eq!(
            got[1].2,
            "AddVoterHandler.highWatermarkUpdated → resetAddVoterHandlerState"
        );
        let add = &changes[changes.iter().position(|c| c.tag == "add-102").unwrap()];
        assert!(
            add.en
                .contains("voters 101, 102, 103 (majority 2 of 3), in force from the append"),
            "{}",
            add.en
        );
        assert!(add.ko.contains("과반 3 중 2"), "{}", add.ko);
        assert!(add
            .source
            .unwrap()
            .url()
            .starts_with("https://github.com/confluentinc/kafka/blob/06d492d813/raft/"));
        // Every node read the final set from its own log.
        let (tag, nodes, by) = &got[4];
        assert!(tag.starts_with("read-"), "{tag}");
        assert_eq!(nodes, &[1, 101, 102, 103]);
        assert_eq!(
            *by,
            "KRaftControlRecordStateMachine.updateState → maybeLoadLog → handleBatch"
        );
        // The VotersRecord batches are not also listed as the leader's start of epoch.
        assert!(!changes
            .iter()
            .any(|c| c.kind == ChangeKind::Append && c.en.contains("KRaftVoters")));
    }

    #[test]
    fn an_add_voter_asks_for_api_versions_first() {
        let mut c = auto_join();
        let w = c.world.as_mut().unwrap();
        let mut before = w.view();
        loop {
            assert!(w.step() && w.now_ms() < 20_000, "no AddRaftVoter began");
            let now = w.view();
            if now
                .quorum
                .pending
                .is_some_and(|p| p.phase == VoterChangePhase::WaitingForApiVersions)
            {
                let changes = step_changes(&before, &now);
                let got = voters(&changes);
                assert_eq!(got.len(), 1, "{changes:#?}");
                assert_eq!(got[0].0, "api-versions-103");
                assert_eq!(got[0].1, [101, 103]);
                assert!(got[0]
                    .2
                    .starts_with("KafkaRaftClient.handleAddVoterRequest"));
                return;
            }
            before = now;
        }
    }

    #[test]
    fn a_leader_that_removed_itself_resigns_once_it_commits() {
        let mut c = Console::new();
        c.exec("cluster controllers=101,102,103 brokers=1 quorum=standalone seed=3")
            .unwrap();
        let w = c.world.as_mut().unwrap();
        w.run_for(5_000);
        let key = |w: &World, id: i32| ReplicaKey {
            id,
            directory_id: Some(w.node(id).unwrap().directory_id),
        };
        for id in [102, 103] {
            let req = crate::raft::messages::AddRaftVoterRequest {
                cluster_id: w.cluster_id().to_string(),
                timeout_ms: 30_000,
                voter: key(w, id),
                port: Some(w.node(id).unwrap().controller_port),
                ack_when_committed: true,
            };
            w.admin_send_raft(101, RaftRequest::AddRaftVoter(req))
                .unwrap();
            w.run_for(3_000);
        }
        assert_eq!(w.voter_set().voter_ids(), [101, 102, 103]);
        let before = w.view();
        let req = RemoveRaftVoterRequest {
            cluster_id: w.cluster_id().to_string(),
            voter: key(w, 101),
        };
        w.admin_send_raft(101, RaftRequest::RemoveRaftVoter(req))
            .unwrap();
        w.run_for(500);
        let after = w.view();
        let changes = step_changes(&before, &after);
        let got = voters(&changes);
        assert_eq!(got[0].0, "remove-101", "{changes:#?}");
        assert!(got[0]
            .2
            .starts_with("KafkaRaftClient.handleRemoveVoterRequest"));
        assert_eq!(got[1].0, "committed-remove-101");
        let resigned = changes
            .iter()
            .find(|c| c.kind == ChangeKind::Transition && c.tag == "Resigned")
            .expect("101 resigned");
        assert_eq!(resigned.nodes, [101]);
        assert!(resigned.en.contains("removed itself"), "{}", resigned.en);
        assert_eq!(
            resigned.kafka,
            Some("RemoveVoterHandler.highWatermarkUpdated → LeaderState.requestResign → KafkaRaftClient.pollLeader → transitionToResigned")
        );
    }

    #[test]
    fn a_fixed_quorum_names_no_voter_change() {
        let mut w = World::new(WorldConfig::new(22, vec![101, 102, 103], vec![1])).unwrap();
        let first = w.view();
        w.run_for(5_000);
        let before = w.view();
        let start = step_changes(&first, &before);
        assert!(voters(&start).is_empty(), "{start:#?}");
        let (old, _) = w.leader().unwrap();
        w.kill(old).unwrap();
        w.run_for(15_000);
        let changes = step_changes(&before, &w.view());
        assert!(voters(&changes).is_empty(), "{changes:#?}");
    }
}
