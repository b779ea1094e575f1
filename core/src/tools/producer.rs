//! A model of KafkaProducer (clients/.../producer/KafkaProducer.java at apache/kafka 1eb7644)
//! for the console producer and the perf test: `waitOnMetadata` (KafkaProducer.java:1140-1205)
//! against the bootstrap brokers, the record size check (ensureValidRecordSize, :1215), the
//! default partitioner (murmur2 of the key, else one sticky partition per batch:
//! BuiltInPartitioner.java), and the Sender's produce with retries on retriable errors, a
//! metadata refresh and `retry.backoff.ms`, within `request.timeout.ms` per try and
//! `delivery.timeout.ms` in all.

use super::client::{self, CallError};
use super::producer_config::ProducerConfig;
use crate::broker::messages::{DataRequest, DataResponse, MetadataResponse, ProduceRequest};
use crate::common::protocol::Errors;
use crate::raft::batch::{DataRecord, ProducerStamp, Record, RecordBatch};
use crate::sim::World;
use std::collections::BTreeMap;
use std::sync::Arc;

/// `RecordBatch` v2's header size (DefaultRecordBatch.RECORD_BATCH_OVERHEAD).
const RECORD_BATCH_OVERHEAD: usize = 61;
/// DefaultRecord.MAX_RECORD_OVERHEAD.
const MAX_RECORD_OVERHEAD: usize = 21;

/// The batch's producer fields. Always [`ProducerStamp::NONE`] for now: the idempotent
/// producer (InitProducerId, producer ids, epochs and sequence numbers) comes later, so
/// batches are written as a non-idempotent producer writes them.
pub fn producer_stamp() -> ProducerStamp {
    ProducerStamp::NONE
}

/// Bytes of an unsigned varint of zig-zag `v` (ByteUtils.sizeOfVarint).
fn varint_size(v: i32) -> usize {
    let mut z = ((v << 1) ^ (v >> 31)) as u32;
    let mut n = 1;
    while z >= 0x80 {
        z >>= 7;
        n += 1;
    }
    n
}

/// AbstractRecords.estimateSizeInBytesUpperBound for magic v2 without headers
/// (DefaultRecordBatch.estimateBatchSizeUpperBound, DefaultRecord.recordSizeUpperBound):
/// what `max.request.size` is checked against.
pub fn serialized_size(record: &DataRecord) -> usize {
    let field = |b: Option<&str>| match b {
        None => varint_size(-1),
        Some(s) => varint_size(s.len() as i32) + s.len(),
    };
    RECORD_BATCH_OVERHEAD
        + MAX_RECORD_OVERHEAD
        + field(record.key.as_deref())
        + field(Some(&record.value))
        + varint_size(0)
}

/// KafkaProducer.ensureValidRecordSize (KafkaProducer.java:1215): a record over
/// max.request.size fails before it is sent, with RecordTooLargeException.
pub fn check_size(producer: &Producer, record: &DataRecord) -> Result<(), String> {
    let size = serialized_size(record);
    let max = producer.config.max_request_size;
    if size > max {
        return Err(format!("org.apache.kafka.common.errors.RecordTooLargeException: The message is {size} bytes when serialized which is larger than {max}, which is the value of the max.request.size configuration."));
    }
    Ok(())
}

/// Utils.murmur2: the 32-bit murmur2 hash Kafka's partitioner applies to a key.
pub fn murmur2(data: &[u8]) -> i32 {
    const M: u32 = 0x5bd1_e995;
    let mut h: u32 = 0x9747_b28c ^ data.len() as u32;
    let chunks = data.chunks_exact(4);
    let tail = chunks.remainder();
    for c in chunks {
        let mut k = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        k = k.wrapping_mul(M);
        k ^= k >> 24;
        k = k.wrapping_mul(M);
        h = h.wrapping_mul(M);
        h ^= k;
    }
    if tail.len() >= 3 {
        h ^= u32::from(tail[2]) << 16;
    }
    if tail.len() >= 2 {
        h ^= u32::from(tail[1]) << 8;
    }
    if !tail.is_empty() {
        h ^= u32::from(tail[0]);
        h = h.wrapping_mul(M);
    }
    h ^= h >> 13;
    h = h.wrapping_mul(M);
    h ^= h >> 15;
    h as i32
}

/// BuiltInPartitioner.partitionForKey: `toPositive(murmur2(key)) % numPartitions`.
pub fn partition_for_key(key: &str, partitions: i32) -> i32 {
    (murmur2(key.as_bytes()) & 0x7fff_ffff) % partitions.max(1)
}

/// Whether the Sender retries a batch that failed with `error` (a RetriableException).
fn retriable(error: Errors) -> bool {
    matches!(
        error,
        Errors::NotLeaderOrFollower
            | Errors::NotEnoughReplicas
            | Errors::NotEnoughReplicasAfterAppend
            | Errors::LeaderNotAvailable
            | Errors::UnknownTopicOrPartition
            | Errors::RequestTimedOut
            | Errors::FencedLeaderEpoch
            | Errors::UnknownLeaderEpoch
    )
}

/// A producer: its configuration, the brokers it bootstraps from, its metadata and its
/// sticky partitions.
pub struct Producer {
    /// The configuration.
    pub config: ProducerConfig,
    bootstrap: Vec<i32>,
    meta: Option<MetadataResponse>,
    sticky: BTreeMap<String, i32>,
}

/// How one produce try ended.
enum Try {
    Done(i64),
    Retry(String),
    Fail(String),
}

impl Producer {
    /// A producer with `config`, bootstrapping from the brokers its `bootstrap.servers` names.
    pub fn new(world: &World, config: ProducerConfig) -> Producer {
        let bootstrap = client::bootstrap_brokers(world, &config.bootstrap_servers);
        Producer {
            config,
            bootstrap,
            meta: None,
            sticky: BTreeMap::new(),
        }
    }

    /// Fetch metadata for `topic` once, from the brokers known so far.
    fn refresh(&mut self, world: &mut World, topic: &str, deadline_ms: u64) {
        let nodes = client::known_brokers(self.meta.as_ref(), &self.bootstrap);
        let timeout = self.config.request_timeout_ms;
        if let Some(m) = client::metadata(
            world,
            &nodes,
            Some(&[topic.to_string()]),
            timeout,
            deadline_ms,
        ) {
            self.meta = Some(m);
        }
    }

    /// The partition count of `topic` in the metadata, if it is known there.
    fn partition_count(&self, topic: &str) -> Option<i32> {
        let t = self
            .meta
            .as_ref()?
            .topics
            .iter()
            .find(|t| t.name == topic)?;
        (t.error == Errors::None && !t.partitions.is_empty()).then_some(t.partitions.len() as i32)
    }

    /// KafkaProducer.waitOnMetadata: the topic's partition count, waiting up to
    /// `max.block.ms`; else its TimeoutException (KafkaProducer.java:1182).
    pub fn wait_on_metadata(&mut self, world: &mut World, topic: &str) -> Result<i32, String> {
        let deadline = world.now_ms() + self.config.max_block_ms;
        loop {
            if let Some(n) = self.partition_count(topic) {
                return Ok(n);
            }
            if world.now_ms() >= deadline || world.tool_killed() {
                return Err(format!(
                    "org.apache.kafka.common.errors.TimeoutException: Topic {topic} not present in metadata after {} ms.",
                    self.config.max_block_ms
                ));
            }
            let had = self.meta.is_some();
            self.refresh(world, topic, deadline);
            if had && self.partition_count(topic).is_none() {
                let left = deadline.saturating_sub(world.now_ms());
                world.run_for(self.config.retry_backoff_ms.min(left));
            }
        }
    }

    /// The partition a record goes to: murmur2 of its key, else the topic's sticky partition
    /// (chosen at random, BuiltInPartitioner.nextPartition, until [`Producer::unstick`]).
    pub fn partition(
        &mut self,
        world: &mut World,
        topic: &str,
        key: Option<&str>,
        count: i32,
    ) -> i32 {
        if let Some(k) = key {
            return partition_for_key(k, count);
        }
        if let Some(p) = self.sticky.get(topic).filter(|p| **p < count) {
            return *p;
        }
        let p = world.client_random(count as u64) as i32;
        self.sticky.insert(topic.to_string(), p);
        p
    }

    /// A batch is full: the next null-key record of `topic` picks a new sticky partition.
    pub fn unstick(&mut self, topic: &str) {
        self.sticky.remove(topic);
    }

    /// The leader of `topic`-`partition` in the metadata and the topic's id.
    pub fn leader_of(
        &self,
        topic: &str,
        partition: i32,
    ) -> Option<(i32, crate::common::uuid::Uuid)> {
        let t = self
            .meta
            .as_ref()?
            .topics
            .iter()
            .find(|t| t.name == topic)?;
        let p = t.partitions.iter().find(|p| p.index == partition)?;
        (p.leader >= 0).then_some((p.leader, t.id))
    }
}

impl Producer {
    /// Send `records` as one batch to `topic`-`partition` as the Sender does, retrying
    /// retriable failures (with a metadata refresh and the backoff) up to `retries` times and
    /// within `delivery.timeout.ms` of `created_ms`. The base offset (-1 with acks=0, which
    /// waits for nothing), or the exception that failed the batch.
    pub fn send_batch(
        &mut self,
        world: &mut World,
        topic: &str,
        partition: i32,
        records: &[DataRecord],
        created_ms: u64,
    ) -> Result<i64, String> {
        let batch = RecordBatch::from_producer(
            records.iter().cloned().map(Record::Data).collect(),
            created_ms,
            producer_stamp(),
        );
        let delivery_deadline = created_ms + self.config.delivery_timeout_ms;
        let mut attempt = 0u32;
        loop {
            let error = match self.try_once(world, topic, partition, &batch) {
                Try::Done(offset) => return Ok(offset),
                Try::Fail(e) => return Err(e),
                Try::Retry(e) => e,
            };
            attempt += 1;
            let backoff = self.config.backoff_ms(attempt);
            if attempt > self.config.retries || world.tool_killed() {
                return Err(error);
            }
            if world.now_ms() + backoff >= delivery_deadline {
                world.run_for(delivery_deadline.saturating_sub(world.now_ms()));
                return Err(format!(
                    "org.apache.kafka.common.errors.TimeoutException: Expiring {} record(s) for {topic}-{partition}:{} ms has passed since batch creation",
                    records.len(),
                    world.now_ms().saturating_sub(created_ms)
                ));
            }
            world.run_for(backoff);
            self.refresh(world, topic, delivery_deadline);
        }
    }

    /// One Produce request to the partition's leader.
    fn try_once(
        &mut self,
        world: &mut World,
        topic: &str,
        partition: i32,
        batch: &Arc<RecordBatch>,
    ) -> Try {
        let Some((leader, id)) = self.leader_of(topic, partition) else {
            return Try::Retry(client::exception(Errors::LeaderNotAvailable, None));
        };
        let request = DataRequest::Produce(ProduceRequest {
            acks: self.config.acks,
            timeout_ms: self.config.request_timeout_ms,
            partition: (id, partition),
            topic: topic.to_string(),
            batch: batch.clone(),
        });
        if self.config.acks == 0 {
            // acks=0: the request is written to the socket and the record is done.
            return match world.client_send(leader, request) {
                Ok(_) => Try::Done(-1),
                Err(_) => Try::Retry(network_exception(leader, false)),
            };
        }
        match client::call(world, leader, request, self.config.request_timeout_ms) {
            Ok(DataResponse::Produce(r)) if r.error == Errors::None => Try::Done(r.base_offset),
            Ok(DataResponse::Produce(r)) => {
                let e = client::exception(r.error, r.error_message.as_deref());
                if retriable(r.error) {
                    Try::Retry(e)
                } else {
                    Try::Fail(e)
                }
            }
            Ok(_) => Try::Fail(client::exception(Errors::UnknownServerError, None)),
            Err(CallError::TimedOut) => Try::Retry(network_exception(leader, true)),
            Err(_) => Try::Retry(network_exception(leader, false)),
        }
    }
}

/// The NetworkException the Sender completes a batch with when its connection is cut
/// (Sender.handleProduceResponse): `Disconnected from node N[ due to timeout]`.
fn network_exception(node: i32, timed_out: bool) -> String {
    format!(
        "org.apache.kafka.common.errors.NetworkException: Disconnected from node {node}{}",
        if timed_out { " due to timeout" } else { "" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn murmur2_matches_kafka() {
        // UtilsTest.testMurmur2: "21" -> -973932308, "foobar" -> -790332482.
        assert_eq!(murmur2(b"21"), -973_932_308);
        assert_eq!(murmur2(b"foobar"), -790_332_482);
        assert_eq!(murmur2(b"a-little-bit-long-string"), -985_981_536);
    }

    #[test]
    fn record_sizes_as_the_producer_estimates_them() {
        let r = DataRecord {
            key: None,
            value: "v".into(),
        };
        assert_eq!(serialized_size(&r), 61 + 21 + 1 + 2 + 1);
    }
}
