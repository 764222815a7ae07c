//! Importing `kafka-consumer-groups.sh` output: every sample (one per format generation, written
//! from `ConsumerGroupCommand`'s format code) against its exact expected scenario, notes and unread
//! lines; the imported state is one the group's own strategy keeps; and the reader never panics.
//!
//! Expected results live in `data/import/expected.json`; after a deliberate change, rewrite them
//! with `UPDATE_EXPECT=1 cargo test -p scenario --test import` and review the diff.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use assignor::Strategy;
use proptest::prelude::*;
use scenario::import::{self, ImportError, Imported, Options, WeightSource};
use scenario::{Model, Scenario};
use serde_json::{json, Value};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/import");

fn sample(name: &str) -> String {
    std::fs::read_to_string(format!("{DATA}/{name}")).expect("sample exists")
}

/// Every case: a sample, the options, and a name for its expected result.
fn cases() -> Vec<(&'static str, &'static str, Options)> {
    let group = |name: &str| Options { group: Some(name.to_string()), ..Options::default() };
    vec![
        ("2.2", "kafka-2.2.txt", Options::default()),
        ("2.5", "kafka-2.5-all-groups.txt", Options::default()),
        ("2.5 billing", "kafka-2.5-all-groups.txt", group("billing")),
        ("2.5 orders-app", "kafka-2.5-all-groups.txt", group("orders-app")),
        ("3.6", "kafka-3.6.txt", Options::default()),
        ("3.6 lag", "kafka-3.6.txt", Options { weights: WeightSource::Lag, ..Options::default() }),
        ("3.8", "kafka-3.8.txt", Options::default()),
        ("3.9 members only", "kafka-3.9-members-only.txt", Options::default()),
        ("4.0 classic", "kafka-4.0-classic.txt", Options::default()),
        ("4.0 consumer protocol", "kafka-4.0-consumer-protocol.txt", Options::default()),
        ("messy", "messy.txt", Options::default()),
        ("messy orders-app", "messy.txt", group("orders-app")),
        ("messy search-indexer", "messy.txt", group("search-indexer")),
        ("messy ghost", "messy.txt", group("ghost")),
        ("messy unknown", "messy.txt", group("nope")),
    ]
}

fn outcome(file: &str, options: &Options) -> Result<Imported, ImportError> {
    import::read(&sample(file)).scenario(options)
}

fn as_json(result: &Result<Imported, ImportError>, file: &str) -> Value {
    let unread: Vec<Value> =
        import::read(&sample(file)).unread().iter().map(|u| json!([u.line.0, u.reason, u.text])).collect();
    match result {
        Ok(imported) => json!({
            "group": imported.group,
            "notes": imported.notes,
            "unread": unread,
            "scenario": serde_json::to_value(&imported.scenario).expect("scenario serializes"),
        }),
        Err(error) => json!({ "error": error.to_string(), "unread": unread }),
    }
}

#[test]
fn every_sample_imports_to_its_expected_scenario() {
    let path = format!("{DATA}/expected.json");
    let actual: BTreeMap<String, Value> = cases()
        .iter()
        .map(|(name, file, options)| (name.to_string(), as_json(&outcome(file, options), file)))
        .collect();
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        let text = serde_json::to_string_pretty(&actual).expect("serializes");
        std::fs::write(&path, text + "\n").expect("writes");
        return;
    }
    let expected: BTreeMap<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("expected.json exists")).expect("parses");
    for (name, value) in &actual {
        assert_eq!(Some(value), expected.get(name), "case {name:?} (UPDATE_EXPECT=1 rewrites the expected results)");
    }
    assert_eq!(actual.len(), expected.len(), "expected.json has cases no longer run");
}

fn imported(file: &str, options: &Options) -> Scenario {
    outcome(file, options).expect("imports").scenario
}

/// The strategy the coordinator picks for the imported group, and what it would move now.
fn own_moves(scenario: &Scenario) -> (Strategy, usize) {
    let model = Model::new(scenario).expect("valid");
    let strategy = model.selection().strategy.expect("a strategy is chosen");
    (strategy, model.rebalance(strategy).expect("runs").diff.moved.len())
}

#[test]
fn the_groups_own_strategy_moves_nothing() {
    for (name, file, options) in cases() {
        let Ok(imported) = outcome(file, &options) else { continue };
        if imported.scenario.consumers.is_empty() {
            continue;
        }
        let (strategy, moved) = own_moves(&imported.scenario);
        assert_eq!(moved, 0, "{name}: {strategy} moves partitions of the imported group");
    }
}

#[test]
fn the_same_group_imports_alike_from_every_tool_version() {
    let members_and_owned = |s: Scenario| (s.topics, s.consumers, s.previous);
    let dynamic = members_and_owned(imported("kafka-2.2.txt", &Options::default()));
    let group = Options { group: Some("orders-app".into()), ..Options::default() };
    assert_eq!(members_and_owned(imported("kafka-2.5-all-groups.txt", &group)), dynamic);
    assert_eq!(members_and_owned(imported("kafka-4.0-classic.txt", &Options::default())), dynamic);

    // 3.8 prints ASSIGNMENT without topic names; --describe names them.
    let static_member = members_and_owned(imported("kafka-3.6.txt", &Options::default()));
    assert_eq!(members_and_owned(imported("kafka-3.8.txt", &Options::default())), static_member);
    assert_eq!(members_and_owned(imported("messy.txt", &group)), static_member);
}

#[test]
fn what_the_tables_say_is_what_the_scenario_holds() {
    let s = imported("kafka-3.6.txt", &Options::default());
    let counts: Vec<(&str, u32)> = s.topics.iter().map(|t| (t.name.as_str(), t.partitions)).collect();
    assert_eq!(counts, [("audit", 2), ("orders", 6), ("payments", 3)]);
    let statics: Vec<(&str, Option<&str>)> =
        s.consumers.iter().map(|c| (&c.id[..12], c.instance_id.as_deref())).collect();
    assert_eq!(
        statics,
        [
            ("orders-app-0", Some("orders-app-0")),
            ("consumer-ord", None),
            ("consumer-ord", None),
            ("consumer-ord", None)
        ]
    );
    assert!(s.consumers.iter().all(|c| c.strategies == ["cooperative-sticky"]));
    let previous = s.previous.expect("owned partitions");
    let owned = &previous.assignments["cooperative-sticky"]["orders-app-0-3f1c9e2a-5b7d-4e11-9c3a-2d8e6f4b1a70"];
    assert_eq!(owned, &[("orders".to_string(), 1), ("orders".to_string(), 5)]);
    assert!(previous.assignments.values().all(|a| a == &previous.assignments["cooperative-sticky"]));

    // A member without partitions, in a range group with more members than partitions.
    let s = imported("kafka-2.5-all-groups.txt", &Options::default());
    assert_eq!(s.consumers.len(), 3);
    let idle = &s.consumers[2].id;
    assert!(!s.previous.expect("owned").assignments["range"].contains_key(idle));

    // An empty group: its topics, no consumers.
    let billing = Options { group: Some("billing".into()), ..Options::default() };
    let s = imported("kafka-2.5-all-groups.txt", &billing);
    assert!(s.consumers.is_empty());
    assert_eq!(s.topics.len(), 1);
    assert_eq!((s.topics[0].name.as_str(), s.topics[0].partitions), ("invoices", 3));
}

#[test]
fn a_paste_from_windows_reads_the_same() {
    let crlf = sample("kafka-3.6.txt").replace('\n', "\r\n");
    assert_eq!(
        import::read(&crlf).scenario(&Options::default()).map(|i| i.scenario),
        Ok(imported("kafka-3.6.txt", &Options::default()))
    );
}

#[test]
fn lag_becomes_the_partition_weights() {
    let s = imported("kafka-3.6.txt", &Options { weights: WeightSource::Lag, ..Options::default() });
    let orders = s.topics.iter().find(|t| t.name == "orders").expect("orders");
    assert_eq!(orders.partition_weights.get(&5), Some(&222));
    assert_eq!(orders.partition_weights.len(), 6);
    assert_eq!(s.view.weight_unit, "LAG");
}

#[test]
fn unreadable_lines_are_reported_with_their_numbers() {
    let import = import::read(&sample("messy.txt"));
    let lines: Vec<usize> = import.unread().iter().map(|u| u.line.0).collect();
    // The SLF4J warning, a row cut short, a log line and `--list --state` output; the wrapped row
    // (lines 13–14) is read as one.
    assert_eq!(lines, [1, 40, 42, 43, 44]);
    assert!(import.unread()[1].reason.contains("no CONSUMER-ID"), "{}", import.unread()[1]);
}

#[test]
fn members_without_their_partitions_are_not_a_group_yet() {
    let text = "\
GROUP  CONSUMER-ID  HOST  CLIENT-ID  #PARTITIONS
g      c1           /h    app        2
g      c2           /h    app        1";
    assert_eq!(import::read(text).scenario(&Options::default()), Err(ImportError::NoPartitions { group: "g".into() }));
    // A row of dashes in --describe names a member without partitions.
    let text = "\
GROUP  TOPIC  PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID
g      t      0          1               1               0    c1           /h    app
g      -      -          -               -               -    c2           /h    app";
    let s = import::read(text).scenario(&Options::default()).expect("imports").scenario;
    let ids: Vec<&str> = s.consumers.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["c1", "c2"]);
}

#[test]
fn subscriptions_are_narrowed_when_only_that_explains_the_assignment() {
    // Range gave A only t0's first partition and B the rest: with both on both topics, range would
    // split t1 too; with A on t0 alone it gives exactly this.
    let text = "\
GROUP  TOPIC  PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID
g      t0     0          1               1               0    A            /h    app
g      t0     1          1               1               0    B            /h    app
g      t1     0          1               1               0    B            /h    app
g      t1     1          1               1               0    B            /h    app

GROUP  COORDINATOR (ID)  ASSIGNMENT-STRATEGY  STATE   #MEMBERS
g      b:9092 (1)        range                Stable  2";
    let imported = import::read(text).scenario(&Options::default()).expect("imports");
    let topics: Vec<(&str, Vec<&str>)> = imported
        .scenario
        .consumers
        .iter()
        .map(|c| (c.id.as_str(), c.topics.iter().map(String::as_str).collect()))
        .collect();
    assert_eq!(topics, [("A", vec!["t0"]), ("B", vec!["t0", "t1"])]);
    assert!(imported.notes[0].starts_with("each member subscribes to the topics it holds partitions of"));
    assert_eq!(own_moves(&imported.scenario), (Strategy::Range, 0));
}

#[test]
fn a_paste_of_something_else_says_so() {
    let import = import::read("hello\nworld\n");
    assert_eq!(import.scenario(&Options::default()), Err(ImportError::NothingRead));
    assert_eq!(import.unread().len(), 2);
}

// ---- round trip: a group Kafka assigned, printed as the tool prints it, imported back -------------

fn pad(text: &str, width: usize) -> String {
    format!("{text:<width$}")
}

/// `--describe --members --verbose` and `--describe --state` as 2.6–3.7 print them (one group).
/// A member as the tool lists it: id, instance id, partitions.
type Listed = (String, Option<String>, Vec<(String, u32)>);

fn describe(group: &str, strategy: Strategy, members: &[Listed]) -> String {
    let widest = |f: &dyn Fn(&Listed) -> usize, min: usize| members.iter().map(f).max().unwrap_or(0).max(min);
    let id_width = widest(&|m| m.0.len(), 15);
    let instance_width = widest(&|m| m.1.as_deref().map_or(0, str::len), 17);
    let with_instance = members.iter().any(|m| m.1.is_some());
    let line = |g: &str, id: &str, instance: &str, count: &str, assignment: &str| {
        let mut cols = vec![pad(g, group.len().max(15)), pad(id, id_width)];
        if with_instance {
            cols.push(pad(instance, instance_width));
        }
        cols.extend([pad("/10.0.0.1", 15), pad("client", 15), pad(count, 15)]);
        format!("{} {assignment}", cols.join(" "))
    };
    let mut text = format!("\n{}\n", line("GROUP", "CONSUMER-ID", "GROUP-INSTANCE-ID", "#PARTITIONS", "ASSIGNMENT"));
    for (id, instance, owned) in members {
        let mut by_topic: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
        for (t, p) in owned {
            by_topic.entry(t).or_default().push(*p);
        }
        let lists: Vec<String> = by_topic
            .iter_mut()
            .map(|(t, ps)| {
                ps.sort_unstable();
                format!("{t}({})", ps.iter().map(u32::to_string).collect::<Vec<_>>().join(","))
            })
            .collect();
        let assignment = if lists.is_empty() { "-".to_string() } else { lists.join(", ") };
        text.push_str(&line(group, id, instance.as_deref().unwrap_or(""), &owned.len().to_string(), &assignment));
        text.push('\n');
    }
    let coordinator = "b1:9092 (1)";
    text.push_str(&format!(
        "\n{} {} {} {} #MEMBERS\n{} {} {} {} {}\n",
        pad("GROUP", 25),
        pad("COORDINATOR (ID)", 25),
        pad("ASSIGNMENT-STRATEGY", 20),
        pad("STATE", 15),
        pad(group, 25),
        pad(coordinator, 25),
        pad(strategy.name(), 20),
        pad("Stable", 15),
        members.len()
    ));
    text
}

fn any_strategy() -> impl proptest::strategy::Strategy<Value = Strategy> {
    prop_oneof![
        Just(Strategy::Range),
        Just(Strategy::RoundRobin),
        Just(Strategy::Sticky),
        Just(Strategy::CooperativeSticky)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Kafka assigns a group; the tool prints it; the import gives back the same members, instance
    /// ids and assignment, and the group's own strategy keeps that assignment.
    #[test]
    fn a_printed_group_imports_back_to_a_state_its_strategy_keeps(
        strategy in any_strategy(),
        partitions in prop::collection::vec(1u32..7, 1..4),
        consumers in prop::collection::vec(("[a-z]{1,6}-[0-9a-f]{4}", any::<bool>()), 1..7),
    ) {
        let topics: Vec<String> = (0..partitions.len()).map(|i| format!("topic-{i}")).collect();
        let mut ids: Vec<(String, Option<String>)> = Vec::new();
        for (i, (id, is_static)) in consumers.iter().enumerate() {
            let id = format!("{id}-{i}");
            let instance = is_static.then(|| format!("pod-{i}"));
            ids.push((id, instance));
        }
        let group = assignor::Group {
            topics: topics.iter().zip(&partitions).map(|(t, &n)| assignor::Topic::new(t.clone(), n)).collect(),
            members: ids
                .iter()
                .map(|(id, instance)| assignor::Member {
                    id: id.clone(),
                    instance_id: instance.clone(),
                    topics: topics.clone(),
                    ..assignor::Member::default()
                })
                .collect(),
        };
        let assignment = assignor::assign(strategy, &group).expect("assigns");
        let members: Vec<Listed> = ids
            .iter()
            .map(|(id, instance)| {
                let owned = assignment.members[id].iter().map(|tp| (tp.topic.to_string(), tp.partition)).collect();
                (id.clone(), instance.clone(), owned)
            })
            .collect();
        let text = describe("g", strategy, &members);
        let imported = import::read(&text).scenario(&Options::default()).expect("imports");
        prop_assert!(import::read(&text).unread().is_empty());
        let s = imported.scenario;
        let got: Vec<(String, Option<String>)> = s.consumers.iter().map(|c| (c.id.clone(), c.instance_id.clone())).collect();
        prop_assert_eq!(&got, &ids);
        let previous = s.previous.clone().expect("owned");
        for (id, _, owned) in &members {
            let mut expected = owned.clone();
            expected.sort();
            let mut actual = previous.assignments[strategy.name()].get(id).cloned().unwrap_or_default();
            actual.sort();
            prop_assert_eq!(actual, expected);
        }
        prop_assert_eq!(own_moves(&s), (strategy, 0));
    }

    #[test]
    fn any_text_reads_without_panicking(text in "(?s).{0,400}") {
        let import = import::read(&text);
        let _ = import.scenario(&Options::default());
    }

    #[test]
    fn mangled_samples_read_without_panicking(
        file in prop_oneof![
            Just("kafka-2.2.txt"), Just("kafka-2.5-all-groups.txt"), Just("kafka-3.6.txt"), Just("kafka-3.8.txt"),
            Just("kafka-4.0-consumer-protocol.txt"), Just("messy.txt"),
        ],
        edits in prop::collection::vec((0usize..6000, 0usize..40, "[ \n()\\-,;:0-9a-zA-Z#é]{0,3}"), 1..8),
    ) {
        let mut text: Vec<char> = sample(file).chars().collect();
        for (at, cut, insert) in edits {
            let at = at.min(text.len());
            let end = (at + cut).min(text.len());
            text.splice(at..end, insert.chars());
        }
        let text: String = text.into_iter().collect();
        let import = import::read(&text);
        for weights in [WeightSource::None, WeightSource::Lag] {
            for group in import.groups().iter().map(|g| Some(g.name.clone())).chain([None]) {
                let _ = import.scenario(&Options { group, weights });
            }
        }
    }
}
