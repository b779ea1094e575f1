//! Adaptive time for playing the cluster in front of a room: virtual time slows down where the
//! protocol acts (an election, a broker's session running out, a write waiting for its commit, a
//! timer about to fire) and runs fast through idle waits. The page asks [`Pace`] how far to run
//! each animation frame; runs are cut only between two milliseconds, so a paced run runs the
//! same events as one `run_for` (the lesson's pinned outputs do not change).

use crate::common::api_keys::ApiKeys;
use crate::raft::messages::RaftMessage;
use crate::raft::state::EpochState;
use crate::sim::message::Message;
use crate::sim::network::InFlight;
use crate::sim::node::ProcessState;
use crate::sim::World;

/// What the cluster is doing, as far as the playing speed cares; later variants play slower.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Moment {
    /// Nothing worth watching: fetches, heartbeats, NoOps.
    Idle,
    /// A broker's session on the active controller is about to run out (or has, unfenced yet).
    SessionExpiring,
    /// A Raft timer (fetch, election, check-quorum) is about to fire.
    TimerRunningOut,
    /// The active controller waits for a write (other than a NoOp or a heartbeat) to commit.
    Committing,
    /// An election: PreVote, Vote, BeginQuorumEpoch or EndQuorumEpoch on the wire.
    Election,
}

/// A timer this close (virtual ms) to firing is [`Moment::TimerRunningOut`].
pub const TIMER_NEAR_MS: u64 = 400;
/// A session this close (virtual ms) to its end is [`Moment::SessionExpiring`].
pub const SESSION_NEAR_MS: u64 = 1_500;

impl Moment {
    /// Virtual milliseconds played per wall-clock second.
    pub fn rate(self) -> f64 {
        match self {
            Moment::Idle => 3_000.0,
            Moment::TimerRunningOut => 400.0,
            Moment::SessionExpiring => 800.0,
            Moment::Committing => 25.0,
            Moment::Election => 2.0,
        }
    }

    /// A short name for the page (`idle`, `timer`, `session`, `commit`, `election`).
    pub fn name(self) -> &'static str {
        match self {
            Moment::Idle => "idle",
            Moment::TimerRunningOut => "timer",
            Moment::SessionExpiring => "session",
            Moment::Committing => "commit",
            Moment::Election => "election",
        }
    }
}

/// Whether a message on the wire is part of an election: PreVote and Vote (both the Vote API),
/// EndQuorumEpoch to a running node, and a BeginQuorumEpoch request to a running node that does not follow a leader
/// yet (a leader also re-sends BeginQuorumEpoch every second to voters that already follow it).
fn is_election_message(world: &World, m: &InFlight) -> bool {
    let (api, request) = match &m.message {
        Message::Raft(RaftMessage::Request { body, .. }) => (body.api(), true),
        Message::Raft(RaftMessage::Response { body, .. }) => (body.api(), false),
        _ => return false,
    };
    if m.message.is_synthesized_failure() {
        // A request to a node that is down, failed by the sender's own network client.
        return false;
    }
    let Some(to) = world
        .node(m.to)
        .filter(|n| n.process == ProcessState::Running)
    else {
        // To a node that is down: nobody will act on it.
        return false;
    };
    match api {
        ApiKeys::Vote | ApiKeys::EndQuorumEpoch => true,
        ApiKeys::BeginQuorumEpoch => {
            request
                && to
                    .raft
                    .as_ref()
                    .is_some_and(|r| !matches!(r.state(), EpochState::Follower(_)))
        }
        _ => false,
    }
}

/// The writes that do not slow time down: the periodic NoOp and the heartbeats.
fn is_routine_write(name: &str) -> bool {
    name == "writeNoOpRecord" || name == "processBrokerHeartbeat"
}

/// What the cluster is doing now (the slowest moment that applies).
pub fn moment(world: &World) -> Moment {
    let now = world.now_ms();
    if world
        .network()
        .in_flight
        .values()
        .any(|m| is_election_message(world, m))
    {
        return Moment::Election;
    }
    let mut found = Moment::Idle;
    for node in world.nodes() {
        if node.process != ProcessState::Running {
            continue;
        }
        if let Some(c) = node.controller.as_ref().filter(|c| c.is_active()) {
            if c.purgatory.iter().any(|(_, w)| !is_routine_write(&w.name)) {
                return Moment::Committing;
            }
            let timeout = c.session_timeout_ms();
            let expiring = c.broker_sessions().into_iter().any(|(id, t)| {
                let fenced = c
                    .state
                    .cluster
                    .brokers
                    .get(&id)
                    .is_some_and(|b| b.record.fenced);
                !fenced && t + timeout <= now + SESSION_NEAR_MS
            });
            if expiring {
                found = found.max(Moment::SessionExpiring);
            }
        }
        if let Some(t) = node
            .raft
            .as_ref()
            .and_then(|r| super::raft_timer_view(r.state()))
        {
            if t.deadline_ms <= now + TIMER_NEAR_MS {
                found = found.max(Moment::TimerRunningOut);
            }
        }
    }
    found
}

/// How fast (virtual ms per wall second) may grow from one frame to the next, per wall second:
/// after an election the speed comes back over about a second and a half, so the room sees the
/// new leader before time runs fast again.
pub const SPEED_UP_PER_S: f64 = 150.0;
/// An election or a commit that shows no change (no node changes its Raft state, epoch, leader
/// or vote, no broker is fenced or unfenced) for this long (wall ms) is sped up: a vote retried
/// to a dead voter, a write that cannot commit, a split vote waiting out its timeouts.
pub const CALM_WALL_MS: f64 = 2_000.0;
/// Past [`CALM_WALL_MS`], the speed doubles every this many wall ms.
pub const CALM_DOUBLING_WALL_MS: f64 = 400.0;

/// The playing speed of adaptive time: a rate that drops at once when the cluster starts doing
/// something worth watching and grows back smoothly when it stops.
#[derive(Clone, Debug, PartialEq)]
pub struct Pace {
    /// Virtual ms per wall second now.
    pub rate: f64,
    /// The moment the rate was last set for.
    pub moment: Moment,
    /// Where the played clock is (virtual ms, with the fraction not yet run).
    pub clock_ms: f64,
    /// Wall ms since the last visible change (see [`CALM_WALL_MS`]).
    pub calm_wall_ms: f64,
    /// The rate of [`Moment::Idle`] for this run (see [`Pace::for_span`]).
    pub idle_rate: f64,
    /// What was visible at the last frame (see [`visible_digest`]).
    digest: u64,
}

/// A wait's idle stretches play in about this many wall seconds at most, however long it is.
pub const IDLE_SPAN_WALL_S: f64 = 5.0;

/// A digest of what a change of would show: each node's process, Raft state, epoch, leader and
/// vote, and which brokers the active controller has fenced.
pub fn visible_digest(world: &World) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for n in world.nodes() {
        n.id.hash(&mut h);
        n.process.name().hash(&mut h);
        if let Some(r) = &n.raft {
            let s = r.state();
            (
                s.name(),
                s.epoch(),
                s.leader_id(),
                s.voted_key().map(|k| k.id),
            )
                .hash(&mut h);
        }
        if let Some(c) = n.controller.as_ref().filter(|c| c.is_active()) {
            for (id, b) in c.state.cluster.brokers.iter() {
                (id, b.record.fenced).hash(&mut h);
            }
        }
    }
    h.finish()
}

impl Pace {
    /// A pace starting at the world's time, at the rate of what it is doing (free play).
    pub fn new(world: &World) -> Pace {
        Pace::for_span(world, 0)
    }

    /// A pace for a wait of `span_ms` virtual ms: its idle stretches run fast enough to take
    /// about [`IDLE_SPAN_WALL_S`] in all (`sleep 70s` does not take 23 s of the lecture).
    pub fn for_span(world: &World, span_ms: u64) -> Pace {
        let m = moment(world);
        let idle_rate = Moment::Idle.rate().max(span_ms as f64 / IDLE_SPAN_WALL_S);
        let mut pace = Pace {
            rate: 0.0,
            moment: m,
            clock_ms: world.now_ms() as f64,
            calm_wall_ms: 0.0,
            idle_rate,
            digest: visible_digest(world),
        };
        pace.rate = pace.target(m);
        pace
    }

    /// The rate `m` plays at in this run, before smoothing.
    fn target(&self, m: Moment) -> f64 {
        match m {
            Moment::Idle => self.idle_rate,
            Moment::Election | Moment::Committing if self.calm_wall_ms > CALM_WALL_MS => {
                let doublings = (self.calm_wall_ms - CALM_WALL_MS) / CALM_DOUBLING_WALL_MS;
                (m.rate() * 2f64.powf(doublings)).min(self.idle_rate)
            }
            m => m.rate(),
        }
    }

    /// Starts a frame of `wall_ms` wall-clock milliseconds: sets the rate for what the world is
    /// doing and gives the virtual time (ms) to run to this frame.
    pub fn frame(&mut self, world: &World, wall_ms: f64) -> u64 {
        let wall_ms = wall_ms.clamp(0.0, 250.0);
        let m = moment(world);
        let digest = visible_digest(world);
        if digest != self.digest || m > self.moment {
            self.calm_wall_ms = 0.0;
        } else {
            self.calm_wall_ms += wall_ms;
        }
        self.digest = digest;
        let target = self.target(m);
        let grown = self.rate * SPEED_UP_PER_S.powf(wall_ms / 1000.0);
        self.rate = target.min(grown);
        self.moment = m;
        self.clock_ms = self.clock_ms.max(world.now_ms() as f64) + self.rate * wall_ms / 1000.0;
        self.clock_ms.floor() as u64
    }

    /// Whether the run of this frame should stop here: the world now does something that plays
    /// slower than what the frame started with.
    pub fn should_pause(&self, world: &World) -> bool {
        moment(world) > self.moment
    }

    /// After a run that stopped early at `world`'s time: the played clock goes back to it.
    pub fn settle(&mut self, world: &World) {
        let now = world.now_ms() as f64;
        if self.clock_ms.floor() > now {
            self.clock_ms = now;
        }
    }
}

/// Runs `world` up to `until_ms`, stopping early between two milliseconds when `pause` holds
/// (every event of the millisecond reached has run, so this is `run_for` cut short). Gives
/// whether it stopped early.
pub fn run_paced(world: &mut World, until_ms: u64, mut pause: impl FnMut(&World) -> bool) -> bool {
    while let Some(t) = world.next_event_time() {
        if t > until_ms {
            break;
        }
        world.step();
        if world.next_event_time() != Some(world.now_ms()) && pause(world) {
            return true;
        }
    }
    let now = world.now_ms();
    world.run_for(until_ms.saturating_sub(now));
    false
}
