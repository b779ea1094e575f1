//! What the step changed, through the page (`#step-changes` under the stage's side panel):
//! lesson 02's election names the Raft methods that made 102 the leader, lesson 04 names the
//! ReplicationControlManager and BrokerHeartbeatManager code that fenced broker 3; each cited
//! source is plain `path:Lx-Ly` text linking that file at the article's commit of apache/kafka.

use std::path::Path;

use fantoccini::Client;
use serde_json::Value;

use super::driver::{element_screenshot, no_errors};
use super::stage::{open_at, restore_window, set_viewport, step_of};
use crate::Result;

/// The entries of `#step-changes` as the page shows them: kind, nodes, tag, Kafka method, the
/// source's text and link, the entry's text, and whether the box is on screen.
const ENTRIES_JS: &str = r#"
    const list = document.getElementById('step-changes');
    if (!list) return null;
    const box = document.getElementById('step-changes-box').getBoundingClientRect();
    const entries = Array.from(list.querySelectorAll('li.change')).map(li => {
        const a = li.querySelector('a.sc-source');
        return { kind: li.dataset.kind, node: li.dataset.node, tag: li.dataset.tag,
                 kafka: li.dataset.kafka, text: li.querySelector('.sc-text').textContent,
                 source: a ? a.textContent.trim() : null, href: a ? a.getAttribute('href') : null };
    });
    return { entries, count: Number(list.dataset.count),
             onScreen: box.top >= 0 && box.bottom <= innerHeight + 1 && box.height > 30 };"#;

/// One entry of the list.
#[derive(Debug)]
struct Entry {
    kind: String,
    node: String,
    tag: String,
    kafka: String,
    text: String,
    source: Option<String>,
    href: Option<String>,
}

/// The list as the page shows it now.
async fn entries(c: &Client) -> Result<Vec<Entry>> {
    let v = c.execute(ENTRIES_JS, vec![]).await?;
    if v.is_null() {
        return Err("there is no #step-changes".into());
    }
    if v["onScreen"].as_bool() != Some(true) {
        return Err("#step-changes-box is not on screen at 1280x720".into());
    }
    let s = |e: &Value, k: &str| e[k].as_str().unwrap_or_default().to_string();
    let list: Vec<Entry> = v["entries"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| Entry {
            kind: s(e, "kind"),
            node: s(e, "node"),
            tag: s(e, "tag"),
            kafka: s(e, "kafka"),
            text: s(e, "text"),
            source: e["source"].as_str().map(str::to_string),
            href: e["href"].as_str().map(str::to_string),
        })
        .collect();
    if v["count"].as_u64() != Some(list.len() as u64) {
        return Err(format!(
            "#step-changes says data-count={} but lists {}",
            v["count"],
            list.len()
        )
        .into());
    }
    Ok(list)
}

/// A cited source must read `path:Lx-Ly` and link that file and range at ab1e816411.
fn check_source(e: &Entry) -> Result<()> {
    let (Some(text), Some(href)) = (&e.source, &e.href) else {
        return Err(format!("`{}` cites no source", e.kafka).into());
    };
    let Some((path, lines)) = text.rsplit_once(":L") else {
        return Err(format!("the source `{text}` is not path:Lx-Ly").into());
    };
    let want = format!("https://github.com/apache/kafka/blob/ab1e816411/{path}#L{lines}");
    if !path.ends_with(".java") || *href != want {
        return Err(format!("the source `{text}` links {href}, not {want}").into());
    }
    Ok(())
}

/// Lesson 02 after its kill (the `sleep 15s` in which 102 is elected, jumped to): the list has
/// 101 killed and 102's transition to Leader named as KafkaRaftClient/QuorumState code, with
/// its cited source; in Korean the same entry reads in Korean. Leaves `step-changes.png`.
pub(super) async fn election_changes(c: &Client, url: &str, shot: &Path) -> Result<()> {
    set_viewport(c, 1280, 720).await?;
    open_at(c, url, "lesson=02-election&lang=en&play=0", 0).await?;
    let kill = step_of(c, "kill -9 101").await?;
    let q = format!("lesson=02-election&lang=en&play=0&step={kill}");
    open_at(c, url, &q, kill).await?;
    let killed = entries(c).await?;
    if !killed
        .iter()
        .any(|e| e.kind == "process" && e.node == "101" && e.tag == "killed")
    {
        return Err(format!("the kill step does not list 101 killed: {killed:?}").into());
    }
    for lang in ["en", "ko"] {
        let q = format!("lesson=02-election&lang={lang}&play=0&step={}", kill + 1);
        open_at(c, url, &q, kill + 1).await?;
        let list = entries(c).await?;
        let leader = list
            .iter()
            .find(|e| e.kind == "transition" && e.node == "102" && e.tag == "Leader")
            .ok_or_else(|| format!("no transition of 102 to Leader after the kill: {list:?}"))?;
        if !(leader.kafka.contains("KafkaRaftClient.") || leader.kafka.contains("QuorumState.")) {
            return Err(format!("102's transition to Leader names `{}`", leader.kafka).into());
        }
        check_source(leader)?;
        let word = if lang == "ko" {
            "에포크 2"
        } else {
            "epoch 2"
        };
        if !leader.text.contains("Candidate → Leader") || !leader.text.contains(word) {
            return Err(format!("the {lang} entry reads `{}`", leader.text).into());
        }
        let prospective = list.iter().any(|e| {
            e.node == "102" && e.tag == "Prospective" && e.kafka.contains("pollFollowerAsVoter")
        });
        if !prospective {
            return Err("102's fetch timeout (pollFollowerAsVoter) is not listed".into());
        }
        if lang == "en" {
            element_screenshot(c, "#stage-side", shot).await;
            println!(
                "       after the kill: {} entries, 102 → Leader by {}",
                list.len(),
                leader.kafka
            );
        }
    }
    restore_window(c).await?;
    no_errors(c).await
}

/// Lesson 04's `run until=fenced=3`: broker 3 fenced by the stale-broker check
/// (ReplicationControlManager, BrokerHeartbeatManager) with the article's lines, and orders-0
/// losing 3 from its ISR through handleBrokerFenced.
pub(super) async fn fencing_changes(c: &Client, url: &str) -> Result<()> {
    set_viewport(c, 1280, 720).await?;
    open_at(c, url, "lesson=04-fencing&lang=en&play=0", 0).await?;
    let k = step_of(c, "run until=fenced=3 timeout=15s").await?;
    open_at(
        c,
        url,
        &format!("lesson=04-fencing&lang=en&play=0&step={k}"),
        k,
    )
    .await?;
    let list = entries(c).await?;
    let fenced = list
        .iter()
        .find(|e| e.kind == "broker" && e.node == "3" && e.tag == "fenced")
        .ok_or_else(|| format!("broker 3 is not listed fenced: {list:?}"))?;
    if !(fenced.kafka.contains("ReplicationControlManager.")
        && fenced.kafka.contains("BrokerHeartbeatManager."))
    {
        return Err(format!("broker 3's fencing names `{}`", fenced.kafka).into());
    }
    check_source(fenced)?;
    let isr = list
        .iter()
        .any(|e| e.kind == "partition" && e.kafka.contains("handleBrokerFenced"));
    if !isr {
        return Err(format!("orders-0's ISR change is not listed: {list:?}").into());
    }
    restore_window(c).await?;
    no_errors(c).await
}
