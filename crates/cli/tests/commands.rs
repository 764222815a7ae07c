//! `kap show`, `explain`, `link` and `preset` end to end.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::Value;

mod common;
use common::{kap, replay};

fn preset_file(id: &str) -> std::path::PathBuf {
    let (ok, text, _) = kap(&["preset", id]);
    assert!(ok);
    let path = std::env::temp_dir().join(format!("kap-test-{}-{id}.json", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// `kap explain --json`: the steps, then the whole assignment.
fn explain_json(file: &str, strategy: &str) -> (Vec<Value>, Value) {
    let (ok, out, err) = kap(&["explain", "--strategy", strategy, "--json", file]);
    assert!(ok, "{err}");
    let mut lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let last = lines.pop().unwrap();
    assert_eq!(last.as_object().unwrap().keys().collect::<Vec<_>>(), ["assignment"]);
    (lines, last["assignment"].clone())
}

#[test]
fn explain_json_steps_carry_their_changes_and_end_in_the_answer() {
    let file = preset_file("roundrobin-uneven");
    let (steps, assignment) = explain_json(file.to_str().unwrap(), "roundrobin");
    assert!(steps.iter().any(|s| s["text"] == "Try t2-0 on C0: no, it does not subscribe to the topic; next."));
    assert_eq!(
        steps.iter().map(|s| s["step"].as_u64().unwrap()).collect::<Vec<_>>(),
        (1..=steps.len() as u64).collect::<Vec<_>>()
    );
    let given = steps.iter().find(|s| s["text"] == "Give t1-1 to C2.").unwrap();
    assert_eq!(given["changes"], serde_json::json!([{ "member": "C2", "add": ["t1", 1] }]));
    assert_eq!(given["partition"], serde_json::json!(["t1", 1]));
    assert_eq!(steps[0]["changes"], serde_json::json!([]));
    assert_eq!(assignment["C0"], serde_json::json!([["t0", 0]]));
    assert_eq!(assignment["C1"], serde_json::json!([["t1", 0]]));
    assert_eq!(assignment["C2"], serde_json::json!([["t1", 1], ["t2", 0], ["t2", 1], ["t2", 2]]));
    assert_eq!(Value::Object(replay(&steps, &["C0", "C1", "C2"])), assignment);
    let (_, shown, _) = kap(&["show", "--json", file.to_str().unwrap()]);
    let shown: Value = serde_json::from_str(&shown).unwrap();
    assert_eq!(shown["strategies"]["roundrobin"]["assignment"], assignment);
}

#[test]
fn explain_json_reorders_whole_lists_only_when_kafka_sorts_them() {
    // Rack-aware range gives C0 its rack's t-3 first, then t-0, and sorts the lists at the end
    // (KIP-881): only C0's list changes order.
    let path = std::env::temp_dir().join(format!("kap-test-{}-sorted.json", std::process::id()));
    let line = r#"{"strategy":"range","topics":{"t":4},"partition_racks":{"t":[["r3"],["r2"],["r2"],["r1"]]},
        "members":[{"id":"C0","rack":"r1","topics":["t"]},{"id":"C1","rack":"r2","topics":["t"]}]}"#;
    std::fs::write(&path, line).unwrap();
    let (steps, assignment) = explain_json(path.to_str().unwrap(), "range");
    let reorders: Vec<&Value> =
        steps.iter().flat_map(|s| s["changes"].as_array().unwrap()).filter(|c| c.get("order").is_some()).collect();
    assert_eq!(reorders, [&serde_json::json!({ "member": "C0", "order": [["t", 0], ["t", 3]] })]);
    assert_eq!(assignment["C0"], serde_json::json!([["t", 0], ["t", 3]]));
    assert_eq!(assignment["C1"], serde_json::json!([["t", 1], ["t", 2]]));
    assert_eq!(Value::Object(replay(&steps, &["C0", "C1"])), assignment);
}

#[test]
fn show_after_a_crash_reports_the_moves() {
    let file = preset_file("sticky-crash-c3");
    let (ok, out, _) = kap(&["show", "--json", file.to_str().unwrap()]);
    assert!(ok);
    let shown: Value = serde_json::from_str(&out).unwrap();
    let sticky = &shown["strategies"]["sticky"];
    assert_eq!(sticky["assignment"]["C1"], serde_json::json!([["T", 0], ["T", 3], ["T", 2]]));
    assert_eq!(sticky["assignment"]["C2"], serde_json::json!([["T", 1], ["T", 4], ["T", 5]]));
    assert_eq!(sticky["moved"].as_array().unwrap().len(), 2);
    assert_eq!(sticky["metrics"]["needless_moves"], 0);
    assert_eq!(shown["strategies"]["cooperative-sticky"]["rounds"].as_array().unwrap().len(), 1);
    let (_, table, _) = kap(&["show", file.to_str().unwrap()]);
    assert!(table.contains("sticky moves: T-2 C3→C1, T-5 C3→C2"), "{table}");
}

#[test]
fn link_prints_the_url_alone_and_an_iframe_with_embed() {
    let file = preset_file("range-imbalance");
    let (ok, out, _) = kap(&["link", "--base", "https://example.org/kap/", file.to_str().unwrap()]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with("https://example.org/kap/#v1."));
    let fragment = lines[0].split('#').nth(1).unwrap();
    let scenario = scenario::link::decode(fragment).unwrap();
    assert_eq!(scenario.title, "Range: why one consumer carries 5 partitions and the other 3");
    let (_, out, _) = kap(&["link", "--embed", "--base", "https://example.org/kap/", file.to_str().unwrap()]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("https://example.org/kap/?embed#v1."));
    assert!(lines[1].starts_with("<iframe src=\"https://example.org/kap/?embed#v1."));
}

/// A large group's link is compact (format 2); one still too long to share is not printed.
#[test]
fn link_of_a_large_group_is_compact_or_refused_with_the_file_as_the_way() {
    let path = std::env::temp_dir().join(format!("kap-test-{}-large.json", std::process::id()));
    // 100 topics × 1,000 partitions and 500 consumers, owning what range gave them: format 2.
    let topics: Vec<String> = (0..100).map(|t| format!(r#"{{"name":"topic{t}","partitions":1000}}"#)).collect();
    let names: Vec<String> = (0..100).map(|t| format!(r#""topic{t}""#)).collect();
    let consumers: Vec<String> =
        (0..500).map(|i| format!(r#"{{"id":"consumer{i}","topics":[{}]}}"#, names.join(","))).collect();
    let owned: Vec<String> = (0..500)
        .map(|i| {
            let pairs: Vec<String> =
                (0..100).map(|t| format!(r#"["topic{t}",{}],["topic{t}",{}]"#, 2 * i, 2 * i + 1)).collect();
            format!(r#""consumer{i}":[{}]"#, pairs.join(","))
        })
        .collect();
    let file = format!(
        r#"{{"topics":[{}],"consumers":[{}],"previous":{{"generation":1,"assignments":{{"range":{{{}}}}}}}}}"#,
        topics.join(","),
        consumers.join(","),
        owned.join(",")
    );
    std::fs::write(&path, &file).unwrap();
    let (ok, out, err) = kap(&["link", path.to_str().unwrap()]);
    assert!(ok, "{err}");
    // The long form's link would be about 340,000 characters.
    assert!(out.starts_with("http://127.0.0.1:8080/#v2.") && out.len() < 10_000, "{} characters", out.len());
    let opened = scenario::link::decode(out.trim().split('#').nth(1).unwrap()).unwrap();
    assert_eq!(opened, scenario::Scenario { version: 2, ..scenario::read_file(&file).unwrap() });

    // 2,000 consumers whose ids hardly deflate: no link, the file is the way.
    let mut seed: u64 = 0x6b61_7020_6c69;
    let mut letter = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        char::from(b'a' + (seed % 26) as u8)
    };
    let consumers: Vec<String> = (0..2000)
        .map(|_| format!(r#"{{"id":"{}","topics":["t"]}}"#, (0..30).map(|_| letter()).collect::<String>()))
        .collect();
    std::fs::write(
        &path,
        format!(r#"{{"topics":[{{"name":"t","partitions":1}}],"consumers":[{}]}}"#, consumers.join(",")),
    )
    .unwrap();
    let (ok, out, err) = kap(&["link", path.to_str().unwrap()]);
    assert!(!ok && out.is_empty());
    assert!(err.starts_with("kap: link: the link would be "), "{err}");
    assert!(
        err.trim_end()
            .ends_with("chat tools cut links over 40000 characters. Share the scenario as a JSON file instead"),
        "{err}"
    );
}

#[test]
fn a_snapshot_file_opens_as_a_fresh_group_and_bad_files_say_why() {
    let path = std::env::temp_dir().join(format!("kap-test-{}-snapshot.json", std::process::id()));
    std::fs::write(&path, r#"{"strategy":"range","topics":{"t0":2},"members":[{"id":"a","topics":["t0"]}]}"#).unwrap();
    let (ok, out, _) = kap(&["link", path.to_str().unwrap()]);
    assert!(ok);
    assert!(out.trim().starts_with("http://127.0.0.1:8080/#v1."));
    std::fs::write(&path, r#"{"version": 9, "topics": []}"#).unwrap();
    let (ok, _, err) = kap(&["show", path.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("newer version"), "{err}");
    let (ok, _, err) = kap(&["explain", "--strategy", "nope", path.to_str().unwrap()]);
    assert!(!ok && err.contains("unknown strategy"), "{err}");
}

/// `link` refuses what the page would refuse when the link is opened, with the page's words.
#[test]
fn link_refuses_a_snapshot_the_page_refuses_with_the_page_message() {
    let path = std::env::temp_dir().join(format!("kap-test-{}-bad-name.json", std::process::id()));
    std::fs::write(&path, r#"{"strategy":"range","topics":{"a b":2},"members":[{"id":"a","topics":["a b"]}]}"#)
        .unwrap();
    let (ok, out, err) = kap(&["link", path.to_str().unwrap()]);
    assert!(!ok && out.is_empty());
    let page = "topic 1 name: ' ' is not allowed in a topic name (letters, digits, '.', '_' and '-' are)";
    assert_eq!(err, format!("kap: {}: {page}\n", path.display()));
    // The page refuses the same scenario with the same words.
    let scenario = scenario::Scenario {
        topics: vec![scenario::TopicSpec::new("a b", 2)],
        consumers: vec![scenario::ConsumerSpec::new("a", &["a b"])],
        ..scenario::Scenario::default()
    };
    assert_eq!(scenario::validate::errors(&scenario)[0].to_string(), page);
}

/// Topics with 0 partitions and replicas on rack-less brokers open everywhere.
#[test]
fn zero_partition_topics_and_rackless_brokers_open_in_show_explain_and_link() {
    let path = std::env::temp_dir().join(format!("kap-test-{}-metadata.json", std::process::id()));
    let snapshot = r#"{"strategy":"sticky","topics":{"events":0,"t0":2},"partition_racks":{"t0":[["a",null],[null]]},
        "members":[{"id":"a","rack":"a","topics":["events","t0"]},{"id":"b","rack":"b","topics":["t0"]}]}"#;
    std::fs::write(&path, snapshot.replace('\n', "")).unwrap();
    let file = path.to_str().unwrap();
    let (ok, out, err) = kap(&["show", "--json", file]);
    assert!(ok, "{err}");
    let shown: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(shown["strategies"]["sticky"]["assignment"], serde_json::json!({"a": [["t0", 0]], "b": [["t0", 1]]}));
    let (ok, _, err) = kap(&["explain", "--strategy", "range", file]);
    assert!(ok, "{err}");
    let (ok, out, err) = kap(&["link", file]);
    assert!(ok, "{err}");
    let linked = scenario::link::decode(out.trim().split('#').nth(1).unwrap()).unwrap();
    assert_eq!(linked.topics[0].partitions, 0);
    assert_eq!(linked.topics[1].rack_overrides[&0], [Some("a".to_string()), None]);
}

/// An endless or huge input is refused after reading just past the limit, not read whole.
#[test]
fn show_dev_zero_stops_at_the_file_limit_with_a_message() {
    let started = std::time::Instant::now();
    let (ok, out, err) = kap(&["show", "/dev/zero"]);
    assert!(!ok && out.is_empty());
    assert_eq!(err, "kap: /dev/zero: larger than 64 MiB, the most kap reads from a file\n");
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}
