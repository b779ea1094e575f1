//! `kafka-storage.sh` (core/.../kafka/tools/StorageTool.scala with
//! metadata/.../storage/Formatter.java): `format --cluster-id ID --config N/controller.properties
//! [--standalone | --initial-controllers "id@host:port:dir,..." | --no-initial-controllers]
//! [--ignore-formatted]` and `random-uuid`.
//!
//! The checks run in StorageTool's order: the config file is loaded (`Utils.loadProps`: a
//! missing file is an uncaught NoSuchFileException), `controller.quorum.voters` with
//! `--standalone`/`--initial-controllers` is refused (StorageTool.scala:152-159), the
//! `--initial-controllers` string is parsed (`DynamicVoters.parse`: an uncaught
//! IllegalArgumentException), `--standalone` needs a controller (274-290), a controller needs
//! the voters or one of the three flags (165-172); then the Formatter: an existing
//! meta.properties of another cluster (`MetaPropertiesEnsemble.verify`), an already formatted
//! directory (Formatter.java:414-418, or with `--ignore-formatted` "All of the log directories
//! are already formatted."), then `Bootstrap metadata: ...` and one `Formatting ...` line
//! (429-451) and the world formats the node ([`World::format_node`]).
//!
//! Simplified: one directory per node (`log.dirs=N`, which is also the metadata directory);
//! `--cluster-id` must be the cluster's own id (Kafka takes any string and the node's requests
//! are later refused with INCONSISTENT_CLUSTER_ID, which the playground does not model);
//! `--release-version`, `--feature`, `--add-scram` and the `info`, `version-mapping`,
//! `feature-dependencies` commands are not simulated.

use super::argparse::{self, Opt, Parsed, Parser};
use super::java_uuid::uuid_from_string;
use super::properties::{self, Props};
use super::{split_node_path, ToolError};
use crate::controller::feature_control::{
    bootstrap_features, METADATA_VERSION_LEVEL, METADATA_VERSION_NAME,
};
use crate::raft::replica_key::ReplicaKey;
use crate::raft::voter_set::VoterNode;
use crate::sim::node_config::Bootstrap;
use crate::sim::World;

/// The top-level parser.
const MAIN: Parser = Parser {
    prog: "kafka-storage",
    opts: &[],
    subcommands: Some("{info,format,version-mapping,feature-dependencies,random-uuid} ..."),
};

/// `format`'s options (StorageTool.scala:315-365, 400-405).
const FORMAT: Parser = Parser {
    prog: "kafka-storage format",
    opts: &[
        Opt::store(&["--config", "-c"]).required(),
        Opt::store(&["--cluster-id", "-t"]).required(),
        Opt::store(&["--add-scram", "-S"]).append(),
        Opt::flag(&["--ignore-formatted", "-g"]),
        Opt::store(&["--release-version", "-r"]),
        Opt::store(&["--feature", "-f"]).append(),
        Opt::flag(&["--standalone", "-s"]).in_group(1),
        Opt::flag(&["--no-initial-controllers", "-N"]).in_group(1),
        Opt::store(&["--initial-controllers", "-I"]).in_group(1),
    ],
    subcommands: None,
};

/// `random-uuid` takes no options.
const RANDOM_UUID: Parser = Parser {
    prog: "kafka-storage random-uuid",
    opts: &[],
    subcommands: None,
};

/// What the JVM prints for an exception `main` does not catch: its `toString()` (the stack
/// frames are left out, as the other tools leave them out), then its causes.
fn uncaught(exception: &str, causes: &[String]) -> ToolError {
    let mut text = format!("Exception in thread \"main\" {exception}\n");
    for c in causes {
        text.push_str(&format!("Caused by: {c}\n"));
    }
    ToolError::new(text)
}

/// A TerseFailure or FormatterException: its message on stderr, exit 1 (StorageTool.scala:44-58).
fn terse(message: impl Into<String>) -> ToolError {
    ToolError::new(message)
}

/// Run `kafka-storage` with `args`.
pub fn run(world: &mut World, args: &[String]) -> Result<String, ToolError> {
    let Some(command) = args.first() else {
        return Err(argparse::error(&MAIN, "too few arguments"));
    };
    let rest = &args[1..];
    match command.as_str() {
        "-h" | "--help" => Ok(format!(
            "{}\nThe Kafka storage tool.\n",
            argparse::usage(&MAIN)
        )),
        "format" => match argparse::parse(&FORMAT, &MAIN, rest)? {
            Parsed::Help => Ok(argparse::usage(&FORMAT)),
            Parsed::Args(ns) => format(world, &ns),
        },
        "random-uuid" => match argparse::parse(&RANDOM_UUID, &MAIN, rest)? {
            Parsed::Help => Ok(argparse::usage(&RANDOM_UUID)),
            Parsed::Args(_) => Ok(format!("{}\n", world.random_uuid())),
        },
        "info" | "version-mapping" | "feature-dependencies" => Err(ToolError::new(format!(
            "kafka-storage {command} is not simulated by the KRaft Playground (format and random-uuid are)."
        ))),
        other if other.starts_with('-') => Err(argparse::error(
            &MAIN,
            &format!("unrecognized arguments: '{other}'"),
        )),
        other => Err(argparse::error(
            &MAIN,
            &format!("argument command: invalid choice: '{other}' (choose from 'info', 'format', 'version-mapping', 'feature-dependencies', 'random-uuid')"),
        )),
    }
}

/// The quorum flags of `format`.
enum QuorumFlag {
    /// None of the three.
    None,
    /// `--standalone`.
    Standalone,
    /// `--no-initial-controllers`.
    NoInitialControllers,
    /// `--initial-controllers` with its string.
    Initial(String),
}

/// The settings of the config file that `format` reads.
struct Config {
    /// node.id
    node_id: i32,
    /// process.roles contains `controller`.
    controller: bool,
    /// controller.quorum.voters is set.
    static_voters: bool,
    /// The first CONTROLLER listener's host and port (for `--standalone`).
    controller_listener: Option<(String, u16)>,
    /// The metadata log directory (`metadata.log.dir`, else the first of `log.dirs`).
    metadata_dir: String,
}

/// `new KafkaConfig(Utils.loadProps(path))`, as far as `format` needs it.
fn load_config(world: &World, path: &str) -> Result<Config, ToolError> {
    let Some(text) = properties::read_file(world, path) else {
        return Err(uncaught(
            &format!("java.nio.file.NoSuchFileException: {path}"),
            &[],
        ));
    };
    let props = properties::parse(&text);
    let Some(roles) = props.get("process.roles") else {
        return Err(uncaught(
            "org.apache.kafka.common.config.ConfigException: Missing required configuration \"process.roles\" which has no default value.",
            &[],
        ));
    };
    let roles: Vec<&str> = roles
        .split(',')
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .collect();
    if roles.is_empty() {
        return Err(terse("The kafka configuration file appears to be for a legacy cluster. Formatting is only supported for clusters in KRaft mode."));
    }
    let node_id = props
        .get("node.id")
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(-1);
    let metadata_dir = props
        .get("metadata.log.dir")
        .cloned()
        .or_else(|| {
            props
                .get("log.dirs")
                .and_then(|d| d.split(',').next().map(|s| s.trim().to_string()))
        })
        .unwrap_or_default();
    Ok(Config {
        node_id,
        controller: roles.contains(&"controller"),
        static_voters: props
            .get("controller.quorum.voters")
            .is_some_and(|v| !v.trim().is_empty()),
        controller_listener: controller_listener(&props),
        metadata_dir,
    })
}

/// The first of `controller.listener.names` among `listeners`: (host, port).
fn controller_listener(props: &Props) -> Option<(String, u16)> {
    let name = props
        .get("controller.listener.names")?
        .split(',')
        .next()?
        .trim()
        .to_uppercase();
    let list = props
        .get("advertised.listeners")
        .or_else(|| props.get("listeners"))?;
    properties::endpoints(list)
        .into_iter()
        .find(|e| e.listener == name)
        .map(|e| (e.host.unwrap_or_else(|| "localhost".into()), e.port))
}

/// `DynamicVoter.parse` (raft/.../DynamicVoter.java:46-113) of one `id@host:port:dir`.
fn parse_voter(input: &str) -> Result<(i32, u16, crate::common::uuid::Uuid), ToolError> {
    let iae = |m: &str| format!("java.lang.IllegalArgumentException: {m}");
    let fail = |m: &str| Err(uncaught(&iae(m), &[]));
    let input = input.trim();
    let Some(at) = input.find('@') else {
        return fail("No @ found in dynamic voter string.");
    };
    if at == 0 {
        return fail("Invalid @ at beginning of dynamic voter string.");
    }
    let id_text = &input[..at];
    let Ok(id) = id_text.parse::<i32>() else {
        return Err(uncaught(
            &iae("Failed to parse node id in dynamic voter string."),
            &[format!(
                "java.lang.NumberFormatException: For input string: \"{id_text}\""
            )],
        ));
    };
    if id < 0 {
        return fail(&format!(
            "Invalid negative node id {id} in dynamic voter string."
        ));
    }
    let mut rest = &input[at + 1..];
    if rest.is_empty() {
        return fail("No hostname found after node id.");
    }
    if let Some(r) = rest.strip_prefix('[') {
        let Some(end) = r.find(']') else {
            return fail("Hostname began with left bracket, but no right bracket was found.");
        };
        rest = &r[end + 1..];
    } else {
        let Some(colon) = rest.find(':') else {
            return fail("No colon following hostname could be found.");
        };
        rest = &rest[colon..];
    }
    let Some(rest) = rest.strip_prefix(':') else {
        return fail("Port section must start with a colon.");
    };
    let Some(colon) = rest.find(':') else {
        return fail("No colon following port could be found.");
    };
    let port_text = &rest[..colon];
    let Ok(port) = port_text.parse::<i32>() else {
        return Err(uncaught(
            &iae("Failed to parse port in dynamic voter string."),
            &[format!(
                "java.lang.NumberFormatException: For input string: \"{port_text}\""
            )],
        ));
    };
    if !(0..=65535).contains(&port) {
        return fail(&format!("Invalid port {port} in dynamic voter string."));
    }
    match uuid_from_string(&rest[colon + 1..]) {
        Ok(dir) => Ok((id, port as u16, dir)),
        Err(e) => Err(uncaught(
            &iae("Failed to parse directory ID in dynamic voter string."),
            &[iae(&e)],
        )),
    }
}

/// `DynamicVoters.parse` (raft/.../DynamicVoters.java:46-80): the voters by id.
fn parse_voters(input: &str) -> Result<Vec<VoterNode>, ToolError> {
    let mut voters: Vec<VoterNode> = Vec::new();
    for s in input.trim().split(',').filter(|s| !s.is_empty()) {
        let (id, port, dir) = parse_voter(s)?;
        voters.push(VoterNode::new(
            ReplicaKey {
                id,
                directory_id: Some(dir),
            },
            port,
        ));
    }
    if voters.is_empty() {
        return Err(uncaught(
            "java.lang.IllegalArgumentException: No voters given.",
            &[],
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    for v in &voters {
        if !seen.insert(v.key.id) {
            return Err(uncaught(
                &format!(
                    "java.lang.IllegalArgumentException: Node id {} was specified more than once.",
                    v.key.id
                ),
                &[],
            ));
        }
    }
    voters.sort_by_key(|v| v.key.id);
    Ok(voters)
}

/// `runFormatCommand` (StorageTool.scala:116-177) and `Formatter.run` / `doFormat`.
fn format(world: &mut World, ns: &argparse::Namespace) -> Result<String, ToolError> {
    let config = load_config(world, ns.get("--config").unwrap_or_default())?;
    for flag in ["--release-version", "--feature", "--add-scram"] {
        if ns.has(flag) {
            return Err(ToolError::new(format!(
                "kafka-storage format {flag} is not simulated by the KRaft Playground (every node is formatted with metadata.version {METADATA_VERSION_NAME} and the default feature levels)."
            )));
        }
    }
    let flag = if ns.has("--standalone") {
        QuorumFlag::Standalone
    } else if ns.has("--no-initial-controllers") {
        QuorumFlag::NoInitialControllers
    } else if let Some(v) = ns.get("--initial-controllers") {
        QuorumFlag::Initial(v.to_string())
    } else {
        QuorumFlag::None
    };
    let bootstrap = quorum_bootstrap(&config, &flag)?;
    do_format(world, &config, ns, bootstrap)
}

/// The quorum checks of `runFormatCommand` (StorageTool.scala:148-172), in its order: the
/// Bootstrap to format with and the initial voters (`None`: no `--initial-controllers` nor
/// `--standalone`).
fn quorum_bootstrap(
    config: &Config,
    flag: &QuorumFlag,
) -> Result<(Bootstrap, Option<Vec<VoterNode>>), ToolError> {
    if config.static_voters && matches!(flag, QuorumFlag::Initial(_) | QuorumFlag::Standalone) {
        return Err(terse("You cannot specify controller.quorum.voters and format the node with --initial-controllers or --standalone. If you want to use dynamic quorum, please remove controller.quorum.voters and specify controller.quorum.bootstrap.servers instead."));
    }
    let initial = match flag {
        QuorumFlag::Initial(text) => Some(parse_voters(text)?),
        QuorumFlag::Standalone => {
            if !config.controller {
                return Err(terse("You can only use --standalone on a controller."));
            }
            let Some((_, port)) = config.controller_listener.clone() else {
                return Err(uncaught(
                    "java.lang.RuntimeException: No controller listeners found.",
                    &[],
                ));
            };
            // `Uuid.randomUuid()`: the node's directory id, drawn from the world's RNG when
            // the machine was added.
            Some(vec![VoterNode::new(
                ReplicaKey {
                    id: config.node_id,
                    directory_id: None,
                },
                port,
            )])
        }
        _ => None,
    };
    if !matches!(flag, QuorumFlag::NoInitialControllers)
        && config.controller
        && !config.static_voters
        && initial.is_none()
    {
        return Err(terse("Because controller.quorum.voters is not set on this controller, you must specify one of the following: --standalone, --initial-controllers, or --no-initial-controllers."));
    }
    let bootstrap = match (&initial, flag) {
        _ if !config.controller => Bootstrap::Broker,
        _ if config.static_voters => Bootstrap::Static,
        (_, QuorumFlag::Standalone) => Bootstrap::Standalone,
        (Some(v), _) => Bootstrap::InitialControllers(v.clone()),
        _ => Bootstrap::NoInitialControllers,
    };
    Ok((bootstrap, initial))
}

/// `Formatter.doFormat` (Formatter.java:401-467) on the node whose directory the config names.
fn do_format(
    world: &mut World,
    config: &Config,
    ns: &argparse::Namespace,
    (bootstrap, initial): (Bootstrap, Option<Vec<VoterNode>>),
) -> Result<String, ToolError> {
    let cluster_id = ns.get("--cluster-id").unwrap_or_default();
    let dir = config.metadata_dir.clone();
    let node = split_node_path(&dir)
        .filter(|(_, rest)| rest.is_empty())
        .and_then(|(id, _)| world.node(id).map(|n| (id, n.formatted)));
    let Some((id, formatted)) = node else {
        return Err(ToolError::new(format!(
            "kafka-storage format: the playground formats a node's own directory (log.dirs=<node id>), not '{dir}'."
        )));
    };
    if formatted {
        let meta = world
            .node(id)
            .and_then(|n| n.disk.read_file("meta.properties"))
            .map(properties::parse)
            .unwrap_or_default();
        let stored = meta.get("cluster.id").cloned().unwrap_or_default();
        if stored != cluster_id {
            return Err(uncaught(&format!("java.lang.RuntimeException: Invalid cluster.id in: {dir}/meta.properties. Expected {cluster_id}, but read {stored}"), &[]));
        }
        if ns.has("--ignore-formatted") {
            return Ok("All of the log directories are already formatted.\n".into());
        }
        return Err(terse(format!("Log directory {dir} is already formatted. Use --ignore-formatted to ignore this directory and format the others.")));
    }
    if cluster_id != world.cluster_id().to_string() {
        return Err(ToolError::new(format!(
            "kafka-storage format: the KRaft Playground formats every node with the cluster's id {} (Kafka would write '{cluster_id}' and the node's requests would be refused with INCONSISTENT_CLUSTER_ID).",
            world.cluster_id()
        )));
    }
    let description = match &initial {
        None => "metadata directory",
        Some(v) if v.iter().any(|n| n.key.id == config.node_id) => {
            "dynamic metadata voter directory"
        }
        Some(_) => "dynamic metadata directory",
    };
    world
        .format_node(id, &bootstrap)
        .map_err(|e| ToolError::new(format!("kafka-storage format: {e}")))?;
    Ok(format!(
        "Bootstrap metadata: {}\nFormatting {description} {dir} with metadata.version {METADATA_VERSION_NAME}.\n",
        bootstrap_metadata_text()
    ))
}

/// `BootstrapMetadata.toString()` of `fromVersions(4.4-IV2, the default levels, "format
/// command")` (BootstrapMetadata.java:101-129, 238-243): metadata.version first, then the other
/// features above level 0 by name, each an `ApiMessageAndVersion(... at version 0)`.
pub fn bootstrap_metadata_text() -> String {
    let records: Vec<String> = bootstrap_features()
        .iter()
        .map(|r| {
            format!(
                "ApiMessageAndVersion(FeatureLevelRecord(name='{}', featureLevel={}) at version 0)",
                r.name, r.feature_level
            )
        })
        .collect();
    format!(
        "BootstrapMetadata(records=[{}], metadataVersionLevel={METADATA_VERSION_LEVEL}, source=format command)",
        records.join(", ")
    )
}
