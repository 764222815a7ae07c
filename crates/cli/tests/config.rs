//! `kap config`: each client's settings and the migration steps, by their key lines.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::Value;

mod common;
use common::kap;

fn lines(args: &[&str]) -> Vec<String> {
    let (ok, out, err) = kap(args);
    assert!(ok, "{err}");
    out.lines().map(|l| l.trim().to_string()).collect()
}

#[test]
fn each_client_gets_its_exact_settings() {
    let text = lines(&["config", "--strategy", "cooperative-sticky"]);
    for expected in [
        "partition.assignment.strategy=org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
        "spring.kafka.consumer.properties.partition.assignment.strategy=org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
        "partition.assignment.strategy=cooperative-sticky",
        "kgo.Balancers(kgo.CooperativeStickyBalancer())",
    ] {
        assert!(text.iter().any(|l| l == expected), "missing {expected:?} in {text:#?}");
    }
    let text = lines(&["config", "--strategy", "roundrobin"]);
    assert!(text.iter().any(|l| l == "kgo.Balancers(kgo.RoundRobinBalancer())"));
    assert!(text.iter().any(|l| l == "partition.assignment.strategy=roundrobin"));
    let text = lines(&["config", "--strategy", "sticky"]);
    assert!(text.iter().any(|l| l.contains("librdkafka has no eager sticky assignor")));
}

#[test]
fn the_consumer_protocol_names_its_server_assignor() {
    let text = lines(&["config", "--strategy", "uniform"]);
    assert_eq!(text[0], "Settings for uniform (consumer protocol, KIP-848)");
    assert!(text.iter().any(|l| l == "group.protocol=consumer"));
    assert!(text.iter().any(|l| l == "group.remote.assignor=uniform"));
    assert!(text.iter().any(|l| l == "spring.kafka.consumer.properties.group.remote.assignor=uniform"));
    assert!(!text.iter().any(|l| l.starts_with("Migrating")));
    let text = lines(&["config", "--strategy", "consumer-range"]);
    assert!(text.iter().any(|l| l == "group.remote.assignor=range"));
    assert!(text.iter().any(|l| l == "kgo.Balancers(kgo.RangeBalancer())"));
}

#[test]
fn from_range_the_migration_takes_two_bounces_and_names_the_trap() {
    let text = lines(&["config", "--strategy", "cooperative-sticky"]);
    let steps: Vec<&String> = text.iter().skip_while(|l| !l.starts_with("Migrating")).collect();
    assert_eq!(steps[0], "Migrating in 2 rolling bounce(s):");
    assert_eq!(steps[1], "1. Today: the group uses range and rebalances EAGER: every rebalance stops every partition.");
    assert!(steps[3].starts_with("3. After the first rolling bounce: every member lists [cooperative-sticky, range]: the group uses cooperative-sticky and rebalances EAGER"));
    assert_eq!(
        steps[5],
        "5. After the second rolling bounce: every member lists [cooperative-sticky]: the group uses \
         cooperative-sticky and rebalances COOPERATIVE: only the partitions that move stop."
    );
    assert!(
        steps[6].starts_with("Do not: one rolling bounce straight to [cooperative-sticky], midway (C0, C1 restarted)")
    );
    assert!(steps[6].contains("C0, C1 share no strategy with the group and are refused (INCONSISTENT_GROUP_PROTOCOL)"));
    assert!(steps[7].starts_with("librdkafka clients cannot take this path"));
}

#[test]
fn the_migration_starts_from_the_files_consumers() {
    let (ok, preset, _) = kap(&["preset", "range-imbalance"]);
    assert!(ok);
    let path = std::env::temp_dir().join(format!("kap-config-{}.json", std::process::id()));
    std::fs::write(&path, preset).unwrap();
    let (ok, out, err) = kap(&["config", "--json", "--strategy", "cooperative-sticky", path.to_str().unwrap()]);
    assert!(ok, "{err}");
    let json: Value = serde_json::from_str(&out).unwrap();
    let steps = json["migration"]["steps"].as_array().unwrap();
    // The preset's consumers keep Kafka 3.0+'s default [range, cooperative-sticky]: one bounce.
    assert_eq!(steps.len(), 3);
    assert_eq!(steps[0]["lists"][0][1], serde_json::json!(["range", "cooperative-sticky"]));
    assert_eq!(steps[2]["protocol"], "COOPERATIVE");
    assert_eq!(json["migration"]["trap"], Value::Null);
}

#[test]
fn an_unknown_strategy_is_refused() {
    let (ok, _, err) = kap(&["config", "--strategy", "fair"]);
    assert!(!ok);
    assert!(err.contains("unknown strategy \"fair\""), "{err}");
}
