//! `kafka-metadata-quorum.sh` (Kafka's `MetadataQuorumCommand`): `describe --status` and
//! `describe --replication [--human-readable]`, answered from the Raft leader's `LeaderState`
//! and its voter set in force (the endpoints) as Kafka's DescribeQuorum does; `add-controller`
//! and `remove-controller` are in [`super::quorum_change`].

use super::{AdminFailure, ToolError, ADMIN_TIMEOUT_MS, TIMEOUT_EXCEPTION};
use crate::common::clock::to_epoch_ms;
use crate::common::java::{java_hash_map_capacity, java_hash_map_order};
use crate::common::uuid::Uuid;
use crate::raft::state::EpochState;
use crate::sim::node::ProcessState;
use crate::sim::World;

const PROG: &str = "kafka-metadata-quorum";

/// The top-level usage argparse4j prints with an argument error.
pub(crate) const MAIN_USAGE: &str =
    "usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe,add-controller,remove-controller} ...
";

const DESCRIBE_USAGE: &str = "usage: kafka-metadata-quorum describe [-h] [--status] [--replication]
                                      [--human-readable]
";

/// One replica of the quorum as DescribeQuorum reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicaInfo {
    /// replicaId
    pub id: i32,
    /// replicaDirectoryId (ZERO when unknown)
    pub directory_id: Uuid,
    /// logEndOffset (-1 when unknown)
    pub log_end_offset: i64,
    /// lastFetchTimestamp, epoch ms
    pub last_fetch_timestamp: Option<u64>,
    /// lastCaughtUpTimestamp, epoch ms
    pub last_caught_up_timestamp: Option<u64>,
    /// The CONTROLLER port (voters only).
    pub port: Option<u16>,
}

/// Kafka's `QuorumInfo`, as the leader answers DescribeQuorum at the world's current time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuorumInfo {
    /// leaderId
    pub leader_id: i32,
    /// leaderEpoch
    pub leader_epoch: i32,
    /// highWatermark (-1 when unknown)
    pub high_watermark: i64,
    /// Voters in the order the response lists them.
    pub voters: Vec<ReplicaInfo>,
    /// Observers in the order the response lists them.
    pub observers: Vec<ReplicaInfo>,
}

/// What the current Raft leader answers to DescribeQuorum, or None without a running leader.
pub fn quorum_info(world: &World) -> Option<QuorumInfo> {
    let (leader_id, _) = world.leader()?;
    let node = world.node(leader_id)?;
    if node.process != ProcessState::Running {
        return None;
    }
    let EpochState::Leader(l) = node.raft.as_ref()?.state() else {
        return None;
    };
    let now = to_epoch_ms(world.now_ms());
    // The endpoints come from the leader's voter set in force (KIP-853: it changes).
    let voter_set = node.raft.as_ref()?.partition_state().last_voter_set();
    let port_of = |id: i32| voter_set.node(id).map(|v| v.port);
    let voters: Vec<ReplicaInfo> = l
        .voter_states
        .values()
        .map(|s| {
            let is_leader = s.key.id == leader_id;
            let leo = if is_leader {
                s.end_offset
                    .unwrap_or_else(|| node.disk.metadata_log.end_offset())
            } else {
                s.end_offset.unwrap_or(-1)
            };
            ReplicaInfo {
                id: s.key.id,
                directory_id: s.key.directory_id.unwrap_or(Uuid::ZERO),
                log_end_offset: leo,
                last_fetch_timestamp: if is_leader {
                    Some(now)
                } else {
                    s.last_fetch_ms.map(to_epoch_ms)
                },
                last_caught_up_timestamp: if is_leader {
                    Some(now)
                } else {
                    s.last_caught_up_ms.map(to_epoch_ms)
                },
                port: port_of(s.key.id),
            }
        })
        .collect();
    let observers: Vec<ReplicaInfo> = l
        .observer_states
        .values()
        .map(|s| ReplicaInfo {
            id: s.key.id,
            // Brokers send their metadata log directory id in Fetch.
            directory_id: s
                .key
                .directory_id
                .or_else(|| world.node(s.key.id).map(|n| n.directory_id))
                .unwrap_or(Uuid::ZERO),
            log_end_offset: s.end_offset.unwrap_or(-1),
            last_fetch_timestamp: s.last_fetch_ms.map(to_epoch_ms),
            last_caught_up_timestamp: s.last_caught_up_ms.map(to_epoch_ms),
            port: None,
        })
        .collect();
    // voterStates and observerStates are Java HashMaps keyed by id.
    let vc = java_hash_map_capacity(voters.len(), None);
    let oc = java_hash_map_capacity(observers.len(), None);
    Some(QuorumInfo {
        leader_id,
        leader_epoch: l.epoch,
        high_watermark: l.high_watermark.unwrap_or(-1),
        voters: java_hash_map_order(voters, |r| r.id, vc),
        observers: java_hash_map_order(observers, |r| r.id, oc),
    })
}

/// An argparse4j error: the usage, then `<prog>: error: <message>`.
fn argparse_error(usage: &str, prog: &str, message: &str) -> ToolError {
    ToolError::new(format!("{usage}{prog}: error: {message}\n"))
}

/// Match a long option the way argparse4j does: exact, or an unambiguous prefix.
fn match_flag<'a>(arg: &str, flags: &[&'a str]) -> Option<&'a str> {
    let name = arg.split('=').next().unwrap_or(arg);
    if let Some(f) = flags.iter().find(|f| **f == name) {
        return Some(f);
    }
    let m: Vec<&&str> = flags
        .iter()
        .filter(|f| name.len() > 2 && f.starts_with(name))
        .collect();
    if m.len() == 1 {
        Some(m[0])
    } else {
        None
    }
}

/// What parsing one level of the command line ends in: a help text to print, or the arguments.
enum Parsed<T> {
    /// `-h` / `--help`: the text to print.
    Help(String),
    /// The arguments parsed.
    Args(T),
}

/// The options before the subcommand, the subcommand, and where its own arguments start.
#[derive(Default)]
struct MainArgs<'a> {
    bootstrap_server: Option<String>,
    bootstrap_controller: Option<String>,
    command_config: Option<String>,
    command: Option<&'a str>,
    rest: usize,
}

/// The `describe` subcommand's flags.
struct DescribeArgs {
    /// `--status` (else `--replication`).
    status: bool,
    /// `--human-readable`.
    human_readable: bool,
}

/// Run `kafka-metadata-quorum` with `args`.
pub fn run(world: &mut World, args: &[String]) -> Result<String, ToolError> {
    let main = match parse_main_args(args)? {
        Parsed::Help(text) => return Ok(text),
        Parsed::Args(main) => main,
    };
    let (list, controller) = bootstrap(&main)?;
    let sub = &args[main.rest..];
    let config = main.command_config.as_deref();
    let target = super::quorum_change::Bootstrap {
        list: list.clone(),
        controller,
    };
    match check_command(main.command)? {
        "add-controller" => {
            return super::quorum_change::add_controller(world, &target, config, sub)
        }
        "remove-controller" => {
            return super::quorum_change::remove_controller(world, &target, config, sub)
        }
        _ => {}
    }
    let describe = match parse_describe_args(sub)? {
        Parsed::Help(text) => return Ok(text),
        Parsed::Args(describe) => describe,
    };
    super::quorum_change::command_config(world, config)?;
    let info = wait_for_quorum_info(world, &list, controller)?;
    if describe.status {
        Ok(status_text(world, &info))
    } else {
        Ok(replication_text(world, &info, describe.human_readable))
    }
}

/// The top-level argparse4j parser: options up to the first positional, the subcommand.
fn parse_main_args(args: &[String]) -> Result<Parsed<MainArgs<'_>>, ToolError> {
    let mut main = MainArgs::default();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if a == "-h" || a == "--help" {
            return Ok(Parsed::Help(format!(
                "{MAIN_USAGE}\nThis tool describes kraft metadata quorum status.\n"
            )));
        }
        if !a.starts_with('-') {
            main.command = Some(a);
            break;
        }
        let Some(flag) = match_flag(
            a,
            &[
                "--bootstrap-server",
                "--bootstrap-controller",
                "--command-config",
            ],
        ) else {
            return Err(argparse_error(
                MAIN_USAGE,
                PROG,
                &format!("unrecognized arguments: '{a}'"),
            ));
        };
        let value = option_value(args, &mut i, a, flag)?;
        main.set_option(flag, value)?;
    }
    main.rest = i;
    Ok(Parsed::Args(main))
}

/// The value of option `a` (matched as `flag`): after `=`, or the next argument (then `i`
/// moves past it) unless that is an option itself.
fn option_value(args: &[String], i: &mut usize, a: &str, flag: &str) -> Result<String, ToolError> {
    match a.split_once('=') {
        Some((_, v)) => Ok(v.to_string()),
        None => match args.get(*i) {
            Some(v) if !v.starts_with('-') => {
                *i += 1;
                Ok(v.clone())
            }
            _ => Err(argparse_error(
                MAIN_USAGE,
                PROG,
                &format!("argument {flag}: expected one argument"),
            )),
        },
    }
}

impl MainArgs<'_> {
    /// Record a top-level option; the two bootstrap options are mutually exclusive.
    fn set_option(&mut self, flag: &str, value: String) -> Result<(), ToolError> {
        match flag {
            "--bootstrap-server" => {
                if self.bootstrap_controller.is_some() {
                    return Err(argparse_error(
                        MAIN_USAGE,
                        PROG,
                        "argument --bootstrap-server: not allowed with argument --bootstrap-controller",
                    ));
                }
                self.bootstrap_server = Some(value)
            }
            "--bootstrap-controller" => {
                if self.bootstrap_server.is_some() {
                    return Err(argparse_error(
                        MAIN_USAGE,
                        PROG,
                        "argument --bootstrap-controller: not allowed with argument --bootstrap-server",
                    ));
                }
                self.bootstrap_controller = Some(value)
            }
            _ => self.command_config = Some(value),
        }
        Ok(())
    }
}

/// The bootstrap list and whether it names controllers (one of the two options is required).
fn bootstrap(main: &MainArgs) -> Result<(String, bool), ToolError> {
    match (&main.bootstrap_server, &main.bootstrap_controller) {
        (Some(s), _) => Ok((s.clone(), false)),
        (None, Some(c)) => Ok((c.clone(), true)),
        (None, None) => Err(argparse_error(
            MAIN_USAGE,
            PROG,
            "one of the arguments --bootstrap-server --bootstrap-controller is required",
        )),
    }
}

/// The subcommand: `describe`, `add-controller` or `remove-controller`.
fn check_command(command: Option<&str>) -> Result<&str, ToolError> {
    let Some(command) = command else {
        return Err(argparse_error(MAIN_USAGE, PROG, "too few arguments"));
    };
    match command {
        "describe" | "add-controller" | "remove-controller" => Ok(command),
        other => Err(argparse_error(
            MAIN_USAGE,
            PROG,
            &format!(
                "argument command: invalid choice: '{other}' (choose from 'describe', 'add-controller', 'remove-controller')"
            ),
        )),
    }
}

/// The `describe` subparser's flags, then the checks on them `MetadataQuorumCommand` makes.
fn parse_describe_args(args: &[String]) -> Result<Parsed<DescribeArgs>, ToolError> {
    let (mut status, mut replication, mut human) = (false, false, false);
    for a in args {
        if a == "-h" || a == "--help" {
            return Ok(Parsed::Help(format!(
                "{DESCRIBE_USAGE}\nDescribe the metadata quorum info\n"
            )));
        }
        match match_flag(a, &["--status", "--replication", "--human-readable"]) {
            Some("--status") => status = true,
            Some("--replication") => replication = true,
            Some("--human-readable") => human = true,
            _ => {
                return Err(argparse_error(
                    MAIN_USAGE,
                    PROG,
                    &format!("unrecognized arguments: '{a}'"),
                ))
            }
        }
    }
    if status && replication {
        return Err(ToolError::new(
            "Only one of --status or --replication should be specified with describe sub-command",
        ));
    }
    if !status && !replication {
        return Err(ToolError::new(
            "One of --status or --replication must be specified with describe sub-command",
        ));
    }
    if status && human {
        return Err(ToolError::new(
            "The option --human-readable is only supported along with --replication",
        ));
    }
    Ok(Parsed::Args(DescribeArgs {
        status,
        human_readable: human,
    }))
}

/// Wait (running the world, as the AdminClient retries) for a leader to answer DescribeQuorum.
fn wait_for_quorum_info(
    world: &mut World,
    bootstrap: &str,
    controller: bool,
) -> Result<QuorumInfo, ToolError> {
    let answerable = |w: &World| {
        super::bootstrap_reachable(w, bootstrap, controller) && quorum_info(w).is_some()
    };
    if !answerable(world) {
        world.run_until(ADMIN_TIMEOUT_MS, answerable);
    }
    if answerable(world) {
        return Ok(quorum_info(world).expect("checked"));
    }
    let msg = AdminFailure::NoNode {
        call: "describeMetadataQuorum",
    }
    .message();
    Err(ToolError::new(format!(
        "{TIMEOUT_EXCEPTION}: {msg}\njava.util.concurrent.ExecutionException: {TIMEOUT_EXCEPTION}: {msg}\nCaused by: {TIMEOUT_EXCEPTION}: {msg}\n"
    )))
}

fn node_text(r: &ReplicaInfo) -> String {
    let mut s = format!("{{\"id\": {}", r.id);
    if r.directory_id != Uuid::ZERO {
        s.push_str(&format!(", \"directoryId\": \"{}\"", r.directory_id));
    }
    if let Some(port) = r.port {
        s.push_str(&format!(
            ", \"endpoints\": [\"CONTROLLER://localhost:{port}\"]"
        ));
    }
    s.push('}');
    s
}

fn nodes_text(rs: &[ReplicaInfo]) -> String {
    format!(
        "[{}]",
        rs.iter().map(node_text).collect::<Vec<_>>().join(", ")
    )
}

/// The `describe --status` text for `info`.
pub fn status_text(world: &World, info: &QuorumInfo) -> String {
    let leader = info
        .voters
        .iter()
        .position(|v| v.id == info.leader_id)
        .unwrap_or(0);
    // Stream.min keeps the first of equal elements.
    let mut min = 0;
    for (i, v) in info.voters.iter().enumerate() {
        if v.log_end_offset < info.voters[min].log_end_offset {
            min = i;
        }
    }
    let (lag, lag_time) = match (info.voters.get(leader), info.voters.get(min)) {
        (Some(l), Some(m)) => {
            let lag = l.log_end_offset - m.log_end_offset;
            let t = if leader == min {
                0
            } else {
                match (l.last_caught_up_timestamp, m.last_caught_up_timestamp) {
                    (Some(a), Some(b)) => a as i64 - b as i64,
                    _ => -1,
                }
            };
            (lag, t)
        }
        _ => (0, 0),
    };
    format!(
        "ClusterId:              {}\nLeaderId:               {}\nLeaderEpoch:            {}\nHighWatermark:          {}\nMaxFollowerLag:         {}\nMaxFollowerLagTimeMs:   {}\nCurrentVoters:          {}\nCurrentObservers:       {}\n",
        world.cluster_id(),
        info.leader_id,
        info.leader_epoch,
        info.high_watermark,
        lag,
        lag_time,
        nodes_text(&info.voters),
        nodes_text(&info.observers)
    )
}

/// ToolsUtils.prettyPrintTable: every cell left-aligned to its column's width, then a tab.
pub fn pretty_print_table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (i, c) in row.iter().enumerate() {
            if i < widths.len() {
                widths[i] = widths[i].max(c.chars().count());
            }
        }
    }
    let mut out = String::new();
    let mut line = |cells: Vec<&str>| {
        for (i, c) in cells.iter().enumerate() {
            let w = widths.get(i).copied().unwrap_or(0);
            out.push_str(&format!("{c:<w$}\t"));
        }
        out.push('\n');
    };
    line(headers.to_vec());
    for row in rows {
        line(row.iter().map(|s| s.as_str()).collect());
    }
    out
}

/// The `describe --replication` table for `info`.
pub fn replication_text(world: &World, info: &QuorumInfo, human_readable: bool) -> String {
    let now = to_epoch_ms(world.now_ms());
    let leader = info.voters.iter().find(|v| v.id == info.leader_id);
    let leader_leo = leader.map(|l| l.log_end_offset).unwrap_or(0);
    let ts = |t: Option<u64>| match t {
        None => "-1".to_string(),
        Some(t) if human_readable => format!("{} ms ago", now.saturating_sub(t)),
        Some(t) => t.to_string(),
    };
    let row = |r: &ReplicaInfo, status: &str| {
        vec![
            r.id.to_string(),
            r.directory_id.to_string(),
            r.log_end_offset.to_string(),
            (leader_leo - r.log_end_offset).to_string(),
            ts(r.last_fetch_timestamp),
            ts(r.last_caught_up_timestamp),
            status.to_string(),
        ]
    };
    let mut rows = Vec::new();
    if let Some(l) = leader {
        rows.push(row(l, "Leader"));
    }
    for v in info.voters.iter().filter(|v| v.id != info.leader_id) {
        rows.push(row(v, "Follower"));
    }
    for o in &info.observers {
        rows.push(row(o, "Observer"));
    }
    pretty_print_table(
        &[
            "NodeId",
            "DirectoryId",
            "LogEndOffset",
            "Lag",
            "LastFetchTimestamp",
            "LastCaughtUpTimestamp",
            "Status",
        ],
        &rows,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_usage_argparse_lays_out_is_the_pinned_one() {
        assert_eq!(
            crate::tools::argparse::usage(&super::super::quorum_change::MAIN),
            MAIN_USAGE
        );
    }

    #[test]
    fn tables_pad_every_cell_and_end_with_a_tab() {
        let t = pretty_print_table(&["A", "Bcd"], &[vec!["xyz".into(), "1".into()]]);
        assert_eq!(t, "A  \tBcd\t\nxyz\t1  \t\n");
    }
}
