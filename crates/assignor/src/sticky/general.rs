//! The general builder, for groups whose members subscribe to different topics (KIP-54, KIP-341).
//!
//! Members keep what they still subscribe to (on their rack, KIP-881); the rest goes, partition by
//! partition, to the least loaded member that can take it; then partitions move from loaded to
//! lighter members until no move can improve the balance. A balancing that ends no better than it
//! started (by the sum of pairwise size differences) is undone, unless this is the first assignment.
//!
//! Kafka's checks are quadratic; the same answers come from:
//! - the load order kept as an ordered set of (size, member id rank);
//! - `balanced()` reduced to one test per topic: some subscriber that could take more and some
//!   owner of one of the topic's partitions differ by two or more;
//! - both cached until the next size change.

use std::borrow::Cow;
use std::collections::BTreeSet;

use super::member_data::MemberData;
use super::movements::Movements;
use super::ownership::Ownership;
use super::racks::RackView;
use crate::error::AssignError;
use crate::java;
use crate::prepared::{MemberIdx, PartitionIdx, Prepared, TopicIdx};
use crate::trace::{LossReason, SkipReason, Step, Tracer};

const NONE: u32 = u32::MAX;

fn npe(what: &str) -> AssignError {
    AssignError::KafkaThrows(format!("NullPointerException: {what}"))
}

pub(crate) fn build<T: Tracer>(
    g: &Prepared,
    hash_order: &[MemberIdx],
    data: &MemberData,
    own: &Ownership,
    racks: &RackView,
    trace: &mut T,
) -> Result<Built, AssignError> {
    trace.record(|| Step::Note {
        text: "members subscribe to different topics: general assignment with balancing (KIP-54)".into(),
    });
    let mut b = General::new(g, racks, trace);
    b.fill_prev(hash_order, data, own.max_generation);
    let revocation_required = b.keep_owned(hash_order, own);
    let mut sorted_parts = b.sorted_partitions();
    let mut unassigned: Vec<PartitionIdx> = sorted_parts.iter().copied().filter(|p| b.owner[p.ix()] == NONE).collect();
    for m in g.members() {
        let key = b.key(m);
        b.order.insert(key);
    }
    let initializing = b.order.last().is_none_or(|&(size, _)| size == 0);
    b.fill(&unassigned);

    // Topics with a single subscriber, and members holding everything they can of such topics
    // only, take no part in balancing.
    let fixed_topic: Vec<bool> = b.subscribers.iter().map(|&n| n < 2).collect();
    sorted_parts.retain(|&p| !fixed_topic[g.topic_of(p).ix()]);
    unassigned.retain(|&p| !fixed_topic[g.topic_of(p).ix()]);
    b.set_aside_fixed(&fixed_topic);

    b.snapshot_on = true;
    let score_before = b.score();
    if !revocation_required {
        b.trace.record(|| Step::Note { text: "balance by moving newly assigned partitions first".into() });
        b.perform(&unassigned)?;
    }
    b.trace.record(|| Step::Note { text: "balance over all partitions that can move".into() });
    let performed = b.perform(&sorted_parts)?;
    if !initializing && performed && b.score() >= score_before {
        b.revert();
    }
    Ok(Built { lists: b.lists, owner: b.owner })
}

pub(crate) struct Built {
    pub lists: Vec<Vec<PartitionIdx>>,
    /// Each partition's member (index), or `u32::MAX` when unassigned.
    pub owner: Vec<u32>,
}

struct General<'g, 'a, 'r, 't, T: Tracer> {
    g: &'g Prepared<'a>,
    racks: &'r RackView<'g, 'a>,
    trace: &'t mut T,
    lists: Vec<Vec<PartitionIdx>>,
    owner: Vec<u32>,
    /// The load order: (size, rank of member id); only members taking part in balancing.
    order: BTreeSet<(u32, u32)>,
    member_by_rank: Vec<MemberIdx>,
    /// Each member's existing topics, without repeats.
    topics_of: Vec<Vec<TopicIdx>>,
    subscribed: Subscribed,
    /// `getMaxAssignmentSize` as Java computes it (over the listed topics, repeats included).
    max_size: Vec<i32>,
    /// Subscribers per topic, counting a topic listed twice twice, as Kafka's lists do.
    subscribers: Vec<u32>,
    fixed: Vec<bool>,
    /// `prevAssignment`: per partition, a member of an older generation that owned it, or NONE.
    prev: Vec<u32>,
    prev_generation: Vec<i32>,
    movements: Movements,
    moves: u64,
    move_limit: u64,
    /// Bumped on every size change; caches below are valid for one epoch.
    epoch: u64,
    balanced_at: Option<(u64, bool)>,
    first_subscriber_at: Vec<(u64, u32)>,
    min_subscriber: Vec<u32>,
    min_subscriber_at: Vec<u64>,
    /// Lists as they were before balancing, for the members it changed.
    snapshot_on: bool,
    saved: Vec<(MemberIdx, Vec<PartitionIdx>)>,
    touched: Vec<bool>,
}

impl<'g, 'a, 'r, 't, T: Tracer> General<'g, 'a, 'r, 't, T> {
    fn new(g: &'g Prepared<'a>, racks: &'r RackView<'g, 'a>, trace: &'t mut T) -> Self {
        let n = g.member_count();
        let topics = g.topics.len();
        let mut member_by_rank = vec![MemberIdx(0); n];
        for m in g.members() {
            member_by_rank[g.member_rank[m.ix()] as usize] = m;
        }
        let mut subscribers = vec![0u32; topics];
        let mut max_size = vec![0i32; n];
        for m in g.members() {
            let listed = listed_topics(g, m);
            for t in listed.iter() {
                subscribers[t.ix()] += 1;
            }
            max_size[m.ix()] = if listed.len() == topics {
                g.partition_count() as i32
            } else {
                listed.iter().fold(0i32, |sum, &t| sum.wrapping_add(g.topic(t).partitions as i32))
            };
        }
        General {
            g,
            racks,
            trace,
            lists: vec![Vec::new(); n],
            owner: vec![NONE; g.partition_count()],
            order: BTreeSet::new(),
            member_by_rank,
            topics_of: g.member_topics.clone(),
            subscribed: Subscribed::new(g),
            max_size,
            subscribers,
            fixed: vec![false; n],
            prev: Vec::new(),
            prev_generation: Vec::new(),
            movements: Movements::new(topics),
            moves: 0,
            move_limit: 64 * (g.partition_count() as u64 + n as u64) + 1_000_000,
            epoch: 0,
            balanced_at: None,
            first_subscriber_at: vec![(u64::MAX, NONE); topics],
            min_subscriber: vec![0; topics],
            min_subscriber_at: vec![u64::MAX; topics],
            snapshot_on: false,
            saved: Vec::new(),
            touched: vec![false; n],
        }
    }

    fn size(&self, m: MemberIdx) -> u32 {
        self.lists[m.ix()].len() as u32
    }

    fn key(&self, m: MemberIdx) -> (u32, u32) {
        (self.size(m), self.g.member_rank[m.ix()])
    }

    fn subscribes(&self, m: MemberIdx, t: TopicIdx) -> bool {
        self.subscribed.contains(m, t)
    }

    /// Replaces `m`'s entry in the load order after its list changed from `old_size`.
    fn set_size_in_order(&mut self, m: MemberIdx, old_size: u32) {
        let rank = self.g.member_rank[m.ix()];
        if self.order.remove(&(old_size, rank)) {
            self.order.insert((self.size(m), rank));
        }
        self.epoch += 1;
    }

    /// `prevAssignment`: partitions that members of older generations owned (KIP-341), the
    /// highest such generation winning, ties to the first member in `HashMap` order.
    fn fill_prev(&mut self, hash_order: &[MemberIdx], data: &MemberData, max_generation: i32) {
        for &m in hash_order {
            let gen = match data.generation[m.ix()] {
                Some(gen) if gen < max_generation => gen,
                None if max_generation > -1 => -1,
                _ => continue,
            };
            if self.prev.is_empty() && !data.owned[m.ix()].is_empty() {
                self.prev = vec![NONE; self.g.partition_count()];
                self.prev_generation = vec![0; self.g.partition_count()];
            }
            for &p in &data.owned[m.ix()] {
                if self.prev[p.ix()] == NONE || gen > self.prev_generation[p.ix()] {
                    self.prev[p.ix()] = m.0;
                    self.prev_generation[p.ix()] = gen;
                }
            }
        }
    }

    /// Step 1: members keep the partitions they claimed, unless they no longer subscribe to the
    /// topic or the partition has no replica on their rack. Returns whether anything was dropped
    /// (then balancing skips its first, gentler pass).
    fn keep_owned(&mut self, hash_order: &[MemberIdx], own: &Ownership) -> bool {
        let g = self.g;
        let mut dropped = false;
        for &c in hash_order {
            for &p in &own.own[c.ix()] {
                let reason = if !self.subscribes(c, g.topic_of(p)) {
                    LossReason::NotSubscribed
                } else if self.racks.mismatch(c, p) {
                    LossReason::RackMismatch
                } else {
                    self.lists[c.ix()].push(p);
                    self.owner[p.ix()] = c.0;
                    self.trace.record(|| Step::Keep { partition: g.topic_partition(p), member: g.member_id(c).into() });
                    continue;
                };
                dropped = true;
                self.trace.record(|| Step::Lose {
                    partition: g.topic_partition(p),
                    member: g.member_id(c).into(),
                    reason,
                });
            }
        }
        dropped
    }

    /// All partitions, topics by (number of subscribers, name), each topic's ascending.
    fn sorted_partitions(&mut self) -> Vec<PartitionIdx> {
        let g = self.g;
        let mut topics: Vec<TopicIdx> = (0..g.topics.len() as u32).map(TopicIdx).collect();
        topics.sort_by_key(|&t| (self.subscribers[t.ix()], g.topic(t).rank));
        self.trace.record(|| Step::Order {
            name: "topics by number of subscribers, then name".into(),
            items: topics.iter().map(|&t| g.topic(t).name.to_string()).collect(),
        });
        topics.into_iter().flat_map(|t| g.partitions_of(t)).collect()
    }

    /// Step 3: each unassigned partition to the least loaded subscriber, first only to members on
    /// one of its racks (or without a rack), then to anyone.
    fn fill(&mut self, unassigned: &[PartitionIdx]) {
        let g = self.g;
        let mut left: Cow<[PartitionIdx]> = Cow::Borrowed(unassigned);
        if self.racks.aware {
            let mut rest = Vec::new();
            for &p in unassigned {
                let t = g.topic_of(p);
                if self.subscribers[t.ix()] == 0 {
                    rest.push(p);
                    continue;
                }
                let found = self
                    .order
                    .iter()
                    .map(|&(_, rank)| self.member_by_rank[rank as usize])
                    .find(|&m| self.subscribes(m, t) && !self.racks.mismatch(m, p));
                match found {
                    Some(m) => {
                        self.trace_attempts(p, true);
                        self.give(p, m);
                    }
                    None => rest.push(p),
                }
            }
            left = Cow::Owned(rest);
        }
        for &p in left.iter() {
            let t = g.topic_of(p);
            if self.subscribers[t.ix()] == 0 {
                continue;
            }
            if let Some(m) = self.first_subscriber(t) {
                self.trace_attempts(p, false);
                self.give(p, m);
            }
        }
    }

    /// For the walkthrough: the load order at this point, and each member before the chosen one
    /// passed over and why (the seed article's "not subscribed, next"); in the rack pass, also
    /// for a rack without a replica.
    fn trace_attempts(&mut self, p: PartitionIdx, rack_pass: bool) {
        if !self.trace.enabled() {
            return;
        }
        let g = self.g;
        let t = g.topic_of(p);
        let order: Vec<MemberIdx> = self.order.iter().map(|&(_, rank)| self.member_by_rank[rank as usize]).collect();
        let items: Vec<String> = order.iter().map(|&m| format!("{} ({})", g.member_id(m), self.size(m))).collect();
        self.trace.record(|| Step::Order { name: "members by load (partitions held, then member id)".into(), items });
        for &m in &order {
            let reason = if !self.subscribes(m, t) {
                SkipReason::NotSubscribed
            } else if rack_pass && self.racks.mismatch(m, p) {
                SkipReason::RackMismatch
            } else {
                break;
            };
            self.trace.record(|| Step::Skip { partition: g.topic_partition(p), member: g.member_id(m).into(), reason });
        }
    }

    fn give(&mut self, p: PartitionIdx, m: MemberIdx) {
        let g = self.g;
        let old = self.size(m);
        self.lists[m.ix()].push(p);
        self.owner[p.ix()] = m.0;
        self.set_size_in_order(m, old);
        self.trace.record(|| Step::Assign { partition: g.topic_partition(p), member: g.member_id(m).into() });
    }

    /// The first member in load order that subscribes to `t`.
    fn first_subscriber(&mut self, t: TopicIdx) -> Option<MemberIdx> {
        let (at, m) = self.first_subscriber_at[t.ix()];
        if at == self.epoch {
            return (m != NONE).then_some(MemberIdx(m));
        }
        let found =
            self.order.iter().map(|&(_, rank)| self.member_by_rank[rank as usize]).find(|&m| self.subscribes(m, t));
        self.first_subscriber_at[t.ix()] = (self.epoch, found.map_or(NONE, |m| m.0));
        found
    }

    /// Step 4: members with every partition they can get, all of single-subscriber topics.
    fn set_aside_fixed(&mut self, fixed_topic: &[bool]) {
        let g = self.g;
        for m in g.members() {
            let full = self.size(m) as i32 >= self.max_size[m.ix()];
            if full && self.lists[m.ix()].iter().all(|&p| fixed_topic[g.topic_of(p).ix()]) {
                self.fixed[m.ix()] = true;
                self.order.remove(&self.key(m));
                self.trace.record(|| Step::Note {
                    text: format!("{} holds all it can of topics no one else takes: set aside", g.member_id(m)),
                });
            }
        }
        self.epoch += 1;
    }

    /// Kafka's balance score: the sum of size differences over all pairs of members taking part,
    /// in Java `int` arithmetic.
    fn score(&self) -> i32 {
        let n = self.order.len() as i64;
        let mut sum = 0i64;
        for (k, &(size, _)) in self.order.iter().enumerate() {
            sum = sum.wrapping_add(i64::from(size).wrapping_mul(2 * k as i64 - n + 1));
        }
        sum as i32
    }

    /// `performReassignments`: passes over `list` until one moves nothing; each partition is
    /// looked at only while the group is not balanced. Returns whether anything moved.
    fn perform(&mut self, list: &[PartitionIdx]) -> Result<bool, AssignError> {
        let g = self.g;
        let mut performed = false;
        loop {
            let mut modified = false;
            for &p in list {
                if self.balanced()? {
                    break;
                }
                let Some(c) = Some(self.owner[p.ix()]).filter(|&o| o != NONE).map(MemberIdx) else {
                    return Err(npe("a partition to balance has no owner"));
                };
                if let Some(&prev) = self.prev.get(p.ix()).filter(|&&m| m != NONE) {
                    let prev = MemberIdx(prev);
                    if self.fixed[prev.ix()] {
                        return Err(npe(&format!(
                            "{} previously owned {} but was set aside from balancing",
                            g.member_id(prev),
                            g.topic_partition(p)
                        )));
                    }
                    if self.size(c) > self.size(prev) + 1 {
                        self.reassign(p, prev)?;
                        modified = true;
                        performed = true;
                        continue;
                    }
                }
                let Some(n) = self.first_subscriber(g.topic_of(p)) else {
                    return Err(npe("no member to move a partition to"));
                };
                if self.size(c) > self.size(n) + 1 {
                    self.reassign(p, n)?;
                    modified = true;
                    performed = true;
                }
            }
            if !modified {
                return Ok(performed);
            }
        }
    }

    /// Moves `p` (or, to avoid a back-and-forth, a partition of its topic that earlier moved
    /// the other way) to `to`.
    fn reassign(&mut self, p: PartitionIdx, to: MemberIdx) -> Result<(), AssignError> {
        let g = self.g;
        // Every move but those swapped for an earlier one lowers the balance score, so a
        // balancing that keeps going this long is cycling (Java would never return).
        self.moves += 1;
        if self.moves > self.move_limit {
            return Err(AssignError::KafkaThrows(format!(
                "balancing does not terminate ({} moves without reaching balance)",
                self.move_limit
            )));
        }
        let t = g.topic_of(p);
        let x = self.movements.actual(p, t, MemberIdx(self.owner[p.ix()]), to);
        let Some(from) = Some(self.owner[x.ix()]).filter(|&o| o != NONE).map(MemberIdx) else {
            return Err(npe("a partition to move has no owner"));
        };
        let (from_size, to_size) = (self.size(from), self.size(to));
        let hash = java::topic_partition_hash(g.topic(t).hash, g.number(x));
        self.movements.record(x, t, hash, from, to);
        self.save(from);
        self.save(to);
        if let Some(i) = self.lists[from.ix()].iter().position(|&q| q == x) {
            self.lists[from.ix()].remove(i);
        }
        self.lists[to.ix()].push(x);
        self.owner[x.ix()] = to.0;
        self.set_size_in_order(from, from_size);
        self.set_size_in_order(to, to_size);
        self.trace.record(|| Step::Move {
            partition: g.topic_partition(x),
            from: g.member_id(from).into(),
            to: g.member_id(to).into(),
        });
        Ok(())
    }

    fn save(&mut self, m: MemberIdx) {
        if self.snapshot_on && !self.touched[m.ix()] {
            self.touched[m.ix()] = true;
            self.saved.push((m, self.lists[m.ix()].clone()));
        }
    }

    /// Step 7: the balancing did not lower the score; every list it changed goes back.
    fn revert(&mut self) {
        let g = self.g;
        self.trace.record(|| Step::Note { text: "balancing did not improve the balance score: undo it".into() });
        let saved = std::mem::take(&mut self.saved);
        if self.trace.enabled() {
            // Replayed, these rebuild the saved lists exactly, order included.
            for (m, _) in &saved {
                for &p in &self.lists[m.ix()] {
                    self.trace
                        .record(|| Step::Revoke { partition: g.topic_partition(p), member: g.member_id(*m).into() });
                }
            }
            for (m, list) in &saved {
                for &p in list {
                    self.trace
                        .record(|| Step::Assign { partition: g.topic_partition(p), member: g.member_id(*m).into() });
                }
            }
        }
        for (m, list) in saved {
            for &p in &list {
                self.owner[p.ix()] = m.0;
            }
            self.lists[m.ix()] = list;
        }
    }

    /// `isBalanced`, cached per epoch.
    fn balanced(&mut self) -> Result<bool, AssignError> {
        if let Some((at, balanced)) = self.balanced_at {
            if at == self.epoch {
                return Ok(balanced);
            }
        }
        let balanced = self.compute_balanced()?;
        self.balanced_at = Some((self.epoch, balanced));
        Ok(balanced)
    }

    /// Balanced when the load order's ends differ by at most one, or when no member that could
    /// take more (its size is not its maximum) subscribes to a topic with a partition held by a
    /// member two or more partitions larger (KAFKA-15106). Per topic that is: the smallest such
    /// subscriber + 2 > the largest owner of one of its partitions.
    fn compute_balanced(&mut self) -> Result<bool, AssignError> {
        let (Some(&(min, _)), Some(&(max, _))) = (self.order.first(), self.order.last()) else {
            return Err(AssignError::KafkaThrows("NoSuchElementException: no member left to balance".into()));
        };
        if min + 1 >= max {
            return Ok(true);
        }
        let stamp = self.epoch;
        for &(size, rank) in &self.order {
            if size + 2 > max {
                break;
            }
            let c = self.member_by_rank[rank as usize];
            if size as i32 == self.max_size[c.ix()] {
                continue;
            }
            for &t in &self.topics_of[c.ix()] {
                if self.min_subscriber_at[t.ix()] != stamp {
                    self.min_subscriber_at[t.ix()] = stamp;
                    self.min_subscriber[t.ix()] = size;
                }
            }
        }
        for &(size, rank) in self.order.iter().rev() {
            if size < min + 2 {
                break;
            }
            let o = self.member_by_rank[rank as usize];
            for &p in &self.lists[o.ix()] {
                let t = self.g.topic_of(p).ix();
                if self.min_subscriber_at[t] == stamp && self.min_subscriber[t] + 2 <= size {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }
}

/// Who subscribes to what: one bit per (member, topic) when that fits in a few megabytes, else
/// each member's topics sorted for a binary search.
enum Subscribed {
    Bits { topics: usize, bits: Vec<u64> },
    Sorted(Vec<Vec<TopicIdx>>),
}

impl Subscribed {
    fn new(g: &Prepared) -> Self {
        let topics = g.topics.len();
        if g.member_count().saturating_mul(topics) <= 1 << 26 {
            let mut bits = vec![0u64; (g.member_count() * topics).div_ceil(64)];
            for m in g.members() {
                for t in &g.member_topics[m.ix()] {
                    let i = m.ix() * topics + t.ix();
                    bits[i / 64] |= 1 << (i % 64);
                }
            }
            Subscribed::Bits { topics, bits }
        } else {
            Subscribed::Sorted(
                g.member_topics
                    .iter()
                    .map(|list| {
                        let mut sorted = list.clone();
                        sorted.sort_unstable();
                        sorted
                    })
                    .collect(),
            )
        }
    }

    fn contains(&self, m: MemberIdx, t: TopicIdx) -> bool {
        match self {
            Subscribed::Bits { topics, bits } => {
                let i = m.ix() * topics + t.ix();
                bits[i / 64] & (1 << (i % 64)) != 0
            }
            Subscribed::Sorted(lists) => lists[m.ix()].binary_search(&t).is_ok(),
        }
    }
}

/// A member's listed topics that exist, repeats included (Kafka's lists keep them).
fn listed_topics<'p>(g: &'p Prepared, m: MemberIdx) -> Cow<'p, [TopicIdx]> {
    let raw = &g.subscription(m).topics;
    let distinct = &g.member_topics[m.ix()];
    if raw.len() == distinct.len() {
        Cow::Borrowed(distinct)
    } else {
        Cow::Owned(raw.iter().filter_map(|name| g.topic_by_name.get(name.as_str()).copied()).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Subscription, Topic};
    use crate::trace::replay;

    /// Undoing a balancing (rare: it takes a chain of movements that makes things worse) must
    /// leave a trace that replays to the restored lists.
    #[test]
    fn undone_moves_replay_to_the_saved_lists() {
        let topic = Topic::new("t", 6);
        let topics = [&topic];
        let sub = |id: &str, owned: &[u32]| Subscription {
            member_id: id.into(),
            topics: vec!["t".into()],
            owned_partitions: owned.iter().map(|&p| crate::TopicPartition::new("t", p)).collect(),
            generation: Some(1),
            ..Subscription::default()
        };
        let subscriptions = [sub("a", &[0, 1, 2, 3]), sub("b", &[4]), sub("c", &[])];
        let g = Prepared::new(&topics, &subscriptions).unwrap_or_else(|e| panic!("{e}"));
        let hash_order: Vec<MemberIdx> = g.members().collect();
        let data = super::super::member_data::read(&g, true).unwrap_or_else(|e| panic!("{e}"));
        let own = super::super::ownership::resolve(&g, &hash_order, &data, &mut crate::trace::NoTrace);
        let racks = RackView::new(&g);
        let mut steps: Vec<Step> = Vec::new();
        let mut b = General::new(&g, &racks, &mut steps);
        b.keep_owned(&hash_order, &own);
        for m in g.members() {
            let key = b.key(m);
            b.order.insert(key);
        }
        let unassigned: Vec<PartitionIdx> =
            b.sorted_partitions().into_iter().filter(|p| b.owner[p.ix()] == NONE).collect();
        b.fill(&unassigned);
        let before = b.lists.clone();
        b.snapshot_on = true;
        let (bb, c) = (MemberIdx(1), MemberIdx(2));
        for (p, to) in [(1, c), (4, c), (0, bb)] {
            b.reassign(PartitionIdx(p), to).unwrap_or_else(|e| panic!("{e}"));
        }
        assert_ne!(b.lists, before);
        b.revert();
        assert_eq!(b.lists, before);
        let lists = b.lists.clone();
        let names: Vec<String> = g.members().map(|m| g.member_id(m).to_string()).collect();
        let replayed = replay(&names, &steps);
        for m in g.members() {
            let expected: Vec<crate::TopicPartition> = lists[m.ix()].iter().map(|&p| g.topic_partition(p)).collect();
            assert_eq!(replayed[g.member_id(m)], expected);
        }
    }
}
