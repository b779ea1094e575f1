//! The presenter view (`?presenter=1`): a speaker window and an audience window of the same page,
//! paired over a `BroadcastChannel` (no server). Both run the same deterministic engine, so
//! the windows only tell each other which lesson, step and language they show; each follows the
//! other's newest change.
//!
//! This file is the protocol (pure, tested natively); [`link`] is the channel and its hook.

use serde::{Deserialize, Serialize};

use crate::lessons;
use crate::state::{Action, Lang, Playground};

pub mod link;

/// The name of the channel prefix; a pair's channel is `kraft-presenter-<link id>`.
pub const CHANNEL_PREFIX: &str = "kraft-presenter-";
/// The protocol every message names (a message from anything else is ignored).
pub const MAGIC: &str = "kraft-link/2";

/// Which window of a presenter pair this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The lecturer's window: narration, notes, the next step, elapsed time.
    Speaker,
    /// The room's window: the stage only.
    Audience,
}

impl Role {
    /// `speaker` or `audience`, as in messages.
    pub fn name(self) -> &'static str {
        match self {
            Role::Speaker => "speaker",
            Role::Audience => "audience",
        }
    }

    /// Reads `?presenter=`: `1` (or `speaker`) is the speaker, `audience` the audience.
    pub fn from_query_value(v: &str) -> Option<Role> {
        match v {
            "1" | "speaker" => Some(Role::Speaker),
            "audience" => Some(Role::Audience),
            _ => None,
        }
    }
}

/// What a window shows, as far as the other window needs to know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shown {
    /// The lesson's name, or `None` in free play.
    pub lesson: Option<String>,
    /// How many lesson steps ran.
    pub step: usize,
    /// Whether a wait step is still playing.
    pub playing: bool,
    /// The narration language.
    pub lang: Lang,
}

impl Shown {
    /// What `state` shows.
    pub fn of(state: &Playground) -> Shown {
        Shown {
            lesson: state.lesson.as_ref().map(|l| l.name().to_string()),
            step: state.lesson.as_ref().map_or(0, |l| l.pos),
            playing: state.lesson.as_ref().is_some_and(|l| l.playing.is_some()),
            lang: state.lang,
        }
    }

    /// Whether `self` has arrived at `target` (a wait may still play or not).
    pub fn reached(&self, target: &Shown) -> bool {
        self.lesson == target.lesson && self.step == target.step && self.lang == target.lang
    }
}

/// A message between the two windows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Message {
    /// A window opened: the other answers with what it shows.
    Hello(Role),
    /// What a window shows, after its change number `gen` (the newer change wins).
    State {
        /// Who sends it.
        from: Role,
        /// The change number: each window counts the changes made in either window.
        gen: u64,
        /// What it shows.
        shown: Shown,
    },
}

/// A message as it crosses the channel: the protocol's name beside the message, carried as a
/// plain JS object by serde-wasm-bindgen (`{"protocol": "kraft-link/2", "message": {"State":
/// {"from": "speaker", "gen": 3, "shown": {...}}}}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    /// [`MAGIC`]: anything else on the channel is ignored.
    pub protocol: String,
    /// The message.
    pub message: Message,
}

impl Message {
    /// The message in its envelope.
    pub fn envelope(&self) -> Envelope {
        Envelope {
            protocol: MAGIC.to_string(),
            message: self.clone(),
        }
    }

    /// The message of an envelope of this protocol; `None` for anything else (another page's
    /// traffic, another version).
    pub fn open(e: Envelope) -> Option<Message> {
        (e.protocol == MAGIC).then_some(e.message)
    }
}

/// The actions that bring a window showing `local` to what `remote` shows: the same lesson, the
/// same step (the next step is run, so a wait plays in both windows; any other step is replayed
/// to), a wait skipped when the other skipped it, the same language.
pub fn follow(local: &Shown, remote: &Shown) -> Vec<Action> {
    let mut actions = Vec::new();
    if remote.lang != local.lang {
        actions.push(Action::SetLang(remote.lang));
    }
    if remote.lesson != local.lesson {
        let index = remote.lesson.as_deref().and_then(lessons::find);
        if remote.lesson.is_some() && index.is_none() {
            return actions;
        }
        actions.push(Action::ChooseLesson(index));
        if index.is_some() && remote.step > 0 {
            actions.push(Action::LessonGoto(remote.step));
        }
        return actions;
    }
    if local.lesson.is_none() {
        return actions;
    }
    if remote.step == local.step + 1 {
        if local.playing {
            // Skip the wait still playing here, then run the next step as the other did.
            actions.push(Action::LessonNext);
        }
        actions.push(Action::LessonNext);
    } else if remote.step != local.step {
        actions.push(if remote.step == 0 {
            Action::LessonRestart
        } else {
            Action::LessonGoto(remote.step)
        });
    } else if local.playing && !remote.playing {
        actions.push(Action::LessonNext);
    }
    actions
}

/// A window's side of the pairing: its change number, the target it is moving to (while it
/// follows the other, its own changes are not sent back), and whether the other answered.
#[derive(Clone, Debug)]
pub struct Pairing {
    /// This window's role.
    pub role: Role,
    /// The newest change number seen or made.
    pub gen: u64,
    /// What this window is moving to because the other asked.
    pub following: Option<Shown>,
    /// How many more changes may pass while following before this window gives up on the
    /// target (a step it cannot reach) and sends its changes again.
    follow_left: u8,
    /// What this window showed when it last looked.
    pub last: Option<Shown>,
    /// Whether the other window has been heard from.
    pub peer: bool,
}

impl Pairing {
    /// A window of `role` that has heard nothing yet.
    pub fn new(role: Role) -> Pairing {
        Pairing {
            role,
            gen: 0,
            following: None,
            follow_left: 0,
            last: None,
            peer: false,
        }
    }

    /// This window now shows `now`: the message to send, if it changed by itself (not
    /// following the other).
    pub fn observe(&mut self, now: &Shown) -> Option<Message> {
        if self.last.as_ref() == Some(now) {
            return None;
        }
        self.last = Some(now.clone());
        if let Some(target) = &self.following {
            self.follow_left = self.follow_left.saturating_sub(1);
            if now.reached(target) || self.follow_left == 0 {
                self.following = None;
            }
            return None;
        }
        self.gen += 1;
        Some(self.state())
    }

    /// What this window shows, as a message.
    fn state(&self) -> Message {
        Message::State {
            from: self.role,
            gen: self.gen,
            shown: self.last.clone().unwrap_or(Shown {
                lesson: None,
                step: 0,
                playing: false,
                lang: Lang::default(),
            }),
        }
    }

    /// A message arrived: the actions to take, and the message to answer with.
    pub fn receive(&mut self, msg: &Message) -> (Vec<Action>, Option<Message>) {
        match msg {
            Message::Hello(from) if *from != self.role => {
                self.peer = true;
                (Vec::new(), Some(self.state()))
            }
            Message::State { from, gen, shown } if *from != self.role => {
                self.peer = true;
                // The newer change wins; on a tie (both changed at once) the speaker's.
                let newer = *gen > self.gen || (*gen == self.gen && *from == Role::Speaker);
                if !newer {
                    return (Vec::new(), None);
                }
                self.gen = *gen;
                let local = self.last.clone().unwrap_or_else(|| shown.clone());
                let actions = follow(&local, shown);
                self.following = (!actions.is_empty()).then(|| shown.clone());
                // Each action changes the state at most once (and a wait may start).
                self.follow_left = actions.len() as u8 + 1;
                (actions, None)
            }
            _ => (Vec::new(), None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(step: usize, playing: bool) -> Shown {
        Shown {
            lesson: Some("02-election".into()),
            step,
            playing,
            lang: Lang::En,
        }
    }

    #[test]
    fn messages_round_trip_and_strangers_are_ignored() {
        for m in [
            Message::Hello(Role::Audience),
            Message::State {
                from: Role::Speaker,
                gen: 7,
                shown: shown(4, true),
            },
            Message::State {
                from: Role::Audience,
                gen: 0,
                shown: Shown {
                    lesson: None,
                    step: 0,
                    playing: false,
                    lang: Lang::Ko,
                },
            },
        ] {
            let json = serde_json::to_value(m.envelope()).unwrap();
            let back: Envelope = serde_json::from_value(json.clone()).unwrap();
            assert_eq!(Message::open(back), Some(m.clone()), "{json}");
        }
        let open = |text: &str| {
            serde_json::from_str::<Envelope>(text)
                .ok()
                .and_then(Message::open)
        };
        assert_eq!(
            open(r#"{"protocol":"kraft-link/2","message":{"Hello":"speaker"}}"#),
            Some(Message::Hello(Role::Speaker))
        );
        for bad in [
            "",
            r#""hello""#,
            r#"{"protocol":"kraft-link/1","message":{"Hello":"speaker"}}"#,
            r#"{"protocol":"kraft-link/2","message":{"Hello":"someone"}}"#,
            r#"{"protocol":"kraft-link/2","message":{"State":{"from":"speaker","gen":"x","shown":{"lesson":"a","step":1,"playing":false,"lang":"en"}}}}"#,
            r#"{"protocol":"kraft-link/2","message":{"State":{"from":"speaker","gen":1,"shown":{"lesson":"a","step":-1,"playing":false,"lang":"en"}}}}"#,
            r#"{"protocol":"kraft-link/2","message":{"State":{"from":"speaker","gen":1,"shown":{"lesson":"a","step":1,"playing":2,"lang":"en"}}}}"#,
            r#"{"protocol":"kraft-link/2","message":{"State":{"from":"speaker","gen":1,"shown":{"lesson":"a","step":1,"playing":false,"lang":"fr"}}}}"#,
            r#"{"protocol":"kraft-link/2","message":{"State":{"from":"speaker","gen":1}}}"#,
        ] {
            assert_eq!(open(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_window_follows_the_others_step() {
        assert_eq!(
            follow(&shown(3, false), &shown(4, true)),
            [Action::LessonNext]
        );
        assert_eq!(
            follow(&shown(3, true), &shown(4, false)),
            [Action::LessonNext, Action::LessonNext],
            "the wait here is skipped, then the next step runs"
        );
        assert_eq!(
            follow(&shown(3, true), &shown(3, false)),
            [Action::LessonNext]
        );
        assert_eq!(follow(&shown(3, false), &shown(3, true)), []);
        assert_eq!(
            follow(&shown(6, false), &shown(2, false)),
            [Action::LessonGoto(2)]
        );
        assert_eq!(
            follow(&shown(6, false), &shown(0, false)),
            [Action::LessonRestart]
        );
        let mut other = shown(5, false);
        other.lesson = Some("03-timeline".into());
        other.lang = Lang::Ko;
        let want_lesson = lessons::find("03-timeline");
        assert_eq!(
            follow(&shown(1, false), &other),
            [
                Action::SetLang(Lang::Ko),
                Action::ChooseLesson(want_lesson),
                Action::LessonGoto(5)
            ]
        );
        other.lesson = Some("no-such-lesson".into());
        other.lang = Lang::En;
        assert_eq!(follow(&shown(1, false), &other), []);
    }

    #[test]
    fn two_windows_stay_paired_without_echoes() {
        let (mut speaker, mut audience) =
            (Pairing::new(Role::Speaker), Pairing::new(Role::Audience));
        assert!(
            audience.observe(&shown(0, false)).is_some(),
            "a window's first look is sent"
        );
        // The audience says hello; the speaker answers with what it shows.
        speaker.observe(&shown(2, false));
        let (none, answer) = speaker.receive(&Message::Hello(Role::Audience));
        assert!(none.is_empty() && speaker.peer);
        let (actions, _) = audience.receive(&answer.expect("an answer"));
        assert_eq!(actions, [Action::LessonGoto(2)]);
        assert!(audience.peer);
        // Moving there is not sent back.
        assert_eq!(audience.observe(&shown(2, false)), None);
        assert!(audience.following.is_none());
        // A key in the audience window: the speaker follows, and does not echo.
        let m = audience
            .observe(&shown(3, true))
            .expect("a change of its own");
        let (actions, _) = speaker.receive(&m);
        assert_eq!(actions, [Action::LessonNext]);
        assert_eq!(speaker.observe(&shown(3, true)), None);
        // A stale message (an older change) is ignored.
        let stale = Message::State {
            from: Role::Audience,
            gen: 1,
            shown: shown(1, false),
        };
        assert_eq!(speaker.receive(&stale).0, []);
        // Its own messages (another tab of the same role) are ignored.
        let own = Message::State {
            from: Role::Speaker,
            gen: 99,
            shown: shown(9, false),
        };
        assert_eq!(speaker.receive(&own).0, []);
    }
}
