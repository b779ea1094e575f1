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
    /// Send a controller request from the admin client to node `to` (as
    /// `--bootstrap-controller` does). Returns the correlation id to wait for.
    pub fn admin_send(&mut self, to: i32, request: ControllerRequest) -> Result<u64, SimError> {
        if !self.nodes.contains_key(&to) {
            return Err(SimError::UnknownNode(to));
        }
        let cid = self.admin.next_correlation_id;
        self.admin.next_correlation_id += 1;
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
        if !self.nodes.contains_key(&to) {
            return Err(SimError::UnknownNode(to));
        }
        let cid = self.admin.next_correlation_id;
        self.admin.next_correlation_id += 1;
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
