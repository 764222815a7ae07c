//! The consumer protocol in scenarios (KIP-848): the group's protocol, its `group.remote.assignor` and
//! the topics' ids survive files and links (old ones open unchanged); validation names the field; the
//! report's server-side targets are exactly `kap batch`'s answers to the same group as a
//! `"protocol":"consumer"` line; and over random groups and changes, a partition a member keeps is
//! consumed after every heartbeat.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use assignor::consumer_group::ServerAssignor;
use proptest::prelude::*;
use scenario::events::{settle, Event};
use scenario::report::Report;
use scenario::server::ServerOutcome;
use scenario::{consumer_snapshot, link, ConsumerSpec, Scenario, TopicSpec};
use serde_json::{json, Value};

fn group() -> Scenario {
    Scenario {
        protocol: Some("consumer".into()),
        remote_assignor: Some("range".into()),
        topics: vec![
            TopicSpec { id: Some("eZUeEuqvSSGGPuIabmBwqg".into()), ..TopicSpec::new("orders", 4) },
            TopicSpec::new("ads", 0),
        ],
        consumers: vec![ConsumerSpec::new("A", &["orders", "ads"]), ConsumerSpec::new("B", &["orders"])],
        ..Scenario::default()
    }
}

#[test]
fn protocol_assignor_and_topic_ids_survive_files_and_links() {
    let scenario = group();
    let file = scenario::to_json(&scenario);
    let value: Value = serde_json::from_str(&file).unwrap();
    assert_eq!(value["protocol"], "consumer");
    assert_eq!(value["remote_assignor"], "range");
    assert_eq!(value["topics"][0], json!({"name": "orders", "partitions": 4, "id": "eZUeEuqvSSGGPuIabmBwqg"}));
    // A topic without an id keeps none in the file: it has the one derived from its name.
    assert_eq!(value["topics"][1], json!({"name": "ads", "partitions": 0}));
    assert_eq!(scenario::read_file(&file), Ok(scenario.clone()));
    assert_eq!(link::decode(&link::encode(&scenario)), Ok(scenario.clone()));
    // Defaults are left out: a classic group's file says nothing of protocols or ids.
    let classic = Scenario { protocol: None, remote_assignor: None, ..scenario };
    let file = scenario::to_json(&Scenario { topics: vec![TopicSpec::new("orders", 4)], ..classic });
    for key in ["protocol", "remote_assignor"] {
        assert!(!file.contains(key), "{key} in {file}");
    }
    let value: Value = serde_json::from_str(&file).unwrap();
    assert_eq!(value["topics"][0], json!({"name": "orders", "partitions": 4}));
}

#[test]
fn ids_are_the_given_one_or_derived_from_the_name() {
    let scenario = group();
    assert_eq!(scenario.topics[0].topic_id().unwrap().to_string(), "eZUeEuqvSSGGPuIabmBwqg");
    assert_eq!(scenario.topics[1].topic_id(), Some(scenario::topic_id::derived("ads")));
    assert_eq!(scenario.server_assignor(), Some(ServerAssignor::Range));
    assert_eq!(Scenario::default().server_assignor(), Some(ServerAssignor::Uniform));
}

#[test]
fn validation_names_the_field() {
    let first_error = |scenario: Scenario| scenario::validate::errors(&scenario)[0].to_string();
    assert_eq!(
        first_error(Scenario { protocol: Some("kraft".into()), ..group() }),
        r#"protocol: unknown group.protocol "kraft" (classic or consumer)"#
    );
    assert_eq!(
        first_error(Scenario { remote_assignor: Some("sticky".into()), ..group() }),
        r#"remote_assignor: unknown group.remote.assignor "sticky": the broker's assignors are uniform and range"#
    );
    let with_id = |id: &str| {
        let mut scenario = group();
        scenario.topics[1].id = Some(id.into());
        first_error(scenario)
    };
    assert_eq!(
        with_id("ads"),
        "topic 2 id: input string `ads` decoded as 2 bytes, which is not equal to the expected 16 bytes of a \
         base64-encoded UUID"
    );
    assert_eq!(
        with_id("AAAAAAAAAAAAAAAAAAAAAA"),
        "topic 2 id: AAAAAAAAAAAAAAAAAAAAAA is Kafka's reserved ZERO_UUID, never a topic's id"
    );
    assert_eq!(
        with_id("eZUeEuqvSSGGPuIabmBwqg"),
        r#"topic 2 id: topic "orders" already has the id eZUeEuqvSSGGPuIabmBwqg"#
    );
    // The message is the page's too: the same rulebook refuses the file.
    let file = scenario::to_json(&Scenario { remote_assignor: Some("sticky".into()), ..group() });
    assert_eq!(
        scenario::read_file(&file).unwrap_err().to_string(),
        r#"remote_assignor: unknown group.remote.assignor "sticky": the broker's assignors are uniform and range"#
    );
}

/// The group of `scenario` as `kap batch`'s consumer-protocol line for `assignor`, written from the
/// scenario's own fields: topic ids as the file has them (or derived), each member's current target
/// from its previous assignment under the assignor.
fn batch_line(scenario: &Scenario, assignor: ServerAssignor) -> String {
    let key = scenario::format::previous_key(assignor);
    let previous = scenario.previous.as_ref().and_then(|p| p.assignments.get(key));
    let members: Vec<Value> = scenario
        .consumers
        .iter()
        .map(|c| {
            let owned = previous.and_then(|p| p.get(&c.id)).cloned().unwrap_or_default();
            json!({"id": c.id, "instance_id": c.instance_id, "rack": c.rack, "topics": c.topics, "owned": owned})
        })
        .collect();
    json!({
        "protocol": "consumer",
        "strategy": assignor.name(),
        "topics": scenario.topics.iter().map(|t| (t.name.clone(), json!(t.partitions))).collect::<serde_json::Map<_, _>>(),
        "topic_ids": scenario.topics.iter().map(|t| (t.name.clone(), json!(t.topic_id().unwrap().to_string()))).collect::<serde_json::Map<_, _>>(),
        "members": members,
    })
    .to_string()
}

/// Checks every server-side outcome of `scenario` against `kap batch`, and the promise that kept
/// partitions never stop.
fn check(scenario: &Scenario) -> Result<(), TestCaseError> {
    let report = Report::new(scenario);
    prop_assert!(report.errors.is_empty(), "{:?}", report.errors);
    for assignor in ServerAssignor::ALL {
        let answer = serde_json::to_value(consumer_snapshot::answer(&batch_line(scenario, assignor))).unwrap();
        let Some(outcome) = report.server(assignor) else {
            prop_assert!(answer["assignment"].is_null(), "{answer}");
            continue;
        };
        let target = serde_json::to_value(scenario::model::lists_to_pairs(&outcome.target)).unwrap();
        prop_assert_eq!(&answer["assignment"], &target, "{}", assignor);
        check_reconciliation(outcome)?;
    }
    Ok(())
}

fn check_reconciliation(outcome: &ServerOutcome) -> Result<(), TestCaseError> {
    let reconciliation = outcome.reconciliation.as_ref().expect("a small group is simulated");
    prop_assert!(reconciliation.converged);
    prop_assert_eq!(outcome.kept_never_stop(), Some(true));
    // Only partitions that changed owner ever stop.
    for stop in &reconciliation.stops {
        prop_assert!(outcome.diff.moved.iter().any(|m| m.partition == stop.partition), "{:?}", stop);
    }
    // Every lane ends on the member's target.
    for (member, lane) in &reconciliation.lanes {
        let end: Vec<_> = lane.consuming.last().into_iter().flatten().cloned().collect();
        prop_assert_eq!(&end, &outcome.target[member]);
    }
    Ok(())
}

#[test]
fn the_presets_targets_are_kap_batchs() {
    for id in ["consumer-protocol-uniform", "uniform-heterogeneous", "consumer-rolling-restart"] {
        let scenario = scenario::presets::find(id).unwrap().scenario().unwrap();
        check(&scenario).unwrap_or_else(|e| panic!("{id}: {e}"));
    }
}

#[test]
fn a_joining_member_under_uniform_stops_only_what_moves_to_it() {
    let scenario = scenario::presets::find("consumer-protocol-uniform").unwrap().scenario().unwrap();
    let report = Report::new(&scenario);
    let uniform = report.server(ServerAssignor::Uniform).unwrap();
    let pairs = |m: &str| uniform.target[m].iter().map(|tp| tp.to_string()).collect::<Vec<_>>();
    // Kafka 4.0's homogeneous builder gives the extra partitions to the first members in map order.
    assert_eq!(pairs("C0"), ["orders-0", "orders-1"]);
    assert_eq!(pairs("C1"), ["orders-2"]);
    assert_eq!(pairs("C3"), ["orders-3", "orders-5"]);
    let stopped: Vec<(String, usize)> = uniform
        .reconciliation
        .as_ref()
        .unwrap()
        .stops
        .iter()
        .map(|s| (s.partition.to_string(), s.heartbeats))
        .collect();
    assert_eq!(stopped, [("orders-3".to_string(), 6), ("orders-5".to_string(), 5)]);
    assert_eq!(uniform.reconciliation.as_ref().unwrap().rounds, 2);
    // Cooperative-sticky moves one partition, in two rounds.
    let cooperative = report.outcome(assignor::Strategy::CooperativeSticky).unwrap();
    assert_eq!((cooperative.moved(), cooperative.rebalance.rounds.len()), (1, 2));
}

#[test]
fn a_restarted_static_member_takes_over_its_target() {
    let scenario = scenario::presets::find("consumer-rolling-restart").unwrap().scenario().unwrap();
    let report = Report::new(&scenario);
    for assignor in ServerAssignor::ALL {
        let outcome = report.server(assignor).unwrap();
        assert_eq!(outcome.moved(), 0, "{assignor}");
        assert_eq!(outcome.target["kKxklZX_JHXX_GOoKHARhw"].len(), 2);
        assert!(outcome.reconciliation.as_ref().unwrap().stops.is_empty());
    }
}

#[test]
fn a_classic_group_moving_to_the_consumer_protocol_starts_from_what_it_owns() {
    let classic = Scenario {
        topics: vec![TopicSpec::new("t", 6)],
        consumers: ["A", "B", "C"]
            .map(|id| ConsumerSpec { strategies: vec!["cooperative-sticky".into()], ..ConsumerSpec::new(id, &["t"]) })
            .to_vec(),
        ..Scenario::default()
    };
    let settled = settle(&classic);
    // The server keys appear only once the group runs the consumer protocol.
    assert!(settled.previous.as_ref().unwrap().assignments.keys().all(|k| k != "uniform"));
    let moved = Scenario { protocol: Some("consumer".into()), ..settled };
    let report = Report::new(&moved);
    let uniform = report.server(ServerAssignor::Uniform).unwrap();
    let cooperative = report.outcome(assignor::Strategy::CooperativeSticky).unwrap();
    assert_eq!(uniform.before, cooperative.rebalance.before);
    assert_eq!(uniform.moved(), 0);
    let next = settle(&moved);
    assert!(next.previous.as_ref().unwrap().assignments.contains_key("uniform"));
    assert!(next.previous.as_ref().unwrap().assignments.contains_key("consumer-range"));
}

const TOPICS: [(&str, u32); 3] = [("a", 5), ("b", 3), ("c", 8)];

fn random_group() -> impl Strategy<Value = (Scenario, Vec<Event>)> {
    let consumer = prop::collection::vec(0..TOPICS.len(), 1..=3);
    let events = prop::collection::vec(
        prop_oneof![
            (0usize..6).prop_map(|i| Event::Leave { consumer: format!("m{i}") }),
            (6usize..9).prop_map(|i| Event::Join { consumer: ConsumerSpec::new(format!("m{i}"), &["a", "c"]) }),
            ((0usize..6), (0..TOPICS.len()))
                .prop_map(|(i, t)| Event::Subscribe { consumer: format!("m{i}"), topic: TOPICS[t].0.into() }),
            (0..TOPICS.len(), 1u32..6).prop_map(|(t, more)| Event::AddPartitions {
                topic: TOPICS[t].0.into(),
                partitions: TOPICS[t].1 + more
            }),
        ],
        1..4,
    );
    (prop::collection::vec(consumer, 1..6), events, any::<bool>(), prop::collection::vec(any::<bool>(), 3)).prop_map(
        |(subscriptions, events, range, typed_ids)| {
            let topics = TOPICS
                .iter()
                .zip(typed_ids)
                .map(|(&(name, partitions), typed)| TopicSpec {
                    id: typed.then(|| scenario::topic_id::derived(&format!("typed-{name}")).to_string()),
                    ..TopicSpec::new(name, partitions)
                })
                .collect();
            let consumers = subscriptions
                .iter()
                .enumerate()
                .map(|(i, topics)| {
                    let names: Vec<&str> = topics.iter().map(|&t| TOPICS[t].0).collect();
                    ConsumerSpec::new(format!("m{i}"), &names)
                })
                .collect();
            let scenario = Scenario {
                protocol: Some("consumer".into()),
                remote_assignor: range.then(|| "range".into()),
                topics,
                consumers,
                ..Scenario::default()
            };
            (scenario, events)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 200,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x4b49_5038),
        .. ProptestConfig::default()
    })]

    /// Event after event, each settled: the report's targets are `kap batch`'s, kept partitions never
    /// stop, every member reaches its target.
    #[test]
    fn reports_match_kap_batch_and_kept_partitions_never_stop((scenario, events) in random_group()) {
        let mut scenario = scenario;
        check(&scenario)?;
        for event in events {
            let Ok(next) = event.apply(&settle(&scenario)) else { continue };
            scenario = next;
            check(&scenario)?;
        }
    }
}

#[test]
fn a_server_panel_has_the_classic_panels_digest() {
    use scenario::digest::{member_detail, ChipKind, MemberRequest, MovesDigest, PanelDigest};
    use scenario::StrategyId;
    let scenario = scenario::presets::find("consumer-protocol-uniform").unwrap().scenario().unwrap();
    let report = Report::new(&scenario);
    let digest = report.servers[0].digest(&report, &scenario);
    assert_eq!(digest.panel, StrategyId::Server(ServerAssignor::Uniform));
    assert_eq!(digest.panel.name(), "uniform");
    // It crosses a worker boundary as the classic ones do.
    let json = serde_json::to_string(&digest).unwrap();
    assert_eq!(serde_json::from_str::<PanelDigest>(&json).unwrap(), digest);
    let outcome = digest.outcome.as_ref().unwrap();
    assert_eq!(outcome.protocol, "CONSUMER");
    assert_eq!(outcome.moves, MovesDigest { had_owners: true, moved: 2, paused: 2, needless: 0 });
    let chips = |member: &str| {
        let row = outcome.members.iter().find(|m| m.id == member).unwrap();
        row.chips.as_ref().unwrap().iter().map(|c| (c.partition, c.kind)).collect::<Vec<_>>()
    };
    assert_eq!(chips("C1"), [(2, ChipKind::Kept), (3, ChipKind::Revoked)]);
    assert_eq!(chips("C3"), [(3, ChipKind::Added), (5, ChipKind::Added)]);
    let rounds: Vec<&str> = outcome.timeline.rounds.iter().map(|r| r.text.as_str()).collect();
    assert_eq!(rounds, ["2 revoked, 0 handed to their new owner", "0 revoked, 2 handed to their new owner"]);
    assert_eq!(
        outcome.timeline.pauses,
        "only the 2 partitions that change owner stop, for at most 6 heartbeats; the rest keep flowing"
    );
    // One member's partitions on request, as for a big group's panel.
    let request = MemberRequest { panel: StrategyId::Server(ServerAssignor::Uniform), member: "C3".into() };
    let detail = member_detail(&report, &scenario, &request).unwrap();
    assert_eq!(detail.chips.iter().map(|c| c.partition).collect::<Vec<_>>(), [3, 5]);
    let range = MemberRequest { panel: StrategyId::Server(ServerAssignor::Range), member: "C3".into() };
    assert_eq!(member_detail(&report, &scenario, &range).unwrap().chips.len(), 1);
}

/// The lanes a server panel carries are the report's reconciliation sampled where each lane
/// changes: what `kap show --json` lists, never every heartbeat of every member.
#[test]
fn a_server_panels_lanes_are_the_reconciliation_where_it_changes() {
    use scenario::digest::{LaneState, LANE_CELLS};
    use scenario::server::{lane_changes, state_name};
    let scenario = scenario::presets::find("consumer-protocol-uniform").unwrap().scenario().unwrap();
    let report = Report::new(&scenario);
    for server in &report.servers {
        let outcome = server.outcome.as_ref().unwrap();
        let reconciliation = outcome.reconciliation.as_ref().unwrap();
        let digest = server.digest(&report, &scenario);
        let topics = std::sync::Arc::clone(&digest.outcome.as_ref().unwrap().topics);
        let lanes = digest.outcome.as_ref().unwrap().reconciliation.clone().unwrap();
        assert_eq!((lanes.epoch, lanes.rounds, lanes.converged), (outcome.epoch, reconciliation.rounds, true));
        assert_eq!(lanes.heartbeats, outcome.heartbeats);
        assert_eq!(lanes.lanes.iter().map(|l| l.member.as_str()).collect::<Vec<_>>(), outcome.heartbeats);
        let name = |&(topic, partition): &(u32, u32)| format!("{}-{partition}", topics[topic as usize]);
        let mut columns = std::collections::BTreeSet::new();
        for lane in &lanes.lanes {
            let full = &reconciliation.lanes[&lane.member];
            let expected: Vec<(usize, &str, Vec<String>)> = lane_changes(full)
                .into_iter()
                .map(|(after, state)| {
                    (after, state_name(state), full.consuming[after].iter().map(|tp| tp.to_string()).collect())
                })
                .collect();
            let carried: Vec<(usize, &str, Vec<String>)> = lane
                .samples
                .iter()
                .map(|s| (s.after, s.state.name(), s.consuming.iter().map(name).collect()))
                .collect();
            assert_eq!(carried, expected, "{} {}", server.assignor, lane.member);
            assert_eq!(lane.samples[0].after, 0);
            assert_eq!(lane.samples[0].state, LaneState::Stable);
            columns.extend(lane.samples.iter().map(|s| s.after));
        }
        assert_eq!(lanes.columns, columns.into_iter().collect::<Vec<_>>());
        let stops: Vec<(String, &str, &str, usize)> = lanes
            .stops
            .iter()
            .map(|s| (name(&(s.topic, s.partition)), s.from.as_str(), s.to.as_str(), s.heartbeats))
            .collect();
        let expected: Vec<(String, &str, &str, usize)> = reconciliation
            .stops
            .iter()
            .map(|s| (s.partition.to_string(), s.from.as_str(), s.to.as_str(), s.heartbeats))
            .collect();
        assert_eq!(stops, expected);
        assert_eq!(lanes.stop_count, reconciliation.stops.len());
    }
    // The uniform preset: a member joins; C0 keeps what it has, so its lane never changes.
    let uniform = report.servers[0].digest(&report, &scenario);
    let lanes = uniform.outcome.as_ref().unwrap().reconciliation.clone().unwrap();
    assert_eq!(lanes.lanes[0].member, "C0");
    assert_eq!(lanes.lanes[0].samples.len(), 1);

    // A group whose lanes would be a table nobody reads: the figures and stops, no lanes.
    let wide = Scenario {
        protocol: Some("consumer".into()),
        topics: vec![TopicSpec::new("t", 400)],
        consumers: (0..200).map(|i| ConsumerSpec::new(format!("C{i:03}"), &["t"])).collect(),
        ..Scenario::default()
    };
    // The topic grows: 80 members each get one of the new partitions, each at its own heartbeat.
    let mut wide = settle(&wide);
    wide.topics[0].partitions = 480;
    let report = Report::new(&wide);
    let digest = report.servers[0].digest(&report, &wide);
    let lanes = digest.outcome.as_ref().unwrap().reconciliation.clone().unwrap();
    assert!(lanes.heartbeats.len() * lanes.columns.len() > LANE_CELLS);
    assert!(lanes.lanes.is_empty());
    assert_eq!(
        lanes.stop_count,
        report.server(ServerAssignor::Uniform).unwrap().reconciliation.as_ref().unwrap().stops.len()
    );
}

#[test]
fn edits_switch_the_protocol_and_the_assignor_and_type_ids() {
    use scenario::edit::Edit;
    let consumer = Edit::SetGroupProtocol { consumer: true }.apply(&Scenario::default()).unwrap();
    assert!(consumer.consumer_protocol());
    let range = Edit::SetRemoteAssignor { assignor: ServerAssignor::Range }.apply(&consumer).unwrap();
    assert_eq!(range.remote_assignor.as_deref(), Some("range"));
    assert_eq!(
        Edit::SetRemoteAssignor { assignor: ServerAssignor::Uniform }.apply(&range).unwrap().remote_assignor,
        None
    );
    // Back to classic: the Java client refuses group.remote.assignor there, so it goes too.
    let classic = Edit::SetGroupProtocol { consumer: false }.apply(&range).unwrap();
    assert_eq!((classic.protocol.clone(), classic.remote_assignor.clone()), (None, None));
    let refused =
        scenario::validate::errors(&Scenario { remote_assignor: Some("range".into()), ..classic })[0].to_string();
    assert_eq!(refused, "remote_assignor: group.remote.assignor cannot be set when group.protocol=classic");
    let with_topic = Scenario { topics: vec![TopicSpec::new("t", 1)], ..consumer };
    let typed = Edit::SetTopicId { topic: 0, id: Some("eZUeEuqvSSGGPuIabmBwqg".into()) }.apply(&with_topic).unwrap();
    assert_eq!(typed.topics[0].id.as_deref(), Some("eZUeEuqvSSGGPuIabmBwqg"));
    let error = Edit::SetTopicId { topic: 0, id: Some("x".into()) }.apply(&with_topic).unwrap_err();
    assert_eq!(error.to_string(), "topic 1 id: input string `x` decoded as 0 bytes, which is not equal to the expected 16 bytes of a base64-encoded UUID");
}

#[test]
fn a_large_group_is_not_simulated_heartbeat_by_heartbeat() {
    let scenario = Scenario {
        protocol: Some("consumer".into()),
        topics: vec![TopicSpec::new("big", 20_000)],
        consumers: (0..6).map(|i| ConsumerSpec::new(format!("m{i}"), &["big"])).collect(),
        ..Scenario::default()
    };
    let report = Report::new(&scenario);
    let uniform = report.server(ServerAssignor::Uniform).unwrap();
    assert_eq!(uniform.reconciliation, None);
    assert_eq!(uniform.kept_never_stop(), None);
    assert_eq!(uniform.metrics.spread(), 1);
}

/// The walkthrough of each server-side assignor, asked for by its panel's name, ends in the report's
/// target (and so in `kap batch`'s, [`check`]): the steps' changes replayed, and the walk's answer.
fn check_walkthroughs(scenario: &Scenario) -> Result<(), TestCaseError> {
    use scenario::report::{walk, Walkthrough};
    use scenario::StrategyId;
    let report = Report::new(scenario);
    let model = scenario::Model::new(scenario).unwrap();
    for assignor in ServerAssignor::ALL {
        let id: StrategyId = scenario::format::previous_key(assignor).parse().unwrap();
        let walked = walk(&model, id, |_| {});
        let Some(outcome) = report.server(assignor) else {
            prop_assert!(walked.is_err());
            continue;
        };
        prop_assert_eq!(&walked.unwrap().assignment, &outcome.target, "{}", assignor);
        let walkthrough = Walkthrough::new(&model, id).unwrap();
        prop_assert_eq!(&walkthrough.lists_after(walkthrough.steps.len()), &outcome.target, "{}", assignor);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 100,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x7761_6c6b),
        .. ProptestConfig::default()
    })]

    /// Event after event, each settled: every server-side walkthrough ends in `kap batch`'s target.
    #[test]
    fn walkthroughs_end_in_kap_batchs_targets((scenario, events) in random_group()) {
        let mut scenario = scenario;
        check(&scenario)?;
        check_walkthroughs(&scenario)?;
        for event in events {
            let Ok(next) = event.apply(&settle(&scenario)) else { continue };
            scenario = next;
            check(&scenario)?;
            check_walkthroughs(&scenario)?;
        }
    }
}
