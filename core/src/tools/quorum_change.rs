//! `kafka-metadata-quorum.sh ... add-controller [--dry-run]` and `... remove-controller
//! --controller-id N --controller-directory-id D [--dry-run]` (tools/.../
//! MetadataQuorumCommand.java:147-160, 334-556).
//!
//! add-controller reads the new controller's own properties file (`--command-config`, which the
//! tool requires): node.id, process.roles, the metadata directory and, from its
//! meta.properties, the directory id, and the CONTROLLER listener (MQC:345-420). Both send
//! their request from the admin client to the Raft leader (KafkaAdminClient.addRaftVoter /
//! removeRaftVoter, 5147-5238): with `--bootstrap-controller` the admin client finds the active
//! controller; with `--bootstrap-server` a broker forwards to it (KafkaApis.scala:239), which
//! the playground shortens to the same direct request. NOT_LEADER_OR_FOLLOWER and a refused
//! connection are retried against the new leader until the admin client's deadline; any other
//! error fails the future and the tool prints the exception, then its stack trace's
//! `ExecutionException` and `Caused by` lines (MQC:93-96; the frames are left out).

use super::argparse::{self, Opt, Parsed, Parser};
use super::java_uuid::uuid_from_string;
use super::properties::{self, Props};
use super::{AdminFailure, ToolError, ADMIN_RETRY_BACKOFF_MS, ADMIN_TIMEOUT_MS, TIMEOUT_EXCEPTION};
use crate::common::protocol::Errors;
use crate::common::uuid::Uuid;
use crate::raft::messages::{
    AddRaftVoterRequest, RaftRequest, RaftResponse, RemoveRaftVoterRequest,
};
use crate::raft::replica_key::ReplicaKey;
use crate::sim::World;

/// `kafka-metadata-quorum`'s top-level parser (MQC:101-117).
pub const MAIN: Parser = Parser {
    prog: "kafka-metadata-quorum",
    opts: &[
        Opt::store(&["--bootstrap-server"]).required().in_group(1),
        Opt::store(&["--bootstrap-controller"])
            .required()
            .in_group(1),
        Opt::store(&["--command-config"]),
    ],
    subcommands: Some("{describe,add-controller,remove-controller} ..."),
};

/// `add-controller` (MQC:334-343).
const ADD: Parser = Parser {
    prog: "kafka-metadata-quorum add-controller",
    opts: &[Opt::flag(&["--dry-run"])],
    subcommands: None,
};

/// `remove-controller` (MQC:460-487).
const REMOVE: Parser = Parser {
    prog: "kafka-metadata-quorum remove-controller",
    opts: &[
        Opt::store(&["--controller-id", "-i"]).required(),
        Opt::store(&["--controller-directory-id", "-d"]).required(),
        Opt::flag(&["--dry-run"]),
        Opt::flag(&["--unregister"]),
    ],
    subcommands: None,
};

/// Where the tool connects: the bootstrap list and whether it names controllers.
#[derive(Clone, Debug)]
pub struct Bootstrap {
    /// `host:port,...`
    pub list: String,
    /// `--bootstrap-controller` (else `--bootstrap-server`).
    pub controller: bool,
}

/// A TerseException: its message on stderr (MQC:90-92).
fn terse(message: impl Into<String>) -> ToolError {
    ToolError::new(message)
}

/// What `mainNoExit` prints for any other Throwable (MQC:93-96): the message, then the stack
/// trace's first line and its cause (frames left out), for an ExecutionException of `class`.
fn execution_failure(class: &str, message: &str) -> ToolError {
    ToolError::new(format!(
        "{class}: {message}\njava.util.concurrent.ExecutionException: {class}: {message}\nCaused by: {class}: {message}\n"
    ))
}

/// `getProperties` (MQC:169-177): the `--command-config` file's settings.
pub fn command_config(world: &World, path: Option<&str>) -> Result<Option<Props>, ToolError> {
    let Some(path) = path else {
        return Ok(None);
    };
    match properties::read_file(world, path) {
        Some(text) => Ok(Some(properties::parse(&text))),
        None => Err(terse(format!("Properties file {path} does not exist."))),
    }
}

/// `add-controller`: parse its options, then `handleAddController` (MQC:147-155, 422-458).
pub fn add_controller(
    world: &mut World,
    bootstrap: &Bootstrap,
    config_path: Option<&str>,
    args: &[String],
) -> Result<String, ToolError> {
    let ns = match argparse::parse(&ADD, &MAIN, args)? {
        Parsed::Help => return Ok(argparse::usage(&ADD)),
        Parsed::Args(ns) => ns,
    };
    let Some(props) = command_config(world, config_path)? else {
        return Err(terse("You must supply the configuration file of the controller you are adding when using add-controller."));
    };
    let id = controller_id(&props)?;
    let dir = metadata_directory(&props)?;
    let directory_id = metadata_directory_id(world, &dir)?;
    let (listener, host, port) = controller_endpoint(&props)?;
    let dry_run = ns.has("--dry-run");
    if !dry_run {
        let request = RaftRequest::AddRaftVoter(AddRaftVoterRequest {
            cluster_id: world.cluster_id().to_string(),
            timeout_ms: ADMIN_TIMEOUT_MS,
            voter: ReplicaKey {
                id,
                directory_id: (directory_id != Uuid::ZERO).then_some(directory_id),
            },
            port: Some(port),
            ack_when_committed: true,
        });
        raft_call(world, "addRaftVoter", bootstrap, request)?;
    }
    let host = if host.contains(':') {
        format!("[{host}]")
    } else {
        host
    };
    Ok(format!(
        "{} controller {id} with directory id {directory_id} and endpoints: {listener}://{host}:{port}\n",
        if dry_run { "DRY RUN of adding" } else { "Added" }
    ))
}

/// `getControllerId` (MQC:345-360).
fn controller_id(props: &Props) -> Result<i32, ToolError> {
    let Some(text) = props.get("node.id") else {
        return Err(terse("node.id not found in configuration file. Is this a valid controller configuration file?"));
    };
    let Ok(id) = text.parse::<i32>() else {
        let m = format!("For input string: \"{text}\"");
        return Err(ToolError::new(format!(
            "{m}\njava.lang.NumberFormatException: {m}\n"
        )));
    };
    if id < 0 {
        return Err(terse("node.id was negative in configuration file. Is this a valid controller configuration file?"));
    }
    if !props
        .get("process.roles")
        .is_some_and(|r| r.contains("controller"))
    {
        return Err(terse("process.roles did not contain 'controller' in configuration file. Is this a valid controller configuration file?"));
    }
    Ok(id)
}

/// `getMetadataDirectory` (MQC:362-375).
fn metadata_directory(props: &Props) -> Result<String, ToolError> {
    if let Some(d) = props.get("metadata.log.dir") {
        return Ok(d.clone());
    }
    if let Some(d) = props.get("log.dirs") {
        return Ok(d.trim().split(',').next().unwrap_or_default().to_string());
    }
    Err(terse("Neither metadata.log.dir nor log.dirs were found. Is this a valid controller configuration file?"))
}

/// `getMetadataDirectoryId` (MQC:377-390): the directory.id of `dir`/meta.properties.
fn metadata_directory_id(world: &World, dir: &str) -> Result<Uuid, ToolError> {
    let Some(text) = properties::read_file(world, &format!("{dir}/meta.properties")) else {
        return Err(terse(format!("Unable to read meta.properties from {dir}")));
    };
    properties::parse(&text)
        .get("directory.id")
        .and_then(|d| uuid_from_string(d).ok())
        .ok_or_else(|| terse(format!("No directory id found in {dir}")))
}

/// `getControllerAdvertisedListeners` (MQC:392-420): the first controller listener's
/// (name, host, port).
fn controller_endpoint(props: &Props) -> Result<(String, String, u16), ToolError> {
    let mut all = properties::endpoints(props.get("listeners").map_or("", String::as_str));
    all.extend(properties::endpoints(
        props.get("advertised.listeners").map_or("", String::as_str),
    ));
    let Some(names) = props.get("controller.listener.names") else {
        return Err(terse("controller.listener.names was not found. Is this a valid controller configuration file?"));
    };
    let name = names
        .split(',')
        .next()
        .unwrap_or_default()
        .trim()
        .to_uppercase();
    let Some(e) = all.into_iter().rev().find(|e| e.listener == name) else {
        return Err(terse(format!(
            "Cannot find information about controller listener name: {name}"
        )));
    };
    Ok((
        e.listener,
        e.host.unwrap_or_else(|| "localhost".into()),
        e.port,
    ))
}

/// `remove-controller`: parse its options, then `handleRemoveController` (MQC:156-160,
/// 489-542).
pub fn remove_controller(
    world: &mut World,
    bootstrap: &Bootstrap,
    config_path: Option<&str>,
    args: &[String],
) -> Result<String, ToolError> {
    let ns = match argparse::parse(&REMOVE, &MAIN, args)? {
        Parsed::Help => return Ok(argparse::usage(&REMOVE)),
        Parsed::Args(ns) => ns,
    };
    let id_text = ns.get("--controller-id").unwrap_or_default();
    let Ok(id) = id_text.trim().parse::<i32>() else {
        return Err(argparse::error(
            &REMOVE,
            &format!(
                "argument --controller-id/-i: could not convert '{id_text}' to Integer (For input string: \"{id_text}\")"
            ),
        ));
    };
    command_config(world, config_path)?;
    if ns.has("--unregister") {
        return Err(ToolError::new("remove-controller --unregister is not simulated by the KRaft Playground (it has no UnregisterController RPC); remove the voter without it."));
    }
    if id < 0 {
        return Err(terse(format!("Invalid negative --controller-id: {id}")));
    }
    let directory_id = uuid_from_string(ns.get("--controller-directory-id").unwrap_or_default())
        .map_err(|e| terse(format!("Failed to parse --controller-directory-id: {e}")))?;
    let dry_run = ns.has("--dry-run");
    if !dry_run {
        let request = RaftRequest::RemoveRaftVoter(RemoveRaftVoterRequest {
            cluster_id: world.cluster_id().to_string(),
            voter: ReplicaKey {
                id,
                directory_id: (directory_id != Uuid::ZERO).then_some(directory_id),
            },
        });
        raft_call(world, "removeRaftVoter", bootstrap, request)?;
    }
    Ok(format!(
        "{}KRaft controller {id} with directory id {directory_id}\n",
        if dry_run {
            "DRY RUN of removing "
        } else {
            "Removed "
        }
    ))
}

/// The Raft leader, if the bootstrap list reaches a running node of the right kind.
fn target(world: &World, bootstrap: &Bootstrap) -> Option<i32> {
    if !super::bootstrap_reachable(world, &bootstrap.list, bootstrap.controller) {
        return None;
    }
    world.leader().map(|(id, _)| id)
}

/// Send `request` from the admin client to the Raft leader and run the world until it is
/// answered, as the admin client's Call does: retried on NOT_LEADER_OR_FOLLOWER or a refused
/// connection, failed at the deadline with its TimeoutException. An error answer is the
/// exception `Errors.exception(message)` makes: the response's message, or the error's default.
fn raft_call(
    world: &mut World,
    call: &'static str,
    bootstrap: &Bootstrap,
    request: RaftRequest,
) -> Result<(), ToolError> {
    let deadline = world.now_ms() + ADMIN_TIMEOUT_MS;
    let mut tries = 0u32;
    loop {
        let reachable = |w: &World| target(w, bootstrap).is_some();
        let left = deadline.saturating_sub(world.now_ms());
        if !world.run_until(left, reachable) {
            let failure = if tries == 0 {
                AdminFailure::NoNode { call }
            } else {
                AdminFailure::timed_out(call, deadline, tries, world, 0)
            };
            return Err(execution_failure(TIMEOUT_EXCEPTION, &failure.message()));
        }
        let to = target(world, bootstrap).expect("reachable");
        let cid = world
            .admin_send_raft(to, request.clone())
            .map_err(|e| ToolError::new(e.to_string()))?;
        tries += 1;
        let left = deadline.saturating_sub(world.now_ms());
        world.run_until(left, |w| w.admin_raft_response(cid).is_some());
        let Some(response) = world.admin_raft_response(cid).cloned() else {
            let failure =
                AdminFailure::timed_out(call, deadline, tries, world, ADMIN_RETRY_BACKOFF_MS);
            return Err(execution_failure(TIMEOUT_EXCEPTION, &failure.message()));
        };
        let (error, message) = match response {
            RaftResponse::AddRaftVoter(r) | RaftResponse::RemoveRaftVoter(r) => {
                (r.error, r.error_message)
            }
            RaftResponse::Failed { error, .. } => (error, None),
            _ => (Errors::UnknownServerError, None),
        };
        let retriable = matches!(
            error,
            Errors::NotLeaderOrFollower | Errors::BrokerNotAvailable
        );
        if error == Errors::None {
            return Ok(());
        }
        if retriable && world.now_ms() + ADMIN_RETRY_BACKOFF_MS >= deadline {
            let failure =
                AdminFailure::timed_out(call, deadline, tries, world, ADMIN_RETRY_BACKOFF_MS);
            return Err(execution_failure(TIMEOUT_EXCEPTION, &failure.message()));
        }
        if !retriable {
            let class = format!(
                "org.apache.kafka.common.errors.{}",
                error.exception().unwrap_or("UnknownServerException")
            );
            let message = message.unwrap_or_else(|| error.default_message().to_string());
            return Err(execution_failure(&class, &message));
        }
        world.run_for(ADMIN_RETRY_BACKOFF_MS);
    }
}
