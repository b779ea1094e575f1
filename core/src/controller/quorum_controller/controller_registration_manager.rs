//! The ControllerRegistrationManager: a controller registers with the active controller
//! until the log holds its incarnation's RegisterControllerRecord.

use super::QuorumController;
use crate::common::message::controller::{
    ControllerMessage, ControllerRequest, ControllerResponse,
};
use crate::controller::feature_control::METADATA_VERSION;

/// The ControllerRegistrationManager of this controller.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegistrationState {
    /// A request in flight: (destination, correlation id).
    pub pending: Option<(i32, u64)>,
    /// Do not send again before this time.
    pub retry_at_ms: u64,
    /// The active controller accepted this incarnation's registration.
    pub succeeded: bool,
    next_correlation_id: u64,
}

impl QuorumController {
    /// ControllerRegistrationManager: register with the active controller until the log holds
    /// this incarnation's RegisterControllerRecord. Returns a request to send.
    pub fn poll_registration(&mut self, now_ms: u64) -> Option<(i32, ControllerMessage)> {
        let registered = self
            .state
            .cluster
            .controllers
            .get(&self.node_id)
            .is_some_and(|r| r.incarnation_id == self.incarnation_id);
        if registered
            || self.registration.succeeded
            || self.registration.pending.is_some()
            || now_ms < self.registration.retry_at_ms
        {
            return None;
        }
        let leader = self.last_leader?.leader_id?;
        // Wait until the log has been bootstrapped (metadata.version is known).
        self.state.features.levels.get(METADATA_VERSION)?;
        let cid = self.registration.next_correlation_id;
        self.registration.next_correlation_id += 1;
        self.registration.pending = Some((leader, cid));
        Some((
            leader,
            ControllerMessage::Request {
                correlation_id: cid,
                body: ControllerRequest::ControllerRegistration {
                    controller_id: self.node_id,
                    incarnation_id: self.incarnation_id,
                    port: self.port,
                },
            },
        ))
    }

    /// A registration request to `to` failed at the network level.
    pub fn registration_failed(&mut self, correlation_id: u64, now_ms: u64) {
        if self.registration.pending.map(|p| p.1) == Some(correlation_id) {
            self.registration.pending = None;
            self.registration.retry_at_ms = now_ms + self.config.registration_retry_ms;
        }
    }

    /// A response to this controller's ControllerRegistrationRequest (others are ignored):
    /// success settles the registration, an error retries it after registration_retry_ms.
    pub(super) fn handle_registration_response(
        &mut self,
        correlation_id: u64,
        body: &ControllerResponse,
        now_ms: u64,
    ) {
        if self.registration.pending.map(|p| p.1) == Some(correlation_id) {
            self.registration.pending = None;
            let ok = matches!(
                body,
                ControllerResponse::ControllerRegistration { error: None }
            );
            self.registration.succeeded = ok;
            if !ok {
                self.registration.retry_at_ms = now_ms + self.config.registration_retry_ms;
            }
        }
    }
}
