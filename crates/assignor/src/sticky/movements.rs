//! `PartitionMovements`: the general builder's memory of which partitions moved where, used to
//! avoid moving partitions of one topic back and forth between two members (KIP-54).
//!
//! When a partition is about to move from `o` to `n` and some partitions of the same topic already
//! moved from `n` to `o`, Kafka moves one of those back instead: the first one its
//! `HashSet<TopicPartition>` iterates. That choice changes which partitions end where, so the set's
//! iteration order is emulated: buckets of `TopicPartition.hashCode` in the set's current table,
//! and insertion order inside a bucket.

use std::collections::{BTreeSet, HashMap};

use crate::java;
use crate::prepared::{MemberIdx, PartitionIdx, TopicIdx};

/// A partition's movement: from its owner before balancing to its current owner.
#[derive(Clone, Copy)]
struct Record {
    src: MemberIdx,
    dst: MemberIdx,
    /// When it entered its set, for the order inside a bucket.
    seq: u64,
}

pub(crate) struct Movements {
    records: HashMap<PartitionIdx, Record>,
    /// How many partitions of each topic have a record (Kafka drops a topic's map when empty).
    per_topic: Vec<u32>,
    /// The `HashSet` of partitions per (topic, source, destination); removed once empty.
    sets: HashMap<(TopicIdx, MemberIdx, MemberIdx), JavaHashSet>,
    next_seq: u64,
}

impl Movements {
    pub fn new(topics: usize) -> Self {
        Movements { records: HashMap::new(), per_topic: vec![0; topics], sets: HashMap::new(), next_seq: 0 }
    }

    /// `getTheActualPartitionToBeMoved`: the partition to move when `p` (of `topic`, owned by
    /// `owner`) should go to `to`. If `p` moved before, its original owner counts as the owner.
    pub fn actual(&self, p: PartitionIdx, topic: TopicIdx, owner: MemberIdx, to: MemberIdx) -> PartitionIdx {
        if self.per_topic[topic.ix()] == 0 {
            return p;
        }
        let owner = self.records.get(&p).map_or(owner, |r| r.src);
        self.sets.get(&(topic, to, owner)).and_then(JavaHashSet::first).unwrap_or(p)
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
            set.remove(p, hash, record.seq);
            if set.is_empty() {
                self.sets.remove(&key);
            }
        }
        Some(record)
    }

    fn add(&mut self, p: PartitionIdx, topic: TopicIdx, hash: i32, src: MemberIdx, dst: MemberIdx) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.records.insert(p, Record { src, dst, seq });
        self.per_topic[topic.ix()] += 1;
        self.sets.entry((topic, src, dst)).or_insert_with(JavaHashSet::new).insert(p, hash, seq);
    }
}

/// Enough of a default `java.util.HashSet` to know its first element: its table size, which only
/// grows, and its elements by (bucket, insertion order), each with its hash.
struct JavaHashSet {
    capacity: usize,
    entries: BTreeSet<(usize, u64, PartitionIdx, i32)>,
}

impl JavaHashSet {
    fn new() -> Self {
        JavaHashSet { capacity: 16, entries: BTreeSet::new() }
    }

    fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn first(&self) -> Option<PartitionIdx> {
        self.entries.first().map(|&(_, _, p, _)| p)
    }

    fn insert(&mut self, p: PartitionIdx, hash: i32, seq: u64) {
        let bucket = java::bucket(hash, self.capacity);
        let chain = self
            .entries
            .range((bucket, 0, PartitionIdx(0), i32::MIN)..(bucket + 1, 0, PartitionIdx(0), i32::MIN))
            .count();
        self.entries.insert((bucket, seq, p, hash));
        // A ninth key in one bucket makes a table under 64 slots grow instead of turning the
        // bucket into a tree.
        if chain >= 8 && self.capacity < 64 {
            self.grow();
        }
        if self.entries.len() > self.capacity / 4 * 3 {
            self.grow();
        }
    }

    fn remove(&mut self, p: PartitionIdx, hash: i32, seq: u64) {
        self.entries.remove(&(java::bucket(hash, self.capacity), seq, p, hash));
    }

    /// A resize keeps the order inside each bucket, so only the buckets are recomputed.
    fn grow(&mut self) {
        self.capacity *= 2;
        let capacity = self.capacity;
        self.entries = std::mem::take(&mut self.entries)
            .into_iter()
            .map(|(_, seq, p, hash)| (java::bucket(hash, capacity), seq, p, hash))
            .collect();
    }
}
