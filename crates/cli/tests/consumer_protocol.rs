//! `kap show` of a group on the consumer protocol (KIP-848): the server-side assignors' targets are
//! `kap batch`'s answers to the same group as `"protocol":"consumer"` lines, with the reconciliation
//! lanes; a classic group's output is unchanged; `kap import` of a consumer-protocol group keeps its
//! protocol and remote assignor; `kap explain` of a server-side assignor ends in `kap batch`'s answer.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{json, Value};

mod common;
use common::kap_stdin as kap;
use common::{replay, Lcg};

fn preset(id: &str) -> String {
    let (ok, text, err) = kap(&["preset", id], "");
    assert!(ok, "{err}");
    text
}

fn show_json(scenario: &str) -> Value {
    let (ok, out, err) = kap(&["show", "--json", "-"], scenario);
    assert!(ok, "{err}");
    serde_json::from_str(&out).unwrap()
}

/// The scenario's group as a consumer-protocol line for `assignor`: topic ids from the file or
/// derived from the names, each member's current target from the previous assignment under
/// `previous_key`.
fn batch_line(scenario: &Value, assignor: &str, previous_key: &str) -> String {
    let topics = scenario["topics"].as_array().unwrap();
    let id = |t: &Value| {
        t.get("id")
            .and_then(Value::as_str)
            .map_or_else(|| scenario::topic_id::derived(t["name"].as_str().unwrap()).to_string(), str::to_string)
    };
    let members: Vec<Value> = scenario["consumers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let owned = scenario["previous"]["assignments"][previous_key].get(c["id"].as_str().unwrap()).cloned();
            json!({"id": c["id"], "topics": c["topics"], "owned": owned.unwrap_or(json!([]))})
        })
        .collect();
    json!({
        "protocol": "consumer",
        "strategy": assignor,
        "topics": topics.iter().map(|t| (t["name"].as_str().unwrap().to_string(), t["partitions"].clone())).collect::<serde_json::Map<_, _>>(),
        "topic_ids": topics.iter().map(|t| (t["name"].as_str().unwrap().to_string(), json!(id(t)))).collect::<serde_json::Map<_, _>>(),
        "members": members,
    })
    .to_string()
}

#[test]
fn show_gives_kap_batchs_targets_and_the_lanes() {
    for id in ["consumer-protocol-uniform", "uniform-heterogeneous", "consumer-rolling-restart"] {
        let text = preset(id);
        let scenario: Value = serde_json::from_str(&text).unwrap();
        let shown = show_json(&text);
        let servers = &shown["consumer_protocol"];
        assert_eq!(servers["remote_assignor"], "uniform", "{id}");
        for topic in scenario["topics"].as_array().unwrap() {
            let name = topic["name"].as_str().unwrap();
            assert_eq!(servers["topic_ids"][name], scenario::topic_id::derived(name).to_string());
        }
        for (assignor, key) in [("uniform", "uniform"), ("range", "consumer-range")] {
            let (ok, answer, err) = kap(&["batch"], &batch_line(&scenario, assignor, key));
            assert!(ok, "{err}");
            let answer: Value = serde_json::from_str(&answer).unwrap();
            assert_eq!(servers["assignors"][assignor]["assignment"], answer["assignment"], "{id} {assignor}");
        }
    }
    let shown = show_json(&preset("consumer-protocol-uniform"));
    let uniform = &shown["consumer_protocol"]["assignors"]["uniform"];
    assert_eq!(uniform["subscription_type"], "HOMOGENEOUS");
    let reconciliation = &uniform["reconciliation"];
    assert_eq!(reconciliation["heartbeats"], json!(["C0", "C1", "C2", "C3"]));
    assert_eq!(
        reconciliation["stops"],
        json!([
            {"partition": ["orders", 3], "from": "C1", "to": "C3", "heartbeats": 6},
            {"partition": ["orders", 5], "from": "C2", "to": "C3", "heartbeats": 5}
        ])
    );
    // C1 revokes at its first heartbeat and is STABLE again at its second; C0 never changes.
    assert_eq!(
        reconciliation["lanes"]["C1"],
        json!([
            {"after": 0, "consuming": [["orders", 2], ["orders", 3]], "state": "STABLE"},
            {"after": 2, "consuming": [["orders", 2]], "state": "UNREVOKED_PARTITIONS"},
            {"after": 6, "consuming": [["orders", 2]], "state": "STABLE"}
        ])
    );
    assert_eq!(reconciliation["lanes"]["C0"].as_array().unwrap().len(), 1);
}

#[test]
fn the_table_has_the_consumer_protocol_section_and_a_classic_group_does_not() {
    let (ok, out, err) = kap(&["show", "-"], &preset("consumer-protocol-uniform"));
    assert!(ok, "{err}");
    assert!(out.contains("Consumer protocol (group.protocol=consumer), the group's group.remote.assignor: uniform"));
    assert!(out.contains("  orders-3 stops for 6 heartbeats (C1 → C3)"), "{out}");
    assert!(out.contains("note: Today, on the classic protocol, cooperative-sticky moves 1 partition; 1 partition stops over 2 JoinGroup/SyncGroup rounds"), "{out}");
    let classic = preset("range-imbalance");
    let (ok, out, _) = kap(&["show", "-"], &classic);
    assert!(ok && !out.contains("Consumer protocol"));
    assert!(show_json(&classic).get("consumer_protocol").is_none());
}

#[test]
fn import_of_a_consumer_protocol_group_keeps_its_protocol() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenario/tests/data/import/kafka-4.0-consumer-protocol.txt");
    let (ok, out, err) = kap(&["import", sample], "");
    assert!(ok, "{err}");
    let scenario: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(scenario["protocol"], "consumer");
    // uniform, the default, is left out.
    assert!(scenario.get("remote_assignor").is_none());
    let shown = show_json(&out);
    assert_eq!(shown["consumer_protocol"]["remote_assignor"], "uniform");
    // The members' current target is what they own: the same line to kap batch gets the same target.
    let (ok, answer, _) = kap(&["batch"], &batch_line(&scenario, "uniform", "cooperative-sticky"));
    assert!(ok);
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(shown["consumer_protocol"]["assignors"]["uniform"]["assignment"], answer["assignment"]);
}

/// `kap explain --json --strategy STRATEGY -` of `scenario`: the steps, then the whole assignment.
fn explain_json(scenario: &str, strategy: &str) -> (Vec<Value>, Value) {
    let (ok, out, err) = kap(&["explain", "--strategy", strategy, "--json", "-"], scenario);
    assert!(ok, "{err}");
    let mut lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let last = lines.pop().unwrap();
    (lines, last["assignment"].clone())
}

/// A consumer-protocol group: up to five members on some of three topics, some topic ids typed.
fn random_group(rng: &mut Lcg) -> scenario::Scenario {
    use scenario::{ConsumerSpec, Scenario, TopicSpec};
    let topics = [("a", 5), ("b", 3), ("c", 8)]
        .into_iter()
        .map(|(name, partitions)| TopicSpec {
            id: (rng.below(2) == 0).then(|| scenario::topic_id::derived(&format!("typed-{name}")).to_string()),
            ..TopicSpec::new(name, partitions)
        })
        .collect();
    let consumers = (0..1 + rng.below(5))
        .map(|i| {
            let subscribed: Vec<&str> = ["a", "b", "c"].into_iter().filter(|_| rng.below(3) > 0).collect();
            ConsumerSpec::new(format!("m{i}"), &subscribed)
        })
        .collect();
    Scenario { protocol: Some("consumer".into()), topics, consumers, ..Scenario::default() }
}

/// A rebalance trigger for a group of [`random_group`].
fn random_event(rng: &mut Lcg) -> scenario::events::Event {
    use scenario::events::Event;
    let topic = ["a", "b", "c"][rng.below(3) as usize].to_string();
    match rng.below(4) {
        0 => Event::Leave { consumer: format!("m{}", rng.below(5)) },
        1 => Event::Join { consumer: scenario::ConsumerSpec::new(format!("m{}", 5 + rng.below(3)), &["a", "c"]) },
        2 => Event::Subscribe { consumer: format!("m{}", rng.below(5)), topic },
        _ => Event::AddPartitions { topic, partitions: 8 + rng.below(4) as u32 },
    }
}

#[test]
fn explain_of_a_server_assignor_ends_in_kap_batchs_answer_over_random_groups_and_rebalances() {
    let mut rng = Lcg(0x7365_7276);
    let (mut compared, mut with_targets) = (0, 0);
    for _ in 0..20 {
        let mut group = random_group(&mut rng);
        for rebalance in 0..3 {
            if rebalance > 0 {
                let Ok(next) = random_event(&mut rng).apply(&scenario::events::settle(&group)) else { continue };
                group = next;
            }
            let text = scenario::to_json(&group);
            let file: Value = serde_json::from_str(&text).unwrap();
            for (assignor, name) in [("uniform", "uniform"), ("range", "consumer-range")] {
                let (ok, answer, err) = kap(&["batch"], &batch_line(&file, assignor, name));
                assert!(ok, "{err}");
                let answer: Value = serde_json::from_str(&answer).unwrap();
                assert!(answer["error"].is_null(), "{answer}");
                let (steps, assignment) = explain_json(&text, name);
                assert_eq!(assignment, answer["assignment"], "{name} of {text}");
                let members: Vec<&str> = group.consumers.iter().map(|c| c.id.as_str()).collect();
                assert_eq!(Value::Object(replay(&steps, &members)), assignment, "{name} of {text}");
                compared += 1;
                with_targets += usize::from(file["previous"]["assignments"].get(name).is_some());
            }
        }
    }
    assert!(compared >= 80 && with_targets >= 40, "{compared} {with_targets}");
}

/// The issue's example worked by hand: `a` has 3 partitions; A and B (member-map order: "A" hashes
/// first), B's current target all of `a`. Uniform: A, first, may hold 2 and B 1; B keeps `a-0` and
/// gives the rest back to A. Server range ignores the targets: A 0–1, B 2.
#[test]
fn explain_walks_uniform_and_server_range_step_by_step() {
    let scenario = json!({
        "protocol": "consumer",
        "topics": [{ "name": "a", "partitions": 3 }],
        "consumers": [{ "id": "A", "topics": ["a"] }, { "id": "B", "topics": ["a"] }],
        "previous": { "generation": 1, "assignments": { "uniform": { "B": [["a", 0], ["a", 1], ["a", 2]] } } }
    })
    .to_string();
    let (ok, text, err) = kap(&["explain", "--strategy", "uniform", "-"], &scenario);
    assert!(ok, "{err}");
    assert_eq!(
        text.lines().collect::<Vec<_>>(),
        [
            "   1. Every member subscribes to the same topics: uniform's homogeneous builder.",
            "   2. Sort topics (the first member's subscription, a HashSet of topic ids): a.",
            "   3. 3 partitions over 2 members: each may hold 1, and the first in member order one more.",
            "   4. Sort members (the coordinator's member map, a HashMap by member id): A, B.",
            "   5. A may hold 2 partitions, one of them extra.",
            "   6. B may hold 1 partition.",
            "   7. B keeps a-0, which it owned.",
            "   8. B loses a-1: the member owns more than its quota.",
            "   9. B loses a-2: the member owns more than its quota.",
            "  10. Sort unassigned partitions (nobody's, topics in the order above, then those given back): a-1, a-2.",
            "  11. Sort members under their quota, in member order, with the room each has left: A (2).",
            "  12. Give a-1 to A.",
            "  13. Give a-2 to A.",
            "  14. Sort every member's partitions by topic and number.",
        ]
    );
    let (steps, assignment) = explain_json(&scenario, "uniform");
    assert_eq!(assignment, json!({ "A": [["a", 1], ["a", 2]], "B": [["a", 0]] }));
    assert_eq!(steps[6]["kind"], "keep");
    assert_eq!(steps[7]["kind"], "lose");
    assert_eq!(steps[7]["changes"], json!([]));
    assert_eq!(steps[4]["kind"], "member_quota");
    assert_eq!(steps[4]["members"], json!(["A"]));
    assert_eq!(steps[11]["changes"], json!([{ "member": "A", "add": ["a", 1] }]));

    let (ok, text, err) = kap(&["explain", "--strategy", "consumer-range", "-"], &scenario);
    assert!(ok, "{err}");
    assert_eq!(
        text.lines().skip(1).collect::<Vec<_>>(),
        [
            "   2. Sort members (static by group.instance.id first, then by member id): A, B.",
            "   3. a: 3 partitions over 2 consumers: 1 each, and the first gets one more.",
            "   4. Give a-0 to A.",
            "   5. Give a-1 to A.",
            "   6. Give a-2 to B.",
        ]
    );
    let (ok, _, err) = kap(&["explain", "--strategy", "consumer-sticky", "-"], &scenario);
    assert!(!ok && err.contains("uniform or consumer-range"), "{err}");
}

/// Member ids whose Java hashes collide (`"Aa"` and `"BB"` hash alike), so that the order members
/// enter the coordinator's `HashMap` decides its iteration order, and one that does not.
const MEMBER_IDS: [&str; 5] = ["BBAa", "AaAa", "m1", "BBBB", "AaBB"];

/// A `"protocol":"consumer"` batch line: up to five members (ids out of order, some static) on some
/// of three topics and one that does not exist, owning partitions of them and of a deleted topic;
/// now and then one a topic does not have, on which Kafka's coordinator may throw.
fn random_line(rng: &mut Lcg) -> String {
    let counts: Vec<u64> = (0..3).map(|_| rng.below(7)).collect();
    let names = ["a", "b", "c", "missing", "gone"];
    let members: Vec<Value> = (0..1 + rng.below(5))
        .map(|i| {
            let topics: Vec<&str> = names[..4].iter().copied().filter(|_| rng.below(3) == 0).collect();
            let owned: Vec<Value> = (0..rng.below(5))
                .map(|_| {
                    let t = [0, 1, 2, 4][rng.below(4) as usize];
                    let ghost = rng.below(20) == 0;
                    let p = if t < 3 && !ghost { rng.below(counts[t].max(1)) } else { rng.below(8) };
                    json!([names[t], p])
                })
                .collect();
            json!({
                "id": MEMBER_IDS[((i * 3) % 5) as usize],
                "instance_id": (rng.below(4) == 0).then(|| format!("i{i}")),
                "topics": topics,
                "owned": owned,
            })
        })
        .collect();
    let id = |name: &str| scenario::topic_id::derived(&format!("id-{name}")).to_string();
    let strategy = ["uniform", "range"][rng.below(2) as usize];
    json!({
        "protocol": "consumer",
        "strategy": strategy,
        "topics": {"a": counts[0], "b": counts[1], "c": counts[2]},
        "topic_ids": {"a": id("a"), "b": id("b"), "c": id("c"), "gone": id("gone")},
        "members": members,
    })
    .to_string()
}

/// The scenario in `kap link`'s output, opened as the page opens a link.
fn linked(line: &str) -> Result<scenario::Scenario, String> {
    let (ok, out, err) = kap(&["link", "-"], line);
    if !ok {
        return Err(err);
    }
    let fragment = out.trim().split_once('#').unwrap().1;
    Ok(scenario::link::decode(fragment).unwrap())
}

/// Issue 13: a consumer line given to `show`, `explain` and `link` keeps its history. Each
/// member's `owned` is its current target: `show`'s target for the line's assignor and `explain`'s
/// last step are `kap batch`'s answer, and the link opens to the scenario the line is; a line
/// `kap batch` refuses, they refuse with its message.
#[test]
fn a_consumer_line_given_to_show_explain_and_link_is_kap_batchs_answer() {
    let mut rng = Lcg(0x6c69_6e65);
    let lines: Vec<String> = (0..40).map(|_| random_line(&mut rng)).collect();
    let (ok, answers, err) = kap(&["batch"], &lines.join("\n"));
    assert!(ok, "{err}");
    let (mut answered, mut refused) = (0, 0);
    for (line, answer) in lines.iter().zip(answers.lines()) {
        let answer: Value = serde_json::from_str(answer).unwrap();
        let strategy = serde_json::from_str::<Value>(line).unwrap()["strategy"].as_str().unwrap().to_string();
        let walked = if strategy == "uniform" { "uniform" } else { "consumer-range" };
        if let Some(error) = answer["error"].as_str() {
            let expected = format!("kap: -: {error}\n");
            for args in
                [&["show", "--json", "-"][..], &["explain", "--json", "--strategy", walked, "-"], &["link", "-"]]
            {
                let (ok, _, err) = kap(args, line);
                assert!(!ok, "{args:?} {line}");
                assert_eq!(err, expected, "{args:?} {line}");
            }
            refused += 1;
            continue;
        }
        let shown = show_json(line);
        assert_eq!(shown["consumer_protocol"]["remote_assignor"], strategy.as_str());
        assert_eq!(shown["consumer_protocol"]["assignors"][&strategy]["assignment"], answer["assignment"], "{line}");
        let (steps, assignment) = explain_json(line, walked);
        assert_eq!(assignment, answer["assignment"], "{line}");
        let members: Vec<String> = answer["assignment"].as_object().unwrap().keys().cloned().collect();
        let members: Vec<&str> = members.iter().map(String::as_str).collect();
        assert_eq!(Value::Object(replay(&steps, &members)), assignment, "{line}");
        assert_eq!(linked(line), Ok(scenario::read_file(line).unwrap()), "{line}");
        answered += 1;
    }
    assert!(answered >= 30 && refused >= 2, "{answered} answered, {refused} refused");
}

/// A small line worked by hand: B's current target is all of `t` and a partition of the deleted
/// topic `gone`; A joins. Uniform lets A, first in member order, hold 2: B keeps `t-0`.
#[test]
fn a_consumer_line_keeps_its_history_in_show_explain_and_link() {
    let line = r#"{"protocol":"consumer","strategy":"uniform","topics":{"t":3},
        "topic_ids":{"t":"eZUeEuqvSSGGPuIabmBwqg","gone":"b5urPkmCSDOfZwlN8GMxUQ"},
        "members":[{"id":"A","topics":["t"]},{"id":"B","topics":["t"],"owned":[["t",0],["t",1],["t",2],["gone",0]]}]}"#;
    let (ok, answer, err) = kap(&["batch"], &line.replace('\n', ""));
    assert!(ok, "{err}");
    assert_eq!(answer, "{\"id\":null,\"assignment\":{\"A\":[[\"t\",1],[\"t\",2]],\"B\":[[\"t\",0]]},\"error\":null}\n");
    let shown = show_json(line);
    let uniform = &shown["consumer_protocol"]["assignors"]["uniform"];
    assert_eq!(uniform["assignment"], json!({"A": [["t", 1], ["t", 2]], "B": [["t", 0]]}));
    assert_eq!(uniform["moved"].as_array().map(Vec::len), Some(2), "{uniform}");
    let (ok, text, err) = kap(&["explain", "--strategy", "uniform", "-"], line);
    assert!(ok, "{err}");
    assert!(text.contains("B keeps t-0, which it owned."), "{text}");
    let scenario = linked(line).unwrap();
    assert_eq!(scenario.topics[0].id.as_deref(), Some("eZUeEuqvSSGGPuIabmBwqg"));
    let owned = &scenario.previous.as_ref().unwrap().assignments["uniform"]["B"];
    assert_eq!(owned, &[("t".to_string(), 0), ("t".into(), 1), ("t".into(), 2), ("gone".into(), 0)]);
}

#[test]
fn a_malformed_consumer_line_gives_kap_batchs_message_everywhere() {
    let line = r#"{"protocol":"consumer","strategy":"uniform","topics":{"t":3},"topic_ids":{},"members":[]}"#;
    let (_, answer, _) = kap(&["batch"], line);
    assert_eq!(answer, "{\"id\":null,\"assignment\":null,\"error\":\"topic_ids: no id for topic \\\"t\\\"\"}\n");
    for args in [&["show", "-"][..], &["explain", "--strategy", "uniform", "-"], &["link", "-"]] {
        let (ok, out, err) = kap(args, line);
        assert!(!ok && out.is_empty(), "{args:?}");
        assert_eq!(err, "kap: -: topic_ids: no id for topic \"t\"\n", "{args:?}");
    }
}
