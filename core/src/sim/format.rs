//! A node's files before it starts: its properties file (`N/controller.properties`,
//! `N/broker.properties` or `N/server.properties`) and `kafka-storage.sh format`'s output —
//! `N/meta.properties` and, on a controller, the bootstrap checkpoint
//! `__cluster_metadata-0/00000000000000000000-0000000000.checkpoint` — written the way Kafka's
//! Formatter writes them (metadata/.../storage/Formatter.java, core/.../StorageTool.scala) in
//! the three ways a KRaft quorum is formatted (KIP-853).

use super::node::{Node, Roles};
use super::node_config::{properties_file, properties_text, Bootstrap, QuorumMode, QuorumProps};
use super::world::{controller_port, SimError, World, MAX_NODES};
use crate::common::offset_and_epoch::OffsetAndEpoch;
use crate::common::uuid::Uuid;
use crate::raft::batch::Record;
use crate::raft::disk::METADATA_DIR;
use crate::raft::voter_set::VoterNode;

impl World {
    /// Writes node `id`'s properties file (before it is formatted).
    pub(super) fn write_properties(&mut self, id: i32) {
        let Some(n) = self.nodes.get_mut(&id) else {
            return;
        };
        let text = properties_text(
            id,
            n.roles,
            n.controller_port,
            n.broker_port,
            &n.quorum_props,
        );
        n.disk.write_file(properties_file(n.roles), text);
    }

    /// `kafka-storage format`: meta.properties, the metadata partition's files and (on
    /// controllers) the bootstrap checkpoint: kraft.version and the voter set as `bootstrap`
    /// says, then the bootstrap feature levels. Returns the directory id it gave the node.
    pub(super) fn format(&mut self, id: i32, bootstrap: &Bootstrap) {
        let cluster_id = self.cluster_id;
        let now_ms = self.now_ms;
        let segment_bytes = self.config.quorum.metadata_log.segment_bytes;
        let Some(n) = self.nodes.get_mut(&id) else {
            return;
        };
        n.disk.write_file(
            "meta.properties",
            format!(
                "#\n#{}\ncluster.id={cluster_id}\ndirectory.id={}\nnode.id={id}\nversion=1\n",
                crate::common::clock::iso_utc(now_ms),
                n.directory_id
            ),
        );
        n.disk.write_file(
            &format!("{METADATA_DIR}/partition.metadata"),
            "version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAQ\n".to_string(),
        );
        n.disk.metadata_log.set_segment_bytes(segment_bytes);
        n.formatted = true;
        let self_node = VoterNode::new(
            crate::raft::replica_key::ReplicaKey {
                id,
                directory_id: Some(n.directory_id),
            },
            n.controller_port,
        );
        let control = match bootstrap {
            Bootstrap::Broker => return,
            Bootstrap::Static => Vec::new(),
            Bootstrap::NoInitialControllers => vec![Record::KRaftVersion { kraft_version: 1 }],
            Bootstrap::Standalone => vec![
                Record::KRaftVersion { kraft_version: 1 },
                Record::KRaftVoters {
                    voters: crate::raft::voter_set::VoterSet::new([self_node]).to_record(),
                },
            ],
            Bootstrap::InitialControllers(voters) => vec![
                Record::KRaftVersion { kraft_version: 1 },
                Record::KRaftVoters {
                    voters: crate::raft::voter_set::VoterSet::new(voters.iter().copied())
                        .to_record(),
                },
            ],
        };
        // The bootstrap snapshot 0-0, then the bootstrap feature levels.
        let records: Vec<crate::metadata::MetadataRecord> =
            crate::controller::feature_control::bootstrap_features()
                .into_iter()
                .map(crate::metadata::MetadataRecord::FeatureLevel)
                .collect();
        let snapshot = crate::raft::snapshot::RawSnapshot::write(
            OffsetAndEpoch {
                offset: 0,
                epoch: 0,
            },
            0,
            control,
            records,
            0,
        );
        n.disk
            .metadata_log
            .store_snapshot(std::sync::Arc::new(snapshot));
    }

    /// A new node `id` of `roles` joins the cluster's machines, unformatted and not started:
    /// its properties file is written (a controller gets the next CONTROLLER port, 9099 for
    /// the fourth; it finds the quorum as the others do), and nothing else. Format it with
    /// [`World::format_node`], then start it.
    pub fn provision_node(&mut self, id: i32, roles: Roles) -> Result<(), SimError> {
        if self.nodes.contains_key(&id) {
            return Err(SimError::BadConfig(format!("node {id} already exists")));
        }
        if id < 0 {
            return Err(SimError::BadConfig(format!(
                "node id {id} must not be negative"
            )));
        }
        if self.nodes.len() >= MAX_NODES {
            return Err(SimError::BadConfig(format!(
                "at most {MAX_NODES} nodes are supported"
            )));
        }
        let controllers: Vec<(i32, u16)> = self
            .nodes
            .values()
            .filter(|n| n.roles.has_controller())
            .map(|n| (n.id, n.controller_port))
            .collect();
        let brokers = self.nodes.values().filter(|n| n.roles.has_broker()).count();
        let directory_id = Uuid::random(&mut self.rng);
        let mut node = Node::new(
            id,
            roles,
            directory_id,
            if roles.has_broker() {
                9092 + 2 * brokers as u16
            } else {
                0
            },
        );
        if roles.has_controller() {
            node.controller_port = controller_port(controllers.len());
        }
        node.quorum_props = match self.config.quorum_mode {
            QuorumMode::Static => QuorumProps::Voters(controllers),
            _ => QuorumProps::BootstrapServers(controllers),
        };
        self.nodes.insert(id, node);
        match roles {
            Roles::Broker => self.config.brokers.push(id),
            Roles::Controller => self.config.controllers.push(id),
            Roles::Combined => self.config.combined.push(id),
        }
        self.write_properties(id);
        Ok(())
    }

    /// `kafka-storage format` of node `id` as `bootstrap` says (the tool checks its options and
    /// prints its lines): meta.properties and the bootstrap checkpoint. A node listed in
    /// `--initial-controllers` takes the directory id the list gives it (Formatter.java:438-439,
    /// a `dynamic metadata voter directory`).
    pub fn format_node(&mut self, id: i32, bootstrap: &Bootstrap) -> Result<(), SimError> {
        let n = self.node_mut(id)?;
        if n.formatted {
            return Err(SimError::BadConfig(format!(
                "node {id} is already formatted"
            )));
        }
        if let Bootstrap::InitialControllers(voters) = bootstrap {
            if let Some(dir) = voters
                .iter()
                .find(|v| v.key.id == id)
                .and_then(|v| v.key.directory_id)
            {
                n.directory_id = dir;
            }
        }
        self.format(id, bootstrap);
        Ok(())
    }

    /// `kafka-storage random-uuid`: a new id drawn from the world's one RNG (`Uuid.randomUuid`,
    /// which re-draws the reserved ids and those starting with `-`), so a run stays
    /// reproducible from its seed.
    pub fn random_uuid(&mut self) -> Uuid {
        Uuid::random(&mut self.rng)
    }
}
