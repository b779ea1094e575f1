//! Lesson mode through the page: a lesson run to the end with the Right arrow, stepped back,
//! jumped into, and what the cluster view and panels show at chosen steps.

use std::path::Path;
use std::time::Duration;

use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::Value;

use super::driver::{
    click, element_screenshot, no_errors, press, press_char, screenshot, wait_for, wait_until,
};
use super::free_play::nodes;
use crate::Result;

/// What the lesson panel shows: step k of n, and the current step's output (`None` when the step
/// has no command).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct LessonSeen {
    step: usize,
    steps: usize,
    progress: String,
    output: Option<String>,
    pause: bool,
    /// Whether the panel shows a pinned output that differs from what the engine printed.
    mismatch: bool,
    /// The step's command line as shown (`$ …`), empty when the step has none.
    command: String,
    /// What the cluster view and the panels show: see [`VIEW_DIGEST_JS`].
    view: String,
}

/// Collects the data attributes the cluster view, the metadata logs, the broker panel, the
/// controller panel, the MetadataImage panel and the TimelineHashMap panel carry (roles, epochs, LEO/HW, batches, broker
/// states, sessions, the controller's queue, the image's files), as one string: equal
/// strings, equal views.
const VIEW_DIGEST_JS: &str = "
    const pick = sel => Array.from(document.querySelectorAll(sel))
        .map(e => e.tagName + JSON.stringify(e.dataset)).join(';');
    const status = document.getElementById('controller-status');
    return [pick('#cluster [data-node-id]'), pick('#cluster [data-timer-node]'),
            pick('.node-log, .node-log [data-base-offset], .node-log .marker, .node-log [data-snapshot]'),
            pick('#broker-panel, #broker-panel [data-broker-id]'),
            pick('#controller-panel, #controller-panel [data-name], #controller-panel [data-epoch]'),
            pick('#image-panel, #image-panel li[data-path]'),
            pick('#timeline-panel [data-key], #timeline-panel [data-epoch], #timeline-panel [data-to]'),
            Array.from(document.querySelectorAll('#image-panel li.file')).map(e => e.textContent).join(';'),
            status ? status.textContent : ''].join('|');";

pub(super) async fn lesson_panel(c: &Client) -> Result<LessonSeen> {
    let v = c
        .execute(
            &"const p = document.getElementById('lesson-panel');
             if (!p) return null;
             const out = document.getElementById('lesson-output');
             const prog = document.getElementById('lesson-progress');
             return { step: p.dataset.step, steps: p.dataset.steps,
                      progress: prog ? prog.textContent : '',
                      output: out ? out.textContent : null,
                      pause: !!document.getElementById('lesson-pause'),
                      mismatch: !!document.getElementById('lesson-expected'),
                      command: (document.getElementById('lesson-command') || {}).textContent || '',
                      view: (() => { {{ VIEW }} })() };"
                .replace("{{ VIEW }}", VIEW_DIGEST_JS),
            vec![],
        )
        .await?;
    if v.is_null() {
        return Err("there is no #lesson-panel".into());
    }
    let num = |k: &str| -> Result<usize> {
        let t = v.get(k).and_then(Value::as_str).unwrap_or("");
        t.parse()
            .map_err(|_| format!("#lesson-panel has data-{k}=`{t}`").into())
    };
    Ok(LessonSeen {
        step: num("step")?,
        steps: num("steps")?,
        progress: v
            .get("progress")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        output: v.get("output").and_then(Value::as_str).map(str::to_string),
        pause: v.get("pause").and_then(Value::as_bool).unwrap_or(false),
        mismatch: v.get("mismatch").and_then(Value::as_bool).unwrap_or(false),
        command: v
            .get("command")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        view: v
            .get("view")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
    })
}

pub(super) async fn wait_for_step(c: &Client, step: usize) -> Result<LessonSeen> {
    wait_until(&format!("the lesson panel to show step {step}"), || async {
        let seen = lesson_panel(c).await?;
        Ok((seen.step == step).then_some(seen))
    })
    .await
}

/// An error naming the first step whose output is an `error: …`.
fn no_failed_step(seen: &[LessonSeen]) -> Result<()> {
    match seen
        .iter()
        .filter_map(|s| s.output.as_deref())
        .find(|o| o.starts_with("error: "))
    {
        Some(bad) => Err(format!("a step failed: {bad}").into()),
        None => Ok(()),
    }
}

/// Opens `?lesson=NAME&lang=en&play=0` (its waits jump to their end: the lesson checks run
/// at test speed; [`lesson_election_played`] plays one) and gives what its panel shows at step 0.
async fn open_lesson(c: &Client, url: &str, name: &str) -> Result<LessonSeen> {
    c.goto(&format!("{url}?lesson={name}&lang=en&play=0"))
        .await?;
    wait_for(
        c,
        "#lesson-panel[data-step='0']",
        "#lesson-panel did not appear",
    )
    .await?;
    no_errors(c).await?;
    lesson_panel(c).await
}

/// Opens `?lesson=NAME&lang=en` and presses Right arrow until the last step; what each step
/// showed, from step 0 (before the first) to the last.
pub(super) async fn lesson_to_the_end(
    c: &Client,
    url: &str,
    name: &str,
) -> Result<Vec<LessonSeen>> {
    let first = open_lesson(c, url, name).await?;
    if first.steps == 0 {
        return Err(format!("lesson {name} has no steps").into());
    }
    let mut seen = vec![first.clone()];
    for k in 1..=first.steps {
        press(c, Key::Right).await?;
        seen.push(wait_for_step(c, k).await?);
    }
    if let Some((k, s)) = seen.iter().enumerate().find(|(_, s)| s.mismatch) {
        return Err(
            format!("step {k} of {name} differs from the output the lesson pins: {s:?}").into(),
        );
    }
    let last = seen.last().cloned().unwrap_or(first);
    let want = format!("step {0} / {0}", last.steps);
    if last.progress.trim() != want {
        return Err(format!(
            "#lesson-progress reads `{}`, wanted `{want}`",
            last.progress
        )
        .into());
    }
    // One more press at the end changes nothing.
    press(c, Key::Right).await?;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let after = lesson_panel(c).await?;
    if after != last {
        return Err(format!("Right arrow past the end changed the panel: {after:?}").into());
    }
    no_errors(c).await?;
    Ok(seen)
}

pub(super) async fn lesson_timeline_to_the_end(c: &Client, url: &str) -> Result<Vec<LessonSeen>> {
    let seen = lesson_to_the_end(c, url, "03-timeline").await?;
    let outputs: Vec<&str> = seen.iter().filter_map(|s| s.output.as_deref()).collect();
    for want in [
        "committed up to 10 current={orders=id-A} snapshots=[10]",
        "lost leadership, reverted to 11 current={orders=id-A, payments=id-B} snapshots=[11]",
    ] {
        if !outputs.iter().any(|o| o.trim_end() == want) {
            return Err(format!("no step showed `{want}`; outputs: {outputs:?}").into());
        }
    }
    if !seen.iter().any(|s| s.pause) {
        return Err("no step showed the pause marker".into());
    }
    if let Some(bad) = outputs.iter().find(|o| o.starts_with("error: ")) {
        return Err(format!("a step failed: {bad}").into());
    }
    Ok(seen)
}

/// From the last step, Left arrow shows the step before, with the output it showed on the way
/// forward (the lesson replayed from the start); Home goes back to step 0; Space runs step 1 again.
/// Leaves a screenshot of the step before the last in `shot`.
pub(super) async fn lesson_goes_back(c: &Client, seen: &[LessonSeen], shot: &Path) -> Result<()> {
    let n = seen.len() - 1;
    press(c, Key::Left).await?;
    let back = wait_for_step(c, n - 1).await?;
    screenshot(c, shot).await;
    if back != seen[n - 1] {
        return Err(format!(
            "after Left the panel shows {back:?}, on the way forward it showed {:?}",
            seen[n - 1]
        )
        .into());
    }
    if n >= 2 {
        press(c, Key::Left).await?;
        let back2 = wait_for_step(c, n - 2).await?;
        if back2 != seen[n - 2] {
            return Err(format!("two steps back: {back2:?}, wanted {:?}", seen[n - 2]).into());
        }
    }
    press(c, Key::Home).await?;
    wait_for_step(c, 0).await?;
    press(c, Key::Space).await?;
    let one = wait_for_step(c, 1).await?;
    if one != seen[1] {
        return Err(format!("step 1 again shows {one:?}, first time {:?}", seen[1]).into());
    }
    if n >= 3 {
        // Space with the focus on a lesson button still moves one step, not two.
        click(c, "#lesson-next").await?;
        wait_for_step(c, 2).await?;
        press(c, Key::Space).await?;
        wait_for_step(c, 3).await?;
        tokio::time::sleep(Duration::from_millis(150)).await;
        let now = lesson_panel(c).await?;
        if now.step != 3 {
            return Err(format!(
                "Space on the focused Next button moved to step {}",
                now.step
            )
            .into());
        }
        let jumped = goto_step(c, n).await?;
        if jumped != seen[n] {
            return Err(
                format!("jumping to step {n} shows {jumped:?}, wanted {:?}", seen[n]).into(),
            );
        }
    }
    // While the keyboard help is open the lesson keys do nothing.
    let before = lesson_panel(c).await?.step;
    press_char(c, '?').await?;
    wait_for(
        c,
        "#help-overlay",
        "`?` did not open #help-overlay in a lesson",
    )
    .await?;
    press(c, Key::Left).await?;
    tokio::time::sleep(Duration::from_millis(150)).await;
    let during = lesson_panel(c).await?.step;
    press(c, Key::Escape).await?;
    if during != before {
        return Err(
            format!("Left under the help moved the lesson from {before} to {during}").into(),
        );
    }
    no_errors(c).await
}

pub(super) async fn lesson_election(c: &Client, url: &str, shot: &Path) -> Result<()> {
    let seen = lesson_to_the_end(c, url, "02-election").await?;
    screenshot(c, shot).await;
    no_failed_step(&seen)?;
    let nodes = nodes(c).await?;
    let find = |id: i32| {
        nodes
            .iter()
            .find(|n| n.id == id)
            .ok_or_else(|| format!("node {id} is not drawn: {nodes:?}"))
    };
    let n102 = find(102)?;
    if n102.role != "Leader" || n102.epoch != 2 || n102.process != "running" {
        return Err(format!("node 102 should lead with epoch 2: {n102:?}").into());
    }
    let n101 = find(101)?;
    if n101.process != "killed" {
        return Err(format!("node 101 should be killed: {n101:?}").into());
    }
    Ok(())
}

/// Clicks the stage's side-panel tab `panel` (`log`, `image`, ...) and waits until it shows.
pub(super) async fn show_tab(c: &Client, panel: &str) -> Result<()> {
    click(c, &format!("#tab-{panel}")).await?;
    wait_until(&format!("the {panel} panel on the stage"), || async {
        let v = c
            .execute(
                "const p = document.getElementById('stage-panel'); return p ? p.dataset.panel : null;",
                vec![],
            )
            .await?;
        Ok((v.as_str() == Some(panel)).then_some(()))
    })
    .await
}

/// The first step whose command line contains `text`.
fn step_with<'a>(seen: &'a [LessonSeen], text: &str) -> Result<&'a LessonSeen> {
    seen.iter()
        .find(|s| s.command.contains(text))
        .ok_or_else(|| format!("no step runs `{text}`").into())
}

/// Clicks step `k` in the row of steps and waits until the lesson panel shows it.
async fn goto_step(c: &Client, k: usize) -> Result<LessonSeen> {
    click(c, &format!("#lesson-steps [data-step='{k}']")).await?;
    wait_for_step(c, k).await
}

/// Clicks step `k` in the row of steps and checks that the page shows what it showed there on
/// the way forward, panels included.
async fn jump_back_to(c: &Client, seen: &LessonSeen) -> Result<()> {
    let now = goto_step(c, seen.step).await?;
    if now != *seen {
        return Err(format!(
            "jumping to step {} shows {now:?}, on the way forward it showed {seen:?}",
            seen.step
        )
        .into());
    }
    Ok(())
}

/// The `HighWatermark:` of a `kafka-metadata-quorum … describe --status` output.
fn status_field(output: &str, field: &str) -> Option<i64> {
    output
        .lines()
        .find_map(|l| l.strip_prefix(field)?.trim().parse().ok())
}

/// What the metadata log panel shows for one node: (LEO, HW, its batches as
/// (base offset, epoch, control)).
async fn node_log(c: &Client, id: i32) -> Result<(i64, Option<i64>, Vec<(i64, i32, bool)>)> {
    let v = c
        .execute(
            "const r = document.getElementById('log-' + arguments[0]);
             if (!r) return null;
             return { leo: r.dataset.leo, hw: r.dataset.hw,
                      batches: Array.from(r.querySelectorAll('[data-base-offset]')).map(b =>
                          [b.dataset.baseOffset, b.dataset.epoch, b.dataset.control]) };",
            vec![Value::from(id)],
        )
        .await?;
    if v.is_null() {
        return Err(format!("no metadata log row #log-{id}").into());
    }
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    let leo = s(&v["leo"])
        .parse()
        .map_err(|_| format!("#log-{id} has data-leo `{}`", v["leo"]))?;
    let hw = s(&v["hw"]).parse().ok();
    let batches = v["batches"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|b| {
                    Some((
                        s(&b[0]).parse().ok()?,
                        s(&b[1]).parse().ok()?,
                        s(&b[2]) == "true",
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    Ok((leo, hw, batches))
}

/// Lesson 01 (example 1) through the page: node 1 alone leads epoch 1; at the `describe
/// --status` step the log panel's HW is the HighWatermark the tool printed; the log starts with
/// the leader's control batch; after `--create` the controller panel holds topic orders.
pub(super) async fn lesson_metadata_log(c: &Client, url: &str, shot: &Path) -> Result<()> {
    let seen = lesson_to_the_end(c, url, "01-metadata-log").await?;
    screenshot(c, shot).await;
    no_failed_step(&seen)?;
    let ids: Vec<i32> = nodes(c).await?.iter().map(|n| n.id).collect();
    if ids != [1] {
        return Err(format!("lesson 01 should draw node 1 alone, saw {ids:?}").into());
    }
    let status = step_with(&seen, "describe --status")?;
    jump_back_to(c, status).await?;
    let out = status.output.as_deref().unwrap_or("");
    let hw = status_field(out, "HighWatermark:")
        .ok_or_else(|| format!("no HighWatermark in `{out}`"))?;
    if status_field(out, "LeaderEpoch:") != Some(1) || status_field(out, "LeaderId:") != Some(1) {
        return Err(format!("describe --status should show leader 1 in epoch 1: `{out}`").into());
    }
    let n1 = nodes(c).await?;
    let n1 = n1.first().ok_or("node 1 is not drawn")?;
    if n1.role != "Leader" || n1.epoch != 1 {
        return Err(format!("node 1 should lead epoch 1: {n1:?}").into());
    }
    show_tab(c, "log").await?;
    let (leo, log_hw, batches) = node_log(c, 1).await?;
    if log_hw != Some(hw) {
        return Err(format!(
            "the tool printed HighWatermark {hw}, the log panel shows HW {log_hw:?}"
        )
        .into());
    }
    if leo < hw {
        return Err(format!("LEO {leo} below HW {hw}").into());
    }
    match batches.first() {
        Some(&(0, 1, true)) => {}
        first => {
            return Err(format!(
                "the first batch should be the control batch at offset 0, epoch 1: {first:?}"
            )
            .into())
        }
    }
    if !batches.iter().any(|b| !b.2) {
        return Err("no data batch in node 1's log".into());
    }
    // The step after `--create`: the controller's topicsByName holds orders.
    let created = step_with(&seen, "--create --topic orders")?;
    let after = seen
        .get(created.step + 1)
        .ok_or("the lesson ends at --create")?;
    jump_back_to(c, after).await?;
    show_tab(c, "controller").await?;
    let orders = c
        .execute(
            "return !!document.querySelector('#ctrl-current tr[data-key=\"orders\"]');",
            vec![],
        )
        .await?;
    if orders != Value::Bool(true) {
        return Err("after --create the controller panel's topicsByName has no orders".into());
    }
    no_errors(c).await
}

/// One broker row of the broker panel: (BrokerState, process, fenced as the active controller
/// has it).
async fn broker_row(c: &Client, id: i32) -> Result<(String, String, String)> {
    let v = c
        .execute(
            "const r = document.querySelector('#broker-panel tr[data-broker-id=\"' + arguments[0] + '\"]');
             return r ? [r.dataset.state, r.dataset.process, r.dataset.fencedController] : null;",
            vec![Value::from(id)],
        )
        .await?;
    let a = v
        .as_array()
        .ok_or_else(|| format!("no broker row for {id}"))?;
    let s = |k: usize| a.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    Ok((s(0), s(1), s(2)))
}

/// Lesson 04 (example 4) through the page: at the step where broker 3 is fenced the broker
/// panel shows it stopped and fenced by controller 100, and the ISR in the describe output
/// lost 3; at the end it runs unfenced again. Jumping back to the fenced step, and from it one
/// step back and forward, shows the same view as on the way forward. Then the MetadataImage
/// panel ([`lesson_image`]).
pub(super) async fn lesson_fencing(c: &Client, url: &str, shot: &Path) -> Result<()> {
    let seen = lesson_to_the_end(c, url, "04-fencing").await?;
    no_failed_step(&seen)?;
    show_tab(c, "brokers").await?;
    let end = broker_row(c, 3).await?;
    if end != ("RUNNING".into(), "running".into(), "false".into()) {
        return Err(format!("at the end broker 3 should run unfenced: {end:?}").into());
    }
    let fenced = step_with(&seen, "until=fenced=3")?;
    if !fenced
        .output
        .as_deref()
        .is_some_and(|o| o.starts_with("broker 3 fenced after"))
    {
        return Err(format!("the fencing step printed {:?}", fenced.output).into());
    }
    jump_back_to(c, fenced).await?;
    screenshot(c, shot).await;
    let row = broker_row(c, 3).await?;
    if row.1 != "stopped" || row.2 != "true" {
        return Err(format!("broker 3 should be stopped and fenced by 100: {row:?}").into());
    }
    let active = c
        .execute(
            "return document.getElementById('broker-panel').dataset.activeController;",
            vec![],
        )
        .await?;
    if active.as_str() != Some("100") {
        return Err(format!("the broker panel's active controller is {active}").into());
    }
    // A node's menu open on the drawing closes when the lesson moves on.
    click(c, "#node-1 .shape").await?;
    wait_for(
        c,
        "#node-menu",
        "no menu after clicking node 1 in the lesson",
    )
    .await?;
    // One step back and forward again: the same view.
    press(c, Key::Left).await?;
    let before = wait_for_step(c, fenced.step - 1).await?;
    if c.find(Locator::Css("#node-menu")).await.is_ok() {
        return Err("the node menu stayed open across a lesson step".into());
    }
    if before != seen[fenced.step - 1] {
        return Err(format!(
            "one step back shows {before:?}, on the way forward {:?}",
            seen[fenced.step - 1]
        )
        .into());
    }
    press(c, Key::Right).await?;
    let again = wait_for_step(c, fenced.step).await?;
    if again != *fenced {
        return Err(format!("forward again shows {again:?}, first time {fenced:?}").into());
    }
    let describe_after = seen
        .iter()
        .skip(fenced.step)
        .find(|s| s.command.contains("--describe"))
        .and_then(|s| s.output.as_deref())
        .unwrap_or("");
    // The article's example 4: leader 1, replicas 1,2,3; fencing 3 leaves Isr 1,2.
    if !describe_after.contains("Leader: 1\tReplicas: 1,2,3\tIsr: 1,2\t") {
        return Err(format!(
            "after fencing the ISR should be 1,2 under leader 1: `{describe_after}`"
        )
        .into());
    }
    lesson_image(c, &seen, &shot.with_file_name("image-panel.png")).await?;
    no_errors(c).await
}

/// What the MetadataImage panel shows: (whose image, provenance offset, the text of the file
/// at `path`, or None when the tree has no such file).
async fn image_file(c: &Client, path: &str) -> Result<(String, i64, Option<String>)> {
    let v = c
        .execute(
            "const p = document.getElementById('image-panel');
             if (!p) return null;
             const f = p.querySelector('li.file[data-path=\"' + arguments[0] + '\"] > .text');
             return [p.dataset.node, p.dataset.offset, f ? f.textContent : null];",
            vec![Value::from(path)],
        )
        .await?;
    let a = v.as_array().ok_or("there is no #image-panel")?;
    let s = |k: usize| a.get(k).and_then(Value::as_str).map(str::to_string);
    let offset = s(1)
        .and_then(|o| o.parse().ok())
        .ok_or_else(|| format!("#image-panel has data-offset {:?}", a.get(1)))?;
    Ok((s(0).unwrap_or_default(), offset, s(2)))
}

/// Clicks the image panel's tab of node `id` and waits until the panel draws its image.
async fn show_image_of(c: &Client, id: i32) -> Result<()> {
    click(c, &format!("#image-node-{id}")).await?;
    wait_until(&format!("the image panel to show node {id}"), || async {
        let (node, _, _) = image_file(c, "/").await?;
        Ok((node == id.to_string()).then_some(()))
    })
    .await
}

/// Whether the directory at `path` in the image panel is open.
async fn image_dir_open(c: &Client, path: &str) -> Result<bool> {
    let v = c
        .execute(
            "const d = document.querySelector('#image-panel li.dir[data-path=\"' + arguments[0] + '\"] > details');
             return d ? d.open : null;",
            vec![Value::from(path)],
        )
        .await?;
    v.as_bool()
        .ok_or_else(|| format!("the image panel has no directory {path}").into())
}

/// Lesson 04's MetadataImage, as the broker panel's kafka-metadata-shell tree shows it: at
/// the `records` step after the fencing, broker 1's image has applied both records the tool
/// printed (broker 3 fenced, the ISR of orders-0 without 3); a directory the lecturer closed
/// stays closed on the next step; at the end broker 3's own image has it unfenced again.
pub(super) async fn lesson_image(c: &Client, seen: &[LessonSeen], shot: &Path) -> Result<()> {
    let records = step_with(seen, "records 100 since=freeze")?;
    let last_offset = records
        .output
        .as_deref()
        .unwrap_or("")
        .lines()
        .filter_map(|l| {
            l.strip_prefix("offset ")?
                .split(' ')
                .next()?
                .parse::<i64>()
                .ok()
        })
        .max()
        .ok_or_else(|| format!("the records step printed {:?}", records.output))?;
    goto_step(c, records.step).await?;
    show_tab(c, "image").await?;
    show_image_of(c, 1).await?;
    let (_, offset, broker3) = image_file(c, "/image/cluster/brokers/3").await?;
    if offset < last_offset {
        return Err(format!(
            "broker 1's image is at offset {offset}, the records printed end at {last_offset}"
        )
        .into());
    }
    if !broker3
        .as_deref()
        .is_some_and(|t| t.starts_with("BrokerRegistration(id=3, ") && t.contains("fenced=true"))
    {
        return Err(format!("broker 1's image shows broker 3 as {broker3:?}").into());
    }
    let (_, _, partition) = image_file(c, "/image/topics/byName/orders/0").await?;
    if !partition
        .as_deref()
        .is_some_and(|t| t.contains("isr=[1, 2]") && t.contains("leader=1,"))
    {
        return Err(format!("broker 1's image shows orders-0 as {partition:?}").into());
    }
    element_screenshot(c, "#image-panel", shot).await;
    // The lecturer closes /image/cluster; the next step keeps it closed.
    if !image_dir_open(c, "/image/cluster").await? {
        return Err("/image/cluster should start open".into());
    }
    click(
        c,
        "#image-panel li.dir[data-path='/image/cluster'] > details > summary",
    )
    .await?;
    press(c, Key::Right).await?;
    wait_for_step(c, records.step + 1).await?;
    // The next step shows another panel; back on the image tab the directory is still closed.
    show_tab(c, "image").await?;
    if image_dir_open(c, "/image/cluster").await? {
        return Err("/image/cluster opened again on the next step".into());
    }
    let end = seen.last().ok_or("the lesson has no steps")?;
    goto_step(c, end.step).await?;
    show_tab(c, "image").await?;
    show_image_of(c, 3).await?;
    let (_, _, broker3) = image_file(c, "/image/cluster/brokers/3").await?;
    if !broker3
        .as_deref()
        .is_some_and(|t| t.contains("fenced=false"))
    {
        return Err(format!("at the end broker 3's image shows itself as {broker3:?}").into());
    }
    Ok(())
}

/// What the TimelineHashMap panel (`#timeline-panel`) shows: the map now, the snapshot
/// epochs, the map as of the picked snapshot (if any), the tiers and the last revert.
#[derive(Debug, PartialEq)]
struct TimelineSeen {
    current: Vec<String>,
    snapshots: Vec<String>,
    as_of: Option<(String, Vec<String>)>,
    tiers: Vec<String>,
    revert: Option<(String, String)>,
}

async fn timeline_panel(c: &Client) -> Result<TimelineSeen> {
    let v = c
        .execute(
            "const p = document.getElementById('timeline-panel');
             if (!p) return null;
             const rows = sel => Array.from(p.querySelectorAll(sel + ' tr[data-key]'))
                 .map(r => r.dataset.key + '=' + r.cells[1].textContent);
             const asOf = document.getElementById('tl-as-of');
             const revert = document.getElementById('tl-last-revert');
             return { current: rows('#tl-current'),
                      snapshots: Array.from(p.querySelectorAll('#tl-snapshots [data-epoch]')).map(e => e.dataset.epoch),
                      as_of: asOf ? [asOf.dataset.epoch, rows('#tl-as-of-table')] : null,
                      tiers: Array.from(p.querySelectorAll('.topic-tier')).map(t => t.dataset.epoch + ':' +
                          Array.from(t.querySelectorAll('.saved')).map(s => s.textContent).join(',')),
                      revert: revert ? [revert.dataset.to, revert.dataset.dropped] : null };",
            vec![],
        )
        .await?;
    if v.is_null() {
        return Err("there is no #timeline-panel".into());
    }
    let strings = |x: &Value| -> Vec<String> {
        x.as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s.as_str().map(str::to_string))
            .collect()
    };
    let pair = |x: &Value| {
        x.as_array()
            .map(|a| (a[0].as_str().unwrap_or("").to_string(), a[1].clone()))
    };
    Ok(TimelineSeen {
        current: strings(&v["current"]),
        snapshots: strings(&v["snapshots"]),
        as_of: pair(&v["as_of"]).map(|(e, rows)| (e, strings(&rows))),
        tiers: strings(&v["tiers"]),
        revert: pair(&v["revert"]).map(|(to, d)| (to, d.as_str().unwrap_or("").to_string())),
    })
}

/// Lesson 03 in the TimelineHashMap panel: after records 11 and 12 the map holds only payments
/// with snapshots 10, 11, 12 and the tiers' saved values (payments absent at 10, orders at 11);
/// picking a snapshot reads the map as of it (10: orders only; 11: both); after the revert to
/// 11 the map is back to both topics, snapshot 12 is gone and the panel names the revert.
pub(super) async fn lesson_timeline_panel(c: &Client, url: &str, shot: &Path) -> Result<()> {
    let first = open_lesson(c, url, "03-timeline").await?;
    let mut applied = None;
    for k in 1..=first.steps {
        let seen = goto_step(c, k).await?;
        if seen.command.contains("timeline print applied") {
            applied = Some(k);
            break;
        }
    }
    applied.ok_or("no `timeline print applied` step in lesson 03")?;
    let seen = timeline_panel(c).await?;
    let want_tiers = ["10:payments = (absent)", "11:orders = id-A"];
    if seen.current != ["payments=id-B"]
        || seen.snapshots != ["10", "11", "12"]
        || seen.tiers != want_tiers
    {
        return Err(format!("after 11 and 12 were applied the panel shows {seen:?}").into());
    }
    for (epoch, want) in [
        ("10", vec!["orders=id-A"]),
        ("11", vec!["orders=id-A", "payments=id-B"]),
    ] {
        click(c, &format!("#tl-as-of-{epoch}")).await?;
        let seen = wait_until(&format!("the map as of {epoch}"), || async {
            let s = timeline_panel(c).await?;
            Ok(s.as_of
                .as_ref()
                .is_some_and(|(e, _)| e == epoch)
                .then_some(s))
        })
        .await?;
        let rows = seen.as_of.map(|(_, r)| r).unwrap_or_default();
        if rows != want {
            return Err(format!("as of {epoch} the panel reads {rows:?}, wanted {want:?}").into());
        }
    }
    element_screenshot(c, "#timeline-panel", shot).await;
    goto_step(c, first.steps).await?;
    let end = timeline_panel(c).await?;
    if end.current != ["orders=id-A", "payments=id-B"]
        || end.snapshots != ["11"]
        || end.revert != Some(("11".into(), "12".into()))
    {
        return Err(format!("after the revert to 11 the panel shows {end:?}").into());
    }
    no_errors(c).await
}
