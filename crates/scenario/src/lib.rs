//! The playground's scenarios: the external formats (versioned serde DTOs), their validation with
//! messages a person can act on, the edits and rebalance events, the presets, and the bridge to the
//! assignor core.
//!
//! ```
//! use scenario::{presets, Model};
//!
//! let scenario = presets::all()[0].scenario().unwrap();
//! let model = Model::new(&scenario).unwrap();
//! let range = model.rebalance(assignor::Strategy::Range).unwrap();
//! assert_eq!(range.result()["C1"].len(), 5); // range's 5 + 3 imbalance
//! ```

#![warn(missing_docs)]

pub mod advice;
pub mod compact;
pub mod config;
pub mod consumer_snapshot;
pub mod digest;
pub mod edit;
pub mod events;
pub mod format;
pub mod import;
pub mod link;
pub mod load;
pub mod model;
pub mod packed;
pub mod presets;
pub mod report;
pub mod server;
pub mod strategy_id;
pub mod topic_id;
pub mod validate;

use std::collections::BTreeMap;

pub use format::{ConsumerSpec, Form, Previous, Scenario, Snapshot, SnapshotMember, TopicSpec, View, VERSION};
pub use model::Model;
pub use strategy_id::StrategyId;
pub use validate::{Location, Problem, Severity};

/// Why a text does not open as a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// Not JSON at all (serde's message, with the line and column).
    NotJson(String),
    /// JSON, but not a scenario file (serde's message, naming the field).
    NotAScenario(String),
    /// Shaped like a `kap batch` snapshot, but not one.
    NotASnapshot(String),
    /// A snapshot that cannot be assigned, and why.
    InvalidSnapshot(String),
    /// A `"protocol":"consumer"` line refused as `kap batch` refuses it, with its message.
    ConsumerLine(consumer_snapshot::ConsumerLineError),
    /// Written by a newer version, in this format.
    FutureVersion(u64),
    /// A scenario that cannot run: its first error, with where it is.
    Invalid(Problem),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::NotJson(why) => write!(f, "not JSON: {why}"),
            ReadError::NotAScenario(why) => write!(f, "not a scenario: {why}"),
            ReadError::NotASnapshot(why) => write!(f, "not a group snapshot: {why}"),
            ReadError::InvalidSnapshot(why) => write!(f, "{why}"),
            ReadError::ConsumerLine(why) => write!(f, "{why}"),
            ReadError::FutureVersion(v) => {
                write!(f, "this scenario was written by a newer version (format {v}); this one reads up to {VERSION}")
            }
            ReadError::Invalid(problem) => write!(f, "{problem}"),
        }
    }
}

impl std::error::Error for ReadError {}

impl From<consumer_snapshot::ConsumerLineError> for ReadError {
    fn from(error: consumer_snapshot::ConsumerLineError) -> Self {
        ReadError::ConsumerLine(error)
    }
}

impl From<Problem> for ReadError {
    fn from(problem: Problem) -> Self {
        ReadError::Invalid(problem)
    }
}

/// Reads a scenario file: checks the version first, so a file from a newer release gets a clear
/// message instead of a field-by-field complaint.
pub fn parse_scenario(text: &str) -> Result<Scenario, ReadError> {
    #[derive(serde::Deserialize)]
    struct Versioned {
        #[serde(default)]
        version: Option<u64>,
    }
    let not_a_scenario = |e: serde_json::Error| ReadError::NotAScenario(e.to_string());
    let versioned: Versioned = serde_json::from_str(text).map_err(not_a_scenario)?;
    if let Some(v) = versioned.version.filter(|&v| v > u64::from(VERSION)) {
        return Err(ReadError::FutureVersion(v));
    }
    serde_json::from_str(text).map_err(not_a_scenario)
}

/// Opens a file a person hands us: a scenario file (what the playground exports) or one group
/// snapshot in the `kap batch` format, which opens as the scenario of its rebalance
/// ([`Snapshot::to_scenario`], or [`consumer_snapshot::ConsumerSnapshot::to_scenario`] for a
/// `"protocol":"consumer"` line).
pub fn read_file(text: &str) -> Result<Scenario, ReadError> {
    // Which format, by its top-level keys: the text is skimmed, no tree of a large file is built.
    use serde::de::IgnoredAny;
    serde_json::from_str::<IgnoredAny>(text).map_err(|e| ReadError::NotJson(e.to_string()))?;
    let keys = serde_json::from_str::<BTreeMap<String, IgnoredAny>>(text).unwrap_or_default();
    if keys.contains_key("strategy") && keys.contains_key("members") {
        if keys.contains_key("protocol") && consumer_snapshot::is_consumer_line(text) {
            // One rulebook: refused where `kap batch` refuses the line (the coordinator's throws
            // included, so `explain` always ends in its answer), with its message; then the page's.
            let snapshot = consumer_snapshot::ConsumerSnapshot::read(text)?;
            snapshot.target()?;
            return Ok(validate::checked(snapshot.to_scenario()?)?);
        }
        let snapshot: Snapshot = serde_json::from_str(text).map_err(|e| ReadError::NotASnapshot(e.to_string()))?;
        // One rulebook: a snapshot opens only where the page would open its scenario, refused
        // with the page's message; then what only a snapshot can get wrong (racks per partition).
        let scenario = validate::checked(snapshot.to_scenario())?;
        snapshot.to_group().map_err(ReadError::InvalidSnapshot)?;
        return Ok(scenario);
    }
    Ok(validate::checked(parse_scenario(text)?)?)
}

/// Partitions in compact notation, topics in name order: `t0:0-2,5 t1:1`.
pub fn compact(list: &[assignor::TopicPartition]) -> String {
    let mut by_topic: std::collections::BTreeMap<&str, Vec<u32>> = std::collections::BTreeMap::new();
    for tp in list {
        by_topic.entry(&tp.topic).or_default().push(tp.partition);
    }
    let mut parts = Vec::with_capacity(by_topic.len());
    for (topic, mut numbers) in by_topic {
        numbers.sort_unstable();
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for n in numbers {
            match runs.last_mut() {
                Some((_, end)) if n == *end + 1 => *end = n,
                _ => runs.push((n, n)),
            }
        }
        let runs: Vec<String> =
            runs.iter().map(|&(a, b)| if a == b { a.to_string() } else { format!("{a}-{b}") }).collect();
        parts.push(format!("{topic}:{}", runs.join(",")));
    }
    parts.join(" ")
}

/// A scenario as the JSON file the playground exports and the CLI reads.
pub fn to_json(scenario: &Scenario) -> String {
    serde_json::to_string_pretty(scenario).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_does_not_open_says_why_and_where() {
        assert!(matches!(read_file("{"), Err(ReadError::NotJson(_))));
        assert_eq!(read_file(r#"{"version": 9}"#), Err(ReadError::FutureVersion(9)));
        assert!(matches!(read_file(r#"{"topics": 3}"#), Err(ReadError::NotAScenario(_))));
        let snapshot = r#"{"strategy": "bogus", "topics": {}, "members": []}"#;
        assert!(matches!(read_file(snapshot), Err(ReadError::InvalidSnapshot(_))));
        let twice = r#"{"topics": [{"name": "a", "partitions": 1}, {"name": "a", "partitions": 2}]}"#;
        let error = read_file(twice).expect_err("opened");
        assert_eq!(error.to_string(), r#"topic 2 name: there is already a topic "a""#);
        assert!(matches!(error, ReadError::Invalid(Problem { location: Location::Topic { index: 1, .. }, .. })));
    }
}
