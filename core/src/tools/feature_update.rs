//! `kafka-features.sh ... upgrade|downgrade|disable --feature NAME=LEVEL [--dry-run]`: the
//! tool's side (FeatureCommand.handleUpgradeOrDowngrade / handleDisable / update,
//! FeatureCommand.java:260-471) and the active controller's checks
//! (FeatureControlManager.updateFeatures / updateFeature / reasonNotSupported,
//! FeatureControlManager.java:180-377; QuorumFeatures.reasonNotSupported 45-58). Only
//! kraft.version changes; the other features are refused with a note (issue 35).

use super::argparse::Namespace;
use super::feature_levels::{finalized_features, hash_map_order, kraft_version, SUPPORTED};
use super::{ToolError, ADMIN_TIMEOUT_MS};
use crate::sim::World;
use std::collections::BTreeMap;

/// FeatureUpdate.UpgradeType, as far as the checks tell them apart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum UpgradeType {
    /// `upgrade`.
    Upgrade,
    /// `downgrade` or `disable` (safe or `--unsafe`).
    Downgrade,
}

/// The note for a feature the playground does not change.
const NOT_SIMULATED: &str =
    "The KRaft Playground changes only kraft.version (issue 35 adds the other features).";

/// `parseNameAndLevel` (277-291).
fn parse_name_and_level(input: &str) -> Result<(String, i16), ToolError> {
    let Some((name, level)) = input.split_once('=') else {
        return Err(ToolError::new(format!(
            "Can't parse feature=level string {input}: equals sign not found."
        )));
    };
    let level = level.trim();
    match level.parse::<i16>() {
        Ok(l) => Ok((name.trim().to_string(), l)),
        Err(_) => Err(ToolError::new(format!(
            "Can't parse feature=level string {input}: unable to parse {level} as a short."
        ))),
    }
}

/// The updates `op` asks for, in FeatureCommand's checks' order (293-364).
fn updates(op: &str, ns: &Namespace) -> Result<Vec<(String, i16)>, ToolError> {
    let release = ns.get("--release-version");
    if op != "disable" {
        if release.is_some() && (ns.has("--metadata") || ns.has("--feature")) {
            return Err(ToolError::new(
                "Can not specify `release-version` with other feature flags.",
            ));
        }
        if release.is_some() || ns.has("--metadata") {
            return Err(ToolError::new(format!(
                "kafka-features {op} --release-version and --metadata are not simulated by the KRaft Playground: {NOT_SIMULATED}"
            )));
        }
    }
    let mut out: Vec<(String, i16)> = Vec::new();
    for f in ns.all("--feature") {
        let (name, level) = if op == "disable" {
            (f.clone(), 0)
        } else {
            parse_name_and_level(f)?
        };
        if out.iter().any(|(n, _)| *n == name) {
            return Err(ToolError::new(format!(
                "Feature {name} was specified more than once."
            )));
        }
        out.push((name, level));
    }
    if out.is_empty() {
        return Err(ToolError::new(format!(
            "You must specify at least one feature to {op}"
        )));
    }
    Ok(out)
}

/// `update` (434-471): send the updates to the active controller, print one line per feature
/// (sorted by name), and fail when any did.
pub fn update(world: &mut World, op: &str, ns: &Namespace) -> Result<String, ToolError> {
    let updates = updates(op, ns)?;
    let dry_run = ns.has("--dry-run");
    let kind = if op == "upgrade" {
        UpgradeType::Upgrade
    } else {
        UpgradeType::Downgrade
    };
    if world.active_controller().is_none() {
        world.run_until(ADMIN_TIMEOUT_MS, |w| w.active_controller().is_some());
    }
    let error = match world.active_controller() {
        None => Some("Timed out waiting for a node assignment. Call: updateFeatures".to_string()),
        Some(c) => controller_update(world, c, &updates, kind, dry_run),
    };
    let sorted: BTreeMap<&str, i16> = updates.iter().map(|(n, l)| (n.as_str(), *l)).collect();
    let mut out = String::new();
    for (name, level) in &sorted {
        let line = match &error {
            Some(e) => {
                let helper = if dry_run { "Can not " } else { "Could not " };
                let suffix = if op == "disable" {
                    format!("disable {name}")
                } else {
                    format!("{op} {name} to {level}")
                };
                format!("{helper}{suffix}. {e}")
            }
            None => {
                let verb = if dry_run { " can be " } else { " was " };
                let obj = if op == "disable" {
                    "disabled.".to_string()
                } else {
                    format!("{op}d to {level}.")
                };
                format!("{name}{verb}{obj}")
            }
        };
        out.push_str(&line);
        out.push('\n');
    }
    if error.is_some() {
        return Err(ToolError::new(format!(
            "{} out of {} operation(s) failed.",
            sorted.len(),
            sorted.len()
        ))
        .after(out));
    }
    Ok(out)
}

/// `FeatureControlManager.updateFeatures` on active controller `c`: the first refused
/// feature's message (it fails them all), or None. A kraft.version upgrade that is not a dry
/// run is carried out and waited for until it is committed.
fn controller_update(
    world: &mut World,
    c: i32,
    updates: &[(String, i16)],
    kind: UpgradeType,
    dry_run: bool,
) -> Option<String> {
    let mut upgraded = None;
    for (name, level) in hash_map_order(updates.to_vec()) {
        match update_feature(world, c, &name, level, kind, dry_run) {
            Err(e) => return Some(e),
            Ok(true) => upgraded = Some(level as u16),
            Ok(false) => {}
        }
    }
    if let Some(v) = upgraded {
        let committed = |w: &World| {
            w.leader()
                .and_then(|(id, _)| w.node(id))
                .and_then(|n| n.raft.as_ref())
                .is_some_and(|r| match r.state() {
                    crate::raft::state::EpochState::Leader(l) => l
                        .high_watermark
                        .is_some_and(|hw| r.partition_state().kraft_version_at_offset(hw - 1) >= v),
                    _ => false,
                })
        };
        if !world.run_until(ADMIN_TIMEOUT_MS, committed) {
            return Some("The request timed out.".into());
        }
    }
    None
}

/// `invalidUpdateVersion` (378-382).
fn invalid(name: &str, level: i16, message: &str) -> String {
    format!("Invalid update version {level} for feature {name}. {message}")
}

/// `updateFeature` (200-321) for one feature: Ok(true) when a kraft.version upgrade was
/// appended.
fn update_feature(
    world: &mut World,
    c: i32,
    name: &str,
    level: i16,
    kind: UpgradeType,
    dry_run: bool,
) -> Result<bool, String> {
    let (levels, _) = finalized_features(world, c);
    let current = match name {
        "kraft.version" => world
            .node(c)
            .and_then(|n| n.raft.as_ref())
            .map_or(0, kraft_version) as i16,
        _ => levels.get(name).copied().unwrap_or(0),
    };
    if level < 0 {
        return Err(invalid(
            name,
            level,
            "A feature version cannot be less than 0.",
        ));
    }
    if let Some(reason) = reason_not_supported(world, c, name, level) {
        return Err(invalid(name, level, &reason));
    }
    if level < current && kind == UpgradeType::Upgrade {
        return Err(invalid(name, level, "Can't downgrade the version of this feature without setting the upgrade type to either safe or unsafe downgrade."));
    }
    if level > current && kind != UpgradeType::Upgrade {
        return Err(invalid(name, level, "Can't downgrade to a newer version."));
    }
    if name != "kraft.version" {
        return Err(NOT_SIMULATED.to_string());
    }
    if kind != UpgradeType::Upgrade {
        return if level != current {
            Err(invalid(
                name,
                level,
                "Can't downgrade the version of this feature.",
            ))
        } else {
            Ok(false)
        };
    }
    match world.upgrade_kraft_version(level as u16, dry_run) {
        Ok(appended) => Ok(appended && !dry_run),
        Err(("IllegalArgumentException", m)) => Err(invalid(name, level, &m)),
        Err((_, m)) => Err(m),
    }
}

/// `reasonNotSupported` (323-376): the local controller's range, then every registered
/// controller and every voter having registered (all nodes run the same Kafka, so brokers and
/// registered controllers support what the local one does).
fn reason_not_supported(world: &World, c: i32, name: &str, level: i16) -> Option<String> {
    let (min, max) = SUPPORTED
        .iter()
        .find(|(n, _, _)| *n == name)
        .map_or((0, 0), |(_, lo, hi)| (*lo, *hi));
    if !(min..=max).contains(&level) {
        return Some(if max == 0 {
            format!("Local controller {c} does not support this feature.")
        } else if min == max {
            format!("Local controller {c} only supports versions {min}")
        } else {
            format!("Local controller {c} only supports versions {min}-{max}")
        });
    }
    let node = world.node(c)?;
    let registered = &node.loader.as_ref()?.image.cluster.controllers;
    let voters = node
        .raft
        .as_ref()?
        .partition_state()
        .last_voter_set()
        .voter_ids();
    voters
        .into_iter()
        .find(|id| *id != c && !registered.contains_key(id))
        .map(|id| format!("controller {id} has not registered, and may not support this feature"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_levels_parse_as_the_tool_parses_them() {
        assert_eq!(
            parse_name_and_level("kraft.version = 1").unwrap(),
            ("kraft.version".to_string(), 1)
        );
        assert_eq!(
            parse_name_and_level("kraft.version").unwrap_err().message,
            "Can't parse feature=level string kraft.version: equals sign not found.\n"
        );
        assert_eq!(
            parse_name_and_level("kraft.version=x").unwrap_err().message,
            "Can't parse feature=level string kraft.version=x: unable to parse x as a short.\n"
        );
    }
}
