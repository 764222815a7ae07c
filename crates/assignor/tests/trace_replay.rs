//! The trace invariant: replaying the ownership-changing steps a strategy records, from empty
//! lists, rebuilds exactly the lists it returns, order included. Checked on every Kafka case.

use std::collections::BTreeMap;

use assignor::trace::{replay, Step};
use assignor::{
    assign_subscriptions, assign_subscriptions_traced, Strategy, Subscription, Topic, TopicPartition, UserData,
};
use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    name: String,
    strategy: String,
    topics: serde_json::Map<String, serde_json::Value>,
    #[serde(default)]
    racks: BTreeMap<String, Vec<Vec<String>>>,
    members: Vec<CaseMember>,
}

#[derive(Deserialize)]
struct CaseMember {
    id: String,
    topics: Vec<String>,
    instance_id: Option<String>,
    rack: Option<String>,
    #[serde(default)]
    owned: Vec<(String, u32)>,
    generation: Option<i32>,
    user_data: Option<CaseUserData>,
}

#[derive(Deserialize)]
struct CaseUserData {
    owned: Option<Vec<(String, u32)>>,
    generation: Option<i32>,
}

fn tps(list: &[(String, u32)]) -> Vec<TopicPartition> {
    list.iter().map(|(t, p)| TopicPartition::new(t.as_str(), *p)).collect()
}

fn inputs(case: &Case) -> (Strategy, Vec<Topic>, Vec<Subscription>) {
    let strategy: Strategy = case.strategy.parse().unwrap_or_else(|e| panic!("{}: {e}", case.name));
    let topics = case
        .topics
        .iter()
        .map(|(name, count)| Topic {
            name: name.clone(),
            partitions: count.as_u64().unwrap_or_else(|| panic!("{name}: partition count")) as u32,
            replica_racks: case.racks.get(name).cloned().unwrap_or_default(),
        })
        .collect();
    let subscriptions = case
        .members
        .iter()
        .map(|m| Subscription {
            member_id: m.id.clone(),
            group_instance_id: m.instance_id.clone(),
            rack: m.rack.clone(),
            topics: m.topics.clone(),
            owned_partitions: tps(&m.owned),
            generation: m.generation.filter(|&g| g != -1),
            user_data: m.user_data.as_ref().map(|u| match &u.owned {
                Some(owned) => UserData::Sticky { partitions: tps(owned), generation: u.generation },
                None => UserData::Cooperative { generation: u.generation.unwrap_or(-1) },
            }),
        })
        .collect();
    (strategy, topics, subscriptions)
}

#[test]
fn replaying_the_trace_rebuilds_every_kafka_case() {
    let path = format!("{}/tests/data/kafka-cases.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases: Vec<Case> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut failures = Vec::new();
    for case in &cases {
        let (strategy, topics, subscriptions) = inputs(case);
        let mut steps: Vec<Step> = Vec::new();
        let traced = assign_subscriptions_traced(strategy, &topics, &subscriptions, &mut steps)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let plain =
            assign_subscriptions(strategy, &topics, &subscriptions).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(traced, plain, "{}: tracing changed the result", case.name);
        let members: Vec<String> = subscriptions.iter().map(|s| s.member_id.clone()).collect();
        let replayed = replay(&members, &steps);
        if replayed != traced.members {
            failures.push(format!("{}:\n  returned {:?}\n  replayed {:?}", case.name, traced.members, replayed));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} traces do not replay:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
