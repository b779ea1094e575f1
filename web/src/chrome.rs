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
}

/// The chrome for `lang`.
pub fn chrome(lang: Lang) -> &'static Chrome {
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
    };
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
    };
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
