//! The new consumer protocol (KIP-848): what the coordinator's way of feeding its assignors changes,
//! and reconciliation properties over random groups and rebalances (no partition consumed by two
//! members at once; every member reaches its target; a kept partition never stops).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};

use assignor::consumer_group::reconcile::simulate;
use assignor::consumer_group::{
    target_assignment, ConsumerGroup, ConsumerMember, CoordinatorError, ServerAssignor, SubscriptionType, TopicImage,
};
use assignor::{TopicPartition, Uuid};
use proptest::prelude::*;

fn topic(name: &str, id: i64, partitions: u32) -> TopicImage {
    TopicImage { name: name.into(), id: Uuid::new(id, id.wrapping_mul(31)), partitions }
}

fn member(id: &str, topics: &[&str]) -> ConsumerMember {
    ConsumerMember {
        id: id.into(),
        topics: topics.iter().map(|t| t.to_string()).collect(),
        ..ConsumerMember::default()
    }
}

fn sizes(target: &BTreeMap<String, Vec<TopicPartition>>) -> Vec<usize> {
    target.values().map(Vec::len).collect()
}

#[test]
fn a_missing_topic_makes_the_group_heterogeneous() {
    let topics = vec![topic("a", 1, 4)];
    let alike = ConsumerGroup { topics: topics.clone(), members: vec![member("m1", &["a"]), member("m2", &["a"])] };
    let missing = ConsumerGroup { topics, members: vec![member("m1", &["a", "gone"]), member("m2", &["a"])] };
    let alike = target_assignment(ServerAssignor::Uniform, &alike).unwrap();
    let missing = target_assignment(ServerAssignor::Uniform, &missing).unwrap();
    assert_eq!(alike.subscription_type, SubscriptionType::Homogeneous);
    assert_eq!(missing.subscription_type, SubscriptionType::Heterogeneous);
    // Both balance, but the builders deal differently.
    assert_eq!(sizes(&alike.members), [2, 2]);
    assert_eq!(sizes(&missing.members), [2, 2]);
}

#[test]
fn member_map_order_decides_who_gets_the_extra_partition() {
    // 3 partitions for 2 members: the first member in HashMap order gets two, whatever the input order.
    let topics = vec![topic("a", 1, 3)];
    for members in [vec![member("m1", &["a"]), member("m2", &["a"])], vec![member("m2", &["a"]), member("m1", &["a"])]]
    {
        let target =
            target_assignment(ServerAssignor::Uniform, &ConsumerGroup { topics: topics.clone(), members }).unwrap();
        // "m1".hashCode() = 3428 lands in bucket 4 of 16, "m2" in bucket 5: Java iterates m1 first.
        assert_eq!(target.members["m1"].len(), 2);
        assert_eq!(target.members["m2"].len(), 1);
    }
}

#[test]
fn an_owned_partition_beyond_the_topic_makes_kafka_throw() {
    let topics = vec![topic("a", 1, 2), topic("b", 2, 2)];
    let id_a = topics[0].id;
    let mut owner = member("m1", &["a"]);
    owner.target = vec![(id_a, vec![0, 1, 7])];
    let homogeneous = ConsumerGroup { topics: topics.clone(), members: vec![owner.clone(), member("m2", &["a"])] };
    assert_eq!(
        target_assignment(ServerAssignor::Uniform, &homogeneous).unwrap_err(),
        CoordinatorError::PartitionAssignor("Partitions were left unassigned")
    );
    let heterogeneous = ConsumerGroup { topics, members: vec![owner, member("m2", &["a", "b"])] };
    let error = target_assignment(ServerAssignor::Uniform, &heterogeneous).unwrap_err();
    assert_eq!(error.to_string(), "ArrayIndexOutOfBoundsException: Index 7 out of bounds for length 2");
    // Range ignores what members own.
    assert!(target_assignment(ServerAssignor::Range, &heterogeneous).is_ok());
}

/// A random group: 1–5 topics of 0–12 partitions, 1–8 members on random subsets.
fn groups() -> impl Strategy<Value = ConsumerGroup> {
    (
        prop::collection::vec(0u32..13, 1..6),
        prop::collection::vec(prop::collection::vec(any::<bool>(), 5), 1..9),
        any::<u64>(),
    )
        .prop_map(|(counts, subscriptions, seed)| {
            let topics: Vec<TopicImage> =
                counts.iter().enumerate().map(|(i, &n)| topic(&format!("t{i}"), seed as i64 ^ i as i64, n)).collect();
            let members = subscriptions
                .iter()
                .enumerate()
                .map(|(i, picks)| {
                    let names: Vec<String> =
                        topics.iter().zip(picks).filter(|(_, &p)| p).map(|(t, _)| t.name.clone()).collect();
                    ConsumerMember {
                        id: format!("member-{i}-{}", seed % 97),
                        topics: names,
                        ..ConsumerMember::default()
                    }
                })
                .collect();
            ConsumerGroup { topics, members }
        })
}

/// The group after one change, members owning their previous target.
fn changed(group: &ConsumerGroup, previous: &BTreeMap<String, Vec<TopicPartition>>, change: u8) -> ConsumerGroup {
    let mut next = group.clone();
    match change % 4 {
        0 => next.members.push(member("newcomer", &["t0"])),
        1 if next.members.len() > 1 => {
            next.members.remove(0);
        }
        2 => {
            if let Some(t) = next.topics.first_mut() {
                t.partitions += 3;
            }
        }
        _ => {
            if let Some(m) = next.members.last_mut() {
                m.topics = next.topics.iter().map(|t| t.name.clone()).collect();
            }
        }
    }
    for m in &mut next.members {
        let mut target: Vec<(Uuid, Vec<u32>)> = Vec::new();
        for tp in previous.get(&m.id).into_iter().flatten() {
            let id = group.topics.iter().find(|t| *t.name == *tp.topic).map(|t| t.id).unwrap();
            match target.iter_mut().find(|(t, _)| *t == id) {
                Some((_, list)) => list.push(tp.partition),
                None => target.push((id, vec![tp.partition])),
            }
        }
        m.target = target;
    }
    next
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn reconciliation_is_safe_and_converges(group in groups(), change in any::<u8>(), range in any::<bool>(), rotate in 0usize..9) {
        let assignor = if range { ServerAssignor::Range } else { ServerAssignor::Uniform };
        let before = target_assignment(assignor, &group).unwrap().members;
        let next = changed(&group, &before, change);
        let Ok(after) = target_assignment(assignor, &next) else { return Ok(()) };
        let mut order: Vec<String> = next.members.iter().map(|m| m.id.clone()).collect();
        let turn = rotate % order.len().max(1);
        order.rotate_left(turn);
        let current: BTreeMap<String, Vec<TopicPartition>> =
            before.into_iter().filter(|(m, _)| after.members.contains_key(m)).collect();
        let run = simulate(&current, &after.members, 7, &order);

        prop_assert!(run.converged && run.rounds <= 3, "{} rounds", run.rounds);
        let slots = run.lanes.values().map(|l| l.consuming.len()).max().unwrap_or(0);
        for slot in 0..slots {
            let mut seen = BTreeSet::new();
            for lane in run.lanes.values() {
                for tp in lane.consuming.get(slot).into_iter().flatten() {
                    prop_assert!(seen.insert(tp.clone()), "{tp} consumed twice at slot {slot}");
                }
            }
        }
        for (m, lane) in &run.lanes {
            let target: BTreeSet<TopicPartition> = after.members[m].iter().cloned().collect();
            prop_assert_eq!(lane.consuming.last().cloned().unwrap_or_default(), target.clone());
            // A partition the member keeps is consumed at every moment.
            let first = lane.consuming.first().cloned().unwrap_or_default();
            for tp in first.intersection(&target) {
                prop_assert!(lane.consuming.iter().all(|set| set.contains(tp)), "{m} stopped {tp}");
            }
        }
        for stop in &run.stops {
            prop_assert!(stop.heartbeats <= 2 * order.len() && stop.from != stop.to);
        }
    }
}

#[test]
fn the_first_member_in_map_order_takes_the_extra_partition_even_from_an_owner() {
    // The example of uniform.rs: "A" (hash 65) comes before "B" (66) in Java's HashMap.
    let topics = vec![topic("a", 1, 3)];
    let mut owner = member("B", &["a"]);
    owner.target = vec![(topics[0].id, vec![0, 1, 2])];
    let group = ConsumerGroup { topics, members: vec![owner, member("A", &["a"])] };
    let target = target_assignment(ServerAssignor::Uniform, &group).unwrap();
    let tp = |p| TopicPartition::new("a", p);
    assert_eq!(target.members["A"], [tp(1), tp(2)]);
    assert_eq!(target.members["B"], [tp(0)]);
}
