//! Random scenarios for the property tests (links, the binary form).

use std::collections::BTreeMap;

use proptest::prelude::*;
use scenario::{ConsumerSpec, Previous, Scenario, TopicSpec, View};

/// A topic, consumer or member name.
pub fn name() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9._-]{1,12}"
}

/// Any scenario, small (format 1's size): topics, consumers, previous assignments, view.
pub fn scenario() -> impl Strategy<Value = Scenario> {
    let topic = (
        name(),
        0u32..500,
        proptest::option::of((1u32..4, prop::collection::vec(proptest::option::of("[a-c]"), 1..4))),
        // `None`: a replica on a broker without a rack.
        prop::collection::btree_map(0u32..5, prop::collection::vec(proptest::option::of("[a-z]{1,3}"), 0..3), 0..3),
        (proptest::option::of(0u64..1_000_000), prop::collection::btree_map(0u32..5, 0u64..u64::MAX, 0..3)),
        // A topic id as typed: any text survives the trip (validation is not the link's business).
        proptest::option::of("[A-Za-z0-9_-]{22}"),
    )
        .prop_map(|(name, partitions, layout, overrides, (weight, partition_weights), id)| TopicSpec {
            name,
            partitions,
            id,
            replicas: layout.map(|(factor, racks)| scenario::format::ReplicaLayout { factor, racks }),
            rack_overrides: overrides,
            weight,
            partition_weights,
        });
    let consumer = (
        name(),
        proptest::option::of(name()),
        proptest::option::of("[a-c]"),
        prop::collection::vec(name(), 0..4),
        prop::collection::vec("[a-z.*-]{1,6}", 0..2),
        prop::collection::vec(
            prop_oneof![Just("range"), Just("roundrobin"), Just("sticky"), Just("cooperative-sticky")],
            0..3,
        ),
    )
        .prop_map(|(id, instance_id, rack, topics, patterns, strategies)| ConsumerSpec {
            id,
            instance_id,
            rack,
            topics,
            patterns,
            strategies: strategies.into_iter().map(String::from).collect(),
        });
    let previous = proptest::option::of((
        any::<i32>(),
        prop::collection::btree_map(
            prop_oneof![
                Just("range".to_string()),
                Just("sticky".to_string()),
                Just("uniform".to_string()),
                Just("consumer-range".to_string())
            ],
            prop::collection::btree_map(name(), prop::collection::vec((name(), 0u32..100), 0..5), 0..4),
            0..3,
        ),
    ))
    .prop_map(|p| {
        p.map(|(generation, assignments)| Previous {
            generation,
            generations: BTreeMap::new(),
            assignments: assignments.into_iter().map(|(s, owned)| (s, std::sync::Arc::new(owned))).collect(),
            deleted_topic_ids: BTreeMap::new(),
        })
    });
    (
        ".{0,40}",
        ".{0,80}",
        prop::collection::vec(topic, 0..6),
        prop::collection::vec(consumer, 0..6),
        previous,
        prop::collection::vec(prop_oneof![Just("range".to_string()), Just("sticky".to_string())], 0..3),
        any::<bool>(),
        (
            proptest::option::of(prop_oneof![Just("classic".to_string()), Just("consumer".to_string())]),
            proptest::option::of(prop_oneof![Just("uniform".to_string()), Just("range".to_string())]),
        ),
    )
        .prop_map(|(title, notes, topics, consumers, previous, strategies, diff, (protocol, remote_assignor))| {
            Scenario {
                version: 1,
                title,
                notes,
                protocol,
                remote_assignor,
                topics,
                consumers,
                previous,
                view: View { strategies, diff, ..View::default() },
            }
        })
}
