//! What each member owned before this rebalance, read the way its strategy reads it (`memberData`).
//!
//! - `sticky` is eager (KIP-54, KIP-341): the client revoked everything before joining, so only
//!   the user data remembers the last assignment; `ownedPartitions` and `generationId` are ignored.
//!   The client wrote that list grouped by topic through a `HashMap` filled with `computeIfAbsent`,
//!   so the leader reads it back as topic blocks in that map's order.
//! - `cooperative-sticky` (KIP-429) reads `ownedPartitions`, with the subscription's `generationId`
//!   (KIP-792) or, from older clients, the generation in its user data (KAFKA-12984).
//!
//! Partitions of topics that are not in `partitionsPerTopic` are dropped here, as Kafka ignores
//! them; a partition number beyond its topic's count is refused (see
//! [`AssignError::OwnedPartitionOutOfRange`]).

use std::collections::HashMap;

use crate::error::AssignError;
use crate::java::{self, Link};
use crate::model::{TopicPartition, UserData};
use crate::prepared::{MemberIdx, PartitionIdx, Prepared, TopicIdx};

/// Every member's `memberData`, by `MemberIdx`.
pub(crate) struct MemberData {
    /// The previously owned partitions (of existing topics), in the order memberData lists them.
    pub owned: Vec<Vec<PartitionIdx>>,
    /// The generation memberData reports; `None` when absent.
    pub generation: Vec<Option<i32>>,
}

impl MemberData {
    /// The generation used when comparing claims: absent counts as -1 (`DEFAULT_GENERATION`).
    pub fn generation_or_default(&self, m: MemberIdx) -> i32 {
        self.generation[m.ix()].unwrap_or(-1)
    }
}

/// The subscription's own `generationId` (v2+, KIP-792); Java keeps only values ≥ 0.
pub(crate) fn subscription_generation(g: &Prepared, m: MemberIdx) -> i32 {
    g.subscription(m).generation.filter(|&gen| gen >= 0).unwrap_or(-1)
}

pub(crate) fn read(g: &Prepared, cooperative: bool) -> Result<MemberData, AssignError> {
    let mut resolver = Resolver::new(g);
    let mut owned = Vec::with_capacity(g.member_count());
    let mut generation = Vec::with_capacity(g.member_count());
    for m in g.members() {
        let sub = g.subscription(m);
        let (list, gen) = if cooperative {
            (resolver.resolve_all(m, &sub.owned_partitions)?, cooperative_generation(g, m))
        } else {
            match &sub.user_data {
                None => (Vec::new(), None),
                Some(UserData::Sticky { partitions, generation }) => {
                    (resolver.resolve_grouped(m, partitions)?, *generation)
                }
                Some(UserData::Unreadable) => (Vec::new(), Some(-1)),
                // Cooperative user data is one INT32. Read as sticky schema V1 that is the length
                // of the topic array: 0 then fails on the missing generation and parses as V0 (an
                // empty list, no generation); any other value fails both schemas.
                Some(UserData::Cooperative { generation: 0 }) => (Vec::new(), None),
                Some(UserData::Cooperative { .. }) => (Vec::new(), Some(-1)),
            }
        };
        owned.push(list);
        generation.push(gen);
    }
    Ok(MemberData { owned, generation })
}

/// `CooperativeStickyAssignor.memberData`'s generation: the subscription's `generationId` when
/// present, else the one in the user data (absent without user data, -1 when unreadable).
fn cooperative_generation(g: &Prepared, m: MemberIdx) -> Option<i32> {
    let sub = g.subscription(m);
    if let Some(gen) = sub.generation.filter(|&gen| gen >= 0) {
        return Some(gen);
    }
    match &sub.user_data {
        None => None,
        Some(UserData::Cooperative { generation }) => Some(*generation),
        Some(UserData::Unreadable) => Some(-1),
        // Sticky user data starts with the INT32 length of its topic array, which the cooperative
        // schema reads as the generation.
        Some(UserData::Sticky { partitions, .. }) => Some(distinct_topics(partitions) as i32),
    }
}

fn distinct_topics(partitions: &[TopicPartition]) -> usize {
    let mut seen: Vec<&str> = partitions.iter().map(|tp| &*tp.topic).collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

/// Turns named partitions into ids. Owned lists come sorted or grouped by topic, so the last
/// topic looked up is remembered and most partitions skip the hash lookup.
struct Resolver<'g, 'a> {
    g: &'g Prepared<'a>,
    last: Option<(&'g str, Option<TopicIdx>)>,
    /// Per topic, the member stamp and block index of the grouping in progress.
    block_stamp: Vec<u32>,
    block_of_topic: Vec<u32>,
}

impl<'g, 'a> Resolver<'g, 'a> {
    fn new(g: &'g Prepared<'a>) -> Self {
        Resolver { g, last: None, block_stamp: vec![0; g.topics.len()], block_of_topic: vec![0; g.topics.len()] }
    }

    fn topic(&mut self, name: &'g str) -> Option<TopicIdx> {
        if let Some((last, t)) = self.last {
            if last == name {
                return t;
            }
        }
        let t = self.g.topic_by_name.get(name).copied();
        self.last = Some((name, t));
        t
    }

    /// The id of `tp` if its topic exists; an error if its number is out of range.
    fn partition(&mut self, m: MemberIdx, tp: &'g TopicPartition) -> Result<Option<PartitionIdx>, AssignError> {
        let Some(t) = self.topic(&tp.topic) else {
            return Ok(None);
        };
        let info = self.g.topic(t);
        if tp.partition >= info.partitions {
            return Err(AssignError::OwnedPartitionOutOfRange {
                member: self.g.member_id(m).to_string(),
                partition: tp.clone(),
                partitions: info.partitions,
            });
        }
        Ok(Some(PartitionIdx(info.first + tp.partition)))
    }

    fn resolve_all(&mut self, m: MemberIdx, list: &'g [TopicPartition]) -> Result<Vec<PartitionIdx>, AssignError> {
        let mut out = Vec::with_capacity(list.len());
        for tp in list {
            if let Some(p) = self.partition(m, tp)? {
                out.push(p);
            }
        }
        Ok(out)
    }

    /// The list as `StickyAssignor`'s user data brings it back: `groupPartitionsByTopic` puts each
    /// topic's partitions in one block (original order inside), and the blocks follow the
    /// iteration order of that `HashMap`, whose keys were linked at the head of their buckets.
    fn resolve_grouped(&mut self, m: MemberIdx, list: &'g [TopicPartition]) -> Result<Vec<PartitionIdx>, AssignError> {
        let Some(first) = list.first() else {
            return Ok(Vec::new());
        };
        // Block of each entry, blocks in order of first appearance.
        let stamp = m.0 + 1;
        let mut block_hashes: Vec<i32> = Vec::new();
        let mut unknown: HashMap<&str, u32> = HashMap::new();
        let mut entry_block: Vec<u32> = Vec::with_capacity(list.len());
        for tp in list {
            let block = match self.topic(&tp.topic) {
                Some(t) => {
                    if self.block_stamp[t.ix()] != stamp {
                        self.block_stamp[t.ix()] = stamp;
                        self.block_of_topic[t.ix()] = block_hashes.len() as u32;
                        block_hashes.push(self.g.topic(t).hash);
                    }
                    self.block_of_topic[t.ix()]
                }
                // A topic the cluster no longer has still takes a slot in the map.
                None => *unknown.entry(&tp.topic).or_insert_with(|| {
                    block_hashes.push(java::string_hash(&tp.topic));
                    block_hashes.len() as u32 - 1
                }),
            };
            entry_block.push(block);
        }
        let mut rank_of_block = vec![0u32; block_hashes.len()];
        for (rank, block) in java::iteration_order(&block_hashes, Link::Head).into_iter().enumerate() {
            rank_of_block[block] = rank as u32;
        }
        // Stable counting sort of the entries by their block's rank.
        let mut start = vec![0usize; block_hashes.len() + 1];
        for &b in &entry_block {
            start[rank_of_block[b as usize] as usize + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut ordered: Vec<&TopicPartition> = vec![first; list.len()];
        for (tp, &b) in list.iter().zip(&entry_block) {
            let slot = &mut start[rank_of_block[b as usize] as usize];
            ordered[*slot] = tp;
            *slot += 1;
        }
        let mut out = Vec::with_capacity(list.len());
        for tp in ordered {
            if let Some(p) = self.partition(m, tp)? {
                out.push(p);
            }
        }
        Ok(out)
    }
}
