//! The server-side assignors (KIP-848) on Kafka's large shapes, timing one `target_assignment` call:
//! the coordinator's spec building (member map order, topic ids), the assignor, and the answer by
//! name. Java's figures time the assignor's `assign` call alone.
//!
//! `cargo bench -p assignor --bench consumer_group`; `-- uniform` for one assignor.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use assignor::consumer_group::{
    target_assignment, ConsumerGroup, ConsumerMember, PreparedGroup, ServerAssignor, SpecOptions, TargetAssignment,
    TopicImage,
};
use assignor::Uuid;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

/// A small deterministic generator (xorshift), so that every run sees the same groups.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn topics(count: usize, partitions: u32, rng: &mut Rng) -> Vec<TopicImage> {
    (0..count)
        .map(|i| TopicImage {
            name: format!("topic{i}"),
            id: Uuid::new(rng.next() as i64, rng.next() as i64),
            partitions,
        })
        .collect()
}

fn member(id: String, topics: Vec<String>) -> ConsumerMember {
    ConsumerMember { id, topics, ..ConsumerMember::default() }
}

/// Member ids as KIP-848 clients make them: random `Uuid`s.
fn member_id(rng: &mut Rng) -> String {
    Uuid::new(rng.next() as i64, rng.next() as i64).to_string()
}

/// Every member now holds, as its current target, what `first` gave it.
fn settled(group: &ConsumerGroup, first: &TargetAssignment) -> ConsumerGroup {
    let ids: std::collections::HashMap<&str, Uuid> = group.topics.iter().map(|t| (t.name.as_str(), t.id)).collect();
    let id_of = |name: &str| ids[name];
    let mut settled = group.clone();
    for m in &mut settled.members {
        let mut target: Vec<(Uuid, Vec<u32>)> = Vec::new();
        for tp in &first.members[&m.id] {
            match target.last_mut() {
                Some((name, list)) if *name == id_of(&tp.topic) => list.push(tp.partition),
                _ => target.push((id_of(&tp.topic), vec![tp.partition])),
            }
        }
        m.target = target;
    }
    settled
}

/// 500 topics × 2,000 partitions (1,000,000), 2,000 members subscribed to all.
fn large(rng: &mut Rng) -> ConsumerGroup {
    let topics = topics(500, 2_000, rng);
    let names: Vec<String> = topics.iter().map(|t| t.name.clone()).collect();
    let members = (0..2_000).map(|_| member(member_id(rng), names.clone())).collect();
    ConsumerGroup { topics, members }
}

/// 100 topics × 200 partitions, 500 members: every fourth on the first half, the rest on the second.
fn two_halves(rng: &mut Rng) -> ConsumerGroup {
    let topics = topics(100, 200, rng);
    let names: Vec<String> = topics.iter().map(|t| t.name.clone()).collect();
    let members = (0..500)
        .map(|i| member(member_id(rng), if i % 4 == 0 { names[..50].to_vec() } else { names[50..].to_vec() }))
        .collect();
    ConsumerGroup { topics, members }
}

/// 200 topics × 100 partitions, 500 members on 1–40 random topics each.
fn random_subscriptions(rng: &mut Rng) -> ConsumerGroup {
    let topics = topics(200, 100, rng);
    let members = (0..500)
        .map(|_| {
            let count = 1 + (rng.next() % 40) as usize;
            let mut chosen: Vec<String> = Vec::with_capacity(count);
            while chosen.len() < count {
                let name = format!("topic{}", rng.next() % 200);
                if !chosen.contains(&name) {
                    chosen.push(name);
                }
            }
            member(member_id(rng), chosen)
        })
        .collect();
    ConsumerGroup { topics, members }
}

/// Times `assign` on a prepared spec (what Java's figures measure) and the whole call.
fn bench_shape(c: &mut Criterion, assignor: ServerAssignor, shape: &str, group: &ConsumerGroup) {
    let mut timings = c.benchmark_group(format!("consumer_group/{}", assignor.name()));
    timings.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    let prepared = PreparedGroup::new(group, &SpecOptions::default()).unwrap();
    timings.bench_function(BenchmarkId::new("assign", shape), |b| {
        b.iter_with_large_drop(|| prepared.assign(assignor).unwrap())
    });
    timings.bench_function(BenchmarkId::new("target_assignment", shape), |b| {
        b.iter_with_large_drop(|| target_assignment(assignor, group).unwrap())
    });
    timings.finish();
}

fn bench(c: &mut Criterion) {
    for assignor in ServerAssignor::ALL {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let fresh = large(&mut rng);
        bench_shape(c, assignor, "1M partitions, 2000 members, fresh", &fresh);
        let mut one_left = settled(&fresh, &target_assignment(assignor, &fresh).unwrap());
        one_left.members.remove(0);
        bench_shape(c, assignor, "1M partitions, one member leaves", &one_left);
        let halves = two_halves(&mut rng);
        let halves = settled(&halves, &target_assignment(assignor, &halves).unwrap());
        bench_shape(c, assignor, "100x200, 500 members, two halves, second call", &halves);
        let random = random_subscriptions(&mut rng);
        bench_shape(c, assignor, "200x100, 500 members, 1-40 random topics, fresh", &random);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
