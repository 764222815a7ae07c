//! `kap show`: every strategy side by side, as a table for people or JSON for machines, presenting
//! the scenario's [`Report`]. Strategies are computed one at a time and each is written (or cut
//! down to its table column) before the next: a million partitions stay within memory.

use std::fmt::Display;
use std::io::{BufWriter, Write};

use assignor::rebalance::{Moved, Rebalance};
use assignor::{Strategy, TopicPartition};
use scenario::report::{Outcome, Report, StrategyReport};
use scenario::{Model, Scenario, TopicSpec};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::json::{by_id, Partition};

pub fn run(mut scenario: Scenario, as_json: bool, out: &mut impl Write) -> Result<(), String> {
    let (mut report, model) = Report::begin(&scenario);
    let Some(model) = model else {
        return Err(report.errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"));
    };
    let servers = crate::show_consumer::Servers::of(report.with_servers(&model), &model);
    // From here on the model is the group: the scenario's copy of it goes, but for the weighted
    // topics (load by traffic; weights never change an assignment).
    let title = std::mem::take(&mut scenario.title);
    let traffic = Traffic::of(&scenario);
    drop(scenario);
    let mut out = BufWriter::new(out);
    if as_json {
        let shown = Shown {
            title: &title,
            group_strategy: model.selection().strategy.map(Strategy::name),
            group_protocol: model.selection().group_protocol().map(|p| p.name()),
            reason: model.selection().reason(),
            strategies: Strategies(&model, traffic.as_ref()),
            advice: Texts(report.advice.iter().map(|a| &a.message).collect()),
            consumer_protocol: servers.as_ref(),
        };
        serde_json::to_writer(&mut out, &shown).map_err(|e| e.to_string())?;
        writeln!(out).map_err(|e| e.to_string())?;
    } else {
        table(&title, &report, &model, traffic.as_ref(), &mut out).map_err(|e| e.to_string())?;
        if let Some(servers) = &servers {
            servers.write_table(&report.members, &mut out).map_err(|e| e.to_string())?;
        }
    }
    out.flush().map_err(|e| e.to_string())
}

/// The weighted topics and what their weights measure, when any topic has weights.
struct Traffic {
    topics: Vec<TopicSpec>,
    unit: String,
}

impl Traffic {
    fn of(scenario: &Scenario) -> Option<Traffic> {
        let topics: Vec<TopicSpec> = scenario.topics.iter().filter(|t| t.is_weighted()).cloned().collect();
        let unit = if scenario.view.weight_unit.is_empty() { "weight" } else { &scenario.view.weight_unit };
        (!topics.is_empty()).then(|| Traffic { topics, unit: unit.to_string() })
    }
}

/// One strategy's column of the table, and its moves.
struct Column {
    header: String,
    /// One per member, in JoinGroup order.
    cells: Vec<String>,
    /// spread, moved, paused, rounds.
    summary: [String; 4],
    /// By weight, when topics have weights: the spread and the heaviest member.
    load: String,
    moves: Option<String>,
}

impl Column {
    fn new(members: &[String], report: &StrategyReport, traffic: Option<&Traffic>) -> Column {
        let strategy = report.strategy;
        match report.outcome.as_deref() {
            Err(e) => Column {
                header: strategy.to_string(),
                cells: members.iter().map(|_| format!("error: {e}")).collect(),
                summary: Default::default(),
                load: String::new(),
                moves: None,
            },
            Ok(outcome) => {
                let rebalance = &outcome.rebalance;
                let list = |member: &String| rebalance.result().get(member).map(Vec::as_slice).unwrap_or_default();
                let metrics = &outcome.metrics;
                let moves = (!rebalance.diff.moved.is_empty()).then(|| {
                    let moves: Vec<String> = rebalance.diff.moved.iter().map(move_text).collect();
                    format!("{strategy} moves: {}", moves.join(", "))
                });
                Column {
                    header: format!("{strategy} ({})", rebalance.protocol),
                    cells: members
                        .iter()
                        .map(|m| format!("{:>3}  {}", list(m).len(), scenario::compact(list(m))))
                        .collect(),
                    summary: [
                        format!("{} (max {}, min {})", metrics.spread(), metrics.max, metrics.min),
                        format!("{} of {}", outcome.moved(), metrics.assigned),
                        rebalance.paused_count().to_string(),
                        rebalance.rounds.len().to_string(),
                    ],
                    load: traffic.map_or_else(String::new, |t| {
                        let l = outcome.load(&t.topics);
                        format!("spread {}, max {}% on {}", l.spread, l.heaviest_share(), l.most_loaded.join(", "))
                    }),
                    moves,
                }
            }
        }
    }
}

pub(crate) fn move_text(m: &Moved) -> String {
    format!("{} {}→{}", m.partition, m.from, m.to.as_deref().unwrap_or("nobody"))
}

fn table(
    title: &str,
    report: &Report,
    model: &Model,
    traffic: Option<&Traffic>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let members = &report.members;
    let columns: Vec<Column> =
        Strategy::ALL.iter().map(|&s| Column::new(members, &StrategyReport::new(model, s), traffic)).collect();
    let mut rows: Vec<Vec<&str>> = Vec::with_capacity(members.len() + 5);
    rows.push(std::iter::once("member").chain(columns.iter().map(|c| c.header.as_str())).collect());
    for (i, member) in members.iter().enumerate() {
        rows.push(std::iter::once(member.as_str()).chain(columns.iter().map(|c| c.cells[i].as_str())).collect());
    }
    for (i, name) in ["spread", "moved", "paused", "rounds"].into_iter().enumerate() {
        rows.push(std::iter::once(name).chain(columns.iter().map(|c| c.summary[i].as_str())).collect());
    }
    let load_name = traffic.map(|t| format!("load ({})", t.unit));
    if let Some(name) = &load_name {
        rows.push(std::iter::once(name.as_str()).chain(columns.iter().map(|c| c.load.as_str())).collect());
    }

    if !title.is_empty() {
        write!(out, "{title}\n\n")?;
    }
    let selection = model.selection();
    if let Some(chosen) = selection.strategy {
        let protocol = selection.group_protocol().map(|p| p.to_string()).unwrap_or_default();
        write!(out, "The group uses {chosen} ({protocol}): {}.\n\n", selection.reason())?;
    }
    write_rows(&rows, members.len(), out)?;
    let notes: Vec<String> = columns
        .iter()
        .filter_map(|c| c.moves.clone())
        .chain(report.advice.iter().map(|a| format!("note: {}", a.message)))
        .collect();
    if !notes.is_empty() {
        writeln!(out)?;
        for note in notes {
            writeln!(out, "{note}")?;
        }
    }
    Ok(())
}

/// A table: a header row, a rule, one row per member, a rule, the summary rows; columns padded to
/// their widest cell.
pub(crate) fn write_rows(rows: &[Vec<impl AsRef<str>>], members: usize, out: &mut impl Write) -> std::io::Result<()> {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().map(|r| r.get(c).map_or(0, |s| s.as_ref().chars().count())).max().unwrap_or(0))
        .collect();
    let rule = widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join("  ");
    for (i, row) in rows.iter().enumerate() {
        // Padded by hand: a cell may be wider than `format!` widths go (65,535).
        let mut line = String::new();
        for (cell, width) in row.iter().zip(&widths) {
            let cell = cell.as_ref();
            if !line.is_empty() {
                line.push_str("  ");
            }
            line.push_str(cell);
            line.extend(std::iter::repeat_n(' ', width.saturating_sub(cell.chars().count())));
        }
        writeln!(out, "{}", line.trim_end())?;
        if i == 0 || (i == members && members > 0) {
            writeln!(out, "{rule}")?;
        }
    }
    Ok(())
}

/// `kap show --json`.
#[derive(serde::Serialize)]
struct Shown<'a> {
    title: &'a str,
    group_strategy: Option<&'static str>,
    group_protocol: Option<&'static str>,
    reason: String,
    strategies: Strategies<'a>,
    advice: Texts<&'a String>,
    /// Only for a group on the consumer protocol.
    #[serde(skip_serializing_if = "Option::is_none")]
    consumer_protocol: Option<&'a crate::show_consumer::Servers>,
}

/// Every strategy's outcome, each computed as it is written and dropped after.
struct Strategies<'a>(&'a Model, Option<&'a Traffic>);

impl Serialize for Strategies<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(Strategy::ALL.len()))?;
        for strategy in Strategy::ALL {
            let report = StrategyReport::new(self.0, strategy);
            match report.outcome.as_deref() {
                Ok(outcome) => map.serialize_entry(strategy.name(), &OutcomeJson(outcome, self.1))?,
                Err(e) => map.serialize_entry(strategy.name(), &ErrorJson { error: e.to_string() })?,
            }
        }
        map.end()
    }
}

#[derive(serde::Serialize)]
struct ErrorJson {
    error: String,
}

struct OutcomeJson<'a>(&'a Outcome, Option<&'a Traffic>);

impl Serialize for OutcomeJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Outcome { rebalance, metrics, violations, needless_moves } = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("protocol", rebalance.protocol.name())?;
        map.serialize_entry("settled", &rebalance.settled)?;
        map.serialize_entry("assignment", &by_id(rebalance.result()))?;
        map.serialize_entry("rounds", &Rounds(rebalance))?;
        map.serialize_entry("moved", &Moves(&rebalance.diff.moved))?;
        map.serialize_entry("paused", &by_id(&rebalance.paused))?;
        map.serialize_entry(
            "metrics",
            &MetricsJson {
                counts: &metrics.counts,
                spread: metrics.spread(),
                most_loaded: &metrics.most_loaded,
                idle: &metrics.idle,
                unassigned: metrics.unassigned,
                cross_rack: metrics.cross_rack,
                needless_moves: *needless_moves,
                load: self.1.map(|t| LoadJson::of(&self.0.load(&t.topics))),
            },
        )?;
        map.serialize_entry("violations", &Texts(violations.iter().collect()))?;
        map.end()
    }
}

#[derive(serde::Serialize)]
struct MetricsJson<'a> {
    counts: &'a std::collections::BTreeMap<String, usize>,
    spread: usize,
    most_loaded: &'a [String],
    idle: &'a [String],
    unassigned: usize,
    cross_rack: usize,
    needless_moves: usize,
    /// Only when topics have weights.
    #[serde(skip_serializing_if = "Option::is_none")]
    load: Option<LoadJson>,
}

/// Each member's weight, the total, the spread and the heaviest members.
#[derive(serde::Serialize)]
struct LoadJson {
    weights: std::collections::BTreeMap<String, u64>,
    total: u64,
    spread: u64,
    most_loaded: Vec<String>,
}

impl LoadJson {
    fn of(load: &scenario::load::Load) -> LoadJson {
        LoadJson {
            weights: load.members.iter().map(|(id, m)| (id.clone(), m.weight)).collect(),
            total: load.total,
            spread: load.spread,
            most_loaded: load.most_loaded.clone(),
        }
    }
}

/// Each round: its generation, its assignment and what it withholds.
struct Rounds<'a>(&'a Rebalance);

impl Serialize for Rounds<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.rounds.len()))?;
        for round in &self.0.rounds {
            seq.serialize_element(&RoundJson {
                generation: round.generation,
                assignment: by_id(&round.assignment.members),
                withheld: Withheld(&round.assignment.withheld),
            })?;
        }
        seq.end()
    }
}

#[derive(serde::Serialize)]
struct RoundJson<'a> {
    generation: i32,
    assignment: crate::json::Assignment<'a, std::collections::btree_map::Keys<'a, String, Vec<TopicPartition>>>,
    withheld: Withheld<'a>,
}

/// `[{"partition": ["t", 0], "to": "C1"}]`: withheld from `to` until its owner revokes it.
struct Withheld<'a>(&'a std::collections::BTreeMap<TopicPartition, String>);

impl Serialize for Withheld<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Entry<'a> {
            partition: Partition<'a>,
            to: &'a str,
        }
        serializer.collect_seq(self.0.iter().map(|(tp, to)| Entry { partition: Partition(tp), to }))
    }
}

/// `[{"partition": ["t", 0], "from": "C0", "to": "C1"}]`; `"to": null` while withheld.
pub(crate) struct Moves<'a>(pub(crate) &'a [Moved]);

impl Serialize for Moves<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Entry<'a> {
            partition: Partition<'a>,
            from: &'a str,
            to: Option<&'a str>,
        }
        serializer.collect_seq(self.0.iter().map(|m| Entry {
            partition: Partition(&m.partition),
            from: &m.from,
            to: m.to.as_deref(),
        }))
    }
}

/// Each item as its sentence.
struct Texts<T>(Vec<T>);

impl<T: Display> Serialize for Texts<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for item in &self.0 {
            seq.serialize_element(&format_args!("{item}"))?;
        }
        seq.end()
    }
}
