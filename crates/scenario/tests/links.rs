//! Share links: any scenario survives the round trip, every link ever published still opens, and no
//! string, however mangled, makes the decoder panic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use proptest::prelude::*;
use scenario::link::{decode, encode, LinkError};
use scenario::{ConsumerSpec, Previous, Scenario, TopicSpec, View};

fn name() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9._-]{1,12}"
}

fn scenario() -> impl Strategy<Value = Scenario> {
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

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x6c69_6e6b),
        .. ProptestConfig::default()
    })]

    #[test]
    fn any_scenario_comes_back_from_its_link(s in scenario()) {
        prop_assert_eq!(decode(&encode(&s)), Ok(s));
    }

    #[test]
    fn arbitrary_fragments_never_panic(text in ".{0,300}") {
        let _ = decode(&text);
        let _ = decode(&format!("v1.{text}"));
    }

    #[test]
    fn mangled_links_never_panic(s in scenario(), cut in 0usize..400, flip in 0usize..400, byte in any::<u8>()) {
        let link = encode(&s);
        let mut bytes = link.clone().into_bytes();
        if let Some(b) = bytes.get_mut(flip) {
            *b = byte;
        }
        let _ = decode(&String::from_utf8_lossy(&bytes));
        let _ = decode(link.get(..cut.min(link.len())).unwrap_or(""));
        // Arbitrary bytes behind a valid header: inflate and JSON errors, never a panic.
        let raw = miniz_oxide::deflate::compress_to_vec(&bytes, 6);
        use base64::Engine as _;
        let _ = decode(&format!("v1.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw)));
    }
}

#[test]
fn a_future_version_says_so() {
    assert_eq!(decode("#v3.AAAA"), Err(LinkError::FutureVersion(3)));
}

/// Links as version 1 wrote them, with the scenario each must open to, forever.
#[test]
fn frozen_links_still_open() {
    let corpus: BTreeMap<String, (String, serde_json::Value)> =
        serde_json::from_str(include_str!("data/links-v1.json")).expect("corpus parses");
    assert!(corpus.len() >= 5);
    for (name, (fragment, expected)) in corpus {
        let scenario = decode(&fragment).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(serde_json::to_value(&scenario).expect("serializes"), expected, "{name}");
    }
}
