//! The external formats, as serde DTOs. Core types are never serialized directly: a derived
//! `Serialize` on them would silently become a compatibility promise.
//!
//! - [`Scenario`]: what the playground edits, exports and shares, and what `kap` reads. Versioned
//!   (`"version": 1`); fields at their default are left out when written.
//! - [`Snapshot`]: one group about to rebalance under one strategy, a JSON line of `kap batch`.

use std::collections::BTreeMap;
use std::sync::Arc;

use assignor::Strategy;
use serde::{Deserialize, Serialize};

/// The format version this build writes. Every version it ever wrote must still be read.
pub const VERSION: u32 = 1;

/// A consumer group being modelled: topics, consumers, and the assignment each strategy gave it
/// last, which the next rebalance starts from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The format version it was written in; absent in files from before versions were written.
    #[serde(default = "version_one")]
    pub version: u32,
    /// A headline for the page and for embeds.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// A paragraph saying what the scenario shows.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// The topics, in the order the page lists them.
    #[serde(default)]
    pub topics: Vec<TopicSpec>,
    /// The consumers, in JoinGroup order.
    #[serde(default)]
    pub consumers: Vec<ConsumerSpec>,
    /// The assignment before this rebalance, per strategy (absent: a fresh group).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous: Option<Previous>,
    /// What the page shows.
    #[serde(default, skip_serializing_if = "View::is_default")]
    pub view: View,
}

fn version_one() -> u32 {
    1
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            version: VERSION,
            title: String::new(),
            notes: String::new(),
            topics: Vec::new(),
            consumers: Vec::new(),
            previous: None,
            view: View::default(),
        }
    }
}

/// A topic: its name, its partitions and where their replicas are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicSpec {
    /// The topic's name.
    pub name: String,
    /// How many partitions it has.
    pub partitions: u32,
    /// Replica racks, laid out round-robin: replica `i` of partition `p` is on
    /// `racks[(p + i) % racks.len()]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<ReplicaLayout>,
    /// Partitions whose replica racks differ from the layout (partition number to racks).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rack_overrides: BTreeMap<u32, Vec<String>>,
}

impl TopicSpec {
    /// A topic whose replicas' racks are unknown.
    pub fn new(name: impl Into<String>, partitions: u32) -> Self {
        TopicSpec { name: name.into(), partitions, replicas: None, rack_overrides: BTreeMap::new() }
    }
}

/// Where a topic's replicas are, laid out round-robin over racks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplicaLayout {
    /// Replication factor.
    pub factor: u32,
    /// The racks, in layout order.
    pub racks: Vec<String>,
}

/// A consumer: its identity and configuration, and what it subscribes to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsumerSpec {
    /// The `member.id`.
    pub id: String,
    /// `group.instance.id`, for a static member (KIP-345).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance_id: Option<String>,
    /// `client.rack` (KIP-881).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack: Option<String>,
    /// Topics subscribed to by name.
    #[serde(default)]
    pub topics: Vec<String>,
    /// Pattern subscriptions (Java regular expressions matched against whole topic names), which
    /// also pick up topics created later.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patterns: Vec<String>,
    /// `partition.assignment.strategy`, preferred first; by default Kafka 3.0+'s
    /// `[range, cooperative-sticky]`.
    #[serde(default = "default_strategies", skip_serializing_if = "is_default_strategies")]
    pub strategies: Vec<String>,
}

impl ConsumerSpec {
    /// A dynamic member without a rack, subscribing to `topics` by name, with Kafka's default
    /// strategies.
    pub fn new(id: impl Into<String>, topics: &[&str]) -> Self {
        ConsumerSpec {
            id: id.into(),
            instance_id: None,
            rack: None,
            topics: topics.iter().map(|t| t.to_string()).collect(),
            patterns: Vec::new(),
            strategies: default_strategies(),
        }
    }
}

/// Kafka 3.0+'s default `partition.assignment.strategy`.
pub fn default_strategies() -> Vec<String> {
    vec!["range".into(), "cooperative-sticky".into()]
}

fn is_default_strategies(list: &[String]) -> bool {
    list == default_strategies().as_slice()
}

/// Member id to the partitions it owned, as `[topic, partition]` pairs.
pub type Owned = BTreeMap<String, Vec<(String, u32)>>;

/// The assignment before this rebalance.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Previous {
    /// The generation the previous assignment was made in.
    pub generation: i32,
    /// Members whose claims are from another generation than `generation`; `null` for a member whose
    /// client sent none. A group snapshot can say this (a member that missed a rebalance); the
    /// page's own rebalances never do.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub generations: BTreeMap<String, Option<i32>>,
    /// Per strategy name, member id to its partitions in the order Kafka listed them. Members no
    /// longer among the consumers have left the group (a crash, a scale-in). Shared, as a snapshot's
    /// one history stands for every strategy (written out in full all the same).
    pub assignments: BTreeMap<String, Arc<Owned>>,
}

/// What the page shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct View {
    /// The strategy panels shown, in order; empty means all four.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strategies: Vec<String>,
    /// Whether the rebalance diff is shown.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub diff: bool,
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

impl Default for View {
    fn default() -> Self {
        View { strategies: Vec::new(), diff: true }
    }
}

impl View {
    /// Whether this is what the page shows unless told otherwise (left out of files and links).
    pub fn is_default(&self) -> bool {
        *self == View::default()
    }

    /// The strategies whose panels are shown, in [`Strategy::ALL`] order: those the list names
    /// (by protocol or class name), or all four when it names none.
    pub fn shown(&self) -> Vec<Strategy> {
        let named: Vec<Strategy> = self.strategies.iter().filter_map(|s| s.parse().ok()).collect();
        if named.is_empty() {
            return Strategy::ALL.to_vec();
        }
        Strategy::ALL.into_iter().filter(|s| named.contains(s)).collect()
    }

    /// This view with `strategy`'s panel shown if it was hidden and hidden if it was shown. Showing
    /// all four, or none, is the default: all four.
    pub fn toggled(&self, strategy: Strategy) -> View {
        let mut shown = self.shown();
        if shown.contains(&strategy) {
            shown.retain(|s| *s != strategy);
        } else {
            shown.push(strategy);
        }
        let strategies = if shown.len() == Strategy::ALL.len() {
            Vec::new()
        } else {
            Strategy::ALL.into_iter().filter(|s| shown.contains(s)).map(|s| s.name().to_string()).collect()
        };
        View { strategies, ..self.clone() }
    }
}

/// One group snapshot of `kap batch`: the group about to rebalance under `strategy`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Any JSON value, echoed in the answer so that callers can match answers to questions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<serde_json::Value>,
    /// The strategy's name.
    pub strategy: String,
    /// Topic name to partition count.
    pub topics: BTreeMap<String, u32>,
    /// Per topic, per partition, the racks of its replicas.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub partition_racks: BTreeMap<String, Vec<Vec<String>>>,
    /// In JoinGroup order.
    pub members: Vec<SnapshotMember>,
}

/// A member of a [`Snapshot`], as its client would join.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnapshotMember {
    /// The `member.id`.
    pub id: String,
    /// `group.instance.id`, for a static member (KIP-345).
    #[serde(default)]
    pub instance_id: Option<String>,
    /// `client.rack` (KIP-881).
    #[serde(default)]
    pub rack: Option<String>,
    /// The topics it subscribes to.
    #[serde(default)]
    pub topics: Vec<String>,
    /// What the member owned before this rebalance.
    #[serde(default)]
    pub owned: Vec<(String, u32)>,
    /// The generation of that ownership; `null` for none.
    #[serde(default)]
    pub generation: Option<i32>,
}
