//! Apache Kafka's client partition assignors, giving exactly the assignment the Java client gives:
//! the same partitions, in the same order, with the same tie-breaks (Kafka 3.8 to 4.0).
//!
//! ```
//! use assignor::{assign, Group, Member, Strategy, Topic, TopicPartition};
//!
//! let member = |id: &str| Member { id: id.into(), topics: vec!["t0".into(), "t1".into()], ..Member::default() };
//! let group = Group { topics: vec![Topic::new("t0", 3), Topic::new("t1", 3)], members: vec![member("C0"), member("C1")] };
//! let range = assign(Strategy::Range, &group).unwrap();
//! let tp = |t: &str, p| TopicPartition::new(t, p);
//! assert_eq!(range.members["C0"], [tp("t0", 0), tp("t0", 1), tp("t1", 0), tp("t1", 1)]);
//! assert_eq!(range.members["C1"], [tp("t0", 2), tp("t1", 2)]);
//! ```
//!
//! The crate is std only, does no I/O and is deterministic: Java's `HashMap` iteration order, where
//! it changes Kafka's answer, is emulated ([`java`]), never inherited from Rust's hashing.

#![warn(missing_docs)]

pub mod check;
pub mod consumer_group;
mod error;
mod fast_map;
pub mod java;
pub mod leader;
mod model;
mod prepared;
pub mod protocol;
mod range;
pub mod rebalance;
mod roundrobin;
mod sticky;
pub mod trace;
mod uuid;

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::str::FromStr;

pub use error::AssignError;
pub use model::{Assignment, Group, Member, Subscription, Topic, TopicPartition, UserData};
pub use uuid::{Uuid, UuidError};

use prepared::{MemberIdx, PartitionIdx, Prepared, TopicIdx};
use trace::{NoTrace, Tracer};

/// The most partitions, over all topics, that one group may have here: four times Kafka's own
/// largest test (1,000,000 partitions).
pub const MAX_PARTITIONS: u64 = 4_000_000;

/// A client-side assignment strategy (`partition.assignment.strategy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strategy {
    /// `RangeAssignor`: each topic's partitions cut into ranges, in member order.
    Range,
    /// `RoundRobinAssignor`: all partitions dealt out in turn.
    RoundRobin,
    /// `StickyAssignor`: balanced, moving as few partitions as it can (KIP-54), EAGER.
    Sticky,
    /// `CooperativeStickyAssignor`: sticky, COOPERATIVE (KIP-429).
    CooperativeSticky,
}

impl Strategy {
    /// Every strategy, in the order the page and `kap` show them.
    pub const ALL: [Strategy; 4] =
        [Strategy::Range, Strategy::RoundRobin, Strategy::Sticky, Strategy::CooperativeSticky];

    /// The protocol name the client sends in JoinGroup.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Range => "range",
            Strategy::RoundRobin => "roundrobin",
            Strategy::Sticky => "sticky",
            Strategy::CooperativeSticky => "cooperative-sticky",
        }
    }

    /// The Java class a client configures for it.
    pub fn class_name(self) -> &'static str {
        match self {
            Strategy::Range => "org.apache.kafka.clients.consumer.RangeAssignor",
            Strategy::RoundRobin => "org.apache.kafka.clients.consumer.RoundRobinAssignor",
            Strategy::Sticky => "org.apache.kafka.clients.consumer.StickyAssignor",
            Strategy::CooperativeSticky => "org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
        }
    }

    /// The rebalance protocols it supports, preferred first (KIP-429).
    pub fn supported_protocols(self) -> &'static [protocol::RebalanceProtocol] {
        use protocol::RebalanceProtocol::{Cooperative, Eager};
        match self {
            Strategy::CooperativeSticky => &[Cooperative, Eager],
            _ => &[Eager],
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = String;

    /// Accepts the protocol name (`range`) or the class name, full or short (`RangeAssignor`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let short = s.rsplit('.').next().unwrap_or(s);
        Strategy::ALL
            .into_iter()
            .find(|st| st.name() == s || st.class_name() == s || st.class_name().ends_with(&format!(".{short}")))
            .ok_or_else(|| format!("unknown strategy {s:?} (expected range, roundrobin, sticky or cooperative-sticky)"))
    }
}

/// Assigns a modelled group as Kafka's leader would under `strategy`.
pub fn assign(strategy: Strategy, group: &Group) -> Result<Assignment, AssignError> {
    assign_traced(strategy, group, &mut NoTrace)
}

/// [`assign`] for a group the caller is done with: each member's lists become its subscription
/// without a copy, which is what a large batch line needs.
pub fn assign_owned(strategy: Strategy, group: Group) -> Result<Assignment, AssignError> {
    check_names(&group)?;
    let Group { topics, members } = group;
    let subscriptions: Vec<Subscription> =
        members.into_iter().map(|m| leader::into_subscription(strategy, m)).collect();
    let per_topic = leader::partitions_per_topic(&topics, &subscriptions);
    run(strategy, &per_topic, &subscriptions, &mut NoTrace)
}

/// [`assign`], recording each decision in `trace`.
pub fn assign_traced<T: Tracer>(strategy: Strategy, group: &Group, trace: &mut T) -> Result<Assignment, AssignError> {
    check_names(group)?;
    let (topics, subscriptions) = leader::view(strategy, group);
    run(strategy, &topics, &subscriptions, trace)
}

/// The assignor's own entry point, `assign(partitionsPerTopic, subscriptions)`: `topics` in the
/// insertion order of `partitionsPerTopic`, `subscriptions` in that of the `subscriptions` map.
pub fn assign_subscriptions(
    strategy: Strategy,
    topics: &[Topic],
    subscriptions: &[Subscription],
) -> Result<Assignment, AssignError> {
    assign_subscriptions_traced(strategy, topics, subscriptions, &mut NoTrace)
}

/// [`assign_subscriptions`], recording each decision in `trace`.
pub fn assign_subscriptions_traced<T: Tracer>(
    strategy: Strategy,
    topics: &[Topic],
    subscriptions: &[Subscription],
    trace: &mut T,
) -> Result<Assignment, AssignError> {
    let topics: Vec<&Topic> = topics.iter().collect();
    run(strategy, &topics, subscriptions, trace)
}

fn check_names(group: &Group) -> Result<(), AssignError> {
    let mut topics = HashSet::new();
    if let Some(t) = group.topics.iter().find(|t| !topics.insert(t.name.as_str())) {
        return Err(AssignError::DuplicateTopic(t.name.clone()));
    }
    let mut members = HashSet::new();
    if let Some(m) = group.members.iter().find(|m| !members.insert(m.id.as_str())) {
        return Err(AssignError::DuplicateMember(m.id.clone()));
    }
    Ok(())
}

fn run<T: Tracer>(
    strategy: Strategy,
    topics: &[&Topic],
    subscriptions: &[Subscription],
    trace: &mut T,
) -> Result<Assignment, AssignError> {
    let g = Prepared::new(topics, subscriptions)?;
    // The leader's `subscriptions` is a HashMap filled in JoinGroup order.
    let hash_order: Vec<MemberIdx> =
        java::iteration_order(&g.member_hash, java::Link::Tail).into_iter().map(|i| MemberIdx(i as u32)).collect();
    let (lists, transferring, withheld) = match strategy {
        Strategy::Range => {
            let topic_hashes: Vec<i32> = g.topics.iter().map(|t| t.hash).collect();
            let topic_order: Vec<TopicIdx> = java::iteration_order(&topic_hashes, java::Link::Tail)
                .into_iter()
                .map(|i| TopicIdx(i as u32))
                .collect();
            (range::assign(&g, &hash_order, &topic_order, trace), None, Vec::new())
        }
        Strategy::RoundRobin => (roundrobin::assign(&g, &hash_order, trace), None, Vec::new()),
        Strategy::Sticky | Strategy::CooperativeSticky => {
            let outcome = sticky::assign(&g, &hash_order, strategy == Strategy::CooperativeSticky, trace)?;
            (outcome.lists, outcome.transferring, outcome.withheld)
        }
    };
    let name = |m: MemberIdx| g.member_id(m).to_string();
    let partitions =
        |list: Vec<PartitionIdx>| -> Vec<TopicPartition> { list.into_iter().map(|p| g.topic_partition(p)).collect() };
    Ok(Assignment {
        members: g.members().zip(lists).map(|(m, list)| (name(m), partitions(list))).collect(),
        transferring: transferring
            .map(|moves| moves.into_iter().map(|(p, m)| (g.topic_partition(p), name(m))).collect::<BTreeMap<_, _>>()),
        withheld: withheld.into_iter().map(|(p, m)| (g.topic_partition(p), name(m))).collect(),
    })
}
