//! The figures drawn from the engine's records: the TimelineHashMap timeline (the article's
//! example 3) and the life of one controller write (the article's section 3).

texts! {
    /// The TimelineHashMap figure's captions in one language.
    pub struct TimelineText {
        /// The axis, in the key column's header.
        offset: "오프셋" | "offset",
        /// The column of the map now.
        now: "현재" | "now",
        /// Legend: committed columns, before `≤ N`.
        committed: "커밋됨" | "committed",
        /// Legend: applied but not committed columns.
        applied: "적용, 커밋 전" | "applied, not committed",
        /// Legend: what deleteSnapshotsUpTo (the blue label under its columns) is.
        deleted: "지움: 커밋이 오면" | "deleted: a commit",
        /// Legend: what revertToSnapshot (the red label under its columns) is.
        reverted: "버림: 리더 자리를 잃으면" | "dropped: leadership lost",
        /// Legend: the tier's saved value mark.
        saved: "티어에 저장된 옛 값" | "old value saved in the tier",
        /// Legend: the value a revert brought back.
        restored: "되돌아온 값" | "came back",
        /// Legend: how an absent key reads.
        absent: "null: 없음" | "null: absent",
        /// Legend: before the count of snapshots not drawn.
        older: "그리지 않은 스냅숏:" | "snapshots not drawn:",
        /// The key column of a map without keys.
        empty: "(비어 있음)" | "(empty)",
        /// The printed lines' label.
        lines: "출력된 줄" | "printed lines",
        /// The figure's accessible name.
        aria: "TimelineHashMap 타임라인: 오프셋별 스냅숏과 각 키의 값"
            | "TimelineHashMap timeline: snapshots by offset and each key's value",
        /// The fold of the text tables under the figure.
        tables: "표: 현재 맵, 스냅숏, 티어에 저장된 옛 값"
            | "tables: the map now, the snapshots, the tiers' saved values",
    }
}

texts! {
    /// The captions of the write-life card: one controller write shared by the controller's
    /// event thread, the Raft thread and the other voters.
    pub struct WriteLifeText {
        /// The card's heading.
        title: "쓰기 이벤트 하나의 일생" | "The life of a write",
        /// The event thread's lane, short.
        lane_event: "이벤트" | "event",
        /// The Raft thread's lane, short.
        lane_raft: "Raft",
        /// The other voters' lane, short.
        lane_voters: "투표자" | "voters",
        /// The legend of the event thread's lane.
        legend_event: "컨트롤러 이벤트 스레드" | "controller event thread",
        /// The legend of the Raft thread's lane, before the leader's id.
        legend_raft: "Raft 스레드 · 리더" | "Raft thread · leader",
        /// The legend of the other voters' lane, before their ids.
        legend_voters: "다른 투표자" | "other voters",
        /// Step 3: replay before the commit.
        replay: "커밋 전에 메모리에 먼저 적용" | "applied in memory before the commit",
        /// Step 4: the in-memory snapshot, before its epoch.
        snapshot: "메모리 스냅숏" | "in-memory snapshot",
        /// Step 5: waiting in the purgatory.
        purgatory: "커밋되면 깨워 달라고 줄을 섬" | "waits for its offset to commit",
        /// Step 6: the linger, before the milliseconds.
        linger: "모아서 쓰기" | "linger",
        /// Step 6: the batch reached the log.
        written: "리더의 로그에 씀" | "written to the leader's log",
        /// Step 6 when the batch was already open (lingered less).
        joined: "이미 열린 배치에 합류" | "joined a batch already open",
        /// Step 7: a voter's fetch replicated it.
        replicated: "Fetch 로 복제됨" | "replicated by Fetch",
        /// Step 8: the high watermark passed it.
        committed: "커밋됨" | "committed",
        /// Step 9: the futures waiting up to the offset complete.
        completed: "기다리던 future 완료" | "the waiting futures complete",
        /// A standby controller replays the committed batch.
        standby: "대기 컨트롤러가 replay()" | "standby controller replay()",
        /// Step 10: the answer to the client.
        response: "클라이언트에 응답" | "response to the client",
        /// Step 10 of an internal write (nobody waits for it).
        internal: "내부 쓰기: 기다리는 클라이언트 없음" | "internal write: no client waits",
        /// The controller renounced before the commit.
        failed: "커밋 전에 리더 자리를 잃음: NOT_CONTROLLER"
            | "lost the leadership before the commit: NOT_CONTROLLER",
        /// A step not reached yet.
        pending: "대기 중" | "pending",
        /// Before the list of kept writes to pick from.
        writes: "최근 쓰기" | "recent writes",
    }
}

impl WriteLifeText {
    /// The three lanes' short headings: event thread, Raft thread, other voters.
    pub fn lanes(&self) -> [&'static str; 3] {
        [self.lane_event, self.lane_raft, self.lane_voters]
    }
}
