//! Warnings for the traps production groups fall into (the troubleshooting of seed article 000):
//! members with different subscriptions, a member whose client lacks a strategy the others use,
//! and more consumers than partitions.

use std::collections::BTreeSet;

use crate::model::Model;

/// One piece of advice about a group, in a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advice {
    /// Which trap.
    pub kind: AdviceKind,
    /// The sentence.
    pub message: String,
}

/// The traps advice warns of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdviceKind {
    /// The members subscribe to different topic lists.
    UnevenSubscriptions,
    /// A member does not list a strategy other members use.
    MissingStrategy,
    /// More consumers than partitions: some get nothing.
    IdleConsumers,
    /// The coordinator refuses a member whose strategies the group does not share.
    NoCommonStrategy,
}

/// Every piece of advice for `model`'s group.
pub fn advice(model: &Model) -> Vec<Advice> {
    let mut out = Vec::new();
    let subscriptions: BTreeSet<Vec<&str>> = model
        .members
        .iter()
        .map(|m| {
            let mut topics: Vec<&str> = m.topics.iter().map(String::as_str).collect();
            topics.sort_unstable();
            topics.dedup();
            topics
        })
        .collect();
    if subscriptions.len() > 1 {
        out.push(Advice {
            kind: AdviceKind::UnevenSubscriptions,
            message: format!(
                "the consumers subscribe to {} different topic lists: roundrobin and range can load them very \
                 unevenly, and sticky falls back to its slower general path",
                subscriptions.len()
            ),
        });
    }

    let selection = model.selection();
    let listed_by_someone: BTreeSet<_> = model.strategies.iter().flat_map(|(_, s)| s.iter().copied()).collect();
    for (id, listed) in &model.strategies {
        let missing: Vec<&str> = listed_by_someone.iter().filter(|s| !listed.contains(s)).map(|s| s.name()).collect();
        if !missing.is_empty() && model.strategies.len() > 1 {
            out.push(Advice {
                kind: AdviceKind::MissingStrategy,
                message: format!(
                    "{id} does not list {}, which other consumers use: the group can only agree on strategies every \
                     consumer lists",
                    missing.join(", ")
                ),
            });
        }
    }
    for (id, listed) in &selection.rejected {
        let names: Vec<&str> = listed.iter().map(|s| s.name()).collect();
        out.push(Advice {
            kind: AdviceKind::NoCommonStrategy,
            message: format!(
                "{id} lists only {}, which the consumers before it do not: the coordinator refuses it with \
                 INCONSISTENT_GROUP_PROTOCOL",
                names.join(", ")
            ),
        });
    }

    let total: u64 = model
        .topics
        .iter()
        .filter(|t| model.members.iter().any(|m| m.topics.contains(&t.name)))
        .map(|t| u64::from(t.partitions))
        .sum();
    let consumers = model.members.len() as u64;
    if consumers > total && total > 0 {
        out.push(Advice {
            kind: AdviceKind::IdleConsumers,
            message: format!(
                "{consumers} consumers share {total} partitions: at least {} consumers sit idle whatever the strategy",
                consumers - total
            ),
        });
    }
    out
}
