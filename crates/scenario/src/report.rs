//! Everything that follows from a scenario, computed in one place for whoever presents it: the
//! page's panels and `kap show` read the same [`Report`]; the page's walkthrough and `kap explain`
//! the same [`walk`], of a classic strategy or a server-side assignor alike ([`StrategyId`]).
//!
//! A [`Report`] holds the scenario's problems, the coordinator's choice, the advice and, per
//! strategy, its [`Outcome`]: the rebalance (rounds, diff, what pauses), the balance metrics, what
//! Kafka does wrong, the needless moves. Outcomes sit behind an `Arc`: a report is cheap to clone, and
//! an unchanged outcome compares equal by identity.
//!
//! ```
//! use assignor::Strategy;
//! use scenario::report::Report;
//!
//! let scenario = scenario::presets::find("range-imbalance").unwrap().scenario().unwrap();
//! let report = Report::new(&scenario);
//! let range = report.outcome(Strategy::Range).unwrap();
//! assert_eq!((range.metrics.max, range.metrics.min), (5, 3));
//! ```

use std::sync::Arc;

use assignor::check::{self, Metrics, Violation};
use assignor::consumer_group::{target_assignment_traced, CoordinatorError, ServerAssignor};
use assignor::protocol::Selection;
use assignor::rebalance::{Lists, Rebalance};
use assignor::trace::{Step, Tracer};
use assignor::{AssignError, Strategy, TopicPartition};

use crate::advice::{advice, Advice};
use crate::format::{previous_key, Scenario};
use crate::model::{after_rebalance, lists_to_pairs, Model};
use crate::server::{ServerOutcome, ServerReport};
use crate::strategy_id::StrategyId;
use crate::validate::{self, Problem, Severity};

/// What a scenario comes to under every strategy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// What stops the scenario from running; with any, no strategy is computed.
    pub errors: Vec<Problem>,
    /// Worth knowing; the scenario still runs.
    pub warnings: Vec<Problem>,
    /// The coordinator's choice among the consumers' strategy lists (none without consumers).
    pub selection: Option<Selection>,
    /// The traps this group falls into (see [`crate::advice`]).
    pub advice: Vec<Advice>,
    /// The consumers' ids, in JoinGroup order.
    pub members: Arc<[String]>,
    /// Partitions over all topics.
    pub total_partitions: usize,
    /// Whether racks are in play: a consumer has one and some topic knows its replicas' racks.
    pub racks: bool,
    /// One per strategy, in [`Strategy::ALL`] order; none when the scenario has errors.
    pub strategies: Vec<StrategyReport>,
    /// The server-side assignor the group runs, when it runs the consumer protocol (KIP-848).
    pub server_assignor: Option<ServerAssignor>,
    /// Under the consumer protocol, one per server-side assignor in [`ServerAssignor::ALL`] order
    /// (see [`crate::server`]); none for a classic group or a scenario with errors.
    pub servers: Vec<ServerReport>,
}

/// One strategy's outcome, or why Kafka's assignor cannot assign the group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrategyReport {
    /// The strategy every consumer runs here (the group's choice is only one of them).
    pub strategy: Strategy,
    /// What it comes to; shared, so an unchanged outcome compares equal by identity.
    pub outcome: Result<Arc<Outcome>, AssignError>,
}

/// One strategy's rebalance and what it comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The rebalance as the members live through it: its rounds, diff and pauses.
    pub rebalance: Rebalance,
    /// Of the assignment the group ends with.
    pub metrics: Metrics,
    /// What the last round's assignment does that no assignment may (see [`check::violations`]).
    pub violations: Vec<Violation>,
    /// Partitions moved although their owner still subscribed and had room for them.
    pub needless_moves: usize,
}

impl Report {
    /// The report for `scenario`, every strategy computed.
    pub fn new(scenario: &Scenario) -> Report {
        let (mut report, model) = Report::begin(scenario);
        if let Some(model) = model {
            report.strategies = Strategy::ALL.iter().map(|&s| StrategyReport::new(&model, s)).collect();
            report.with_servers(&model);
        }
        report
    }

    /// The report with no strategy computed yet, and the model to compute them from (none when the
    /// scenario has errors): for presenting one strategy at a time and dropping it before the
    /// next, as `kap show` does for a million partitions.
    pub fn begin(scenario: &Scenario) -> (Report, Option<Model>) {
        let (errors, warnings): (Vec<Problem>, Vec<Problem>) =
            validate::problems(scenario).into_iter().partition(|p| p.severity == Severity::Error);
        let racks = scenario.consumers.iter().any(|c| c.rack.as_deref().is_some_and(|r| !r.is_empty()))
            && scenario.topics.iter().any(|t| t.replicas.is_some() || !t.rack_overrides.is_empty());
        let mut report = Report {
            errors,
            warnings,
            selection: None,
            advice: Vec::new(),
            members: scenario.consumers.iter().map(|c| c.id.clone()).collect(),
            total_partitions: scenario.topics.iter().map(|t| t.partitions as usize).sum(),
            racks,
            strategies: Vec::new(),
            server_assignor: None,
            servers: Vec::new(),
        };
        if !report.errors.is_empty() {
            return (report, None);
        }
        // Validated just above: resolve without checking again (this runs on every edit).
        let model = Model::resolve(scenario);
        report.selection = (!model.members.is_empty()).then(|| model.selection().clone());
        report.advice = advice(&model);
        report.server_assignor = model.server_assignor;
        (report, Some(model))
    }

    /// This report begun ([`Report::begin`]) with what the consumer protocol needs: the server-side
    /// assignors' outcomes and the classic choice's, to compare (see [`crate::server::migration`]).
    /// Unchanged for a classic group.
    pub fn with_servers(&mut self, model: &Model) -> &Self {
        if model.server_assignor.is_some() && self.servers.is_empty() {
            self.servers = ServerAssignor::ALL.iter().map(|&a| ServerReport::new(model, a)).collect();
            if let Some(chosen) =
                self.selection.as_ref().and_then(|s| s.strategy).filter(|&s| self.strategy(s).is_none())
            {
                self.strategies.push(StrategyReport::new(model, chosen));
            }
        }
        self
    }

    /// `strategy`'s report, when computed.
    pub fn strategy(&self, strategy: Strategy) -> Option<&StrategyReport> {
        self.strategies.iter().find(|s| s.strategy == strategy)
    }

    /// `strategy`'s outcome, when it was computed and the assignor could assign the group.
    pub fn outcome(&self, strategy: Strategy) -> Option<&Outcome> {
        self.strategy(strategy).and_then(|s| s.outcome.as_deref().ok())
    }

    /// The rebalances that succeeded.
    pub fn rebalances(&self) -> impl Iterator<Item = &Rebalance> {
        self.strategies.iter().filter_map(|s| s.outcome.as_deref().ok()).map(|o| &o.rebalance)
    }

    /// `scenario` (the one this report is of) after these rebalances: what each strategy assigned
    /// becomes what its members own, for the next edit to start from.
    pub fn settled(&self, scenario: &Scenario) -> Scenario {
        let mut settled = after_rebalance(scenario, self.rebalances());
        // Under the consumer protocol, each server-side assignor's target becomes its current one.
        if let Some(previous) = settled.previous.as_mut() {
            for (assignor, outcome) in self.servers.iter().filter_map(|s| Some((s.assignor, s.outcome.as_ref().ok()?)))
            {
                previous
                    .assignments
                    .insert(previous_key(assignor).to_string(), Arc::new(lists_to_pairs(&outcome.target)));
            }
        }
        settled
    }

    /// `assignor`'s outcome, when the group runs the consumer protocol and the coordinator could
    /// compute it.
    pub fn server(&self, assignor: ServerAssignor) -> Option<&ServerOutcome> {
        self.servers.iter().find(|s| s.assignor == assignor).and_then(|s| s.outcome.as_deref().ok())
    }
}

impl StrategyReport {
    /// Rebalances `model`'s group under `strategy` and measures the result.
    pub fn new(model: &Model, strategy: Strategy) -> StrategyReport {
        StrategyReport { strategy, outcome: Outcome::new(model, strategy).map(Arc::new) }
    }
}

impl Outcome {
    fn new(model: &Model, strategy: Strategy) -> Result<Outcome, AssignError> {
        let (group, departed) = model.before(strategy);
        let rebalance = assignor::rebalance::rebalance(strategy, &group, &departed)?;
        let metrics = check::metrics(&group, rebalance.result());
        let violations = check::violations(&group, strategy, rebalance.last_round());
        let needless_moves = check::needless_moves(&group, &rebalance.before, rebalance.result());
        Ok(Outcome { rebalance, metrics, violations, needless_moves })
    }

    /// Partitions that changed owner.
    pub fn moved(&self) -> usize {
        self.rebalance.diff.moved.len()
    }

    /// The share of assigned partitions that changed owner, in percent.
    pub fn moved_percent(&self) -> f64 {
        100.0 * self.moved() as f64 / self.metrics.assigned.max(1) as f64
    }
}

/// One change a step makes to the assignment it builds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListChange {
    /// `partition` goes to the end of `member`'s list.
    Add {
        /// The member whose list grows.
        member: String,
        /// The partition it gets.
        partition: TopicPartition,
    },
    /// `partition` leaves `member`'s list.
    Remove {
        /// The member whose list shrinks.
        member: String,
        /// The partition it no longer holds.
        partition: TopicPartition,
    },
    /// `member`'s list, reordered: Kafka sorts the lists once they are complete.
    Reorder {
        /// The member whose list is reordered.
        member: String,
        /// Its whole list, in the new order.
        order: Vec<TopicPartition>,
    },
}

/// A strategy's step, with what it changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkStep {
    /// The decision, in Kafka's vocabulary.
    pub step: Step,
    /// What it changes in the assignment being built, in order.
    pub changes: Vec<ListChange>,
}

/// The assignment a walkthrough builds, step by step from nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replay {
    lists: Lists,
}

impl Replay {
    /// Every member in `members` holding nothing.
    pub fn new<'a>(members: impl IntoIterator<Item = &'a String>) -> Replay {
        Replay { lists: members.into_iter().map(|m| (m.clone(), Vec::new())).collect() }
    }

    /// Applies `step` and says what it changed (as [`assignor::trace::apply`] does).
    pub fn step(&mut self, step: &Step) -> Vec<ListChange> {
        let holds = |lists: &Lists, member: &str, partition: &TopicPartition| {
            lists.get(member).is_some_and(|list| list.contains(partition))
        };
        let changes = match step {
            Step::Assign { partition, member } | Step::Keep { partition, member } => {
                vec![ListChange::Add { member: member.clone(), partition: partition.clone() }]
            }
            Step::Move { partition, from, to } => {
                let mut changes = Vec::with_capacity(2);
                if holds(&self.lists, from, partition) {
                    changes.push(ListChange::Remove { member: from.clone(), partition: partition.clone() });
                }
                changes.push(ListChange::Add { member: to.clone(), partition: partition.clone() });
                changes
            }
            Step::Revoke { partition, member } | Step::Withhold { partition, to: member, .. }
                if holds(&self.lists, member, partition) =>
            {
                vec![ListChange::Remove { member: member.clone(), partition: partition.clone() }]
            }
            Step::SortLists => self
                .lists
                .iter()
                .filter(|(_, list)| !list.is_sorted())
                .map(|(member, list)| {
                    let mut order = list.clone();
                    order.sort();
                    ListChange::Reorder { member: member.clone(), order }
                })
                .collect(),
            _ => Vec::new(),
        };
        for change in &changes {
            self.apply(change);
        }
        changes
    }

    /// Applies a change recorded earlier.
    pub fn apply(&mut self, change: &ListChange) {
        match change {
            ListChange::Add { member, partition } => {
                self.lists.entry(member.clone()).or_default().push(partition.clone())
            }
            ListChange::Remove { member, partition } => {
                if let Some(list) = self.lists.get_mut(member) {
                    list.retain(|tp| tp != partition);
                }
            }
            ListChange::Reorder { member, order } => {
                self.lists.insert(member.clone(), order.clone());
            }
        }
    }

    /// Each member's list so far.
    pub fn lists(&self) -> &Lists {
        &self.lists
    }

    /// Each member's list, the replay done.
    pub fn into_lists(self) -> Lists {
        self.lists
    }
}

/// What a walk ends with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walked {
    /// The members of the group walked through, in the scenario's order: JoinGroup order for a
    /// classic strategy, the order they enter the coordinator's member map for a server-side one.
    pub members: Vec<String>,
    /// The assignment the strategy returned: what the last step leaves.
    pub assignment: Lists,
}

/// Why a walk ends without an assignment: the assignor's own refusal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WalkError {
    /// A classic strategy cannot assign the group.
    Classic(AssignError),
    /// The group coordinator cannot compute the server-side assignor's target.
    Server(CoordinatorError),
}

impl std::fmt::Display for WalkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WalkError::Classic(e) => e.fmt(f),
            WalkError::Server(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for WalkError {}

/// Walks through `strategy`'s decisions for `model`'s group as it is about to rebalance, handing
/// each step and what it changes to `visit` as the strategy takes it; nothing is collected.
///
/// A classic strategy starts from what each member owned before (its client's subscription); a
/// server-side assignor from each member's current target ([`Model::consumer_group`]), as the
/// coordinator does, whichever protocol the group runs now — for a classic group, the target it
/// would get on switching. Either way the walk ends in the assignment its panel shows.
pub fn walk(model: &Model, strategy: impl Into<StrategyId>, visit: impl FnMut(WalkStep)) -> Result<Walked, WalkError> {
    struct Walker<F> {
        replay: Replay,
        visit: F,
    }
    impl<F: FnMut(WalkStep)> Tracer for Walker<F> {
        fn enabled(&self) -> bool {
            true
        }
        fn record(&mut self, make: impl FnOnce() -> Step) {
            let step = make();
            let changes = self.replay.step(&step);
            (self.visit)(WalkStep { step, changes });
        }
    }
    match strategy.into() {
        StrategyId::Classic(strategy) => {
            let group = model.group(strategy);
            let members: Vec<String> = group.members.iter().map(|m| m.id.clone()).collect();
            let mut walker = Walker { replay: Replay::new(&members), visit };
            let assignment = assignor::assign_traced(strategy, &group, &mut walker).map_err(WalkError::Classic)?;
            Ok(Walked { members, assignment: assignment.members })
        }
        StrategyId::Server(assignor) => {
            let (group, _) = model.consumer_group(assignor);
            let members: Vec<String> = group.members.iter().map(|m| m.id.clone()).collect();
            let mut walker = Walker { replay: Replay::new(&members), visit };
            let target = target_assignment_traced(assignor, &group, &mut walker).map_err(WalkError::Server)?;
            Ok(Walked { members, assignment: target.members })
        }
    }
}

/// A strategy's decisions, all recorded, to step through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walkthrough {
    /// In the scenario's order (see [`Walked::members`]).
    pub members: Vec<String>,
    /// Every step, in the order the strategy took them.
    pub steps: Vec<WalkStep>,
}

impl Walkthrough {
    /// Records `strategy`'s walk through `model`'s group (see [`walk`]): a classic strategy or a
    /// server-side assignor, asked for by the name its panel has (`"uniform".parse::<StrategyId>()`).
    pub fn new(model: &Model, strategy: impl Into<StrategyId>) -> Result<Walkthrough, WalkError> {
        let mut steps = Vec::new();
        let walked = walk(model, strategy, |step| steps.push(step))?;
        Ok(Walkthrough { members: walked.members, steps })
    }

    /// The assignment once the first `count` steps are taken.
    pub fn lists_after(&self, count: usize) -> Lists {
        let mut replay = Replay::new(&self.members);
        for change in self.steps.iter().take(count).flat_map(|s| &s.changes) {
            replay.apply(change);
        }
        replay.into_lists()
    }

    /// The orders in force once the first `count` steps are taken: the latest of each name.
    pub fn orders_after(&self, count: usize) -> Vec<(&str, &[String])> {
        let mut orders: Vec<(&str, &[String])> = Vec::new();
        for step in self.steps.iter().take(count) {
            if let Step::Order { name, items } = &step.step {
                orders.retain(|(n, _)| *n != name.as_str());
                orders.push((name, items));
            }
        }
        orders
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{ConsumerSpec, Snapshot, TopicSpec};

    fn preset(id: &str) -> Scenario {
        crate::presets::find(id).and_then(|p| p.scenario().ok()).unwrap_or_default()
    }

    fn tp(topic: &str, partition: u32) -> TopicPartition {
        TopicPartition::new(topic, partition)
    }

    fn names(list: &[TopicPartition]) -> Vec<String> {
        list.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_report_holds_every_strategy_and_what_it_comes_to() {
        let report = Report::new(&preset("sticky-crash-c3"));
        assert!(report.errors.is_empty());
        assert_eq!(report.strategies.iter().map(|s| s.strategy).collect::<Vec<_>>(), Strategy::ALL);
        let sticky = report.outcome(Strategy::Sticky).unwrap();
        assert_eq!(names(&sticky.rebalance.result()["C1"]), ["T-0", "T-3", "T-2"]);
        assert_eq!(names(&sticky.rebalance.result()["C2"]), ["T-1", "T-4", "T-5"]);
        // C3 crashed: its two partitions move, nothing else.
        assert_eq!(sticky.moved(), 2);
        assert_eq!(sticky.needless_moves, 0);
        assert_eq!((sticky.metrics.max, sticky.metrics.min), (3, 3));
        assert!(sticky.violations.is_empty());
        assert_eq!(&*report.members, ["C1", "C2"]);
    }

    #[test]
    fn a_scenario_with_errors_reports_them_and_computes_nothing() {
        let mut scenario = preset("range-imbalance");
        scenario.topics[0].name = "has space".into();
        let report = Report::new(&scenario);
        assert_eq!(report.errors.len(), 1);
        assert!(report.strategies.is_empty() && report.selection.is_none());
        assert_eq!(report.total_partitions, scenario.topics.iter().map(|t| t.partitions as usize).sum::<usize>());
    }

    #[test]
    fn an_unchanged_outcome_is_the_same_outcome() {
        let report = Report::new(&preset("range-imbalance"));
        let copy = report.clone();
        let (a, b) = (&report.strategies[0].outcome, &copy.strategies[0].outcome);
        assert!(Arc::ptr_eq(a.as_ref().unwrap(), b.as_ref().unwrap()));
        assert_eq!(report, copy);
    }

    #[test]
    fn settling_makes_the_result_what_the_members_own() {
        let scenario = preset("range-imbalance");
        let report = Report::new(&scenario);
        let settled = report.settled(&scenario);
        let again = Report::new(&settled);
        for strategy in Strategy::ALL {
            let before = &again.outcome(strategy).unwrap().rebalance.before;
            assert_eq!(before, report.outcome(strategy).unwrap().rebalance.result(), "{strategy}");
            assert_eq!(again.outcome(strategy).unwrap().moved(), 0, "{strategy}");
        }
    }

    #[test]
    fn the_view_shows_the_named_strategies_in_panel_order() {
        let view = |names: &[&str]| crate::View {
            strategies: names.iter().map(|s| s.to_string()).collect(),
            diff: true,
            ..crate::View::default()
        };
        assert_eq!(view(&[]).shown(), Strategy::ALL);
        assert_eq!(view(&["sticky", "RangeAssignor"]).shown(), [Strategy::Range, Strategy::Sticky]);
        assert_eq!(view(&["bogus"]).shown(), Strategy::ALL);
        assert_eq!(view(&[]).toggled(Strategy::Range).strategies, ["roundrobin", "sticky", "cooperative-sticky"]);
        assert_eq!(view(&["sticky"]).toggled(Strategy::Range).strategies, ["range", "sticky"]);
        // Hiding the last panel, or showing the fourth, is the default view again.
        assert!(view(&["sticky"]).toggled(Strategy::Sticky).is_default());
        assert!(view(&["range", "sticky", "roundrobin"]).toggled(Strategy::CooperativeSticky).is_default());
    }

    #[test]
    fn replaying_the_changes_rebuilds_every_step() {
        let (a, b) = ("a".to_string(), "b".to_string());
        let mut replay = Replay::new([&a, &b]);
        let steps = [
            Step::Assign { partition: tp("t", 1), member: a.clone() },
            Step::Keep { partition: tp("t", 0), member: a.clone() },
            Step::Move { partition: tp("t", 1), from: a.clone(), to: b.clone() },
            Step::Revoke { partition: tp("t", 9), member: b.clone() },
            Step::Assign { partition: tp("t", 3), member: b.clone() },
            Step::Assign { partition: tp("t", 2), member: b.clone() },
            Step::SortLists,
        ];
        let changes: Vec<Vec<ListChange>> = steps.iter().map(|s| replay.step(s)).collect();
        assert_eq!(
            changes,
            [
                vec![ListChange::Add { member: a.clone(), partition: tp("t", 1) }],
                vec![ListChange::Add { member: a.clone(), partition: tp("t", 0) }],
                vec![
                    ListChange::Remove { member: a.clone(), partition: tp("t", 1) },
                    ListChange::Add { member: b.clone(), partition: tp("t", 1) },
                ],
                // b never held t-9: nothing changes.
                vec![],
                vec![ListChange::Add { member: b.clone(), partition: tp("t", 3) }],
                vec![ListChange::Add { member: b.clone(), partition: tp("t", 2) }],
                // Only b's list was out of order.
                vec![ListChange::Reorder { member: b.clone(), order: vec![tp("t", 1), tp("t", 2), tp("t", 3)] }],
            ]
        );
        assert_eq!(replay.lists(), &assignor::trace::replay(&[a, b], &steps));
    }

    #[test]
    fn a_walkthrough_ends_in_the_strategys_answer() {
        let scenario = preset("roundrobin-uneven");
        let model = Model::new(&scenario).unwrap();
        let walkthrough = Walkthrough::new(&model, Strategy::RoundRobin).unwrap();
        assert_eq!(walkthrough.steps.len(), 14);
        let end = walkthrough.lists_after(walkthrough.steps.len());
        assert_eq!(&end, Report::new(&scenario).outcome(Strategy::RoundRobin).unwrap().rebalance.result());
        assert_eq!(names(&end["C2"]), ["t1-1", "t2-0", "t2-1", "t2-2"]);
        assert_eq!(walkthrough.lists_after(0).values().map(Vec::len).sum::<usize>(), 0);
        let orders = walkthrough.orders_after(walkthrough.steps.len());
        assert_eq!(orders.iter().map(|(name, _)| *name).collect::<Vec<_>>().len(), 2);
    }

    #[test]
    fn a_server_walkthrough_ends_in_its_panels_target() {
        let scenario = preset("consumer-protocol-uniform");
        let report = Report::new(&scenario);
        let model = Model::new(&scenario).unwrap();
        for server in &report.servers {
            let digest = server.digest(&report, &scenario);
            let id = digest.panel;
            let walkthrough = Walkthrough::new(&model, id).unwrap();
            let target = &server.outcome.as_ref().unwrap().target;
            assert_eq!(&walkthrough.lists_after(walkthrough.steps.len()), target, "{id}");
            assert_eq!(walkthrough.members, ["C0", "C1", "C2", "C3"]);
        }
        // Uniform keeps what it can: only C3, which joins, gets partitions handed to it.
        let uniform = Walkthrough::new(&model, ServerAssignor::Uniform).unwrap();
        let handed: Vec<&str> = uniform
            .steps
            .iter()
            .filter_map(|s| match &s.step {
                Step::Assign { member, .. } => Some(member.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(handed, ["C3", "C3"]);
    }

    #[test]
    fn a_snapshot_walks_through_its_own_rebalance() {
        // C0 and C1 own everything; C2 joins. Sticky keeps what it can and moves two partitions.
        let line = r#"{"strategy":"sticky","topics":{"t":6},"members":[
            {"id":"C0","topics":["t"],"owned":[["t",0],["t",1],["t",2]],"generation":4},
            {"id":"C1","topics":["t"],"owned":[["t",3],["t",4],["t",5]],"generation":4},
            {"id":"C2","topics":["t"]}]}"#;
        let snapshot: Snapshot = serde_json::from_str(line).unwrap();
        let (strategy, group) = snapshot.to_group().unwrap();
        let batch = assignor::assign(strategy, &group).unwrap().members;
        let scenario = snapshot.to_scenario();
        let model = Model::new(&scenario).unwrap();
        let walked = walk(&model, strategy, |_| {}).unwrap();
        assert_eq!(walked.assignment, batch);
        assert_eq!(names(&batch["C0"]), ["t-0", "t-1"]);
        let report = Report::new(&scenario);
        assert_eq!(report.selection.as_ref().and_then(|s| s.strategy), Some(Strategy::Sticky));
        let sticky = report.outcome(Strategy::Sticky).unwrap();
        assert_eq!(sticky.moved(), 2);
        assert_eq!(sticky.rebalance.rounds[0].generation, 5);
    }

    #[test]
    fn a_snapshot_keeps_each_members_generation() {
        let line = r#"{"strategy":"cooperative-sticky","topics":{"t":2},"members":[
            {"id":"old","topics":["t"],"owned":[["t",0]],"generation":3},
            {"id":"new","topics":["t"],"owned":[["t",0]],"generation":5},
            {"id":"none","topics":["t"]}]}"#;
        let snapshot: Snapshot = serde_json::from_str(line).unwrap();
        let model = Model::new(&snapshot.to_scenario()).unwrap();
        let group = model.group(Strategy::CooperativeSticky);
        let generations: Vec<Option<i32>> = group.members.iter().map(|m| m.generation).collect();
        assert_eq!(generations, [Some(3), Some(5), None]);
        assert_eq!(group, snapshot.to_group().unwrap().1);
    }

    #[test]
    fn a_fresh_snapshot_has_no_history() {
        let snapshot: Snapshot =
            serde_json::from_str(r#"{"strategy":"range","topics":{"t":2},"members":[{"id":"a","topics":["t"]}]}"#)
                .unwrap();
        let scenario = snapshot.to_scenario();
        assert_eq!(scenario.previous, None);
        assert_eq!(
            scenario.consumers,
            [ConsumerSpec { strategies: vec!["range".into()], ..ConsumerSpec::new("a", &["t"]) }]
        );
        assert_eq!(scenario.topics, [TopicSpec::new("t", 2)]);
    }
}
