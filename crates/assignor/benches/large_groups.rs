//! Benchmarks shaped like Kafka's own large assignor tests (AbstractStickyAssignorTest), timing
//! the assign call alone as the Java figures do (freeing the result is left out, as Java's garbage
//! collection is), plus the playground's per-edit work.
//!
//! `cargo bench -p assignor` runs them all; `cargo bench -p assignor -- uniform` one shape.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use assignor::{assign_subscriptions, Assignment, Group, Member, Strategy, Subscription, Topic, UserData};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

fn topics(count: usize, partitions: u32) -> Vec<Topic> {
    (0..count).map(|i| Topic::new(format!("topic{i}"), partitions)).collect()
}

fn fresh(id: String, topics: Vec<String>) -> Subscription {
    Subscription { member_id: id, topics, ..Subscription::default() }
}

/// The subscriptions of Kafka's second call: members 1.. rejoin owning what the first call gave
/// them, in generation 1, the way each strategy's client sends it; member 0 owns nothing.
fn second_call(strategy: Strategy, subs: &[Subscription], first: &Assignment) -> Vec<Subscription> {
    subs.iter()
        .enumerate()
        .map(|(i, s)| {
            if i == 0 {
                return s.clone();
            }
            let owned = first.members.get(&s.member_id).cloned().unwrap_or_default();
            match strategy {
                Strategy::Sticky => Subscription {
                    user_data: Some(UserData::Sticky { partitions: owned, generation: Some(1) }),
                    generation: Some(1),
                    ..s.clone()
                },
                _ => Subscription { owned_partitions: owned, generation: Some(1), ..s.clone() },
            }
        })
        .collect()
}

/// A fixed-seed generator for the random-subscription shape (splitmix64).
struct Seeded(u64);

impl Seeded {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

struct Shape {
    name: &'static str,
    topics: Vec<Topic>,
    subscriptions: Vec<Subscription>,
    /// Kafka's test times a second call in which members own the first call's result.
    rejoin: bool,
}

fn shapes() -> Vec<Shape> {
    let names = |n: usize| (0..n).map(|i| format!("topic{i}")).collect::<Vec<_>>();
    let consumer = |i: usize| format!("consumer{i}");

    // testLargeAssignmentAndGroupWithUniformSubscription: the constrained path.
    let all = names(500);
    let uniform: Vec<Subscription> = (0..2000).map(|i| fresh(consumer(i), all.clone())).collect();

    // ...WithNonEqualSubscription: the last consumer only takes the first topic (general path).
    let mut non_equal = uniform.clone();
    if let Some(last) = non_equal.last_mut() {
        last.topics = vec!["topic0".into()];
    }

    // testAssignmentAndGroupWithNonEqualSubscriptionNotTimeout.
    let hundred = names(100);
    let halves: Vec<Subscription> = (0..500)
        .map(|i| {
            let half = if i % 4 == 0 { &hundred[..50] } else { &hundred[50..] };
            fresh(consumer(i), half.to_vec())
        })
        .collect();

    // 200 topics x 100 partitions, 500 consumers with 1-40 random topics each, fresh.
    let two_hundred = names(200);
    let mut rng = Seeded(42);
    let random: Vec<Subscription> = (0..500)
        .map(|i| {
            let count = 1 + rng.below(40) as usize;
            let mut picked: Vec<String> = Vec::new();
            while picked.len() < count {
                let t = &two_hundred[rng.below(200) as usize];
                if !picked.contains(t) {
                    picked.push(t.clone());
                }
            }
            fresh(consumer(i), picked)
        })
        .collect();

    // One topic of 1,000,000 partitions with replicas on two of racks a, b, c, and four members on
    // racks a, b, c, d (no replica on d). Rack-aware sticky once grew quadratically with the topic.
    let rack_names = ["a", "b", "c"];
    let mut big = Topic::new("t", 1_000_000);
    big.replica_racks = (0..1_000_000usize)
        .map(|p| vec![Some(rack_names[p % 3].into()), Some(rack_names[(p + 1) % 3].into())])
        .collect();
    let on_rack = |i: usize, topics: &[&str]| Subscription {
        rack: Some(["a", "b", "c", "d"][i].into()),
        ..fresh(consumer(i), topics.iter().map(|t| t.to_string()).collect())
    };
    let racks_equal: Vec<Subscription> = (0..4).map(|i| on_rack(i, &["t"])).collect();
    // The member on rack d also reads a small topic: subscriptions differ, the general builder
    // runs, places by rack and then moves a quarter of the partitions to that member.
    let mut small = Topic::new("u", 10);
    small.replica_racks = vec![vec![Some("a".to_string())]; 10];
    let racks_general: Vec<Subscription> =
        (0..4).map(|i| on_rack(i, if i == 3 { &["t", "u"] } else { &["t"] })).collect();

    vec![
        Shape { name: "racks_equal_1m_4", topics: vec![big.clone()], subscriptions: racks_equal, rejoin: false },
        Shape { name: "racks_general_1m_4", topics: vec![big, small], subscriptions: racks_general, rejoin: false },
        Shape { name: "uniform_1m_2000", topics: topics(500, 2000), subscriptions: uniform, rejoin: true },
        Shape { name: "non_equal_1m_2000", topics: topics(500, 2000), subscriptions: non_equal, rejoin: true },
        Shape { name: "halves_20k_500", topics: topics(100, 200), subscriptions: halves, rejoin: true },
        Shape { name: "random_20k_500", topics: topics(200, 100), subscriptions: random, rejoin: false },
    ]
}

fn kafka_large_tests(c: &mut Criterion) {
    let mut group = c.benchmark_group("kafka_large");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(8));
    for shape in shapes() {
        for strategy in [Strategy::Sticky, Strategy::CooperativeSticky] {
            let subscriptions = if shape.rejoin {
                let first = assign_subscriptions(strategy, &shape.topics, &shape.subscriptions).unwrap();
                second_call(strategy, &shape.subscriptions, &first)
            } else {
                shape.subscriptions.clone()
            };
            group.bench_with_input(BenchmarkId::new(shape.name, strategy.name()), &subscriptions, |b, subs| {
                b.iter_with_large_drop(|| assign_subscriptions(strategy, &shape.topics, subs).unwrap())
            });
        }
    }
    group.finish();
}

/// What the playground recomputes on every edit for a mid-sized group: a rebalance of every
/// strategy (assignment, cooperative rounds, diff) for 1,000 partitions and 50 consumers.
fn playground_edit(c: &mut Criterion) {
    let topic_list: Vec<Topic> = (0..10).map(|i| Topic::new(format!("t{i}"), 100)).collect();
    let names: Vec<String> = topic_list.iter().map(|t| t.name.clone()).collect();
    let members: Vec<Member> =
        (0..50).map(|i| Member { id: format!("C{i}"), topics: names.clone(), ..Member::default() }).collect();
    let fresh_group = Group { topics: topic_list, members };
    let mut group = c.benchmark_group("playground_edit");
    for strategy in Strategy::ALL {
        // The edit: one member leaves a group whose members own their previous assignment.
        let first = assignor::assign(strategy, &fresh_group).unwrap();
        let mut after = fresh_group.clone();
        for m in &mut after.members {
            m.owned = first.members.get(&m.id).cloned().unwrap_or_default();
            m.generation = Some(1);
        }
        let departed: assignor::rebalance::Lists =
            after.members.drain(..1).map(|m| (m.id.clone(), m.owned.clone())).collect();
        group.bench_function(BenchmarkId::new("1k_partitions_50_consumers", strategy.name()), |b| {
            b.iter(|| assignor::rebalance::rebalance(strategy, &after, &departed).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, kafka_large_tests, playground_edit);
criterion_main!(benches);
