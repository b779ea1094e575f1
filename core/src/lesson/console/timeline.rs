//! The `timeline` command: a standalone SnapshotRegistry and TimelineHashMap (the article's
//! example 3), and the view of it the page's panel draws.

use super::{Call, Console};
use crate::timeline::Revert;
use crate::view::TimelineView;

impl Console {
    /// The `timeline` commands' map for the page's panel; `None` until one of them changed it.
    pub fn timeline_view(&self) -> Option<TimelineView> {
        let (registry, map) = &self.timeline;
        let v = TimelineView::of(
            "TimelineHashMap<String, String>",
            registry,
            map,
            None,
            self.timeline_last_revert.clone(),
        );
        (!v.is_empty()).then_some(v)
    }

    /// `timeline put K V | remove K | snapshot N | get K... at=N | delete-up-to N | revert N |
    /// print LABEL`: drive a TimelineHashMap<String, String> as example 3's Timeline.java does.
    pub(super) fn timeline(&mut self, call: &Call) -> Result<String, String> {
        let args = call.args;
        let (registry, map) = &mut self.timeline;
        let num = |a: Option<&String>| -> Result<i64, String> {
            let a = a.ok_or("timeline: missing offset")?;
            a.parse()
                .map_err(|_| format!("timeline: '{a}' is not an offset"))
        };
        let usage = "usage: timeline put K V | remove K | snapshot N | get K... at=N | delete-up-to N | revert N | print LABEL";
        match args.first().map(|s| s.as_str()) {
            Some("put") => match args {
                [_, k, v] => {
                    map.put(registry, k.clone(), v.clone());
                    Ok(String::new())
                }
                _ => Err(usage.into()),
            },
            Some("remove") => match args {
                [_, k] => {
                    map.remove(registry, k.as_str());
                    Ok(String::new())
                }
                _ => Err(usage.into()),
            },
            Some("snapshot") => {
                let n = num(args.get(1))?;
                registry
                    .idempotent_create_snapshot(n)
                    .map_err(|e| e.to_string())?;
                Ok(String::new())
            }
            Some("delete-up-to") => {
                let n = num(args.get(1))?;
                registry.delete_snapshots_up_to(n, &mut [map]);
                Ok(String::new())
            }
            Some("revert") => {
                let n = num(args.get(1))?;
                let dropped = registry
                    .revert_to_snapshot(n, &mut [map])
                    .map_err(|e| e.to_string())?;
                self.timeline_last_revert = Some(Revert { to: n, dropped });
                Ok(String::new())
            }
            Some("get") => {
                let at = args
                    .iter()
                    .find_map(|a| a.strip_prefix("at="))
                    .ok_or("timeline get needs at=OFFSET")?;
                let at: i64 = at
                    .parse()
                    .map_err(|_| format!("timeline: '{at}' is not an offset"))?;
                let mut parts = Vec::new();
                for k in args[1..].iter().filter(|a| !a.starts_with("at=")) {
                    let v = map
                        .get_at(registry, k.as_str(), at)
                        .map_err(|e| e.to_string())?;
                    parts.push(format!(
                        "{k}={}",
                        v.cloned().unwrap_or_else(|| "null".into())
                    ));
                }
                Ok(format!(" as of {at}: {}", parts.join(" ")))
            }
            Some("print") => {
                let label = args[1..].join(" ");
                let epochs: Vec<String> = registry
                    .epochs_list()
                    .iter()
                    .map(|e| e.to_string())
                    .collect();
                Ok(format!(
                    "{label} current={map} snapshots=[{}]",
                    epochs.join(", ")
                ))
            }
            _ => Err(usage.into()),
        }
    }
}
