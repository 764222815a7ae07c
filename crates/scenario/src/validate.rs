//! Every check a scenario passes before anything is computed, with messages a person can act on.
//! The playground shows them beside the field they name; the CLI prints them.

use std::collections::HashSet;
use std::fmt;

use crate::format::{Scenario, VERSION};

/// The most partitions one topic may have here.
pub const MAX_TOPIC_PARTITIONS: u32 = 1_000_000;
/// The most partitions a whole scenario may have (Kafka's largest assignor test has 1,000,000).
pub const MAX_TOTAL_PARTITIONS: u64 = 1_000_000;
/// The most topics a scenario may have here.
pub const MAX_TOPICS: usize = 10_000;
/// The most consumers a scenario may have here.
pub const MAX_CONSUMERS: usize = 10_000;
/// Kafka's limit on topic name length.
pub const MAX_TOPIC_NAME: usize = 249;
/// The longest `member.id` and `group.instance.id` here.
pub const MAX_ID: usize = 255;

/// Where in a scenario a problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// The scenario as a whole.
    Scenario,
    /// `field` of the topic at `index`.
    Topic {
        /// The topic's position.
        index: usize,
        /// The field's name in the scenario file.
        field: &'static str,
    },
    /// `field` of the consumer at `index`.
    Consumer {
        /// The consumer's position.
        index: usize,
        /// The field's name in the scenario file.
        field: &'static str,
    },
    /// The previous assignment.
    Previous,
}

/// Whether a problem stops the scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Worth knowing; the scenario still runs.
    Warning,
    /// The scenario cannot run until this is fixed.
    Error,
}

/// One thing wrong with a scenario, where it is, and what a person can do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Whether it stops the scenario.
    pub severity: Severity,
    /// Where it is.
    pub location: Location,
    /// What is wrong, in a sentence that does not repeat the location.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            Location::Scenario | Location::Previous => write!(f, "{}", self.message),
            Location::Topic { index, field } => write!(f, "topic {} {field}: {}", index + 1, self.message),
            Location::Consumer { index, field } => write!(f, "consumer {} {field}: {}", index + 1, self.message),
        }
    }
}

/// Kafka's rule for topic names: ASCII letters, digits, `.`, `_` and `-`; not `.` or `..`.
fn topic_name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("a topic needs a name".into());
    }
    if name.len() > MAX_TOPIC_NAME {
        return Some(format!("a topic name has at most {MAX_TOPIC_NAME} characters"));
    }
    if name == "." || name == ".." {
        return Some(format!("{name:?} is not a legal topic name"));
    }
    if let Some(c) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))) {
        return Some(format!("{c:?} is not allowed in a topic name (letters, digits, '.', '_' and '-' are)"));
    }
    None
}

/// A partition count, as typed, checked.
pub(crate) fn partition_count_problem(count: u64) -> Option<String> {
    if count == 0 {
        Some("a topic has at least one partition".into())
    } else if count > u64::from(MAX_TOPIC_PARTITIONS) {
        Some(format!("at most {MAX_TOPIC_PARTITIONS} partitions per topic"))
    } else {
        None
    }
}

/// Kafka matches subscription patterns against whole topic names.
pub(crate) fn compile_pattern(pattern: &str) -> Result<regex_lite::Regex, String> {
    regex_lite::Regex::new(&format!("^(?:{pattern})$")).map_err(|e| format!("{pattern:?} is not a valid pattern: {e}"))
}

/// Every problem of `scenario`, errors and warnings.
pub fn problems(scenario: &Scenario) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    let mut error = |location: Location, message: String| {
        out.push(Problem { severity: Severity::Error, location, message });
    };
    if scenario.version > VERSION {
        error(
            Location::Scenario,
            format!(
                "this scenario was written by a newer version (format {}); this one reads up to {VERSION}",
                scenario.version
            ),
        );
    }
    if scenario.topics.len() > MAX_TOPICS {
        error(Location::Scenario, format!("at most {MAX_TOPICS} topics"));
    }
    if scenario.consumers.len() > MAX_CONSUMERS {
        error(Location::Scenario, format!("at most {MAX_CONSUMERS} consumers"));
    }
    let mut names = HashSet::new();
    let mut total: u64 = 0;
    for (index, topic) in scenario.topics.iter().enumerate() {
        if let Some(message) = topic_name_problem(&topic.name) {
            error(Location::Topic { index, field: "name" }, message);
        } else if !names.insert(topic.name.as_str()) {
            error(Location::Topic { index, field: "name" }, format!("there is already a topic {:?}", topic.name));
        }
        if let Some(message) = partition_count_problem(u64::from(topic.partitions)) {
            error(Location::Topic { index, field: "partitions" }, message);
        }
        total += u64::from(topic.partitions);
        if let Some(layout) = &topic.replicas {
            if layout.factor == 0 {
                error(Location::Topic { index, field: "replicas" }, "the replication factor is at least 1".into());
            }
            if layout.racks.is_empty() {
                error(Location::Topic { index, field: "replicas" }, "name at least one rack for the replicas".into());
            }
            if layout.factor as usize > layout.racks.len().max(1) {
                error(
                    Location::Topic { index, field: "replicas" },
                    format!("replication factor {} needs at least {} racks", layout.factor, layout.factor),
                );
            }
        }
        if let Some((&p, _)) = topic.rack_overrides.iter().find(|(&p, _)| p >= topic.partitions) {
            error(
                Location::Topic { index, field: "racks" },
                format!("rack override for partition {p}, but the topic has {} partitions", topic.partitions),
            );
        }
    }
    if total > MAX_TOTAL_PARTITIONS {
        error(Location::Scenario, format!("{total} partitions in all; at most {MAX_TOTAL_PARTITIONS}"));
    }

    let mut ids = HashSet::new();
    let mut instances = HashSet::new();
    for (index, consumer) in scenario.consumers.iter().enumerate() {
        let id = consumer.id.as_str();
        if id.trim().is_empty() {
            error(Location::Consumer { index, field: "id" }, "a consumer needs an id".into());
        } else if id.len() > MAX_ID {
            error(Location::Consumer { index, field: "id" }, format!("an id has at most {MAX_ID} characters"));
        } else if !ids.insert(id) {
            error(Location::Consumer { index, field: "id" }, format!("there is already a consumer {id:?}"));
        }
        if let Some(instance) = &consumer.instance_id {
            if instance.trim().is_empty() {
                error(Location::Consumer { index, field: "instance_id" }, "a group.instance.id cannot be blank".into());
            } else if !instances.insert(instance.as_str()) {
                // The coordinator fences the second member with the same instance id (KIP-345).
                error(
                    Location::Consumer { index, field: "instance_id" },
                    format!("group.instance.id {instance:?} is already used by another consumer"),
                );
            }
        }
        for name in &consumer.strategies {
            if name.parse::<assignor::Strategy>().is_err() {
                error(
                    Location::Consumer { index, field: "strategies" },
                    format!("unknown strategy {name:?} (range, roundrobin, sticky or cooperative-sticky)"),
                );
            }
        }
        if consumer.strategies.is_empty() {
            error(
                Location::Consumer { index, field: "strategies" },
                "a consumer lists at least one partition.assignment.strategy".into(),
            );
        }
        for pattern in &consumer.patterns {
            if let Err(message) = compile_pattern(pattern) {
                error(Location::Consumer { index, field: "patterns" }, message);
            }
        }
        for topic in &consumer.topics {
            if !names.contains(topic.as_str()) {
                warnings.push(Problem {
                    severity: Severity::Warning,
                    location: Location::Consumer { index, field: "topics" },
                    message: format!("subscribes to {topic:?}, which does not exist: Kafka skips it"),
                });
            }
        }
    }
    if let Some(previous) = &scenario.previous {
        for strategy in previous.assignments.keys() {
            if strategy.parse::<assignor::Strategy>().is_err() {
                error(Location::Previous, format!("previous assignment for unknown strategy {strategy:?}"));
            }
        }
    }
    out.extend(warnings);
    out
}

/// Only the errors of `problems`.
pub fn errors(scenario: &Scenario) -> Vec<Problem> {
    problems(scenario).into_iter().filter(|p| p.severity == Severity::Error).collect()
}

/// `scenario` if it has no errors, else the first.
pub fn checked(scenario: Scenario) -> Result<Scenario, Problem> {
    match problems(&scenario).into_iter().find(|p| p.severity == Severity::Error) {
        Some(problem) => Err(problem),
        None => Ok(scenario),
    }
}
