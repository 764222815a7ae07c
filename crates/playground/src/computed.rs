//! Everything the page shows that follows from the scenario: each strategy's rebalance, its metrics
//! and checks, the coordinator's choice, the advice. Pure: computed once per edit, never edited.

use assignor::check::{self, Metrics};
use assignor::protocol::Selection;
use assignor::rebalance::Rebalance;
use assignor::Strategy;
use scenario::advice::{advice, Advice};
use scenario::{Model, Problem, Scenario, Severity};

/// Above this many partitions in all, rows summarise partitions as ranges instead of chips.
pub const CHIP_LIMIT: usize = 5_000;

#[derive(Clone, Debug)]
pub struct Computed {
    /// Errors that stop the scenario from running (the page keeps the last good results off).
    pub errors: Vec<Problem>,
    pub warnings: Vec<Problem>,
    pub panels: Vec<Panel>,
    pub selection: Option<Selection>,
    pub advice: Vec<Advice>,
    pub total_partitions: usize,
    /// Whether racks are in play (a consumer has one and some topic knows its replicas' racks).
    pub racks: bool,
}

#[derive(Clone, Debug)]
pub struct Panel {
    pub strategy: Strategy,
    pub outcome: Result<Outcome, String>,
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub rebalance: Rebalance,
    pub metrics: Metrics,
    pub violations: Vec<String>,
    /// Partitions moved although their owner still subscribed and had room for them.
    pub needless_moves: usize,
}

impl Outcome {
    /// The share of assigned partitions that changed owner.
    pub fn moved_percent(&self) -> f64 {
        let total = self.metrics.assigned.max(1);
        100.0 * self.rebalance.diff.moved.len() as f64 / total as f64
    }
}

impl Computed {
    pub fn new(scenario: &Scenario) -> Computed {
        let problems = scenario::validate::problems(scenario);
        let (errors, warnings): (Vec<Problem>, Vec<Problem>) =
            problems.into_iter().partition(|p| p.severity == Severity::Error);
        let total_partitions = scenario.topics.iter().map(|t| t.partitions as usize).sum();
        let racks = scenario.consumers.iter().any(|c| c.rack.as_deref().is_some_and(|r| !r.is_empty()))
            && scenario.topics.iter().any(|t| t.replicas.is_some() || !t.rack_overrides.is_empty());
        if !errors.is_empty() {
            return Computed {
                errors,
                warnings,
                panels: Vec::new(),
                selection: None,
                advice: Vec::new(),
                total_partitions,
                racks,
            };
        }
        // Validated just above: resolve without checking again (this runs on every edit).
        let model = Model::resolve(scenario);
        let panels =
            Strategy::ALL.iter().map(|&strategy| Panel { strategy, outcome: outcome(&model, strategy) }).collect();
        Computed {
            errors,
            warnings,
            panels,
            selection: (!model.members.is_empty()).then(|| model.selection().clone()),
            advice: advice(&model),
            total_partitions,
            racks,
        }
    }

    #[cfg(test)]
    pub fn panel(&self, strategy: Strategy) -> Option<&Panel> {
        self.panels.iter().find(|p| p.strategy == strategy)
    }

    /// The rebalances that succeeded, to become the next edit's previous assignment.
    pub fn rebalances(&self) -> Vec<Rebalance> {
        self.panels.iter().filter_map(|p| p.outcome.as_ref().ok()).map(|o| o.rebalance.clone()).collect()
    }

    pub fn summarised(&self) -> bool {
        self.total_partitions > CHIP_LIMIT
    }
}

fn outcome(model: &Model, strategy: Strategy) -> Result<Outcome, String> {
    let group = model.group(strategy);
    let rebalance = assignor::rebalance::rebalance(strategy, &group, &model.departed(strategy, &group))
        .map_err(|e| e.to_string())?;
    let metrics = check::metrics(&group, rebalance.result());
    let violations =
        check::violations(&group, strategy, rebalance.last_round()).iter().map(ToString::to_string).collect();
    let needless_moves = check::needless_moves(&group, &rebalance.before, rebalance.result());
    Ok(Outcome { rebalance, metrics, violations, needless_moves })
}
