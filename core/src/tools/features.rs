//! `kafka-features.sh` (tools/.../FeatureCommand.java): `describe [--node-id N]` and
//! `upgrade|downgrade|disable --feature NAME=LEVEL [--dry-run]`.
//!
//! describe asks one node for its ApiVersions, as the admin client's describeFeatures does
//! (KafkaAdminClient.java:4649-4700): with `--bootstrap-controller` the active controller,
//! whose finalized levels are its FeaturesPublisher's with kraft.version from its Raft client
//! and whose epoch is the offset of the last image that changed a feature
//! (ControllerServer.scala:161-172); with `--bootstrap-server` a broker, whose epoch is its
//! image's offset (KRaftMetadataCache.features). Every supported feature is listed, sorted by
//! name (FeatureCommand.java:238-258; BrokerFeatures.defaultSupportedFeatures).
//!
//! An update goes to the active controller, which checks it as FeatureControlManager.
//! updateFeatures does (FeatureControlManager.java:180-377): the first refused feature fails
//! them all. kraft.version goes through the Raft leader ([`World::upgrade_kraft_version`]);
//! the tool waits until the new kraft.version is committed. The playground changes no other
//! feature: metadata.version and the others are refused with a note (issue 35 adds them), as
//! are `--release-version`, `--metadata`, `version-mapping` and `feature-dependencies`.

use super::argparse::{self, Opt, Parsed, Parser};
use super::feature_levels::{finalized_features, level_text, SUPPORTED};
use super::{properties, ToolError, ADMIN_TIMEOUT_MS, TIMEOUT_EXCEPTION};
use crate::sim::node::ProcessState;
use crate::sim::World;

/// The top-level parser (FeatureCommand.java:75-95).
const MAIN: Parser = Parser {
    prog: "kafka-features",
    opts: &[
        Opt::store(&["--bootstrap-server"]).in_group(1),
        Opt::store(&["--bootstrap-controller"]).in_group(1),
        Opt::store(&["--command-config"]),
    ],
    subcommands: Some(
        "{describe,upgrade,downgrade,disable,version-mapping,feature-dependencies} ...",
    ),
};

/// `describe` (138-145).
const DESCRIBE: Parser = Parser {
    prog: "kafka-features describe",
    opts: &[Opt::store(&["--node-id"])],
    subcommands: None,
};

/// `upgrade` (147-164).
const UPGRADE: Parser = Parser {
    prog: "kafka-features upgrade",
    opts: &[
        Opt::store(&["--metadata"]),
        Opt::store(&["--release-version"]),
        Opt::store(&["--feature"]).append(),
        Opt::flag(&["--dry-run"]),
    ],
    subcommands: None,
};

/// `downgrade` (166-185).
const DOWNGRADE: Parser = Parser {
    prog: "kafka-features downgrade",
    opts: &[
        Opt::store(&["--metadata"]),
        Opt::store(&["--release-version"]),
        Opt::store(&["--feature"]).append(),
        Opt::flag(&["--unsafe"]),
        Opt::flag(&["--dry-run"]),
    ],
    subcommands: None,
};

/// `disable` (187-199).
const DISABLE: Parser = Parser {
    prog: "kafka-features disable",
    opts: &[
        Opt::store(&["--feature"]).append(),
        Opt::flag(&["--unsafe"]),
        Opt::flag(&["--dry-run"]),
    ],
    subcommands: None,
};

/// `Command line error: <message>. Type --help for help.` (60-68; printf, no newline).
fn command_line_error(message: &str) -> ToolError {
    ToolError::new(format!(
        "Command line error: {message}. Type --help for help."
    ))
}

/// The options before the subcommand.
#[derive(Default)]
struct Main {
    server: Option<String>,
    controller: Option<String>,
    config: Option<String>,
}

/// Run `kafka-features` with `args`.
pub fn run(world: &mut World, args: &[String]) -> Result<String, ToolError> {
    let mut main = Main::default();
    let mut i = 0;
    let command = loop {
        let Some(a) = args.get(i) else {
            return Err(command_line_error("too few arguments"));
        };
        i += 1;
        if a == "-h" || a == "--help" {
            return Ok(format!(
                "{}\nThis tool manages feature flags in Kafka.\n",
                argparse::usage(&MAIN)
            ));
        }
        if !a.starts_with('-') {
            break a.as_str();
        }
        let Some(value) = args.get(i).filter(|v| !v.starts_with('-')) else {
            return Err(command_line_error(&match a.as_str() {
                "--bootstrap-server" | "--bootstrap-controller" | "--command-config" => {
                    format!("argument {a}: expected one argument")
                }
                _ => format!("unrecognized arguments: '{a}'"),
            }));
        };
        i += 1;
        match a.as_str() {
            "--bootstrap-server" if main.controller.is_some() => {
                return Err(command_line_error(
                    "argument --bootstrap-server: not allowed with argument --bootstrap-controller",
                ))
            }
            "--bootstrap-controller" if main.server.is_some() => {
                return Err(command_line_error(
                    "argument --bootstrap-controller: not allowed with argument --bootstrap-server",
                ))
            }
            "--bootstrap-server" => main.server = Some(value.clone()),
            "--bootstrap-controller" => main.controller = Some(value.clone()),
            "--command-config" => main.config = Some(value.clone()),
            _ => {
                return Err(command_line_error(&format!(
                    "unrecognized arguments: '{a}'"
                )))
            }
        }
    };
    let parser = match command {
        "describe" => DESCRIBE,
        "upgrade" => UPGRADE,
        "downgrade" => DOWNGRADE,
        "disable" => DISABLE,
        "version-mapping" | "feature-dependencies" => {
            return Err(ToolError::new(format!(
                "kafka-features {command} is not simulated by the KRaft Playground (describe, upgrade, downgrade and disable are)."
            )))
        }
        other => return Err(command_line_error(&format!("argument command: invalid choice: '{other}' (choose from 'describe', 'upgrade', 'downgrade', 'disable', 'version-mapping', 'feature-dependencies')"))),
    };
    let ns = match argparse::parse_raw(&parser, &args[i..]) {
        Ok(Parsed::Help) => return Ok(argparse::usage(&parser)),
        Ok(Parsed::Args(ns)) => ns,
        Err(e) => return Err(command_line_error(&e.message)),
    };
    if let Some(path) = &main.config {
        if properties::read_file(world, path).is_none() {
            return Err(ToolError::new(path.clone()));
        }
    }
    let (list, controller) = match (main.server, main.controller) {
        (Some(s), _) => (s, false),
        (None, Some(c)) => (c, true),
        (None, None) => {
            return Err(command_line_error(
                "You must specify either --bootstrap-controller or --bootstrap-server.",
            ))
        }
    };
    if command == "describe" {
        return describe(world, &list, controller, &ns);
    }
    super::feature_update::update(world, command, &ns)
}

/// `handleDescribe` (238-258).
fn describe(
    world: &mut World,
    list: &str,
    controller: bool,
    ns: &argparse::Namespace,
) -> Result<String, ToolError> {
    let node_id = match ns.get("--node-id") {
        None => None,
        Some(t) => match t.trim().parse::<i32>() {
            Ok(n) if n < 0 => {
                return Err(ToolError::new(format!(
                    "Invalid node id {n}: must be non-negative."
                )))
            }
            Ok(n) => Some(n),
            Err(_) => return Err(command_line_error(&format!("argument --node-id: could not convert '{t}' to Integer (For input string: \"{t}\")"))),
        },
    };
    let pick = |w: &World| -> Option<i32> {
        if !super::bootstrap_reachable(w, list, controller) {
            return None;
        }
        let running = |id: i32| {
            w.node(id)
                .is_some_and(|n| n.process == ProcessState::Running)
        };
        match node_id {
            Some(id) => running(id).then_some(id),
            None if controller => w.active_controller(),
            None => w
                .nodes()
                .find(|n| n.process == ProcessState::Running && n.roles.has_broker())
                .map(|n| n.id),
        }
    };
    if pick(world).is_none() {
        world.run_until(ADMIN_TIMEOUT_MS, |w| pick(w).is_some());
    }
    let Some(id) = pick(world) else {
        return Err(ToolError::new(format!(
            "{TIMEOUT_EXCEPTION}: Timed out waiting for a node assignment. Call: describeFeatures"
        )));
    };
    let (levels, epoch) = finalized_features(world, id);
    let mut out = String::new();
    for (name, min, max) in SUPPORTED {
        let level = levels.get(*name).copied().unwrap_or(0);
        out.push_str(&format!(
            "Feature: {:<40}  SupportedMinVersion: {:<15}  SupportedMaxVersion: {:<15}  FinalizedVersionLevel: {:<15}  Epoch: {}\n",
            name,
            level_text(name, *min),
            level_text(name, *max),
            level_text(name, level),
            epoch.map_or("-".to_string(), |e| e.to_string())
        ));
    }
    Ok(out)
}
