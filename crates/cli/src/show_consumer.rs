//! `kap show` of a group on the consumer protocol (KIP-848): the server-side assignors' targets beside
//! the classic table, with the diff, the metrics and the reconciliation (what each member consumes
//! after each heartbeat, what stops), and what moving to the new protocol changes — the report's
//! [`scenario::server`] values, as the page shows them.

use std::io::Write;

use assignor::consumer_group::reconcile::Lane;
use assignor::consumer_group::ServerAssignor;
use scenario::report::Report;
use scenario::server::{lane_changes, state_name, subscription_name, ServerOutcome, ServerReport};
use scenario::Model;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::json::{by_id, Partition, Partitions};

/// The server-side assignors' reports and what moving changes, for a consumer-protocol group.
pub struct Servers {
    /// The group's `group.remote.assignor`.
    pub assignor: ServerAssignor,
    pub reports: Vec<ServerReport>,
    pub migration: Vec<String>,
    /// Each topic's id, given or derived from its name: what the coordinator's assignors see.
    pub topic_ids: Vec<(String, String)>,
}

impl Servers {
    /// For a group on the consumer protocol: `report` holds the servers and the classic choice's outcome.
    pub fn of(report: &Report, model: &Model) -> Option<Servers> {
        Some(Servers {
            assignor: report.server_assignor?,
            reports: report.servers.clone(),
            migration: scenario::server::migration(report),
            topic_ids: model
                .topics
                .iter()
                .zip(&model.topic_ids)
                .map(|(t, id)| (t.name.clone(), id.to_string()))
                .collect(),
        })
    }

    /// The section under the classic table.
    pub fn write_table(&self, members: &[String], out: &mut impl Write) -> std::io::Result<()> {
        let outcomes: Vec<(ServerAssignor, Result<&ServerOutcome, String>)> = self
            .reports
            .iter()
            .map(|r| (r.assignor, r.outcome.as_deref().map_err(|e| format!("error: {e}"))))
            .collect();
        write!(
            out,
            "\nConsumer protocol (group.protocol=consumer), the group's group.remote.assignor: {}\n\n",
            self.assignor
        )?;
        let mut rows: Vec<Vec<String>> = Vec::with_capacity(members.len() + 6);
        rows.push(
            std::iter::once("member".to_string())
                .chain(outcomes.iter().map(|(a, o)| match o {
                    Ok(o) => format!("{a} ({})", subscription_name(o.subscription_type)),
                    Err(_) => a.to_string(),
                }))
                .collect(),
        );
        for member in members {
            rows.push(
                std::iter::once(member.clone())
                    .chain(outcomes.iter().map(|(_, o)| match o {
                        Ok(o) => {
                            let list = o.target.get(member).map(Vec::as_slice).unwrap_or_default();
                            format!("{:>3}  {}", list.len(), scenario::compact(list))
                        }
                        Err(e) => e.clone(),
                    }))
                    .collect(),
            );
        }
        let summary = |name: &str, value: &dyn Fn(&ServerOutcome) -> String| {
            std::iter::once(name.to_string())
                .chain(outcomes.iter().map(|(_, o)| o.as_ref().map_or_else(|_| String::new(), |o| value(o))))
                .collect::<Vec<String>>()
        };
        rows.push(summary("spread", &|o| {
            format!("{} (max {}, min {})", o.metrics.spread(), o.metrics.max, o.metrics.min)
        }));
        rows.push(summary("moved", &|o| format!("{} of {}", o.moved(), o.metrics.assigned)));
        rows.push(summary("stopped", &|o| match &o.reconciliation {
            Some(r) => format!("{} (at most {} heartbeats)", r.stops.len(), o.longest_stop().unwrap_or(0)),
            None => "not simulated".to_string(),
        }));
        rows.push(summary("rounds", &|o| o.reconciliation.as_ref().map_or_else(String::new, |r| r.rounds.to_string())));
        crate::show::write_rows(&rows, members.len(), out)?;
        for (assignor, outcome) in &outcomes {
            let Ok(outcome) = outcome else { continue };
            writeln!(out)?;
            if !outcome.diff.moved.is_empty() {
                let moves: Vec<String> = outcome.diff.moved.iter().map(crate::show::move_text).collect();
                writeln!(out, "{assignor} moves: {}", moves.join(", "))?;
            }
            let Some(reconciliation) = &outcome.reconciliation else {
                writeln!(
                    out,
                    "{assignor}: {} members × partitions is too many to simulate heartbeat by heartbeat",
                    members.len()
                )?;
                continue;
            };
            writeln!(
                out,
                "{assignor} reconciliation to epoch {}, heartbeats in the order {}, round after round ({} round{}):",
                outcome.epoch,
                outcome.heartbeats.join(", "),
                reconciliation.rounds,
                if reconciliation.rounds == 1 { "" } else { "s" }
            )?;
            for member in members {
                let Some(lane) = reconciliation.lanes.get(member) else { continue };
                writeln!(out, "  {member}: {}", lane_text(lane))?;
            }
            for stop in &reconciliation.stops {
                writeln!(
                    out,
                    "  {} stops for {} heartbeat{} ({} → {})",
                    stop.partition,
                    stop.heartbeats,
                    if stop.heartbeats == 1 { "" } else { "s" },
                    stop.from,
                    stop.to
                )?;
            }
        }
        writeln!(out)?;
        for line in &self.migration {
            writeln!(out, "note: {line}")?;
        }
        Ok(())
    }
}

/// A member's lane: what it consumes at first, then after each heartbeat that changes it.
fn lane_text(lane: &Lane) -> String {
    let shown = |set: &std::collections::BTreeSet<assignor::TopicPartition>| {
        if set.is_empty() {
            "nothing".to_string()
        } else {
            scenario::compact(&set.iter().cloned().collect::<Vec<_>>())
        }
    };
    lane_changes(lane)
        .into_iter()
        .filter_map(|(after, state)| {
            let consuming = lane.consuming.get(after)?;
            Some(if after == 0 {
                shown(consuming)
            } else {
                format!("after {after}: {} ({})", shown(consuming), state_name(state))
            })
        })
        .collect::<Vec<_>>()
        .join("; ")
}

impl Serialize for Servers {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(4))?;
        map.serialize_entry("remote_assignor", self.assignor.name())?;
        map.serialize_entry(
            "topic_ids",
            &serde_json::Map::from_iter(self.topic_ids.iter().map(|(t, id)| (t.clone(), id.clone().into()))),
        )?;
        map.serialize_entry("assignors", &Assignors(&self.reports))?;
        map.serialize_entry("migration", &self.migration)?;
        map.end()
    }
}

struct Assignors<'a>(&'a [ServerReport]);

impl Serialize for Assignors<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for report in self.0 {
            match report.outcome.as_deref() {
                Ok(outcome) => map.serialize_entry(report.assignor.name(), &OutcomeJson(outcome))?,
                Err(e) => {
                    map.serialize_entry(report.assignor.name(), &serde_json::json!({ "error": e.to_string() }))?
                }
            }
        }
        map.end()
    }
}

struct OutcomeJson<'a>(&'a ServerOutcome);

impl Serialize for OutcomeJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let o = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("subscription_type", subscription_name(o.subscription_type))?;
        map.serialize_entry("epoch", &o.epoch)?;
        map.serialize_entry("assignment", &by_id(&o.target))?;
        map.serialize_entry("moved", &crate::show::Moves(&o.diff.moved))?;
        map.serialize_entry(
            "metrics",
            &serde_json::json!({
                "counts": o.metrics.counts,
                "spread": o.metrics.spread(),
                "most_loaded": o.metrics.most_loaded,
                "idle": o.metrics.idle,
                "unassigned": o.metrics.unassigned,
                "needless_moves": o.needless_moves,
            }),
        )?;
        map.serialize_entry("reconciliation", &o.reconciliation.as_ref().map(|_| ReconciliationJson(o)))?;
        map.end()
    }
}

/// `{"rounds", "converged", "heartbeats": [member, …], "lanes": {member: [{"after", "consuming",
/// "state"}, …]}, "stops": [{"partition", "from", "to", "heartbeats"}]}`; a lane lists its first
/// sample (`"after": 0`) and each heartbeat after which what it consumes, or its state, changed.
struct ReconciliationJson<'a>(&'a ServerOutcome);

impl Serialize for ReconciliationJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Some(r) = &self.0.reconciliation else { return serializer.serialize_none() };
        let mut map = serializer.serialize_map(Some(5))?;
        map.serialize_entry("rounds", &r.rounds)?;
        map.serialize_entry("converged", &r.converged)?;
        map.serialize_entry("heartbeats", &self.0.heartbeats)?;
        map.serialize_entry("lanes", &Lanes(&r.lanes))?;
        map.serialize_entry("stops", &Stops(&r.stops))?;
        map.end()
    }
}

struct Lanes<'a>(&'a std::collections::BTreeMap<String, Lane>);

impl Serialize for Lanes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (member, lane) in self.0 {
            map.serialize_entry(member, &LaneJson(lane))?;
        }
        map.end()
    }
}

struct LaneJson<'a>(&'a Lane);

impl Serialize for LaneJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Sample<'a> {
            after: usize,
            consuming: Partitions<'a>,
            state: &'static str,
        }
        let lane = self.0;
        let mut seq = serializer.serialize_seq(None)?;
        for (after, state) in lane_changes(lane) {
            let list: Vec<assignor::TopicPartition> =
                lane.consuming.get(after).map(|set| set.iter().cloned().collect()).unwrap_or_default();
            seq.serialize_element(&Sample { after, consuming: Partitions(&list), state: state_name(state) })?;
        }
        seq.end()
    }
}

struct Stops<'a>(&'a [assignor::consumer_group::reconcile::Stop]);

impl Serialize for Stops<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Entry<'a> {
            partition: Partition<'a>,
            from: &'a str,
            to: &'a str,
            heartbeats: usize,
        }
        serializer.collect_seq(self.0.iter().map(|s| Entry {
            partition: Partition(&s.partition),
            from: &s.from,
            to: &s.to,
            heartbeats: s.heartbeats,
        }))
    }
}
