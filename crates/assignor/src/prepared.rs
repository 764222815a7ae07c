//! Names become dense integer ids on entry, and names again only on exit.
//!
//! [`Prepared`] is the validated, indexed form of `(partitionsPerTopic, subscriptions)` that every
//! strategy works on. A partition is one `PartitionIdx` over all topics (topic `t`'s partitions are
//! `first[t]..first[t] + count[t]`), so per-partition state is a flat vector.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::error::AssignError;
use crate::java;
use crate::model::{Subscription, Topic, TopicPartition};

/// A member, by its position in the `subscriptions` map's insertion order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct MemberIdx(pub u32);

/// A topic, by its position in `partitionsPerTopic`'s insertion order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct TopicIdx(pub u32);

/// A partition of any topic: `first[topic] + partition number`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct PartitionIdx(pub u32);

/// A rack name, interned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct RackIdx(pub u32);

macro_rules! index_newtype {
    ($($t:ty),*) => {$(
        impl $t {
            #[inline]
            pub(crate) fn ix(self) -> usize {
                self.0 as usize
            }
        }
    )*};
}
index_newtype!(MemberIdx, TopicIdx, PartitionIdx, RackIdx);

/// A member or none, in four bytes like a `MemberIdx` (an `Option<MemberIdx>` takes eight): for
/// tables with one entry per partition, such as each partition's owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MaybeMember(u32);

impl MaybeMember {
    pub const NONE: MaybeMember = MaybeMember(u32::MAX);

    pub fn get(self) -> Option<MemberIdx> {
        (self != Self::NONE).then_some(MemberIdx(self.0))
    }

    pub fn is_none(self) -> bool {
        self == Self::NONE
    }
}

impl From<MemberIdx> for MaybeMember {
    fn from(m: MemberIdx) -> Self {
        MaybeMember(m.0)
    }
}

impl From<Option<MemberIdx>> for MaybeMember {
    fn from(m: Option<MemberIdx>) -> Self {
        m.map_or(Self::NONE, Self::from)
    }
}

pub(crate) struct TopicInfo {
    pub name: Arc<str>,
    pub partitions: u32,
    /// The `PartitionIdx` of partition 0.
    pub first: u32,
    /// Position in Java string order among all topics.
    pub rank: u32,
    pub hash: i32,
}

pub(crate) struct Prepared<'a> {
    pub topics: Vec<TopicInfo>,
    pub topic_by_name: HashMap<&'a str, TopicIdx>,
    /// For each partition, its topic.
    pub partition_topic: Vec<TopicIdx>,
    pub subscriptions: &'a [Subscription],
    /// Each member's subscribed topics that exist, in listed order, without repeats.
    pub member_topics: Vec<Vec<TopicIdx>>,
    /// Each topic's subscribers, in member index order.
    pub topic_subscribers: Vec<Vec<MemberIdx>>,
    /// Each member's position in Java string order of member ids.
    pub member_rank: Vec<u32>,
    pub member_hash: Vec<i32>,
    pub racks: Racks,
}

/// Rack names interned, each member's rack, and each partition's replica racks.
pub(crate) struct Racks {
    pub member: Vec<Option<RackIdx>>,
    /// Compressed rows: partition `p`'s racks are `ids[offsets[p]..offsets[p + 1]]`, sorted, unique.
    /// Empty when no topic lists replica racks.
    offsets: Vec<u32>,
    ids: Vec<RackIdx>,
    pub count: usize,
}

impl Racks {
    /// The racks holding a replica of `p` (empty when unknown).
    pub fn of_partition(&self, p: PartitionIdx) -> &[RackIdx] {
        let (Some(&start), Some(&end)) = (self.offsets.get(p.ix()), self.offsets.get(p.ix() + 1)) else {
            return &[];
        };
        self.ids.get(start as usize..end as usize).unwrap_or(&[])
    }

    pub fn any_member_rack(&self) -> bool {
        self.member.iter().any(Option::is_some)
    }
}

impl<'a> Prepared<'a> {
    pub fn new(topics: &[&'a Topic], subscriptions: &'a [Subscription]) -> Result<Self, AssignError> {
        let mut topic_by_name = HashMap::with_capacity(topics.len());
        let mut infos = Vec::with_capacity(topics.len());
        let mut total: u64 = 0;
        for (i, topic) in topics.iter().enumerate() {
            if topic_by_name.insert(topic.name.as_str(), TopicIdx(i as u32)).is_some() {
                return Err(AssignError::DuplicateTopic(topic.name.clone()));
            }
            if !topic.replica_racks.is_empty() && topic.replica_racks.len() != topic.partitions as usize {
                return Err(AssignError::RackListLength {
                    topic: topic.name.clone(),
                    partitions: topic.partitions,
                    racks: topic.replica_racks.len(),
                });
            }
            let first = total;
            total += u64::from(topic.partitions);
            if total > crate::MAX_PARTITIONS {
                return Err(AssignError::TooManyPartitions { total });
            }
            infos.push(TopicInfo {
                name: Arc::from(topic.name.as_str()),
                partitions: topic.partitions,
                first: first as u32,
                rank: 0,
                hash: java::string_hash(&topic.name),
            });
        }
        let mut by_name: Vec<usize> = (0..infos.len()).collect();
        by_name.sort_by(|&a, &b| java::cmp_str(&topics[a].name, &topics[b].name));
        for (rank, &t) in by_name.iter().enumerate() {
            if let Some(info) = infos.get_mut(t) {
                info.rank = rank as u32;
            }
        }
        let mut partition_topic = Vec::with_capacity(total as usize);
        for (t, info) in infos.iter().enumerate() {
            partition_topic.extend(std::iter::repeat_n(TopicIdx(t as u32), info.partitions as usize));
        }

        let mut seen = HashSet::with_capacity(subscriptions.len());
        let mut member_topics: Vec<Vec<TopicIdx>> = Vec::with_capacity(subscriptions.len());
        // Per topic, the last member (+1) that listed it: repeats are dropped in one pass.
        let mut listed_by = vec![0usize; infos.len()];
        for (m, sub) in subscriptions.iter().enumerate() {
            if !seen.insert(sub.member_id.as_str()) {
                return Err(AssignError::DuplicateMember(sub.member_id.clone()));
            }
            // Clients send sorted lists, so equal subscriptions are usually equal lists.
            if let Some(previous) = m.checked_sub(1).and_then(|p| subscriptions.get(p)) {
                if previous.topics == sub.topics {
                    let listed = member_topics.last().cloned().unwrap_or_default();
                    member_topics.push(listed);
                    continue;
                }
            }
            let mut listed: Vec<TopicIdx> = Vec::with_capacity(sub.topics.len());
            for name in &sub.topics {
                if let Some(&t) = topic_by_name.get(name.as_str()) {
                    if listed_by[t.ix()] != m + 1 {
                        listed_by[t.ix()] = m + 1;
                        listed.push(t);
                    }
                }
            }
            member_topics.push(listed);
        }
        let mut topic_subscribers = vec![Vec::new(); infos.len()];
        for (m, listed) in member_topics.iter().enumerate() {
            for t in listed {
                if let Some(subscribers) = topic_subscribers.get_mut(t.ix()) {
                    subscribers.push(MemberIdx(m as u32));
                }
            }
        }
        let mut by_id: Vec<usize> = (0..subscriptions.len()).collect();
        by_id.sort_by(|&a, &b| java::cmp_str(&subscriptions[a].member_id, &subscriptions[b].member_id));
        let mut member_rank = vec![0u32; subscriptions.len()];
        for (rank, &m) in by_id.iter().enumerate() {
            if let Some(slot) = member_rank.get_mut(m) {
                *slot = rank as u32;
            }
        }
        let member_hash = subscriptions.iter().map(|s| java::string_hash(&s.member_id)).collect();
        let racks = Racks::new(topics, subscriptions, total as usize);
        Ok(Prepared {
            topics: infos,
            topic_by_name,
            partition_topic,
            subscriptions,
            member_topics,
            topic_subscribers,
            member_rank,
            member_hash,
            racks,
        })
    }

    pub fn member_count(&self) -> usize {
        self.subscriptions.len()
    }

    pub fn members(&self) -> impl Iterator<Item = MemberIdx> {
        (0..self.subscriptions.len() as u32).map(MemberIdx)
    }

    pub fn partition_count(&self) -> usize {
        self.partition_topic.len()
    }

    pub fn member_id(&self, m: MemberIdx) -> &'a str {
        self.subscriptions.get(m.ix()).map_or("", |s| s.member_id.as_str())
    }

    pub fn subscription(&self, m: MemberIdx) -> &'a Subscription {
        &self.subscriptions[m.ix()]
    }

    pub fn topic(&self, t: TopicIdx) -> &TopicInfo {
        &self.topics[t.ix()]
    }

    pub fn topic_of(&self, p: PartitionIdx) -> TopicIdx {
        self.partition_topic[p.ix()]
    }

    /// The partition number of `p` within its topic.
    pub fn number(&self, p: PartitionIdx) -> u32 {
        p.0 - self.topic(self.topic_of(p)).first
    }

    pub fn partitions_of(&self, t: TopicIdx) -> impl Iterator<Item = PartitionIdx> + Clone + use<> {
        let info = &self.topics[t.ix()];
        (info.first..info.first + info.partitions).map(PartitionIdx)
    }

    /// Back to Kafka's naming, for output.
    pub fn topic_partition(&self, p: PartitionIdx) -> TopicPartition {
        let info = self.topic(self.topic_of(p));
        TopicPartition { topic: Arc::clone(&info.name), partition: p.0 - info.first }
    }

    /// Java order of (topic, partition) as a sortable key.
    pub fn sort_key(&self, p: PartitionIdx) -> (u32, u32) {
        let info = self.topic(self.topic_of(p));
        (info.rank, p.0 - info.first)
    }
}

impl Racks {
    fn new(topics: &[&Topic], subscriptions: &[Subscription], partitions: usize) -> Self {
        let mut names: HashMap<String, RackIdx> = HashMap::new();
        let mut intern = |name: &str| -> RackIdx {
            let next = RackIdx(names.len() as u32);
            *names.entry(name.to_owned()).or_insert(next)
        };
        // Kafka treats an empty rack id as no rack.
        let member: Vec<Option<RackIdx>> =
            subscriptions.iter().map(|s| s.rack.as_deref().filter(|r| !r.is_empty()).map(&mut intern)).collect();
        let mut offsets = Vec::new();
        let mut ids = Vec::new();
        if topics.iter().any(|t| !t.replica_racks.is_empty()) {
            offsets.reserve(partitions + 1);
            offsets.push(0u32);
            for topic in topics {
                for p in 0..topic.partitions as usize {
                    // `Node.rack()` is null for a broker without a rack: Kafka filters those out. An
                    // empty rack name is a rack like any other here (only consumer racks treat "" as
                    // none).
                    let mut row: Vec<RackIdx> = topic
                        .replica_racks
                        .get(p)
                        .map_or_else(Vec::new, |replicas| replicas.iter().flatten().map(|r| intern(r)).collect());
                    row.sort_unstable();
                    row.dedup();
                    ids.extend(row);
                    offsets.push(ids.len() as u32);
                }
            }
        }
        Racks { member, offsets, ids, count: names.len() }
    }
}

/// KIP-881's `useRackAwareAssignment`: rack logic applies only when some consumer has a rack that
/// holds replicas, and not every partition has a replica on every rack.
pub(crate) fn use_rack_aware<'r>(
    consumer_racks: &HashSet<RackIdx>,
    partition_racks: impl Iterator<Item = &'r [RackIdx]> + Clone,
) -> bool {
    if consumer_racks.is_empty() {
        return false;
    }
    let union: HashSet<RackIdx> = partition_racks.clone().flatten().copied().collect();
    if consumer_racks.is_disjoint(&union) {
        return false;
    }
    partition_racks.into_iter().any(|racks| racks.len() != union.len())
}
