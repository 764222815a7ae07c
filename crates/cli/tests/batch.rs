//! `kap batch` end to end: the seed articles' worked examples are group snapshots in the batch
//! format, each with Kafka's exact answer.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

fn kap_batch(input: &str) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kap"))
        .arg("batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("kap runs");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    let output = child.wait_with_output().expect("kap finishes");
    assert!(output.status.success());
    String::from_utf8(output.stdout)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

#[test]
fn seed_examples_come_out_as_kafka_computes_them() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../assignor/tests/data/seed-examples.json");
    let examples: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("parse");
    // A snapshot has no room for notes (unknown fields are refused): the name travels as the id.
    let line = |example: &Value| {
        let mut snapshot = example.as_object().expect("object").clone();
        for note in ["name", "source", "expected"] {
            snapshot.remove(note);
        }
        snapshot.insert("id".into(), example["name"].clone());
        format!("{}\n", Value::Object(snapshot))
    };
    let input: String = examples.iter().map(line).collect();
    let answers = kap_batch(&input);
    assert_eq!(answers.len(), examples.len());
    for (example, answer) in examples.iter().zip(&answers) {
        assert_eq!(answer["id"], example["name"]);
        assert_eq!(answer["error"], Value::Null, "{}: {}", example["name"], answer["error"]);
        assert_eq!(answer["assignment"], example["expected"], "{}", example["name"]);
    }
}

#[test]
fn members_come_out_in_joingroup_order_and_bad_lines_do_not_stop_the_batch() {
    let input = concat!(
        r#"{"id":"g1","strategy":"range","topics":{"t0":3,"t1":2},"members":[{"id":"C1","topics":["t0"]},{"id":"C0","topics":["t0","t1"]}]}"#,
        "\nnot json\n\n",
        r#"{"id":7,"strategy":"sticky","topics":{"t0":1},"members":[{"id":"a","topics":["t0"]},{"id":"a","topics":["t0"]}]}"#,
        "\n",
        r#"{"id":"big","strategy":"range","topics":{"t0":4294967295},"members":[]}"#,
        "\n",
        r#"{"strategy":"nope","topics":{},"members":[]}"#,
        "\n"
    );
    let answers = kap_batch(input);
    assert_eq!(answers.len(), 5);
    let first = answers[0]["assignment"].as_object().expect("assignment");
    assert_eq!(first.keys().collect::<Vec<_>>(), ["C1", "C0"]);
    assert_eq!(answers[0]["assignment"]["C0"], serde_json::json!([["t0", 0], ["t0", 1], ["t1", 0], ["t1", 1]]));
    assert_eq!(answers[0]["assignment"]["C1"], serde_json::json!([["t0", 2]]));
    assert_eq!(answers[1]["assignment"], Value::Null);
    assert!(answers[1]["error"].as_str().expect("message").starts_with("not JSON"));
    assert_eq!(answers[2]["id"], 7);
    assert_eq!(answers[2]["error"], "duplicate member id \"a\"");
    assert!(answers[3]["error"].as_str().expect("message").contains("partitions"));
    assert!(answers[4]["error"].as_str().expect("message").contains("unknown strategy"));
}

// Lines for the new consumer protocol (`"protocol":"consumer"`, KIP-848).
// `tests/data/consumer-lines.jsonl` holds random groups from rebalance sequences with the answer Kafka
// 4.0's own coordinator classes gave (`expected`, or `expected_error` where they throw).

/// The answer lines as written: `kap` keeps object keys in order, and so does `Value` here.
fn kap_batch_lines(input: &str) -> Vec<String> {
    kap_batch(input).iter().map(Value::to_string).collect()
}

#[test]
fn the_issue_example_gets_its_target() {
    let line = r#"{"id":"g1","protocol":"consumer","strategy":"uniform","topics":{"orders":6,"ads":0},"topic_ids":{"orders":"eZUeEuqvSSGGPuIabmBwqg","ads":"b5urPkmCSDOfZwlN8GMxUQ"},"members":[{"id":"o8PIcShyRL6cLz1qd5WPig","instance_id":null,"rack":null,"topics":["orders","missing"],"owned":[["orders",2]]}]}"#;
    assert_eq!(
        kap_batch_lines(&format!("{line}\n")),
        [
            r#"{"id":"g1","assignment":{"o8PIcShyRL6cLz1qd5WPig":[["orders",0],["orders",1],["orders",2],["orders",3],["orders",4],["orders",5]]},"error":null}"#
        ]
    );
}

#[test]
fn members_come_out_in_input_order_with_sorted_partitions() {
    let line = r#"{"id":7,"protocol":"consumer","strategy":"range","topics":{"b":3,"a":2},"topic_ids":{"a":"AAAAAAAAAAAAAAAAAAAAAQ","b":"AAAAAAAAAAAAAAAAAAAAAg"},"members":[{"id":"zeta","topics":["b","a"]},{"id":"alpha","topics":["a","b"]}]}"#;
    assert_eq!(
        kap_batch_lines(&format!("{line}\n")),
        [r#"{"id":7,"assignment":{"zeta":[["a",1],["b",2]],"alpha":[["a",0],["b",0],["b",1]]},"error":null}"#]
    );
}

#[test]
fn kafkas_exceptions_are_the_answer() {
    let ids = r#""topic_ids":{"a":"AAAAAAAAAAAAAAAAAAAAAQ","b":"AAAAAAAAAAAAAAAAAAAAAg"}"#;
    let homogeneous = format!(
        r#"{{"id":"h","protocol":"consumer","strategy":"uniform","topics":{{"a":2}},{ids},"members":[{{"id":"m1","topics":["a"],"owned":[["a",0],["a",1],["a",7]]}},{{"id":"m2","topics":["a"]}}]}}"#
    );
    let heterogeneous = format!(
        r#"{{"id":"x","protocol":"consumer","strategy":"uniform","topics":{{"a":2,"b":1}},{ids},"members":[{{"id":"m1","topics":["a"],"owned":[["a",7]]}},{{"id":"m2","topics":["a","b"]}}]}}"#
    );
    assert_eq!(
        kap_batch_lines(&format!("{homogeneous}\n{heterogeneous}\n")),
        [
            r#"{"id":"h","assignment":null,"error":"PartitionAssignorException: Partitions were left unassigned"}"#,
            r#"{"id":"x","assignment":null,"error":"ArrayIndexOutOfBoundsException: Index 7 out of bounds for length 2"}"#,
        ]
    );
}

#[test]
fn bad_lines_say_where_and_the_next_line_is_answered() {
    let input = [
        r#"{"id":1,"protocol":"consumer","strategy":"uniform","topics":{"a":1},"topic_ids":{},"members":[]}"#,
        r#"{"id":2,"protocol":"consumer","strategy":"sticky","topics":{},"topic_ids":{},"members":[]}"#,
        r#"{"id":3,"protocol":"consumer","strategy":"range","topics":{},"topic_ids":{"a":"short"},"members":[]}"#,
        r#"{"id":4,"protocol":"consumer","strategy":"range","topics":{},"topic_ids":{},"members":[{"id":"m","owned":[["gone",0]]}]}"#,
        r#"{"id":5,"protocol":"consumer","strategy":"range","topics":{},"topic_ids":{},"members":[],"generation":3}"#,
        r#"{"id":6,"protocol":"consumer","strategy":"range","topics":{},"topic_ids":{},"members":[]}"#,
    ]
    .join("\n");
    let answers = kap_batch(&input);
    let errors: Vec<&str> = answers.iter().map(|a| a["error"].as_str().unwrap_or("")).collect();
    assert_eq!(errors[0], "topic_ids: no id for topic \"a\"");
    assert_eq!(errors[1], "strategy: unknown server assignor \"sticky\" (expected uniform or range)");
    assert!(errors[2].starts_with("topic_ids.a: input string `short` decoded as 3 bytes"), "{}", errors[2]);
    assert_eq!(errors[3], "members[0].owned: topic \"gone\" has no id in topic_ids");
    assert!(errors[4].contains("unknown field `generation`"), "{}", errors[4]);
    assert_eq!(answers[5]["assignment"], serde_json::json!({}));
}

#[test]
fn classic_lines_are_unchanged() {
    let classic = r#"{"id":"c","strategy":"range","topics":{"t0":3},"members":[{"id":"C0","topics":["t0"]}]}"#;
    let explicit = r#"{"id":"c","protocol":"classic","strategy":"range","topics":{"t0":3},"members":[{"id":"C0","topics":["t0"]}]}"#;
    let answers = kap_batch_lines(&format!("{classic}\n{explicit}\n"));
    assert_eq!(answers[0], r#"{"id":"c","assignment":{"C0":[["t0",0],["t0",1],["t0",2]]},"error":null}"#);
    assert_eq!(answers[1], answers[0]);
}

#[test]
fn random_groups_get_the_answer_kafkas_coordinator_classes_gave() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/consumer-lines.jsonl");
    let cases: Vec<Value> =
        std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(cases.len(), 50);
    let input: String = cases
        .iter()
        .map(|case| {
            let mut request = case.clone();
            let fields = request.as_object_mut().unwrap();
            fields.remove("expected");
            fields.remove("expected_error");
            format!("{request}\n")
        })
        .collect();
    let answers = kap_batch(&input);
    let mut throws = 0;
    for (case, answer) in cases.iter().zip(&answers) {
        match case.get("expected_error") {
            Some(error) => {
                throws += 1;
                assert_eq!(answer["error"], *error, "{}", case["id"]);
            }
            None => assert_eq!(answer["assignment"], case["expected"], "{}", case["id"]),
        }
    }
    assert_eq!(throws, 8);
}
