//! The seed examples (`tests/data/seed-examples.json`): modelled groups, members with what they
//! owned and the generation they received it in, run through [`assignor::assign`] (so through
//! the leader's view of each strategy), with the exact lists Kafka returns.

use std::collections::BTreeMap;

use assignor::{assign, Group, Member, Strategy, Topic, TopicPartition};
use serde::Deserialize;

#[derive(Deserialize)]
struct Example {
    name: String,
    source: String,
    strategy: String,
    /// Topic name to partition count, in key order.
    topics: serde_json::Map<String, serde_json::Value>,
    members: Vec<ExampleMember>,
    expected: BTreeMap<String, Vec<(String, u32)>>,
}

#[derive(Deserialize)]
struct ExampleMember {
    id: String,
    instance_id: Option<String>,
    rack: Option<String>,
    topics: Vec<String>,
    #[serde(default)]
    owned: Vec<(String, u32)>,
    generation: Option<i32>,
}

fn tps(list: &[(String, u32)]) -> Vec<TopicPartition> {
    list.iter().map(|(t, p)| TopicPartition::new(t.as_str(), *p)).collect()
}

fn group(example: &Example) -> Group {
    Group {
        topics: example
            .topics
            .iter()
            .map(|(name, count)| {
                Topic::new(name.as_str(), count.as_u64().unwrap_or_else(|| panic!("{name}: partition count")) as u32)
            })
            .collect(),
        members: example
            .members
            .iter()
            .map(|m| Member {
                id: m.id.clone(),
                instance_id: m.instance_id.clone(),
                rack: m.rack.clone(),
                topics: m.topics.clone(),
                owned: tps(&m.owned),
                generation: m.generation,
                eager: false,
            })
            .collect(),
    }
}

#[test]
fn every_seed_example_matches_exactly() {
    let path = format!("{}/tests/data/seed-examples.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let examples: Vec<Example> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(examples.len(), 20);
    let mut failures = Vec::new();
    for example in &examples {
        let strategy: Strategy = example.strategy.parse().unwrap_or_else(|e| panic!("{}: {e}", example.name));
        let expected: BTreeMap<String, Vec<TopicPartition>> =
            example.expected.iter().map(|(m, list)| (m.clone(), tps(list))).collect();
        match assign(strategy, &group(example)) {
            Err(e) => failures.push(format!("{} ({}): error {e}", example.name, example.source)),
            Ok(got) if got.members != expected => failures.push(format!(
                "{} ({}):\n  expected {:?}\n  got      {:?}",
                example.name, example.source, expected, got.members
            )),
            Ok(_) => {}
        }
    }
    assert!(failures.is_empty(), "{} of {} examples differ:\n{}", failures.len(), examples.len(), failures.join("\n"));
}
