//! Where the Raft state diagram draws its states and transitions: pure geometry, no Yew, so that
//! its tests (no two edges cross, every edge says what triggers it) run natively.
//!
//! A voter's diagram follows the article's figure: Unattached → Prospective → Candidate → Leader
//! along one line, Follower and Resigned below, back edges curved. Each edge is labelled with its
//! trigger as QuorumState's javadoc and KafkaRaftClient name it. The two transitions QuorumState
//! allows from (almost) every state — "after learning of a new election with a higher epoch" to
//! Unattached and "after discovering a leader" to Follower — come from a dot marked *any state*,
//! as the article leaves them out of its figure; a transition of that kind lights that edge and
//! the numbered list says which state it left. An observer (a broker) draws its two states only.

use std::sync::OnceLock;

use kraft_core::view::{StateKind, TransitionView};

use crate::i18n::StateDiagramText;

/// Width of the diagrams' viewBox.
pub const WIDTH: f64 = 520.0;
/// Height of a state's box.
pub const BOX_H: f64 = 40.0;
/// Font size (viewBox units) of the state names and the edge labels.
pub const FONT: f64 = 17.0;
/// Line height (viewBox units) of a label of several lines.
pub const LINE_H: f64 = 19.0;
/// Radius of a numbered badge.
pub const BADGE_R: f64 = 11.0;

/// A point of the viewBox.
pub type Point = (f64, f64);

/// A state's box, centred on (`cx`, `cy`).
#[derive(Clone, Debug, PartialEq)]
pub struct StateBox {
    /// QuorumState's name of the state, without `State`.
    pub name: StateKind,
    /// Centre x.
    pub cx: f64,
    /// Centre y.
    pub cy: f64,
    /// Width.
    pub w: f64,
}

impl StateBox {
    /// (left, top, right, bottom).
    pub fn rect(&self) -> (f64, f64, f64, f64) {
        (
            self.cx - self.w / 2.0,
            self.cy - BOX_H / 2.0,
            self.cx + self.w / 2.0,
            self.cy + BOX_H / 2.0,
        )
    }
}

/// How a label's lines are aligned on its x.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// Lines start at x.
    Start,
    /// Lines are centred on x.
    Middle,
    /// Lines end at x.
    End,
}

impl Anchor {
    /// SVG's `text-anchor`.
    pub fn svg(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// An edge's label: its text (in [`StateDiagramText`], a line break where it wraps), the first
/// line's baseline at `y`.
#[derive(Clone, Debug)]
pub struct Label {
    /// The anchor's x.
    pub x: f64,
    /// The first line's baseline.
    pub y: f64,
    /// How the lines align on `x`.
    pub anchor: Anchor,
    /// Its text in a language.
    pub text: fn(&StateDiagramText) -> &'static str,
}

/// A transition drawn: a path of cubic Bézier segments from one state's border to another's.
#[derive(Clone, Debug)]
pub struct Edge {
    /// A short id (`u-p`, `any-f`, ...).
    pub id: &'static str,
    /// The state left, `None` for any state.
    pub from: Option<StateKind>,
    /// The state entered.
    pub to: StateKind,
    /// What triggers it, in English (the `data-trigger` of the edge).
    pub trigger: &'static str,
    /// The Kafka code that makes it (KafkaRaftClient's method and QuorumState's transition).
    pub kafka: &'static str,
    /// The start point, then three points (two controls and the end) per segment.
    pub path: Vec<Point>,
    /// Its label.
    pub label: Label,
    /// Where its numbered badge goes when it is one of the recent transitions.
    pub badge: Point,
}

/// A diagram: its states and edges, its height, and where the list of recent transitions goes.
#[derive(Debug)]
pub struct Layout {
    /// The viewBox's height.
    pub height: f64,
    /// The states drawn.
    pub states: Vec<StateBox>,
    /// The transitions drawn.
    pub edges: Vec<Edge>,
    /// The top left of the list of recent transitions (number and time).
    pub list_at: Point,
    /// The width kept free at the top right for the node's name.
    pub title_w: f64,
    /// Which edge a transition lights, by its id.
    classify: fn(&TransitionView) -> Option<&'static str>,
}

impl Layout {
    /// The edge that `t` lights, if the diagram draws one.
    pub fn edge_for(&self, t: &TransitionView) -> Option<&Edge> {
        let id = (self.classify)(t)?;
        self.edges.iter().find(|e| e.id == id)
    }

    /// The box of state `kind`.
    pub fn state(&self, kind: StateKind) -> Option<&StateBox> {
        self.states.iter().find(|s| s.name == kind)
    }
}

/// A straight segment as one cubic segment (the points after `a`).
fn straight(a: Point, b: Point) -> [Point; 3] {
    let at = |k: f64| (a.0 + (b.0 - a.0) * k, a.1 + (b.1 - a.1) * k);
    [at(1.0 / 3.0), at(2.0 / 3.0), b]
}

/// A path of straight runs through `points`.
fn polyline(points: &[Point]) -> Vec<Point> {
    let mut out = vec![points[0]];
    for w in points.windows(2) {
        out.extend(straight(w[0], w[1]));
    }
    out
}

fn state(name: StateKind, cx: f64, cy: f64, w: f64) -> StateBox {
    StateBox { name, cx, cy, w }
}

/// The line's y, and the y of Follower and Resigned below it.
const LINE_Y: f64 = 110.0;
const BELOW_Y: f64 = 250.0;

/// A voter's layout (see the module's doc).
pub fn voter() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| Layout {
        height: 358.0,
        states: vec![
            state(StateKind::Unattached, 61.0, LINE_Y, 118.0),
            state(StateKind::Prospective, 212.0, LINE_Y, 120.0),
            state(StateKind::Candidate, 358.0, LINE_Y, 106.0),
            state(StateKind::Leader, 476.0, LINE_Y, 80.0),
            state(StateKind::Follower, 212.0, BELOW_Y, 96.0),
            state(StateKind::Resigned, 468.0, BELOW_Y, 96.0),
        ],
        edges: voter_edges(),
        list_at: (30.0, 238.0),
        title_w: 120.0,
        classify: classify_voter,
    })
}

/// The line's edges, left to right, and the back edges above it.
fn voter_line_edges() -> Vec<Edge> {
    let top = LINE_Y - BOX_H / 2.0;
    vec![
        Edge {
            id: "u-p",
            from: Some(StateKind::Unattached),
            to: StateKind::Prospective,
            trigger: "election timeout",
            kafka: "KafkaRaftClient.pollUnattachedAsVoter: the election timer expired → transitionToProspective",
            path: polyline(&[(120.0, LINE_Y), (152.0, LINE_Y)]),
            label: Label { x: 136.0, y: 154.0, anchor: Anchor::Middle, text: |t| t.election_timeout },
            badge: (136.0, LINE_Y),
        },
        Edge {
            id: "p-c",
            from: Some(StateKind::Prospective),
            to: StateKind::Candidate,
            trigger: "PreVote majority",
            kafka: "KafkaRaftClient.handleVoteResponse: PreVotes granted by a majority → maybeTransitionToCandidate (epoch + 1)",
            path: polyline(&[(272.0, LINE_Y), (305.0, LINE_Y)]),
            label: Label { x: 288.0, y: 154.0, anchor: Anchor::Middle, text: |t| t.prevote_majority },
            badge: (288.5, LINE_Y),
        },
        Edge {
            id: "c-l",
            from: Some(StateKind::Candidate),
            to: StateKind::Leader,
            trigger: "vote majority",
            kafka: "KafkaRaftClient.handleVoteResponse: votes granted by a majority → maybeTransitionToLeader → onBecomeLeader",
            path: polyline(&[(411.0, LINE_Y), (436.0, LINE_Y)]),
            label: Label { x: 423.0, y: 78.0, anchor: Anchor::Middle, text: |t| t.vote_majority },
            badge: (423.5, LINE_Y),
        },
        Edge {
            id: "p-u",
            from: Some(StateKind::Prospective),
            to: StateKind::Unattached,
            trigger: "PreVote lost, no leader known",
            kafka: "KafkaRaftClient.prospectiveTransitionAfterElectionLoss (PreVote rejected or timed out) → transitionToUnattached",
            path: vec![(175.0, top), (165.0, 56.0), (105.0, 56.0), (95.0, top)],
            label: Label { x: 135.0, y: 36.0, anchor: Anchor::Middle, text: |t| t.prevote_lost_no_leader },
            badge: (160.0, 71.0),
        },
        Edge {
            id: "c-p",
            from: Some(StateKind::Candidate),
            to: StateKind::Prospective,
            trigger: "election timeout or lost",
            kafka: "KafkaRaftClient.pollCandidate: the election timer expired (not granted) → transitionToProspective",
            path: vec![(330.0, top), (320.0, 56.0), (260.0, 56.0), (250.0, top)],
            label: Label { x: 290.0, y: 36.0, anchor: Anchor::Middle, text: |t| t.election_timeout_or_lost },
            badge: (315.0, 71.0),
        },
    ]
}

/// The edges to and from Follower and Resigned, the two from any state and the vote loop.
fn voter_lower_edges() -> Vec<Edge> {
    let bottom = LINE_Y + BOX_H / 2.0;
    let (below_top, below_bottom) = (BELOW_Y - BOX_H / 2.0, BELOW_Y + BOX_H / 2.0);
    let mut r_u = polyline(&[(476.0, below_bottom), (476.0, 310.0)]);
    r_u.extend([(476.0, 325.0), (470.0, 330.0), (456.0, 330.0)]);
    r_u.extend(straight((456.0, 330.0), (34.0, 330.0)));
    r_u.extend([(20.0, 330.0), (14.0, 325.0), (14.0, 310.0)]);
    r_u.extend(straight((14.0, 310.0), (14.0, bottom)));
    vec![
        Edge {
            id: "f-p",
            from: Some(StateKind::Follower),
            to: StateKind::Prospective,
            trigger: "fetch timeout",
            kafka: "KafkaRaftClient.pollFollowerAsVoter: no answer from the leader within fetchTimeoutMs → transitionToProspective",
            path: polyline(&[(196.0, below_top), (196.0, bottom)]),
            label: Label { x: 184.0, y: 204.0, anchor: Anchor::End, text: |t| t.fetch_timeout },
            badge: (196.0, 215.0),
        },
        Edge {
            id: "p-f",
            from: Some(StateKind::Prospective),
            to: StateKind::Follower,
            trigger: "PreVote lost, leader known",
            kafka: "KafkaRaftClient.prospectiveTransitionAfterElectionLoss (PreVote rejected or timed out, a leader known) → transitionToFollower",
            path: polyline(&[(228.0, bottom), (228.0, below_top)]),
            label: Label { x: 240.0, y: 204.0, anchor: Anchor::Start, text: |t| t.prevote_lost_leader_known },
            badge: (228.0, 152.0),
        },
        Edge {
            id: "l-r",
            from: Some(StateKind::Leader),
            to: StateKind::Resigned,
            trigger: "check quorum lost or graceful shutdown",
            kafka: "KafkaRaftClient.pollLeader: check quorum expired (no fetch from a majority within 1.5 × fetchTimeoutMs), a resign or a shutdown → transitionToResigned",
            path: polyline(&[(480.0, bottom), (480.0, below_top)]),
            label: Label { x: 470.0, y: 154.0, anchor: Anchor::End, text: |t| t.check_quorum_lost },
            badge: (480.0, 212.0),
        },
        Edge {
            id: "r-u",
            from: Some(StateKind::Resigned),
            to: StateKind::Unattached,
            trigger: "election timeout or higher epoch",
            kafka: "KafkaRaftClient.pollResigned: the election timer expired → transitionToUnattached(epoch + 1); or a message of a higher epoch",
            path: r_u,
            label: Label { x: 245.0, y: 350.0, anchor: Anchor::Middle, text: |t| t.timeout_or_higher_epoch },
            badge: (14.0, 262.0),
        },
        Edge {
            id: "any-u",
            from: None,
            to: StateKind::Unattached,
            trigger: "higher epoch seen",
            kafka: "KafkaRaftClient.maybeTransition / handleVoteRequest: an epoch higher than ours, no leader → transitionToUnattached",
            path: polyline(&[(14.0, 12.0), (14.0, LINE_Y - BOX_H / 2.0)]),
            label: Label { x: 26.0, y: 16.0, anchor: Anchor::Start, text: |t| t.any_higher_epoch },
            badge: (14.0, 52.0),
        },
        Edge {
            id: "any-f",
            from: None,
            to: StateKind::Follower,
            trigger: "leader discovered",
            kafka: "KafkaRaftClient.maybeTransition: BeginQuorumEpoch, or a Fetch or Vote answer naming the leader → transitionToFollower",
            path: polyline(&[(212.0, 298.0), (212.0, below_bottom)]),
            label: Label { x: 224.0, y: 296.0, anchor: Anchor::Start, text: |t| t.any_leader_discovered },
            badge: (212.0, 284.0),
        },
        Edge {
            id: "u-u",
            from: Some(StateKind::Unattached),
            to: StateKind::Unattached,
            trigger: "vote granted",
            kafka: "KafkaRaftClient.handleVoteRequest: the vote granted → QuorumState.unattachedAddVotedState",
            path: vec![(72.0, bottom), (78.0, 172.0), (38.0, 172.0), (44.0, bottom)],
            label: Label { x: 58.0, y: 192.0, anchor: Anchor::Middle, text: |t| t.vote_granted },
            badge: (58.0, 161.0),
        },
    ]
}

fn voter_edges() -> Vec<Edge> {
    let mut edges = voter_line_edges();
    edges.extend(voter_lower_edges());
    edges
}

/// Whether `t` stays in the epoch it left (unknown at start-up counts as the same).
fn same_epoch(t: &TransitionView) -> bool {
    t.from_epoch.is_none_or(|e| e == t.epoch)
}

/// The voter edge a transition lights: the specific edge when QuorumState's javadoc names one,
/// else one of the two from any state (a higher epoch to Unattached, a leader to Follower).
fn classify_voter(t: &TransitionView) -> Option<&'static str> {
    use StateKind::*;
    let same = same_epoch(t);
    Some(match (t.from, t.to) {
        (Some(Unattached), Prospective) => "u-p",
        (Some(Prospective), Candidate) => "p-c",
        (Some(Candidate), Leader) => "c-l",
        (Some(Candidate), Prospective) => "c-p",
        (Some(Follower), Prospective) => "f-p",
        (Some(Leader), Resigned) => "l-r",
        (Some(Resigned), Unattached) => "r-u",
        (Some(Prospective), Unattached) if same => "p-u",
        (Some(Prospective), Follower) if same => "p-f",
        (Some(Unattached), Unattached) if same => "u-u",
        (_, Unattached) => "any-u",
        (_, Follower) => "any-f",
        _ => return None,
    })
}

/// An observer's layout: Unattached and Follower only.
pub fn observer() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let (y, top, bottom) = (140.0, 120.0, 160.0);
        Layout {
            height: 274.0,
            states: vec![
                state(StateKind::Unattached, 150.0, y, 118.0),
                state(StateKind::Follower, 370.0, y, 96.0),
            ],
            edges: vec![
                Edge {
                    id: "u-f",
                    from: Some(StateKind::Unattached),
                    to: StateKind::Follower,
                    trigger: "leader discovered",
                    kafka: "KafkaRaftClient.maybeTransition: a Fetch answer or BeginQuorumEpoch naming the leader → transitionToFollower",
                    path: vec![(180.0, top), (215.0, 70.0), (315.0, 70.0), (346.0, top)],
                    label: Label { x: 262.0, y: 58.0, anchor: Anchor::Middle, text: |t| t.leader_discovered },
                    badge: (262.0, 83.0),
                },
                Edge {
                    id: "f-u",
                    from: Some(StateKind::Follower),
                    to: StateKind::Unattached,
                    trigger: "higher epoch seen",
                    kafka: "KafkaRaftClient.maybeTransition: an epoch higher than ours, no leader → transitionToUnattached",
                    path: vec![(346.0, bottom), (315.0, 210.0), (215.0, 210.0), (180.0, bottom)],
                    label: Label { x: 262.0, y: 234.0, anchor: Anchor::Middle, text: |t| t.higher_epoch_seen },
                    badge: (262.0, 197.0),
                },
                Edge {
                    id: "u-u",
                    from: Some(StateKind::Unattached),
                    to: StateKind::Unattached,
                    trigger: "higher epoch seen",
                    kafka: "KafkaRaftClient.maybeTransition: an epoch higher than ours, no leader → transitionToUnattached",
                    path: vec![(110.0, top), (114.0, 78.0), (76.0, 78.0), (80.0, top)],
                    label: Label { x: 72.0, y: 58.0, anchor: Anchor::Middle, text: |t| t.higher_epoch },
                    badge: (95.0, 89.0),
                },
                Edge {
                    id: "f-f",
                    from: Some(StateKind::Follower),
                    to: StateKind::Follower,
                    trigger: "leader of a higher epoch",
                    kafka: "KafkaRaftClient.maybeTransition: a leader of a higher epoch → transitionToFollower",
                    path: vec![(418.0, 130.0), (462.0, 114.0), (462.0, 166.0), (418.0, 150.0)],
                    label: Label { x: 455.0, y: 200.0, anchor: Anchor::Middle, text: |t| t.new_leader_higher_epoch },
                    badge: (451.0, 140.0),
                },
            ],
            list_at: (14.0, 180.0),
            title_w: 200.0,
            classify: classify_observer,
        }
    })
}

/// The observer edge a transition lights.
fn classify_observer(t: &TransitionView) -> Option<&'static str> {
    use StateKind::{Follower, Unattached};
    Some(match (t.from, t.to) {
        (Some(Unattached), Follower) => "u-f",
        (Some(Follower), Unattached) => "f-u",
        (Some(Unattached), Unattached) => "u-u",
        (Some(Follower), Follower) => "f-f",
        _ => return None,
    })
}

/// The SVG `d` of a path.
pub fn path_d(path: &[Point]) -> String {
    let mut d = match path.first() {
        Some((x, y)) => format!("M {x:.1} {y:.1}"),
        None => return String::new(),
    };
    for seg in path[1..].chunks(3) {
        d.push_str(" C");
        for (x, y) in seg {
            d.push_str(&format!(" {x:.1} {y:.1}"));
        }
    }
    d
}

/// Points along a path, `per_segment` per cubic segment (and the start).
pub fn sample(path: &[Point], per_segment: usize) -> Vec<Point> {
    let mut out: Vec<Point> = path.first().copied().into_iter().collect();
    let mut p0 = match path.first() {
        Some(p) => *p,
        None => return out,
    };
    for seg in path[1..].chunks_exact(3) {
        let (p1, p2, p3) = (seg[0], seg[1], seg[2]);
        for k in 1..=per_segment {
            let t = k as f64 / per_segment as f64;
            let u = 1.0 - t;
            let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
            out.push((
                a * p0.0 + b * p1.0 + c * p2.0 + d * p3.0,
                a * p0.1 + b * p1.1 + c * p2.1 + d * p3.1,
            ));
        }
        p0 = p3;
    }
    out
}

/// A label's lines in the language of `t`.
pub fn label_lines(label: &Label, t: &StateDiagramText) -> std::str::Split<'static, char> {
    (label.text)(t).split('\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both() -> [&'static Layout; 2] {
        [voter(), observer()]
    }

    /// Whether segments ab and cd meet (touching counts).
    fn meet(a: Point, b: Point, c: Point, d: Point) -> bool {
        let cross =
            |o: Point, p: Point, q: Point| (p.0 - o.0) * (q.1 - o.1) - (p.1 - o.1) * (q.0 - o.0);
        let (d1, d2) = (cross(c, d, a), cross(c, d, b));
        let (d3, d4) = (cross(a, b, c), cross(a, b, d));
        let on = |o: Point, p: Point, q: Point| {
            q.0 >= o.0.min(p.0) - 1e-9
                && q.0 <= o.0.max(p.0) + 1e-9
                && q.1 >= o.1.min(p.1) - 1e-9
                && q.1 <= o.1.max(p.1) + 1e-9
        };
        if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
            && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
        {
            return true;
        }
        (d1 == 0.0 && on(c, d, a))
            || (d2 == 0.0 && on(c, d, b))
            || (d3 == 0.0 && on(a, b, c))
            || (d4 == 0.0 && on(a, b, d))
    }

    /// The box a label's lines take, widths estimated generously (0.56 em a Latin letter, 1 em a
    /// Hangul syllable), for both languages.
    fn label_boxes(l: &Label) -> Vec<(f64, f64, f64, f64)> {
        [StateDiagramText::EN, StateDiagramText::KO]
            .iter()
            .map(|t| {
                let lines: Vec<&str> = label_lines(l, t).collect();
                let width = lines
                    .iter()
                    .map(|s| {
                        s.chars()
                            .map(|c| {
                                if c as u32 >= 0x1100 {
                                    FONT
                                } else {
                                    FONT * 0.56
                                }
                            })
                            .sum::<f64>()
                    })
                    .fold(0.0, f64::max);
                let left = match l.anchor {
                    Anchor::Start => l.x,
                    Anchor::Middle => l.x - width / 2.0,
                    Anchor::End => l.x - width,
                };
                let top = l.y - FONT * 0.8;
                let bottom = l.y + LINE_H * (lines.len() as f64 - 1.0) + FONT * 0.25;
                (left, top, left + width, bottom)
            })
            .collect()
    }

    fn overlap(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> bool {
        a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
    }

    fn inside(p: Point, r: (f64, f64, f64, f64), margin: f64) -> bool {
        p.0 > r.0 - margin && p.0 < r.2 + margin && p.1 > r.1 - margin && p.1 < r.3 + margin
    }

    #[test]
    fn no_two_edges_cross() {
        for layout in both() {
            let samples: Vec<(&str, Vec<Point>)> = layout
                .edges
                .iter()
                .map(|e| (e.id, sample(&e.path, 32)))
                .collect();
            for (i, (a, pa)) in samples.iter().enumerate() {
                for (b, pb) in &samples[i + 1..] {
                    for s in pa.windows(2) {
                        for t in pb.windows(2) {
                            assert!(
                                !meet(s[0], s[1], t[0], t[1]),
                                "edges {a} and {b} cross near {:?}",
                                s[0]
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_edge_says_what_triggers_it_in_both_languages() {
        for layout in both() {
            for e in &layout.edges {
                assert!(!e.trigger.trim().is_empty(), "edge {} has no trigger", e.id);
                assert!(!e.kafka.is_empty(), "edge {} names no Kafka code", e.id);
                for t in [StateDiagramText::EN, StateDiagramText::KO] {
                    assert!(
                        label_lines(&e.label, &t).all(|l| !l.trim().is_empty()),
                        "edge {} has an empty label",
                        e.id
                    );
                }
                assert!(e.from.is_none_or(|f| layout.state(f).is_some()), "{}", e.id);
                assert!(layout.state(e.to).is_some(), "{}", e.id);
            }
        }
    }

    #[test]
    fn edges_labels_and_badges_keep_clear_of_each_other() {
        for layout in both() {
            let boxes: Vec<_> = layout.states.iter().map(|s| (s.name, s.rect())).collect();
            let labels: Vec<_> = layout
                .edges
                .iter()
                .flat_map(|e| label_boxes(&e.label).into_iter().map(move |b| (e.id, b)))
                .collect();
            for e in &layout.edges {
                let points = sample(&e.path, 32);
                // An edge runs outside every box but its own two (its ends touch theirs).
                for (name, r) in &boxes {
                    if Some(*name) != e.from && *name != e.to {
                        assert!(
                            !points.iter().any(|p| inside(*p, *r, 2.0)),
                            "edge {} runs through {name}",
                            e.id
                        );
                    }
                }
                for (id, b) in &labels {
                    assert!(
                        !points.iter().any(|p| inside(*p, *b, 1.0)),
                        "edge {} runs through the label of {id}",
                        e.id
                    );
                }
                let badge = (
                    e.badge.0 - BADGE_R,
                    e.badge.1 - BADGE_R,
                    e.badge.0 + BADGE_R,
                    e.badge.1 + BADGE_R,
                );
                for (id, b) in &labels {
                    assert!(
                        !overlap(badge, *b),
                        "the badge of {} covers the label of {id}",
                        e.id
                    );
                }
                for (name, r) in &boxes {
                    assert!(!overlap(badge, *r), "the badge of {} covers {name}", e.id);
                }
            }
            // The list of recent transitions (four rows of a badge and a time) is clear too.
            let (lx, ly) = layout.list_at;
            let list = (
                lx,
                ly,
                lx + 2.0 * BADGE_R + 6.0 + 10.0 * FONT * 0.62,
                ly + 4.0 * 22.0,
            );
            for e in &layout.edges {
                assert!(
                    !sample(&e.path, 32).iter().any(|p| inside(*p, list, 2.0)),
                    "edge {} runs through the list",
                    e.id
                );
            }
            for (id, b) in &labels {
                assert!(!overlap(list, *b), "the list covers the label of {id}");
            }
            for (name, r) in &boxes {
                assert!(!overlap(list, *r), "the list covers {name}");
            }
            assert!(list.2 <= WIDTH && list.3 <= layout.height);
            // The node's name goes at the top right.
            let title = (WIDTH - layout.title_w, 0.0, WIDTH, 30.0);
            for e in &layout.edges {
                assert!(
                    !sample(&e.path, 32).iter().any(|p| inside(*p, title, 2.0)),
                    "edge {} runs through the title",
                    e.id
                );
            }
            for (id, b) in &labels {
                assert!(!overlap(title, *b), "the title covers the label of {id}");
            }
            for (i, (a, la)) in labels.iter().enumerate() {
                for (b, lb) in &labels[i + 1..] {
                    assert!(
                        a == b || !overlap(*la, *lb),
                        "the labels of {a} and {b} overlap"
                    );
                }
                for (name, r) in &boxes {
                    assert!(!overlap(*la, *r), "the label of {a} covers {name}");
                }
                assert!(
                    la.0 >= 0.0 && la.2 <= WIDTH && la.1 >= 0.0 && la.3 <= layout.height,
                    "the label of {a} is outside the diagram: {la:?}"
                );
            }
            for e in &layout.edges {
                for p in sample(&e.path, 8) {
                    assert!(
                        p.0 >= 0.0 && p.0 <= WIDTH && p.1 >= 0.0 && p.1 <= layout.height,
                        "edge {} leaves the diagram",
                        e.id
                    );
                }
            }
        }
    }

    fn t(from: &str, to: &str, from_epoch: i32, epoch: i32) -> TransitionView {
        TransitionView {
            time_ms: 0,
            from: StateKind::from_name(from),
            to: StateKind::from_name(to).unwrap(),
            epoch,
            from_epoch: Some(from_epoch),
        }
    }

    #[test]
    fn every_transition_of_quorum_states_javadoc_lights_an_edge() {
        // QuorumState's table: (from, to, whether in the same epoch).
        let voter_table = [
            ("Resigned", "Unattached", false, "r-u"),
            ("Resigned", "Follower", false, "any-f"),
            ("Unattached", "Unattached", false, "any-u"),
            ("Unattached", "Unattached", true, "u-u"),
            ("Unattached", "Prospective", true, "u-p"),
            ("Unattached", "Follower", true, "any-f"),
            ("Prospective", "Unattached", false, "any-u"),
            ("Prospective", "Unattached", true, "p-u"),
            ("Prospective", "Candidate", false, "p-c"),
            ("Prospective", "Follower", false, "any-f"),
            ("Prospective", "Follower", true, "p-f"),
            ("Candidate", "Unattached", false, "any-u"),
            ("Candidate", "Prospective", true, "c-p"),
            ("Candidate", "Leader", true, "c-l"),
            ("Candidate", "Follower", true, "any-f"),
            ("Leader", "Unattached", false, "any-u"),
            ("Leader", "Resigned", true, "l-r"),
            ("Leader", "Follower", false, "any-f"),
            ("Follower", "Unattached", false, "any-u"),
            ("Follower", "Prospective", true, "f-p"),
            ("Follower", "Follower", false, "any-f"),
        ];
        for (from, to, same, want) in voter_table {
            let epoch = if same { 1 } else { 2 };
            let e = voter().edge_for(&t(from, to, 1, epoch));
            assert_eq!(e.map(|e| e.id), Some(want), "{from} → {to}");
            let e = e.unwrap();
            assert!(
                e.from.is_none_or(|f| f.name() == from),
                "{from} → {to} lights {}",
                e.id
            );
            assert_eq!(e.to.name(), to);
        }
        for (from, to, want) in [
            ("Unattached", "Follower", "u-f"),
            ("Follower", "Unattached", "f-u"),
            ("Unattached", "Unattached", "u-u"),
            ("Follower", "Follower", "f-f"),
        ] {
            assert_eq!(
                observer().edge_for(&t(from, to, 1, 2)).map(|e| e.id),
                Some(want)
            );
        }
        // Lesson 02's 103: Prospective (epoch 1) → Unattached (epoch 2) is the higher epoch.
        assert_eq!(
            voter()
                .edge_for(&t("Prospective", "Unattached", 1, 2))
                .map(|e| e.id),
            Some("any-u")
        );
        assert!(voter()
            .edge_for(&t("Prospective", "Prospective", 1, 1))
            .is_none());
    }

    #[test]
    fn paths_are_cubic_segments() {
        for layout in both() {
            for e in &layout.edges {
                assert_eq!((e.path.len() - 1) % 3, 0, "edge {}", e.id);
                assert!(path_d(&e.path).starts_with("M "));
            }
        }
    }
}
