//! A group snapshot keeps its history wherever it is opened: over random snapshots (members owning
//! partitions from differing generations, some none, claims that clash), the walkthrough of the
//! snapshot's strategy ends in exactly `kap batch`'s answer, and the report's rebalance starts from
//! what the members owned.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use assignor::Strategy as Assignor;
use proptest::prelude::*;
use scenario::report::{walk, Report, Walkthrough};
use scenario::{Model, Snapshot};
use serde_json::{json, Value};

const TOPICS: [(&str, u32); 3] = [("a", 4), ("b", 7), ("c", 2)];

fn member(index: usize) -> impl Strategy<Value = Value> {
    let partition = (0..TOPICS.len(), 0u32..8).prop_map(|(t, p)| json!([TOPICS[t].0, p % (TOPICS[t].1 + 1)]));
    (
        prop::collection::vec(0..TOPICS.len(), 0..=3),
        prop::collection::vec(partition, 0..6),
        prop_oneof![Just(None), (1i32..4).prop_map(Some)],
        proptest::option::of(prop_oneof![Just("r1"), Just("r2")]),
        any::<bool>(),
    )
        .prop_map(move |(topics, owned, generation, rack, is_static)| {
            json!({
                "id": format!("C{index}"),
                "instance_id": is_static.then(|| format!("i{index}")),
                "rack": rack,
                "topics": topics.into_iter().map(|t| TOPICS[t].0).collect::<Vec<_>>(),
                "owned": owned,
                "generation": generation,
            })
        })
}

/// A snapshot as its `kap batch` line.
fn snapshot() -> impl Strategy<Value = String> {
    let members = (1usize..6).prop_flat_map(|n| (0..n).map(member).collect::<Vec<_>>());
    let racks = proptest::option::of(prop::collection::vec(
        prop::collection::vec(prop_oneof![Just("r1".to_string()), Just("r2".to_string())], 1..3),
        TOPICS[1].1 as usize,
    ));
    (prop::sample::select(Assignor::ALL.to_vec()), members, racks).prop_map(|(strategy, members, racks)| {
        let mut line = json!({
            "strategy": strategy.name(),
            "topics": TOPICS.iter().map(|(t, n)| (t.to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
            "members": members,
        });
        if let Some(racks) = racks {
            line["partition_racks"] = json!({ "b": racks });
        }
        line.to_string()
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 500,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x736e_6170),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn a_snapshot_walks_through_to_batchs_answer(line in snapshot()) {
        let snapshot: Snapshot = serde_json::from_str(&line).unwrap();
        let (strategy, mut group) = snapshot.to_group().unwrap();
        // `kap batch`'s answer for this line.
        let batch = assignor::assign(strategy, &group);
        let scenario = snapshot.to_scenario();
        let model = Model::new(&scenario).unwrap();
        let mut modelled = model.group(strategy);
        if strategy != Assignor::CooperativeSticky {
            // Only a cooperative strategy tells EAGER clients apart; the others are all EAGER.
            modelled.members.iter_mut().for_each(|m| m.eager = false);
        }
        // The model drops claims on partitions that do not exist; Kafka's assignors ignore them or
        // (sticky ones) refuse them, and then there is no answer to compare.
        let exists = |tp: &assignor::TopicPartition| TOPICS.iter().any(|(t, n)| **t == *tp.topic && tp.partition < *n);
        group.members.iter_mut().for_each(|m| m.owned.retain(exists));
        prop_assert_eq!(&modelled, &group);
        let Ok(batch) = batch else { return Ok(()) };
        let walked = walk(&model, strategy, |_| {}).unwrap();
        prop_assert_eq!(&walked.assignment, &batch.members);
        let walkthrough = Walkthrough::new(&model, strategy).unwrap();
        prop_assert_eq!(&walkthrough.lists_after(walkthrough.steps.len()), &batch.members);

        // The report's rebalance of that strategy is the snapshot's: from what was owned, first
        // round Kafka's answer.
        let report = Report::new(&scenario);
        prop_assert_eq!(report.selection.as_ref().and_then(|s| s.strategy), Some(strategy));
        let outcome = report.outcome(strategy).unwrap();
        let owned: BTreeMap<String, Vec<assignor::TopicPartition>> =
            group.members.iter().map(|m| (m.id.clone(), m.owned.clone())).collect();
        prop_assert_eq!(&outcome.rebalance.before, &owned);
        prop_assert_eq!(&outcome.rebalance.rounds[0].assignment, &batch);
    }
}
