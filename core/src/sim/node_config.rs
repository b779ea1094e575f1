//! A node's configuration: its process.roles, what its properties file says about the quorum
//! (`controller.quorum.voters` or `controller.quorum.bootstrap.servers`), how it is formatted,
//! and the text of its properties file (config/controller.properties laid out as Kafka ships
//! it).

use serde::Serialize;

use crate::raft::voter_set::VoterNode;

/// Kafka's process.roles (serialised as its text: `controller`, `broker`,
/// `broker,controller`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Roles {
    /// `controller`: a voter of the metadata quorum.
    #[serde(rename = "controller")]
    Controller,
    /// `broker`: an observer of the metadata log.
    #[serde(rename = "broker")]
    Broker,
    /// `broker,controller`: both in one process (a voter).
    #[serde(rename = "broker,controller")]
    Combined,
}

impl Roles {
    /// process.roles text.
    pub fn name(&self) -> &'static str {
        match self {
            Roles::Controller => "controller",
            Roles::Broker => "broker",
            Roles::Combined => "broker,controller",
        }
    }

    /// Whether it runs a controller (`controller` in process.roles).
    pub fn has_controller(&self) -> bool {
        !matches!(self, Roles::Broker)
    }

    /// Whether it runs a broker (`broker` in process.roles).
    pub fn has_broker(&self) -> bool {
        !matches!(self, Roles::Controller)
    }
}

impl std::fmt::Display for Roles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

/// How a cluster's quorum is formatted (`cluster ... quorum=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum QuorumMode {
    /// Every controller formatted with the same `--initial-controllers` (kraft.version 1, the
    /// voter set in the bootstrap checkpoint): the article's cluster.
    #[default]
    InitialControllers,
    /// The first controller formatted `--standalone` (a voter set of itself), the others
    /// `--no-initial-controllers` (observers until added).
    Standalone,
    /// `controller.quorum.voters` on every node: kraft.version 0, a static voter set.
    Static,
}

impl QuorumMode {
    /// Its name in `cluster quorum=`.
    pub fn name(self) -> &'static str {
        match self {
            QuorumMode::InitialControllers => "initial-controllers",
            QuorumMode::Standalone => "standalone",
            QuorumMode::Static => "static",
        }
    }

    /// The mode named `name`.
    pub fn from_name(name: &str) -> Option<QuorumMode> {
        [
            QuorumMode::InitialControllers,
            QuorumMode::Standalone,
            QuorumMode::Static,
        ]
        .into_iter()
        .find(|m| m.name() == name)
    }
}

/// What a node's properties say about the quorum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuorumProps {
    /// `controller.quorum.voters=101@localhost:9093,...`: the static voter set (no
    /// directory ids), as (id, port).
    Voters(Vec<(i32, u16)>),
    /// `controller.quorum.bootstrap.servers=localhost:9093,...`: where to find the quorum, as
    /// (node id, port) (the playground routes by node id).
    BootstrapServers(Vec<(i32, u16)>),
}

impl QuorumProps {
    /// The nodes a replica fetches from to find the leader, with their ports.
    pub fn bootstrap(&self) -> Vec<(i32, u16)> {
        match self {
            QuorumProps::Voters(v) | QuorumProps::BootstrapServers(v) => v.clone(),
        }
    }
}

/// How a node's metadata directory is formatted (Formatter.java:377-381, 429-502).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bootstrap {
    /// `--initial-controllers "id@host:port:dir,..."`: KRaftVersion 1 and these voters.
    InitialControllers(Vec<VoterNode>),
    /// `--standalone`: KRaftVersion 1 and a voter set of this controller alone.
    Standalone,
    /// `--no-initial-controllers`: KRaftVersion 1, no voter set (a controller to be added).
    NoInitialControllers,
    /// `controller.quorum.voters` set: kraft.version 0, neither record.
    Static,
    /// A broker: no bootstrap checkpoint.
    Broker,
}

/// The file name of a node's properties: `controller.properties`, `broker.properties`, or
/// `server.properties` for a combined node.
pub fn properties_file(roles: Roles) -> &'static str {
    match roles {
        Roles::Controller => "controller.properties",
        Roles::Broker => "broker.properties",
        Roles::Combined => "server.properties",
    }
}

/// A node's properties file, as config/controller.properties lays it out (the settings the
/// playground reads).
pub fn properties_text(
    id: i32,
    roles: Roles,
    controller_port: u16,
    broker_port: u16,
    quorum: &QuorumProps,
) -> String {
    let mut out = format!("process.roles={}\nnode.id={id}\n", roles.name());
    match quorum {
        QuorumProps::Voters(v) => {
            let list: Vec<String> = v
                .iter()
                .map(|(id, port)| format!("{id}@localhost:{port}"))
                .collect();
            out.push_str(&format!("controller.quorum.voters={}\n", list.join(",")));
        }
        QuorumProps::BootstrapServers(v) => {
            let list: Vec<String> = v.iter().map(|(_, p)| format!("localhost:{p}")).collect();
            out.push_str(&format!(
                "controller.quorum.bootstrap.servers={}\n",
                list.join(",")
            ));
        }
    }
    let listeners = match roles {
        Roles::Controller => format!("CONTROLLER://localhost:{controller_port}"),
        Roles::Broker => format!("PLAINTEXT://localhost:{broker_port}"),
        Roles::Combined => {
            format!("PLAINTEXT://localhost:{broker_port},CONTROLLER://localhost:{controller_port}")
        }
    };
    out.push_str(&format!("listeners={listeners}\n"));
    if roles != Roles::Controller {
        out.push_str("inter.broker.listener.name=PLAINTEXT\n");
    }
    out.push_str(&format!(
        "controller.listener.names=CONTROLLER\nlog.dirs={id}\n"
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_name_the_quorum_as_each_mode_does() {
        let boot = QuorumProps::BootstrapServers(vec![(101, 9093), (102, 9095)]);
        let text = properties_text(104, Roles::Controller, 9099, 0, &boot);
        assert_eq!(
            text,
            "process.roles=controller\nnode.id=104\ncontroller.quorum.bootstrap.servers=localhost:9093,localhost:9095\nlisteners=CONTROLLER://localhost:9099\ncontroller.listener.names=CONTROLLER\nlog.dirs=104\n"
        );
        let voters = QuorumProps::Voters(vec![(101, 9093)]);
        let text = properties_text(1, Roles::Broker, 0, 9092, &voters);
        assert!(text.contains("controller.quorum.voters=101@localhost:9093\n"));
        assert!(text.contains("listeners=PLAINTEXT://localhost:9092\n"));
        assert_eq!(
            QuorumMode::from_name("standalone"),
            Some(QuorumMode::Standalone)
        );
        assert_eq!(QuorumMode::from_name("dynamic"), None);
    }
}
