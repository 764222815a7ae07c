//! How the coordinator hands a group to its assignor (`TargetAssignmentBuilder.build`, `GroupSpecImpl`,
//! `TopicIds`, `SubscribedTopicDescriberImpl`), with the Java containers whose iteration order shows
//! through in the answer:
//!
//! - members go into a `HashMap<String, …>`; `memberIds()` iterates it;
//! - a subscription is `new HashSet<>(topicNames)`, seen as topic ids through `TopicIds`: iteration
//!   skips names missing from the metadata image, `size()` still counts them;
//! - a current target assignment is a `HashMap<Uuid, Set<Integer>>` rebuilt from its record (topics in
//!   record order, each partition list copied into a `HashSet`);
//! - `isPartitionAssigned` asks the group's inverted target assignment, built from every member's.
//!
//! Names become dense indices here (`TopicIdx` over the image's topics, members by position in
//! iteration order) and names again in [`GroupSpec::named`].

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use super::{ConsumerGroup, CoordinatorError, SubscriptionType, TargetAssignment};
use crate::java;
use crate::model::TopicPartition;
use crate::uuid::Uuid;

/// Which Java map a spec's entries iterate like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MapOrder {
    /// A default `java.util.HashMap` filled in the listed order: the coordinator's containers.
    #[default]
    Hash,
    /// The listed order itself (`TreeMap` with keys listed sorted, `LinkedHashMap`), as Kafka's unit
    /// tests build their specs.
    Listed,
}

/// The containers of a `GroupSpec`. The default is the coordinator's; Kafka's unit tests build
/// theirs by hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SpecOptions {
    /// The member map.
    pub members: MapOrder,
    /// Each member's current target assignment map (its partition sets are always `HashSet`s).
    pub targets: MapOrder,
    /// The subscription type the spec declares; `None`: computed as the coordinator does.
    pub subscription_type: Option<SubscriptionType>,
}

/// A topic of the metadata image, by its position in [`ConsumerGroup::topics`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct TopicIdx(pub u32);

impl TopicIdx {
    pub(crate) fn ix(self) -> usize {
        self.0 as usize
    }
}

/// One topic of a member's current target assignment.
pub(crate) struct OwnedTopic {
    pub id: Uuid,
    /// `None` for a topic id the image no longer has (a deleted topic).
    pub topic: Option<TopicIdx>,
    /// Where its partitions are in [`SpecMember::owned_partitions`]: distinct, in the order the record
    /// listed them.
    pub partitions: std::ops::Range<usize>,
}

pub(crate) struct SpecMember<'a> {
    /// The position in [`ConsumerGroup::members`].
    pub input: usize,
    pub id: &'a str,
    pub instance_id: Option<&'a str>,
    /// The subscribed topics that exist, each once, in no particular order.
    pub subscribed: Vec<TopicIdx>,
    /// The member's subscription as given (names, missing ones included).
    pub topic_names: &'a [String],
    /// The current target assignment, topics in record order.
    pub owned: Vec<OwnedTopic>,
    /// The partitions of all of them, one topic after another.
    pub owned_partitions: Vec<u32>,
}

impl SpecMember<'_> {
    pub(crate) fn partitions(&self, topic: &OwnedTopic) -> &[u32] {
        &self.owned_partitions[topic.partitions.clone()]
    }
}

/// `GroupSpecImpl` plus `SubscribedTopicDescriberImpl`, indexed.
pub(crate) struct GroupSpec<'a> {
    pub topic_names: Vec<&'a str>,
    /// The names again, shared by every `TopicPartition` of the answer.
    topic_arcs: Vec<Arc<str>>,
    /// Each topic's place in name order (Java string order), for sorting by integers.
    pub topic_rank: Vec<u32>,
    pub topic_ids: Vec<Uuid>,
    pub partition_counts: Vec<u32>,
    /// In `memberIds()` iteration order.
    pub members: Vec<SpecMember<'a>>,
    pub subscription_type: SubscriptionType,
    options: SpecOptions,
    /// The inverted target assignment: per topic, the partitions (within its count) some member's
    /// target holds.
    assigned: Vec<Vec<bool>>,
    /// Every input member, in input order, for the answer.
    input_members: Vec<&'a str>,
}

/// Per member and topic: the partitions a builder assigns, in any order, possibly repeated.
pub(crate) type MemberLists = Vec<Vec<(TopicIdx, u32)>>;

impl<'a> GroupSpec<'a> {
    pub(crate) fn new(group: &'a ConsumerGroup, options: &SpecOptions) -> Result<Self, CoordinatorError> {
        let mut by_name: HashMap<&str, TopicIdx> = HashMap::with_capacity(group.topics.len());
        let mut by_id: HashMap<Uuid, TopicIdx, UuidHashing> =
            HashMap::with_capacity_and_hasher(group.topics.len(), UuidHashing);
        let mut total = 0u64;
        for (i, topic) in group.topics.iter().enumerate() {
            let idx = TopicIdx(i as u32);
            if by_name.insert(&topic.name, idx).is_some() {
                return Err(CoordinatorError::DuplicateTopic(format!("{:?}", topic.name)));
            }
            if by_id.insert(topic.id, idx).is_some() {
                return Err(CoordinatorError::DuplicateTopic(format!("id {}", topic.id)));
            }
            if topic.partitions > i32::MAX as u32 {
                return Err(CoordinatorError::PartitionNumberTooLarge(topic.partitions));
            }
            total += u64::from(topic.partitions);
        }
        if total > crate::MAX_PARTITIONS {
            return Err(CoordinatorError::TooManyPartitions { total });
        }

        let mut seen_ids = HashSet::with_capacity(group.members.len());
        if let Some(m) = group.members.iter().find(|m| !seen_ids.insert(m.id.as_str())) {
            return Err(CoordinatorError::DuplicateMember(m.id.clone()));
        }

        let order: Vec<usize> = match options.members {
            MapOrder::Hash => {
                let hashes: Vec<i32> = group.members.iter().map(|m| java::string_hash(&m.id)).collect();
                java::iteration_order(&hashes, java::Link::Tail)
            }
            MapOrder::Listed => (0..group.members.len()).collect(),
        };

        let mut assigned: Vec<Vec<bool>> = group.topics.iter().map(|t| vec![false; t.partitions as usize]).collect();
        let mut members = Vec::with_capacity(order.len());
        // Every subscribed name, missing ones included, counts for the subscription type.
        let mut name_ids: HashMap<&str, usize> = HashMap::new();
        let mut name_topics: Vec<Option<TopicIdx>> = Vec::new();
        let mut name_stamps: Vec<usize> = Vec::new();
        let mut subscribers: Vec<usize> = Vec::new();
        // Members usually subscribe alike: resolve each run of equal lists once.
        let mut previous: Option<(&[String], Vec<usize>, Vec<TopicIdx>)> = None;
        for (position, &input) in order.iter().enumerate() {
            let member = &group.members[input];
            let (names, subscribed) = match &previous {
                Some((list, names, resolved)) if *list == member.topics.as_slice() => (names.clone(), resolved.clone()),
                _ => {
                    let mut names = Vec::with_capacity(member.topics.len());
                    let mut resolved = Vec::with_capacity(member.topics.len());
                    for name in &member.topics {
                        let n = *name_ids.entry(name.as_str()).or_insert_with(|| {
                            name_topics.push(by_name.get(name.as_str()).copied());
                            name_stamps.push(usize::MAX);
                            subscribers.push(0);
                            name_topics.len() - 1
                        });
                        if name_stamps[n] != position {
                            name_stamps[n] = position;
                            names.push(n);
                            resolved.extend(name_topics[n]);
                        }
                    }
                    previous = Some((member.topics.as_slice(), names.clone(), resolved.clone()));
                    (names, resolved)
                }
            };
            for n in names {
                subscribers[n] += 1;
            }
            let mut owned: Vec<OwnedTopic> = Vec::with_capacity(member.target.len());
            let mut owned_partitions: Vec<u32> = Vec::new();
            for (id, partitions) in merged_topics(&member.target).iter() {
                if let Some(&too_large) = partitions.iter().find(|&&p| p > i32::MAX as u32) {
                    return Err(CoordinatorError::PartitionNumberTooLarge(too_large));
                }
                let topic = by_id.get(id).copied();
                if let Some(t) = topic {
                    for &p in partitions {
                        if let Some(slot) = assigned[t.ix()].get_mut(p as usize) {
                            *slot = true;
                        }
                    }
                }
                let start = owned_partitions.len();
                owned_partitions.extend(distinct_keeping_first(partitions).iter());
                owned.push(OwnedTopic { id: *id, topic, partitions: start..owned_partitions.len() });
            }
            members.push(SpecMember {
                input,
                id: &member.id,
                instance_id: member.instance_id.as_deref(),
                subscribed,
                topic_names: &member.topics,
                owned,
                owned_partitions,
            });
        }

        // `ModernGroup.subscriptionType`: HOMOGENEOUS when nobody subscribes to anything or every name
        // has every member.
        let computed = if subscribers.iter().all(|&count| count == group.members.len()) {
            SubscriptionType::Homogeneous
        } else {
            SubscriptionType::Heterogeneous
        };
        let subscription_type = options.subscription_type.unwrap_or(computed);
        Ok(GroupSpec {
            topic_names: group.topics.iter().map(|t| t.name.as_str()).collect(),
            topic_arcs: group.topics.iter().map(|t| Arc::from(t.name.as_str())).collect(),
            topic_rank: java::string_ranks(&group.topics.iter().map(|t| t.name.as_str()).collect::<Vec<_>>()),
            topic_ids: group.topics.iter().map(|t| t.id).collect(),
            partition_counts: group.topics.iter().map(|t| t.partitions).collect(),
            members,
            subscription_type,
            options: *options,
            assigned,
            input_members: group.members.iter().map(|m| m.id.as_str()).collect(),
        })
    }

    pub(crate) fn topic_count(&self) -> usize {
        self.topic_ids.len()
    }

    pub(crate) fn partitions(&self, t: TopicIdx) -> u32 {
        self.partition_counts[t.ix()]
    }

    /// Partition `p` of topic `t` by name, for a step of a walkthrough.
    pub(crate) fn topic_partition(&self, t: TopicIdx, partition: u32) -> TopicPartition {
        TopicPartition { topic: Arc::clone(&self.topic_arcs[t.ix()]), partition }
    }

    /// The partitions more than one member's current target holds (the coordinator never writes such
    /// targets, but a group can be given them).
    pub(crate) fn held_twice(&self) -> HashSet<(TopicIdx, u32)> {
        let mut seen = HashSet::new();
        let mut twice = HashSet::new();
        for member in &self.members {
            for entry in &member.owned {
                let Some(t) = entry.topic else { continue };
                for &p in member.partitions(entry) {
                    if !seen.insert((t, p)) {
                        twice.insert((t, p));
                    }
                }
            }
        }
        twice
    }

    /// `GroupSpec.isPartitionAssigned`.
    pub(crate) fn is_partition_assigned(&self, t: TopicIdx, partition: u32) -> bool {
        self.assigned[t.ix()].get(partition as usize).copied().unwrap_or(false)
    }

    /// A member's subscription as `TopicIds` iterates it: the `HashSet<String>` of its names, missing
    /// topics skipped. Returns the topics and `size()` (which counts the missing ones).
    pub(crate) fn subscription_in_java_order(&self, member: &SpecMember<'_>) -> (Vec<TopicIdx>, usize) {
        let mut distinct: Vec<&str> = Vec::with_capacity(member.topic_names.len());
        let mut seen = HashSet::with_capacity(member.topic_names.len());
        for name in member.topic_names {
            if seen.insert(name.as_str()) {
                distinct.push(name);
            }
        }
        let hashes: Vec<i32> = distinct.iter().map(|n| java::string_hash(n)).collect();
        let table = java::copied_set_table_size(member.topic_names.len());
        let by_name: HashMap<&str, TopicIdx> =
            self.topic_names.iter().enumerate().map(|(i, &n)| (n, TopicIdx(i as u32))).collect();
        let topics = java::iteration_order_in(&hashes, java::Link::Tail, table)
            .into_iter()
            .filter_map(|i| by_name.get(distinct[i]).copied())
            .collect();
        (topics, distinct.len())
    }

    /// A member's current target assignment in the order its map iterates.
    pub(crate) fn owned_in_java_order<'m>(&self, member: &'m SpecMember<'_>) -> Vec<&'m OwnedTopic> {
        match self.options.targets {
            MapOrder::Listed => member.owned.iter().collect(),
            MapOrder::Hash => {
                let hashes: Vec<i32> = member.owned.iter().map(|o| o.id.java_hash()).collect();
                java::iteration_order(&hashes, java::Link::Tail).into_iter().map(|i| &member.owned[i]).collect()
            }
        }
    }

    /// A topic's partitions as their `HashSet<Integer>` (copied from the record's list) iterates them.
    pub(crate) fn partitions_in_java_order<'p>(partitions: &'p [u32]) -> Cow<'p, [u32]> {
        let table = java::copied_set_table_size(partitions.len());
        let hashes: Vec<i32> = partitions.iter().map(|&p| java::int_hash(p)).collect();
        let order = java::iteration_order_in(&hashes, java::Link::Tail, table);
        if order.iter().enumerate().all(|(i, &o)| i == o) {
            Cow::Borrowed(partitions)
        } else {
            Cow::Owned(order.into_iter().map(|i| partitions[i]).collect())
        }
    }

    /// The builders' per-member lists, back to names: every input member, partitions as sets sorted
    /// by (topic, partition).
    pub(crate) fn named(&self, lists: MemberLists) -> TargetAssignment {
        let mut by_input: Vec<Vec<(TopicIdx, u32)>> = vec![Vec::new(); self.input_members.len()];
        for (member, list) in self.members.iter().zip(lists) {
            by_input[member.input] = list;
        }
        let mut members = BTreeMap::new();
        for (&id, mut list) in self.input_members.iter().zip(by_input) {
            list.sort_unstable_by_key(|&(t, p)| (u64::from(self.topic_rank[t.ix()]) << 32) | u64::from(p));
            list.dedup();
            let named = list
                .into_iter()
                .map(|(t, partition)| TopicPartition { topic: Arc::clone(&self.topic_arcs[t.ix()]), partition })
                .collect();
            members.insert(id.to_string(), named);
        }
        TargetAssignment { members, subscription_type: self.subscription_type }
    }
}

/// A target as one entry per topic id: the record lists each topic once, but a topic given twice is
/// one map entry.
fn merged_topics(target: &[(Uuid, Vec<u32>)]) -> Cow<'_, [(Uuid, Vec<u32>)]> {
    let mut seen: HashMap<Uuid, usize, UuidHashing> = HashMap::with_capacity_and_hasher(target.len(), UuidHashing);
    if target.iter().enumerate().all(|(i, (id, _))| seen.insert(*id, i).is_none()) {
        return Cow::Borrowed(target);
    }
    let mut merged: Vec<(Uuid, Vec<u32>)> = Vec::new();
    for (id, partitions) in target {
        match merged.iter_mut().find(|(m, _)| m == id) {
            Some((_, list)) => list.extend(partitions),
            None => merged.push((*id, partitions.clone())),
        }
    }
    Cow::Owned(merged)
}

/// Set semantics for a record's partition list, keeping first occurrences in order.
fn distinct_keeping_first(list: &[u32]) -> Cow<'_, [u32]> {
    // Lists written by the coordinator never repeat; most are even ascending.
    if list.windows(2).all(|w| w[0] < w[1]) {
        return Cow::Borrowed(list);
    }
    let mut sorted = list.to_vec();
    sorted.sort_unstable();
    if sorted.windows(2).all(|w| w[0] != w[1]) {
        return Cow::Borrowed(list);
    }
    let mut seen = HashSet::with_capacity(list.len());
    Cow::Owned(list.iter().copied().filter(|p| seen.insert(*p)).collect())
}

/// Topic ids are random already: fold the two halves instead of hashing them again.
#[derive(Clone, Copy, Default)]
struct UuidHashing;

impl std::hash::BuildHasher for UuidHashing {
    type Hasher = UuidHasher;

    fn build_hasher(&self) -> UuidHasher {
        UuidHasher(0)
    }
}

struct UuidHasher(u64);

impl std::hash::Hasher for UuidHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_i64(&mut self, half: i64) {
        self.0 = self.0.rotate_left(29) ^ half as u64;
    }
}
