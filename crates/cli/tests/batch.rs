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
