//! A broker's answer to a client's Metadata request, from its MetadataImage (KRaftMetadataCache
//! at confluentinc/kafka 06d492d8): the unfenced brokers with their PLAINTEXT port, a random
//! alive broker as `controllerId` (in KRaft, admin requests go to a broker, which forwards
//! them to the active controller), and each asked topic's partitions with leader, epoch,
//! replicas and ISR. A topic the image does not hold is UNKNOWN_TOPIC_OR_PARTITION; a
//! partition without a leader is LEADER_NOT_AVAILABLE.

use super::messages::{
    MetadataBroker, MetadataPartition, MetadataRequest, MetadataResponse, MetadataTopic,
};
use crate::common::protocol::Errors;
use crate::common::rng::SimRng;
use crate::common::uuid::Uuid;
use crate::image::MetadataImage;

/// The MetadataResponse `image` gives to `r`.
pub fn metadata_response(
    image: &MetadataImage,
    r: &MetadataRequest,
    rng: &mut SimRng,
) -> MetadataResponse {
    let brokers: Vec<MetadataBroker> = image
        .cluster
        .brokers
        .iter()
        .filter(|(_, b)| !b.record.fenced)
        .filter_map(|(id, b)| {
            let port = b
                .record
                .end_points
                .iter()
                .find(|e| e.name == "PLAINTEXT")?
                .port;
            Some(MetadataBroker { node_id: *id, port })
        })
        .collect();
    let controller_id = if brokers.is_empty() {
        -1
    } else {
        brokers[rng.below(brokers.len() as u64) as usize].node_id
    };
    let names: Vec<String> = match &r.topics {
        Some(names) => names.clone(),
        None => image.topics.by_name.keys().cloned().collect(),
    };
    let topics = names
        .into_iter()
        .map(|name| {
            let Some(t) = image
                .topics
                .by_name
                .get(&name)
                .and_then(|id| image.topics.by_id.get(id))
            else {
                return MetadataTopic {
                    name,
                    id: Uuid::ZERO,
                    error: Errors::UnknownTopicOrPartition,
                    partitions: Vec::new(),
                };
            };
            MetadataTopic {
                name,
                id: t.id,
                error: Errors::None,
                partitions: t
                    .partitions
                    .values()
                    .map(|p| MetadataPartition {
                        index: p.partition_id,
                        error: if p.leader < 0 {
                            Errors::LeaderNotAvailable
                        } else {
                            Errors::None
                        },
                        leader: p.leader,
                        leader_epoch: p.leader_epoch,
                        replicas: p.replicas.clone(),
                        isr: p.isr.clone(),
                    })
                    .collect(),
            }
        })
        .collect();
    MetadataResponse {
        brokers,
        controller_id,
        topics,
    }
}
