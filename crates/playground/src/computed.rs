//! What the page shows that follows from one scenario: made by the compute worker from the
//! scenario's `scenario::report::Report` and sent across as plain data (its size bounded by the
//! members, never by the partitions), never edited.

use std::rc::Rc;

use scenario::digest::PanelDigest;
use scenario::report::Report;
use scenario::Scenario;
use scenario::StrategyId;
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
    /// For a group on the consumer protocol (KIP-848), the broker's side.
    pub consumer: Option<ConsumerProtocol>,
}

/// What the page shows of a group on the consumer protocol: the server-side assignors' panels
/// (each with its lanes) and what moving to the new protocol changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConsumerProtocol {
    /// The group's `group.remote.assignor`, a [`StrategyId::Server`].
    pub chosen: StrategyId,
    /// Every server-side assignor's panel, in `ServerAssignor::ALL` order.
    pub panels: Vec<Rc<PanelDigest>>,
    /// What moving to the consumer protocol changes, in sentences (`scenario::server::migration`).
    pub migration: Vec<String>,
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
            consumer: report.server_assignor.map(|assignor| ConsumerProtocol {
                chosen: StrategyId::Server(assignor),
                panels: report.servers.iter().map(|server| Rc::new(server.digest(report, scenario))).collect(),
                migration: scenario::server::migration(report),
            }),
        }
    }

    /// Whether the panels summarise the group (loads, and chips only for an opened member).
    pub fn summarised(&self) -> bool {
        !scenario::digest::shows_chips(self.total_partitions, self.members)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::work::{Engine, Job, Prior};
    use scenario::config::ServerAssignor;
    use scenario::digest::{ChipKind, MemberRequest};
    use scenario::{ConsumerSpec, TopicSpec};

    fn preset(id: &str) -> Scenario {
        scenario::presets::find(id).and_then(|p| p.scenario().ok()).unwrap_or_default()
    }

    #[test]
    fn a_consumer_protocol_group_carries_its_server_panels_and_what_moving_changes() {
        let scenario = preset("consumer-protocol-uniform");
        let report = Report::new(&scenario);
        let computed = Computed::new(&report, &scenario);
        let consumer = computed.consumer.as_ref().unwrap_or_else(|| panic!("no consumer protocol"));
        assert_eq!(consumer.chosen, StrategyId::Server(ServerAssignor::Uniform));
        let panels: Vec<StrategyId> = consumer.panels.iter().map(|p| p.panel).collect();
        assert_eq!(panels, [StrategyId::Server(ServerAssignor::Uniform), StrategyId::Server(ServerAssignor::Range)]);
        for (panel, server) in consumer.panels.iter().zip(&report.servers) {
            assert_eq!(**panel, server.digest(&report, &scenario));
            // Small: every chip and the lanes come with it.
            let outcome = panel.outcome.as_ref().unwrap_or_else(|e| panic!("{e}"));
            assert!(outcome.chips && outcome.reconciliation.as_ref().is_some_and(|r| !r.lanes.is_empty()));
        }
        assert_eq!(consumer.migration, scenario::server::migration(&report));
        assert!(consumer.migration[0].starts_with("On the consumer protocol, uniform moves 2 partitions"));
        // The classic panels stay beside them, for comparison.
        assert_eq!(computed.panels.len(), 4);
        // It crosses to the page as plain data.
        let json = serde_json::to_string(&computed).unwrap_or_default();
        assert_eq!(serde_json::from_str::<Computed>(&json).ok(), Some(computed));
    }

    #[test]
    fn a_classic_group_has_no_server_panels() {
        let scenario = preset("range-imbalance");
        assert_eq!(Computed::new(&Report::new(&scenario), &scenario).consumer, None);
    }

    /// A big group on the consumer protocol: its server panels are summaries whose size follows the
    /// members, without lanes (not simulated), and an opened member comes from the worker.
    #[test]
    fn a_big_consumer_protocol_group_is_summarised_and_its_members_open_through_the_worker() {
        let names: Vec<String> = (0..10).map(|t| format!("t{t}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let scenario = Scenario {
            protocol: Some("consumer".into()),
            topics: names.iter().map(|n| TopicSpec::new(n, 1_000)).collect(),
            consumers: (0..300).map(|m| ConsumerSpec::new(format!("C{m:03}"), &refs)).collect(),
            ..Scenario::default()
        };
        let mut engine = Engine::default();
        let job = Job { version: 1, prior: Prior::Inline, scenario: Rc::new(scenario.clone()) };
        let answer = engine.compute(vec![job], &[]).unwrap_or_else(|| panic!("no answer"));
        assert!(answer.computed.summarised());
        let consumer = answer.computed.consumer.as_ref().unwrap_or_else(|| panic!("no consumer protocol"));
        let report = Report::new(&scenario);
        for panel in &consumer.panels {
            let outcome = panel.outcome.as_ref().unwrap_or_else(|e| panic!("{e}"));
            assert!(!outcome.chips && outcome.summary.is_some() && outcome.members.iter().all(|m| m.chips.is_none()));
            // 3,000,000 members × partitions: not simulated heartbeat by heartbeat.
            assert_eq!(outcome.reconciliation, None);
            assert_eq!(outcome.members.iter().map(|m| m.count).sum::<usize>(), 10_000);
            let json = serde_json::to_string(&**panel).unwrap_or_default();
            assert!(json.len() < 300 * 300, "{} bytes", json.len());
        }
        // Uniform deals 10,000 partitions over 300 members: 100 of them get 34, the others 33.
        let uniform = consumer.panels[0].outcome.as_ref().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((uniform.metrics.max, uniform.metrics.min, uniform.metrics.spread), (34, 33, 1));
        for assignor in ServerAssignor::ALL {
            let request = MemberRequest { panel: StrategyId::Server(assignor), member: "C007".into() };
            let detail = engine.member(1, &request, None).ok().flatten().unwrap_or_else(|| panic!("no C007"));
            let held: Vec<String> = detail
                .chips
                .iter()
                .map(|c| {
                    assert_eq!(c.kind, ChipKind::Added, "a fresh group: all of it is new");
                    format!("{}-{}", detail.topics[c.topic as usize], c.partition)
                })
                .collect();
            let target = &report.server(assignor).unwrap_or_else(|| panic!("no {assignor}")).target["C007"];
            assert_eq!(held, target.iter().map(ToString::to_string).collect::<Vec<_>>(), "{assignor}");
        }
    }
}
