//! The consumer protocol's side of a [`Report`](crate::report::Report) (KIP-848,
//! `group.protocol=consumer`): for each server-side assignor, the target assignment Kafka 4.0's group
//! coordinator computes (members in their map order, each one's current target as what it owns), the
//! diff from the current target, the balance metrics, and the reconciliation: what each member
//! consumes after each heartbeat until it reaches the target ([`reconcile::simulate`]), and which
//! partitions stop, for how many heartbeats.
//!
//! ```
//! use assignor::consumer_group::ServerAssignor;
//! use scenario::report::Report;
//!
//! let scenario = scenario::presets::find("consumer-protocol-uniform").unwrap().scenario().unwrap();
//! let report = Report::new(&scenario);
//! let uniform = report.server(ServerAssignor::Uniform).unwrap();
//! // A member joins: only what moves to it stops; what the others keep never does.
//! assert_eq!(uniform.kept_never_stop(), Some(true));
//! assert_eq!(uniform.diff.moved.len(), uniform.reconciliation.as_ref().unwrap().stops.len());
//! ```

use std::sync::Arc;

use assignor::check::{self, Metrics};
use assignor::consumer_group::reconcile::{self, Lane, MemberState, Reconciliation};
use assignor::consumer_group::{target_assignment, CoordinatorError, ServerAssignor, SubscriptionType};
use assignor::rebalance::{self, Diff, Lists};

use crate::digest::{
    Assigned, LaneDigest, LaneSample, LaneState, Names, OutcomeDigest, PanelDigest, ReconciliationDigest, RoundDigest,
    StopDigest, TimelineDigest, TopicIndex, LANE_CELLS, STOPS_SHOWN,
};
use crate::format::Scenario;
use crate::model::Model;
use crate::report::Report;
use crate::strategy_id::StrategyId;

/// One server-side assignor's outcome, or why Kafka's coordinator cannot compute it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerReport {
    /// The assignor (`group.remote.assignor`).
    pub assignor: ServerAssignor,
    /// What it comes to; shared, so an unchanged outcome compares equal by identity.
    pub outcome: Result<Arc<ServerOutcome>, CoordinatorError>,
}

/// A server-side assignor's new target assignment, and how the members reach it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerOutcome {
    /// Which of `uniform`'s builders ran (range has one): HOMOGENEOUS when every member subscribes to
    /// the same topic names, missing ones included.
    pub subscription_type: SubscriptionType,
    /// The current target of every member, and what members that left held.
    pub before: Lists,
    /// The new target of every member, each list sorted (the assignor returns sets).
    pub target: Lists,
    /// From `before` to `target`.
    pub diff: Arc<Diff>,
    /// Of `target`.
    pub metrics: Metrics,
    /// Partitions moved although their owner still subscribed and had room for them.
    pub needless_moves: usize,
    /// The group epoch of the new target.
    pub epoch: i32,
    /// The order the members heartbeat in, round after round: the consumers' order.
    pub heartbeats: Vec<String>,
    /// What each member consumes after each heartbeat, and what stops; `None` for a group larger
    /// than [`MAX_RECONCILED`].
    pub reconciliation: Option<Reconciliation>,
}

/// The largest group whose reconciliation is simulated, in members × partitions: every heartbeat
/// records what every member consumes, so the record grows with both (and with the rounds).
pub const MAX_RECONCILED: usize = 100_000;

impl ServerReport {
    /// `assignor`'s target for `model`'s group, measured and reconciled.
    pub fn new(model: &Model, assignor: ServerAssignor) -> ServerReport {
        ServerReport { assignor, outcome: ServerOutcome::new(model, assignor).map(Arc::new) }
    }
}

impl ServerOutcome {
    fn new(model: &Model, assignor: ServerAssignor) -> Result<ServerOutcome, CoordinatorError> {
        let (group, before) = model.consumer_group(assignor);
        let computed = target_assignment(assignor, &group)?;
        let members = model.members_group();
        let target: Lists = members
            .members
            .iter()
            .map(|m| (m.id.clone(), computed.members.get(&m.id).cloned().unwrap_or_default()))
            .collect();
        // The coordinator bumps the group epoch when the group changes, then computes its target.
        let epoch = model.previous.as_ref().map_or(0, |p| p.generation);
        let heartbeats: Vec<String> = members.members.iter().map(|m| m.id.clone()).collect();
        let partitions: usize = model.topics.iter().map(|t| t.partitions as usize).sum();
        let reconciliation = (heartbeats.len().saturating_mul(partitions) <= MAX_RECONCILED)
            .then(|| reconcile::simulate(&before, &target, epoch, &heartbeats));
        Ok(ServerOutcome {
            subscription_type: computed.subscription_type,
            diff: Arc::new(rebalance::diff(&before, &target)),
            metrics: check::metrics(&members, &target),
            needless_moves: check::needless_moves(&members, &before, &target),
            epoch: epoch.saturating_add(1),
            heartbeats,
            reconciliation,
            before,
            target,
        })
    }

    /// Partitions that changed owner.
    pub fn moved(&self) -> usize {
        self.diff.moved.len()
    }

    /// The most heartbeats any partition went unconsumed, when the reconciliation was simulated.
    pub fn longest_stop(&self) -> Option<usize> {
        let reconciliation = self.reconciliation.as_ref()?;
        Some(reconciliation.stops.iter().map(|s| s.heartbeats).max().unwrap_or(0))
    }

    /// Whether every partition a member keeps is consumed after every heartbeat — the promise of the
    /// consumer protocol, a rebalance with no group-wide stop — when the reconciliation was simulated.
    pub fn kept_never_stop(&self) -> Option<bool> {
        let lanes = &self.reconciliation.as_ref()?.lanes;
        Some(self.diff.members.iter().all(|(member, change)| {
            let Some(lane) = lanes.get(member) else { return change.kept.is_empty() };
            change.kept.iter().all(|tp| lane.consuming.iter().all(|set| set.contains(tp)))
        }))
    }
}

/// The coordinator's name of a subscription type.
pub fn subscription_name(subscription_type: SubscriptionType) -> &'static str {
    match subscription_type {
        SubscriptionType::Homogeneous => "HOMOGENEOUS",
        SubscriptionType::Heterogeneous => "HETEROGENEOUS",
    }
}

/// The coordinator's name of a member state.
pub fn state_name(state: MemberState) -> &'static str {
    lane_state(state).name()
}

/// The samples of `lane` worth showing: the first (before any heartbeat, STABLE), then each
/// heartbeat of the group after which what the member consumes, or its state, changed; each as
/// (heartbeats so far, state).
pub fn lane_changes(lane: &Lane) -> Vec<(usize, MemberState)> {
    let state_at =
        |sample: usize| sample.checked_sub(1).and_then(|i| lane.states.get(i)).copied().unwrap_or(MemberState::Stable);
    (0..lane.consuming.len())
        .filter(|&s| s == 0 || lane.consuming.get(s) != lane.consuming.get(s - 1) || state_at(s) != state_at(s - 1))
        .map(|s| (s, state_at(s)))
        .collect()
}

/// What moving this group to the consumer protocol changes, in sentences: moves, stops and balance
/// under the group's server-side assignor beside the classic strategy its consumers pick today, and
/// what the new protocol gives up. Empty unless the group runs the consumer protocol.
pub fn migration(report: &Report) -> Vec<String> {
    let Some(assignor) = report.server_assignor else { return Vec::new() };
    let Some(server) = report.server(assignor) else { return Vec::new() };
    let mut out = Vec::new();
    let classic = report.selection.as_ref().and_then(|s| s.strategy).and_then(|s| Some((s, report.outcome(s)?)));
    let moved = server.moved();
    let stops = match (&server.reconciliation, server.longest_stop()) {
        (Some(r), Some(longest)) if !r.stops.is_empty() => format!(
            "only {} stop{}, each until its old owner has revoked it and its new owner heartbeats (at most \
             {longest} heartbeats of the group), and every other partition is consumed throughout",
            partitions(r.stops.len()),
            if r.stops.len() == 1 { "s" } else { "" }
        ),
        (Some(_), _) => "nothing stops".to_string(),
        (None, _) => "only the partitions that change owner stop (the group is too large to simulate heartbeat \
                      by heartbeat here)"
            .to_string(),
    };
    out.push(format!(
        "On the consumer protocol, {assignor} moves {}; {stops}: no member waits for the others, there is no \
         group-wide barrier.",
        partitions(moved)
    ));
    if let Some((strategy, outcome)) = classic {
        let rebalance = &outcome.rebalance;
        let how = match rebalance.protocol {
            assignor::protocol::RebalanceProtocol::Eager => {
                format!(
                    "every member stops all it owns while the group rebalances ({})",
                    partitions(rebalance.paused_count())
                )
            }
            assignor::protocol::RebalanceProtocol::Cooperative => format!(
                "{} stop{} over {} JoinGroup/SyncGroup round{}, every member rejoining each time",
                partitions(rebalance.paused_count()),
                if rebalance.paused_count() == 1 { "s" } else { "" },
                rebalance.rounds.len(),
                if rebalance.rounds.len() == 1 { "" } else { "s" }
            ),
        };
        out.push(format!("Today, on the classic protocol, {strategy} moves {}; {how}.", partitions(outcome.moved())));
        let (before, after) = (outcome.metrics.spread(), server.metrics.spread());
        if before != after {
            out.push(format!("Balance: the spread goes from {before} to {after} partitions."));
        }
    }
    if assignor == ServerAssignor::Uniform && server.subscription_type == SubscriptionType::Heterogeneous {
        out.push(
            "The members subscribe to different topics: uniform uses its heterogeneous builder, which balances each \
             topic over its subscribers only."
                .to_string(),
        );
    }
    if report.racks {
        out.push(format!(
            "The consumer protocol's assignors ignore client.rack in Kafka 4.0: {} partitions are read across racks.",
            server.metrics.cross_rack
        ));
    }
    out.push(format!(
        "Settings: group.protocol=consumer{} on every consumer (Java client 4.0+, brokers 4.0+), and no \
         partition.assignment.strategy: the broker assigns.",
        if assignor == ServerAssignor::Uniform { String::new() } else { format!(", group.remote.assignor={assignor}") }
    ));
    out
}

/// `1 partition`, `3 partitions`.
fn partitions(count: usize) -> String {
    format!("{count} partition{}", if count == 1 { "" } else { "s" })
}

impl ServerReport {
    /// This assignor's panel as the classic panels' [`PanelDigest`] (see [`crate::digest`]),
    /// [`StrategyId::Server`]; its protocol is `CONSUMER`, its timeline the reconciliation's rounds of
    /// heartbeats, and it carries the lanes. `report` and `scenario` are the ones it is of.
    pub fn digest(&self, report: &Report, scenario: &Scenario) -> PanelDigest {
        let outcome = match &self.outcome {
            Err(e) => Err(e.to_string()),
            Ok(outcome) => {
                let assigned = Assigned {
                    result: &outcome.target,
                    diff: &outcome.diff,
                    metrics: &outcome.metrics,
                    before: &outcome.before,
                    needless: outcome.needless_moves,
                    paused: outcome.reconciliation.as_ref().map_or(outcome.moved(), |r| r.stops.len()),
                    protocol: "CONSUMER".to_string(),
                    eager_members: Names::default(),
                    subscription_type: Some(subscription_name(outcome.subscription_type).to_string()),
                    timeline: timeline(outcome),
                    reconciliation: reconciliation_digest(outcome, scenario).map(Arc::new),
                    violations: Vec::new(),
                };
                Ok(OutcomeDigest::build(report, &assigned, &scenario.topics, scenario))
            }
        };
        PanelDigest { panel: StrategyId::Server(self.assignor), outcome }
    }
}

/// The reconciliation as the lanes show it: each lane where it changes, the columns where any
/// does, and the stops; `None` when it was not simulated.
fn reconciliation_digest(outcome: &ServerOutcome, scenario: &Scenario) -> Option<ReconciliationDigest> {
    let reconciliation = outcome.reconciliation.as_ref()?;
    let topics = TopicIndex::new(scenario);
    // Each member's lane in heartbeat order, with the samples where it changes.
    let changes: Vec<_> = outcome
        .heartbeats
        .iter()
        .filter_map(|member| reconciliation.lanes.get(member).map(|lane| (member, lane, lane_changes(lane))))
        .collect();
    let columns: Vec<usize> = changes
        .iter()
        .flat_map(|(_, _, samples)| samples.iter().map(|&(after, _)| after))
        .collect::<std::collections::BTreeSet<usize>>()
        .into_iter()
        .collect();
    let drawn = changes.len().saturating_mul(columns.len()) <= LANE_CELLS;
    let lanes = if drawn {
        changes
            .iter()
            .map(|(member, lane, samples)| LaneDigest {
                member: (*member).clone(),
                samples: samples
                    .iter()
                    .map(|&(after, state)| LaneSample {
                        after,
                        state: lane_state(state),
                        consuming: lane
                            .consuming
                            .get(after)
                            .map(|set| set.iter().map(|tp| (topics.of(&tp.topic), tp.partition)).collect())
                            .unwrap_or_default(),
                    })
                    .collect(),
            })
            .collect()
    } else {
        Vec::new()
    };
    let stops = reconciliation
        .stops
        .iter()
        .take(STOPS_SHOWN)
        .map(|stop| StopDigest {
            topic: topics.of(&stop.partition.topic),
            partition: stop.partition.partition,
            from: stop.from.clone(),
            to: stop.to.clone(),
            heartbeats: stop.heartbeats,
        })
        .collect();
    Some(ReconciliationDigest {
        epoch: outcome.epoch,
        rounds: reconciliation.rounds,
        converged: reconciliation.converged,
        heartbeats: outcome.heartbeats.clone(),
        columns,
        lanes,
        stops,
        stop_count: reconciliation.stops.len(),
    })
}

/// A member state as the page's digest carries it.
fn lane_state(state: MemberState) -> LaneState {
    match state {
        MemberState::Stable => LaneState::Stable,
        MemberState::UnrevokedPartitions => LaneState::UnrevokedPartitions,
        MemberState::UnreleasedPartitions => LaneState::UnreleasedPartitions,
    }
}

/// The reconciliation as a panel's timeline: one line per round of heartbeats, and what stops.
fn timeline(outcome: &ServerOutcome) -> TimelineDigest {
    let Some(reconciliation) = &outcome.reconciliation else {
        return TimelineDigest {
            rounds: Vec::new(),
            pauses: format!(
                "only the {} that change owner stop; the rest keep flowing (not simulated heartbeat by heartbeat \
                 above {MAX_RECONCILED} members × partitions)",
                partitions(outcome.moved())
            ),
            settled: true,
        };
    };
    let members = outcome.heartbeats.len().max(1);
    let rounds = (0..reconciliation.rounds)
        .map(|round| {
            let (start, end) = (round * members, (round + 1) * members);
            let (mut revoked, mut handed) = (0, 0);
            for lane in reconciliation.lanes.values() {
                let (Some(before), Some(after)) = (lane.consuming.get(start), lane.consuming.get(end)) else {
                    continue;
                };
                revoked += before.difference(after).count();
                handed += after.difference(before).count();
            }
            RoundDigest {
                generation: outcome.epoch,
                text: format!("{revoked} revoked, {handed} handed to their new owner"),
            }
        })
        .collect();
    let pauses = match (reconciliation.stops.len(), outcome.longest_stop().unwrap_or(0)) {
        (0, _) => "nothing stops: no member gives up a partition it is consuming".to_string(),
        (stopped, longest) => format!(
            "only the {} that change owner stop, for at most {longest} heartbeats; the rest keep flowing",
            partitions(stopped)
        ),
    };
    TimelineDigest { rounds, pauses, settled: reconciliation.converged }
}
