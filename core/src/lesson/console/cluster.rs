//! The commands that build the cluster: `cluster`, `set`, `add-broker` and `add-node`.

use super::{key_values, Call, Console};
use crate::sim::args::parse_ids;
use crate::sim::{World, WorldConfig};

impl Console {
    /// `cluster controllers=101,102,103 brokers=1 combined=104 seed=7
    /// quorum=initial-controllers|standalone|static`: a new world, with the settings `set`
    /// gave so far.
    pub(super) fn cluster(&mut self, call: &Call) -> Result<String, String> {
        let mut controllers = vec![101, 102, 103];
        let mut brokers = Vec::new();
        let mut combined = Vec::new();
        let mut seed = 7u64;
        let mut quorum = crate::sim::node_config::QuorumMode::default();
        for (k, v) in key_values(call.args)? {
            match k.as_str() {
                "controllers" => controllers = parse_ids(&v)?,
                "brokers" => brokers = parse_ids(&v)?,
                "combined" => combined = parse_ids(&v)?,
                "quorum" => {
                    quorum = crate::sim::node_config::QuorumMode::from_name(&v).ok_or_else(|| {
                        format!(
                            "cluster: quorum={v} is not a way to format the controllers (initial-controllers, standalone, static)"
                        )
                    })?
                }
                "seed" => {
                    seed = v
                        .parse()
                        .map_err(|_| format!("seed '{v}' is not a whole number"))?
                }
                other => {
                    return Err(format!(
                        "cluster: unknown key '{other}' (controllers, brokers, combined, seed, quorum)"
                    ))
                }
            }
        }
        let mut config = WorldConfig::new(seed, controllers, brokers);
        config.combined = combined;
        config.quorum_mode = quorum;
        config.rules = self.rules;
        for (k, v) in &self.settings {
            crate::lesson::settings::apply(&mut config, k, *v);
        }
        let mut world = World::new(config).map_err(|e| e.to_string())?;
        // Every invariant is checked after every event while the cluster runs (issue 18).
        world.set_watcher(Some(Box::new(crate::invariants::InvariantMonitor::new())));
        self.marks.clear();
        self.world = Some(world);
        Ok(String::new())
    }

    /// `set KEY=VALUE ...`: the console's own settings at any time, the cluster's before
    /// `cluster`.
    pub(super) fn set(&mut self, call: &Call) -> Result<String, String> {
        let args = call.args;
        if args.is_empty() {
            return Err("usage: set key=value ... (`help set` lists the settings)".into());
        }
        let mut notes = Vec::new();
        for (k, v) in key_values(args)? {
            if let Some(name) = k.strip_prefix("rule.") {
                notes.extend(self.set_rule(name, &v)?);
                continue;
            }
            let setting = crate::lesson::settings::find(&k)
                .ok_or_else(|| crate::lesson::settings::unknown(&k))?;
            let n = setting.parse(&v)?;
            match k.as_str() {
                "tick.ms" => self.tick_ms = n as u64,
                "command.max.ms" => self.max_command_ms = n as u64,
                "command.max.events" => self.max_command_events = n as u64,
                // Read when the cluster starts: kept for the next `cluster` (free play always
                // has one running, so a refusal could not be followed).
                _ if self.world.is_some() => {
                    notes.push(format!(
                        "{k}={v} takes effect when a cluster starts: the running cluster keeps its value, the next `cluster` gets {v}"
                    ));
                    self.settings.insert(k, n);
                }
                _ => {
                    self.settings.insert(k, n);
                }
            }
        }
        Ok(notes.join("\n"))
    }

    /// `set rule.NAME=on|off`: before `cluster` for the next cluster; while it runs, at once.
    /// A rule read only when a process starts (see `Rule::switchable`) is not switched in the
    /// running cluster: it is kept for the next `cluster`, and the note returned says so.
    fn set_rule(&mut self, name: &str, value: &str) -> Result<Option<String>, String> {
        use crate::common::rules;
        let rule = rules::Rule::from_name(name).ok_or_else(|| rules::unknown_rule(name))?;
        let on = rules::parse_switch(name, value)?;
        let mut note = None;
        if let Some(w) = self.world.as_mut() {
            if rule.switchable() == rules::Switchable::BeforeCluster {
                if w.rules().get(rule) != on {
                    note = Some(format!(
                        "rule.{name}={value} acts when a process starts: the running cluster keeps it {}, the next `cluster` gets it {value}",
                        if on { "off" } else { "on" }
                    ));
                }
            } else {
                w.set_rule(rule, on)?;
            }
        }
        self.rules.set(rule, on);
        Ok(note)
    }

    /// `add-broker N`: a new, empty broker joins the running cluster.
    pub(super) fn add_broker(&mut self, call: &Call) -> Result<String, String> {
        let raw = call
            .args
            .first()
            .ok_or("usage: add-broker NODE (a new, empty broker)")?;
        let id: i32 = raw
            .parse()
            .map_err(|_| format!("add-broker: '{raw}' is not a node id"))?;
        self.world()?
            .add_broker(id)
            .map_err(|e| format!("add-broker: {e}"))?;
        Ok(String::new())
    }
}

impl Console {
    /// `add-node N controller|broker|combined`: a new machine joins the cluster's network with
    /// its properties file written ([`crate::sim::World::provision_node`]), neither formatted
    /// nor started: `kafka-storage.sh format --config N/controller.properties ...`, then
    /// `start N`. Prints the file's path.
    pub(super) fn add_node(&mut self, call: &Call) -> Result<String, String> {
        use crate::sim::node::Roles;
        let usage = "usage: add-node NODE controller|broker|combined (a new machine: its properties file, not formatted, not started)";
        let [raw, role] = call.args else {
            return Err(usage.into());
        };
        let id: i32 = raw.parse().map_err(|_| {
            format!("add-node: '{raw}' is not a node id (a whole number from 0 to 2147483647)")
        })?;
        if id < 0 {
            return Err(format!("add-node: node id {id} must not be negative"));
        }
        let roles = match role.as_str() {
            "controller" => Roles::Controller,
            "broker" => Roles::Broker,
            "combined" | "broker,controller" => Roles::Combined,
            other => {
                return Err(format!(
                    "add-node: '{other}' is not a role (controller, broker, combined)"
                ))
            }
        };
        let w = self.world()?;
        let controllers = w.nodes().filter(|n| n.roles.has_controller()).count();
        if roles.has_controller() && controllers >= crate::sim::world::MAX_VOTERS {
            return Err(format!(
                "add-node: at most {} controllers are supported",
                crate::sim::world::MAX_VOTERS
            ));
        }
        w.provision_node(id, roles)
            .map_err(|e| format!("add-node: {e}"))?;
        Ok(format!(
            "{id}/{}",
            crate::sim::node_config::properties_file(roles)
        ))
    }
}
