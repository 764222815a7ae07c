//! The binary form the page and its workers exchange (`scenario::packed`, as postcard): any
//! scenario comes back exactly, a large group keeps format 2's shared subscriptions and runs (a small
//! previous assignment crosses as pairs), and
//! no bytes, however mangled, make the reader panic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use scenario::{ConsumerSpec, Form, Scenario, TopicSpec};
use serde::{Deserialize, Serialize};

mod common;

use common::scenario;

/// A scenario as it crosses.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Wire(#[serde(with = "scenario::packed")] Scenario);

fn packed(scenario: &Scenario) -> Vec<u8> {
    postcard::to_allocvec(&Wire(scenario.clone())).unwrap()
}

fn unpacked(bytes: &[u8]) -> Result<Scenario, postcard::Error> {
    postcard::from_bytes::<Wire>(bytes).map(|wire| wire.0)
}

/// A topic every copy subscribes to, long enough that its name written per consumer would show.
const EVERY_COPY: &str = "a-topic-every-copy-subscribes-to";

/// `scenario` grown past format 1's size: `copies` more consumers subscribing as its first
/// consumer does and to [`EVERY_COPY`] (so their list is shared).
fn grown(scenario: &Scenario, copies: usize) -> Scenario {
    let mut grown = scenario.clone();
    let mut list = scenario.consumers.first().map(|c| c.topics.clone()).unwrap_or_default();
    list.push(EVERY_COPY.into());
    for copy in 0..copies {
        let topics = list.clone();
        let mut consumer = ConsumerSpec::new(format!("copy-{copy}"), &[]);
        consumer.topics = topics;
        grown.consumers.push(consumer);
    }
    grown
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 200,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x7061_636b),
        .. ProptestConfig::default()
    })]

    /// Every field comes back, its version included (the file would raise a compact one to 2).
    #[test]
    fn any_scenario_comes_back_from_its_bytes(s in scenario()) {
        prop_assert_eq!(unpacked(&packed(&s)).unwrap(), s);
    }

    /// A group in format 2's size comes back too, its shared topic lists written once.
    #[test]
    fn a_large_scenario_comes_back_with_its_lists_shared(s in scenario(), copies in 2_001usize..2_200) {
        let large = grown(&s, copies);
        prop_assert_eq!(large.form(), Form::Compact);
        let bytes = packed(&large);
        prop_assert_eq!(unpacked(&bytes).unwrap(), large.clone());
        // Against the same group with no consumer subscribing: the lists add a few hundred bytes,
        // where written out per consumer they would add every name again.
        let mut blank = large.clone();
        blank.consumers.iter_mut().for_each(|c| c.topics.clear());
        let lists = bytes.len().saturating_sub(packed(&blank).len());
        let named: usize = large.consumers.iter().map(|c| c.topics.iter().map(String::len).sum::<usize>()).sum();
        prop_assert!(lists * 20 < named, "{lists} bytes of lists for {named} bytes of topic names");
    }

    /// Cut short or altered, the bytes are refused or read as some scenario: never a panic.
    #[test]
    fn mangled_bytes_never_panic(s in scenario(), cut in 0usize..400, flip in 0usize..400, byte in any::<u8>()) {
        let mut bytes = packed(&grown(&s, 10));
        if let Some(b) = bytes.get_mut(flip) {
            *b = byte;
        }
        bytes.truncate(cut.min(bytes.len()));
        let _ = unpacked(&bytes);
    }
}

/// Kafka's large test after one edit in the page (each strategy's result its previous assignment):
/// 2,000 consumers on 500 topics cross as format 2's file does, shared list and runs, not as a
/// million names; they come back the same.
#[test]
fn kafka_large_group_after_an_edit_crosses_compact() {
    let names: Vec<String> = (0..500).map(|t| format!("topic-{t}")).collect();
    let topics = names.iter().map(|n| TopicSpec::new(n.as_str(), 20)).collect();
    let consumers = (0..2000)
        .map(|i| {
            let mut consumer = ConsumerSpec::new(format!("consumer-{i}"), &[]);
            consumer.topics = names.clone();
            consumer
        })
        .collect();
    let fresh = Scenario { topics, consumers, ..Scenario::default() };
    let settled = scenario::report::Report::new(&fresh).settled(&fresh);
    let edited = scenario::edit::Edit::Join.apply(&settled).unwrap();
    let bytes = packed(&edited);
    let file = serde_json::to_string(&edited).unwrap();
    assert!(bytes.len() < file.len(), "{} bytes, the file {}", bytes.len(), file.len());
    assert!(bytes.len() < 400_000, "{} bytes", bytes.len());
    assert_eq!(unpacked(&bytes).unwrap(), edited);
    let long = serde_json::to_string(&edited.written(Form::Long)).unwrap();
    assert!(bytes.len() * 20 < long.len(), "{} bytes, the long form {}", bytes.len(), long.len());
}

/// What the file's reader refuses in the compact forms, this reader refuses: a consumer named by
/// a shared list that has topics of its own.
#[test]
fn a_consumer_named_twice_is_refused() {
    let mut scenario = grown(&Scenario { topics: vec![TopicSpec::new("t", 1)], ..Scenario::default() }, 2_001);
    assert_eq!(scenario.form(), Form::Compact);
    let good = packed(&scenario);
    // A list of its own, not shared: fine.
    scenario.consumers[0].topics = vec!["t".into(), "u".into()];
    assert!(unpacked(&packed(&scenario)).is_ok());
    let shared_twice: Vec<u8> = {
        // Consumer 0 ("copy-0") shares its list with every other: its packed entry is
        // [id, None, None, [], [], strategies]. Give it a list of its own in place.
        let id = b"copy-0";
        let at = good.windows(id.len() + 1).position(|w| w[0] == id.len() as u8 && &w[1..] == id).unwrap();
        let empty_topics = at + 1 + id.len() + 2; // after the id, instance_id None, rack None
        assert_eq!(good[empty_topics], 0, "the consumer's own list is empty");
        let mut bytes = good[..empty_topics].to_vec();
        bytes.extend([1, 1, b't']);
        bytes.extend(&good[empty_topics + 1..]);
        bytes
    };
    let error = unpacked(&shared_twice).unwrap_err().to_string();
    assert!(!error.is_empty());
}

/// The page's 1,000-partition group after an edit (its file in format 2, runs of a layout): its
/// previous assignment, 4,000 entries, crosses as pairs, as a worker's answer brings it back,
/// which the page writes and each worker reads in less time than runs; it comes back the same.
#[test]
fn a_small_previous_assignment_crosses_as_pairs() {
    let names: Vec<String> = (0..10).map(|t| format!("t{t}")).collect();
    let topics = names.iter().map(|n| TopicSpec::new(n.as_str(), 100)).collect();
    let consumers = (0..50)
        .map(|i| {
            let mut consumer = ConsumerSpec::new(format!("C{i}"), &[]);
            consumer.topics = if i % 2 == 1 { names[..5].to_vec() } else { names.clone() };
            consumer
        })
        .collect();
    let fresh = Scenario { topics, consumers, ..Scenario::default() };
    let settled = scenario::report::Report::new(&fresh).settled(&fresh);
    let edited = scenario::edit::Edit::SetPartitions { topic: 0, partitions: 99 }.apply(&settled).unwrap();
    assert_eq!(edited.form(), Form::Compact);
    let bytes = packed(&edited);
    assert_eq!(unpacked(&bytes).unwrap(), edited);
    // Each entry names its topic: "t0" … "t9" written 4,000 times, not once per layout.
    let named = bytes.windows(3).filter(|w| w[0] == 2 && w[1] == b't' && w[2].is_ascii_digit()).count();
    assert!(named >= 4_000, "{named} topic names in {} bytes", bytes.len());
}
