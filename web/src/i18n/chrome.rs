//! The page chrome: the time controls, the header's buttons, the side panels' headings and the
//! stage's tabs.

use yew::prelude::*;

texts! {
    /// The chrome's labels in one language.
    pub struct Chrome {
        /// The step-back button.
        back: "◀ 뒤로" | "◀ Back",
        /// The one-event step button.
        step_event: "이벤트 1개" | "Step 1 event",
        /// The play button.
        play: "▶ 재생" | "▶ Play",
        /// The pause button.
        pause: "❚❚ 멈춤" | "❚❚ Pause",
        /// Before the speed menu.
        speed: "속도 " | "speed ",
        /// Before the virtual time.
        virtual_time: "가상 시간 " | "virtual time ",
        /// Before the count of events run.
        events_run: "실행한 이벤트 " | "events run ",
        /// Before the rewind slider.
        rewind: "되감기 " | "rewind ",
        /// Before the count of messages in flight.
        in_flight: "전송 중 " | "in flight ",
        /// After the count of events going forward can replay after a rewind.
        events_ahead: "개 이벤트 다시 재생 가능" | "events ahead",
        /// The log tail's heading.
        log_tail: "로그 (최근)" | "log tail",
        /// The broker panel's heading.
        brokers: "브로커" | "brokers",
        /// The state diagram's heading, before the node id.
        raft_states: "Raft 상태: 노드" | "Raft states of node",
        /// After the MetadataImage heading.
        image_sub: " · kafka-metadata-shell 이 보여 주는 모습"
            | " · as kafka-metadata-shell shows it",
        /// The button that ends every network partition.
        heal: "네트워크 복구" | "heal network",
        /// The TimelineHashMap panel: the map now.
        tl_now: "현재" | "now",
        /// The TimelineHashMap panel: the snapshot chips.
        tl_snapshots: "스냅숏 — 누르면 그 시점의 맵을 읽습니다"
            | "snapshots — click one to read the map as of it",
        /// The TimelineHashMap panel: before the snapshot the map is read as of.
        tl_as_of: "시점: " | "as of ",
        /// The TimelineHashMap panel: the saved values.
        tl_tiers: "스냅숏 티어마다 저장된 옛 값" | "saved values per snapshot tier",
        /// The TimelineHashMap panel: when no tier saved anything.
        tl_nothing_saved: "(저장된 값 없음)" | "(nothing saved)",
        /// The TimelineHashMap panel: the snapshots a revert dropped.
        tl_dropped: "지운 스냅숏" | "dropped snapshots",
        /// The HW panel's heading, before the leader id.
        hw_title: "리더의 하이 워터마크:" | "High watermark of leader",
        /// The HW panel without a leader.
        hw_no_leader: "리더 없음: 아무것도 커밋되지 않습니다" | "no leader: nothing is committed",
        /// After `candidate N > epochStartOffset M`.
        hw_may_advance: "이니 HW 가 오를 수 있습니다" | "so the HW may advance",
        /// After `candidate N ≤ epochStartOffset M`, before the epoch.
        hw_waits: "이니 HW 는 이 에포크의 레코드가 과반에 닿을 때까지 기다립니다: 에포크"
            | "so the HW waits until a record of this epoch is on a majority: epoch",
        /// The HW panel's candidate label.
        hw_candidate: "후보" | "candidate",
        /// Before a voter id.
        voter: "투표자" | "voter",
        /// The broker panel without brokers.
        no_brokers: "브로커 없음" | "no brokers",
        /// After the brokers heading, before the active controller.
        seen_by: "· 활성 컨트롤러가 보는 모습:" | "· as active controller",
        /// After the brokers heading without an active controller.
        no_active: "· 활성 컨트롤러 없음" | "· no active controller",
        /// The broker panel's column of the controller's fencing.
        ctrl_says: "컨트롤러 기록" | "ctrl says",
        /// The broker panel's column of what the broker heard.
        broker_heard: "브로커가 들음" | "broker heard",
        /// The broker panel's session column.
        session: "세션" | "session",
        /// The controller panel's event queue heading.
        event_queue: "이벤트 큐" | "event queue",
        /// The controller panel's deferred events heading.
        deferred: "예약된 이벤트 (deferred)" | "deferred",
        /// The controller panel's purgatory heading.
        purgatory: "커밋 대기 (purgatory)" | "purgatory",
        /// The controller panel's offsets heading.
        offsets: "오프셋" | "offsets",
        /// The controller panel's brokers heading.
        registered_brokers: "등록된 브로커" | "registered brokers",
        /// The controller panel's controllers heading.
        registered_controllers: "등록된 컨트롤러" | "registered controllers",
        /// Before the state diagram's last transition.
        last_transition: "마지막 전이:" | "last transition:",
        /// The state diagram before any transition.
        no_transition: "아직 기록된 전이 없음" | "no transition logged yet",
        /// After the image's publication count.
        publications: "번 발행" | "publications",
        /// The image before its first publication.
        nothing_published: "아직 발행 전 (MetadataProvenance.EMPTY)"
            | "nothing published yet (MetadataProvenance.EMPTY)",
        /// Before the image areas the last publication changed.
        last_changed: "· 마지막으로 바뀐 곳:" | "· last changed:",
        /// The image panel without a loader.
        no_loader: "MetadataLoader 를 돌리는 노드가 없습니다" | "no node runs a MetadataLoader",
        /// The metadata logs' heading.
        per_node_logs: "노드별 __cluster_metadata-0" | "__cluster_metadata-0 per node",
        /// The banner of a restored session.
        restored: "이 브라우저에 남아 있던 지난 세션을 되살렸습니다."
            | "Restored the last session kept in this browser.",
        /// The restored banner's fresh start.
        start_fresh: "새로 시작" | "Start fresh",
        /// The restored banner's keep.
        keep_it: "그대로 두기" | "Keep it",
        /// The process table's column names, separated by |.
        process_cols: "노드|역할|프로세스|상태|에포크|리더|투표|다음 타이머|프로세스 제어"
            | "node|roles|process|state|epoch|leader|voted|next timer|process control",
        /// The legend's summary.
        legend: "범례" | "legend",
        /// The legend's cut line.
        cut: "✂ 네트워크 단절" | "✂ network cut",
        /// The legend's election timer.
        timer_election: "선거 타이머" | "election timer",
        /// The legend's fetch timer.
        timer_fetch: "fetch 타이머" | "fetch timer",
        /// The legend's check-quorum timer.
        timer_check_quorum: "check-quorum 타이머" | "check-quorum timer",
        /// The legend's broker session.
        timer_session: "브로커 세션" | "broker session",
        /// The stage tab of the Raft state diagram.
        tab_states: "상태" | "States",
        /// The stage tab of the HW computation.
        tab_hw: "HW",
        /// The stage tab of the metadata log.
        tab_log: "로그" | "Log",
        /// The stage tab of the log lines.
        tab_tail: "로그 줄" | "Log lines",
        /// The stage tab of the QuorumController.
        tab_controller: "컨트롤러" | "Controller",
        /// The stage tab of the brokers.
        tab_brokers: "브로커" | "Brokers",
        /// The stage tab of the MetadataImage.
        tab_image: "이미지" | "Image",
        /// The stage tab of the TimelineHashMap.
        tab_timeline: "Timeline",
        /// The stage tab of the data partitions.
        tab_partitions: "파티션" | "Partitions",
        /// The stage tab of the console.
        tab_console: "콘솔" | "Console",
        /// The stage tab of the process table and time controls.
        tab_processes: "프로세스" | "Processes",
        /// The stage tab of the sequence diagram.
        tab_sequence: "시퀀스" | "Sequence",
        /// Tab: the life of a write.
        tab_write: "쓰기" | "Write",
        /// Tab: the rules and the invariants.
        tab_rules: "규칙" | "Rules",
        /// Tab: the two high watermarks side by side.
        tab_hw_two: "HW 둘" | "Two HWs",
        /// The partitions panel's column of each replica's LEO and HW.
        leo_hw: "LEO / HW (각 브로커)" | "LEO / HW (each broker)",
        /// The legend's steady data links (replica fetches, produce).
        data_links: "━ 데이터 복제·produce" | "━ replica fetch · produce",
        /// The partitions panel's heading.
        partitions: "데이터 파티션 (활성 컨트롤러 기준)"
            | "data partitions (as the active controller has them)",
        /// The partitions panel without partitions.
        no_partitions: "아직 토픽이 없습니다." | "no topics yet",
        /// Before the focused node's metadata log strip.
        log_strip: "메타데이터 로그" | "metadata log",
        /// While a lesson's wait step plays.
        playing: "재생 중" | "playing",
        /// The button that skips to the end of a wait step.
        skip: "▶▶ 끝으로 (→)" | "▶▶ skip to the end (→)",
        /// The toggle of playing a lesson's waits.
        waits_play: "기다림 재생" | "play waits",
        /// Before what the last Step ran.
        just_ran: "방금 실행: " | "just ran: ",
        /// The projector preset button.
        projector: "프로젝터" | "Projector",
        /// The keyboard help button.
        keys: "? 키" | "? Keys",
        /// The stage/dashboard switch in free play.
        present: "무대 보기" | "Stage view",
        /// The stage/dashboard switch back.
        dashboard: "전체 보기" | "Dashboard",
        /// The adaptive speed choice.
        adaptive: "적응형" | "adaptive",
        /// Where a panel needs a node and none is selected.
        no_node: "노드를 고르세요" | "pick a node",
        /// The write panel before the active controller has written anything.
        no_write: "활성 컨트롤러가 아직 쓴 것이 없습니다"
            | "the active controller has written nothing yet",
    }
}

/// The chrome of the language the page provides as context (Korean without one).
#[hook]
pub fn use_chrome() -> &'static Chrome {
    Chrome::of(super::use_lang())
}
