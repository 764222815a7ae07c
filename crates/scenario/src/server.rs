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
//! // A member joins: only what moves to it stops, and only between two heartbeats.
//! assert!(uniform.kept_never_stop());
//! assert_eq!(uniform.diff.moved.len(), uniform.reconciliation.stops.len());
//! ```

use std::sync::Arc;

use assignor::check::{self, Metrics};
use assignor::consumer_group::reconcile::{self, Reconciliation};
use assignor::consumer_group::{target_assignment, CoordinatorError, ServerAssignor, SubscriptionType};
use assignor::rebalance::{self, Diff, Lists};

use crate::model::Model;

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
    /// What each member consumes after each heartbeat, and what stops.
    pub reconciliation: Reconciliation,
}

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
        let reconciliation = reconcile::simulate(&before, &target, epoch, &heartbeats);
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

    /// The most heartbeats any partition went unconsumed.
    pub fn longest_stop(&self) -> usize {
        self.reconciliation.stops.iter().map(|s| s.heartbeats).max().unwrap_or(0)
    }

    /// Whether every partition a member keeps is consumed after every heartbeat: the promise of the
    /// consumer protocol, a rebalance with no group-wide stop.
    pub fn kept_never_stop(&self) -> bool {
        self.diff.members.iter().all(|(member, change)| {
            let Some(lane) = self.reconciliation.lanes.get(member) else { return change.kept.is_empty() };
            change.kept.iter().all(|tp| lane.consuming.iter().all(|set| set.contains(tp)))
        })
    }
}

/// `subscription_type` as the coordinator names it, with the builder it picks for `uniform`.
pub fn subscription_text(subscription_type: SubscriptionType) -> &'static str {
    match subscription_type {
        SubscriptionType::Homogeneous => "HOMOGENEOUS: every member subscribes to the same topics",
        SubscriptionType::Heterogeneous => "HETEROGENEOUS: subscriptions differ",
    }
}
