//! The general builder's state, one part per purpose: what never changes (the subscriptions),
//! the assignment being built, the load order, answers cached between size changes, the bound
//! on moves and what undoing the balancing needs.

use std::borrow::Cow;
use std::collections::BTreeSet;

use crate::error::AssignError;
use crate::prepared::{MaybeMember, MemberIdx, PartitionIdx, Prepared, TopicIdx};

/// What balancing reads about the subscriptions; it never changes.
pub(super) struct Subscriptions {
    pub(super) subscribed: Subscribed,
    /// `getMaxAssignmentSize` as Java computes it (over the listed topics, repeats included).
    pub(super) max_size: Vec<i32>,
    /// Subscribers per topic, counting a topic listed twice twice, as Kafka's lists do.
    pub(super) subscribers: Vec<u32>,
}

impl Subscriptions {
    pub(super) fn new(g: &Prepared) -> Self {
        let topics = g.topics.len();
        let mut subscribers = vec![0u32; topics];
        let mut max_size = vec![0i32; g.member_count()];
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
        Subscriptions { subscribed: Subscribed::new(g), max_size, subscribers }
    }
}

/// Each member's list in Kafka's order (`currentAssignment`) and each partition's member
/// (`currentPartitionConsumer`). A removed partition leaves a hole, skipped when reading and
/// dropped once a list has more holes than partitions, so a move costs O(1) amortized. Balancing
/// moves partitions from the front of a list, so reading starts after the leading holes.
pub(super) struct CurrentAssignment {
    slots: Vec<Vec<Option<PartitionIdx>>>,
    /// Per list, the slots before this one are holes.
    head: Vec<u32>,
    /// Partitions in each list (slots that are not holes).
    lens: Vec<u32>,
    owner: Vec<MaybeMember>,
    /// Where each assigned partition sits in its owner's slots.
    slot_of: Vec<u32>,
}

impl CurrentAssignment {
    pub(super) fn new(members: usize, partitions: usize) -> Self {
        CurrentAssignment {
            slots: vec![Vec::new(); members],
            head: vec![0; members],
            lens: vec![0; members],
            owner: vec![MaybeMember::NONE; partitions],
            slot_of: vec![0; partitions],
        }
    }

    pub(super) fn len(&self, m: MemberIdx) -> u32 {
        self.lens[m.ix()]
    }

    pub(super) fn owner(&self, p: PartitionIdx) -> Option<MemberIdx> {
        self.owner[p.ix()].get()
    }

    pub(super) fn iter(&self, m: MemberIdx) -> impl DoubleEndedIterator<Item = PartitionIdx> + '_ {
        self.slots[m.ix()][self.head[m.ix()] as usize..].iter().flatten().copied()
    }

    pub(super) fn list(&self, m: MemberIdx) -> Vec<PartitionIdx> {
        self.iter(m).collect()
    }

    /// Appends `p`, which has no owner, to `m`'s list.
    pub(super) fn push(&mut self, m: MemberIdx, p: PartitionIdx) {
        let slots = &mut self.slots[m.ix()];
        self.slot_of[p.ix()] = slots.len() as u32;
        slots.push(Some(p));
        self.lens[m.ix()] += 1;
        self.owner[p.ix()] = m.into();
    }

    /// Takes `p` out of its owner's list, keeping the order of the rest.
    pub(super) fn remove(&mut self, p: PartitionIdx) {
        let Some(m) = self.owner(p) else {
            return;
        };
        self.owner[p.ix()] = MaybeMember::NONE;
        self.lens[m.ix()] -= 1;
        let slots = &mut self.slots[m.ix()];
        if let Some(slot) = slots.get_mut(self.slot_of[p.ix()] as usize) {
            *slot = None;
        }
        let head = &mut self.head[m.ix()];
        while slots.get(*head as usize).is_some_and(Option::is_none) {
            *head += 1;
        }
        let holes = slots.len() - self.lens[m.ix()] as usize;
        if holes > 16 && holes > self.lens[m.ix()] as usize {
            self.replace(m, self.list(m));
        }
    }

    /// Makes `list` `m`'s list; its partitions are `m`'s from now on.
    pub(super) fn replace(&mut self, m: MemberIdx, list: Vec<PartitionIdx>) {
        for (i, &p) in list.iter().enumerate() {
            self.owner[p.ix()] = m.into();
            self.slot_of[p.ix()] = i as u32;
        }
        self.lens[m.ix()] = list.len() as u32;
        self.head[m.ix()] = 0;
        self.slots[m.ix()] = list.into_iter().map(Some).collect();
    }

    pub(super) fn into_parts(self) -> (Vec<Vec<PartitionIdx>>, Vec<MaybeMember>) {
        let lists = self.slots.into_iter().map(|slots| slots.into_iter().flatten().collect()).collect();
        (lists, self.owner)
    }
}

/// The members taking part in balancing by (partitions held, member id): Kafka's
/// `sortedCurrentSubscriptions`, kept as an ordered set of (size, rank of the member id).
pub(super) struct LoadOrder<'g> {
    order: BTreeSet<(u32, u32)>,
    rank: &'g [u32],
    member_by_rank: Vec<MemberIdx>,
    set_aside: Vec<bool>,
}

impl<'g> LoadOrder<'g> {
    pub(super) fn new(g: &'g Prepared) -> Self {
        let mut member_by_rank = vec![MemberIdx(0); g.member_count()];
        for m in g.members() {
            member_by_rank[g.member_rank[m.ix()] as usize] = m;
        }
        LoadOrder {
            order: BTreeSet::new(),
            rank: &g.member_rank,
            member_by_rank,
            set_aside: vec![false; g.member_count()],
        }
    }

    pub(super) fn enter(&mut self, m: MemberIdx, size: u32) {
        self.order.insert((size, self.rank[m.ix()]));
    }

    /// `m`'s list changed from `old` to `new` partitions.
    pub(super) fn resize(&mut self, m: MemberIdx, old: u32, new: u32) {
        let rank = self.rank[m.ix()];
        if self.order.remove(&(old, rank)) {
            self.order.insert((new, rank));
        }
    }

    pub(super) fn set_aside(&mut self, m: MemberIdx, size: u32) {
        self.set_aside[m.ix()] = true;
        self.order.remove(&(size, self.rank[m.ix()]));
    }

    pub(super) fn is_set_aside(&self, m: MemberIdx) -> bool {
        self.set_aside[m.ix()]
    }

    /// (size, member), least loaded first.
    pub(super) fn members(&self) -> impl DoubleEndedIterator<Item = (u32, MemberIdx)> + '_ {
        self.order.iter().map(|&(size, rank)| (size, self.member_by_rank[rank as usize]))
    }

    pub(super) fn smallest(&self) -> Option<u32> {
        self.order.first().map(|&(size, _)| size)
    }

    pub(super) fn largest(&self) -> Option<u32> {
        self.order.last().map(|&(size, _)| size)
    }

    /// Kafka's balance score: the sum of size differences over all pairs of members taking part,
    /// in Java `int` arithmetic.
    pub(super) fn score(&self) -> i32 {
        let n = self.order.len() as i64;
        let mut sum = 0i64;
        for (k, &(size, _)) in self.order.iter().enumerate() {
            sum = sum.wrapping_add(i64::from(size).wrapping_mul(2 * k as i64 - n + 1));
        }
        sum as i32
    }
}

/// Answers that hold until the next size change (an epoch); Kafka recomputes them at every call.
pub(super) struct Cache {
    epoch: u64,
    balanced: Option<(u64, bool)>,
    /// Per topic: the first subscriber in load order.
    first_subscriber: Vec<Option<(u64, Option<MemberIdx>)>>,
    /// Per topic: the smallest subscriber that could take more, within `isBalanced`.
    min_subscriber: Vec<Option<(u64, u32)>>,
}

impl Cache {
    pub(super) fn new(topics: usize) -> Self {
        Cache { epoch: 0, balanced: None, first_subscriber: vec![None; topics], min_subscriber: vec![None; topics] }
    }

    pub(super) fn invalidate(&mut self) {
        self.epoch += 1;
    }

    pub(super) fn balanced(&self) -> Option<bool> {
        self.balanced.filter(|&(at, _)| at == self.epoch).map(|(_, balanced)| balanced)
    }

    pub(super) fn set_balanced(&mut self, balanced: bool) {
        self.balanced = Some((self.epoch, balanced));
    }

    pub(super) fn first_subscriber(&self, t: TopicIdx) -> Option<Option<MemberIdx>> {
        self.first_subscriber[t.ix()].filter(|&(at, _)| at == self.epoch).map(|(_, m)| m)
    }

    pub(super) fn set_first_subscriber(&mut self, t: TopicIdx, m: Option<MemberIdx>) {
        self.first_subscriber[t.ix()] = Some((self.epoch, m));
    }

    /// Members are offered smallest first: the first offer of an epoch stands.
    pub(super) fn offer_min_subscriber(&mut self, t: TopicIdx, size: u32) {
        if self.min_subscriber(t).is_none() {
            self.min_subscriber[t.ix()] = Some((self.epoch, size));
        }
    }

    pub(super) fn min_subscriber(&self, t: TopicIdx) -> Option<u32> {
        self.min_subscriber[t.ix()].filter(|&(at, _)| at == self.epoch).map(|(_, size)| size)
    }
}

/// Every move but those swapped for an earlier one lowers the balance score, so a balancing that
/// keeps going this long is cycling (Java would never return).
pub(super) struct MoveBudget {
    used: u64,
    limit: u64,
}

impl MoveBudget {
    pub(super) fn new(limit: u64) -> Self {
        MoveBudget { used: 0, limit }
    }

    pub(super) fn spend(&mut self) -> Result<(), AssignError> {
        self.used += 1;
        if self.used > self.limit {
            return Err(AssignError::KafkaThrows(format!(
                "balancing does not terminate ({} moves without reaching balance)",
                self.limit
            )));
        }
        Ok(())
    }
}

/// The lists as they were before balancing, for the members it changed.
pub(super) struct Undo {
    pub(super) recording: bool,
    pub(super) saved: Vec<(MemberIdx, Vec<PartitionIdx>)>,
    pub(super) touched: Vec<bool>,
}

impl Undo {
    pub(super) fn new(members: usize) -> Self {
        Undo { recording: false, saved: Vec::new(), touched: vec![false; members] }
    }

    pub(super) fn save(&mut self, m: MemberIdx, current: &CurrentAssignment) {
        if self.recording && !self.touched[m.ix()] {
            self.touched[m.ix()] = true;
            self.saved.push((m, current.list(m)));
        }
    }
}

/// Who subscribes to what: one bit per (member, topic) when that fits in a few megabytes, else
/// each member's topics sorted for a binary search.
pub(super) enum Subscribed {
    Bits { topics: usize, bits: Vec<u64> },
    Sorted(Vec<Vec<TopicIdx>>),
}

impl Subscribed {
    pub(super) fn new(g: &Prepared) -> Self {
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

    pub(super) fn contains(&self, m: MemberIdx, t: TopicIdx) -> bool {
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

    /// The load order: members by (size, member id), those set aside left out; the ends; and
    /// Kafka's `getBalanceScore` over the members in it, which wraps as Java's `int` does.
    #[test]
    fn the_load_order_sorts_by_size_then_id_and_scores_as_java_does() {
        let topic = Topic::new("t", 1);
        let subscriptions: Vec<Subscription> = ["c", "a", "d", "b", "e"]
            .iter()
            .map(|&id| Subscription { member_id: id.into(), topics: vec!["t".into()], ..Subscription::default() })
            .collect();
        let g = Prepared::new(&[&topic], &subscriptions).unwrap_or_else(|e| panic!("{e}"));
        let [c, a, d, b, e] = [0, 1, 2, 3, 4].map(MemberIdx);
        let mut loads = LoadOrder::new(&g);
        for (m, size) in [(c, 3), (a, 2), (d, 7), (b, 9), (e, 4)] {
            loads.enter(m, size);
        }
        loads.set_aside(e, 4);
        loads.resize(b, 9, 7);
        loads.resize(d, 7, 9);
        let order: Vec<(u32, MemberIdx)> = loads.members().collect();
        assert_eq!(order, [(2, a), (3, c), (7, b), (9, d)]);
        assert!(loads.is_set_aside(e) && !loads.is_set_aside(a));
        assert_eq!((loads.smallest(), loads.largest()), (Some(2), Some(9)));
        // Java, over the sizes 2, 3, 7, 9: 1 + 5 + 7 + 4 + 6 + 2.
        assert_eq!(loads.score(), 25);

        let mut huge = LoadOrder::new(&g);
        for (m, size) in [(a, 5), (b, 1), (c, (1 << 30) + 1)] {
            huge.enter(m, size);
        }
        // 4 + 2^30 - 4 + 2^30 = 2^31, which Java's int sum wraps to its minimum.
        assert_eq!(huge.score(), i32::MIN);
    }

    /// Cached answers hold until the next size change; the smallest subscriber offered first
    /// stands for the epoch.
    #[test]
    fn cached_answers_hold_until_the_next_size_change() {
        let (t, u) = (TopicIdx(0), TopicIdx(1));
        let mut cache = Cache::new(2);
        assert_eq!((cache.balanced(), cache.first_subscriber(t), cache.min_subscriber(t)), (None, None, None));
        cache.set_balanced(false);
        cache.set_first_subscriber(t, Some(MemberIdx(1)));
        cache.set_first_subscriber(u, None);
        cache.offer_min_subscriber(t, 3);
        cache.offer_min_subscriber(t, 5);
        assert_eq!(cache.balanced(), Some(false));
        assert_eq!((cache.first_subscriber(t), cache.first_subscriber(u)), (Some(Some(MemberIdx(1))), Some(None)));
        assert_eq!((cache.min_subscriber(t), cache.min_subscriber(u)), (Some(3), None));
        cache.invalidate();
        assert_eq!((cache.balanced(), cache.first_subscriber(t), cache.min_subscriber(t)), (None, None, None));
        cache.set_balanced(true);
        cache.offer_min_subscriber(t, 5);
        assert_eq!((cache.balanced(), cache.min_subscriber(t)), (Some(true), Some(5)));
    }

    /// The budget allows exactly `limit` moves; the next one is an error.
    #[test]
    fn the_move_budget_allows_exactly_its_limit() {
        let mut budget = MoveBudget::new(3);
        for _ in 0..3 {
            assert!(budget.spend().is_ok());
        }
        assert!(matches!(budget.spend(), Err(AssignError::KafkaThrows(_))));
    }

    /// Holes left by moves are skipped and compacted without changing any list's order.
    #[test]
    fn removing_keeps_the_order_of_the_rest() {
        let (a, b) = (MemberIdx(0), MemberIdx(1));
        let mut current = CurrentAssignment::new(2, 100);
        for p in 0..100 {
            current.push(a, PartitionIdx(p));
        }
        for p in (0..100).filter(|p| p % 3 != 0) {
            current.remove(PartitionIdx(p));
            current.push(b, PartitionIdx(p));
        }
        let kept: Vec<PartitionIdx> = (0..100).filter(|p| p % 3 == 0).map(PartitionIdx).collect();
        let moved: Vec<PartitionIdx> = (0..100).filter(|p| p % 3 != 0).map(PartitionIdx).collect();
        assert_eq!(current.list(a), kept);
        assert_eq!(current.len(a), 34);
        assert!(current.slots[a.ix()].len() < 100, "compacted");
        assert_eq!(current.list(b), moved);
        current.remove(PartitionIdx(98));
        assert_eq!(current.owner(PartitionIdx(98)), None);
        assert_eq!(current.owner(PartitionIdx(97)), Some(b));
        assert_eq!(current.into_parts().0, vec![kept, moved[..moved.len() - 1].to_vec()]);
    }
}
