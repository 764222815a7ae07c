//! `check.rs`'s measures on groups small enough to count by hand.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use assignor::check::{metrics, needless_moves};
use assignor::rebalance::Lists;
use assignor::{Group, Member, Topic, TopicPartition};

fn tp(topic: &str, p: u32) -> TopicPartition {
    TopicPartition::new(topic, p)
}

fn member(id: &str, rack: Option<&str>, topics: &[&str]) -> Member {
    Member {
        id: id.into(),
        rack: rack.map(Into::into),
        topics: topics.iter().map(|t| t.to_string()).collect(),
        ..Member::default()
    }
}

fn racks(rows: &[&[&str]]) -> Vec<Vec<Option<String>>> {
    rows.iter().map(|r| r.iter().map(|s| Some(s.to_string())).collect()).collect()
}

/// `t` has replicas: p0 on a, p1 on b, p2 on a and b, p3 on no rack we know; `u` lists no racks.
/// A (rack a) holds t-0, t-1, t-3 and u-0; B (rack b) holds t-2; C (no rack) holds u-1.
/// Cross-rack: t-1 on A (only on b). Not t-0, t-2 (on the member's rack), not t-3 (no replica
/// rack known), not u (no racks listed), not C's (no rack).
#[test]
fn cross_rack_counts_partitions_whose_replicas_miss_the_members_rack() {
    let t = Topic { name: "t".into(), partitions: 4, replica_racks: racks(&[&["a"], &["b"], &["b", "a"], &[]]) };
    let group = Group {
        topics: vec![t, Topic::new("u", 2)],
        members: vec![member("A", Some("a"), &["t", "u"]), member("B", Some("b"), &["t"]), member("C", None, &["u"])],
    };
    let lists: Lists = [
        ("A".to_string(), vec![tp("t", 0), tp("t", 1), tp("t", 3), tp("u", 0)]),
        ("B".to_string(), vec![tp("t", 2)]),
        ("C".to_string(), vec![tp("u", 1)]),
    ]
    .into();
    let m = metrics(&group, &lists);
    assert_eq!(m.cross_rack, 1);
    // The same lists with B on rack c: t-2 is on a and b, so it crosses racks too.
    let mut on_c = group.clone();
    on_c.members[1].rack = Some("c".into());
    assert_eq!(metrics(&on_c, &lists).cross_rack, 2);
    // Without replica racks nothing is known to cross.
    let mut unknown = group.clone();
    unknown.topics[0].replica_racks.clear();
    assert_eq!(metrics(&unknown, &lists).cross_rack, 0);
    assert_eq!((m.min, m.max, m.assigned, m.unassigned), (1, 4, 6, 0));
    assert_eq!(m.topic_spread["t"], 2);
}

/// A owned t-0..t-3 and keeps t-0, t-1: with a count of 2 it had to give up two, so losing two is
/// not needless. B owned t-4, t-5 and keeps only t-4 while its count stays 2 (it gains t-2): one
/// needless move. C owned u-0, which it no longer subscribes to, and t-9, which does not exist:
/// neither counts. D left the group: not counted.
#[test]
fn needless_moves_count_losses_beyond_what_a_smaller_count_forces() {
    let group = Group {
        topics: vec![Topic::new("t", 6), Topic::new("u", 1)],
        members: vec![member("A", None, &["t"]), member("B", None, &["t"]), member("C", None, &["t", "u"])],
    };
    let before: Lists = [
        ("A".to_string(), vec![tp("t", 0), tp("t", 1), tp("t", 2), tp("t", 3)]),
        ("B".to_string(), vec![tp("t", 4), tp("t", 5)]),
        ("C".to_string(), vec![tp("u", 0), tp("t", 9)]),
        ("D".to_string(), vec![tp("t", 6)]),
    ]
    .into();
    let after: Lists = [
        ("A".to_string(), vec![tp("t", 0), tp("t", 1)]),
        ("B".to_string(), vec![tp("t", 4), tp("t", 2)]),
        ("C".to_string(), vec![tp("t", 3), tp("t", 5), tp("u", 0)]),
    ]
    .into();
    assert_eq!(needless_moves(&group, &before, &after), 1);
    // C unsubscribes from u: losing u-0 is forced, never needless.
    let mut unsubscribed = group.clone();
    unsubscribed.members[2].topics = vec!["t".into()];
    let mut after_c = after.clone();
    after_c.insert("C".to_string(), vec![tp("t", 3), tp("t", 5)]);
    assert_eq!(needless_moves(&unsubscribed, &before, &after_c), 1);
    // Nothing moved: nothing needless.
    assert_eq!(needless_moves(&group, &before, &before), 0);
}
