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

/// The containers of a [`GroupSpec`]. The default is the coordinator's; Kafka's unit tests build
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
    /// The partitions, distinct, in the order the record listed them.
    pub partitions: Vec<u32>,
}

pub(crate) struct SpecMember<'a> {
    pub id: &'a str,
    pub instance_id: Option<&'a str>,
    /// The subscribed topics that exist, each once, in no particular order.
    pub subscribed: Vec<TopicIdx>,
    /// The member's subscription as given (names, missing ones included).
    pub topic_names: &'a [String],
    /// The current target assignment, topics in record order.
    pub owned: Vec<OwnedTopic>,
}

/// `GroupSpecImpl` plus `SubscribedTopicDescriberImpl`, indexed.
pub(crate) struct GroupSpec<'a> {
    pub topic_names: Vec<&'a str>,
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
        let mut by_id: HashMap<Uuid, TopicIdx> = HashMap::with_capacity(group.topics.len());
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
        // Consecutive members usually subscribe alike: resolve each distinct list once.
        let mut last_resolved: Option<(&[String], Vec<TopicIdx>)> = None;
        let mut stamp = vec![usize::MAX; group.topics.len()];
        for (position, &input) in order.iter().enumerate() {
            let member = &group.members[input];
            let subscribed = match &last_resolved {
                Some((names, resolved)) if *names == member.topics.as_slice() => resolved.clone(),
                _ => {
                    let mut resolved = Vec::with_capacity(member.topics.len());
                    for name in &member.topics {
                        if let Some(&t) = by_name.get(name.as_str()) {
                            if stamp[t.ix()] != position {
                                stamp[t.ix()] = position;
                                resolved.push(t);
                            }
                        }
                    }
                    last_resolved = Some((member.topics.as_slice(), resolved.clone()));
                    resolved
                }
            };
            let mut owned: Vec<OwnedTopic> = Vec::with_capacity(member.target.len());
            let mut owned_index: HashMap<Uuid, usize> = HashMap::with_capacity(member.target.len());
            for (id, partitions) in &member.target {
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
                // A topic listed twice is one map entry.
                match owned_index.get(id) {
                    Some(&at) => owned[at].partitions.extend(partitions),
                    None => {
                        owned_index.insert(*id, owned.len());
                        owned.push(OwnedTopic { id: *id, topic, partitions: partitions.clone() });
                    }
                }
            }
            for entry in &mut owned {
                dedup_keeping_first(&mut entry.partitions);
            }
            members.push(SpecMember {
                id: &member.id,
                instance_id: member.instance_id.as_deref(),
                subscribed,
                topic_names: &member.topics,
                owned,
            });
        }

        let subscription_type = options.subscription_type.unwrap_or_else(|| subscription_type(group));
        Ok(GroupSpec {
            topic_names: group.topics.iter().map(|t| t.name.as_str()).collect(),
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
        let mut by_member: HashMap<&str, Vec<(TopicIdx, u32)>> = HashMap::with_capacity(self.members.len());
        for (member, list) in self.members.iter().zip(lists) {
            by_member.insert(member.id, list);
        }
        let mut members = BTreeMap::new();
        for &id in &self.input_members {
            let mut list = by_member.remove(id).unwrap_or_default();
            list.sort_unstable_by(|a, b| {
                java::cmp_str(self.topic_names[a.0.ix()], self.topic_names[b.0.ix()]).then(a.1.cmp(&b.1))
            });
            list.dedup();
            let named = list.into_iter().map(|(t, p)| TopicPartition::new(self.topic_names[t.ix()], p)).collect();
            members.insert(id.to_string(), named);
        }
        TargetAssignment { members, subscription_type: self.subscription_type }
    }
}

/// `ModernGroup.subscriptionType`: count the subscribers of every topic *name* (missing topics
/// included); HOMOGENEOUS when nobody subscribes to anything or every name has every member.
pub(crate) fn subscription_type(group: &ConsumerGroup) -> SubscriptionType {
    let mut subscribers: HashMap<&str, usize> = HashMap::new();
    for member in &group.members {
        let distinct: HashSet<&str> = member.topics.iter().map(String::as_str).collect();
        for name in distinct {
            *subscribers.entry(name).or_default() += 1;
        }
    }
    if subscribers.values().all(|&count| count == group.members.len()) {
        SubscriptionType::Homogeneous
    } else {
        SubscriptionType::Heterogeneous
    }
}

fn dedup_keeping_first(list: &mut Vec<u32>) {
    if list.len() < 2 {
        return;
    }
    let mut seen = HashSet::with_capacity(list.len());
    list.retain(|p| seen.insert(*p));
}
