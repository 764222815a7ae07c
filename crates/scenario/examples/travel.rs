//! How large Kafka's large assignor tests are as a scenario file and as a share link, in the long
//! form (format 1) and the compact one (format 2), and how long writing and reading them takes:
//! the README's "Big groups travel" figures.
//!
//! ```sh
//! cargo run --release -p scenario --example travel            # both groups
//! cargo run --release -p scenario --example travel -- 100k    # only the 100,000-partition one
//! cargo run --release -p scenario --example travel -- corpus  # the links tests/data/links-v2.json froze
//! ```
//!
//! Each group is measured fresh, then after one edit in the page ("A consumer joins"): every
//! strategy's result becomes the previous assignment the saved copy and the link carry.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use scenario::edit::Edit;
use scenario::report::Report;
use scenario::{link, ConsumerSpec, Form, Scenario, TopicSpec};

/// `topics` × `partitions`, `consumers` consumers: all on every topic, or (`halves`) every fourth
/// on the first half of the topics and the rest on the second half, as Kafka's tests have them.
fn group(topics: usize, partitions: u32, consumers: usize, halves: bool) -> Scenario {
    let names: Vec<String> = (0..topics).map(|t| format!("topic{t}")).collect();
    let consumers = (0..consumers)
        .map(|i| {
            let mut consumer = ConsumerSpec::new(format!("consumer{i}"), &[]);
            consumer.topics = match halves {
                false => names.clone(),
                true if i % 4 == 0 => names[..topics / 2].to_vec(),
                true => names[topics / 2..].to_vec(),
            };
            consumer
        })
        .collect();
    let topics = names.iter().map(|n| TopicSpec::new(n.as_str(), partitions)).collect();
    Scenario { topics, consumers, ..Scenario::default() }
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let started = Instant::now();
    let value = f();
    (value, started.elapsed())
}

fn measure(name: &str, scenario: &Scenario) {
    for form in [Form::Long, Form::Compact] {
        let (file, write) = timed(|| serde_json::to_string_pretty(&scenario.written(form)).unwrap());
        let (read, read_time) = timed(|| scenario::parse_scenario(&file).unwrap());
        assert_eq!(Scenario { version: scenario.version, ..read }, *scenario, "{name}: the file reads back");
        let (fragment, encode) = timed(|| link::encode_in(scenario, form));
        let (decoded, decode) = timed(|| link::decode(&fragment));
        let opens = match decoded {
            Ok(decoded) => {
                assert_eq!(Scenario { version: scenario.version, ..decoded }, *scenario, "{name}: the link opens");
                "opens".to_string()
            }
            Err(e) => format!("does not open: {e}"),
        };
        println!(
            "| {name} | {form:?} | {} | {write:.0?} / {read_time:.0?} | {} | {encode:.0?} / {decode:.0?} | {opens} |",
            file.len(),
            fragment.len() + 1,
        );
    }
}

/// The frozen corpus of format 2 links (`tests/data/links-v2.json`): each link and the long form
/// of the scenario it opens to.
fn corpus() {
    let mut all = group(10, 50, 20, false);
    all.title = "Ten topics of fifty partitions, twenty consumers on all of them, one more joins".into();
    let report = Report::new(&all);
    let all = Edit::Join.apply(&report.settled(&all)).unwrap();
    let mut halves = group(16, 40, 24, true);
    halves.topics[3].replicas =
        Some(scenario::format::ReplicaLayout { factor: 2, racks: vec![Some("a".into()), Some("b".into())] });
    let report = Report::new(&halves);
    let halves = Edit::Join.apply(&report.settled(&halves)).unwrap();
    let report = Report::new(&halves);
    let halves = Edit::Leave { consumer: 0 }.apply(&report.settled(&halves)).unwrap();
    let mut corpus = serde_json::Map::new();
    for (name, scenario) in [("all-subscribed-one-joins", all), ("halves-one-joins-then-one-leaves", halves)] {
        assert_eq!(scenario.form(), Form::Compact);
        let fragment = link::encode(&scenario);
        let opened = link::decode(&fragment).unwrap();
        assert_eq!(opened, Scenario { version: 2, ..scenario });
        let entry = serde_json::json!([fragment, opened.written(Form::Long)]);
        corpus.insert(name.into(), entry);
    }
    println!("{}", serde_json::to_string_pretty(&corpus).unwrap());
}

fn main() {
    let only = std::env::args().nth(1);
    if only.as_deref() == Some("corpus") {
        return corpus();
    }
    let groups = [
        ("1M: 500 × 2,000, 2,000 consumers", group(500, 2000, 2000, false), "1m"),
        ("100k: 100 × 1,000, 500 consumers in halves", group(100, 1000, 500, true), "100k"),
    ];
    println!("| group | form | file bytes | write / read | link characters | encode / decode | link |");
    println!("|---|---|---|---|---|---|---|");
    for (name, fresh, key) in groups {
        if only.as_deref().is_some_and(|o| o != key) {
            continue;
        }
        measure(&format!("{name}, fresh"), &fresh);
        let (report, compute) = timed(|| Report::new(&fresh));
        let edited = Edit::Join.apply(&report.settled(&fresh)).unwrap();
        eprintln!("{name}: the four strategies in {compute:.1?}");
        measure(&format!("{name}, after one edit"), &edited);
        if let Ok(path) = std::env::var("TRAVEL_DUMP") {
            std::fs::write(format!("{path}-{key}.json"), scenario::to_json(&edited)).unwrap();
        }
    }
}
