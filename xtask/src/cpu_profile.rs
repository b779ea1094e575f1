//! A CPU profile of the page through Chromium's DevTools protocol (chromedriver's
//! `goog/cdp/execute`): where the step clicks of `cargo xtask bench --page-only --profile` spend
//! their time, by function (the wasm keeps its name section for this run).

use std::collections::{BTreeMap, BTreeSet};

use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::Client;
use serde_json::{json, Value};

use crate::Result;

/// One DevTools command sent through chromedriver.
#[derive(Debug)]
struct Cdp {
    cmd: String,
    params: Value,
}

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> std::result::Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({ "cmd": self.cmd, "params": self.params });
        (http::Method::POST, Some(body.to_string()))
    }
}

/// Sends DevTools command `cmd` and gives its result.
pub async fn cdp(c: &Client, cmd: &str, params: Value) -> Result<Value> {
    c.issue_cmd(Cdp {
        cmd: cmd.to_string(),
        params,
    })
    .await
    .map_err(|e| format!("DevTools {cmd}: {e}").into())
}

/// Starts the sampling profiler (one sample every 50 µs).
pub async fn start(c: &Client) -> Result<()> {
    cdp(c, "Profiler.enable", json!({})).await?;
    cdp(c, "Profiler.setSamplingInterval", json!({ "interval": 50 })).await?;
    cdp(c, "Profiler.start", json!({})).await?;
    Ok(())
}

/// Stops the profiler and prints the `top` functions by self time and by total time.
pub async fn stop_and_print(c: &Client, top: usize) -> Result<()> {
    let v = cdp(c, "Profiler.stop", json!({})).await?;
    let profile = &v["profile"];
    let nodes = profile["nodes"].as_array().ok_or("profile without nodes")?;
    let mut name = BTreeMap::new();
    let mut parent = BTreeMap::new();
    for n in nodes {
        let id = n["id"].as_u64().unwrap_or_default();
        let f = n["callFrame"]["functionName"].as_str().unwrap_or_default();
        name.insert(id, if f.is_empty() { "(anonymous)" } else { f }.to_string());
        for ch in n["children"].as_array().into_iter().flatten() {
            parent.insert(ch.as_u64().unwrap_or_default(), id);
        }
    }
    let samples = profile["samples"]
        .as_array()
        .ok_or("profile without samples")?;
    let deltas = profile["timeDeltas"]
        .as_array()
        .ok_or("profile without timeDeltas")?;
    let mut self_us: BTreeMap<&str, f64> = BTreeMap::new();
    let mut total_us: BTreeMap<&str, f64> = BTreeMap::new();
    let mut busy = 0.0;
    for (i, s) in samples.iter().enumerate() {
        // A sample's time is the delta to the next sample.
        let dt = deltas.get(i + 1).and_then(Value::as_f64).unwrap_or(0.0);
        let mut id = s.as_u64().unwrap_or_default();
        let leaf = name.get(&id).map_or("?", String::as_str);
        if leaf != "(idle)" && leaf != "(program)" {
            busy += dt;
        }
        *self_us.entry(leaf).or_default() += dt;
        let mut seen = BTreeSet::new();
        loop {
            let f = name.get(&id).map_or("?", String::as_str);
            if seen.insert(f) {
                *total_us.entry(f).or_default() += dt;
            }
            match parent.get(&id) {
                Some(p) => id = *p,
                None => break,
            }
        }
    }
    let print = |title: &str, m: &BTreeMap<&str, f64>| {
        let mut v: Vec<(&&str, &f64)> = m.iter().collect();
        v.sort_by(|a, b| b.1.total_cmp(a.1));
        println!("  {title}:");
        for (f, us) in v.into_iter().filter(|(f, _)| **f != "(root)").take(top) {
            let f: String = f.chars().take(110).collect();
            println!("    {:8.1} ms  {f}", us / 1000.0);
        }
    };
    println!(
        "bench: CPU profile of the step clicks ({:.1} ms busy)",
        busy / 1000.0
    );
    print("self time", &self_us);
    print("total time", &total_us);
    let ours: BTreeMap<&str, f64> = total_us
        .iter()
        .filter(|(f, _)| f.contains("kraft_web::") || f.contains("kraft_core::"))
        .map(|(f, t)| (*f, *t))
        .collect();
    print("total time in the page's and the engine's functions", &ours);
    Ok(())
}
