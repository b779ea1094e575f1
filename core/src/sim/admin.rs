//! The admin client's side of the world: the tools' (`kafka-topics.sh`, `kafka-configs.sh`, ...)
//! requests to the controllers, their responses, and the active-controller lookup the tools
//! bootstrap from. The client's own state is in `sim/admin_client.rs`.

use super::admin_client::ADMIN_CLIENT_ID;
use super::message::Message;
use super::node::ProcessState;
use super::world::{SimError, World};
use crate::common::message::controller::{
    ControllerMessage, ControllerRequest, ControllerResponse,
};
use crate::metadata::broker_registration::BrokerRegistration;

impl World {
    /// Kill the running tool at virtual ms `at` (`timeout DURATION COMMAND`), or no longer
    /// (`None`): [`World::run_for`] and [`World::run_until`] stop there, and the admin client
    /// sends nothing once it has passed.
    pub fn set_tool_kill_at(&mut self, at: Option<u64>) {
        self.admin.killed_at_ms = at;
    }

    /// Whether the running tool has been killed (its `timeout` passed).
    pub fn tool_killed(&self) -> bool {
        self.admin.killed_at_ms.is_some_and(|t| self.now_ms >= t)
    }

    /// `end`, or the running tool's kill time if that is sooner.
    pub(super) fn tool_end(&self, end: u64) -> u64 {
        self.admin
            .killed_at_ms
            .map_or(end, |t| end.min(t.max(self.now_ms)))
    }

    /// The next correlation id of the clients' requests to node `to`; an error when the tool
    /// was stopped (`timeout`) or there is no node `to`.
    fn admin_correlation_id(&mut self, to: i32) -> Result<u64, SimError> {
        if self.tool_killed() {
            return Err(SimError::ToolKilled);
        }
        if !self.nodes.contains_key(&to) {
            return Err(SimError::UnknownNode(to));
        }
        let cid = self.admin.next_correlation_id;
        self.admin.next_correlation_id += 1;
        Ok(cid)
    }

    /// Send a controller request from the admin client to node `to` (as
    /// `--bootstrap-controller` does). Returns the correlation id to wait for.
    pub fn admin_send(&mut self, to: i32, request: ControllerRequest) -> Result<u64, SimError> {
        let cid = self.admin_correlation_id(to)?;
        self.send(
            ADMIN_CLIENT_ID,
            to,
            Message::Controller(ControllerMessage::Request {
                correlation_id: cid,
                body: request,
            }),
        );
        Ok(cid)
    }

    /// Send a Raft request (AddRaftVoter, RemoveRaftVoter) from the admin client to node `to`,
    /// as Kafka's admin client sends them to the leader. Returns the correlation id.
    pub fn admin_send_raft(
        &mut self,
        to: i32,
        request: crate::raft::messages::RaftRequest,
    ) -> Result<u64, SimError> {
        let cid = self.admin_correlation_id(to)?;
        self.send(
            ADMIN_CLIENT_ID,
            to,
            Message::Raft(crate::raft::messages::RaftMessage::Request {
                correlation_id: cid,
                body: request,
            }),
        );
        Ok(cid)
    }

    /// `kafka-features upgrade --feature kraft.version=N` as the active controller carries it
    /// out (FeatureControlManager.updateFeature -> KafkaRaftClient.upgradeKRaftVersion): on the
    /// Raft leader, with Kafka's refusals as (exception class, message). The playground goes to
    /// the leader directly; the UpdateFeatures RPC itself is not simulated.
    pub fn upgrade_kraft_version(
        &mut self,
        version: u16,
        validate_only: bool,
    ) -> Result<bool, (&'static str, String)> {
        if self.tool_killed() {
            return Err(("TimeoutException", SimError::ToolKilled.to_string()));
        }
        let Some((leader, _)) = self.leader() else {
            return Err((
                "NotLeaderException",
                "Upgrade kraft version failed because the replica is not the current leader".into(),
            ));
        };
        let mut outcome = Ok(false);
        self.with_raft(leader, |raft, io| {
            outcome = raft.upgrade_kraft_version(version, validate_only, io);
            Ok(())
        });
        outcome
    }

    /// Send a data-plane request (Produce, Fetch, ListOffsets, Metadata) from the clients'
    /// node to broker `to`, as the producer, consumer and tools do. Returns the correlation
    /// id to wait for.
    pub fn client_send(
        &mut self,
        to: i32,
        request: crate::broker::messages::DataRequest,
    ) -> Result<u64, SimError> {
        let cid = self.admin_correlation_id(to)?;
        if let crate::broker::messages::DataRequest::Produce(p) = &request {
            if p.acks == -1 {
                self.admin.pending_produces.insert(
                    cid,
                    (
                        p.partition,
                        format!("{}-{}", p.topic, p.partition.1),
                        p.batch.records.clone(),
                    ),
                );
            }
        }
        self.send(
            ADMIN_CLIENT_ID,
            to,
            Message::Data(crate::broker::messages::DataMessage::Request {
                correlation_id: cid,
                body: request,
            }),
        );
        Ok(cid)
    }

    /// The writes acknowledged with acks=all so far (what the data-plane invariants hold
    /// every later leader to).
    pub fn acked_writes(&self) -> &[super::admin_client::AckedWrite] {
        &self.admin.acked
    }

    /// A data-plane response reached the clients: kept for the tool waiting on it, and an
    /// acks=all produce answered NONE is remembered as acknowledged.
    pub(super) fn client_received(
        &mut self,
        cid: u64,
        body: crate::broker::messages::DataResponse,
    ) {
        if let Some((tp, name, records)) = self.admin.pending_produces.remove(&cid) {
            if let crate::broker::messages::DataResponse::Produce(r) = &body {
                if r.error == crate::common::protocol::Errors::None {
                    let leader_epoch = self
                        .nodes
                        .values()
                        .filter_map(|n| n.replicas.as_ref()?.partitions.get(&tp))
                        .filter(|p| p.is_leader())
                        .map(|p| p.leader_epoch)
                        .max()
                        .unwrap_or(-1);
                    self.admin.acked.push(super::admin_client::AckedWrite {
                        partition: tp,
                        name,
                        base_offset: r.base_offset,
                        records,
                        leader_epoch,
                        time_ms: self.now_ms,
                    });
                }
            }
        }
        self.admin.data_responses.insert(cid, body);
    }

    /// The clients' data-plane response to request `cid`, once it arrived.
    pub fn client_response(&self, cid: u64) -> Option<&crate::broker::messages::DataResponse> {
        self.admin.data_responses.get(&cid)
    }

    /// The admin client's Raft response to request `cid`, once it arrived.
    pub fn admin_raft_response(&self, cid: u64) -> Option<&crate::raft::messages::RaftResponse> {
        self.admin.raft_responses.get(&cid)
    }

    /// The admin client's response to request `cid`, once it arrived.
    pub fn admin_response(&self, cid: u64) -> Option<&ControllerResponse> {
        self.admin.responses.get(&cid)
    }

    /// The running node whose QuorumController is active, if any.
    pub fn active_controller(&self) -> Option<i32> {
        self.nodes
            .values()
            .filter(|n| n.process == ProcessState::Running)
            .find(|n| n.controller.as_ref().is_some_and(|c| c.is_active()))
            .map(|n| n.id)
    }

    /// The active controller's committed registration of broker `id` (whether it is fenced,
    /// its broker epoch), if there is an active controller that knows it. A fencing or an
    /// unfencing counts once its record is committed, not when the controller writes it.
    pub fn active_registration(&self, id: i32) -> Option<&BrokerRegistration> {
        self.node(self.active_controller()?)?
            .controller
            .as_ref()?
            .committed_registration(id)
    }
}

impl World {
    /// A number below `bound` from the world's RNG, for a client's random choices (the
    /// producer's sticky partition, BuiltInPartitioner.java). Only tools call it, so runs that
    /// use no client keep their RNG stream.
    pub fn client_random(&mut self, bound: u64) -> u64 {
        self.rng.below(bound.max(1))
    }
}
