//! JSON, defaults and value sizes of every record, checked against the article's and the fact
//! sheet's real kafka-dump-log output.

use super::*;
use crate::common::uuid::Uuid;

/// Parses Kafka's 22-character URL-safe base64 uuid text (the inverse of `Uuid`'s Display).
fn uuid(text: &str) -> Uuid {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let sextets: Vec<u32> = text
        .bytes()
        .map(|c| ALPHABET.iter().position(|&a| a == c).expect("base64 char") as u32)
        .collect();
    assert_eq!(sextets.len(), 22, "{text}");
    let mut bytes = [0u8; 16];
    for (group, chunk) in sextets[..20].chunks(4).enumerate() {
        let n = chunk[0] << 18 | chunk[1] << 12 | chunk[2] << 6 | chunk[3];
        bytes[group * 3] = (n >> 16) as u8;
        bytes[group * 3 + 1] = (n >> 8) as u8;
        bytes[group * 3 + 2] = n as u8;
    }
    bytes[15] = (sextets[20] << 2 | sextets[21] >> 4) as u8;
    let id = Uuid(bytes);
    assert_eq!(id.to_string(), text, "round trip");
    id
}

const ORDERS_ID: &str = "oerNM_RtQJiR5zDk9XwK7w";
const DIR_ID: &str = "5H7XVkyAS9mZZQhe8CMRaw";
const FENCE_TOPIC_ID: &str = "1YXyxrGoS_uwbCoz0XEUeA";

fn orders_partition(partition_id: i32) -> PartitionRecord {
    PartitionRecord {
        partition_id,
        topic_id: uuid(ORDERS_ID),
        replicas: vec![1],
        isr: vec![1],
        leader: 1,
        leader_epoch: 0,
        partition_epoch: 0,
        directories: vec![uuid(DIR_ID)],
        ..PartitionRecord::default()
    }
}

#[test]
fn noop_json_and_size() {
    let r = MetadataRecord::NoOp;
    assert_eq!(
        r.to_json(),
        r#"{"type":"NO_OP_RECORD","version":0,"data":{}}"#
    );
    assert_eq!(r.encode(), vec![1, 20, 0, 0]);
    assert_eq!(r.value_size(), 4);
    assert_eq!(MetadataRecord::from(NoOpRecord), MetadataRecord::NoOp);
}

#[test]
fn topic_record_matches_example_1() {
    let r = MetadataRecord::from(TopicRecord {
        name: "orders".into(),
        topic_id: uuid(ORDERS_ID),
    });
    assert_eq!(
        r.to_json(),
        r#"{"type":"TOPIC_RECORD","version":0,"data":{"name":"orders","topicId":"oerNM_RtQJiR5zDk9XwK7w"}}"#
    );
    // frame 1 + apiKey 1 + version 1, name (1 + 6), uuid 16, no tagged fields (1): 27, the
    // valueSize kafka-dump-log shows for this record.
    assert_eq!(r.value_size(), 27);
    let bytes = r.encode();
    assert_eq!(
        &bytes[..10],
        &[1, 2, 0, 7, b'o', b'r', b'd', b'e', b'r', b's']
    );
    assert_eq!(&bytes[10..26], &uuid(ORDERS_ID).0);
    assert_eq!(bytes[26], 0);
}

#[test]
fn partition_record_matches_example_1() {
    let r = MetadataRecord::from(orders_partition(0));
    let json = r.to_json();
    // The article cut the line after the directory id's first characters.
    assert!(json.starts_with(
        r#"{"type":"PARTITION_RECORD","version":2,"data":{"partitionId":0,"topicId":"oerNM_RtQJiR5zDk9XwK7w","replicas":[1],"isr":[1],"#
    ));
    assert_eq!(
        json,
        r#"{"type":"PARTITION_RECORD","version":2,"data":{"partitionId":0,"topicId":"oerNM_RtQJiR5zDk9XwK7w","replicas":[1],"isr":[1],"removingReplicas":[],"addingReplicas":[],"leader":1,"leaderEpoch":0,"partitionEpoch":0,"directories":["5H7XVkyAS9mZZQhe8CMRaw"]}}"#
    );
    assert!(json.contains(r#","directories":["5H7XVkyAS9mZZ"#));
}

#[test]
fn partition_record_rf3_matches_fact_sheet_shape() {
    let dirs = vec![Uuid([1; 16]), Uuid([2; 16]), Uuid([3; 16])];
    let rec = PartitionRecord {
        partition_id: 0,
        topic_id: Uuid([9; 16]),
        replicas: vec![1, 2, 3],
        isr: vec![1, 2, 3],
        leader: 1,
        leader_epoch: 0,
        partition_epoch: 0,
        directories: dirs.clone(),
        ..PartitionRecord::default()
    };
    let r = MetadataRecord::Partition(rec.clone());
    assert_eq!(
        r.data_json(),
        format!(
            r#"{{"partitionId":0,"topicId":"{}","replicas":[1,2,3],"isr":[1,2,3],"removingReplicas":[],"addingReplicas":[],"leader":1,"leaderEpoch":0,"partitionEpoch":0,"directories":["{}","{}","{}"]}}"#,
            Uuid([9; 16]),
            dirs[0],
            dirs[1],
            dirs[2]
        )
    );
    // 3 frame + 4 partitionId + 16 topicId + 13 replicas + 13 isr + 1 removing + 1 adding
    // + 4 leader + 4 leaderEpoch + 4 partitionEpoch + 49 directories + 1 tagged count.
    assert_eq!(r.value_size(), 113);
    assert_eq!(
        rec.partition_registration_text(),
        format!(
            "PartitionRegistration(replicas=[1, 2, 3], directories=[{}, {}, {}], isr=[1, 2, 3], \
             removingReplicas=[], addingReplicas=[], elr=[], lastKnownElr=[], leader=1, \
             leaderRecoveryState=RECOVERED, leaderEpoch=0, partitionEpoch=0)",
            dirs[0], dirs[1], dirs[2]
        )
    );
}

#[test]
fn partition_record_tagged_fields_print_only_when_set() {
    let mut rec = orders_partition(0);
    rec.leader_recovery_state = LEADER_RECOVERY_RECOVERING;
    rec.eligible_leader_replicas = Some(vec![2]);
    rec.last_known_elr = Some(vec![]);
    let base = MetadataRecord::from(orders_partition(0)).value_size();
    let r = MetadataRecord::from(rec);
    assert_eq!(
        r.data_json(),
        r#"{"partitionId":0,"topicId":"oerNM_RtQJiR5zDk9XwK7w","replicas":[1],"isr":[1],"removingReplicas":[],"addingReplicas":[],"leader":1,"leaderRecoveryState":1,"leaderEpoch":0,"partitionEpoch":0,"directories":["5H7XVkyAS9mZZQhe8CMRaw"],"eligibleLeaderReplicas":[2],"lastKnownElr":[]}"#
    );
    // Three tagged fields: tag+size+1 byte, tag+size+(1+4), tag+size+1.
    assert_eq!(r.value_size(), base + 3 + 7 + 3);
}

#[test]
fn partition_registration_text_matches_metadata_shell() {
    // After broker 1's controlled shutdown (article, example 1, kafka-metadata-shell).
    let rec = PartitionRecord {
        isr: vec![],
        leader: NO_LEADER,
        eligible_leader_replicas: Some(vec![1]),
        last_known_elr: Some(vec![1]),
        ..orders_partition(0)
    };
    assert!(rec.partition_registration_text().starts_with(
        "PartitionRegistration(replicas=[1], directories=[5H7XVkyAS9mZZQhe8CMRaw], isr=[], removingReplicas=[], addingReplicas=[], elr=[1], lastKnownElr=[1], leader=-1, leaderRecoveryState=RECOVERED, leaderEpo"
    ));
}

#[test]
fn partition_change_records_match_example_4() {
    let shrink = MetadataRecord::from(PartitionChangeRecord {
        partition_id: 0,
        topic_id: uuid(FENCE_TOPIC_ID),
        isr: Some(vec![1, 2]),
        ..PartitionChangeRecord::default()
    });
    assert_eq!(
        shrink.to_json(),
        r#"{"type":"PARTITION_CHANGE_RECORD","version":2,"data":{"partitionId":0,"topicId":"1YXyxrGoS_uwbCoz0XEUeA","isr":[1,2]}}"#
    );
    // 3 frame + 4 + 16, tagged: count 1, tag 1, size 1, isr (1 + 8).
    assert_eq!(shrink.value_size(), 35);
    let expand = MetadataRecord::from(PartitionChangeRecord {
        partition_id: 0,
        topic_id: uuid(FENCE_TOPIC_ID),
        isr: Some(vec![1, 2, 3]),
        ..PartitionChangeRecord::default()
    });
    assert_eq!(
        expand.to_json(),
        r#"{"type":"PARTITION_CHANGE_RECORD","version":2,"data":{"partitionId":0,"topicId":"1YXyxrGoS_uwbCoz0XEUeA","isr":[1,2,3]}}"#
    );
    // When the fenced broker was the leader, the same record also carried the new leader.
    let moved = MetadataRecord::from(PartitionChangeRecord {
        partition_id: 0,
        topic_id: uuid(FENCE_TOPIC_ID),
        isr: Some(vec![1, 2]),
        leader: 1,
        ..PartitionChangeRecord::default()
    });
    assert_eq!(
        moved.data_json(),
        r#"{"partitionId":0,"topicId":"1YXyxrGoS_uwbCoz0XEUeA","isr":[1,2],"leader":1}"#
    );
    assert_eq!(moved.value_size(), 35 + 6);
}

#[test]
fn partition_change_defaults_are_omitted_and_every_tag_prints() {
    let empty = MetadataRecord::from(PartitionChangeRecord {
        partition_id: 4,
        topic_id: Uuid::ZERO,
        ..PartitionChangeRecord::default()
    });
    assert_eq!(
        empty.data_json(),
        r#"{"partitionId":4,"topicId":"AAAAAAAAAAAAAAAAAAAAAA"}"#
    );
    assert_eq!(empty.value_size(), 3 + 4 + 16 + 1);
    let all = MetadataRecord::from(PartitionChangeRecord {
        partition_id: 0,
        topic_id: Uuid::ZERO,
        isr: Some(vec![1]),
        leader: NO_LEADER,
        replicas: Some(vec![1, 2]),
        removing_replicas: Some(vec![2]),
        adding_replicas: Some(vec![]),
        leader_recovery_state: LEADER_RECOVERY_RECOVERED,
        eligible_leader_replicas: Some(vec![3]),
        last_known_elr: Some(vec![]),
        directories: Some(vec![Uuid::ZERO, Uuid::ZERO]),
    });
    assert_eq!(
        all.data_json(),
        r#"{"partitionId":0,"topicId":"AAAAAAAAAAAAAAAAAAAAAA","isr":[1],"leader":-1,"replicas":[1,2],"removingReplicas":[2],"addingReplicas":[],"leaderRecoveryState":0,"directories":["AAAAAAAAAAAAAAAAAAAAAA","AAAAAAAAAAAAAAAAAAAAAA"],"eligibleLeaderReplicas":[3],"lastKnownElr":[]}"#
    );
    // Tagged payloads 5, 4, 9, 5, 1, 1, 5, 1, 33 bytes, each with 1-byte tag and size.
    assert_eq!(
        all.value_size(),
        3 + 20 + 1 + (5 + 4 + 9 + 5 + 1 + 1 + 5 + 1 + 33) + 9 * 2
    );
    let bytes = all.encode();
    // Tags are written in order: the first tagged field after the count is tag 0 (isr).
    assert_eq!(&bytes[23..27], &[9, 0, 5, 2]);
}

#[test]
fn broker_registration_change_matches_example_4() {
    let fence = MetadataRecord::from(BrokerRegistrationChangeRecord {
        broker_id: 3,
        broker_epoch: 57,
        fenced: FENCING_FENCE,
        ..Default::default()
    });
    assert_eq!(
        fence.to_json(),
        r#"{"type":"BROKER_REGISTRATION_CHANGE_RECORD","version":0,"data":{"brokerId":3,"brokerEpoch":57,"fenced":1}}"#
    );
    assert_eq!(
        fence.encode(),
        vec![1, 17, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 57, 1, 0, 1, 1]
    );
    assert_eq!(fence.value_size(), 19);
    let unfence = MetadataRecord::from(BrokerRegistrationChangeRecord {
        broker_id: 3,
        broker_epoch: 57,
        fenced: FENCING_UNFENCE,
        ..Default::default()
    });
    assert_eq!(
        unfence.to_json(),
        r#"{"type":"BROKER_REGISTRATION_CHANGE_RECORD","version":0,"data":{"brokerId":3,"brokerEpoch":57,"fenced":-1}}"#
    );
    assert_eq!(unfence.encode()[18], 0xff);
    // The fact sheet's example.
    let facts = MetadataRecord::from(BrokerRegistrationChangeRecord {
        broker_id: 1,
        broker_epoch: 5,
        fenced: FENCING_UNFENCE,
        ..Default::default()
    });
    assert_eq!(
        facts.to_json(),
        r#"{"type":"BROKER_REGISTRATION_CHANGE_RECORD","version":0,"data":{"brokerId":1,"brokerEpoch":5,"fenced":-1}}"#
    );
}

#[test]
fn broker_registration_change_version_follows_content() {
    let shutdown = BrokerRegistrationChangeRecord {
        broker_id: 2,
        broker_epoch: 10,
        in_controlled_shutdown: IN_CONTROLLED_SHUTDOWN,
        ..Default::default()
    };
    assert_eq!(shutdown.version(), 1);
    let r = MetadataRecord::from(shutdown);
    assert_eq!(
        r.to_json(),
        r#"{"type":"BROKER_REGISTRATION_CHANGE_RECORD","version":1,"data":{"brokerId":2,"brokerEpoch":10,"inControlledShutdown":1}}"#
    );
    assert_eq!(r.value_size(), 19);
    let dirs = BrokerRegistrationChangeRecord {
        broker_id: 2,
        broker_epoch: 10,
        log_dirs: vec![Uuid::ZERO],
        ..Default::default()
    };
    assert_eq!(dirs.version(), 2);
    let cordoned = BrokerRegistrationChangeRecord {
        cordoned_log_dirs: Some(vec![Uuid::ZERO]),
        ..dirs.clone()
    };
    assert_eq!(cordoned.version(), 3);
    assert_eq!(
        MetadataRecord::from(cordoned).data_json(),
        r#"{"brokerId":2,"brokerEpoch":10,"logDirs":["AAAAAAAAAAAAAAAAAAAAAA"],"cordonedLogDirs":["AAAAAAAAAAAAAAAAAAAAAA"]}"#
    );
    // handleDirectoriesCordoned with nothing cordoned: v3 with an empty list (not null).
    let none_cordoned = MetadataRecord::from(BrokerRegistrationChangeRecord {
        broker_id: 1,
        broker_epoch: 7,
        cordoned_log_dirs: Some(Vec::new()),
        ..Default::default()
    });
    assert_eq!(
        none_cordoned.to_json(),
        r#"{"type":"BROKER_REGISTRATION_CHANGE_RECORD","version":3,"data":{"brokerId":1,"brokerEpoch":7,"cordonedLogDirs":[]}}"#
    );
    // 3 frame + 4 + 8 + tagged: 1 count + (1 tag + 1 size + 1 empty array).
    assert_eq!(none_cordoned.value_size(), 3 + 4 + 8 + 1 + 3);
    let none = MetadataRecord::from(BrokerRegistrationChangeRecord::default());
    assert_eq!(none.data_json(), r#"{"brokerId":0,"brokerEpoch":0}"#);
    assert_eq!(none.value_size(), 3 + 4 + 8 + 1);
}

#[test]
fn register_broker_record_json_and_size() {
    let incarnation = Uuid([7; 16]);
    let dir = uuid(DIR_ID);
    let rec = RegisterBrokerRecord {
        broker_id: 1,
        incarnation_id: incarnation,
        broker_epoch: 9,
        end_points: vec![Endpoint {
            name: "PLAINTEXT".into(),
            host: "localhost".into(),
            port: 9092,
            security_protocol: SECURITY_PROTOCOL_PLAINTEXT,
        }],
        features: vec![FeatureRange {
            name: "metadata.version".into(),
            min_supported_version: 7,
            max_supported_version: 33,
        }],
        log_dirs: vec![dir],
        ..RegisterBrokerRecord::default()
    };
    assert!(rec.fenced);
    let r = MetadataRecord::from(rec);
    assert_eq!(
        r.to_json(),
        format!(
            r#"{{"type":"REGISTER_BROKER_RECORD","version":4,"data":{{"brokerId":1,"isMigratingZkBroker":false,"incarnationId":"{incarnation}","brokerEpoch":9,"endPoints":[{{"name":"PLAINTEXT","host":"localhost","port":9092,"securityProtocol":0}}],"features":[{{"name":"metadata.version","minSupportedVersion":7,"maxSupportedVersion":33}}],"rack":null,"fenced":true,"inControlledShutdown":false,"logDirs":["5H7XVkyAS9mZZQhe8CMRaw"]}}}}"#
        )
    );
    // 3 frame + 4 brokerId + 1 zk + 16 incarnation + 8 epoch
    // + endpoints: 1 + (10 "PLAINTEXT" + 10 "localhost" + 2 + 2 + 1)
    // + features: 1 + (17 "metadata.version" + 2 + 2 + 1) + 1 rack null + 1 fenced + 1 ics
    // + tagged: 1 count + (1 tag + 1 size + 17 logDirs).
    assert_eq!(
        r.value_size(),
        3 + 4 + 1 + 16 + 8 + (1 + 25) + (1 + 22) + 1 + 1 + 1 + (1 + 19)
    );
    let no_dirs = MetadataRecord::from(RegisterBrokerRecord {
        rack: Some("r1".into()),
        ..RegisterBrokerRecord::default()
    });
    assert!(no_dirs
        .data_json()
        .ends_with(r#""rack":"r1","fenced":true,"inControlledShutdown":false}"#));
    // CordonedLogDirs is nullable (default null): written only when not null, even if empty.
    let cordoned = MetadataRecord::from(RegisterBrokerRecord {
        cordoned_log_dirs: Some(Vec::new()),
        ..RegisterBrokerRecord::default()
    });
    assert!(cordoned
        .data_json()
        .ends_with(r#""inControlledShutdown":false,"cordonedLogDirs":[]}"#));
}

#[test]
fn register_controller_record_json() {
    let r = MetadataRecord::from(RegisterControllerRecord {
        controller_id: 1,
        incarnation_id: Uuid::ZERO,
        zk_migration_ready: false,
        end_points: vec![Endpoint {
            name: "CONTROLLER".into(),
            host: "localhost".into(),
            port: 9093,
            security_protocol: SECURITY_PROTOCOL_PLAINTEXT,
        }],
        features: vec![
            FeatureRange {
                name: "kraft.version".into(),
                min_supported_version: 0,
                max_supported_version: 1,
            },
            FeatureRange {
                name: "metadata.version".into(),
                min_supported_version: 7,
                max_supported_version: 33,
            },
        ],
    });
    assert_eq!(
        r.to_json(),
        r#"{"type":"REGISTER_CONTROLLER_RECORD","version":0,"data":{"controllerId":1,"incarnationId":"AAAAAAAAAAAAAAAAAAAAAA","zkMigrationReady":false,"endPoints":[{"name":"CONTROLLER","host":"localhost","port":9093,"securityProtocol":0}],"features":[{"name":"kraft.version","minSupportedVersion":0,"maxSupportedVersion":1},{"name":"metadata.version","minSupportedVersion":7,"maxSupportedVersion":33}]}}"#
    );
    assert_eq!(r.api_key(), 27);
    // 3 + 4 + 16 + 1 + endpoints (1 + 11 + 10 + 2 + 2 + 1)
    // + features (1 + (14 + 4 + 1) + (17 + 4 + 1)) + 1 tagged.
    assert_eq!(r.value_size(), 3 + 4 + 16 + 1 + 27 + 42 + 1);
}

#[test]
fn feature_level_record_json_and_size() {
    let r = MetadataRecord::from(FeatureLevelRecord {
        name: "metadata.version".into(),
        feature_level: 33,
    });
    assert_eq!(
        r.to_json(),
        r#"{"type":"FEATURE_LEVEL_RECORD","version":0,"data":{"name":"metadata.version","featureLevel":33}}"#
    );
    assert_eq!(r.value_size(), 3 + 17 + 2 + 1);
}

#[test]
fn config_record_json_and_size() {
    let r = MetadataRecord::from(ConfigRecord {
        resource_type: RESOURCE_TYPE_BROKER,
        resource_name: String::new(),
        name: "min.insync.replicas".into(),
        value: Some("1".into()),
    });
    assert_eq!(
        r.to_json(),
        r#"{"type":"CONFIG_RECORD","version":0,"data":{"resourceType":4,"resourceName":"","name":"min.insync.replicas","value":"1"}}"#
    );
    assert_eq!(r.value_size(), 3 + 1 + 1 + 20 + 2 + 1);
    let delete = ConfigRecord {
        resource_type: RESOURCE_TYPE_TOPIC,
        resource_name: "orders".into(),
        name: "retention.ms".into(),
        value: None,
    };
    assert_eq!(delete.resource_type_name(), "TOPIC");
    assert_eq!(
        MetadataRecord::from(delete).data_json(),
        r#"{"resourceType":2,"resourceName":"orders","name":"retention.ms","value":null}"#
    );
}

#[test]
fn transaction_records_json_and_size() {
    let begin = MetadataRecord::from(BeginTransactionRecord {
        name: Some("Bootstrap records".into()),
    });
    assert_eq!(
        begin.to_json(),
        r#"{"type":"BEGIN_TRANSACTION_RECORD","version":0,"data":{"name":"Bootstrap records"}}"#
    );
    // 3 frame, tagged: count, tag 0, size 18, then 1 + 17 bytes of string.
    assert_eq!(begin.value_size(), 3 + 1 + 1 + 1 + 18);
    let unnamed = MetadataRecord::from(BeginTransactionRecord::default());
    assert_eq!(
        unnamed.to_json(),
        r#"{"type":"BEGIN_TRANSACTION_RECORD","version":0,"data":{}}"#
    );
    assert_eq!(unnamed.value_size(), 4);
    let end = MetadataRecord::from(EndTransactionRecord);
    assert_eq!(
        end.to_json(),
        r#"{"type":"END_TRANSACTION_RECORD","version":0,"data":{}}"#
    );
    assert_eq!(end.encode(), vec![1, 24, 0, 0]);
}

#[test]
fn remove_topic_record_json_and_size() {
    let r = MetadataRecord::from(RemoveTopicRecord {
        topic_id: uuid(ORDERS_ID),
    });
    assert_eq!(
        r.to_json(),
        r#"{"type":"REMOVE_TOPIC_RECORD","version":0,"data":{"topicId":"oerNM_RtQJiR5zDk9XwK7w"}}"#
    );
    assert_eq!(r.value_size(), 3 + 16 + 1);
}

#[test]
fn names_keys_and_versions() {
    let all: Vec<MetadataRecord> = vec![
        RegisterBrokerRecord::default().into(),
        TopicRecord::default().into(),
        PartitionRecord::default().into(),
        ConfigRecord::default().into(),
        PartitionChangeRecord::default().into(),
        RemoveTopicRecord::default().into(),
        FeatureLevelRecord::default().into(),
        BrokerRegistrationChangeRecord::default().into(),
        MetadataRecord::NoOp,
        BeginTransactionRecord::default().into(),
        EndTransactionRecord.into(),
        RegisterControllerRecord::default().into(),
    ];
    let keys: Vec<u16> = all.iter().map(|r| r.api_key()).collect();
    assert_eq!(keys, vec![0, 2, 3, 4, 5, 9, 12, 17, 20, 23, 24, 27]);
    let versions: Vec<u16> = all.iter().map(|r| r.version()).collect();
    assert_eq!(versions, vec![4, 0, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0]);
    for r in &all {
        // UPPER_SNAKE of the record name.
        let mut snake = String::new();
        for (i, c) in r.record_name().chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                snake.push('_');
            }
            snake.push(c.to_ascii_uppercase());
        }
        assert_eq!(r.type_name(), snake);
        // The header is always frame 1, apiKey, version, and value_size is the encoding's size.
        let bytes = r.encode();
        assert_eq!(bytes[0], 1);
        assert_eq!(bytes[1] as u16, r.api_key());
        assert_eq!(bytes[2] as u16, r.version());
        assert_eq!(r.value_size(), bytes.len());
    }
}

#[test]
fn long_arrays_use_multi_byte_varints() {
    let replicas: Vec<i32> = (0..200).collect();
    let r = MetadataRecord::from(PartitionChangeRecord {
        partition_id: 0,
        topic_id: Uuid::ZERO,
        replicas: Some(replicas),
        ..PartitionChangeRecord::default()
    });
    // Tagged replicas: tag 1 byte, size 803 needs 2 bytes, the array length 201 needs 2 bytes.
    assert_eq!(r.value_size(), 3 + 20 + 1 + 1 + 2 + 2 + 800);
}
