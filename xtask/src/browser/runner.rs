//! Runs the table of checks ([`super::checks::CHECKS`]): the ones `KRAFT_BROWSER_ONLY` picks,
//! in order, each printed `ok` or `FAIL` with its time; after a failure the rest are skipped
//! (they build on each other). Every count it prints is taken from the table.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::time::Instant;

use fantoccini::Client;

use super::addresses::WorldSeen;
use super::driver::screenshot;
use super::lessons::LessonSeen;
use crate::{root_dir, Result};

/// What a check returns: a future borrowing the session.
pub(super) type Running<'a> = Pin<Box<dyn Future<Output = Result<()>> + 'a>>;

/// One browser check: a row of the table.
pub(super) struct Check {
    /// What it asserts, printed with `ok` or `FAIL`; unique in the table.
    pub name: &'static str,
    /// The module (file of `src/browser/`) its code lives in.
    pub area: &'static str,
    /// The lesson (`lessons/NAME.lesson`) it plays, when it runs only if that lesson exists.
    pub lesson: Option<&'static str>,
    /// What earlier checks must have found for it to run.
    pub needs: &'static [Found],
    /// What it finds for later checks (kept in the [`Session`]).
    pub finds: &'static [Found],
    /// The check itself.
    pub run: for<'a> fn(&'a mut Session) -> Running<'a>,
}

/// What a check finds on the page that a later check builds on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Found {
    /// The leader free play elected (id, epoch), then the active controller.
    Leader,
    /// The leader elected after the first one was killed (id, epoch).
    NewLeader,
    /// What lesson 03 showed at each step, played to its end.
    TimelineSteps,
    /// The world an address with `cmds=` replayed to.
    ReplayedWorld,
}

/// The browser and what the checks share: the page's address, the artifacts folder and what
/// the checks found so far.
pub(super) struct Session {
    /// The browser.
    pub c: Client,
    /// The page's address (`http://127.0.0.1:PORT/`).
    pub url: String,
    /// Where screenshots go.
    pub artifacts: PathBuf,
    leader: Option<(i32, i32)>,
    new_leader: Option<(i32, i32)>,
    timeline_steps: Option<Vec<LessonSeen>>,
    replayed_world: Option<WorldSeen>,
}

impl Session {
    /// A session of `c` on the page at `url`, nothing found yet.
    pub fn new(c: Client, url: String, artifacts: &Path) -> Self {
        Session {
            c,
            url,
            artifacts: artifacts.to_path_buf(),
            leader: None,
            new_leader: None,
            timeline_steps: None,
            replayed_world: None,
        }
    }

    /// `artifacts/NAME`.
    pub fn artifact(&self, name: &str) -> PathBuf {
        self.artifacts.join(name)
    }

    fn has(&self, found: Found) -> bool {
        match found {
            Found::Leader => self.leader.is_some(),
            Found::NewLeader => self.new_leader.is_some(),
            Found::TimelineSteps => self.timeline_steps.is_some(),
            Found::ReplayedWorld => self.replayed_world.is_some(),
        }
    }

    /// The leader (or active controller) found: (id, epoch).
    pub fn leader(&self) -> Result<(i32, i32)> {
        self.leader.ok_or_else(|| missing(Found::Leader))
    }

    /// Keeps the leader (or active controller) found.
    pub fn set_leader(&mut self, leader: (i32, i32)) {
        self.leader = Some(leader);
    }

    /// The leader elected after the kill: (id, epoch).
    pub fn new_leader(&self) -> Result<(i32, i32)> {
        self.new_leader.ok_or_else(|| missing(Found::NewLeader))
    }

    /// Keeps the leader elected after the kill.
    pub fn set_new_leader(&mut self, leader: (i32, i32)) {
        self.new_leader = Some(leader);
    }

    /// What lesson 03 showed at each step.
    pub fn timeline_steps(&self) -> Result<&[LessonSeen]> {
        self.timeline_steps
            .as_deref()
            .ok_or_else(|| missing(Found::TimelineSteps))
    }

    /// Keeps what lesson 03 showed at each step.
    pub fn set_timeline_steps(&mut self, steps: Vec<LessonSeen>) {
        self.timeline_steps = Some(steps);
    }

    /// The world the replayed address showed.
    pub fn replayed_world(&self) -> Result<&WorldSeen> {
        self.replayed_world
            .as_ref()
            .ok_or_else(|| missing(Found::ReplayedWorld))
    }

    /// Keeps the world the replayed address showed.
    pub fn set_replayed_world(&mut self, seen: WorldSeen) {
        self.replayed_world = Some(seen);
    }
}

fn missing(found: Found) -> crate::Error {
    format!("no earlier check found {found:?}").into()
}

impl Check {
    /// Whether it can run in this repository (its lesson, if any, exists).
    fn applies(&self) -> bool {
        self.lesson
            .is_none_or(|l| root_dir().join(format!("lessons/{l}.lesson")).exists())
    }

    /// Whether `KRAFT_BROWSER_ONLY=only` picks it: its name contains `only`, or its area is
    /// `only`.
    fn picked_by(&self, only: &str) -> bool {
        self.name.contains(only) || self.area == only
    }
}

/// `KRAFT_BROWSER_ONLY=text`: run only the checks whose name contains `text` or whose area is
/// `text` (for working on one check; `cargo xtask test` runs them all).
fn only() -> Option<String> {
    std::env::var("KRAFT_BROWSER_ONLY")
        .ok()
        .filter(|o| !o.is_empty())
}

/// Runs the checks of `table` that apply and that `KRAFT_BROWSER_ONLY` picks, in order, and
/// prints the tally; `Err` when one failed.
pub(super) async fn run(table: &[Check], s: &mut Session) -> Result<()> {
    let only = only();
    let chosen: Vec<&Check> = table
        .iter()
        .filter(|c| c.applies() && only.as_deref().is_none_or(|o| c.picked_by(o)))
        .collect();
    let left_out = table.iter().filter(|c| !c.applies()).count();
    println!(
        "browser: {} of {} checks{}{}",
        chosen.len(),
        table.len(),
        only.as_deref()
            .map(|o| format!(" (KRAFT_BROWSER_ONLY={o})"))
            .unwrap_or_default(),
        if left_out > 0 {
            format!(", {left_out} left out: their lesson is missing")
        } else {
            String::new()
        }
    );
    let (mut passed, mut failed) = (0, 0);
    for check in &chosen {
        if failed > 0 {
            break;
        }
        if let Some(need) = check.needs.iter().find(|n| !s.has(**n)) {
            let finder = table.iter().find(|c| c.finds.contains(need));
            println!(
                "  skip {}: needs {need:?}, found by `{}`",
                check.name,
                finder.map_or("no check", |c| c.name)
            );
            continue;
        }
        let started = Instant::now();
        match (check.run)(s).await {
            Ok(()) => {
                passed += 1;
                println!("  ok   {} ({:.2} s)", check.name, seconds(started));
            }
            Err(e) => {
                failed += 1;
                println!("  FAIL {} ({:.2} s): {e}", check.name, seconds(started));
            }
        }
    }
    if failed > 0 {
        screenshot(&s.c, &s.artifact("page-failure.png")).await;
    }
    let skipped = chosen.len() - passed - failed;
    println!(
        "browser: {passed} passed, {failed} failed{}",
        if skipped > 0 {
            format!(", {skipped} skipped")
        } else {
            String::new()
        }
    );
    if failed > 0 {
        Err(format!(
            "{failed} browser check(s) failed, {skipped} skipped (screenshot: artifacts/page-failure.png)"
        )
        .into())
    } else if skipped > 0 && only.is_none() {
        Err(format!("{skipped} check(s) skipped though none failed: see `skip` above").into())
    } else {
        Ok(())
    }
}

fn seconds(started: Instant) -> f64 {
    started.elapsed().as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::super::checks::CHECKS;
    use super::*;

    #[test]
    fn names_are_unique_and_areas_are_modules() {
        let dir = root_dir().join("xtask/src/browser");
        for (i, check) in CHECKS.iter().enumerate() {
            assert!(
                CHECKS[..i].iter().all(|c| c.name != check.name),
                "`{}` twice",
                check.name
            );
            assert!(
                dir.join(format!("{}.rs", check.area)).exists(),
                "`{}`: no module {}",
                check.name,
                check.area
            );
        }
    }

    #[test]
    fn every_need_is_found_by_an_earlier_check() {
        for (i, check) in CHECKS.iter().enumerate() {
            for need in check.needs {
                assert!(
                    CHECKS[..i].iter().any(|c| c.finds.contains(need)),
                    "`{}` needs {need:?}, which no earlier check finds",
                    check.name
                );
            }
        }
    }

    #[test]
    fn only_picks_by_name_or_area() {
        let check = CHECKS.iter().find(|c| c.area == "presenter").unwrap();
        assert!(check.picked_by("presenter"));
        assert!(check.picked_by(&check.name[..8]));
        assert!(!check.picked_by("no check is called this"));
    }

    #[test]
    fn every_lesson_a_check_plays_exists() {
        for check in CHECKS {
            assert!(
                check.applies(),
                "`{}`: no lessons/{:?}.lesson",
                check.name,
                check.lesson
            );
        }
    }
}
