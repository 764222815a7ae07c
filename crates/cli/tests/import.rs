//! `kap import` end to end: the scenario on stdout is one `kap show` reads, and the notes and
//! unread lines are on stderr.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::Value;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenario/tests/data/import");

mod common;
use common::kap;

fn imported(args: &[&str], name: &str) -> std::path::PathBuf {
    let sample = format!("{DATA}/messy.txt");
    let mut all = vec!["import", sample.as_str()];
    all.extend_from_slice(args);
    let (ok, out, err) = kap(&all);
    assert!(ok, "{err}");
    let path = std::env::temp_dir().join(format!("kap-import-{}-{name}.json", std::process::id()));
    std::fs::write(&path, out).unwrap();
    path
}

#[test]
fn an_imported_group_shows_with_no_move_under_its_own_strategy() {
    let file = imported(&["--group", "orders-app"], "orders");
    let (ok, out, err) = kap(&["show", "--json", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    let shown: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(shown["group_strategy"], "cooperative-sticky");
    assert_eq!(shown["strategies"]["cooperative-sticky"]["moved"], serde_json::json!([]));
    assert_eq!(shown["strategies"]["range"]["moved"].as_array().unwrap().len(), 9);
}

#[test]
fn notes_and_unread_lines_go_to_stderr() {
    let sample = format!("{DATA}/messy.txt");
    let (ok, out, err) = kap(&["import", &sample, "--group", "orders-app", "--weights", "lag"]);
    assert!(ok, "{err}");
    assert!(err.contains("inferred: each member subscribes to the topics the group consumes"), "{err}");
    assert!(err.contains("inferred: weights are each partition's LAG"), "{err}");
    assert!(err.contains("unread line 40: a row of the --describe table (line 30) that cannot be read: no CONSUMER-ID"));
    assert_eq!(err.lines().filter(|l| l.starts_with("unread line ")).count(), 5);
    let scenario: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(scenario["view"]["weight_unit"], "LAG");
}

#[test]
fn a_paste_that_cannot_be_placed_fails_with_the_reason() {
    let sample = format!("{DATA}/kafka-3.9-members-only.txt");
    let (ok, out, err) = kap(&["import", &sample]);
    assert!(!ok);
    assert!(out.is_empty());
    assert!(err.contains("print ASSIGNMENT without topic names"), "{err}");
}

#[test]
fn lag_weights_show_as_load_and_move_nothing() {
    let file = imported(&["--group", "orders-app", "--weights", "lag"], "lag");
    let (ok, out, err) = kap(&["show", "--json", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    let shown: Value = serde_json::from_str(&out).unwrap();
    let own = &shown["strategies"]["cooperative-sticky"];
    assert_eq!(own["moved"], serde_json::json!([]));
    // orders-5 has LAG 222; the row of orders-1 is cut short in this paste, so it weighs 1.
    let load = &own["metrics"]["load"];
    assert_eq!(load["weights"]["orders-app-0-3f1c9e2a-5b7d-4e11-9c3a-2d8e6f4b1a70"], 223);
    // audit-0 120 + orders-2 111 + payments-0 9 (the row the terminal wrapped).
    assert_eq!(load["weights"]["consumer-orders-app-2-8a41d0b5-77c2-4f0e-b1d9-0c5e3a2f9d16"], 240);
    // audit-1 157 + orders-3 148 + payments-1 46: balanced by count (3 partitions), heaviest by traffic.
    assert_eq!(load["weights"]["consumer-orders-app-3-c02e7f4d-1a9b-4d3c-8e6f-5b7a9c1d2e48"], 351);
    assert_eq!(load["total"], 1119);
    assert_eq!(load["most_loaded"], serde_json::json!(["consumer-orders-app-3-c02e7f4d-1a9b-4d3c-8e6f-5b7a9c1d2e48"]));
    let (_, table, _) = kap(&["show", file.to_str().unwrap()]);
    assert!(table.contains("load (LAG)"), "{table}");
}
