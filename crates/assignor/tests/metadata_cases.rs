//! Metadata Kafka's own tests never build: topics with 0 partitions, replicas on brokers without
//! `broker.rack` (`null`), and the empty rack name. Each case's `expected` is what Kafka's Java
//! assignors (trunk of 2024-10-25) return for the same input, called the way the group leader calls
//! them (`entry: "group"`: `assign(Cluster, GroupSubscription)`, each client's subscription as it
//! sends it) or directly (`entry: "subscriptions"`: `assign(partitionsPerTopic, subscriptions)`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use assignor::{assign, assign_subscriptions, leader, Group, Member, Strategy, Topic, TopicPartition};
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
    members: Vec<CaseMember>,
    expected: BTreeMap<String, Vec<(String, u32)>>,
}

#[derive(Deserialize)]
struct CaseMember {
    id: String,
    #[serde(default)]
    rack: Option<String>,
    topics: Vec<String>,
    #[serde(default)]
    owned: Vec<(String, u32)>,
    #[serde(default)]
    generation: Option<i32>,
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/metadata-cases.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn group(case: &Case) -> Group {
    let topics = case
        .topics
        .iter()
        .map(|(name, count)| Topic {
            name: name.clone(),
            partitions: count.as_u64().unwrap() as u32,
            replica_racks: case.partition_racks.get(name).cloned().unwrap_or_default(),
        })
        .collect();
    let members = case
        .members
        .iter()
        .map(|m| Member {
            id: m.id.clone(),
            rack: m.rack.clone(),
            topics: m.topics.clone(),
            owned: m.owned.iter().map(|(t, p)| TopicPartition::new(t.as_str(), *p)).collect(),
            generation: m.generation,
            ..Member::default()
        })
        .collect();
    Group { topics, members }
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
