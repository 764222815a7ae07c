//! Importing a live group from what Kafka's own `kafka-consumer-groups.sh` prints: `--describe`
//! (partitions, offsets, LAG, CONSUMER-ID), `--describe --members --verbose` (members,
//! GROUP-INSTANCE-ID, ASSIGNMENT) and `--describe --state` (ASSIGNMENT-STRATEGY), pasted together
//! in any order, from any tool version from 2.0 to 4.x, for classic groups and groups on the
//! consumer protocol (KIP-848). The same code serves `kap import` and the playground's Import dialog.
//!
//! ```
//! let text = "\
//! GROUP  TOPIC  PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID
//! g1     t0     0          10              12              2    c1           /h1   app
//! g1     t0     1          7               7               0    c2           /h2   app";
//! let import = scenario::import::read(text);
//! let imported = import.scenario(&scenario::import::Options::default()).unwrap();
//! assert_eq!(imported.scenario.consumers.len(), 2);
//! assert!(imported.notes.iter().any(|n| n.contains("subscribes to the topics the group consumes")));
//! ```
//!
//! What the tool does not print is inferred and said in [`Imported::notes`]; every line the
//! reader could not place is in [`Import::unread`] with its number, never dropped silently.
//!
//! Format history, from `ConsumerGroupCommand` (Scala in `core` up to 3.7, Java in `tools` from 3.8):
//! - 2.0–2.2: one group per run and no GROUP column; the stderr messages have no blank line before them.
//! - 2.3: GROUP column (`--all-groups`, several `--group`s).
//! - 2.6: GROUP-INSTANCE-ID, printed once any member is static (blank for dynamic members).
//! - 3.8–3.9 (the Java port): ASSIGNMENT lists each topic's partitions without the topic's name,
//!   `(0,1), (2)`, partitions ordered as strings; the coordinator is `host:port  (id)`.
//! - 4.0: `--members --verbose` prints CURRENT-EPOCH, CURRENT-ASSIGNMENT `t:0,1;u:2`, TARGET-EPOCH,
//!   TARGET-ASSIGNMENT (and UPGRADED while a group migrates); `--state --verbose` GROUP-EPOCH and
//!   TARGET-ASSIGNMENT-EPOCH; `--describe --verbose` LEADER-EPOCH. Epochs are numbers only for
//!   consumer-protocol groups.

mod build;
mod read;

use std::fmt;

use serde::{Deserialize, Serialize};

pub use build::{ImportError, Imported, Options, WeightSource};
pub use read::{GroupMessage, GroupText, MemberRow, PartitionRow, StateRow};

/// A line number in the pasted text, from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Line(pub usize);

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}", self.0)
    }
}

/// A line the importer could not read, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unread {
    /// Where it is in the paste.
    pub line: Line,
    /// The line (its first 200 characters).
    pub text: String,
    /// Why it could not be read.
    pub reason: String,
}

impl Unread {
    fn new(line: Line, text: &str, reason: &str) -> Self {
        // A pasted line can be as long as the paste; keep what a person needs to find it.
        let text: String = text.chars().take(200).collect();
        Unread { line, text, reason: reason.to_string() }
    }
}

impl fmt::Display for Unread {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.line, self.reason, self.text.trim())
    }
}

/// A member's partitions as the ASSIGNMENT (or CURRENT-/TARGET-ASSIGNMENT) column prints them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Assignment {
    /// `t(0,1), u(2)` (up to 3.7) or `t:0,1;u:2` (4.0+); `-` is an empty list.
    Named(Vec<(String, u32)>),
    /// 3.8–3.9: one parenthesised list per topic, without the topic's name: `(0,1), (2)`.
    Unnamed(Vec<Vec<u32>>),
}

impl Assignment {
    /// Reads one ASSIGNMENT cell.
    pub fn parse(text: &str) -> Result<Assignment, String> {
        let text = text.trim();
        if text.is_empty() || text == "-" {
            return Ok(Assignment::Named(Vec::new()));
        }
        if text.starts_with('(') {
            let lists = text
                .split(", ")
                .map(|group| {
                    let list = group.strip_prefix('(').and_then(|g| g.strip_suffix(')'));
                    list.ok_or_else(|| format!("{group:?} is not a partition list")).and_then(partition_list)
                })
                .collect::<Result<_, _>>()?;
            return Ok(Assignment::Unnamed(lists));
        }
        // Up to 3.7 `t(0,1), u(2)`; from 4.0 `t:0,1;u:2`.
        let named = text.contains('(');
        let groups: Vec<&str> = if named { text.split(", ").collect() } else { text.split(';').collect() };
        let mut out = Vec::new();
        for group in groups {
            let split = if named {
                group.split_once('(').and_then(|(topic, rest)| Some((topic, rest.strip_suffix(')')?)))
            } else {
                group.split_once(':')
            };
            let (topic, list) = split.ok_or_else(|| format!("{group:?} is not a topic and its partitions"))?;
            if let Some(problem) = crate::validate::topic_name_problem(topic) {
                return Err(format!("topic {topic:?}: {problem}"));
            }
            out.extend(partition_list(list)?.into_iter().map(|p| (topic.to_string(), p)));
        }
        Ok(Assignment::Named(out))
    }
}

/// Comma-separated partition numbers.
fn partition_list(list: &str) -> Result<Vec<u32>, String> {
    list.split(',').map(|n| n.trim().parse::<u32>().map_err(|_| format!("{n:?} is not a partition number"))).collect()
}

/// A paste, read: its groups and the lines that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Import {
    text: read::Text,
}

/// Reads a paste of `kafka-consumer-groups.sh` output. Never fails and never panics; see
/// [`Import::unread`] for what it could not read and [`Import::scenario`] for the group.
pub fn read(text: &str) -> Import {
    Import { text: read::read(text) }
}

impl Import {
    /// The groups the paste describes, in the order they first appear (empty name: a 2.0–2.2
    /// table with nothing naming its group).
    pub fn groups(&self) -> &[GroupText] {
        &self.text.groups
    }

    /// Every line that could not be read, in order.
    pub fn unread(&self) -> &[Unread] {
        &self.text.unread
    }

    /// One group as a scenario (by default the first group with members or partitions).
    pub fn scenario(&self, options: &Options) -> Result<Imported, ImportError> {
        build::build(&self.text, options)
    }
}

#[cfg(test)]
mod tests {
    use super::Assignment;

    fn named(pairs: &[(&str, u32)]) -> Assignment {
        Assignment::Named(pairs.iter().map(|(t, p)| (t.to_string(), *p)).collect())
    }

    #[test]
    fn every_assignment_format() {
        assert_eq!(Assignment::parse("-"), Ok(named(&[])));
        assert_eq!(Assignment::parse("t0(0,1), t1(2)"), Ok(named(&[("t0", 0), ("t0", 1), ("t1", 2)])));
        assert_eq!(Assignment::parse("t0:0,1;t1:2"), Ok(named(&[("t0", 0), ("t0", 1), ("t1", 2)])));
        assert_eq!(Assignment::parse("(0,10,2), (1)"), Ok(Assignment::Unnamed(vec![vec![0, 10, 2], vec![1]])));
        assert!(Assignment::parse("t0(0,x)").is_err());
        assert!(Assignment::parse("t0:").is_err());
        assert!(Assignment::parse("bad topic(0)").is_err());
    }
}
