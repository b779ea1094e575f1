//! The data-plane client tools against failures: the console producer retries a dead leader
//! with a metadata refresh until the new leader takes the write; it gives up after `retries`
//! with the last exception, logged by ErrorLoggingCallback; every written line is read back.

mod common;

/// Three controllers, brokers 1-3, topic `orders` (one partition, three replicas).
fn cluster(seed: u64) -> kraft_core::sim::World {
    let mut w = common::world(seed, &[101, 102, 103], &[1, 2, 3]);
    w.run_until(20_000, |w| {
        (1..=3).all(|b| w.active_registration(b).is_some_and(|r| !r.record.fenced))
    });
    common::tool(&mut w, "kafka-topics.sh --bootstrap-server localhost:9092 --create --topic orders --partitions 1 --replication-factor 3");
    w.run_for(2_000);
    w
}

fn leader(w: &kraft_core::sim::World) -> i32 {
    (1..=3)
        .find(|b| {
            w.node(*b)
                .and_then(|n| n.replicas.as_ref())
                .is_some_and(|r| r.partitions.values().any(|p| p.is_leader()))
        })
        .expect("a leader of orders-0")
}

#[test]
fn a_producer_with_retries_outlasts_a_dead_leader() {
    let mut w = cluster(7);
    let old = leader(&w);
    let bootstrap = (1..=3).find(|b| *b != old).unwrap();
    common::tool(&mut w, "echo a | kafka-console-producer.sh --bootstrap-server localhost:9092,localhost:9094,localhost:9096 --topic orders");
    w.kill(old).unwrap();
    let port = w.node(bootstrap).unwrap().broker_port;
    let out = common::tool(
        &mut w,
        &format!("echo b | kafka-console-producer.sh --bootstrap-server localhost:{port} --topic orders --producer-property retries=1000"),
    );
    assert_eq!(out, "", "no error: the write reached the new leader");
    assert_ne!(leader(&w), old);
    let read = common::tool(
        &mut w,
        &format!("kafka-console-consumer.sh --bootstrap-server localhost:{port} --topic orders --from-beginning --max-messages 2"),
    );
    assert_eq!(read, "a\nb\nProcessed a total of 2 messages\n");
}

#[test]
fn a_producer_gives_up_after_its_retries_with_the_last_exception() {
    let mut w = cluster(7);
    let old = leader(&w);
    w.kill(old).unwrap();
    let port = w
        .node((1..=3).find(|b| *b != old).unwrap())
        .unwrap()
        .broker_port;
    // The console producer's retries=3 and backoffs of 100, 200, 400 ms end before the
    // controller fences the dead leader (broker.session.timeout.ms 9 s).
    let out = common::tool(
        &mut w,
        &format!(
            "echo x | kafka-console-producer.sh --bootstrap-server localhost:{port} --topic orders"
        ),
    );
    assert!(out.contains("ERROR Error when sending message to topic orders with key: null, value: 1 bytes with error: (org.apache.kafka.clients.producer.internals.ErrorLoggingCallback)\norg.apache.kafka.common.errors.NetworkException: Disconnected from node"), "{out}");
}

#[test]
fn acks_zero_and_acks_one_write_without_waiting_for_the_isr() {
    let mut w = cluster(3);
    for acks in ["0", "1", "all", "-1"] {
        let out = common::tool(&mut w, &format!("echo {acks} | kafka-console-producer.sh --bootstrap-server localhost:9092 --topic orders --producer-property acks={acks}"));
        assert_eq!(out, "");
    }
    w.run_for(1_000);
    assert_eq!(
        common::tool(
            &mut w,
            "kafka-get-offsets.sh --bootstrap-server localhost:9092 --topic orders"
        ),
        "orders:0:4\n"
    );
}
