//! The seed articles' walkthroughs, step by step, as the explain mode shows them: every attempt
//! and its outcome, in order. Where an article describes an older Kafka, the steps are Kafka's own
//! today and the comment says what changed.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use assignor::trace::{replay, Step};
use assignor::{assign_traced, Group, Member, Strategy, Topic, TopicPartition};

fn group(topics: &[(&str, u32)], members: &[(&str, &[&str])]) -> Group {
    Group {
        topics: topics.iter().map(|&(t, n)| Topic::new(t, n)).collect(),
        members: members
            .iter()
            .map(|&(id, subscribed)| Member {
                id: id.into(),
                topics: subscribed.iter().map(|t| t.to_string()).collect(),
                ..Member::default()
            })
            .collect(),
    }
}

/// The decisions a walkthrough shows, in a compact form: `t2-0 -> C2`, `t2-0 x C0` (passed over),
/// `t0-0 = C0` (kept).
fn decisions(steps: &[Step]) -> Vec<String> {
    steps
        .iter()
        .filter_map(|step| match step {
            Step::Assign { partition, member } => Some(format!("{partition} -> {member}")),
            Step::Skip { partition, member, .. } => Some(format!("{partition} x {member}")),
            Step::Keep { partition, member } => Some(format!("{partition} = {member}")),
            Step::Move { partition, to, .. } => Some(format!("{partition} => {to}")),
            _ => None,
        })
        .collect()
}

fn walk(strategy: Strategy, group: &Group) -> Vec<Step> {
    let mut steps = Vec::new();
    let result = assign_traced(strategy, group, &mut steps).unwrap();
    let ids: Vec<String> = group.members.iter().map(|m| m.id.clone()).collect();
    assert_eq!(replay(&ids, &steps), result.members, "the trace replays to the answer");
    steps
}

#[test]
fn roundrobin_passes_over_consumers_that_do_not_subscribe() {
    // Seed 001: t0, t1, t2 with 1, 2, 3 partitions; C0: t0; C1: t0, t1; C2: t0, t1, t2.
    let g = group(
        &[("t0", 1), ("t1", 2), ("t2", 3)],
        &[("C0", &["t0"]), ("C1", &["t0", "t1"]), ("C2", &["t0", "t1", "t2"])],
    );
    let steps = walk(Strategy::RoundRobin, &g);
    assert_eq!(
        decisions(&steps),
        [
            "t0-0 -> C0",
            "t1-0 -> C1",
            "t1-1 -> C2",
            "t2-0 x C0",
            "t2-0 x C1",
            "t2-0 -> C2",
            "t2-1 x C0",
            "t2-1 x C1",
            "t2-1 -> C2",
            "t2-2 x C0",
            "t2-2 x C1",
            "t2-2 -> C2",
        ]
    );
    assert!(steps.iter().any(|s| s.to_string() == "Try t2-0 on C0: no, it does not subscribe to the topic; next."));
}

#[test]
fn range_cuts_each_topic_into_ranges() {
    // Seed 001: C0 and C1 subscribe to t0 and t1, three partitions each.
    let g = group(&[("t0", 3), ("t1", 3)], &[("C0", &["t0", "t1"]), ("C1", &["t0", "t1"])]);
    let steps = walk(Strategy::Range, &g);
    assert_eq!(decisions(&steps), ["t0-0 -> C0", "t0-1 -> C0", "t0-2 -> C1", "t1-0 -> C0", "t1-1 -> C0", "t1-2 -> C1"]);
    let quotas: Vec<String> =
        steps.iter().filter(|s| matches!(s, Step::RangeQuota { .. })).map(ToString::to_string).collect();
    assert_eq!(
        quotas,
        [
            "t0: 3 partitions over 2 consumers: 1 each, and the first gets one more.",
            "t1: 3 partitions over 2 consumers: 1 each, and the first gets one more."
        ]
    );
}

#[test]
fn sticky_deals_each_partition_to_the_least_loaded_subscriber() {
    // Seed 001's sticky initial assignment: partitions by how few consumers can take them (t2,
    // then t1, then t0), each to the first consumer in load order that subscribes; the load order
    // is sorted again after every assignment.
    let g = group(
        &[("t0", 1), ("t1", 2), ("t2", 3)],
        &[("C0", &["t0"]), ("C1", &["t0", "t1"]), ("C2", &["t0", "t1", "t2"])],
    );
    let steps = walk(Strategy::Sticky, &g);
    assert_eq!(
        decisions(&steps),
        [
            "t2-0 x C0",
            "t2-0 x C1",
            "t2-0 -> C2",
            "t2-1 x C0",
            "t2-1 x C1",
            "t2-1 -> C2",
            "t2-2 x C0",
            "t2-2 x C1",
            "t2-2 -> C2",
            "t1-0 x C0",
            "t1-0 -> C1",
            "t1-1 x C0",
            "t1-1 -> C1",
            "t0-0 -> C0",
        ]
    );
    let orders: Vec<String> = steps
        .iter()
        .filter_map(|s| match s {
            Step::Order { name, items } if name.starts_with("members by load") => Some(items.join(" ")),
            _ => None,
        })
        .collect();
    // Before t1-1: C1 has one partition, C2 three.
    assert_eq!(orders[4], "C0 (0) C1 (1) C2 (3)");
    assert_eq!(orders.len(), 6);
}

#[test]
fn sticky_after_a_crash_keeps_what_the_survivors_own() {
    // Seed 001: C0, C1, C2 on t0..t3 (2 partitions each); C1 crashes. The article walks through
    // Kafka before 2.7 and gives t0-1 to C2. Since KAFKA-9987 equal subscriptions take the
    // constrained path: survivors keep their partitions, then the orphans are dealt round-robin
    // to the members below their quota in id order, so t0-1 goes to C0.
    let topics = [("t0", 2), ("t1", 2), ("t2", 2), ("t3", 2)];
    let all: &[&str] = &["t0", "t1", "t2", "t3"];
    let mut g = group(&topics, &[("C0", all), ("C2", all)]);
    let tp = |t: &str, p| TopicPartition::new(t, p);
    g.members[0].owned = vec![tp("t0", 0), tp("t1", 1), tp("t3", 0)];
    g.members[1].owned = vec![tp("t1", 0), tp("t2", 1)];
    for m in &mut g.members {
        m.generation = Some(1);
    }
    let steps = walk(Strategy::Sticky, &g);
    assert_eq!(
        decisions(&steps),
        ["t0-0 = C0", "t3-0 = C0", "t1-1 = C0", "t1-0 = C2", "t2-1 = C2", "t0-1 -> C0", "t2-0 -> C2", "t3-1 -> C2"]
    );
    assert!(steps.iter().any(|s| s.to_string() == "Every member should end with exactly 4 partitions."));
}
