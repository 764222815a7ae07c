//! The seed examples (`tests/data/seed-examples.json`): modelled groups, members with what they
//! owned and the generation they received it in, run through [`assignor::assign`] (so through
//! the leader's view of each strategy), with the exact lists Kafka returns.

mod common;

use std::collections::BTreeMap;

use assignor::{assign, Strategy, TopicPartition};
use common::{group, tps, ModelledMember};
use serde::Deserialize;

#[derive(Deserialize)]
struct Example {
    name: String,
    source: String,
    strategy: String,
    /// Topic name to partition count, in key order.
    topics: serde_json::Map<String, serde_json::Value>,
    members: Vec<ModelledMember>,
    expected: BTreeMap<String, Vec<(String, u32)>>,
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
        match assign(strategy, &group(&example.topics, &BTreeMap::new(), &example.members)) {
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
