//! Rules of the sticky assignors that Kafka's tests never exercise: the generation a member's
//! claim carries when its user data is of another strategy, unreadable or of version 0, a
//! previous owner set aside from balancing, a topic listed twice, whom a withheld partition is
//! withheld from when two members claimed it, and what the walkthrough says about the partitions
//! a member gives up and the members passed over on the rack pass. Each case turns on one rule,
//! and the comment gives the answer a wrong rule would produce. The user-data cases are Kafka's
//! Java answers (its assignors' `assign(partitionsPerTopic, subscriptions)` on the same
//! subscriptions, from a harness outside the repository).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use assignor::trace::Step;
use assignor::{
    assign, assign_subscriptions, assign_traced, AssignError, Group, Member, Strategy, Subscription, Topic,
    TopicPartition, UserData,
};

fn partitions(list: &[(&str, u32)]) -> Vec<TopicPartition> {
    list.iter().map(|&(topic, partition)| TopicPartition::new(topic, partition)).collect()
}

fn lists(expected: &[(&str, &[(&str, u32)])]) -> BTreeMap<String, Vec<TopicPartition>> {
    expected.iter().map(|&(member, list)| (member.to_string(), partitions(list))).collect()
}

/// A cooperative client's subscription to `t0`, with what it owned, its `generationId` (KIP-792)
/// and its user data.
fn subscription(id: &str, owned: &[(&str, u32)], generation: Option<i32>, user_data: Option<UserData>) -> Subscription {
    Subscription {
        member_id: id.into(),
        topics: vec!["t0".into()],
        owned_partitions: partitions(owned),
        generation,
        user_data,
        ..Subscription::default()
    }
}

fn cooperative(subscriptions: &[Subscription]) -> BTreeMap<String, Vec<TopicPartition>> {
    assign_subscriptions(Strategy::CooperativeSticky, &[Topic::new("t0", 2)], subscriptions).unwrap().members
}

/// `CooperativeStickyAssignor.memberData`: user data no schema reads counts as generation -1, so
/// C1's claim on t0-0 loses to C0's from generation 0 (as generation 1 it would take t0-0).
#[test]
fn unreadable_cooperative_user_data_claims_from_generation_minus_one() {
    let subscriptions = [
        subscription("C0", &[("t0", 0)], Some(0), None),
        subscription("C1", &[("t0", 0)], None, Some(UserData::Unreadable)),
    ];
    assert_eq!(cooperative(&subscriptions), lists(&[("C0", &[("t0", 0)]), ("C1", &[("t0", 1)])]));
}

/// Sticky user data read with the cooperative schema: its first INT32, the length of the topic
/// array (here two topics, one the cluster no longer has), is taken for the generation. Generation
/// 2 beats C0's 1: C1 takes t0-0 (as 1 the claim would be double and t0-0 withheld; as 0 C0
/// would keep it).
#[test]
fn sticky_user_data_read_as_cooperative_claims_from_its_topic_count() {
    let sticky = UserData::Sticky { partitions: partitions(&[("t0", 0), ("gone", 0)]), generation: Some(5) };
    let subscriptions =
        [subscription("C0", &[("t0", 0)], Some(1), None), subscription("C1", &[("t0", 0)], None, Some(sticky))];
    assert_eq!(cooperative(&subscriptions), lists(&[("C0", &[("t0", 1)]), ("C1", &[("t0", 0)])]));
}

/// `StickyAssignor.memberData`: user data neither sticky schema reads (unreadable bytes, or a
/// cooperative client's one INT32) counts as generation -1. Every other member is of generation
/// 0, so 0 stays the highest and no claim is from an older generation; were the odd member's
/// generation above 0, the others' claims would all be older ones and the general builder would
/// hand t1's partitions out differently (C1 would get t1-1 rather than t0-0).
#[test]
fn sticky_user_data_no_sticky_schema_reads_is_generation_minus_one() {
    let sticky = |id: &str, topics: &[&str], owned: &[(&str, u32)]| Subscription {
        member_id: id.into(),
        topics: topics.iter().map(|t| t.to_string()).collect(),
        user_data: Some(UserData::Sticky { partitions: partitions(owned), generation: Some(0) }),
        ..Subscription::default()
    };
    let topics = [Topic::new("t0", 1), Topic::new("t1", 4), Topic::new("t2", 1)];
    for odd in [UserData::Unreadable, UserData::Cooperative { generation: 3 }] {
        let subscriptions = [
            sticky("C0", &["t0", "t2"], &[("t1", 0), ("t1", 3)]),
            sticky("C1", &["t0", "t2"], &[("t1", 1), ("t1", 2)]),
            sticky("C2", &["t0", "t1"], &[("t0", 0)]),
            Subscription { user_data: Some(odd.clone()), ..sticky("C3", &["t0", "t1", "t2"], &[]) },
        ];
        let assignment = assign_subscriptions(Strategy::Sticky, &topics, &subscriptions).unwrap();
        let expected = lists(&[
            ("C0", &[("t2", 0)]),
            ("C1", &[("t0", 0)]),
            ("C2", &[("t1", 1), ("t1", 3)]),
            ("C3", &[("t1", 0), ("t1", 2)]),
        ]);
        assert_eq!(assignment.members, expected, "{odd:?}");
    }
}

/// Version-0 sticky user data (a client from before KIP-341) carries no generation. Once any
/// member has one, `prepopulateCurrentAssignments` files such a member's partitions as claims of
/// generation -1 (`DEFAULT_GENERATION`): previous owners, never current ones. (The others send
/// their generation in the subscription too, as clients since KIP-792 do; without it, Kafka
/// compares a claim with the `generationId` of the subscription that claimed first.)
/// - With the highest generation 1, V (version 0) is t-0's previous owner: balancing hands t-0
///   back to V, and t-1 to S (ignoring V's claim, C0 would keep t-0).
/// - With the highest generation 2, V and M (generation 0) both owned t-0: M's 0 beats V's -1, so
///   t-0 goes back to M (were V's claim of generation 1, V would get t-0).
///
/// Kafka's Java answers (`assign(partitionsPerTopic, subscriptions)` with the version-0 bytes).
#[test]
fn version_zero_sticky_user_data_claims_as_generation_minus_one() {
    let sticky = |id: &str, topics: &[&str], owned: &[(&str, u32)], generation: Option<i32>| Subscription {
        member_id: id.into(),
        topics: topics.iter().map(|t| t.to_string()).collect(),
        user_data: Some(UserData::Sticky { partitions: partitions(owned), generation }),
        generation,
        ..Subscription::default()
    };
    let topics = [Topic::new("t", 4), Topic::new("u", 1)];
    let everything = [("t", 0), ("t", 1), ("t", 2), ("t", 3)];
    let sole_previous_owner = [
        sticky("C0", &["t"], &everything, Some(1)),
        sticky("V", &["t", "u"], &[("t", 0)], None),
        sticky("S", &["t"], &[], Some(1)),
    ];
    assert_eq!(
        assign_subscriptions(Strategy::Sticky, &topics, &sole_previous_owner).unwrap().members,
        lists(&[("C0", &[("t", 2), ("t", 3)]), ("S", &[("t", 1)]), ("V", &[("u", 0), ("t", 0)])])
    );
    let older_claims = [
        sticky("C0", &["t"], &everything, Some(2)),
        sticky("V", &["t", "u"], &[("t", 0)], None),
        sticky("M", &["t"], &[("t", 0)], Some(0)),
    ];
    assert_eq!(
        assign_subscriptions(Strategy::Sticky, &topics, &older_claims).unwrap().members,
        lists(&[("C0", &[("t", 2), ("t", 3)]), ("M", &[("t", 0), ("t", 1)]), ("V", &[("u", 0)])])
    );
}

/// A subscription may list a topic twice (the protocol carries a list; Kafka's own clients send a
/// set), and Kafka's general builder keeps the repeat: M, listing x twice, counts as two of x's
/// subscribers and may hold six partitions, so neither x nor M is set aside from balancing. M
/// owned y-0 in generation 1, so balancing asks M's size when it looks at y-0 and leaves y-0 where
/// it is (M holds three): C1 gives y-0 and y-1 to C2. With x listed once, M would be set aside and
/// Java would throw a NullPointerException at y-0 (`a_previous_owner_set_aside_...` above).
/// Kafka's Java answer (`assign(partitionsPerTopic, subscriptions)`).
#[test]
fn a_topic_listed_twice_counts_twice() {
    let sticky = |id: &str, topics: &[&str], owned: &[(&str, u32)], generation: i32| Subscription {
        member_id: id.into(),
        topics: topics.iter().map(|t| t.to_string()).collect(),
        user_data: Some(UserData::Sticky { partitions: partitions(owned), generation: Some(generation) }),
        generation: Some(generation),
        ..Subscription::default()
    };
    let topics = [Topic::new("x", 3), Topic::new("y", 4)];
    let subscriptions = [
        sticky("M", &["x", "x"], &[("y", 0)], 1),
        sticky("C1", &["y"], &[("y", 0), ("y", 1), ("y", 2), ("y", 3)], 2),
        sticky("C2", &["y"], &[], 2),
    ];
    assert_eq!(
        assign_subscriptions(Strategy::Sticky, &topics, &subscriptions).unwrap().members,
        lists(&[("C1", &[("y", 2), ("y", 3)]), ("C2", &[("y", 0), ("y", 1)]), ("M", &[("x", 0), ("x", 1), ("x", 2)])])
    );
}

/// A and B both claim t-0, t-1 and t-2 in generation 1: every claim is double, nobody keeps them,
/// and the constrained builder deals them out again; each is withheld from its new owner until
/// the other claimant has revoked it. A is the first claimant of all three, so the member it is
/// withheld from is the second one, found among the further claimants of that very partition.
#[test]
fn a_partition_claimed_twice_is_withheld_from_the_other_claimant() {
    let member = |id: &str| Member {
        id: id.into(),
        topics: vec!["t".into()],
        owned: partitions(&[("t", 0), ("t", 1), ("t", 2)]),
        generation: Some(1),
        ..Member::default()
    };
    let group = Group { topics: vec![Topic::new("t", 6)], members: vec![member("A"), member("B")] };
    let mut steps: Vec<Step> = Vec::new();
    let assignment = assign_traced(Strategy::CooperativeSticky, &group, &mut steps).unwrap();
    assert_eq!(assignment.members, lists(&[("A", &[("t", 4)]), ("B", &[("t", 3), ("t", 5)])]));
    let withheld: Vec<String> = steps
        .iter()
        .filter_map(|step| match step {
            Step::Withhold { partition, from, to } => Some(format!("{partition}: {from} -> {to}")),
            _ => None,
        })
        .collect();
    assert_eq!(withheld, ["t-0: B -> A", "t-1: A -> B", "t-2: B -> A"]);
}

/// C1 owned A-0 in generation 1 and now reads only B, which no one else reads: holding all it
/// can of such a topic, it is set aside before balancing, and Kafka's `balance` takes it out of
/// `currentAssignment`. Balancing then looks at A-0 (C0 holds two partitions, C2 none), asks the
/// size of A-0's previous owner, C1, and Java throws a NullPointerException, for both strategies
/// (Kafka's Java, from a harness outside the repository). Were C1 kept in the load order, C2
/// would get a partition instead.
#[test]
fn a_previous_owner_set_aside_from_balancing_makes_kafka_throw() {
    let member = |id: &str, topics: &[&str], owned: &[(&str, u32)], generation: i32| Member {
        id: id.into(),
        topics: topics.iter().map(|t| t.to_string()).collect(),
        owned: partitions(owned),
        generation: Some(generation),
        ..Member::default()
    };
    let group = Group {
        topics: vec![Topic::new("A", 2), Topic::new("B", 1)],
        members: vec![
            member("C0", &["A"], &[("A", 0), ("A", 1)], 2),
            member("C1", &["B"], &[("A", 0)], 1),
            member("C2", &["A"], &[], 2),
        ],
    };
    for strategy in [Strategy::Sticky, Strategy::CooperativeSticky] {
        match assign(strategy, &group) {
            Err(AssignError::KafkaThrows(message)) => assert_eq!(
                message, "NullPointerException: C1 previously owned A-0 but was set aside from balancing",
                "{strategy:?}"
            ),
            other => panic!("{strategy:?}: Kafka throws here, got {other:?}"),
        }
    }
}

/// The constrained builder's walkthrough: C0 owned all three partitions, two members join, so C0
/// keeps its quota and gives the rest up, and the walkthrough names each partition given up and
/// the orders the rest is dealt in (what `kap explain` shows for this rebalance).
#[test]
fn the_constrained_walkthrough_names_each_partition_given_up_and_the_orders_dealt_in() {
    let member = |id: &str, owned: &[(&str, u32)]| Member {
        id: id.into(),
        topics: vec!["t".into()],
        owned: partitions(owned),
        generation: (!owned.is_empty()).then_some(1),
        ..Member::default()
    };
    let group = Group {
        topics: vec![Topic::new("t", 3)],
        members: vec![member("C0", &[("t", 0), ("t", 1), ("t", 2)]), member("C1", &[]), member("C2", &[])],
    };
    let mut steps: Vec<Step> = Vec::new();
    assign_traced(Strategy::Sticky, &group, &mut steps).unwrap();
    let shown: Vec<String> = steps.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown[3..],
        [
            "C0 keeps t-0, which it owned.",
            "C0 loses t-1: the member owns more than its quota.",
            "C0 loses t-2: the member owns more than its quota.",
            "Sort members under minQuota, by member id: C1, C2.",
            "Sort members at minQuota that may take one more, by member id: .",
            "Sort unassigned partitions, by topic and partition: t-1, t-2.",
            "Give t-1 to C1.",
            "Give t-2 to C2.",
        ]
    );
}

/// The general builder's rack pass (KIP-881): t0's replicas are on rack b only, so C0 (rack a) is
/// passed over for its rack and C2 for its subscription; C1, on rack b, takes both partitions.
#[test]
fn the_rack_pass_names_each_member_passed_over_and_why() {
    let member = |id: &str, rack: &str, topics: &[&str]| Member {
        id: id.into(),
        rack: Some(rack.into()),
        topics: topics.iter().map(|t| t.to_string()).collect(),
        ..Member::default()
    };
    let on_b = vec![vec![Some("b".to_string())]; 2];
    let group = Group {
        topics: vec![Topic { name: "t0".into(), partitions: 2, replica_racks: on_b }, Topic::new("t1", 2)],
        members: vec![member("C0", "a", &["t0", "t1"]), member("C1", "b", &["t0"]), member("C2", "a", &["t1"])],
    };
    let mut steps: Vec<Step> = Vec::new();
    let assignment = assign_traced(Strategy::Sticky, &group, &mut steps).unwrap();
    assert_eq!(
        assignment.members,
        lists(&[("C0", &[("t1", 0)]), ("C1", &[("t0", 0), ("t0", 1)]), ("C2", &[("t1", 1)])])
    );
    let attempts: Vec<String> = steps
        .iter()
        .filter(|step| matches!(step, Step::Skip { .. } | Step::Assign { .. }))
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        attempts,
        [
            "Try t0-0 on C0: no, its rack holds no replica; next.",
            "Give t0-0 to C1.",
            "Try t0-1 on C0: no, its rack holds no replica; next.",
            "Try t0-1 on C2: no, it does not subscribe to the topic; next.",
            "Give t0-1 to C1.",
            "Give t1-0 to C0.",
            "Give t1-1 to C2.",
        ]
    );
}
