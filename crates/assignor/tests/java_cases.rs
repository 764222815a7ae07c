//! Exact answers of Kafka's Java assignors where Kafka's own tests have no case: groups built to
//! catch a wrong port (a dropped sort, a `>` turned into `>=`), static members, and cooperative
//! rebalances over several rounds. `tests/data/java-cases.json` holds each group as a person
//! models it and the lists Java returned, round by round: each follow-up round, every member owns
//! what the last round gave it, in that round's generation (as `rebalance.rs` models it). The
//! lists come from a harness outside the repository that runs Kafka's client assignors (Kafka
//! 4.0 trunk) on the same input; `why` says what each case pins down.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;

use assignor::rebalance::{self, Lists};
use assignor::Strategy;
use common::{group, tps, ModelledMember};
use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    name: String,
    why: String,
    strategy: String,
    /// Topic name to partition count, in metadata order.
    topics: serde_json::Map<String, serde_json::Value>,
    #[serde(default)]
    partition_racks: BTreeMap<String, Vec<Vec<Option<String>>>>,
    members: Vec<ModelledMember>,
    /// Each round's lists, by member.
    rounds: Vec<BTreeMap<String, Vec<(String, u32)>>>,
}

#[test]
fn every_java_case_matches_round_by_round() {
    let path = format!("{}/tests/data/java-cases.json", env!("CARGO_MANIFEST_DIR"));
    let cases: Vec<Case> = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut failures = Vec::new();
    for case in &cases {
        let strategy: Strategy = case.strategy.parse().unwrap();
        let outcome =
            rebalance::rebalance(strategy, &group(&case.topics, &case.partition_racks, &case.members), &Lists::new())
                .unwrap();
        let got: Vec<&Lists> = outcome.rounds.iter().map(|r| &r.assignment.members).collect();
        let expected: Vec<Lists> =
            case.rounds.iter().map(|round| round.iter().map(|(m, list)| (m.clone(), tps(list))).collect()).collect();
        if got.len() != expected.len() || got.iter().zip(&expected).any(|(g, e)| *g != e) {
            failures.push(format!("{} ({}):\n  expected {expected:?}\n  got      {got:?}", case.name, case.why));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from Java:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
