//! The server-side assignors' traces: exact steps for small groups worked out by hand from Kafka's
//! builders, and on random groups, replaying the steps from nothing rebuilds the target the untraced
//! call returns.

use proptest::prelude::*;

use super::*;
use crate::trace::{replay, LossReason, Step};

fn tp(topic: &str, partition: u32) -> TopicPartition {
    TopicPartition::new(topic, partition)
}

/// A topic with an id made from its name's first letter (any fixed id does: these tests list their maps).
fn topic(name: &str, partitions: u32) -> TopicImage {
    let letter = i64::from(name.as_bytes()[0]);
    TopicImage { name: name.into(), id: Uuid::new(letter << 40 | 0x4000, letter), partitions }
}

fn member(id: &str, topics: &[&str], target: &[(&TopicImage, &[u32])]) -> ConsumerMember {
    ConsumerMember {
        id: id.into(),
        topics: topics.iter().map(|t| t.to_string()).collect(),
        target: target.iter().map(|(t, ps)| (t.id, ps.to_vec())).collect(),
        ..ConsumerMember::default()
    }
}

/// Members and targets iterate as listed, as Kafka's own tests build them.
const LISTED: SpecOptions =
    SpecOptions { members: MapOrder::Listed, targets: MapOrder::Listed, subscription_type: None };

fn traced(assignor: ServerAssignor, group: &ConsumerGroup) -> (Vec<Step>, TargetAssignment) {
    let mut steps = Vec::new();
    let target = PreparedGroup::new(group, &LISTED).unwrap().assign_traced(assignor, &mut steps).unwrap();
    (steps, target)
}

fn note(text: &str) -> Step {
    Step::Note { text: text.into() }
}

fn order(name: &str, items: &[&str]) -> Step {
    Step::Order { name: name.into(), items: items.iter().map(|s| s.to_string()).collect() }
}

fn keep(topic: &str, partition: u32, member: &str) -> Step {
    Step::Keep { partition: tp(topic, partition), member: member.into() }
}

fn assign(topic: &str, partition: u32, member: &str) -> Step {
    Step::Assign { partition: tp(topic, partition), member: member.into() }
}

fn lose(topic: &str, partition: u32, member: &str, reason: LossReason) -> Step {
    Step::Lose { partition: tp(topic, partition), member: member.into(), reason }
}

fn moved(topic: &str, partition: u32, from: &str, to: &str) -> Step {
    Step::Move { partition: tp(topic, partition), from: from.into(), to: to.into() }
}

/// The steps' replay is the answer, and tracing changes nothing.
fn assert_replays(assignor: ServerAssignor, group: &ConsumerGroup, steps: &[Step], target: &TargetAssignment) {
    let members: Vec<String> = group.members.iter().map(|m| m.id.clone()).collect();
    assert_eq!(&replay(&members, steps), &target.members);
    let untraced = PreparedGroup::new(group, &LISTED).unwrap().assign(assignor).unwrap();
    assert_eq!(&untraced, target);
}

/// Topic `a` (3 partitions): A then B in member order, B owning all of `a` and partition 0 of `b`,
/// which nobody subscribes to. 3 over 2: A, first, may hold 2; B 1. B keeps `a-0` (its set's first),
/// gives back `a-1` and `a-2`, drops `b-0`; A, under its quota by 2, takes what B gave back.
#[test]
fn homogeneous_quotas_keep_up_to_the_quota_and_hand_out_the_rest_in_member_order() {
    let (a, b) = (topic("a", 3), topic("b", 1));
    let group = ConsumerGroup {
        members: vec![member("A", &["a"], &[]), member("B", &["a"], &[(&a, &[0, 1, 2]), (&b, &[0])])],
        topics: vec![a, b],
    };
    let (steps, target) = traced(ServerAssignor::Uniform, &group);
    assert_eq!(
        steps,
        [
            note("every member subscribes to the same topics: uniform's homogeneous builder"),
            order("topics (the first member's subscription, a HashSet of topic ids)", &["a"]),
            Step::UniformQuota { partitions: 3, members: 2, per_member: 1, extra: 1 },
            order("members (the coordinator's member map, a HashMap by member id)", &["A", "B"]),
            Step::MemberQuota { member: "A".into(), quota: 2, extra: true },
            Step::MemberQuota { member: "B".into(), quota: 1, extra: false },
            keep("a", 0, "B"),
            lose("a", 1, "B", LossReason::OverQuota),
            lose("a", 2, "B", LossReason::OverQuota),
            lose("b", 0, "B", LossReason::NotSubscribed),
            order(
                "unassigned partitions (nobody's, topics in the order above, then those given back)",
                &["a-1", "a-2"]
            ),
            order("members under their quota, in member order, with the room each has left", &["A (2)"]),
            assign("a", 1, "A"),
            assign("a", 2, "A"),
            Step::SortLists,
        ]
    );
    assert_eq!(target.members["A"], [tp("a", 1), tp("a", 2)]);
    assert_eq!(target.members["B"], [tp("a", 0)]);
    assert_replays(ServerAssignor::Uniform, &group, &steps, &target);
    assert_eq!(
        steps.iter().map(ToString::to_string).take(6).collect::<Vec<_>>(),
        [
            "Every member subscribes to the same topics: uniform's homogeneous builder.",
            "Sort topics (the first member's subscription, a HashSet of topic ids): a.",
            "3 partitions over 2 members: each may hold 1, and the first in member order one more.",
            "Sort members (the coordinator's member map, a HashMap by member id): A, B.",
            "A may hold 2 partitions, one of them extra.",
            "B may hold 1 partition.",
        ]
    );
}

/// 5 partitions over 3 members, nobody owning any: 1 each and the first 2 one more; the pool is the
/// topic's partitions in order, each member under quota taking its share in member order.
#[test]
fn homogeneous_fresh_group_deals_the_pool_to_the_members_in_order() {
    let t = topic("t", 5);
    let group = ConsumerGroup {
        topics: vec![t],
        members: vec![member("C", &["t"], &[]), member("A", &["t"], &[]), member("B", &["t"], &[])],
    };
    let (steps, target) = traced(ServerAssignor::Uniform, &group);
    assert_eq!(steps[2], Step::UniformQuota { partitions: 5, members: 3, per_member: 1, extra: 2 });
    assert_eq!(
        &steps[7..],
        [
            order(
                "unassigned partitions (nobody's, topics in the order above, then those given back)",
                &["t-0", "t-1", "t-2", "t-3", "t-4"]
            ),
            order(
                "members under their quota, in member order, with the room each has left",
                &["C (2)", "A (2)", "B (1)"]
            ),
            assign("t", 0, "C"),
            assign("t", 1, "C"),
            assign("t", 2, "A"),
            assign("t", 3, "A"),
            assign("t", 4, "B"),
            Step::SortLists,
        ]
    );
    assert_replays(ServerAssignor::Uniform, &group, &steps, &target);
}

/// A [a], B [a, b], C [b]; `a` 4 partitions, all A's (and A owned `c-0`, which nobody subscribes to
/// any more), `b` 2, both C's. Nothing is unowned. Balancing `a` (0 to 4): A's highest partitions go
/// to B, the least loaded, until the two are within one; `b` (2 and 2) is balanced; the second pass
/// reaches `a` again with nothing moved since: done.
#[test]
fn heterogeneous_keeps_what_is_subscribed_and_balances_each_topic() {
    let (a, b, c) = (topic("a", 4), topic("b", 2), topic("c", 1));
    let group = ConsumerGroup {
        members: vec![
            member("A", &["a"], &[(&a, &[0, 1, 2, 3]), (&c, &[0])]),
            member("B", &["a", "b"], &[]),
            member("C", &["b"], &[(&b, &[0, 1])]),
        ],
        topics: vec![a, b, c],
    };
    let (steps, target) = traced(ServerAssignor::Uniform, &group);
    assert_eq!(
        steps,
        [
            note(
                "members subscribe to different topics: uniform's heterogeneous builder (as Kafka 4.0 rewrote it, \
                 KAFKA-17710)"
            ),
            order("members (numbered in member-map order; the number breaks ties)", &["A", "B", "C"]),
            keep("a", 0, "A"),
            keep("a", 1, "A"),
            keep("a", 2, "A"),
            keep("a", 3, "A"),
            lose("c", 0, "A", LossReason::NotSubscribed),
            keep("b", 0, "C"),
            keep("b", 1, "C"),
            note("every partition of a subscribed topic is kept: nothing to deal"),
            order("topics to balance (two subscribers or more, in the same order)", &["a", "b"]),
            note("balancing pass 1 over the topics (at most 16)"),
            note(
                "balance a: its subscribers hold 0 to 4 partitions; move the most loaded ones' highest partitions \
                 to the least loaded"
            ),
            order("subscribers by load (partitions held, then member number)", &["B (0)", "A (4)"]),
            moved("a", 3, "A", "B"),
            moved("a", 2, "A", "B"),
            note("stop balancing a: the subscribers left to give and to take are within one partition"),
            note("balancing pass 2 over the topics (at most 16)"),
            note("a whole round of the topics since the last move moved nothing: balanced"),
            Step::SortLists,
        ]
    );
    assert_eq!(target.members["A"], [tp("a", 0), tp("a", 1)]);
    assert_eq!(target.members["B"], [tp("a", 2), tp("a", 3)]);
    assert_eq!(target.members["C"], [tp("b", 0), tp("b", 1)]);
    assert_replays(ServerAssignor::Uniform, &group, &steps, &target);
}

/// A [a], B [a, b]; `a` 3 partitions, `b` 1, nothing owned. `a` (3 per subscriber) first: B, then A
/// (both at 0, member number breaks the tie, the range filling level by level); then `b` to B's
/// subscribers, B alone.
#[test]
fn heterogeneous_deals_unowned_partitions_to_the_least_loaded_subscriber() {
    let (a, b) = (topic("a", 3), topic("b", 1));
    let group =
        ConsumerGroup { topics: vec![a, b], members: vec![member("A", &["a"], &[]), member("B", &["a", "b"], &[])] };
    let (steps, target) = traced(ServerAssignor::Uniform, &group);
    assert_eq!(
        &steps[2..13],
        [
            order(
                "topics with unowned partitions (most partitions per subscriber first, then fewest subscribers, \
                 then topic id)",
                &["a", "b"]
            ),
            note("deal a's 3 unowned partitions to its subscribers, least loaded first"),
            order("subscribers by load (partitions held, then member number)", &["A (0)", "B (0)"]),
            assign("a", 0, "A"),
            assign("a", 1, "B"),
            assign("a", 2, "A"),
            note("deal b's 1 unowned partition to its subscribers, least loaded first"),
            order("subscribers by load (partitions held, then member number)", &["B (1)"]),
            assign("b", 0, "B"),
            order("topics to balance (two subscribers or more, in the same order)", &["a"]),
            note("balancing pass 1 over the topics (at most 16)"),
        ]
    );
    assert_eq!(target.members["A"], [tp("a", 0), tp("a", 2)]);
    assert_eq!(target.members["B"], [tp("a", 1), tp("b", 0)]);
    assert_replays(ServerAssignor::Uniform, &group, &steps, &target);
}

/// A [t], B [t, u], static S [u]; `t` 5 partitions, `u` 3. S first (static members lead), then A, B.
/// `t`: 2 each over A and B, A one more; `u`: 1 each over S and B, S one more. What A owns is ignored.
#[test]
fn server_range_gives_each_member_in_order_its_range_of_each_topic() {
    let (t, u) = (topic("t", 5), topic("u", 3));
    let mut s = member("S", &["u"], &[]);
    s.instance_id = Some("s1".into());
    let group = ConsumerGroup {
        members: vec![member("A", &["t"], &[(&u, &[0])]), member("B", &["u", "t"], &[]), s],
        topics: vec![t, u],
    };
    let (steps, target) = traced(ServerAssignor::Range, &group);
    assert_eq!(
        steps,
        [
            note(
                "members subscribe to different topics: each topic's partitions are cut into contiguous ranges \
                 over its subscribers; current targets are ignored (range is not sticky since KAFKA-16944)"
            ),
            order("members (static by group.instance.id first, then by member id)", &["S", "A", "B"]),
            Step::RangeQuota { topic: "t".into(), consumers: 2, per_consumer: 2, extra: 1 },
            Step::RangeQuota { topic: "u".into(), consumers: 2, per_consumer: 1, extra: 1 },
            assign("u", 0, "S"),
            assign("u", 1, "S"),
            assign("t", 0, "A"),
            assign("t", 1, "A"),
            assign("t", 2, "A"),
            assign("t", 3, "B"),
            assign("t", 4, "B"),
            assign("u", 2, "B"),
        ]
    );
    assert_replays(ServerAssignor::Range, &group, &steps, &target);
    assert_eq!(steps[2].to_string(), "t: 5 partitions over 2 consumers: 2 each, and the first gets one more.");
}

/// Targets the coordinator never writes, but a group can be given: A holds `a-3`, B all of `a`. 5 over
/// 2: A may hold 3, B 2. B keeps `a-0` and `a-1` and gives back the rest; A, with room for 2, takes
/// `a-2`, then `a-3`, which it holds already (a set holds it once): `a-4` is left over, and Kafka
/// throws.
#[test]
fn homogeneous_partition_held_twice_comes_back_to_its_keeper_and_one_is_left_over() {
    let a = topic("a", 5);
    let group = ConsumerGroup {
        members: vec![member("A", &["a"], &[(&a, &[3])]), member("B", &["a"], &[(&a, &[0, 1, 2, 3, 4])])],
        topics: vec![a],
    };
    let mut steps = Vec::new();
    let answer = PreparedGroup::new(&group, &LISTED).unwrap().assign_traced(ServerAssignor::Uniform, &mut steps);
    assert_eq!(answer, Err(CoordinatorError::PartitionAssignor("Partitions were left unassigned")));
    assert_eq!(
        &steps[5..],
        [
            keep("a", 3, "A"),
            Step::MemberQuota { member: "B".into(), quota: 2, extra: false },
            keep("a", 0, "B"),
            keep("a", 1, "B"),
            lose("a", 2, "B", LossReason::OverQuota),
            lose("a", 3, "B", LossReason::OverQuota),
            lose("a", 4, "B", LossReason::OverQuota),
            order(
                "unassigned partitions (nobody's, topics in the order above, then those given back)",
                &["a-2", "a-3", "a-4"]
            ),
            order("members under their quota, in member order, with the room each has left", &["A (2)"]),
            assign("a", 2, "A"),
            note("give a-3 to A, which holds it already: its target, a set, does not change"),
            note("1 partition is left over: no member has room for it"),
        ]
    );
}

fn random_group() -> impl Strategy<Value = (ConsumerGroup, bool)> {
    let names = ["a", "b", "c"];
    let member = (prop::collection::vec(0..3usize, 0..=3), prop::collection::vec((0..3usize, 0..7u32), 0..6));
    (prop::collection::vec(member, 1..6), prop::collection::vec(0..6u32, 3), any::<bool>()).prop_map(
        move |(members, counts, hashed)| {
            let topics: Vec<TopicImage> = names.iter().zip(&counts).map(|(n, &c)| topic(n, c)).collect();
            let members = members
                .into_iter()
                .enumerate()
                .map(|(i, (subscribed, owned))| {
                    let mut target: Vec<(Uuid, Vec<u32>)> = Vec::new();
                    for (t, p) in owned {
                        // Within the topic: an index beyond it is Kafka's own exception, tested elsewhere.
                        let Some(p) = p.checked_rem(topics[t].partitions) else { continue };
                        match target.iter_mut().find(|(id, _)| *id == topics[t].id) {
                            Some((_, list)) if !list.contains(&p) => list.push(p),
                            Some(_) => {}
                            None => target.push((topics[t].id, vec![p])),
                        }
                    }
                    ConsumerMember {
                        id: format!("m{i}"),
                        topics: subscribed.iter().map(|&t| names[t].to_string()).collect(),
                        target,
                        ..ConsumerMember::default()
                    }
                })
                .collect();
            (ConsumerGroup { topics, members }, hashed)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x7761_6c6b),
        .. ProptestConfig::default()
    })]

    /// Whatever the group (targets overlapping, unsubscribed, over quota), replaying the steps gives
    /// the untraced answer, or the trace ends where the untraced call fails.
    #[test]
    fn replaying_the_steps_rebuilds_the_target((group, hashed) in random_group()) {
        let options = if hashed { SpecOptions::default() } else { LISTED };
        let prepared = PreparedGroup::new(&group, &options).unwrap();
        let members: Vec<String> = group.members.iter().map(|m| m.id.clone()).collect();
        for assignor in ServerAssignor::ALL {
            let mut steps = Vec::new();
            let traced = prepared.assign_traced(assignor, &mut steps);
            prop_assert_eq!(&traced, &prepared.assign(assignor));
            if let Ok(target) = traced {
                prop_assert_eq!(&replay(&members, &steps), &target.members, "{} {:#?}", assignor, steps);
            }
        }
    }
}
