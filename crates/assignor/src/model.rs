//! The plain data the assignors read and write: topics, members, subscriptions, assignments.
//!
//! Two views of one group:
//! - [`Group`] is what a person models: members with what they owned before this rebalance. It is turned
//!   into what the leader receives by [`crate::leader_view`], the way a real client of each strategy
//!   would send it.
//! - [`Subscription`] is that lower level: exactly the `ConsumerProtocolSubscription` an assignor sees,
//!   used by Kafka's own test cases (unsorted lists, user data, generations as sent).

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::java;

/// Kafka's `TopicPartition`. Ordered as Kafka sorts them: topic in Java string order, then partition.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct TopicPartition {
    /// The topic's name.
    pub topic: Arc<str>,
    /// The partition's number within its topic.
    pub partition: u32,
}

impl TopicPartition {
    /// Partition `partition` of `topic`.
    pub fn new(topic: impl Into<Arc<str>>, partition: u32) -> Self {
        TopicPartition { topic: topic.into(), partition }
    }
}

impl Ord for TopicPartition {
    fn cmp(&self, other: &Self) -> Ordering {
        java::cmp_str(&self.topic, &other.topic).then(self.partition.cmp(&other.partition))
    }
}

impl PartialOrd for TopicPartition {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Kafka prints a partition as `topic-partition`.
impl fmt::Display for TopicPartition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.topic, self.partition)
    }
}

impl fmt::Debug for TopicPartition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A topic as the cluster metadata describes it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Topic {
    /// Its name.
    pub name: String,
    /// How many partitions it has, numbered from 0.
    pub partitions: u32,
    /// For each partition, the rack of each replica's broker (every replica, in or out of sync,
    /// KIP-881); `None` for a broker without `broker.rack`, which Kafka's rack matching skips (a
    /// partition whose replicas all lack a rack matches no consumer's rack). Empty when racks are
    /// unknown; otherwise one entry per partition.
    pub replica_racks: Vec<Vec<Option<String>>>,
}

impl Topic {
    /// A topic whose replicas' racks are unknown.
    pub fn new(name: impl Into<String>, partitions: u32) -> Self {
        Topic { name: name.into(), partitions, replica_racks: Vec::new() }
    }
}

/// A consumer as a person models it: who it is, what it subscribes to, and what it held before this
/// rebalance (its last assignment and the generation it was received in).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Member {
    /// The coordinator-assigned `member.id`.
    pub id: String,
    /// `group.instance.id`: set for static members (KIP-345).
    pub instance_id: Option<String>,
    /// `client.rack` (KIP-881).
    pub rack: Option<String>,
    /// The topics it subscribes to.
    pub topics: Vec<String>,
    /// The partitions the member owned before this rebalance.
    pub owned: Vec<TopicPartition>,
    /// The generation of that ownership; `None` for a member that never received an assignment.
    pub generation: Option<i32>,
    /// Set when the member's client rebalances EAGER although the group's strategy is cooperative
    /// (its `partition.assignment.strategy` also lists an eager-only assignor, as 3.0+'s default
    /// `[range, cooperative-sticky]` does): it revokes everything before it rejoins.
    pub eager: bool,
}

/// A consumer group about to rebalance: the topics in the cluster and the members in JoinGroup order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Group {
    /// The topics in the cluster's metadata.
    pub topics: Vec<Topic>,
    /// The members, in JoinGroup order.
    pub members: Vec<Member>,
}

/// The user data a sticky-family assignor attaches to its subscription, already decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UserData {
    /// `StickyAssignor`'s: the member's last assignment as the client encoded it, and the generation
    /// (schema V1, KIP-341); `generation: None` is the older schema V0.
    Sticky {
        /// The member's last assignment.
        partitions: Vec<TopicPartition>,
        /// The generation it was received in.
        generation: Option<i32>,
    },
    /// `CooperativeStickyAssignor`'s: the generation of the last assignment (-1 before the first one).
    Cooperative {
        /// The generation.
        generation: i32,
    },
    /// Bytes that no schema reads: Kafka treats the member as owning nothing, generation -1.
    Unreadable,
}

/// One member's `ConsumerProtocolSubscription`, exactly as the group leader's assignor receives it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Subscription {
    /// The `member.id` the coordinator gave it.
    pub member_id: String,
    /// `group.instance.id`: set for static members (KIP-345).
    pub group_instance_id: Option<String>,
    /// `client.rack`, subscription v3+ (KIP-881).
    pub rack: Option<String>,
    /// The topics, in the order the client lists them.
    pub topics: Vec<String>,
    /// Subscription v1+ (KIP-429); always empty for eager clients.
    pub owned_partitions: Vec<TopicPartition>,
    /// Subscription v2+ (KIP-792); `None` stands for -1 on the wire.
    pub generation: Option<i32>,
    /// What the client's assignor attached; `None` for assignors that attach nothing.
    pub user_data: Option<UserData>,
}

/// What one assignor run returns.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Assignment {
    /// Every member's partitions, in the order Kafka lists them. Every member has an entry.
    pub members: BTreeMap<String, Vec<TopicPartition>>,
    /// Sticky family only: `partitionsTransferringOwnership`, the partitions that change owner and
    /// their new owner. `None` where Kafka leaves it null (the general path, and non-sticky assignors).
    pub transferring: Option<BTreeMap<TopicPartition, String>>,
    /// Cooperative-sticky only: partitions held back in this round because they change owner
    /// (KIP-429), with the member they are meant for once their old owner has revoked them.
    pub withheld: BTreeMap<TopicPartition, String>,
}

impl Assignment {
    /// The member that holds `tp`, if any.
    pub fn owner_of(&self, tp: &TopicPartition) -> Option<&str> {
        self.members.iter().find(|(_, list)| list.contains(tp)).map(|(id, _)| id.as_str())
    }

    /// Total number of assigned partitions.
    pub fn assigned_count(&self) -> usize {
        self.members.values().map(Vec::len).sum()
    }
}
