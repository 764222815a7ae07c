//! `kap batch`: one group snapshot per input line, one result per output line, never stopping on a
//! bad line.
//!
//! In: `{"id":"g1","strategy":"sticky","topics":{"t0":3},"members":[{"id":"C0","topics":["t0"],...}]}`
//! Out: `{"id":"g1","assignment":{"C0":[["t0",0],...]},"error":null}`, members in input order,
//! partitions in the order Kafka lists them; `"assignment":null` and the reason on bad input.

use std::io::{self, Write};

use serde_json::{json, Map, Value};

pub fn run(lines: impl Iterator<Item = io::Result<String>>, out: &mut impl Write) -> Result<(), String> {
    for line in lines {
        let line = line.map_err(|e| format!("reading stdin: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let result = answer(&line);
        writeln!(out, "{result}").map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())
}

/// The result line for one input line.
pub fn answer(line: &str) -> Value {
    let raw: Value = match serde_json::from_str(line) {
        Ok(value) => value,
        Err(e) => return failure(Value::Null, format!("not JSON: {e}")),
    };
    let id = raw.get("id").cloned().unwrap_or(Value::Null);
    let snapshot: scenario::Snapshot = match serde_json::from_value(raw) {
        Ok(snapshot) => snapshot,
        Err(e) => return failure(id, format!("not a group snapshot: {e}")),
    };
    let (strategy, group) = match snapshot.to_group() {
        Ok(parsed) => parsed,
        Err(message) => return failure(id, message),
    };
    match assignor::assign(strategy, &group) {
        Ok(assignment) => {
            let mut members = Map::new();
            for member in &group.members {
                let list = assignment.members.get(&member.id).map(Vec::as_slice).unwrap_or_default();
                members.insert(member.id.clone(), pairs(list));
            }
            json!({ "id": id, "assignment": members, "error": null })
        }
        Err(e) => failure(id, e.to_string()),
    }
}

pub fn pairs(list: &[assignor::TopicPartition]) -> Value {
    Value::Array(list.iter().map(|tp| json!([&*tp.topic, tp.partition])).collect())
}

fn failure(id: Value, message: String) -> Value {
    json!({ "id": id, "assignment": null, "error": message })
}
