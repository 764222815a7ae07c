//! `kap explain`: a strategy's decisions for a group as it is about to rebalance, one plain sentence
//! per step, each written as the strategy takes it: a classic strategy's, or a server-side
//! assignor's (`uniform`, `consumer-range`) as the group coordinator computes the next target. With `--json`, one object per step carrying
//! what the step changes in the assignment, then one line with the whole assignment: the output
//! grows with the steps, not with steps × partitions.

use std::io::{BufWriter, Write};

use scenario::report::{walk, ListChange, WalkStep};
use scenario::{Model, Scenario, StrategyId};
use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::json::{Assignment, Partition, Partitions};

pub fn run(scenario: &Scenario, strategy: StrategyId, as_json: bool, out: &mut impl Write) -> Result<(), String> {
    let model = Model::new(scenario)
        .map_err(|problems| problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))?;
    let mut out = BufWriter::new(out);
    let mut number = 0;
    let mut failed: Option<String> = None;
    let walked = walk(&model, strategy, |step| {
        number += 1;
        if failed.is_some() {
            return;
        }
        let written = if as_json {
            serde_json::to_writer(&mut out, &StepJson { number, step: &step })
                .map_err(|e| e.to_string())
                .and_then(|()| writeln!(out).map_err(|e| e.to_string()))
        } else {
            writeln!(out, "{number:>4}. {}", step.step).map_err(|e| e.to_string())
        };
        failed = written.err();
    });
    if let Some(message) = failed {
        return Err(message);
    }
    // The steps so far stay written when the assignor gives up.
    out.flush().map_err(|e| e.to_string())?;
    let walked = walked.map_err(|e| e.to_string())?;
    if as_json {
        #[derive(serde::Serialize)]
        struct Last<'a> {
            assignment: Assignment<'a, std::slice::Iter<'a, String>>,
        }
        let last = Last { assignment: Assignment { order: walked.members.iter(), lists: &walked.assignment } };
        serde_json::to_writer(&mut out, &last).map_err(|e| e.to_string())?;
        writeln!(out).map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())
}

/// `{"step": 3, "kind": "assign", "text": "Give t0-1 to C1.", "partition": ["t0", 1], "members":
/// ["C1"], "changes": [{"member": "C1", "add": ["t0", 1]}]}`.
struct StepJson<'a> {
    number: usize,
    step: &'a WalkStep,
}

impl Serialize for StepJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let step = &self.step.step;
        let (partition, members) = step.focus();
        let mut map = serializer.serialize_map(Some(6))?;
        map.serialize_entry("step", &self.number)?;
        map.serialize_entry("kind", step.kind())?;
        map.serialize_entry("text", &format_args!("{step}"))?;
        map.serialize_entry("partition", &partition.map(Partition))?;
        map.serialize_entry("members", &members)?;
        map.serialize_entry("changes", &Changes(&self.step.changes))?;
        map.end()
    }
}

/// `{"member": "C0", "add": ["t", 0]}` (to the end of its list), `{"member": "C0", "remove": ["t",
/// 0]}`, or `{"member": "C0", "order": [["t", 0], ...]}` (its whole list, reordered).
struct Changes<'a>(&'a [ListChange]);

impl Serialize for Changes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Change<'a>(&'a ListChange);
        impl Serialize for Change<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(2))?;
                match self.0 {
                    ListChange::Add { member, partition } => {
                        map.serialize_entry("member", member)?;
                        map.serialize_entry("add", &Partition(partition))?;
                    }
                    ListChange::Remove { member, partition } => {
                        map.serialize_entry("member", member)?;
                        map.serialize_entry("remove", &Partition(partition))?;
                    }
                    ListChange::Reorder { member, order } => {
                        map.serialize_entry("member", member)?;
                        map.serialize_entry("order", &Partitions(order))?;
                    }
                }
                map.end()
            }
        }
        serializer.collect_seq(self.0.iter().map(Change))
    }
}
