//! The node files the tools read as Kafka's tools read them: a properties file named by its
//! path (`104/controller.properties`, as `Utils.loadProps` opens it), its settings
//! (`java.util.Properties`: `key=value` lines, `#` and `!` comments), and the listeners it
//! declares (`SocketServerConfigs.listenerListToEndPoints`).

use super::split_node_path;
use crate::sim::World;
use std::collections::BTreeMap;

/// A properties file's settings.
pub type Props = BTreeMap<String, String>;

/// The text of the file at `path` (`<node>/<file>`), or None when there is no such file (the
/// node does not exist, or has no such file on its disk).
pub fn read_file(world: &World, path: &str) -> Option<String> {
    let (id, rel) = split_node_path(path)?;
    world.node(id)?.disk.read_file(&rel).map(|s| s.to_string())
}

/// `Properties.load`: `key=value` (or `key:value`, or `key value`) lines; blank lines and
/// `#` / `!` comments are skipped; the key and the value's start are trimmed.
pub fn parse(text: &str) -> Props {
    let mut out = Props::new();
    for line in text.lines() {
        let line = line.trim_start();
        if line.is_empty() || line.starts_with('#') || line.starts_with('!') {
            continue;
        }
        let cut = line.find(['=', ':', ' ', '\t']).unwrap_or(line.len());
        let key = line[..cut].to_string();
        let rest = line[cut..].trim_start();
        let rest = rest
            .strip_prefix(['=', ':'])
            .map(str::trim_start)
            .unwrap_or(rest);
        out.insert(key, rest.to_string());
    }
    out
}

/// One listener of `listeners`: its name, host and port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoint {
    /// The listener's name (`CONTROLLER`).
    pub listener: String,
    /// Its host (`localhost`; `None` when the listener names none).
    pub host: Option<String>,
    /// Its port.
    pub port: u16,
}

/// `listeners=CONTROLLER://localhost:9099,...` as endpoints (entries that do not parse are
/// left out).
pub fn endpoints(list: &str) -> Vec<Endpoint> {
    list.split(',')
        .map(str::trim)
        .filter_map(|e| {
            let (name, rest) = e.split_once("://")?;
            let (host, port) = rest.rsplit_once(':')?;
            Some(Endpoint {
                listener: name.to_uppercase(),
                host: (!host.is_empty()).then(|| host.to_string()),
                port: port.parse().ok()?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_and_listeners_parse() {
        let p = parse("# c\nprocess.roles=controller\n  node.id = 104\n\nlisteners=CONTROLLER://localhost:9099\n");
        assert_eq!(p["process.roles"], "controller");
        assert_eq!(p["node.id"], "104");
        assert_eq!(
            endpoints(&p["listeners"]),
            vec![Endpoint {
                listener: "CONTROLLER".into(),
                host: Some("localhost".into()),
                port: 9099
            }]
        );
    }
}
