use std::fmt;

use crate::model::TopicPartition;

/// Why a group could not be assigned. Messages are short, lowercase and name the offending input.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AssignError {
    /// Two members share a `member.id`; the coordinator never lets that happen.
    DuplicateMember(String),
    /// Two topics share a name.
    DuplicateTopic(String),
    /// A topic's replica racks list does not have one entry per partition.
    RackListLength {
        /// The topic.
        topic: String,
        /// Its partitions.
        partitions: u32,
        /// The entries in its racks list.
        racks: usize,
    },
    /// The group is larger than the playground computes (see [`crate::MAX_PARTITIONS`]).
    TooManyPartitions {
        /// The group's partitions, over all topics.
        total: u64,
    },
    /// A member claims a partition number the topic does not have. Kafka's sticky assignors mis-handle
    /// this (they may hand the ghost partition out again), so we refuse it instead of guessing.
    OwnedPartitionOutOfRange {
        /// The member.
        member: String,
        /// The partition it claims.
        partition: TopicPartition,
        /// The partitions its topic has.
        partitions: u32,
    },
    /// Kafka's own assignor throws on this input; the text says what it reports.
    KafkaThrows(String),
}

impl fmt::Display for AssignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AssignError::DuplicateMember(id) => write!(f, "duplicate member id {id:?}"),
            AssignError::DuplicateTopic(name) => write!(f, "duplicate topic {name:?}"),
            AssignError::RackListLength { topic, partitions, racks } => {
                write!(f, "topic {topic:?} has {partitions} partitions but replica racks for {racks}")
            }
            AssignError::TooManyPartitions { total } => {
                write!(f, "{total} partitions in all is more than the {} this tool assigns", crate::MAX_PARTITIONS)
            }
            AssignError::OwnedPartitionOutOfRange { member, partition, partitions } => write!(
                f,
                "member {member:?} owns {partition}, but topic {:?} has only {partitions} partitions",
                &*partition.topic
            ),
            AssignError::KafkaThrows(what) => write!(f, "kafka's assignor throws here: {what}"),
        }
    }
}

impl std::error::Error for AssignError {}
