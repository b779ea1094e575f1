//! The life of a write (the article's section 3), `#write-life`: one controller write shared by
//! the controller's event thread, the leader's Raft thread and the other voters. The ten steps
//! are rows in the article's order, each a numbered mark in its lane with Kafka's method name,
//! its virtual time and its Δ from the event's start; a step lights when the engine reaches it
//! (the newest ones brightest) and those not reached yet stay dim.

use kraft_core::controller::write_life::WriteLife;
use yew::prelude::*;

use crate::i18n::{use_lang, WriteLifeText};

/// Properties of [`WriteLifeCard`].
#[derive(Properties, PartialEq)]
pub struct WriteLifeProps {
    /// The controller's kept write lives, oldest first.
    pub lives: Vec<WriteLife>,
}

/// The lanes of the figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// The QuorumController's event thread.
    Event,
    /// The leader's Raft thread (KafkaRaftClient).
    Raft,
    /// The other voters.
    Voters,
}

impl Lane {
    /// The lane's column (0, 1, 2).
    fn index(self) -> usize {
        match self {
            Lane::Event => 0,
            Lane::Raft => 1,
            Lane::Voters => 2,
        }
    }

    /// Its CSS class.
    fn class(self) -> &'static str {
        ["wl-event", "wl-raft", "wl-voters"][self.index()]
    }
}

/// One row of the figure: a step (or a voter's part of one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The article's step number (none for a standby's replay).
    pub number: Option<u8>,
    /// The `data-step` key (`prepareAppend`, `completeUpTo`, ...).
    pub key: &'static str,
    /// The lane the step happens in.
    pub lane: Lane,
    /// The lane it hands over to, if another.
    pub to: Option<Lane>,
    /// Kafka's method (or what happens).
    pub method: String,
    /// What it did.
    pub detail: String,
    /// When it happened (virtual ms), if it did.
    pub ms: Option<u64>,
    /// The voter it concerns.
    pub voter: Option<i32>,
}

/// A row.
fn row(
    number: Option<u8>,
    key: &'static str,
    lane: Lane,
    to: Option<Lane>,
    ms: Option<u64>,
) -> Row {
    Row {
        number,
        key,
        lane,
        to,
        method: String::new(),
        detail: String::new(),
        ms,
        voter: None,
    }
}

/// The records' types, runs of one type counted: `TOPIC_RECORD + 3× PARTITION_RECORD`.
pub fn record_summary(types: &[String]) -> String {
    let mut runs: Vec<(&str, usize)> = Vec::new();
    for t in types {
        match runs.last_mut() {
            Some((last, n)) if *last == t.as_str() => *n += 1,
            _ => runs.push((t.as_str(), 1)),
        }
    }
    runs.iter()
        .map(|(t, n)| {
            if *n == 1 {
                t.to_string()
            } else {
                format!("{n}× {t}")
            }
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The steps of the event thread, in its one event: 1 to 5.
fn event_rows(l: &WriteLife, c: &WriteLifeText) -> Vec<Row> {
    let (e, last) = (Lane::Event, l.last_offset);
    let mut rows = vec![
        row(Some(1), "generate", e, None, Some(l.generate_ms)),
        row(
            Some(2),
            "prepareAppend",
            e,
            Some(Lane::Raft),
            Some(l.prepare_append_ms),
        ),
        row(Some(3), "replay", e, None, Some(l.replay_ms)),
        row(
            Some(4),
            "handleScheduleAppend",
            e,
            Some(Lane::Raft),
            Some(l.schedule_append_ms),
        ),
        row(Some(5), "purgatoryAdd", e, None, Some(l.purgatory_add_ms)),
    ];
    let texts = [
        (
            "generateRecordsAndResult()".to_string(),
            format!("ControllerResult: {}", record_summary(&l.record_types)),
        ),
        (
            "raftClient.prepareAppend()".to_string(),
            format!("BatchAccumulator · offset {}–{last}", l.base_offset),
        ),
        ("replay()".to_string(), c.replay.to_string()),
        (
            format!("schedulePreparedAppend() · offsetControl.handleScheduleAppend({last})"),
            format!("{} {}", c.snapshot, l.snapshot_epoch),
        ),
        (
            format!("deferredEventQueue.add({last})"),
            c.purgatory.to_string(),
        ),
    ];
    for (r, (m, d)) in rows.iter_mut().zip(texts) {
        r.method = m;
        r.detail = d;
    }
    rows
}

/// The Raft side and the commit: 6 to 10, each voter's fetch and replay on its own row.
fn raft_rows(l: &WriteLife, c: &WriteLifeText) -> Vec<Row> {
    let last = l.last_offset;
    let mut rows = Vec::new();
    let mut write = row(Some(6), "logWrite", Lane::Raft, None, l.log_write_ms);
    write.method = format!("{} {} ms → log", c.linger, l.linger_ms);
    let lingered = l
        .log_write_ms
        .map(|t| t.saturating_sub(l.prepare_append_ms));
    write.detail = match lingered {
        Some(d) if d + 1 < l.linger_ms => format!("{} · LEO > {last} · {}", c.written, c.joined),
        _ => format!("{} · LEO > {last}", c.written),
    };
    rows.push(write);
    for v in &l.voters {
        let mut f = row(Some(7), "fetch", Lane::Voters, None, v.fetched_ms);
        f.to = Some(Lane::Raft);
        f.method = format!("Fetch ({})", v.id);
        f.detail = format!("{} · LEO > {last}", c.replicated);
        f.voter = Some(v.id);
        rows.push(f);
    }
    let mut hw = row(
        Some(8),
        "highWatermark",
        Lane::Raft,
        None,
        l.high_watermark_ms,
    );
    hw.method = format!("high watermark > {last}");
    hw.detail = c.committed.to_string();
    rows.push(hw);
    let mut commit = row(
        Some(9),
        "handleCommit",
        Lane::Raft,
        Some(Lane::Event),
        l.handle_commit_ms,
    );
    commit.method =
        "QuorumMetaLogListener.handleCommit() · offsetControl.handleCommitBatch()".into();
    commit.detail = "appendRaftEvent → event queue".into();
    rows.push(commit);
    let mut done = row(
        Some(9),
        "completeUpTo",
        Lane::Event,
        None,
        l.complete_up_to_ms,
    );
    done.method = "deferredEventQueue.completeUpTo(lastStableOffset)".into();
    done.detail = c.completed.to_string();
    rows.push(done);
    for v in &l.voters {
        let mut r = row(None, "standbyReplay", Lane::Voters, None, v.replayed_ms);
        r.method = format!("handleCommit() → replay() ({})", v.id);
        r.detail = c.standby.to_string();
        r.voter = Some(v.id);
        rows.push(r);
    }
    let mut resp = row(Some(10), "response", Lane::Event, None, l.response_ms);
    if !l.responds {
        resp.ms = l.complete_up_to_ms;
    }
    resp.method = "ControllerApis → response".into();
    resp.detail = if l.responds { c.response } else { c.internal }.to_string();
    rows.push(resp);
    rows
}

/// Every row of `l`, in the article's order.
pub fn rows(l: &WriteLife, c: &WriteLifeText) -> Vec<Row> {
    let mut rows = event_rows(l, c);
    rows.extend(raft_rows(l, c));
    rows
}

/// The write-life card of a controller: a pick among its kept writes (the newest by default)
/// and the figure of the picked one.
#[component]
pub fn WriteLifeCard(props: &WriteLifeProps) -> Html {
    let c = WriteLifeText::of(use_lang());
    // The picked write by its last offset; None follows the newest.
    let picked = use_state(|| None::<i64>);
    let Some(life) = (*picked)
        .and_then(|o| props.lives.iter().find(|l| l.last_offset == o))
        .or_else(|| props.lives.last())
    else {
        return html! {};
    };
    let chips = props.lives.iter().map(|l| {
        let chosen = l.last_offset == life.last_offset;
        let picked = picked.clone();
        let newest = props.lives.last().map(|n| n.last_offset) == Some(l.last_offset);
        let choice = if newest { None } else { Some(l.last_offset) };
        html! {
            <button class={classes!("chip", "wl-pick", chosen.then_some("active"))}
                    data-offset={l.last_offset.to_string()}
                    onclick={Callback::from(move |_: MouseEvent| picked.set(choice))}>
                { format!("{} @{}", short_name(&l.event), l.last_offset) }
            </button>
        }
    });
    html! {
        <div class="card write-life-card">
            <div class="wl-head">
                <h3>{ c.title }</h3>
                <span class="wl-picks" aria-label={c.writes}>{ for chips }</span>
            </div>
            { figure(life, c) }
        </div>
    }
}

/// The event's name without its bracketed details (`createTopics`).
fn short_name(event: &str) -> &str {
    event.split(['[', '(']).next().unwrap_or(event)
}

/// The figure of one write: its summary, the lanes' legend and the rows.
fn figure(l: &WriteLife, c: &WriteLifeText) -> Html {
    let rows = rows(l, c);
    let newest = rows.iter().filter_map(|r| r.ms).max();
    let voters: Vec<String> = l.voters.iter().map(|v| v.id.to_string()).collect();
    let state = if l.failed_ms.is_some() {
        "failed"
    } else if l.complete_up_to_ms.is_some() {
        "completed"
    } else {
        "pending"
    };
    html! {
        <div id="write-life" data-event={l.event.clone()} data-controller={l.controller_id.to_string()}
             data-epoch={l.epoch.to_string()} data-base-offset={l.base_offset.to_string()}
             data-last-offset={l.last_offset.to_string()} data-snapshot={l.snapshot_epoch.to_string()}
             data-state={state}>
            <p class="wl-summary">
                <span class="wl-name"><code>{ short_name(&l.event) }</code>{ " · " }</span>
                <span class="wl-name">{ "controller " }</span>
                { format!("{} · epoch {} · offset {}–{} · snapshot {}",
                          l.controller_id, l.epoch, l.base_offset, l.last_offset, l.snapshot_epoch) }
                <span class="wl-at">{ format!(" · {} ms", l.start_ms) }</span>
            </p>
            <div class="wl-legend">
                <span class="wl-event">{ c.legend_event }</span>
                <span class="wl-raft">{ format!("{} {}", c.legend_raft, l.controller_id) }</span>
                <span class="wl-voters">{ format!("{} {}", c.legend_voters, voters.join(", ")) }</span>
            </div>
            <ol class="wl-rows" aria-label={c.lanes().join(" · ")}>
                { for rows.iter().map(|r| row_html(r, l.start_ms, newest, c)) }
            </ol>
            if let Some(t) = l.failed_ms {
                <p class="wl-failed" data-ms={t.to_string()}>
                    { format!("✕ {} ms · {}", t, c.failed) }
                </p>
            }
        </div>
    }
}

/// One row: the three lane cells (the mark in its lane, a link to the lane it hands over to),
/// the method and what it did, the time and Δ.
fn row_html(r: &Row, start_ms: u64, newest: Option<u64>, c: &WriteLifeText) -> Html {
    let done = r.ms.is_some();
    let latest = done && r.ms == newest;
    let (lo, hi) = match r.to {
        Some(t) => (r.lane.index().min(t.index()), r.lane.index().max(t.index())),
        None => (r.lane.index(), r.lane.index()),
    };
    let cells = (0..3).map(|i| {
        let mark = i == r.lane.index();
        let linked = i >= lo && i <= hi && lo != hi;
        let target = r.to.is_some_and(|t| t.index() == i);
        html! {
            <span class={classes!("wl-lane", linked.then_some("linked"), target.then_some("target"),
                                  (linked && i == lo).then_some("from-left"), (linked && i == hi).then_some("to-right"))}>
                if mark {
                    <span class={classes!("wl-mark", r.lane.class())}>
                        { r.number.map(|n| n.to_string()).unwrap_or_else(|| "·".into()) }
                    </span>
                }
            </span>
        }
    });
    let time = match r.ms {
        Some(t) => html! {
            <span class="wl-time" title={format!("{t} ms")}>
                <span class="wl-abs">{ format!("{t} · ") }</span>
                { format!("+{} ms", t.saturating_sub(start_ms)) }
            </span>
        },
        None => html! { <span class="wl-time">{ c.pending }</span> },
    };
    html! {
        <li class={classes!("wl-row", r.lane.class(), if done { "done" } else { "pending" }, latest.then_some("latest"))}
            data-step={r.key} data-ms={r.ms.map(|t| t.to_string()).unwrap_or_default()}
            data-voter={r.voter.map(|v| v.to_string())} title={format!("{} — {}", r.method, r.detail)}>
            { for cells }
            <span class="wl-text">
                <code class="wl-method">{ r.method.clone() }</code>
                <span class="wl-detail">{ r.detail.clone() }</span>
            </span>
            { time }
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kraft_core::controller::write_life::{EventSteps, WriteLives};

    fn life() -> WriteLife {
        let mut w = WriteLives::default();
        w.begin(EventSteps {
            event: "createTopics".into(),
            controller: (101, 1),
            record_types: vec![
                "TOPIC_RECORD".into(),
                "PARTITION_RECORD".into(),
                "PARTITION_RECORD".into(),
            ],
            offsets: (24, 26),
            linger_ms: 25,
            responds: true,
            times: [5002; 6],
        });
        let first = w.iter().next().cloned();
        first.expect("begun")
    }

    #[test]
    fn rows_follow_the_articles_ten_steps() {
        let mut l = life();
        let c = &WriteLifeText::EN;
        l.observe(5027, 27, Some(24), &[(102, 27, Some(23)), (103, 24, None)]);
        let rows = rows(&l, c);
        let numbers: Vec<u8> = rows.iter().filter_map(|r| r.number).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5, 6, 7, 7, 8, 9, 9, 10]);
        let at = |k: &str| rows.iter().find(|r| r.key == k).unwrap().ms;
        assert_eq!(at("prepareAppend"), Some(5002));
        assert_eq!(at("logWrite"), Some(5027));
        assert_eq!(at("highWatermark"), None);
        assert!(rows[0]
            .detail
            .ends_with("TOPIC_RECORD + 2× PARTITION_RECORD"));
        assert!(rows[3].detail.ends_with("26"));
        assert_eq!(short_name("createTopics[orders]"), "createTopics");
    }

    #[test]
    fn free_play_keeps_the_active_controllers_writes() {
        let mut s = crate::state::Playground::new(42).expect("world");
        for _ in 0..3000 {
            s = std::rc::Rc::unwrap_or_clone(yew::Reducible::reduce(
                std::rc::Rc::new(s),
                crate::state::Action::StepTick,
            ));
        }
        let view = s.view.as_deref().expect("a world");
        let active = view
            .nodes
            .iter()
            .filter_map(|n| n.controller.as_ref())
            .find(|c| c.active)
            .expect("an active controller");
        assert!(!active.write_lives.is_empty(), "{active:?}");
    }
}
