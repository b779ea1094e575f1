//! The write operations of the client requests, as QuorumController runs them:
//! registerBroker, alterPartition, processBrokerHeartbeat (in `broker_heartbeats`),
//! registerController, createTopics, incrementalAlterConfigs and deleteTopics.

use super::{
    ControllerResult, QuorumController, CLUSTER_CONTROL_LOGGER, REPLICATION_CONTROL_LOGGER,
};
use crate::common::message::controller::{
    AlterConfigsResource, AlterPartitionState, ApiError, ControllerRequest, ControllerResponse,
    CreatableTopic,
};
use crate::common::node_log::Level;
use crate::common::uuid::Uuid;
use crate::controller::cluster_control::supported_features;
use crate::controller::event_handler_exception_info::EventHandlerExceptionInfo;
use crate::controller::heartbeat_manager::HeartbeatAsk;
use crate::controller::heartbeat_tracker::BrokerIdAndEpoch;
use crate::controller::partition_change_builder::PartitionChangeBuilder;
use crate::metadata::{
    Endpoint, MetadataRecord, RegisterControllerRecord, SECURITY_PROTOCOL_PLAINTEXT,
};
use crate::raft::io::RaftIo;

impl QuorumController {
    /// The write operation of a client request: its records and response.
    pub(super) fn handle_request(
        &mut self,
        request: &ControllerRequest,
        io: &mut RaftIo,
    ) -> ControllerResult {
        match request {
            ControllerRequest::BrokerRegistration {
                broker_id,
                incarnation_id,
                port,
                log_dirs,
                previous_broker_epoch,
            } => self.register_broker(
                *broker_id,
                *incarnation_id,
                *port,
                log_dirs,
                *previous_broker_epoch,
                io,
            ),
            ControllerRequest::AlterPartition {
                broker_id,
                broker_epoch,
                topic_id,
                partition_id,
                leader_epoch,
                partition_epoch,
                new_isr,
            } => self.alter_partition(
                *broker_id,
                *broker_epoch,
                *topic_id,
                *partition_id,
                *leader_epoch,
                *partition_epoch,
                new_isr,
                io,
            ),
            ControllerRequest::BrokerHeartbeat {
                broker_id,
                broker_epoch,
                current_metadata_offset,
                want_fence,
                want_shut_down,
                cordoned_log_dirs,
            } => self.process_broker_heartbeat(
                *broker_id,
                *broker_epoch,
                HeartbeatAsk {
                    want_fence: *want_fence,
                    want_shut_down: *want_shut_down,
                    current_metadata_offset: *current_metadata_offset,
                },
                cordoned_log_dirs,
                io,
            ),
            ControllerRequest::ControllerRegistration {
                controller_id,
                incarnation_id,
                port,
            } => self.register_controller(*controller_id, *incarnation_id, *port),
            ControllerRequest::CreateTopics { topics } => self.create_topics(topics, io),
            ControllerRequest::IncrementalAlterConfigs {
                resources,
                validate_only,
            } => self.incremental_alter_configs(resources, *validate_only),
            ControllerRequest::DeleteTopics { names } => self.delete_topics(names),
        }
    }

    /// `registerBroker` (ClusterControlManager): the broker's epoch is the next write offset;
    /// a new incarnation's records first clean up after the old one's shutdown. A duplicate
    /// registration fails with DuplicateBrokerRegistrationException.
    fn register_broker(
        &mut self,
        broker_id: i32,
        incarnation_id: Uuid,
        port: u16,
        log_dirs: &[Uuid],
        previous_broker_epoch: i64,
        io: &mut RaftIo,
    ) -> ControllerResult {
        let next = self.offset_control.next_write_offset;
        let id = broker_id;
        let now = io.now_ms;
        let tracker = &self.heartbeats.tracker;
        let registered = self.state.cluster.register_broker(
            id,
            incarnation_id,
            port,
            log_dirs.to_vec(),
            previous_broker_epoch,
            next,
            |epoch| tracker.has_valid_session(BrokerIdAndEpoch { id, epoch }, now),
            |is_clean| self.handle_broker_shutdown(id, is_clean, io),
        );
        match registered {
            Ok((records, record, line)) => {
                self.log(io, Level::Info, CLUSTER_CONTROL_LOGGER, line);
                let same_incarnation = self
                    .state
                    .cluster
                    .brokers
                    .get(&broker_id)
                    .is_some_and(|b| b.record.incarnation_id == incarnation_id);
                if !same_incarnation {
                    // The old incarnation's session entry stays in the tracker until
                    // it expires ("Removing heartbeat tracker entry ... previous epoch").
                    self.heartbeats.remove(id);
                }
                self.heartbeats.register(id, record.fenced);
                // Clean-up records may be many: not atomic, the RegisterBrokerRecord
                // last so that a new controller redoes the clean-up on re-registration.
                ControllerResult {
                    response: Some(ControllerResponse::BrokerRegistration {
                        error: None,
                        broker_epoch: record.broker_epoch,
                    }),
                    records,
                    is_atomic: false,
                }
            }
            Err((e, message)) => {
                let info =
                    EventHandlerExceptionInfo::api("DuplicateBrokerRegistrationException", message);
                self.log_event_failure(io, "registerBroker", now, &info);
                ControllerResult {
                    records: Vec::new(),
                    response: Some(ControllerResponse::BrokerRegistration {
                        error: Some(e),
                        broker_epoch: -1,
                    }),
                    is_atomic: true,
                }
            }
        }
    }

    /// `alterPartition` (ReplicationControlManager), with AlterPartitionRequest's fields: the
    /// leader's new ISR, checked against the broker epoch, the partition's leader, leader
    /// epoch and partition epoch and the eligible replicas, then built by the
    /// PartitionChangeBuilder.
    #[allow(clippy::too_many_arguments)]
    fn alter_partition(
        &mut self,
        broker_id: i32,
        broker_epoch: i64,
        topic_id: Uuid,
        partition_id: i32,
        leader_epoch: i32,
        partition_epoch: i32,
        new_isr: &[i32],
        io: &mut RaftIo,
    ) -> ControllerResult {
        let err = |e| ControllerResult {
            records: Vec::new(),
            response: Some(ControllerResponse::AlterPartition {
                error: Some(e),
                state: None,
            }),
            is_atomic: true,
        };
        let registered = self
            .state
            .cluster
            .brokers
            .get(&broker_id)
            .is_some_and(|b| b.record.broker_epoch == broker_epoch);
        let part = self
            .state
            .replication
            .topics
            .get(&topic_id)
            .and_then(|t| t.parts.get(&partition_id))
            .cloned();
        let usable = self.state.cluster.active_brokers();
        match part {
            _ if !registered => err(ApiError::StaleBrokerEpoch),
            None => err(ApiError::UnknownTopicOrPartition),
            Some(p) if p.leader != broker_id => err(ApiError::NotLeaderOrFollower),
            Some(p) if p.leader_epoch != leader_epoch => err(ApiError::FencedLeaderEpoch),
            Some(p) if p.partition_epoch != partition_epoch => err(ApiError::InvalidUpdateVersion),
            Some(_) if new_isr.iter().any(|r| !usable.contains(r)) => {
                err(ApiError::IneligibleReplica)
            }
            Some(p) => {
                // The PartitionChangeBuilder with the requested ISR: a shrink below
                // min ISR moves the dropped members into the ELR, a grow clears it.
                let topic = self
                    .state
                    .replication
                    .topics
                    .get(&topic_id)
                    .map(|t| t.name.clone())
                    .unwrap_or_default();
                let acceptable = |r: i32| self.is_active_broker(r);
                let min_isr = self.effective_min_isr(&topic, p.replicas.len());
                let (record, lines) =
                    PartitionChangeBuilder::new(&p, &acceptable, min_isr, self.elr_enabled())
                        .set_target_isr(new_isr.to_vec())
                        .build();
                self.log_builder_lines(io, lines);
                // The response carries the partition as the change leaves it.
                let state = AlterPartitionState {
                    topic_id,
                    partition_id,
                    leader_epoch: match &record {
                        Some(r) if r.leader != crate::metadata::NO_LEADER_CHANGE => {
                            p.leader_epoch + 1
                        }
                        _ => p.leader_epoch,
                    },
                    isr: record
                        .as_ref()
                        .and_then(|r| r.isr.clone())
                        .unwrap_or_else(|| p.isr.clone()),
                    partition_epoch: p.partition_epoch + i32::from(record.is_some()),
                };
                ControllerResult {
                    records: record
                        .map(MetadataRecord::PartitionChange)
                        .into_iter()
                        .collect(),
                    response: Some(ControllerResponse::AlterPartition {
                        error: None,
                        state: Some(state),
                    }),
                    is_atomic: true,
                }
            }
        }
    }

    /// `registerController`: the controller's RegisterControllerRecord (its CONTROLLER
    /// endpoint and supported features).
    fn register_controller(
        &self,
        controller_id: i32,
        incarnation_id: Uuid,
        port: u16,
    ) -> ControllerResult {
        ControllerResult {
            records: vec![MetadataRecord::RegisterController(
                RegisterControllerRecord {
                    controller_id,
                    incarnation_id,
                    zk_migration_ready: false,
                    end_points: vec![Endpoint {
                        name: "CONTROLLER".into(),
                        host: "localhost".into(),
                        port,
                        security_protocol: SECURITY_PROTOCOL_PLAINTEXT,
                    }],
                    features: supported_features(),
                },
            )],
            response: Some(ControllerResponse::ControllerRegistration { error: None }),
            is_atomic: true,
        }
    }

    /// `createTopics`: ReplicationControlManager's records and per-topic results over the
    /// usable brokers, then the "CreateTopics result(s)" line.
    fn create_topics(&self, topics: &[CreatableTopic], io: &mut RaftIo) -> ControllerResult {
        let brokers = self.state.cluster.usable_brokers(&self.heartbeats);
        let cluster = &self.state.cluster;
        let configs = &self.state.configs;
        let (records, results) = self.state.replication.create_topics(
            topics,
            &brokers,
            |r| self.is_active_broker(r),
            |r| cluster.default_dir(r),
            io.rng,
            |t| configs.validate_new_topic(&t.name, &t.configs),
        );
        let summary: Vec<String> = topics
            .iter()
            .zip(&results)
            .map(|(t, r)| match &r.error {
                None => format!("{}: SUCCESS", t.java_to_string()),
                Some((e, m)) => format!("{}: {} ({m})", t.java_to_string(), e.name()),
            })
            .collect();
        self.log(
            io,
            Level::Info,
            REPLICATION_CONTROL_LOGGER,
            format!("CreateTopics result(s): {}", summary.join(", ")),
        );
        ControllerResult {
            records,
            response: Some(ControllerResponse::CreateTopics {
                topics: results,
                error: None,
            }),
            is_atomic: true,
        }
    }

    /// `incrementalAlterConfigs`: ConfigurationControlManager's records and per-resource
    /// responses (none written when `validate_only`).
    fn incremental_alter_configs(
        &self,
        resources: &[AlterConfigsResource],
        validate_only: bool,
    ) -> ControllerResult {
        let topics = &self.state.replication.topics_by_name;
        let (records, responses) =
            self.state
                .configs
                .incremental_alter_configs(resources, validate_only, |name| {
                    topics.contains_key(name)
                });
        ControllerResult {
            records,
            response: Some(ControllerResponse::IncrementalAlterConfigs {
                responses,
                error: None,
            }),
            is_atomic: true,
        }
    }

    /// `deleteTopics`: a RemoveTopicRecord per existing topic, and the per-topic results.
    fn delete_topics(&self, names: &[String]) -> ControllerResult {
        let (records, results) = self.state.replication.delete_topics(names);
        ControllerResult {
            records,
            response: Some(ControllerResponse::DeleteTopics {
                topics: results,
                error: None,
            }),
            is_atomic: true,
        }
    }
}
