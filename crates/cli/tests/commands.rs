//! `kap show`, `explain`, `link` and `preset` end to end.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

use serde_json::Value;

fn kap(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_kap")).args(args).output().expect("kap runs");
    (output.status.success(), String::from_utf8(output.stdout).unwrap(), String::from_utf8(output.stderr).unwrap())
}

fn preset_file(id: &str) -> std::path::PathBuf {
    let (ok, text, _) = kap(&["preset", id]);
    assert!(ok);
    let path = std::env::temp_dir().join(format!("kap-test-{}-{id}.json", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn explain_json_steps_end_in_the_answer() {
    let file = preset_file("roundrobin-uneven");
    let (ok, out, err) = kap(&["explain", "--strategy", "roundrobin", "--json", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    let steps: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(steps.iter().any(|s| s["text"] == "Try t2-0 on C0: no, it does not subscribe to the topic; next."));
    assert_eq!(
        steps.iter().map(|s| s["step"].as_u64().unwrap()).collect::<Vec<_>>(),
        (1..=steps.len() as u64).collect::<Vec<_>>()
    );
    let last = &steps.last().unwrap()["assignment"];
    assert_eq!(last["C0"], serde_json::json!([["t0", 0]]));
    assert_eq!(last["C1"], serde_json::json!([["t1", 0]]));
    assert_eq!(last["C2"], serde_json::json!([["t1", 1], ["t2", 0], ["t2", 1], ["t2", 2]]));
    let (_, shown, _) = kap(&["show", "--json", file.to_str().unwrap()]);
    let shown: Value = serde_json::from_str(&shown).unwrap();
    assert_eq!(&shown["strategies"]["roundrobin"]["assignment"], last);
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
