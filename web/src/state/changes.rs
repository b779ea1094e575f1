//! What the current step changed: the view (and the console's TimelineHashMap) from before the
//! step is kept, and each new view is diffed against it ([`step_changes`]). A step is a lesson
//! step (its wait played frame by frame included), a free-play event, frame (`t`), command or
//! button, or a stretch of play until Pause; a rewind has none.

use std::rc::Rc;

use kraft_core::lesson::Console;
use kraft_core::view::changes::{step_changes, timeline_changes, Change, ChangeKind};
use kraft_core::view::{ClusterView, TimelineView};

use super::{Action, Playground};

/// What the world looked like before the current step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepBase {
    /// The view before it (none: there was no world yet).
    pub view: Option<Rc<ClusterView>>,
    /// The console's TimelineHashMap before it.
    pub timeline: Option<Rc<TimelineView>>,
}

impl StepBase {
    /// What `console` shows now.
    pub(super) fn of(console: &Console) -> StepBase {
        StepBase {
            view: console.world.as_ref().map(|w| Rc::new(w.view())),
            timeline: console.timeline_view().map(Rc::new),
        }
    }
}

/// The changes from `base` to `view` and `timeline`.
pub fn changes_since(
    base: &StepBase,
    view: Option<&ClusterView>,
    timeline: Option<&TimelineView>,
) -> Vec<Change> {
    let mut out = match (base.view.as_deref(), view) {
        (Some(b), Some(v)) => step_changes(b, v),
        _ => Vec::new(),
    };
    if let Some(t) = timeline {
        if base.timeline.as_deref() != Some(t) {
            out.extend(timeline_changes(base.timeline.as_deref(), t));
        }
    }
    out
}

impl Playground {
    /// Before `action` runs: a new step keeps the view it starts from; a rewind or a new lesson
    /// has none (a lesson's jump keeps its own, see `lesson_goto`).
    pub(super) fn begin_step_changes(&mut self, action: &Action) {
        let starts = match action {
            Action::LessonNext => !self.playing_wait(),
            Action::Step
            | Action::StepTick
            | Action::Play
            | Action::Kill(_)
            | Action::Restart(_)
            | Action::Stop(_)
            | Action::Cont(_)
            | Action::Exec(_) => true,
            Action::StepBack | Action::RewindTo(_) | Action::ChooseLesson(_) => {
                self.step_base = None;
                return;
            }
            _ => false,
        };
        if starts {
            self.step_base = Some(StepBase {
                view: self.view.clone(),
                timeline: self.timeline.clone(),
            });
        }
    }

    /// The current step's changes, after the view was refreshed. While time plays, the list
    /// on screen moves only when an entry comes or goes (a transition, a fencing, ...), not
    /// with every offset that ticks: it is read, not watched; when play stops it is exact.
    pub(super) fn refresh_changes(&mut self) {
        let changes = match &self.step_base {
            Some(base) => changes_since(base, self.view.as_deref(), self.timeline.as_deref()),
            None => Vec::new(),
        };
        let moved = !self.animating() || !same_entries(&changes, &self.step_changes);
        if moved && *self.step_changes != changes {
            self.step_changes = Rc::new(changes);
        }
    }
}

/// Whether two lists have the same entries (kind, nodes, tag), whatever their numbers say.
fn same_entries(a: &[Change], b: &[Change]) -> bool {
    let key = |c: &Change| {
        let counts = matches!(
            c.kind,
            ChangeKind::Append | ChangeKind::Commit | ChangeKind::Registry
        );
        (c.kind, c.nodes.clone(), (!counts).then(|| c.tag.clone()))
    };
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| key(x) == key(y))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{open, play_out};
    use super::super::Action;
    use super::ChangeKind;
    use yew::Reducible;

    #[test]
    fn a_lesson_step_lists_what_it_changed_as_it_plays_and_after_a_jump() {
        // Lesson 02: the step after `kill -9 101` plays 15 s in which 102 is elected.
        let lesson = open("?lesson=02-election&lang=en").lesson.clone().unwrap();
        let kill = lesson
            .lesson
            .steps
            .iter()
            .position(|s| s.command == "kill -9 101")
            .unwrap();
        let s = open(&format!("?lesson=02-election&lang=en&step={}", kill + 1));
        let run = s.lesson.clone().unwrap();
        assert!(
            s.step_changes
                .iter()
                .any(|c| c.kind == ChangeKind::Process && c.nodes == [101]),
            "an address to a step lists that step's changes: {:?}",
            s.step_changes
        );
        assert_eq!(run.lesson.steps[kill + 1].command, "sleep 15s");
        let s = s.reduce(Action::LessonNext);
        assert!(s.playing_wait());
        let (s, _) = play_out(s, 60 * 60);
        let leader = s
            .step_changes
            .iter()
            .find(|c| c.kind == ChangeKind::Transition && c.tag == "Leader")
            .expect("102 became leader in this step");
        assert_eq!(leader.nodes, [102]);
        assert!(leader
            .kafka
            .unwrap()
            .contains("QuorumState.transitionToLeader"));
        // A jump to the end of that step (a replay at once) lists the same.
        let jumped = open(&format!("?lesson=02-election&lang=en&step={}", kill + 2));
        assert_eq!(jumped.step_changes, s.step_changes);
        // Back one step: the kill's own list.
        let back = s.reduce(Action::LessonPrev);
        assert!(back.step_changes.iter().any(|c| c.tag == "killed"));
    }

    #[test]
    fn free_play_steps_and_plays_and_a_rewind_lists_nothing() {
        let s = open("?seed=3");
        assert!(s.step_changes.is_empty());
        let s = s.reduce(Action::Kill(101));
        assert_eq!(s.step_changes.len(), 1);
        assert_eq!(s.step_changes[0].tag, "killed");
        let mut s = s.reduce(Action::Play);
        for _ in 0..40 {
            s = s.reduce(Action::Tick);
        }
        let played = s.reduce(Action::Pause);
        assert!(
            played.step_changes.len() > 1,
            "a played stretch lists what it did"
        );
        let back = played.reduce(Action::StepBack);
        assert!(back.step_changes.is_empty());
        let stepped = back.reduce(Action::Step);
        assert!(
            stepped.step_changes.len() <= 8,
            "{:?}",
            stepped.step_changes
        );
    }

    #[test]
    fn the_timeline_lesson_lists_the_maps_changes() {
        let mut s = open("?lesson=03-timeline&lang=en");
        let mut seen = Vec::new();
        for _ in 0..s.lesson.as_ref().unwrap().len() {
            s = s.reduce(Action::LessonNext);
            seen.extend(s.step_changes.iter().map(|c| c.tag.clone()));
        }
        for tag in ["put", "snapshot", "deleted", "revert", "restored"] {
            assert!(seen.iter().any(|t| t == tag), "{tag} in {seen:?}");
        }
    }
}
