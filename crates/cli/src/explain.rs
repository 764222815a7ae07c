//! `kap explain`: a strategy's decisions for a group, one plain sentence per step; with `--json`,
//! one object per step carrying the assignment so far.

use std::collections::BTreeMap;
use std::io::Write;

use assignor::trace::{self, Step};
use assignor::Strategy;
use scenario::{Model, Scenario};
use serde_json::{json, Map, Value};

use crate::batch::pairs;

pub fn run(scenario: &Scenario, strategy: Strategy, as_json: bool, out: &mut impl Write) -> Result<(), String> {
    let model = Model::new(scenario)
        .map_err(|problems| problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))?;
    let group = model.group(strategy);
    let mut steps: Vec<Step> = Vec::new();
    assignor::assign_traced(strategy, &group, &mut steps).map_err(|e| e.to_string())?;
    let ids: Vec<&str> = group.members.iter().map(|m| m.id.as_str()).collect();
    let mut lists: BTreeMap<String, Vec<assignor::TopicPartition>> =
        ids.iter().map(|id| (id.to_string(), Vec::new())).collect();
    let mut text = String::new();
    for (i, step) in steps.iter().enumerate() {
        trace::apply(&mut lists, step);
        if as_json {
            let mut assignment = Map::new();
            for id in &ids {
                assignment.insert(id.to_string(), pairs(lists.get(*id).map(Vec::as_slice).unwrap_or_default()));
            }
            let (partition, members) = step.focus();
            let line = json!({
                "step": i + 1,
                "kind": step.kind(),
                "text": step.to_string(),
                "partition": partition.map(|tp| json!([&*tp.topic, tp.partition])),
                "members": members,
                "assignment": Value::Object(assignment),
            });
            text.push_str(&format!("{line}\n"));
        } else {
            text.push_str(&format!("{:>4}. {step}\n", i + 1));
        }
    }
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())
}
