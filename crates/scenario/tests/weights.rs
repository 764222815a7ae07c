//! Weights are traffic the assignors never see: weighing partitions changes every member's load,
//! never an assignment.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use assignor::Strategy;
use proptest::prelude::*;
use scenario::{load, presets, validate, Model};

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn weights_never_change_an_assignment(
        preset in 0usize..64,
        weights in prop::collection::vec((proptest::option::of(0u64..10_000), prop::collection::btree_map(0u32..8, 0u64..1_000_000, 0..4)), 0..12),
    ) {
        let all = presets::all();
        let plain = all[preset % all.len()].scenario().unwrap();
        let mut weighed = plain.clone();
        for (topic, (weight, partition_weights)) in weighed.topics.iter_mut().zip(weights) {
            topic.weight = weight;
            topic.partition_weights = partition_weights.into_iter().filter(|(p, _)| *p < topic.partitions).collect();
        }
        let (a, b) = (Model::new(&plain).unwrap(), Model::new(&weighed).unwrap());
        for strategy in Strategy::ALL {
            let (x, y) = (a.rebalance(strategy), b.rebalance(strategy));
            prop_assert_eq!(x.as_ref().map(|r| r.rounds.clone()).ok(), y.as_ref().map(|r| r.rounds.clone()).ok());
            if let (Ok(x), Ok(y)) = (x, y) {
                // Same assignment, same count load; the weight load is what differs.
                let (lx, ly) = (load::load(&plain.topics, x.result()), load::load(&weighed.topics, y.result()));
                prop_assert_eq!(lx.spread_by_count, ly.spread_by_count);
                let counts = |l: &load::Load| l.members.values().map(|m| m.partitions).collect::<Vec<_>>();
                prop_assert_eq!(counts(&lx), counts(&ly));
            }
        }
    }
}

#[test]
fn a_weight_for_a_partition_that_does_not_exist_is_unused() {
    let mut s = presets::all()[0].scenario().unwrap();
    let partitions = s.topics[0].partitions;
    s.topics[0].partition_weights.insert(partitions, 5);
    assert!(validate::errors(&s).is_empty(), "fewer partitions than weights is no reason to stop");
    let problems = validate::problems(&s);
    assert_eq!(
        problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [format!(
            "topic 1 weights: the weight for partition {partitions} is unused: the topic has {partitions} partitions"
        )]
    );
}
