//! Writes Kafka's large sticky-assignor tests as one `kap batch` line, to time `kap batch` as a
//! whole process on them (the README's performance table).
//!
//! ```sh
//! cargo run --release -p cli --example large_batch -- one-leaves-1m sticky > /tmp/line.jsonl
//! /usr/bin/time -v target/release/kap batch < /tmp/line.jsonl > /dev/null
//! ```
//!
//! Shapes (AbstractStickyAssignorTest): `one-leaves-1m` is 500 topics × 2,000 partitions and 2,000
//! consumers subscribed to all; `one-leaves-20k` is 100 topics × 200 partitions and 500 consumers,
//! every fourth on the first 50 topics and the rest on the other 50. Both are assigned once, then
//! `consumer0` leaves and the others rejoin owning what they were given, in generation 1.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;

use assignor::{assign, Group, Member, Strategy, Topic};
use serde_json::{json, Map, Value};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(shape), Some(strategy)) = (args.first(), args.get(1)) else {
        eprintln!("usage: large_batch one-leaves-1m|one-leaves-20k sticky|cooperative-sticky");
        std::process::exit(2);
    };
    let strategy: Strategy = strategy.parse().expect("a strategy");
    let (topic_count, partitions, consumers) = match shape.as_str() {
        "one-leaves-1m" => (500, 2000, 2000),
        "one-leaves-20k" => (100, 200, 500),
        other => panic!("unknown shape {other}"),
    };
    // In the order clients send their subscriptions: sorted (byte order is Java's for ASCII names).
    let mut names: Vec<String> = (0..topic_count).map(|t| format!("topic{t}")).collect();
    names.sort();
    let subscription = |i: usize| -> Vec<String> {
        if shape == "one-leaves-20k" {
            // Kafka's test splits topic0..topic49 from topic50..topic99.
            let first_half = |n: &&String| n[5..].parse::<usize>().is_ok_and(|t| t < topic_count / 2);
            names.iter().filter(|n| first_half(n) == (i % 4 == 0)).cloned().collect()
        } else {
            names.clone()
        }
    };
    let members: Vec<Member> = (0..consumers)
        .map(|i| Member { id: format!("consumer{i}"), topics: subscription(i), ..Member::default() })
        .collect();
    let topics: Vec<Topic> = names.iter().map(|n| Topic::new(n.as_str(), partitions)).collect();
    let group = Group { topics, members };
    let first = assign(strategy, &group).expect("assigns");

    let mut line = Map::new();
    line.insert("id".into(), json!(format!("{shape} {strategy}")));
    line.insert("strategy".into(), json!(strategy.name()));
    line.insert("topics".into(), Value::Object(names.iter().map(|n| (n.clone(), json!(partitions))).collect()));
    let rejoining: Vec<Value> = group.members[1..]
        .iter()
        .map(|m| {
            let owned: Vec<Value> = first.members[&m.id].iter().map(|tp| json!([&*tp.topic, tp.partition])).collect();
            json!({ "id": m.id, "topics": m.topics, "owned": owned, "generation": 1 })
        })
        .collect();
    line.insert("members".into(), Value::Array(rejoining));
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    serde_json::to_writer(&mut out, &Value::Object(line)).expect("writes");
    writeln!(out).expect("writes");
}
