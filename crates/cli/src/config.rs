//! `kap config --strategy S [FILE]`: each client's settings for strategy S with its documentation,
//! and, for a classic strategy, the safe migration from the consumers' current lists in FILE (or
//! from three consumers on `[range]`), step by step with what the coordinator does at each.

use std::io::Write;

use assignor::Strategy;
use scenario::config::{self, Migration, Target};
use scenario::Scenario;
use serde_json::{json, Value};

pub fn run(target: Target, scenario: Option<&Scenario>, as_json: bool, out: &mut impl Write) -> Result<(), String> {
    let settings = config::settings(target);
    let migration = match target {
        Target::Classic(strategy) => Some(config::migration(&current_lists(scenario), strategy, config::Naming::Every)),
        Target::Consumer(_) => None,
    };
    let text = if as_json {
        to_json(target, &settings, migration.as_ref()).to_string()
    } else {
        text(target, &settings, migration.as_ref())
    };
    writeln!(out, "{text}").map_err(|e| e.to_string())
}

/// Each consumer's parsed `partition.assignment.strategy`, in JoinGroup order.
fn current_lists(scenario: Option<&Scenario>) -> Vec<(String, Vec<Strategy>)> {
    match scenario {
        Some(s) if !s.consumers.is_empty() => s
            .consumers
            .iter()
            .map(|c| (c.id.clone(), c.strategies.iter().filter_map(|n| n.parse().ok()).collect()))
            .collect(),
        _ => (0..3).map(|i| (format!("C{i}"), vec![Strategy::Range])).collect(),
    }
}

fn text(target: Target, settings: &[config::Settings], migration: Option<&Migration>) -> String {
    let mut text = format!("Settings for {target}\n");
    for s in settings {
        text.push_str(&format!("\n{}  {}\n", s.client.name(), s.docs));
        for line in &s.lines {
            text.push_str(&format!("    {line}\n"));
        }
        if let Some(note) = &s.note {
            text.push_str(&format!("    ({note})\n"));
        }
    }
    let Some(migration) = migration else { return text.trim_end().to_string() };
    if migration.steps.len() == 1 {
        text.push_str("\nEvery consumer already lists only this strategy: nothing to migrate.");
        return text;
    }
    let bounces = migration.steps.iter().filter(|s| s.title.starts_with("After the")).count();
    text.push_str(&format!("\nMigrating in {bounces} rolling bounce(s):\n"));
    for (i, step) in migration.steps.iter().enumerate() {
        text.push_str(&format!("{}. {}: {}.\n", i + 1, step.title, step.outcome));
    }
    if let Some(trap) = &migration.trap {
        text.push_str(&format!("Do not: {}: {}.\n", trap.title.trim_start_matches("The trap, "), trap.outcome));
    }
    if let Some(note) = &migration.librdkafka {
        text.push_str(&format!("{note}\n"));
    }
    text.trim_end().to_string()
}

fn to_json(target: Target, settings: &[config::Settings], migration: Option<&Migration>) -> Value {
    let settings: Vec<Value> = settings
        .iter()
        .map(|s| json!({ "client": s.client.name(), "lines": s.lines, "docs": s.docs, "note": s.note }))
        .collect();
    let step = |s: &config::Step| {
        json!({
            "title": s.title,
            "lists": s.lists.iter().map(|(id, l)| json!([id, l.iter().map(|s| s.name()).collect::<Vec<_>>()])).collect::<Vec<_>>(),
            "strategy": s.selection.strategy.map(Strategy::name),
            "protocol": s.selection.group_protocol().map(|p| p.name()),
            "refused": s.selection.rejected.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>(),
            "outcome": s.outcome,
        })
    };
    json!({
        "target": target.to_string(),
        "settings": settings,
        "migration": migration.map(|m| json!({
            "steps": m.steps.iter().map(step).collect::<Vec<_>>(),
            "trap": m.trap.as_ref().map(step),
            "librdkafka": m.librdkafka,
        })),
    })
}
