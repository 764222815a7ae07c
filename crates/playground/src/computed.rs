//! What the page shows that follows from one scenario: made by the compute worker from the
//! scenario's `scenario::report::Report` and sent across as plain data (its size bounded by the
//! members, never by the partitions), never edited.

use std::rc::Rc;

use scenario::digest::PanelDigest;
use scenario::report::Report;
use scenario::Scenario;
use serde::{Deserialize, Serialize};

/// One scenario's report as the page shows it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Computed {
    /// What stops the scenario from running, each a sentence naming its place.
    pub errors: Vec<String>,
    /// Worth knowing; the scenario still runs.
    pub warnings: Vec<String>,
    /// The coordinator's choice (none without consumers).
    pub choice: Option<Choice>,
    /// The traps this group falls into.
    pub advice: Vec<String>,
    /// Partitions over all topics.
    pub total_partitions: usize,
    /// Consumers in the group.
    pub members: usize,
    /// What each strategy's panel shows, in `Strategy::ALL` order; none when the scenario has errors.
    pub panels: Vec<Rc<PanelDigest>>,
}

/// The coordinator's choice among the consumers' strategy lists.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    /// The strategy the leader runs; none when the coordinator refuses every consumer.
    pub strategy: Option<String>,
    /// The group's rebalance protocol, `EAGER` or `COOPERATIVE`.
    pub protocol: String,
    /// Why, in a sentence.
    pub reason: String,
}

impl Computed {
    /// What the page shows of `report`, the report of `scenario`.
    pub fn new(report: &Report, scenario: &Scenario) -> Computed {
        Computed {
            errors: report.errors.iter().map(ToString::to_string).collect(),
            warnings: report.warnings.iter().map(ToString::to_string).collect(),
            choice: report.selection.as_ref().map(|s| Choice {
                strategy: s.strategy.map(|s| s.name().to_string()),
                protocol: s.group_protocol().map(|p| p.name().to_string()).unwrap_or_default(),
                reason: s.reason(),
            }),
            advice: report.advice.iter().map(|a| a.message.clone()).collect(),
            total_partitions: report.total_partitions,
            members: report.members.len(),
            panels: PanelDigest::all(report, scenario).into_iter().map(Rc::new).collect(),
        }
    }

    /// Whether the panels summarise the group (loads, and chips only for an opened member).
    pub fn summarised(&self) -> bool {
        !scenario::digest::shows_chips(self.total_partitions, self.members)
    }
}
