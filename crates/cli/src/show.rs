//! `kap show`: every strategy side by side, as a table for people or JSON for machines.

use std::io::Write;

use assignor::check;
use assignor::rebalance::Rebalance;
use assignor::Strategy;
use scenario::advice::advice;
use scenario::{Model, Scenario};
use serde_json::{json, Map, Value};

use crate::batch::pairs;

pub fn run(scenario: &Scenario, as_json: bool, out: &mut impl Write) -> Result<(), String> {
    let model = Model::new(scenario)
        .map_err(|problems| problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))?;
    let results: Vec<(Strategy, Result<Rebalance, String>)> =
        Strategy::ALL.iter().map(|&s| (s, model.rebalance(s).map_err(|e| e.to_string()))).collect();
    let text =
        if as_json { to_json(scenario, &model, &results).to_string() } else { table(scenario, &model, &results) };
    writeln!(out, "{text}").map_err(|e| e.to_string())
}

fn table(scenario: &Scenario, model: &Model, results: &[(Strategy, Result<Rebalance, String>)]) -> String {
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut header = vec!["member".to_string()];
    header.extend(results.iter().map(|(s, r)| match r {
        Ok(rb) => format!("{s} ({})", rb.protocol),
        Err(_) => s.to_string(),
    }));
    rows.push(header);
    for member in &model.members {
        let mut row = vec![member.id.clone()];
        for (_, result) in results {
            row.push(match result {
                Ok(rb) => {
                    let list = rb.result().get(&member.id).map(Vec::as_slice).unwrap_or_default();
                    format!("{:>3}  {}", list.len(), scenario::compact(list))
                }
                Err(e) => format!("error: {e}"),
            });
        }
        rows.push(row);
    }
    let group = |s: Strategy| model.group(s);
    type Cell<'a> = Box<dyn Fn(Strategy, &Rebalance) -> String + 'a>;
    let summary: [(&str, Cell); 4] = [
        (
            "spread",
            Box::new(|s, rb| {
                let m = check::metrics(&group(s), rb.result());
                format!("{} (max {}, min {})", m.spread(), m.max, m.min)
            }),
        ),
        (
            "moved",
            Box::new(|_, rb| {
                let total: usize = rb.result().values().map(Vec::len).sum();
                format!("{} of {}", rb.diff.moved.len(), total)
            }),
        ),
        ("paused", Box::new(|_, rb| rb.paused_count().to_string())),
        ("rounds", Box::new(|_, rb| rb.rounds.len().to_string())),
    ];
    for (name, cell) in &summary {
        let mut row = vec![name.to_string()];
        row.extend(results.iter().map(|(s, r)| r.as_ref().map(|rb| cell(*s, rb)).unwrap_or_default()));
        rows.push(row);
    }
    let widths: Vec<usize> = (0..rows.first().map_or(0, Vec::len))
        .map(|c| rows.iter().map(|r| r.get(c).map_or(0, |s| s.chars().count())).max().unwrap_or(0))
        .collect();
    let mut text = String::new();
    if !scenario.title.is_empty() {
        text.push_str(&format!("{}\n\n", scenario.title));
    }
    let selection = model.selection();
    if let Some(chosen) = selection.strategy {
        let protocol = selection.group_protocol().map(|p| p.to_string()).unwrap_or_default();
        text.push_str(&format!("The group uses {chosen} ({protocol}): {}.\n\n", selection.reason()));
    }
    for (i, row) in rows.iter().enumerate() {
        let line: Vec<String> = row.iter().zip(&widths).map(|(cell, w)| format!("{cell:<w$}", w = *w)).collect();
        text.push_str(line.join("  ").trim_end());
        text.push('\n');
        if i == 0 || i == model.members.len() {
            text.push_str(&widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join("  "));
            text.push('\n');
        }
    }
    for (strategy, result) in results {
        if let Ok(rb) = result {
            if !rb.diff.moved.is_empty() {
                let moves: Vec<String> = rb
                    .diff
                    .moved
                    .iter()
                    .map(|m| format!("{} {}→{}", m.partition, m.from, m.to.as_deref().unwrap_or("nobody")))
                    .collect();
                text.push_str(&format!("\n{strategy} moves: {}", moves.join(", ")));
            }
        }
    }
    for item in advice(model) {
        text.push_str(&format!("\nnote: {}", item.message));
    }
    text.trim_end().to_string()
}

fn to_json(scenario: &Scenario, model: &Model, results: &[(Strategy, Result<Rebalance, String>)]) -> Value {
    let selection = model.selection();
    let mut strategies = Map::new();
    for (strategy, result) in results {
        let value = match result {
            Err(e) => json!({ "error": e }),
            Ok(rb) => {
                let group = model.group(*strategy);
                let metrics = check::metrics(&group, rb.result());
                let ordered = |lists: &assignor::rebalance::Lists| -> Value {
                    let mut map = Map::new();
                    for id in lists.keys() {
                        map.insert(id.clone(), pairs(lists.get(id).map(Vec::as_slice).unwrap_or_default()));
                    }
                    Value::Object(map)
                };
                let rounds: Vec<Value> = rb
                    .rounds
                    .iter()
                    .map(|round| {
                        let withheld: Vec<Value> = round
                            .assignment
                            .withheld
                            .iter()
                            .map(|(tp, to)| json!({ "partition": [&*tp.topic, tp.partition], "to": to }))
                            .collect();
                        json!({ "generation": round.generation, "assignment": ordered(&round.assignment.members), "withheld": withheld })
                    })
                    .collect();
                let moved: Vec<Value> = rb
                    .diff
                    .moved
                    .iter()
                    .map(|m| json!({ "partition": [&*m.partition.topic, m.partition.partition], "from": m.from, "to": m.to }))
                    .collect();
                let violations: Vec<String> =
                    check::violations(&group, *strategy, rb.last_round()).iter().map(ToString::to_string).collect();
                json!({
                    "protocol": rb.protocol.name(),
                    "settled": rb.settled,
                    "assignment": ordered(rb.result()),
                    "rounds": rounds,
                    "moved": moved,
                    "paused": ordered(&rb.paused),
                    "metrics": {
                        "counts": metrics.counts,
                        "spread": metrics.spread(),
                        "most_loaded": metrics.most_loaded,
                        "idle": metrics.idle,
                        "unassigned": metrics.unassigned,
                        "cross_rack": metrics.cross_rack,
                        "needless_moves": check::needless_moves(&group, &rb.before, rb.result()),
                    },
                    "violations": violations,
                })
            }
        };
        strategies.insert(strategy.name().to_string(), value);
    }
    json!({
        "title": scenario.title,
        "group_strategy": selection.strategy.map(Strategy::name),
        "group_protocol": selection.group_protocol().map(|p| p.name()),
        "reason": selection.reason(),
        "strategies": strategies,
        "advice": advice(model).iter().map(|a| a.message.clone()).collect::<Vec<_>>(),
    })
}
