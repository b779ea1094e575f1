//! The page chrome in Korean and English: the labels of the time controls and the side panels'
//! headings (the lesson panel's own labels are in `components::lesson_panel::labels`). Kafka's
//! names (MetadataImage, BrokerState, High watermark) stay as Kafka spells them.

use yew::prelude::*;

use crate::state::Lang;

/// The chrome's labels in one language.
#[derive(Debug, PartialEq, Eq)]
pub struct Chrome {
    /// The step-back button.
    pub back: &'static str,
    /// The one-event step button.
    pub step_event: &'static str,
    /// The play button.
    pub play: &'static str,
    /// The pause button.
    pub pause: &'static str,
    /// Before the speed menu.
    pub speed: &'static str,
    /// Before the virtual time.
    pub virtual_time: &'static str,
    /// Before the count of events run.
    pub events_run: &'static str,
    /// Before the rewind slider.
    pub rewind: &'static str,
    /// Before the count of messages in flight.
    pub in_flight: &'static str,
    /// After the count of events going forward can replay after a rewind.
    pub events_ahead: &'static str,
    /// The log tail's heading.
    pub log_tail: &'static str,
    /// The broker panel's heading.
    pub brokers: &'static str,
    /// The state diagram's heading, before the node id.
    pub raft_states: &'static str,
    /// After the MetadataImage heading.
    pub image_sub: &'static str,
    /// The button that ends every network partition.
    pub heal: &'static str,
    /// The TimelineHashMap panel: the map now.
    pub tl_now: &'static str,
    /// The TimelineHashMap panel: the snapshot chips.
    pub tl_snapshots: &'static str,
    /// The TimelineHashMap panel: before the snapshot the map is read as of.
    pub tl_as_of: &'static str,
    /// The TimelineHashMap panel: the saved values.
    pub tl_tiers: &'static str,
    /// The TimelineHashMap panel: when no tier saved anything.
    pub tl_nothing_saved: &'static str,
    /// The TimelineHashMap panel: the snapshots a revert dropped.
    pub tl_dropped: &'static str,
    /// The HW panel's heading, before the leader id.
    pub hw_title: &'static str,
    /// The HW panel without a leader.
    pub hw_no_leader: &'static str,
    /// After `candidate N > epochStartOffset M`.
    pub hw_may_advance: &'static str,
    /// After `candidate N ≤ epochStartOffset M`, before the epoch.
    pub hw_waits: &'static str,
    /// The HW panel's candidate label.
    pub hw_candidate: &'static str,
    /// Before a voter id.
    pub voter: &'static str,
    /// The broker panel without brokers.
    pub no_brokers: &'static str,
    /// After the brokers heading, before the active controller.
    pub seen_by: &'static str,
    /// After the brokers heading without an active controller.
    pub no_active: &'static str,
    /// The broker panel's column of the controller's fencing.
    pub ctrl_says: &'static str,
    /// The broker panel's column of what the broker heard.
    pub broker_heard: &'static str,
    /// The broker panel's session column.
    pub session: &'static str,
    /// The controller panel's event queue heading.
    pub event_queue: &'static str,
    /// The controller panel's deferred events heading.
    pub deferred: &'static str,
    /// The controller panel's purgatory heading.
    pub purgatory: &'static str,
    /// The controller panel's offsets heading.
    pub offsets: &'static str,
    /// The controller panel's brokers heading.
    pub registered_brokers: &'static str,
    /// The controller panel's controllers heading.
    pub registered_controllers: &'static str,
    /// Before the state diagram's last transition.
    pub last_transition: &'static str,
    /// The state diagram before any transition.
    pub no_transition: &'static str,
    /// After the image's publication count.
    pub publications: &'static str,
    /// The image before its first publication.
    pub nothing_published: &'static str,
    /// Before the image areas the last publication changed.
    pub last_changed: &'static str,
    /// The image panel without a loader.
    pub no_loader: &'static str,
    /// The metadata logs' heading.
    pub per_node_logs: &'static str,
    /// The banner of a restored session.
    pub restored: &'static str,
    /// The restored banner's fresh start.
    pub start_fresh: &'static str,
    /// The restored banner's keep.
    pub keep_it: &'static str,
    /// The process table's column names, separated by |.
    pub process_cols: &'static str,
    /// The legend's summary.
    pub legend: &'static str,
    /// The legend's cut line.
    pub cut: &'static str,
    /// The legend's election timer.
    pub timer_election: &'static str,
    /// The legend's fetch timer.
    pub timer_fetch: &'static str,
    /// The legend's check-quorum timer.
    pub timer_check_quorum: &'static str,
    /// The legend's broker session.
    pub timer_session: &'static str,
    /// The stage tab of the Raft state diagram.
    pub tab_states: &'static str,
    /// The stage tab of the HW computation.
    pub tab_hw: &'static str,
    /// The stage tab of the metadata log.
    pub tab_log: &'static str,
    /// The stage tab of the log lines.
    pub tab_tail: &'static str,
    /// The stage tab of the QuorumController.
    pub tab_controller: &'static str,
    /// The stage tab of the brokers.
    pub tab_brokers: &'static str,
    /// The stage tab of the MetadataImage.
    pub tab_image: &'static str,
    /// The stage tab of the TimelineHashMap.
    pub tab_timeline: &'static str,
    /// The stage tab of the data partitions.
    pub tab_partitions: &'static str,
    /// The stage tab of the console.
    pub tab_console: &'static str,
    /// The stage tab of the process table and time controls.
    pub tab_processes: &'static str,
    /// The stage tab of the sequence diagram.
    pub tab_sequence: &'static str,
    /// Tab: the life of a write.
    pub tab_write: &'static str,
    /// Tab: the rules and the invariants.
    pub tab_rules: &'static str,
    /// The partitions panel's heading.
    pub partitions: &'static str,
    /// The partitions panel without partitions.
    pub no_partitions: &'static str,
    /// Before the focused node's metadata log strip.
    pub log_strip: &'static str,
    /// While a lesson's wait step plays.
    pub playing: &'static str,
    /// The button that skips to the end of a wait step.
    pub skip: &'static str,
    /// The toggle of playing a lesson's waits.
    pub waits_play: &'static str,
    /// Before what the last Step ran.
    pub just_ran: &'static str,
    /// The projector preset button.
    pub projector: &'static str,
    /// The keyboard help button.
    pub keys: &'static str,
    /// The stage/dashboard switch in free play.
    pub present: &'static str,
    /// The stage/dashboard switch back.
    pub dashboard: &'static str,
    /// The adaptive speed choice.
    pub adaptive: &'static str,
    /// Where a panel needs a node and none is selected.
    pub no_node: &'static str,
    /// The write panel before the active controller has written anything.
    pub no_write: &'static str,
    /// The write-life card (article section 3).
    pub write_life: &'static WriteLifeCaptions,
}

/// The chrome in Korean.
const KO: Chrome = Chrome {
    back: "◀ 뒤로",
    step_event: "이벤트 1개",
    play: "▶ 재생",
    pause: "❚❚ 멈춤",
    speed: "속도 ",
    virtual_time: "가상 시간 ",
    events_run: "실행한 이벤트 ",
    rewind: "되감기 ",
    in_flight: "전송 중 ",
    events_ahead: "개 이벤트 다시 재생 가능",
    log_tail: "로그 (최근)",
    brokers: "브로커",
    raft_states: "Raft 상태: 노드",
    image_sub: " · kafka-metadata-shell 이 보여 주는 모습",
    heal: "네트워크 복구",
    tl_now: "현재",
    tl_snapshots: "스냅숏 — 누르면 그 시점의 맵을 읽습니다",
    tl_as_of: "시점: ",
    tl_tiers: "스냅숏 티어마다 저장된 옛 값",
    tl_nothing_saved: "(저장된 값 없음)",
    tl_dropped: "지운 스냅숏",
    hw_title: "리더의 하이 워터마크:",
    hw_no_leader: "리더 없음: 아무것도 커밋되지 않습니다",
    hw_may_advance: "이니 HW 가 오를 수 있습니다",
    hw_waits: "이니 HW 는 이 에포크의 레코드가 과반에 닿을 때까지 기다립니다: 에포크",
    hw_candidate: "후보",
    voter: "투표자",
    no_brokers: "브로커 없음",
    seen_by: "· 활성 컨트롤러가 보는 모습:",
    no_active: "· 활성 컨트롤러 없음",
    ctrl_says: "컨트롤러 기록",
    broker_heard: "브로커가 들음",
    session: "세션",
    event_queue: "이벤트 큐",
    deferred: "예약된 이벤트 (deferred)",
    purgatory: "커밋 대기 (purgatory)",
    offsets: "오프셋",
    registered_brokers: "등록된 브로커",
    registered_controllers: "등록된 컨트롤러",
    last_transition: "마지막 전이:",
    no_transition: "아직 기록된 전이 없음",
    publications: "번 발행",
    nothing_published: "아직 발행 전 (MetadataProvenance.EMPTY)",
    last_changed: "· 마지막으로 바뀐 곳:",
    no_loader: "MetadataLoader 를 돌리는 노드가 없습니다",
    per_node_logs: "노드별 __cluster_metadata-0",
    restored: "이 브라우저에 남아 있던 지난 세션을 되살렸습니다.",
    start_fresh: "새로 시작",
    keep_it: "그대로 두기",
    process_cols: "노드|역할|프로세스|상태|에포크|리더|투표|다음 타이머|프로세스 제어",
    legend: "범례",
    cut: "✂ 네트워크 단절",
    timer_election: "선거 타이머",
    timer_fetch: "fetch 타이머",
    timer_check_quorum: "check-quorum 타이머",
    timer_session: "브로커 세션",
    tab_states: "상태",
    tab_hw: "HW",
    tab_log: "로그",
    tab_tail: "로그 줄",
    tab_controller: "컨트롤러",
    tab_brokers: "브로커",
    tab_image: "이미지",
    tab_timeline: "Timeline",
    tab_partitions: "파티션",
    tab_console: "콘솔",
    tab_processes: "프로세스",
    tab_sequence: "시퀀스",
    tab_write: "쓰기",
    tab_rules: "규칙",
    partitions: "데이터 파티션 (활성 컨트롤러 기준)",
    no_partitions: "아직 토픽이 없습니다.",
    log_strip: "메타데이터 로그",
    playing: "재생 중",
    skip: "▶▶ 끝으로 (→)",
    waits_play: "기다림 재생",
    just_ran: "방금 실행: ",
    projector: "프로젝터",
    keys: "? 키",
    present: "무대 보기",
    dashboard: "전체 보기",
    adaptive: "적응형",
    no_node: "노드를 고르세요",
    no_write: "활성 컨트롤러가 아직 쓴 것이 없습니다",
    write_life: &WRITE_LIFE_KO,
};

/// The chrome in English.
const EN: Chrome = Chrome {
    back: "◀ Back",
    step_event: "Step 1 event",
    play: "▶ Play",
    pause: "❚❚ Pause",
    speed: "speed ",
    virtual_time: "virtual time ",
    events_run: "events run ",
    rewind: "rewind ",
    in_flight: "in flight ",
    events_ahead: "events ahead",
    log_tail: "log tail",
    brokers: "brokers",
    raft_states: "Raft states of node",
    image_sub: " · as kafka-metadata-shell shows it",
    heal: "heal network",
    tl_now: "now",
    tl_snapshots: "snapshots — click one to read the map as of it",
    tl_as_of: "as of ",
    tl_tiers: "saved values per snapshot tier",
    tl_nothing_saved: "(nothing saved)",
    tl_dropped: "dropped snapshots",
    hw_title: "High watermark of leader",
    hw_no_leader: "no leader: nothing is committed",
    hw_may_advance: "so the HW may advance",
    hw_waits: "so the HW waits until a record of this epoch is on a majority: epoch",
    hw_candidate: "candidate",
    voter: "voter",
    no_brokers: "no brokers",
    seen_by: "· as active controller",
    no_active: "· no active controller",
    ctrl_says: "ctrl says",
    broker_heard: "broker heard",
    session: "session",
    event_queue: "event queue",
    deferred: "deferred",
    purgatory: "purgatory",
    offsets: "offsets",
    registered_brokers: "registered brokers",
    registered_controllers: "registered controllers",
    last_transition: "last transition:",
    no_transition: "no transition logged yet",
    publications: "publications",
    nothing_published: "nothing published yet (MetadataProvenance.EMPTY)",
    last_changed: "· last changed:",
    no_loader: "no node runs a MetadataLoader",
    per_node_logs: "__cluster_metadata-0 per node",
    restored: "Restored the last session kept in this browser.",
    start_fresh: "Start fresh",
    keep_it: "Keep it",
    process_cols: "node|roles|process|state|epoch|leader|voted|next timer|process control",
    legend: "legend",
    cut: "✂ network cut",
    timer_election: "election timer",
    timer_fetch: "fetch timer",
    timer_check_quorum: "check-quorum timer",
    timer_session: "broker session",
    tab_states: "States",
    tab_hw: "HW",
    tab_log: "Log",
    tab_tail: "Log lines",
    tab_controller: "Controller",
    tab_brokers: "Brokers",
    tab_image: "Image",
    tab_timeline: "Timeline",
    tab_partitions: "Partitions",
    tab_console: "Console",
    tab_processes: "Processes",
    tab_sequence: "Sequence",
    tab_write: "Write",
    tab_rules: "Rules",
    partitions: "data partitions (as the active controller has them)",
    no_partitions: "no topics yet",
    log_strip: "metadata log",
    playing: "playing",
    skip: "▶▶ skip to the end (→)",
    waits_play: "play waits",
    just_ran: "just ran: ",
    projector: "Projector",
    keys: "? Keys",
    present: "Stage view",
    dashboard: "Dashboard",
    adaptive: "adaptive",
    no_node: "pick a node",
    no_write: "the active controller has written nothing yet",
    write_life: &WRITE_LIFE_EN,
};

/// The captions of the write-life card (`components::write_life`): one controller write
/// shared by the controller's event thread, the Raft thread and the other voters.
#[derive(Debug, PartialEq, Eq)]
pub struct WriteLifeCaptions {
    /// The card's heading.
    pub title: &'static str,
    /// The three lanes' short headings: event thread, Raft thread, other voters.
    pub lanes: [&'static str; 3],
    /// The lanes' legend, the leader's id and the voters' ids follow the last two.
    pub legend: [&'static str; 3],
    /// Step 3: replay before the commit.
    pub replay: &'static str,
    /// Step 4: the in-memory snapshot, before its epoch.
    pub snapshot: &'static str,
    /// Step 5: waiting in the purgatory.
    pub purgatory: &'static str,
    /// Step 6: the linger, before the milliseconds.
    pub linger: &'static str,
    /// Step 6: the batch reached the log.
    pub written: &'static str,
    /// Step 6 when the batch was already open (lingered less).
    pub joined: &'static str,
    /// Step 7: a voter's fetch replicated it.
    pub replicated: &'static str,
    /// Step 8: the high watermark passed it.
    pub committed: &'static str,
    /// Step 9: the futures waiting up to the offset complete.
    pub completed: &'static str,
    /// A standby controller replays the committed batch.
    pub standby: &'static str,
    /// Step 10: the answer to the client.
    pub response: &'static str,
    /// Step 10 of an internal write (nobody waits for it).
    pub internal: &'static str,
    /// The controller renounced before the commit.
    pub failed: &'static str,
    /// A step not reached yet.
    pub pending: &'static str,
    /// Before the list of kept writes to pick from.
    pub writes: &'static str,
}

/// The write-life captions in Korean.
const WRITE_LIFE_KO: WriteLifeCaptions = WriteLifeCaptions {
    title: "쓰기 이벤트 하나의 일생",
    lanes: ["이벤트", "Raft", "투표자"],
    legend: [
        "컨트롤러 이벤트 스레드",
        "Raft 스레드 · 리더",
        "다른 투표자",
    ],
    replay: "커밋 전에 메모리에 먼저 적용",
    snapshot: "메모리 스냅숏",
    purgatory: "커밋되면 깨워 달라고 줄을 섬",
    linger: "모아서 쓰기",
    written: "리더의 로그에 씀",
    joined: "이미 열린 배치에 합류",
    replicated: "Fetch 로 복제됨",
    committed: "커밋됨",
    completed: "기다리던 future 완료",
    standby: "대기 컨트롤러가 replay()",
    response: "클라이언트에 응답",
    internal: "내부 쓰기: 기다리는 클라이언트 없음",
    failed: "커밋 전에 리더 자리를 잃음: NOT_CONTROLLER",
    pending: "대기 중",
    writes: "최근 쓰기",
};

/// The write-life captions in English.
const WRITE_LIFE_EN: WriteLifeCaptions = WriteLifeCaptions {
    title: "The life of a write",
    lanes: ["event", "Raft", "voters"],
    legend: [
        "controller event thread",
        "Raft thread · leader",
        "other voters",
    ],
    replay: "applied in memory before the commit",
    snapshot: "in-memory snapshot",
    purgatory: "waits for its offset to commit",
    linger: "linger",
    written: "written to the leader's log",
    joined: "joined a batch already open",
    replicated: "replicated by Fetch",
    committed: "committed",
    completed: "the waiting futures complete",
    standby: "standby controller replay()",
    response: "response to the client",
    internal: "internal write: no client waits",
    failed: "lost the leadership before the commit: NOT_CONTROLLER",
    pending: "pending",
    writes: "recent writes",
};

/// The chrome for `lang`.
pub fn chrome(lang: Lang) -> &'static Chrome {
    match lang {
        Lang::Ko => &KO,
        Lang::En => &EN,
    }
}

/// The chrome of the language the page provides as context (Korean without one).
#[hook]
pub fn use_chrome() -> &'static Chrome {
    chrome(use_context::<Lang>().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_languages_label_everything() {
        let (ko, en) = (chrome(Lang::Ko), chrome(Lang::En));
        assert_ne!(ko, en);
        assert_eq!(en.play, "▶ Play");
        assert!(ko.play.contains('재'));
        for (k, e) in [
            (ko.heal, en.heal),
            (ko.tl_now, en.tl_now),
            (ko.tl_snapshots, en.tl_snapshots),
            (ko.tl_tiers, en.tl_tiers),
            (ko.events_ahead, en.events_ahead),
        ] {
            assert_ne!(k, e);
        }
    }
}
