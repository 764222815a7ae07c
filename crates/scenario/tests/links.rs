//! Share links: any scenario survives the round trip, every link ever published still opens, and no
//! string, however mangled, makes the decoder panic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use proptest::prelude::*;
use scenario::link::{decode, encode, encode_in, LinkError};
use scenario::{ConsumerSpec, Form, Scenario, TopicSpec};

mod common;

use common::scenario;

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

    /// Both forms, as a file and as a link, read back to the scenario written; the compact form
    /// says format 2.
    #[test]
    fn both_forms_come_back_from_a_file_and_a_link(s in scenario()) {
        for form in [Form::Long, Form::Compact] {
            let expected = match form {
                Form::Long => s.clone(),
                Form::Compact => Scenario { version: 2, ..s.clone() },
            };
            let file = serde_json::to_string_pretty(&s.written(form)).unwrap();
            prop_assert_eq!(scenario::parse_scenario(&file), Ok(expected.clone()));
            prop_assert_eq!(decode(&encode_in(&s, form)), Ok(expected));
        }
    }

    /// The compact form of a group is the same group: the same members, subscriptions and owned
    /// partitions for every strategy, as the model resolves them.
    #[test]
    fn the_compact_and_the_long_form_are_the_same_group(s in scenario()) {
        let long: Scenario = serde_json::from_str(&serde_json::to_string(&s.written(Form::Long)).unwrap()).unwrap();
        let compact: Scenario = serde_json::from_str(&serde_json::to_string(&s.written(Form::Compact)).unwrap()).unwrap();
        if let (Ok(long), Ok(compact)) = (scenario::Model::new(&long), scenario::Model::new(&compact)) {
            for strategy in assignor::Strategy::ALL {
                prop_assert_eq!(long.before(strategy), compact.before(strategy));
            }
        }
        prop_assert_eq!(Scenario { version: 1, ..compact }, Scenario { version: 1, ..long });
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
        // And a compact link, mangled the same ways.
        let link = encode_in(&s, Form::Compact);
        let mut bytes = link.clone().into_bytes();
        if let Some(b) = bytes.get_mut(flip) {
            *b = byte;
        }
        let _ = decode(&String::from_utf8_lossy(&bytes));
        let _ = decode(link.get(..cut.min(link.len())).unwrap_or(""));
    }

    /// Compact texts written by hand or altered: refused with a message, never a panic, never more
    /// than the budget expanded.
    #[test]
    fn arbitrary_compact_texts_never_panic(runs in "[0-9,x+/-]{0,40}", order in "[0-9,x+/-]{0,12}") {
        let text = format!(
            r#"{{"version":2,"consumers":[{{"id":"a"}},{{"id":"b"}}],"subscriptions":[{{"topics":["t"],"consumers":{runs:?}}}],
            "previous":{{"generation":1,"layout":[["t",1000000],["u",3000000]],"orders":{{"range":{order:?}}},"assignments":{{"range":{{"C0":{runs:?}}}}}}}}}"#
        );
        let _ = scenario::parse_scenario(&text);
    }
}

#[test]
fn a_future_version_says_so() {
    assert_eq!(decode("#v3.AAAA"), Err(LinkError::FutureVersion(3)));
}

/// Links as versions 1 and 2 wrote them, with the scenario each must open to (in the long form),
/// forever.
#[test]
fn frozen_links_still_open() {
    for (corpus, at_least) in [(include_str!("data/links-v1.json"), 5), (include_str!("data/links-v2.json"), 2)] {
        let corpus: BTreeMap<String, (String, serde_json::Value)> =
            serde_json::from_str(corpus).expect("corpus parses");
        assert!(corpus.len() >= at_least);
        for (name, (fragment, expected)) in corpus {
            let scenario = decode(&fragment).unwrap_or_else(|e| panic!("{name}: {e}"));
            let long = serde_json::to_value(scenario.written(Form::Long)).expect("serializes");
            assert_eq!(long, expected, "{name}");
        }
    }
}

/// A group of the page's size after an edit is written compactly, a fraction of the long form,
/// and reads back the same.
#[test]
fn a_large_group_travels_compact() {
    let names: Vec<String> = (0..20).map(|t| format!("topic{t}")).collect();
    let topics = names.iter().map(|n| TopicSpec::new(n.as_str(), 100)).collect();
    let consumers = (0..50)
        .map(|i| {
            let mut consumer = ConsumerSpec::new(format!("consumer{i}"), &[]);
            consumer.topics = if i % 4 == 0 { names[..10].to_vec() } else { names[10..].to_vec() };
            consumer
        })
        .collect();
    let fresh = Scenario { topics, consumers, ..Scenario::default() };
    let settled = scenario::report::Report::new(&fresh).settled(&fresh);
    let edited = scenario::edit::Edit::Join.apply(&settled).unwrap();
    assert_eq!(edited.form(), Form::Compact);
    let long = serde_json::to_string(&edited.written(Form::Long)).unwrap();
    let compact = serde_json::to_string(&edited).unwrap();
    assert!(compact.len() * 10 < long.len(), "{} bytes compact, {} long", compact.len(), long.len());
    assert!(compact.starts_with(r#"{"version":2,"#), "{}", &compact[..40]);
    assert_eq!(scenario::read_file(&compact), Ok(Scenario { version: 2, ..edited.clone() }));
    let link = encode(&edited);
    assert!(link.starts_with("v2."));
    assert!(link.len() * 10 < encode_in(&edited, Form::Long).len());
    assert_eq!(decode(&link), Ok(Scenario { version: 2, ..edited }));
}

/// A link too long to share is not handed out: it says so, and how long it would be.
#[test]
fn a_link_too_long_to_share_says_so() {
    // Consumer ids of random letters hardly deflate: 2,000 of 30 letters make a link of 60,000.
    let mut seed: u64 = 0x7472_6176_656c;
    let mut letter = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        char::from(b'a' + (seed % 26) as u8)
    };
    let consumers =
        (0..2000).map(|_| ConsumerSpec::new((0..30).map(|_| letter()).collect::<String>(), &["t"])).collect();
    let scenario = Scenario { consumers, topics: vec![TopicSpec::new("t", 1)], ..Scenario::default() };
    let error = scenario::link::shareable_url("https://example.org/", &scenario, false).unwrap_err();
    assert!(error.length > scenario::link::MAX_SHARED_LINK);
    assert_eq!(error.length, scenario::link::url("https://example.org/", &scenario, false).len());
    assert!(error
        .to_string()
        .ends_with("chat tools cut links over 40000 characters. Share the scenario as a JSON file instead"));
    let small = Scenario { topics: vec![TopicSpec::new("t", 1)], ..Scenario::default() };
    assert!(scenario::link::shareable_url("https://example.org/", &small, false).is_ok());
}
