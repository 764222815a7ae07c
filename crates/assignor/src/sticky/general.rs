//! The general builder, for groups whose members subscribe to different topics (KIP-54, KIP-341).
//!
//! [`build`] runs Kafka's `GeneralAssignmentBuilder` as named phases:
//! 1. [`PreviousOwners::read`]: `prevAssignment`, the claims of older generations (KIP-341): a
//!    partition may go back to such a member while balancing.
//! 2. [`General::keep_owned`]: members keep the partitions they claimed, unless they no longer
//!    subscribe to the topic or it has no replica on their rack (KIP-881).
//! 3. [`General::assign_unassigned`]: the rest goes, partition by partition, to the least loaded
//!    member that can take it, on one of its racks first.
//! 4. [`General::set_aside_fixed`]: topics with a single subscriber, and members holding all they
//!    can of such topics only, take no part in balancing.
//! 5. [`General::balance`]: `performReassignments`, moving partitions from loaded to lighter
//!    members until no move can improve the balance, newly assigned partitions first.
//! 6. [`General::undo_balancing`]: a balancing that ends no better than it started (by the sum of
//!    pairwise size differences) is undone, unless this is the first assignment.
//!
//! Phases 1–3 are [`General::start`]. Kafka's checks are quadratic; the same answers come from:
//! - the load order kept as an ordered set of (size, member id rank);
//! - `isBalanced` reduced to one test per topic: some subscriber that could take more and some
//!   owner of one of the topic's partitions differ by two or more;
//! - both cached until the next size change;
//! - a moved partition leaving a hole in its old owner's list instead of shifting the list
//!   (Kafka's `ArrayList.remove`, a copy of the whole list at every move).

mod state;

use std::borrow::Cow;

use self::state::{Cache, CurrentAssignment, LoadOrder, MoveBudget, Subscriptions, Undo};
use super::member_data::MemberData;
use super::movements::Movements;
use super::ownership::Ownership;
use super::racks::RackView;
use crate::error::AssignError;
use crate::java;
use crate::prepared::{MaybeMember, MemberIdx, PartitionIdx, Prepared, TopicIdx};
use crate::trace::{LossReason, SkipReason, Step, Tracer};

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
    let (mut b, candidates) = General::start(g, hash_order, data, own, racks, trace);
    let candidates = b.set_aside_fixed(candidates);
    b.balance(candidates)?;
    let (lists, owner) = b.current.into_parts();
    Ok(Built { lists, owner })
}

pub(crate) struct Built {
    pub lists: Vec<Vec<PartitionIdx>>,
    /// Each partition's member.
    pub owner: Vec<MaybeMember>,
}

/// The partitions balancing may move, as the first phases leave them.
struct Candidates {
    /// Every partition, topics by (number of subscribers, name).
    all: Vec<PartitionIdx>,
    /// The partitions no member kept, in the same order.
    unassigned: Vec<PartitionIdx>,
    /// A member lost a claim: balancing skips its gentler first pass over `unassigned`.
    revocation_required: bool,
    /// No member held anything: the result is kept even if balancing did not improve it.
    initializing: bool,
}

struct General<'g, 'a, 'r, 't, T: Tracer> {
    g: &'g Prepared<'a>,
    racks: &'r RackView<'g, 'a>,
    trace: &'t mut T,
    subscriptions: Subscriptions,
    previous: PreviousOwners,
    current: CurrentAssignment,
    loads: LoadOrder<'g>,
    cache: Cache,
    movements: Movements,
    budget: MoveBudget,
    undo: Undo,
}

impl<'g, 'a, 'r, 't, T: Tracer> General<'g, 'a, 'r, 't, T> {
    /// Phases 1 to 3: previous owners, kept claims, unassigned partitions placed.
    fn start(
        g: &'g Prepared<'a>,
        hash_order: &[MemberIdx],
        data: &MemberData,
        own: &Ownership,
        racks: &'r RackView<'g, 'a>,
        trace: &'t mut T,
    ) -> (Self, Candidates) {
        let n = g.member_count();
        let mut b = General {
            g,
            racks,
            trace,
            subscriptions: Subscriptions::new(g),
            previous: PreviousOwners::read(g, hash_order, data, own.max_generation),
            current: CurrentAssignment::new(n, g.partition_count()),
            loads: LoadOrder::new(g),
            cache: Cache::new(g.topics.len()),
            movements: Movements::new(g.topics.len()),
            budget: MoveBudget::new(64 * (g.partition_count() as u64 + n as u64) + 1_000_000),
            undo: Undo::new(n),
        };
        let revocation_required = b.keep_owned(hash_order, own);
        let all = b.sorted_partitions();
        let unassigned: Vec<PartitionIdx> = all.iter().copied().filter(|&p| b.current.owner(p).is_none()).collect();
        for m in g.members() {
            b.loads.enter(m, b.current.len(m));
        }
        let initializing = b.loads.largest().is_none_or(|size| size == 0);
        b.assign_unassigned(&unassigned);
        (b, Candidates { all, unassigned, revocation_required, initializing })
    }

    fn subscribes(&self, m: MemberIdx, t: TopicIdx) -> bool {
        self.subscriptions.subscribed.contains(m, t)
    }

    /// Phase 2: members keep the partitions they claimed, unless they no longer subscribe to the
    /// topic or the partition has no replica on their rack. Returns whether anything was dropped.
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
                    self.current.push(c, p);
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
        topics.sort_by_key(|&t| (self.subscriptions.subscribers[t.ix()], g.topic(t).rank));
        self.trace.record(|| Step::Order {
            name: "topics by number of subscribers, then name".into(),
            items: topics.iter().map(|&t| g.topic(t).name.to_string()).collect(),
        });
        topics.into_iter().flat_map(|t| g.partitions_of(t)).collect()
    }

    /// Phase 3: each unassigned partition to the least loaded subscriber, first only to members on
    /// one of its racks (or without a rack), then to anyone.
    fn assign_unassigned(&mut self, unassigned: &[PartitionIdx]) {
        let g = self.g;
        let mut left: Cow<[PartitionIdx]> = Cow::Borrowed(unassigned);
        if self.racks.aware {
            let mut rest = Vec::new();
            for &p in unassigned {
                let t = g.topic_of(p);
                if self.subscriptions.subscribers[t.ix()] == 0 {
                    rest.push(p);
                    continue;
                }
                let found = self.loads.members().find(|&(_, m)| self.subscribes(m, t) && !self.racks.mismatch(m, p));
                match found {
                    Some((_, m)) => {
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
            if self.subscriptions.subscribers[t.ix()] == 0 {
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
        let order: Vec<(u32, MemberIdx)> = self.loads.members().collect();
        let items: Vec<String> = order.iter().map(|&(size, m)| format!("{} ({size})", g.member_id(m))).collect();
        self.trace.record(|| Step::Order { name: "members by load (partitions held, then member id)".into(), items });
        for &(_, m) in &order {
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
        let old = self.current.len(m);
        self.current.push(m, p);
        self.loads.resize(m, old, old + 1);
        self.cache.invalidate();
        self.trace.record(|| Step::Assign { partition: g.topic_partition(p), member: g.member_id(m).into() });
    }

    /// The first member in load order that subscribes to `t`.
    fn first_subscriber(&mut self, t: TopicIdx) -> Option<MemberIdx> {
        if let Some(found) = self.cache.first_subscriber(t) {
            return found;
        }
        let found = self.loads.members().map(|(_, m)| m).find(|&m| self.subscribes(m, t));
        self.cache.set_first_subscriber(t, found);
        found
    }

    /// Phase 4: topics with fewer than two subscribers leave the candidates; members with every
    /// partition they can get, all of such topics, leave the load order.
    fn set_aside_fixed(&mut self, mut candidates: Candidates) -> Candidates {
        let g = self.g;
        let fixed_topic: Vec<bool> = self.subscriptions.subscribers.iter().map(|&n| n < 2).collect();
        candidates.all.retain(|&p| !fixed_topic[g.topic_of(p).ix()]);
        candidates.unassigned.retain(|&p| !fixed_topic[g.topic_of(p).ix()]);
        for m in g.members() {
            let size = self.current.len(m);
            let full = size as i32 >= self.subscriptions.max_size[m.ix()];
            if full && self.current.iter(m).all(|p| fixed_topic[g.topic_of(p).ix()]) {
                self.loads.set_aside(m, size);
                self.trace.record(|| Step::Note {
                    text: format!("{} holds all it can of topics no one else takes: set aside", g.member_id(m)),
                });
            }
        }
        self.cache.invalidate();
        candidates
    }

    /// Phases 5 and 6: balancing, undone when it did not lower the balance score.
    fn balance(&mut self, candidates: Candidates) -> Result<(), AssignError> {
        self.undo.recording = true;
        let score_before = self.loads.score();
        if !candidates.revocation_required {
            self.trace.record(|| Step::Note { text: "balance by moving newly assigned partitions first".into() });
            self.perform(&candidates.unassigned)?;
        }
        self.trace.record(|| Step::Note { text: "balance over all partitions that can move".into() });
        let performed = self.perform(&candidates.all)?;
        if !candidates.initializing && performed && self.loads.score() >= score_before {
            self.undo_balancing();
        }
        Ok(())
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
                let Some(c) = self.current.owner(p) else {
                    return Err(npe("a partition to balance has no owner"));
                };
                if let Some(prev) = self.previous.owner(p) {
                    if self.loads.is_set_aside(prev) {
                        return Err(npe(&format!(
                            "{} previously owned {} but was set aside from balancing",
                            g.member_id(prev),
                            g.topic_partition(p)
                        )));
                    }
                    if self.current.len(c) > self.current.len(prev) + 1 {
                        self.reassign(p, prev)?;
                        modified = true;
                        performed = true;
                        continue;
                    }
                }
                let Some(n) = self.first_subscriber(g.topic_of(p)) else {
                    return Err(npe("no member to move a partition to"));
                };
                if self.current.len(c) > self.current.len(n) + 1 {
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
        self.budget.spend()?;
        let t = g.topic_of(p);
        let Some(owner) = self.current.owner(p) else {
            return Err(npe("a partition to move has no owner"));
        };
        let x = self.movements.actual(p, t, owner, to);
        let Some(from) = self.current.owner(x) else {
            return Err(npe("a partition to move has no owner"));
        };
        let (from_size, to_size) = (self.current.len(from), self.current.len(to));
        let hash = java::topic_partition_hash(g.topic(t).hash, g.number(x));
        self.movements.record(x, t, hash, from, to);
        self.undo.save(from, &self.current);
        self.undo.save(to, &self.current);
        self.current.remove(x);
        self.current.push(to, x);
        self.loads.resize(from, from_size, self.current.len(from));
        self.loads.resize(to, to_size, self.current.len(to));
        self.cache.invalidate();
        self.trace.record(|| Step::Move {
            partition: g.topic_partition(x),
            from: g.member_id(from).into(),
            to: g.member_id(to).into(),
        });
        Ok(())
    }

    /// Phase 6: the balancing did not lower the score; every list it changed goes back.
    fn undo_balancing(&mut self) {
        let g = self.g;
        self.trace.record(|| Step::Note { text: "balancing did not improve the balance score: undo it".into() });
        let saved = std::mem::take(&mut self.undo.saved);
        if self.trace.enabled() {
            // Replayed, these rebuild the saved lists exactly, order included.
            for (m, _) in &saved {
                for p in self.current.iter(*m) {
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
            self.current.replace(m, list);
        }
    }

    /// `isBalanced`, cached until the next size change.
    fn balanced(&mut self) -> Result<bool, AssignError> {
        if let Some(balanced) = self.cache.balanced() {
            return Ok(balanced);
        }
        let balanced = self.compute_balanced()?;
        self.cache.set_balanced(balanced);
        Ok(balanced)
    }

    /// Balanced when the load order's ends differ by at most one, or when no member that could
    /// take more (its size is not its maximum) subscribes to a topic with a partition held by a
    /// member two or more partitions larger (KAFKA-15106). Per topic that is: the smallest such
    /// subscriber + 2 > the largest owner of one of its partitions.
    fn compute_balanced(&mut self) -> Result<bool, AssignError> {
        let (Some(min), Some(max)) = (self.loads.smallest(), self.loads.largest()) else {
            return Err(AssignError::KafkaThrows("NoSuchElementException: no member left to balance".into()));
        };
        if min + 1 >= max {
            return Ok(true);
        }
        for (size, c) in self.loads.members() {
            if size + 2 > max {
                break;
            }
            if size as i32 == self.subscriptions.max_size[c.ix()] {
                continue;
            }
            for &t in &self.g.member_topics[c.ix()] {
                self.cache.offer_min_subscriber(t, size);
            }
        }
        for (size, o) in self.loads.members().rev() {
            if size < min + 2 {
                break;
            }
            for p in self.current.iter(o) {
                if self.cache.min_subscriber(self.g.topic_of(p)).is_some_and(|smallest| smallest + 2 <= size) {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }
}

/// `prevAssignment`: per partition, a member of an older generation that owned it; empty when no
/// member is of an older generation.
struct PreviousOwners {
    member: Vec<MaybeMember>,
    generation: Vec<i32>,
}

impl PreviousOwners {
    /// Phase 1: partitions that members of older generations owned (KIP-341), the highest such
    /// generation winning, ties to the first member in `HashMap` order.
    fn read(g: &Prepared, hash_order: &[MemberIdx], data: &MemberData, max_generation: i32) -> Self {
        let mut previous = PreviousOwners { member: Vec::new(), generation: Vec::new() };
        for &m in hash_order {
            let gen = match data.generation[m.ix()] {
                Some(gen) if gen < max_generation => gen,
                None if max_generation > -1 => -1,
                _ => continue,
            };
            if previous.member.is_empty() && !data.owned[m.ix()].is_empty() {
                previous.member = vec![MaybeMember::NONE; g.partition_count()];
                previous.generation = vec![0; g.partition_count()];
            }
            for &p in &data.owned[m.ix()] {
                if previous.member[p.ix()].is_none() || gen > previous.generation[p.ix()] {
                    previous.member[p.ix()] = m.into();
                    previous.generation[p.ix()] = gen;
                }
            }
        }
        previous
    }

    fn owner(&self, p: PartitionIdx) -> Option<MemberIdx> {
        self.member.get(p.ix()).and_then(|m| m.get())
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
        let (mut b, _) = General::start(&g, &hash_order, &data, &own, &racks, &mut steps);
        let lists = |b: &General<'_, '_, '_, '_, Vec<Step>>| g.members().map(|m| b.current.list(m)).collect::<Vec<_>>();
        let before = lists(&b);
        b.undo.recording = true;
        let (bb, c) = (MemberIdx(1), MemberIdx(2));
        for (p, to) in [(1, c), (4, c), (0, bb)] {
            b.reassign(PartitionIdx(p), to).unwrap_or_else(|e| panic!("{e}"));
        }
        assert_ne!(lists(&b), before);
        b.undo_balancing();
        assert_eq!(lists(&b), before);
        let names: Vec<String> = g.members().map(|m| g.member_id(m).to_string()).collect();
        let replayed = replay(&names, &steps);
        for m in g.members() {
            let expected: Vec<crate::TopicPartition> = before[m.ix()].iter().map(|&p| g.topic_partition(p)).collect();
            assert_eq!(replayed[g.member_id(m)], expected);
        }
    }
}
