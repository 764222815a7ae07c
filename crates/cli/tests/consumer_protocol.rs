//! `kap show` of a group on the consumer protocol (KIP-848): the server-side assignors' targets are
//! `kap batch`'s answers to the same group as `"protocol":"consumer"` lines, with the reconciliation
//! lanes; a classic group's output is unchanged; `kap import` of a consumer-protocol group keeps its
//! protocol and remote assignor.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{json, Value};

mod common;
use common::kap_stdin as kap;

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
