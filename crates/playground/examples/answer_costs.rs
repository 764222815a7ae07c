//! Where a compute worker's answer goes, natively: for the groups `www/tests/perf/measure.mjs`
//! edits, one edit (a topic one partition fewer, from the group settled) broken into the worker's
//! steps per strategy: the rebalance, the metrics and checks, settling, the panel's digest, and the
//! answer's JSON.
//!
//! ```sh
//! cargo run --release -p playground --example answer_costs [-- 1k|100k|1m]
//! ```
//!
//! With `LOOP=1`, 200 runs of `Report::new` instead, to profile (`perf record`).

use playground::work::Message;
use std::rc::Rc;
use std::time::Instant;

use assignor::{check, Strategy};
use playground::computed::Computed;
use playground::work::{to_message, Engine, Job, Prior, Share};
use scenario::digest::PanelDigest;
use scenario::edit::Edit;
use scenario::report::{Report, StrategyReport};
use scenario::{ConsumerSpec, Scenario, TopicSpec};

fn group(topics: usize, partitions: u32, consumers: usize, mixed: bool) -> Scenario {
    let names: Vec<String> = (0..topics).map(|t| format!("t{t}")).collect();
    let all: Vec<&str> = names.iter().map(String::as_str).collect();
    Scenario {
        topics: names.iter().map(|n| TopicSpec::new(n, partitions)).collect(),
        consumers: (0..consumers)
            .map(|i| ConsumerSpec::new(format!("C{i}"), if mixed && i % 2 == 1 { &all[..5] } else { &all }))
            .collect(),
        ..Scenario::default()
    }
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
}

fn main() {
    let which = std::env::args().nth(1);
    let groups = [
        ("1k", group(10, 100, 50, true), 20),
        ("100k", group(10, 10_000, 500, false), 3),
        ("1m", group(10, 100_000, 2_000, false), 1),
    ];
    for (name, first, runs) in groups {
        if which.as_deref().is_some_and(|w| w != name) {
            continue;
        }
        let settled = Report::new(&first).settled(&first);
        let partitions = first.topics[0].partitions;
        let edited = Edit::SetPartitions { topic: 0, partitions: partitions - 1 }.apply(&settled).unwrap_or_default();
        println!(
            "== {name}: {} partitions × {} consumers, {runs} runs (median)",
            partitions * 10,
            first.consumers.len()
        );
        if std::env::var("LOOP").is_ok() {
            let t = Instant::now();
            for _ in 0..200 {
                std::hint::black_box(Report::new(&edited));
            }
            println!("Report::new x200: {:.2} ms each", ms(t) / 200.0);
            let t = Instant::now();
            for _ in 0..200 {
                let (mut report, model) = Report::begin(&edited);
                let Some(model) = model else { panic!("errors") };
                report.strategies = Strategy::ALL.iter().map(|&s| StrategyReport::new(&model, s)).collect();
                std::hint::black_box(report);
            }
            println!("begin+strategies x200: {:.2} ms each", ms(t) / 200.0);
            continue;
        }
        let mut rows: Vec<(String, Vec<f64>)> = Vec::new();
        let mut add = |label: &str, value: f64| match rows.iter_mut().find(|(l, _)| l == label) {
            Some((_, v)) => v.push(value),
            None => rows.push((label.to_string(), vec![value])),
        };
        for _ in 0..runs {
            let t = Instant::now();
            let (mut report, model) = Report::begin(&edited);
            add("begin (validate, model)", ms(t));
            let Some(model) = model else { panic!("errors") };
            for strategy in Strategy::ALL {
                let t = Instant::now();
                let (group, departed) = model.before(strategy);
                add(&format!("{strategy}: group"), ms(t));
                let t = Instant::now();
                let rebalance = assignor::rebalance::rebalance(strategy, &group, &departed);
                add(&format!("{strategy}: rebalance"), ms(t));
                let t = Instant::now();
                if let Ok(rebalance) = &rebalance {
                    let _ = check::metrics(&group, rebalance.result());
                    let _ = check::violations(&group, strategy, rebalance.last_round());
                    let _ = check::needless_moves(&group, &rebalance.before, rebalance.result());
                }
                add(&format!("{strategy}: metrics, checks"), ms(t));
                let t = Instant::now();
                report.strategies.push(StrategyReport::new(&model, strategy));
                add(&format!("{strategy}: StrategyReport::new (all above)"), ms(t));
            }
            let t = Instant::now();
            let next = report.settled(&edited);
            add("settled", ms(t));
            for s in &report.strategies {
                let t = Instant::now();
                let digest = PanelDigest::new(&report, s, &edited);
                add(&format!("{}: digest", s.strategy), ms(t));
                let t = Instant::now();
                let json = to_message(&digest).unwrap_or_default();
                add(&format!("{}: digest JSON", s.strategy), ms(t));
                add(&format!("{}: digest JSON KB", s.strategy), json.len() as f64 / 1e3);
            }
            let t = Instant::now();
            let computed = Computed::new(&report, &edited);
            add("Computed::new", ms(t));
            drop(next);
            let t = Instant::now();
            let whole_report = Report::new(&edited);
            add("Report::new", ms(t));
            let t = Instant::now();
            let _ = whole_report.settled(&edited);
            add("settled again", ms(t));
            // The worker as the page drives it: version 1 computed, version 2 its edit; one worker
            // computing everything, and each of two computing its share.
            let shape = Rc::new(Scenario { previous: None, ..edited.clone() });
            let mut answer = None;
            for share in [Share::All, Share::Lead, Share::Help] {
                let mut engine = Engine::new(share);
                engine.compute(vec![Job { version: 1, prior: Prior::Inline, scenario: Rc::new(first.clone()) }], &[]);
                let t = Instant::now();
                let part = engine
                    .compute(vec![Job { version: 2, prior: Prior::Settled(1), scenario: Rc::clone(&shape) }], &[1]);
                add(&format!("Engine::compute, {share:?}"), ms(t));
                if share == Share::All {
                    answer = part;
                }
            }
            // The page's small-group job as it crosses: the settled scenario inline, as bytes.
            let inline = Rc::new(edited.clone());
            let request = playground::work::Request::Compute {
                jobs: vec![Job { version: 2, prior: Prior::Inline, scenario: Rc::clone(&inline) }],
                keep: vec![],
                history: None,
            };
            let t = Instant::now();
            let message = request.encode().unwrap_or_default();
            add("job encode (page)", ms(t));
            add("job KB", message.len() as f64 / 1e3);
            let t = Instant::now();
            let _ = playground::work::Request::decode(&message);
            add("job decode (worker)", ms(t));
            let t = Instant::now();
            std::hint::black_box((*inline).clone());
            add("scenario clone", ms(t));
            for share in [Share::All, Share::Lead, Share::Help] {
                let mut engine = Engine::new(share);
                let t = Instant::now();
                let part =
                    engine.compute(vec![Job { version: 2, prior: Prior::Inline, scenario: Rc::clone(&inline) }], &[]);
                add(&format!("Engine::compute inline, {share:?}"), ms(t));
                let t = Instant::now();
                let bytes = part.map(|p| playground::work::Reply::Answer(Box::new(p)).encode());
                add(&format!("reply encode, {share:?}"), ms(t));
                let bytes = bytes.and_then(Result::ok).unwrap_or_default();
                add(&format!("reply KB, {share:?}"), bytes.len() as f64 / 1e3);
                let t = Instant::now();
                let _ = playground::work::Reply::decode(&bytes);
                add(&format!("reply decode, {share:?}"), ms(t));
            }
            let t = Instant::now();
            let text = answer.as_ref().map(|a| to_message(&playground::work::Reply::Answer(Box::new(a.clone()))));
            add("answer JSON", ms(t));
            add("answer JSON KB", text.and_then(Result::ok).map_or(0, |t| t.len()) as f64 / 1e3);
            drop(computed);
        }
        for (label, mut values) in rows {
            values.sort_by(f64::total_cmp);
            println!("{label:>48} {:>10.2}", values[values.len() / 2]);
        }
    }
}
