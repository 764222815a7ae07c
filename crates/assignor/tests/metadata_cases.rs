//! Metadata Kafka's own tests never build: topics with 0 partitions, replicas on brokers without
//! `broker.rack` (`null`), and the empty rack name. Each case's `expected` is what Kafka's Java
//! assignors (trunk of 2024-10-25) return for the same input, called the way the group leader calls
//! them (`entry: "group"`: `assign(Cluster, GroupSubscription)`, each client's subscription as it
//! sends it) or directly (`entry: "subscriptions"`: `assign(partitionsPerTopic, subscriptions)`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;

use assignor::{assign, assign_subscriptions, leader, Group, Strategy};
use common::ModelledMember;
use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    name: String,
    entry: String,
    strategy: String,
    /// Topic name to partition count, in `partitionsPerTopic` order.
    topics: serde_json::Map<String, serde_json::Value>,
    #[serde(default)]
    partition_racks: BTreeMap<String, Vec<Vec<Option<String>>>>,
    members: Vec<ModelledMember>,
    expected: BTreeMap<String, Vec<(String, u32)>>,
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/metadata-cases.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn group(case: &Case) -> Group {
    common::group(&case.topics, &case.partition_racks, &case.members)
}

#[test]
fn zero_partition_topics_and_rackless_brokers_as_kafka_assigns_them() {
    let cases = cases();
    assert_eq!(cases.len(), 17);
    for case in &cases {
        let strategy: Strategy = case.strategy.parse().unwrap();
        let group = group(case);
        let assignment = match case.entry.as_str() {
            "group" => assign(strategy, &group),
            "subscriptions" => {
                let subscriptions: Vec<_> = group.members.iter().map(|m| leader::subscription(strategy, m)).collect();
                assign_subscriptions(strategy, &group.topics, &subscriptions)
            }
            other => panic!("{}: unknown entry {other}", case.name),
        }
        .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let got: BTreeMap<String, Vec<(String, u32)>> = assignment
            .members
            .iter()
            .map(|(m, list)| (m.clone(), list.iter().map(|tp| (tp.topic.to_string(), tp.partition)).collect()))
            .collect();
        assert_eq!(got, case.expected, "{}", case.name);
    }
}

/// A replica on a rack-less broker adds no rack: `[a, null]` is `[a]`, and `[null]` is no rack at
/// all, for every strategy (the way Kafka filters `Node.rack() == null`).
#[test]
fn a_rackless_replica_counts_as_no_rack() {
    for case in cases().iter().filter(|c| c.entry == "group" && !c.partition_racks.is_empty()) {
        let strategy: Strategy = case.strategy.parse().unwrap();
        let with_nulls = group(case);
        let mut without = with_nulls.clone();
        for topic in &mut without.topics {
            for replicas in &mut topic.replica_racks {
                replicas.retain(Option::is_some);
            }
        }
        assert_eq!(assign(strategy, &with_nulls), assign(strategy, &without), "{}", case.name);
    }
}
