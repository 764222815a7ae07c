//! Every check a scenario passes before anything is computed, with messages a person can act on.
//! The playground shows them beside the field they name; the CLI prints them.
//!
//! Every text has a size limit, checked on its length before anything looks at its characters, so
//! that a hostile file or link is refused in time proportional to the limit, never to the text.

use std::collections::HashSet;
use std::fmt;

use assignor::consumer_group::ServerAssignor;

use crate::format::{Scenario, CLASSIC_PROTOCOL, CONSUMER_PROTOCOL, VERSION};

/// The most partitions one topic may have here.
pub const MAX_TOPIC_PARTITIONS: u32 = 1_000_000;
/// The most partitions a whole scenario may have (Kafka's largest assignor test has 1,000,000).
pub const MAX_TOTAL_PARTITIONS: u64 = 1_000_000;
/// The most topics a scenario may have here.
pub const MAX_TOPICS: usize = 10_000;
/// The most consumers a scenario may have here.
pub const MAX_CONSUMERS: usize = 10_000;
/// The most members a `kap batch` snapshot may have: fifty times Kafka's largest assignor test
/// (2,000), so that a line's time and memory stay bounded.
pub const MAX_SNAPSHOT_MEMBERS: usize = 100_000;
/// Kafka's limit on topic name length (`Topic.MAX_NAME_LENGTH`); `group.instance.id` follows the
/// same rule (`JoinGroupRequest.validateGroupInstanceId`).
pub const MAX_TOPIC_NAME: usize = 249;
/// The playground's limit on a `member.id` (the coordinator makes them: client id and a UUID).
pub const MAX_ID: usize = 255;
/// A rack id travels as a protocol string (ConsumerProtocolSubscription v3, the brokers'
/// metadata), whose length is an int16: at most 32,767 bytes.
pub const MAX_RACK: usize = 32_767;
/// The playground's limit on one subscription pattern (Kafka sets none; compiling one costs time
/// in proportion to its length).
pub const MAX_PATTERN: usize = 1_000;
/// A scenario's title is a heading.
pub const MAX_TITLE: usize = 200;
/// A scenario's notes are a paragraph or a few.
pub const MAX_NOTES: usize = 5_000;

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
    /// `field` of the group's configuration (`protocol`, `remote_assignor`).
    Group {
        /// The field's name in the scenario file.
        field: &'static str,
    },
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
            Location::Group { field } => write!(f, "{field}: {}", self.message),
        }
    }
}

/// Kafka's rule for topic names: ASCII letters, digits, `.`, `_` and `-`; not `.` or `..`.
pub(crate) fn topic_name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("a topic needs a name".into());
    }
    kafka_name_problem(name, "topic name")
}

/// Kafka's rule for a `group.instance.id`: the topic-name rule (`Topic.validate`), checked by the
/// consumer's own configuration, which refuses to start otherwise.
pub fn instance_id_problem(id: &str) -> Option<String> {
    if id.is_empty() {
        return Some("a group.instance.id cannot be empty".into());
    }
    kafka_name_problem(id, "group.instance.id")
}

fn kafka_name_problem(name: &str, what: &str) -> Option<String> {
    if name.len() > MAX_TOPIC_NAME {
        return Some(format!("a {what} has at most {MAX_TOPIC_NAME} characters"));
    }
    if name == "." || name == ".." {
        return Some(format!("{name:?} is not a legal {what}"));
    }
    if let Some(c) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))) {
        return Some(format!("{c:?} is not allowed in a {what} (letters, digits, '.', '_' and '-' are)"));
    }
    None
}

/// Whether `text` has more than `max` characters, without counting the characters of a text
/// that is longer than `max` could ever be (a character is at most 4 bytes in UTF-8).
pub fn longer_than(text: &str, max: usize) -> bool {
    text.len() > max && (text.len() > max.saturating_mul(4) || text.chars().count() > max)
}

/// Why a rack id cannot be sent, if it cannot.
pub fn rack_problem(rack: &str) -> Option<String> {
    (rack.len() > MAX_RACK).then(|| format!("a rack id has at most {MAX_RACK} bytes"))
}

/// Why a count typed into a field is not one (`what`: "a partition count"), or the count; `None`
/// for an empty field. Checked by its digits before it is parsed: no count is ever built from a
/// text longer than the largest count allowed.
pub fn parse_count(text: &str, what: &str, max: u32) -> Result<Option<u32>, String> {
    let digits = text.trim();
    if digits.is_empty() {
        return Ok(None);
    }
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        let shown: String = digits.chars().take(24).collect();
        let cut = if shown.len() < digits.len() { "…" } else { "" };
        return Err(format!("{:?} is not {what}", format!("{shown}{cut}")));
    }
    let significant = digits.trim_start_matches('0');
    if significant.is_empty() {
        return Ok(Some(0));
    }
    if significant.len() > max.to_string().len() {
        return Err(format!("at most {max}"));
    }
    match significant.parse::<u32>() {
        Ok(n) if n <= max => Ok(Some(n)),
        _ => Err(format!("at most {max}")),
    }
}

/// A partition count as typed: `None` for an empty field, else the count or why it is refused.
pub fn parse_partition_count(text: &str) -> Result<Option<u32>, String> {
    let too_many = || format!("at most {MAX_TOPIC_PARTITIONS} partitions per topic");
    let count = parse_count(text, "a partition count", MAX_TOPIC_PARTITIONS).map_err(|e| {
        if e.starts_with("at most") {
            too_many()
        } else {
            e
        }
    })?;
    match count.and_then(|n| partition_count_problem(u64::from(n))) {
        Some(problem) => Err(problem),
        None => Ok(count),
    }
}

/// A partition count, as typed, checked. Zero is allowed: Kafka's metadata holds topics with no
/// partitions (being created, or deleted and re-created), and the assignors skip them.
pub(crate) fn partition_count_problem(count: u64) -> Option<String> {
    if count > u64::from(MAX_TOPIC_PARTITIONS) {
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
    if longer_than(&scenario.title, MAX_TITLE) {
        error(Location::Scenario, format!("a title has at most {MAX_TITLE} characters"));
    }
    if longer_than(&scenario.notes, MAX_NOTES) {
        error(Location::Scenario, format!("the notes have at most {MAX_NOTES} characters"));
    }
    if scenario.version == 0 {
        // Found by fuzzing: a link for it would say `v1.` and hold format 0, which no page opens.
        error(Location::Scenario, format!("there is no scenario format 0; this version reads 1 to {VERSION}"));
    }
    if scenario.topics.len() > MAX_TOPICS {
        error(Location::Scenario, format!("at most {MAX_TOPICS} topics"));
    }
    if scenario.consumers.len() > MAX_CONSUMERS {
        error(Location::Scenario, format!("at most {MAX_CONSUMERS} consumers"));
    }
    if let Some(protocol) = scenario.protocol.as_deref() {
        if protocol != CLASSIC_PROTOCOL && protocol != CONSUMER_PROTOCOL {
            let shown: String = protocol.chars().take(40).collect();
            error(
                Location::Group { field: "protocol" },
                format!("unknown group.protocol {shown:?} ({CLASSIC_PROTOCOL} or {CONSUMER_PROTOCOL})"),
            );
        }
    }
    if scenario.remote_assignor.is_some() && !scenario.consumer_protocol() {
        // `ConsumerConfig.checkGroupRemoteAssignor`: the client refuses to start.
        error(
            Location::Group { field: "remote_assignor" },
            "group.remote.assignor cannot be set when group.protocol=classic".into(),
        );
    } else if scenario.server_assignor().is_none() {
        let shown: String = scenario.remote_assignor.iter().flat_map(|a| a.chars()).take(40).collect();
        // The broker refuses the heartbeat: `UNSUPPORTED_ASSIGNOR` (group.consumer.assignors).
        error(
            Location::Group { field: "remote_assignor" },
            format!("unknown group.remote.assignor {shown:?}: the broker's assignors are uniform and range"),
        );
    }
    let mut names = HashSet::new();
    // Topic ids, explicit or derived, are unique in a cluster.
    let mut topic_ids = std::collections::HashMap::new();
    let mut total: u64 = 0;
    for (index, topic) in scenario.topics.iter().enumerate() {
        let mut named = false;
        if let Some(message) = topic_name_problem(&topic.name) {
            error(Location::Topic { index, field: "name" }, message);
        } else if !names.insert(topic.name.as_str()) {
            error(Location::Topic { index, field: "name" }, format!("there is already a topic {:?}", topic.name));
        } else {
            named = true;
        }
        if let Some(message) = partition_count_problem(u64::from(topic.partitions)) {
            error(Location::Topic { index, field: "partitions" }, message);
        }
        if let Some(message) = topic.id.as_deref().and_then(crate::topic_id::problem) {
            error(Location::Topic { index, field: "id" }, message);
        } else if let Some(id) = topic.topic_id().filter(|_| named) {
            if let Some(other) = topic_ids.insert(id, topic.name.as_str()) {
                error(Location::Topic { index, field: "id" }, format!("topic {other:?} already has the id {id}"));
            }
        }
        total += u64::from(topic.partitions);
        if let Some(layout) = &topic.replicas {
            if layout.factor == 0 {
                error(Location::Topic { index, field: "replicas" }, "the replication factor is at least 1".into());
            }
            if layout.racks.is_empty() {
                error(Location::Topic { index, field: "replicas" }, "name at least one rack for the replicas".into());
            }
            if let Some(message) = layout.racks.iter().flatten().find_map(|r| rack_problem(r)) {
                error(Location::Topic { index, field: "replicas" }, message);
            }
            if layout.factor as usize > layout.racks.len().max(1) {
                error(
                    Location::Topic { index, field: "replicas" },
                    format!("replication factor {} needs at least {} racks", layout.factor, layout.factor),
                );
            }
        }
        if let Some(message) = topic.rack_overrides.values().flatten().flatten().find_map(|r| rack_problem(r)) {
            error(Location::Topic { index, field: "racks" }, message);
        }
        if let Some(&p) = topic.partition_weights.keys().find(|&&p| p >= topic.partitions) {
            // A weight is not part of the group: one left over after fewer partitions only goes unused.
            warnings.push(Problem {
                severity: Severity::Warning,
                location: Location::Topic { index, field: "weights" },
                message: format!(
                    "the weight for partition {p} is unused: the topic has {} partitions",
                    topic.partitions
                ),
            });
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
            if let Some(message) = instance_id_problem(instance) {
                error(Location::Consumer { index, field: "instance_id" }, message);
            } else if !instances.insert(instance.as_str()) {
                // The coordinator fences the second member with the same instance id (KIP-345).
                error(
                    Location::Consumer { index, field: "instance_id" },
                    format!("group.instance.id {instance:?} is already used by another consumer"),
                );
            }
        }
        if let Some(message) = consumer.rack.as_deref().and_then(rack_problem) {
            error(Location::Consumer { index, field: "rack" }, message);
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
            if longer_than(pattern, MAX_PATTERN) {
                error(
                    Location::Consumer { index, field: "patterns" },
                    format!("a pattern has at most {MAX_PATTERN} characters"),
                );
            } else if let Err(message) = compile_pattern(pattern) {
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
            let server = ServerAssignor::ALL.iter().any(|&a| crate::format::previous_key(a) == strategy);
            if strategy.parse::<assignor::Strategy>().is_err() && !server {
                error(Location::Previous, format!("previous assignment for unknown strategy {strategy:?}"));
            }
        }
        // A deleted topic's id was unique in the cluster too. One whose name a topic has again (a
        // topic created anew) goes unused: the model reads the topic's own.
        for (name, text) in &previous.deleted_topic_ids {
            if let Some(message) = crate::topic_id::problem(text) {
                error(Location::Previous, format!("previous assignment, deleted topic {name:?} id: {message}"));
            } else if names.contains(name.as_str()) {
                continue;
            } else if let Some(other) = text.parse().ok().and_then(|id: assignor::Uuid| topic_ids.get(&id)) {
                error(
                    Location::Previous,
                    format!(
                        "previous assignment, deleted topic {name:?} id: topic {other:?} already has the id {text}"
                    ),
                );
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_checked_by_their_digits_before_they_are_parsed() {
        assert_eq!(parse_partition_count(""), Ok(None));
        assert_eq!(parse_partition_count(" 12 "), Ok(Some(12)));
        assert_eq!(parse_partition_count("0007"), Ok(Some(7)));
        assert_eq!(parse_partition_count("1000000"), Ok(Some(1_000_000)));
        // A topic with no partitions is one Kafka's metadata holds (being created or re-created).
        assert_eq!(parse_partition_count("0"), Ok(Some(0)));
        assert_eq!(parse_partition_count("000"), Ok(Some(0)));
        for too_many in ["1000001", "1000000000", "99999999999999999999999999", &"9".repeat(1 << 20)] {
            assert_eq!(parse_partition_count(too_many), Err("at most 1000000 partitions per topic".into()));
        }
        assert_eq!(parse_partition_count("-1"), Err("\"-1\" is not a partition count".into()));
        assert_eq!(parse_partition_count("1e3"), Err("\"1e3\" is not a partition count".into()));
        let long = format!("x{}", "9".repeat(100));
        assert_eq!(
            parse_partition_count(&long),
            Err(format!("{:?} is not a partition count", format!("x{}…", "9".repeat(23))))
        );
        assert_eq!(parse_count("32768", "a replication factor", 32_767), Err("at most 32767".into()));
    }

    #[test]
    fn texts_have_limits() {
        assert!(!longer_than("ü".repeat(200).as_str(), 200));
        assert!(longer_than("ü".repeat(201).as_str(), 200));
        assert!(longer_than(&"a".repeat(60 << 20), 200));
        let mut s = Scenario { title: "t".repeat(MAX_TITLE), notes: "n".repeat(MAX_NOTES), ..Scenario::default() };
        assert!(errors(&s).is_empty());
        s.title.push('t');
        s.notes.push('n');
        let messages: Vec<String> = errors(&s).into_iter().map(|p| p.message).collect();
        assert_eq!(messages, ["a title has at most 200 characters", "the notes have at most 5000 characters"]);

        assert_eq!(instance_id_problem("c-1.a_b"), None);
        assert_eq!(instance_id_problem(""), Some("a group.instance.id cannot be empty".into()));
        assert_eq!(
            instance_id_problem("my instance"),
            Some("' ' is not allowed in a group.instance.id (letters, digits, '.', '_' and '-' are)".into())
        );
        assert_eq!(
            instance_id_problem(&"i".repeat(250)),
            Some("a group.instance.id has at most 249 characters".into())
        );
        assert_eq!(rack_problem(&"r".repeat(MAX_RACK)), None);
        assert_eq!(rack_problem(&"r".repeat(MAX_RACK + 1)), Some("a rack id has at most 32767 bytes".into()));
    }
}
