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
use std::hash::{BuildHasherDefault, Hasher};

use crate::error::AssignError;
use crate::java;
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

/// Turns named partitions into ids.
///
/// Owned lists hold many clones of few topic names (`Arc<str>`), so names are remembered by the
/// address of their text: most partitions skip hashing and comparing the name.
struct Resolver<'g, 'a> {
    g: &'g Prepared<'a>,
    last: Option<((usize, usize), Option<TopicIdx>)>,
    by_address: HashMap<(usize, usize), Option<TopicIdx>, BuildHasherDefault<AddressHasher>>,
    /// Per topic, the member (+1) whose list is being grouped, and the topic's block there.
    block_stamp: Vec<u32>,
    block_of_topic: Vec<u32>,
    /// Scratch for the bucket sort of blocks.
    bucket_start: Vec<u32>,
}

impl<'g, 'a> Resolver<'g, 'a> {
    fn new(g: &'g Prepared<'a>) -> Self {
        Resolver {
            g,
            last: None,
            by_address: HashMap::default(),
            block_stamp: vec![0; g.topics.len()],
            block_of_topic: vec![0; g.topics.len()],
            bucket_start: Vec::new(),
        }
    }

    fn topic(&mut self, name: &str) -> Option<TopicIdx> {
        let key = (name.as_ptr() as usize, name.len());
        if let Some((last, t)) = self.last {
            if last == key {
                return t;
            }
        }
        let g = self.g;
        let t = *self.by_address.entry(key).or_insert_with(|| g.topic_by_name.get(name).copied());
        self.last = Some((key, t));
        t
    }

    /// The id of partition `number` of `t`; an error if the topic has fewer partitions.
    fn partition(&self, m: MemberIdx, t: TopicIdx, tp: &TopicPartition) -> Result<PartitionIdx, AssignError> {
        let info = self.g.topic(t);
        if tp.partition >= info.partitions {
            return Err(AssignError::OwnedPartitionOutOfRange {
                member: self.g.member_id(m).to_string(),
                partition: tp.clone(),
                partitions: info.partitions,
            });
        }
        Ok(PartitionIdx(info.first + tp.partition))
    }

    fn resolve_all(&mut self, m: MemberIdx, list: &[TopicPartition]) -> Result<Vec<PartitionIdx>, AssignError> {
        let mut out = Vec::with_capacity(list.len());
        for tp in list {
            if let Some(t) = self.topic(&tp.topic) {
                out.push(self.partition(m, t, tp)?);
            }
        }
        Ok(out)
    }

    /// The list as `StickyAssignor`'s user data brings it back: `groupPartitionsByTopic` puts each
    /// topic's partitions in one block (original order inside), and the blocks follow the
    /// iteration order of that `HashMap`, whose keys came in through `computeIfAbsent`.
    fn resolve_grouped(&mut self, m: MemberIdx, list: &[TopicPartition]) -> Result<Vec<PartitionIdx>, AssignError> {
        // Blocks in order of first appearance, with each entry's block and topic.
        let stamp = m.0 + 1;
        let mut block_hashes: Vec<i32> = Vec::new();
        let mut unknown: HashMap<&str, u32> = HashMap::new();
        let mut entries: Vec<(u32, Option<TopicIdx>)> = Vec::with_capacity(list.len());
        for tp in list {
            let t = self.topic(&tp.topic);
            let block = match t {
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
            entries.push((block, t));
        }
        let capacity = java::compute_if_absent_table_size(entries.iter().map(|&(b, _)| b), &block_hashes);
        let rank_of_block = java::head_linked_ranks(&block_hashes, capacity, &mut self.bucket_start);
        // Stable counting sort of the entries by their block's rank.
        let mut start = vec![0u32; block_hashes.len() + 1];
        for &(b, _) in &entries {
            start[rank_of_block[b as usize] as usize + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut ordered: Vec<u32> = vec![0; list.len()];
        for (i, &(b, _)) in entries.iter().enumerate() {
            let slot = &mut start[rank_of_block[b as usize] as usize];
            ordered[*slot as usize] = i as u32;
            *slot += 1;
        }
        let mut out = Vec::with_capacity(list.len());
        for i in ordered {
            if let (Some(tp), Some(&(_, Some(t)))) = (list.get(i as usize), entries.get(i as usize)) {
                out.push(self.partition(m, t, tp)?);
            }
        }
        Ok(out)
    }
}

/// A hasher for address keys: one multiply per word (the keys are not attacker-chosen hashes
/// of anything; a collision costs only speed).
#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
