//! The new consumer group protocol (KIP-848, `group.protocol=consumer`, GA in Kafka 4.0): the group
//! coordinator on the broker computes each member's *target assignment* with a server-side assignor
//! (`group.remote.assignor`), exactly as Kafka 4.0's `group-coordinator` module does.
//!
//! ```
//! use assignor::consumer_group::{target_assignment, ConsumerGroup, ConsumerMember, ServerAssignor, TopicImage};
//! use assignor::TopicPartition;
//!
//! let orders = TopicImage { name: "orders".into(), id: "eZUeEuqvSSGGPuIabmBwqg".parse().unwrap(), partitions: 3 };
//! let member = |id: &str| ConsumerMember { id: id.into(), topics: vec!["orders".into()], ..ConsumerMember::default() };
//! let group = ConsumerGroup { topics: vec![orders], members: vec![member("A"), member("B")] };
//! let target = target_assignment(ServerAssignor::Range, &group).unwrap();
//! assert_eq!(target.members["A"], [TopicPartition::new("orders", 0), TopicPartition::new("orders", 1)]);
//! assert_eq!(target.members["B"], [TopicPartition::new("orders", 2)]);
//! ```
//!
//! - `target`: how `TargetAssignmentBuilder` and `GroupSpecImpl` feed the assignor: the member map
//!   (a Java `HashMap`, so its iteration order decides ties), subscriptions resolved to topic ids
//!   (`TopicIds`, which skips missing topics yet counts them), the subscription type.
//! - `uniform`: `UniformAssignor`, the default: a homogeneous and a heterogeneous builder.
//! - `range`: the server-side `RangeAssignor` (not sticky since KAFKA-16944).
//! - [`reconcile`]: how each member converges to its target through heartbeats
//!   (`CurrentAssignmentBuilder`).
//!
//! Racks have no effect in this line (KAFKA-16694 removed the rack-aware code).
//!
//! [`target_assignment_traced`] records each decision of the assignor as a [`crate::trace::Step`],
//! in Kafka's order, for the walkthroughs.

mod range;
pub mod reconcile;
mod target;
mod uniform;
#[cfg(test)]
mod walk_tests;

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use crate::model::TopicPartition;
use crate::trace::{NoTrace, Tracer};
use crate::uuid::Uuid;

pub use target::{MapOrder, SpecOptions};

/// A server-side assignor (`group.consumer.assignors`; the client picks one with
/// `group.remote.assignor`, and `uniform` is the default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ServerAssignor {
    /// `UniformAssignor`, the default: balance first, then stickiness.
    Uniform,
    /// The server-side `RangeAssignor`: contiguous ranges per topic, not sticky.
    Range,
}

impl ServerAssignor {
    /// Both, in the order of the broker's default `group.consumer.assignors` (`uniform, range`).
    pub const ALL: [ServerAssignor; 2] = [ServerAssignor::Uniform, ServerAssignor::Range];

    /// The name a client configures in `group.remote.assignor`.
    pub fn name(self) -> &'static str {
        match self {
            ServerAssignor::Uniform => "uniform",
            ServerAssignor::Range => "range",
        }
    }
}

impl fmt::Display for ServerAssignor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown `group.remote.assignor` name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownServerAssignor(pub String);

impl fmt::Display for UnknownServerAssignor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown server assignor {:?} (expected uniform or range)", self.0)
    }
}

impl std::error::Error for UnknownServerAssignor {}

impl FromStr for ServerAssignor {
    type Err = UnknownServerAssignor;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ServerAssignor::ALL.into_iter().find(|a| a.name() == s).ok_or_else(|| UnknownServerAssignor(s.to_string()))
    }
}

/// Whether every member subscribes to the same topic names (`ModernGroup.subscriptionType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SubscriptionType {
    /// Every member subscribes to the same names (or nobody to any).
    #[default]
    Homogeneous,
    /// Some member's subscription differs.
    Heterogeneous,
}

/// A topic in the cluster's metadata image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicImage {
    /// The topic's name.
    pub name: String,
    /// Its id, fixed when the topic is created.
    pub id: Uuid,
    /// Its partition count (0 allowed).
    pub partitions: u32,
}

/// A member as the coordinator holds it when it computes a target assignment.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ConsumerMember {
    /// `member.id`; under KIP-848 the client generates it (a `Uuid` string), but any string works.
    pub id: String,
    /// `group.instance.id`, for a static member (KIP-345).
    pub instance_id: Option<String>,
    /// `client.rack`; no effect on the 4.0 assignors.
    pub rack: Option<String>,
    /// Subscribed topic names as the heartbeat listed them; names of missing topics included.
    pub topics: Vec<String>,
    /// The member's current target assignment: topic id to partitions, topics in the order they were
    /// first listed. Ids of deleted topics may appear.
    pub target: Vec<(Uuid, Vec<u32>)>,
}

/// What the coordinator knows when it computes a target assignment.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ConsumerGroup {
    /// The topics that exist.
    pub topics: Vec<TopicImage>,
    /// In the order they are put into the coordinator's member map.
    pub members: Vec<ConsumerMember>,
}

/// The new target assignment.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TargetAssignment {
    /// Every member's partitions, sorted by (topic, partition): the assignor returns sets.
    pub members: BTreeMap<String, Vec<TopicPartition>>,
    /// Which builder the coordinator's subscription type chose.
    pub subscription_type: SubscriptionType,
}

/// Why no target assignment came out.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CoordinatorError {
    /// Kafka's `PartitionAssignorException`, with its message.
    PartitionAssignor(&'static str),
    /// `ArrayIndexOutOfBoundsException`: the heterogeneous uniform builder indexes a topic's owner
    /// array with an owned partition number the topic does not have.
    IndexOutOfBounds {
        /// The owned partition number.
        index: u32,
        /// The topic's partition count.
        length: u32,
    },
    /// Two members share a member id: a map cannot hold them.
    DuplicateMember(String),
    /// Two topics share a name or an id: the metadata image cannot hold them.
    DuplicateTopic(String),
    /// A partition number beyond Java's `int`.
    PartitionNumberTooLarge(u32),
    /// The group is larger than this tool computes (see [`crate::MAX_PARTITIONS`]).
    TooManyPartitions {
        /// The partitions of all topics.
        total: u64,
    },
}

impl CoordinatorError {
    /// The Java exception Kafka throws for this input, if the refusal is Kafka's own.
    pub fn kafka_exception(&self) -> Option<&'static str> {
        match self {
            CoordinatorError::PartitionAssignor(_) => Some("PartitionAssignorException"),
            CoordinatorError::IndexOutOfBounds { .. } => Some("ArrayIndexOutOfBoundsException"),
            _ => None,
        }
    }
}

/// Kafka's throws read `<ExceptionClass>: <message>`; our own refusals are short lowercase sentences.
impl fmt::Display for CoordinatorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoordinatorError::PartitionAssignor(message) => write!(f, "PartitionAssignorException: {message}"),
            CoordinatorError::IndexOutOfBounds { index, length } => {
                write!(f, "ArrayIndexOutOfBoundsException: Index {index} out of bounds for length {length}")
            }
            CoordinatorError::DuplicateMember(id) => write!(f, "duplicate member id {id:?}"),
            CoordinatorError::DuplicateTopic(what) => write!(f, "duplicate topic {what}"),
            CoordinatorError::PartitionNumberTooLarge(p) => write!(f, "partition {p} is beyond Java's int"),
            CoordinatorError::TooManyPartitions { total } => {
                write!(f, "{total} partitions in all is more than the {} this tool assigns", crate::MAX_PARTITIONS)
            }
        }
    }
}

impl std::error::Error for CoordinatorError {}

/// The target assignment Kafka 4.0's coordinator computes for `group` with `assignor`.
pub fn target_assignment(
    assignor: ServerAssignor,
    group: &ConsumerGroup,
) -> Result<TargetAssignment, CoordinatorError> {
    target_assignment_with(assignor, group, &SpecOptions::default())
}

/// [`target_assignment`], recording each of the assignor's decisions in `trace` (see
/// [`crate::trace`]): replaying the steps from nothing rebuilds the target, each list sorted.
pub fn target_assignment_traced<T: Tracer>(
    assignor: ServerAssignor,
    group: &ConsumerGroup,
    trace: &mut T,
) -> Result<TargetAssignment, CoordinatorError> {
    PreparedGroup::new(group, &SpecOptions::default())?.assign_traced(assignor, trace)
}

/// [`target_assignment`] with the Java containers of Kafka's unit tests instead of the coordinator's
/// (`TreeMap` members, `LinkedHashMap` assignments, a given subscription type).
pub fn target_assignment_with(
    assignor: ServerAssignor,
    group: &ConsumerGroup,
    options: &SpecOptions,
) -> Result<TargetAssignment, CoordinatorError> {
    PreparedGroup::new(group, options)?.assign(assignor)
}

/// What `TargetAssignmentBuilder` hands an assignor (`GroupSpecImpl` and the topic describer), built
/// once: the coordinator keeps these structures between heartbeats, so Kafka's own benchmarks time
/// the `assign` call alone.
pub struct PreparedGroup<'a> {
    spec: target::GroupSpec<'a>,
}

impl<'a> PreparedGroup<'a> {
    /// `TargetAssignmentBuilder`'s part: the group as the assignor sees it.
    pub fn new(group: &'a ConsumerGroup, options: &SpecOptions) -> Result<Self, CoordinatorError> {
        Ok(PreparedGroup { spec: target::GroupSpec::new(group, options)? })
    }

    /// HOMOGENEOUS or HETEROGENEOUS, as the coordinator decided (or the options said).
    pub fn subscription_type(&self) -> SubscriptionType {
        self.spec.subscription_type
    }

    /// The assignor's `assign` call, and its answer by name.
    pub fn assign(&self, assignor: ServerAssignor) -> Result<TargetAssignment, CoordinatorError> {
        self.assign_traced(assignor, &mut NoTrace)
    }

    /// [`PreparedGroup::assign`], recording each decision in `trace`.
    pub fn assign_traced<T: Tracer>(
        &self,
        assignor: ServerAssignor,
        trace: &mut T,
    ) -> Result<TargetAssignment, CoordinatorError> {
        let lists = match assignor {
            ServerAssignor::Uniform => uniform::assign(&self.spec, trace)?,
            ServerAssignor::Range => range::assign(&self.spec, trace),
        };
        Ok(self.spec.named(lists))
    }
}
