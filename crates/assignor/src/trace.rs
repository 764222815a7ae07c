//! A record of each decision a strategy takes, for the explain walkthroughs.
//!
//! Strategies are generic over a [`Tracer`]; with [`NoTrace`] every `record` call and the closure that
//! would build its [`Step`] compile to nothing, so tracing costs nothing when it is off.
//! Replaying the steps that change ownership ([`Step::Assign`], [`Step::Keep`], [`Step::Move`],
//! [`Step::Revoke`], [`Step::Withhold`], [`Step::SortLists`]) from an empty assignment reproduces
//! the strategy's result exactly, list order included ([`replay`]).

use std::collections::BTreeMap;

use crate::model::TopicPartition;

/// Receives steps. Implemented by [`NoTrace`] and by `Vec<Step>`.
pub trait Tracer {
    /// Whether steps are wanted at all; strategies may skip preparing trace-only data when not.
    fn enabled(&self) -> bool;
    /// Records the step `make` builds; `make` is only called when enabled.
    fn record(&mut self, make: impl FnOnce() -> Step);
}

/// Tracing off.
pub struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn enabled(&self) -> bool {
        false
    }
    #[inline(always)]
    fn record(&mut self, _make: impl FnOnce() -> Step) {}
}

impl Tracer for Vec<Step> {
    fn enabled(&self) -> bool {
        true
    }
    fn record(&mut self, make: impl FnOnce() -> Step) {
        self.push(make());
    }
}

/// Why a partition was not given to the member that was tried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// The member does not subscribe to the partition's topic.
    NotSubscribed,
    /// The member already holds its quota.
    OverQuota,
    /// The member's rack holds no replica of the partition (KIP-881).
    RackMismatch,
}

/// Why a previously owned partition is not kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LossReason {
    /// Another member claimed it with a higher generation (KAFKA-12984, KAFKA-14639).
    OlderGeneration {
        /// The member that keeps it.
        winner: String,
        /// The generation of its claim.
        winner_generation: i32,
        /// The generation of the losing claim.
        generation: i32,
    },
    /// Two members claimed it in the same generation: neither keeps it (KAFKA-14639).
    ClaimedTwice {
        /// The other claimant.
        other: String,
        /// The generation both claim it from.
        generation: i32,
    },
    /// The member no longer subscribes to the topic.
    NotSubscribed,
    /// The member's rack holds no replica (KIP-881).
    RackMismatch,
    /// The member owned more than its quota.
    OverQuota,
}

/// One decision of a strategy, in Kafka's vocabulary.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Step {
    /// A plain-sentence remark about a phase starting or a condition taken.
    Note {
        /// The remark.
        text: String,
    },
    /// A sorted order the strategy is about to walk (members, partitions, topics).
    Order {
        /// What is ordered.
        name: String,
        /// The order.
        items: Vec<String>,
    },
    /// Range: how many partitions of `topic` each of its consumers gets.
    RangeQuota {
        /// The topic.
        topic: String,
        /// How many members subscribe to it.
        consumers: usize,
        /// Partitions every one of them gets.
        per_consumer: u32,
        /// How many of them, first in order, get one more.
        extra: u32,
    },
    /// Sticky: every member ends with `min` or `max` partitions; `expected_at_max` of them with `max`.
    StickyQuota {
        /// The fewest partitions a member ends with.
        min: u32,
        /// The most.
        max: u32,
        /// How many members end with `max`.
        expected_at_max: u32,
    },
    /// Uniform, every member on the same topics (`UniformHomogeneousAssignmentBuilder`): each member
    /// may hold `per_member` partitions, and the first `extra` in member-map order one more,
    /// whatever they own.
    UniformQuota {
        /// The partitions of the subscribed topics.
        partitions: u64,
        /// The members.
        members: usize,
        /// Partitions every member may hold.
        per_member: u64,
        /// How many members, first in member-map order, may hold one more.
        extra: u64,
    },
    /// Uniform, homogeneous: how many partitions `member` may hold, the owned ones it keeps
    /// included.
    MemberQuota {
        /// The member.
        member: String,
        /// How many partitions it may hold.
        quota: u64,
        /// Whether that is one more than the minimum (it is among the first in member-map order).
        extra: bool,
    },
    /// `member` was considered for `partition` and passed over.
    Skip {
        /// The partition.
        partition: TopicPartition,
        /// The member passed over.
        member: String,
        /// Why.
        reason: SkipReason,
    },
    /// `partition` is given to `member` (appended to its list).
    Assign {
        /// The partition.
        partition: TopicPartition,
        /// The member.
        member: String,
    },
    /// `member` keeps `partition`, which it owned before (appended to its list).
    Keep {
        /// The partition.
        partition: TopicPartition,
        /// The member.
        member: String,
    },
    /// `member` loses a partition it claimed.
    Lose {
        /// The partition.
        partition: TopicPartition,
        /// The member.
        member: String,
        /// Why.
        reason: LossReason,
    },
    /// Balancing: `partition` moves from `from` to `to` (removed there, appended here).
    Move {
        /// The partition.
        partition: TopicPartition,
        /// The member it leaves.
        from: String,
        /// The member it joins.
        to: String,
    },
    /// `partition` is taken back from `member` (removed from its list).
    Revoke {
        /// The partition.
        partition: TopicPartition,
        /// The member.
        member: String,
    },
    /// Cooperative: `partition` is withheld from `to` this round, since `from` must revoke it first.
    Withhold {
        /// The partition.
        partition: TopicPartition,
        /// Its owner, which must revoke it first.
        from: String,
        /// The member it goes to in a later round.
        to: String,
    },
    /// Every member's list is sorted by (topic, partition).
    SortLists,
}

/// Rebuilds the assignment a trace describes: for every member in `members`, its list.
pub fn replay(members: &[String], steps: &[Step]) -> BTreeMap<String, Vec<TopicPartition>> {
    let mut lists: BTreeMap<String, Vec<TopicPartition>> = members.iter().map(|m| (m.clone(), Vec::new())).collect();
    for step in steps {
        apply(&mut lists, step);
    }
    lists
}

/// Applies one step to an assignment being rebuilt.
pub fn apply(lists: &mut BTreeMap<String, Vec<TopicPartition>>, step: &Step) {
    match step {
        Step::Assign { partition, member } | Step::Keep { partition, member } => {
            lists.entry(member.clone()).or_default().push(partition.clone());
        }
        Step::Move { partition, from, to } => {
            if let Some(list) = lists.get_mut(from) {
                list.retain(|tp| tp != partition);
            }
            lists.entry(to.clone()).or_default().push(partition.clone());
        }
        Step::Revoke { partition, member } | Step::Withhold { partition, to: member, .. } => {
            if let Some(list) = lists.get_mut(member) {
                list.retain(|tp| tp != partition);
            }
        }
        Step::SortLists => lists.values_mut().for_each(|list| list.sort()),
        Step::Note { .. }
        | Step::Order { .. }
        | Step::RangeQuota { .. }
        | Step::StickyQuota { .. }
        | Step::UniformQuota { .. }
        | Step::MemberQuota { .. }
        | Step::Skip { .. }
        | Step::Lose { .. } => {}
    }
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SkipReason::NotSubscribed => "it does not subscribe to the topic",
            SkipReason::OverQuota => "it already holds its quota",
            SkipReason::RackMismatch => "its rack holds no replica",
        })
    }
}

impl std::fmt::Display for LossReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LossReason::OlderGeneration { winner, winner_generation, generation } => write!(
                f,
                "{winner} claims it from generation {winner_generation}, newer than this claim's {generation}"
            ),
            LossReason::ClaimedTwice { other, generation } => {
                write!(f, "{other} claims it too in the same generation {generation}, so neither keeps it")
            }
            LossReason::NotSubscribed => f.write_str("the member no longer subscribes to its topic"),
            LossReason::RackMismatch => f.write_str("the member's rack holds no replica of it"),
            LossReason::OverQuota => f.write_str("the member owns more than its quota"),
        }
    }
}

/// Each step as one plain sentence.
impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Note { text } => {
                // Notes read as sentences whatever their source wrote.
                let mut chars = text.chars();
                if let Some(first) = chars.next() {
                    write!(f, "{}{}", first.to_uppercase(), chars.as_str())?;
                }
                if text.ends_with('.') {
                    Ok(())
                } else {
                    f.write_str(".")
                }
            }
            Step::Order { name, items } => write!(f, "Sort {name}: {}.", items.join(", ")),
            Step::RangeQuota { topic, consumers, per_consumer, extra } => {
                let partitions = *per_consumer as usize * consumers + *extra as usize;
                let over = format!(
                    "{topic}: {} over {}",
                    plural(partitions as u64, "partition"),
                    plural(*consumers as u64, "consumer")
                );
                match extra {
                    0 => write!(f, "{over}, {per_consumer} each."),
                    1 => write!(f, "{over}: {per_consumer} each, and the first gets one more."),
                    _ => write!(f, "{over}: {per_consumer} each, and the first {extra} get one more."),
                }
            }
            Step::StickyQuota { min, max, expected_at_max } if min == max => {
                let _ = expected_at_max;
                write!(f, "Every member should end with exactly {min} partitions.")
            }
            Step::StickyQuota { min, max, expected_at_max } => write!(
                f,
                "Every member should end with {min} or {max} partitions; {expected_at_max} of them with {max}."
            ),
            Step::UniformQuota { partitions, members, per_member, extra } => {
                let over = format!("{} over {}", plural(*partitions, "partition"), plural(*members as u64, "member"));
                match extra {
                    0 => write!(f, "{over}: each may hold {per_member}."),
                    1 => write!(f, "{over}: each may hold {per_member}, and the first in member order one more."),
                    _ => {
                        write!(f, "{over}: each may hold {per_member}, and the first {extra} in member order one more.")
                    }
                }
            }
            Step::MemberQuota { member, quota, extra: true } => {
                write!(f, "{member} may hold {}, one of them extra.", plural(*quota, "partition"))
            }
            Step::MemberQuota { member, quota, extra: false } => {
                write!(f, "{member} may hold {}.", plural(*quota, "partition"))
            }
            Step::Skip { partition, member, reason } => write!(f, "Try {partition} on {member}: no, {reason}; next."),
            Step::Assign { partition, member } => write!(f, "Give {partition} to {member}."),
            Step::Keep { partition, member } => write!(f, "{member} keeps {partition}, which it owned."),
            Step::Lose { partition, member, reason } => write!(f, "{member} loses {partition}: {reason}."),
            Step::Move { partition, from, to } => write!(f, "Move {partition} from {from} to {to} to even the load."),
            Step::Revoke { partition, member } => write!(f, "Take {partition} back from {member}."),
            Step::Withhold { partition, from, to } => write!(
                f,
                "Hold {partition} back this round: it goes to {to}, but {from} must revoke it first (KIP-429)."
            ),
            Step::SortLists => f.write_str("Sort every member's partitions by topic and number."),
        }
    }
}

fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

impl Step {
    /// A short name for the kind of step, for machines (`assign`, `skip`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Step::Note { .. } => "note",
            Step::Order { .. } => "order",
            Step::RangeQuota { .. } => "range_quota",
            Step::StickyQuota { .. } => "sticky_quota",
            Step::UniformQuota { .. } => "uniform_quota",
            Step::MemberQuota { .. } => "member_quota",
            Step::Skip { .. } => "skip",
            Step::Assign { .. } => "assign",
            Step::Keep { .. } => "keep",
            Step::Lose { .. } => "lose",
            Step::Move { .. } => "move",
            Step::Revoke { .. } => "revoke",
            Step::Withhold { .. } => "withhold",
            Step::SortLists => "sort_lists",
        }
    }

    /// The partition and members the step is about, for highlighting.
    pub fn focus(&self) -> (Option<&TopicPartition>, Vec<&str>) {
        match self {
            Step::Skip { partition, member, .. }
            | Step::Assign { partition, member }
            | Step::Keep { partition, member }
            | Step::Lose { partition, member, .. }
            | Step::Revoke { partition, member } => (Some(partition), vec![member.as_str()]),
            Step::Move { partition, from, to } | Step::Withhold { partition, from, to } => {
                (Some(partition), vec![from.as_str(), to.as_str()])
            }
            Step::MemberQuota { member, .. } => (None, vec![member.as_str()]),
            _ => (None, Vec::new()),
        }
    }
}
