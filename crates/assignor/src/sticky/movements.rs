//! `PartitionMovements`: the general builder's memory of which partitions moved where, used to
//! avoid moving partitions of one topic back and forth between two members (KIP-54).
//!
//! When a partition is about to move from `o` to `n` and some partitions of the same topic already
//! moved from `n` to `o`, Kafka moves one of those back instead: the first one its
//! `HashSet<TopicPartition>` iterates. That choice changes which partitions end where, so the set's
//! iteration order is Java's ([`HashSetOrder`]).

use std::collections::HashMap;

use crate::java::HashSetOrder;
use crate::prepared::{MemberIdx, PartitionIdx, TopicIdx};

/// A partition's movement: from its owner before balancing to its current owner.
#[derive(Clone, Copy)]
struct Record {
    src: MemberIdx,
    dst: MemberIdx,
}

pub(crate) struct Movements {
    records: HashMap<PartitionIdx, Record>,
    /// How many partitions of each topic have a record (Kafka drops a topic's map when empty).
    per_topic: Vec<u32>,
    /// The `HashSet` of partitions per (topic, source, destination); removed once empty.
    sets: HashMap<(TopicIdx, MemberIdx, MemberIdx), HashSetOrder<PartitionIdx>>,
}

impl Movements {
    pub fn new(topics: usize) -> Self {
        Movements { records: HashMap::new(), per_topic: vec![0; topics], sets: HashMap::new() }
    }

    /// `getTheActualPartitionToBeMoved`: the partition to move when `p` (of `topic`, owned by
    /// `owner`) should go to `to`. If `p` moved before, its original owner counts as the owner.
    pub fn actual(&self, p: PartitionIdx, topic: TopicIdx, owner: MemberIdx, to: MemberIdx) -> PartitionIdx {
        if self.per_topic[topic.ix()] == 0 {
            return p;
        }
        let owner = self.records.get(&p).map_or(owner, |r| r.src);
        self.sets.get(&(topic, to, owner)).and_then(HashSetOrder::first).unwrap_or(p)
    }

    /// `movePartition`: `p` (hash `hash`) moves from `from` to `to`. A partition that returns to
    /// its original owner has no movement left.
    pub fn record(&mut self, p: PartitionIdx, topic: TopicIdx, hash: i32, from: MemberIdx, to: MemberIdx) {
        match self.remove(p, topic, hash) {
            Some(previous) if previous.src == to => {}
            Some(previous) => self.add(p, topic, hash, previous.src, to),
            None => self.add(p, topic, hash, from, to),
        }
    }

    fn remove(&mut self, p: PartitionIdx, topic: TopicIdx, hash: i32) -> Option<Record> {
        let record = self.records.remove(&p)?;
        self.per_topic[topic.ix()] -= 1;
        let key = (topic, record.src, record.dst);
        if let Some(set) = self.sets.get_mut(&key) {
            set.remove(p, hash);
            if set.is_empty() {
                self.sets.remove(&key);
            }
        }
        Some(record)
    }

    fn add(&mut self, p: PartitionIdx, topic: TopicIdx, hash: i32, src: MemberIdx, dst: MemberIdx) {
        self.records.insert(p, Record { src, dst });
        self.per_topic[topic.ix()] += 1;
        self.sets.entry((topic, src, dst)).or_insert_with(HashSetOrder::new).insert(p, hash);
    }
}
