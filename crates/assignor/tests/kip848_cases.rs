//! Kafka's own unit tests of the server-side assignors (group-coordinator, Kafka 4.0 line), as data:
//! `tests/data/kip848-cases.json`. Each case keeps its upstream test name (`source`) and says which Java
//! containers the test builds (a `TreeMap` of members, `HashMap` or `LinkedHashMap` assignments), since
//! their iteration order decides ties.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use assignor::consumer_group::{
    target_assignment_with, ConsumerGroup, ConsumerMember, MapOrder, SpecOptions, SubscriptionType, TopicImage,
};
use assignor::TopicPartition;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    source: String,
    assignor: String,
    subscription_type: String,
    members_map: String,
    targets_map: String,
    topics: Vec<CaseTopic>,
    members: Vec<CaseMember>,
    expected: BTreeMap<String, Vec<(String, u32)>>,
    /// False where the case follows the coordinator rather than the test's hand-built spec (see notes).
    asserted: bool,
    #[serde(default)]
    #[allow(dead_code)]
    notes: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseTopic {
    name: String,
    id: String,
    partitions: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseMember {
    id: String,
    #[serde(default)]
    instance_id: Option<String>,
    topics: Vec<String>,
    #[serde(default)]
    target: Vec<(String, Vec<u32>)>,
}

fn load() -> Vec<Case> {
    let path = format!("{}/tests/data/kip848-cases.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn map_order(java_class: &str) -> MapOrder {
    match java_class {
        "HashMap" => MapOrder::Hash,
        "TreeMap" | "LinkedHashMap" => MapOrder::Listed,
        other => panic!("unknown map {other}"),
    }
}

fn check(case: &Case) {
    let topics: Vec<TopicImage> = case
        .topics
        .iter()
        .map(|t| TopicImage { name: t.name.clone(), id: t.id.parse().unwrap(), partitions: t.partitions })
        .collect();
    let id_of = |name: &str| topics.iter().find(|t| t.name == name).map(|t| t.id).unwrap();
    let members = case
        .members
        .iter()
        .map(|m| ConsumerMember {
            id: m.id.clone(),
            instance_id: m.instance_id.clone(),
            rack: None,
            topics: m.topics.clone(),
            target: m.target.iter().map(|(t, ps)| (id_of(t), ps.clone())).collect(),
        })
        .collect();
    let subscription_type = match case.subscription_type.as_str() {
        "homogeneous" => SubscriptionType::Homogeneous,
        "heterogeneous" => SubscriptionType::Heterogeneous,
        other => panic!("unknown subscription type {other}"),
    };
    let options = SpecOptions {
        members: map_order(&case.members_map),
        targets: map_order(&case.targets_map),
        subscription_type: Some(subscription_type),
    };
    let group = ConsumerGroup { topics, members };
    let target = target_assignment_with(case.assignor.parse().unwrap(), &group, &options)
        .unwrap_or_else(|e| panic!("{} ({}): {e}", case.name, case.source));
    let expected: BTreeMap<String, Vec<TopicPartition>> = case
        .expected
        .iter()
        .map(|(m, list)| (m.clone(), list.iter().map(|(t, p)| TopicPartition::new(t.as_str(), *p)).collect()))
        .collect();
    assert_eq!(target.members, expected, "{} ({})", case.name, case.source);
}

#[test]
fn every_kafka_case_gives_kafkas_answer() {
    let cases = load();
    assert_eq!(cases.len(), 31);
    for case in &cases {
        check(case);
    }
    assert_eq!(cases.iter().filter(|c| c.asserted).count(), 28);
}
