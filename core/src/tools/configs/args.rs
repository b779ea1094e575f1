//! The `kafka-configs` command line: its options (`ConfigCommandOptions`), the entity types and
//! names they name, and the checks `ConfigCommandOptions.checkArgs` makes before any request.

use super::{message_error, usage_error};
use crate::tools::jopt::{self, Arg};
use crate::tools::ToolError;

/// The options `kafka-configs` accepts and whether each takes a value.
pub(super) const SPEC: &[(&str, Arg)] = &[
    ("bootstrap-server", Arg::Str),
    ("bootstrap-controller", Arg::Str),
    ("command-config", Arg::Str),
    ("alter", Arg::None),
    ("describe", Arg::None),
    ("all", Arg::None),
    ("entity-type", Arg::Str),
    ("entity-name", Arg::Str),
    ("entity-default", Arg::None),
    ("add-config", Arg::Str),
    ("add-config-file", Arg::Str),
    ("delete-config", Arg::Str),
    ("topic", Arg::Str),
    ("client", Arg::Str),
    ("client-defaults", Arg::None),
    ("user", Arg::Str),
    ("user-defaults", Arg::None),
    ("broker", Arg::Str),
    ("broker-defaults", Arg::None),
    ("broker-logger", Arg::Str),
    ("ip-defaults", Arg::None),
    ("ip", Arg::Str),
    ("group", Arg::Str),
    ("client-metrics", Arg::Str),
    ("help", Arg::None),
    ("version", Arg::None),
];

/// The entity types ConfigCommand accepts with `--bootstrap-server` / `--bootstrap-controller`
/// (`BROKER_SUPPORTED_CONFIG_TYPES`: broker-loggers, then `ConfigType.values()`).
pub const ENTITY_TYPES: &[&str] = &[
    "broker-loggers",
    "topics",
    "clients",
    "users",
    "brokers",
    "ips",
    "client-metrics",
    "groups",
];

/// The specific entity flags and the entity type each stands for (`entityFlags()`).
const ENTITY_FLAGS: &[(&str, &str)] = &[
    ("topic", "topics"),
    ("client", "clients"),
    ("user", "users"),
    ("broker", "brokers"),
    ("broker-logger", "broker-loggers"),
    ("ip", "ips"),
    ("client-metrics", "client-metrics"),
    ("group", "groups"),
];

/// The default-entity flags (`entityDefaultsFlags()`).
const DEFAULT_FLAGS: &[(&str, &str)] = &[
    ("client-defaults", "clients"),
    ("user-defaults", "users"),
    ("broker-defaults", "brokers"),
    ("ip-defaults", "ips"),
];

/// The entity types and names of the command line (`entityTypes()`, `entityNames()`).
pub(super) struct Entities {
    /// The entity types: `--entity-type` values, then those the specific flags stand for.
    pub(super) types: Vec<String>,
    /// The entity names (`""` for a default entity), in the same order as the types.
    pub(super) names: Vec<String>,
}

/// Collect the entity types and names from the generic and the specific entity options.
fn entities(opts: &jopt::Options) -> Entities {
    let mut types: Vec<String> = opts.values("entity-type").to_vec();
    for (flag, t) in ENTITY_FLAGS.iter().chain(DEFAULT_FLAGS) {
        if opts.has(flag) {
            types.push(t.to_string());
        }
    }
    let mut names: Vec<String> = opts.values("entity-name").to_vec();
    if opts.has("entity-default") {
        names.push(String::new());
    }
    for (flag, _) in ENTITY_FLAGS {
        if let Some(v) = opts.value(flag) {
            names.push(v.to_string());
        }
    }
    for (flag, _) in DEFAULT_FLAGS {
        if opts.has(flag) {
            names.push(String::new());
        }
    }
    Entities { types, names }
}

impl Entities {
    /// Whether `t` is one of the entity types.
    fn has_type(&self, t: &str) -> bool {
        self.types.iter().any(|x| x == t)
    }

    /// Whether a named (non-default) entity was given.
    fn has_name(&self) -> bool {
        self.names.iter().any(|n| !n.is_empty())
    }

    /// Whether a default entity was given.
    fn has_default(&self) -> bool {
        self.names.iter().any(|n| n.is_empty())
    }
}

/// `ConfigCommandOptions.checkArgs`: the action, the entity types and flags, the connection
/// options, then what `--describe` or `--alter` needs; the entities when all checks pass.
pub(super) fn check_args(opts: &jopt::Options) -> Result<Entities, ToolError> {
    check_action(opts)?;
    let e = entities(opts);
    check_entity_types(opts, &e.types)?;
    check_entity_flags(opts)?;
    if opts.has("bootstrap-server") && opts.has("bootstrap-controller") {
        return Err(message_error(
            "Only one of --bootstrap-server or --bootstrap-controller can be specified",
        ));
    }
    check_broker_ids(opts, &e)?;
    if opts.has("describe") {
        check_describe(opts, &e)?;
    }
    if opts.has("alter") {
        check_alter(opts, &e)?;
    }
    Ok(e)
}

/// Exactly one of `--alter` and `--describe`, and `--describe` without the alter options.
fn check_action(opts: &jopt::Options) -> Result<(), ToolError> {
    let actions = ["alter", "describe"].iter().filter(|a| opts.has(a)).count();
    if actions != 1 {
        return Err(usage_error(
            "Command must include exactly one action: --describe, --alter",
        ));
    }
    if opts.has("describe") {
        for o in ["alter", "add-config", "delete-config"] {
            if opts.has(o) {
                return Err(usage_error(&format!(
                    "Option \"[describe]\" can't be used with option \"[{o}]\""
                )));
            }
        }
    }
    Ok(())
}

/// The entity types that are given more than once, each once, in order of first repeat.
fn duplicate_types(types: &[String]) -> Vec<&str> {
    let mut seen: Vec<&str> = Vec::new();
    let mut duplicates: Vec<&str> = Vec::new();
    for t in types {
        if seen.contains(&t.as_str()) {
            if !duplicates.contains(&t.as_str()) {
                duplicates.push(t);
            }
        } else {
            seen.push(t);
        }
    }
    duplicates
}

/// No repeated entity type, a connection option, every type one ConfigCommand knows, and one
/// type (or users with clients).
fn check_entity_types(opts: &jopt::Options, types: &[String]) -> Result<(), ToolError> {
    let duplicates = duplicate_types(types);
    if !duplicates.is_empty() {
        return Err(message_error(&format!(
            "Duplicate entity type(s) specified: {}",
            duplicates.join(",")
        )));
    }
    if !opts.has("bootstrap-server") && !opts.has("bootstrap-controller") {
        return Err(message_error(
            "Either --bootstrap-server or --bootstrap-controller must be specified.",
        ));
    }
    for t in types {
        if !ENTITY_TYPES.contains(&t.as_str()) {
            return Err(message_error(&format!(
                "Invalid entity type {t}, the entity type must be one of {} with a --bootstrap-server or --bootstrap-controller argument",
                ENTITY_TYPES.join(", ")
            )));
        }
    }
    if types.is_empty() {
        return Err(message_error("At least one entity type must be specified"));
    }
    let users_and_clients = types.len() == 2
        && types.iter().any(|t| t == "users")
        && types.iter().any(|t| t == "clients");
    if types.len() > 1 && !users_and_clients {
        return Err(message_error(
            "Only 'users' and 'clients' entity types may be specified together",
        ));
    }
    Ok(())
}

/// The generic `--entity-*` options and the specific entity flags are not mixed.
fn check_entity_flags(opts: &jopt::Options) -> Result<(), ToolError> {
    let generic = opts.has("entity-name") || opts.has("entity-type") || opts.has("entity-default");
    let specific = ENTITY_FLAGS
        .iter()
        .chain(DEFAULT_FLAGS)
        .any(|(f, _)| opts.has(f));
    if generic && specific {
        return Err(message_error(
            "--entity-{type,name,default} should not be used in conjunction with specific entity flags",
        ));
    }
    Ok(())
}

/// A named broker or broker logger is an integer broker id.
fn check_broker_ids(opts: &jopt::Options, e: &Entities) -> Result<(), ToolError> {
    if e.has_name() && (e.has_type("brokers") || e.has_type("broker-loggers")) {
        for o in ["entity-name", "broker", "broker-logger"] {
            if let Some(id) = opts.value(o) {
                if id.parse::<i32>().is_err() {
                    return Err(message_error(&format!(
                        "The entity name for {} must be a valid integer broker id, but it is: {id}",
                        e.types[0]
                    )));
                }
            }
        }
    }
    Ok(())
}

/// `--describe`: a default entity only for users, clients, brokers or ips; broker loggers by name.
fn check_describe(opts: &jopt::Options, e: &Entities) -> Result<(), ToolError> {
    let types_joined = e.types.join(",");
    let defaults_ok =
        e.has_type("users") || e.has_type("clients") || e.has_type("brokers") || e.has_type("ips");
    if !defaults_ok && opts.has("entity-default") {
        return Err(message_error(&format!(
            "--entity-default must not be specified with --describe of {types_joined}"
        )));
    }
    if e.has_type("broker-loggers") && !e.has_name() {
        return Err(message_error(&format!(
            "An entity name must be specified with --describe of {types_joined}"
        )));
    }
    Ok(())
}

/// `--alter`: an entity (named, or default where one exists) and something to add or delete.
fn check_alter(opts: &jopt::Options, e: &Entities) -> Result<(), ToolError> {
    if e.has_type("users") || e.has_type("clients") || e.has_type("brokers") || e.has_type("ips") {
        if !e.has_name() && !e.has_default() {
            return Err(message_error(
                "An entity-name or default entity must be specified with --alter of users, clients, brokers or ips",
            ));
        }
    } else if !e.has_name() {
        return Err(message_error(&format!(
            "An entity name must be specified with --alter of {}",
            e.types.join(",")
        )));
    }
    let add = opts.has("add-config");
    let add_file = opts.has("add-config-file");
    if add && add_file {
        return Err(message_error(
            "Only one of --add-config or --add-config-file must be specified",
        ));
    }
    if !add && !add_file && !opts.has("delete-config") {
        return Err(message_error(
            "At least one of --add-config, --add-config-file, or --delete-config must be specified with --alter",
        ));
    }
    Ok(())
}
