//! A group snapshot is one rebalance, whichever command reads it: `kap explain` ends where `kap batch`
//! answers, and `kap show` reports the partitions that really move. Also: the commands stay within
//! their limits on large groups.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{json, Value};

mod common;
use common::kap_stdin as kap;
use common::Lcg;

/// A group about to rebalance: members owning partitions (some claimed twice) from differing
/// generations, some from none, some subscribed to less than they own.
fn random_snapshot(rng: &mut Lcg, strategy: &str) -> Value {
    let topics = [("a", 5u64), ("b", 8), ("c", 3)];
    let members: Vec<Value> = (0..1 + rng.below(5))
        .map(|i| {
            let subscribed: Vec<&str> = topics.iter().filter(|_| rng.below(3) > 0).map(|(t, _)| *t).collect();
            let owned: Vec<Value> = (0..rng.below(6))
                .map(|_| {
                    let (topic, count) = topics[rng.below(3) as usize];
                    json!([topic, rng.below(count)])
                })
                .collect();
            let generation = match rng.below(4) {
                0 => Value::Null,
                g => json!(g),
            };
            json!({ "id": format!("C{i}"), "topics": subscribed, "owned": owned, "generation": generation })
        })
        .collect();
    json!({ "strategy": strategy, "topics": { "a": 5, "b": 8, "c": 3 }, "members": members })
}

#[test]
fn explain_ends_in_batchs_answer_on_random_snapshots() {
    let mut rng = Lcg(0x6b61_7021);
    let strategies = ["range", "roundrobin", "sticky", "cooperative-sticky"];
    let snapshots: Vec<Value> = (0..48).map(|i| random_snapshot(&mut rng, strategies[i % 4])).collect();
    let lines: String = snapshots.iter().map(|s| format!("{s}\n")).collect();
    let (ok, answers, _) = kap(&["batch"], &lines);
    assert!(ok);
    let answers: Vec<Value> = answers.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let mut with_history = 0;
    for (i, (snapshot, answer)) in snapshots.iter().zip(&answers).enumerate() {
        let strategy = snapshot["strategy"].as_str().unwrap();
        let (ok, out, err) = kap(&["explain", "--strategy", strategy, "--json", "-"], &snapshot.to_string());
        assert!(answer["error"].is_null(), "snapshot {i}: {}", answer["error"]);
        assert!(ok, "snapshot {i}: {err}");
        let last: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        assert_eq!(last["assignment"], answer["assignment"], "snapshot {i}: {snapshot}");
        let shown: Value = serde_json::from_str(&kap(&["show", "--json", "-"], &snapshot.to_string()).1).unwrap();
        let rounds = &shown["strategies"][strategy]["rounds"];
        // Members come out by id in `show`, in JoinGroup order in `batch`: the same lists.
        let first_round: serde_json::Map<String, Value> = rounds[0]["assignment"].as_object().unwrap().clone();
        assert_eq!(&first_round, answer["assignment"].as_object().unwrap(), "snapshot {i}");
        if snapshot["members"].as_array().unwrap().iter().any(|m| !m["owned"].as_array().unwrap().is_empty()) {
            with_history += 1;
        }
    }
    assert!(with_history > 30, "{with_history}");
}

#[test]
fn show_reports_the_moves_of_the_snapshots_own_rebalance() {
    // C1 holds four of the six partitions: sticky evens the load by moving one, and nothing else.
    let snapshot = json!({
        "strategy": "sticky",
        "topics": { "t": 6 },
        "members": [
            { "id": "C0", "topics": ["t"], "owned": [["t", 0], ["t", 1]], "generation": 7 },
            { "id": "C1", "topics": ["t"], "owned": [["t", 2], ["t", 3], ["t", 4], ["t", 5]], "generation": 7 },
        ]
    });
    let (ok, out, err) = kap(&["show", "--json", "-"], &snapshot.to_string());
    assert!(ok, "{err}");
    let shown: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(shown["group_strategy"], "sticky");
    let sticky = &shown["strategies"]["sticky"];
    assert_eq!(
        sticky["assignment"],
        json!({ "C0": [["t", 0], ["t", 1], ["t", 5]], "C1": [["t", 2], ["t", 3], ["t", 4]] })
    );
    assert_eq!(sticky["moved"], json!([{ "partition": ["t", 5], "from": "C1", "to": "C0" }]));
    assert_eq!(sticky["rounds"][0]["generation"], 8);
    assert_eq!(sticky["metrics"]["needless_moves"], 0);
    // Cooperative-sticky from the same state: the moving partition is withheld for one round.
    let cooperative = &shown["strategies"]["cooperative-sticky"];
    assert_eq!(cooperative["rounds"].as_array().unwrap().len(), 2);
    assert_eq!(cooperative["rounds"][0]["withheld"], json!([{ "partition": ["t", 5], "to": "C0" }]));
    let (_, table, _) = kap(&["show", "-"], &snapshot.to_string());
    assert!(table.contains("sticky moves: t-5 C1→C0"), "{table}");
    assert!(table.lines().any(|l| l.starts_with("moved ") && l.contains("1 of 6")), "{table}");
}

#[test]
fn show_prints_columns_wider_than_format_widths_go() {
    // Roundrobin over two members: each list is every other partition, a cell of ~180,000 characters.
    let snapshot = r#"{"strategy":"range","topics":{"t":30000},"members":[{"id":"C0","topics":["t"]},{"id":"C1","topics":["t"]}]}"#;
    let (ok, out, err) = kap(&["show", "-"], snapshot);
    assert!(ok, "{err}");
    let c0 = out.lines().find(|l| l.starts_with("C0")).unwrap();
    assert!(c0.len() > 100_000, "{}", c0.len());
    assert!(c0.contains("t:0-14999"), "range's cell");
    assert!(c0.contains("t:0,2,4,6,"), "roundrobin's cell");
}

#[test]
fn explain_json_grows_with_the_steps_not_with_steps_times_partitions() {
    let snapshot =
        r#"{"strategy":"range","topics":{"t":8000},"members":[{"id":"C0","topics":["t"]},{"id":"C1","topics":["t"]}]}"#;
    let (ok, out, err) = kap(&["explain", "--strategy", "roundrobin", "--json", "-"], snapshot);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let (last, steps) = lines.split_last().unwrap();
    assert!(steps.len() >= 8000, "{}", steps.len());
    // Each step line is short, whatever the assignment so far; the orders walked (all 8,000
    // partitions, once) and the last line hold whole lists.
    let long: Vec<&&str> = steps.iter().filter(|l| l.len() > 300).collect();
    assert!(long.len() <= 2, "{} long step lines", long.len());
    let last: Value = serde_json::from_str(last).unwrap();
    assert_eq!(last["assignment"]["C0"].as_array().unwrap().len(), 4000);
    assert!(out.len() < 250 * steps.len() + 400_000, "{} bytes for {} steps", out.len(), steps.len());
}
