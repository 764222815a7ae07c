//! `UniformAssignor`, the coordinator's default (`uniform`): balance first, then stickiness. It picks
//! a builder by the group's subscription type.
//!
//! - Homogeneous (`UniformHomogeneousAssignmentBuilder`): one quota for everyone. The first
//!   `total % members` members *in member-map order* get one partition more, whatever they own; each
//!   keeps its owned partitions up to its quota, and the under-quota members, in the same order, take
//!   the rest: first the partitions nobody owned (topics in `HashSet<Uuid>` order, so topic ids
//!   matter), then those given back.
//! - Heterogeneous (`UniformHeterogeneousAssignmentBuilder`, rewritten by KAFKA-17710 for 4.0): keep
//!   every owned partition still subscribed; deal the rest topic by topic (most partitions per
//!   subscriber first) to the least-loaded subscribers; then up to 16 passes over the topics move a
//!   most-loaded subscriber's highest partitions to the least-loaded until each topic's subscribers
//!   are within one partition.
//!
//! Homogeneous example: topic `a` with 3 partitions, members A then B in member-map order, B owning
//! all three. The quotas are 2 for A (first, so it gets the extra one) and 1 for B: B keeps one
//! partition and gives two back, and A takes them.

use std::collections::{BTreeSet, HashMap};

use super::target::{GroupSpec, MemberLists, TopicIdx};
use super::{CoordinatorError, SubscriptionType};
use crate::java;

pub(crate) fn assign(spec: &GroupSpec<'_>) -> Result<MemberLists, CoordinatorError> {
    if spec.members.is_empty() {
        return Ok(Vec::new());
    }
    match spec.subscription_type {
        SubscriptionType::Homogeneous => homogeneous(spec),
        SubscriptionType::Heterogeneous => Heterogeneous::new(spec).build(),
    }
}

/// `UniformHomogeneousAssignmentBuilder.build`.
fn homogeneous(spec: &GroupSpec<'_>) -> Result<MemberLists, CoordinatorError> {
    let members = &spec.members;
    // The topics are the first member's, copied into a `HashSet<Uuid>` sized by `TopicIds.size()`.
    let (first_topics, names) = spec.subscription_in_java_order(&members[0]);
    let hashes: Vec<i32> = first_topics.iter().map(|t| spec.topic_ids[t.ix()].java_hash()).collect();
    let topic_order: Vec<TopicIdx> =
        java::iteration_order_in(&hashes, java::Link::Tail, java::copied_set_table_size(names))
            .into_iter()
            .map(|i| first_topics[i])
            .collect();
    if topic_order.is_empty() {
        return Ok(vec![Vec::new(); members.len()]);
    }
    let mut subscribed = vec![false; spec.topic_count()];
    let mut unassigned: Vec<(TopicIdx, u32)> = Vec::new();
    let mut total: u64 = 0;
    for &t in &topic_order {
        subscribed[t.ix()] = true;
        let count = spec.partitions(t);
        unassigned.extend((0..count).filter(|&p| !spec.is_partition_assigned(t, p)).map(|p| (t, p)));
        total += u64::from(count);
    }

    let member_count = members.len() as u64;
    let minimum_quota = total / member_count;
    let mut extra_left = total % member_count;
    let mut lists: MemberLists = Vec::with_capacity(members.len());
    let mut unfilled: Vec<(usize, u64)> = Vec::new();
    for (m, member) in members.iter().enumerate() {
        let mut quota = minimum_quota;
        if extra_left > 0 {
            quota += 1;
            extra_left -= 1;
        }
        let mut kept: Vec<(TopicIdx, u32)> = Vec::new();
        // The map's order matters only once a member owns more than its quota.
        let owned_total = member.owned_partitions.len();
        let owned =
            if owned_total as u64 > quota { spec.owned_in_java_order(member) } else { member.owned.iter().collect() };
        for entry in owned {
            let Some(t) = entry.topic.filter(|t| subscribed[t.ix()]) else {
                continue; // an unsubscribed or deleted topic is dropped whole
            };
            let partitions = member.partitions(entry);
            let size = partitions.len() as u64;
            if size <= quota {
                quota -= size;
                kept.extend(partitions.iter().map(|&p| (t, p)));
            } else {
                for &p in GroupSpec::partitions_in_java_order(partitions).iter() {
                    if quota > 0 {
                        quota -= 1;
                        kept.push((t, p));
                    } else {
                        unassigned.push((t, p));
                    }
                }
            }
        }
        if quota > 0 {
            unfilled.push((m, quota));
        }
        lists.push(kept);
    }

    let mut next = 0;
    for (m, quota) in unfilled {
        let take = (quota as usize).min(unassigned.len() - next);
        lists[m].extend_from_slice(&unassigned[next..next + take]);
        next += take;
    }
    if next < unassigned.len() {
        return Err(CoordinatorError::PartitionAssignor("Partitions were left unassigned"));
    }
    Ok(lists)
}

/// The most balancing passes over the topics (`MAX_ITERATION_COUNT`).
const MAX_BALANCE_PASSES: usize = 16;

/// No owner yet.
const UNOWNED: i32 = -1;

/// `UniformHeterogeneousAssignmentBuilder`'s working state. Members are numbered in member-map order;
/// that number breaks every tie.
struct Heterogeneous<'s, 'a> {
    spec: &'s GroupSpec<'a>,
    /// Per topic, its subscribers in ascending member number; empty for unsubscribed topics.
    subscribers: Vec<Vec<u32>>,
    /// Per topic, per partition, the owning member number or [`UNOWNED`].
    owners: Vec<Vec<i32>>,
    /// Per member, the size of its target so far.
    sizes: Vec<i32>,
    /// Per member, its target: a set, as Java's (a partition claimed twice stays with both).
    targets: Vec<BTreeSet<(TopicIdx, u32)>>,
}

impl<'s, 'a> Heterogeneous<'s, 'a> {
    fn new(spec: &'s GroupSpec<'a>) -> Self {
        let mut subscribers = vec![Vec::new(); spec.topic_count()];
        for (m, member) in spec.members.iter().enumerate() {
            for t in &member.subscribed {
                subscribers[t.ix()].push(m as u32);
            }
        }
        let owners =
            (0..spec.topic_count())
                .map(|t| {
                    if subscribers[t].is_empty() {
                        Vec::new()
                    } else {
                        vec![UNOWNED; spec.partition_counts[t] as usize]
                    }
                })
                .collect();
        Heterogeneous {
            spec,
            subscribers,
            owners,
            sizes: vec![0; spec.members.len()],
            targets: vec![BTreeSet::new(); spec.members.len()],
        }
    }

    fn build(mut self) -> Result<MemberLists, CoordinatorError> {
        if self.subscribers.iter().all(Vec::is_empty) {
            return Ok(vec![Vec::new(); self.spec.members.len()]);
        }
        self.keep_subscribed_owned()?;
        self.assign_unowned();
        self.balance();
        Ok(self.targets.into_iter().map(|set| set.into_iter().collect()).collect())
    }

    /// `maybeRevokePartitions`: keep every owned partition of a topic still subscribed.
    fn keep_subscribed_owned(&mut self) -> Result<(), CoordinatorError> {
        let spec = self.spec;
        let mut subscribed_by = vec![usize::MAX; spec.topic_count()];
        for (m, member) in spec.members.iter().enumerate() {
            for t in &member.subscribed {
                subscribed_by[t.ix()] = m;
            }
            for entry in &member.owned {
                let Some(t) = entry.topic.filter(|t| subscribed_by[t.ix()] == m) else { continue };
                let length = self.owners[t.ix()].len() as u32;
                let partitions = member.partitions(entry);
                if let Some(&index) = partitions.iter().find(|&&p| p >= length) {
                    let listed_first = CoordinatorError::IndexOutOfBounds { index, length };
                    return Err(self.first_out_of_bounds(m).unwrap_or(listed_first));
                }
                self.sizes[m] += partitions.len() as i32;
                for &p in partitions {
                    self.owners[t.ix()][p as usize] = m as i32;
                    self.targets[m].insert((t, p));
                }
            }
        }
        Ok(())
    }

    /// The exception Java meets first in member `m`'s target, walking its map and sets in their
    /// iteration order.
    fn first_out_of_bounds(&self, m: usize) -> Option<CoordinatorError> {
        let member = &self.spec.members[m];
        self.spec.owned_in_java_order(member).into_iter().find_map(|entry| {
            let t = entry.topic.filter(|t| member.subscribed.contains(t))?;
            let length = self.owners[t.ix()].len() as u32;
            let partitions = GroupSpec::partitions_in_java_order(member.partitions(entry));
            let index = *partitions.iter().find(|&&p| p >= length)?;
            Some(CoordinatorError::IndexOutOfBounds { index, length })
        })
    }

    /// Topics by partitions per subscriber (descending), then subscribers (ascending), then id.
    fn sorted_topics(&self, topics: impl Iterator<Item = TopicIdx>) -> Vec<TopicIdx> {
        let mut sorted: Vec<TopicIdx> = topics.collect();
        let per_subscriber = |t: TopicIdx| f64::from(self.spec.partitions(t)) / self.subscribers[t.ix()].len() as f64;
        sorted.sort_by(|&a, &b| {
            per_subscriber(b)
                .total_cmp(&per_subscriber(a))
                .then(self.subscribers[a.ix()].len().cmp(&self.subscribers[b.ix()].len()))
                .then(self.spec.topic_ids[a.ix()].cmp(&self.spec.topic_ids[b.ix()]))
        });
        sorted
    }

    fn subscribed_topics(&self) -> impl Iterator<Item = TopicIdx> + '_ {
        (0..self.subscribers.len()).filter(|&t| !self.subscribers[t].is_empty()).map(|t| TopicIdx(t as u32))
    }

    /// `assignRemainingPartitions`: each topic's unowned partitions, ascending, to its least-loaded
    /// subscribers in turn.
    fn assign_unowned(&mut self) {
        let with_unowned: Vec<TopicIdx> =
            self.subscribed_topics().filter(|t| self.owners[t.ix()].contains(&UNOWNED)).collect();
        let mut balancer = Balancer::default();
        for t in self.sorted_topics(with_unowned.into_iter()) {
            balancer.initialize(&self.subscribers[t.ix()], &self.sizes);
            for p in 0..self.spec.partitions(t) {
                if self.owners[t.ix()][p as usize] == UNOWNED {
                    let to = balancer.next_least_loaded(&self.sizes);
                    self.assign_partition(t, p, to);
                }
            }
        }
    }

    /// `balance` and `balanceTopics`: passes over the topics with two subscribers or more, until a
    /// whole pass moves nothing or the pass limit is reached.
    fn balance(&mut self) {
        let topics: Vec<TopicIdx> = self.subscribed_topics().filter(|t| self.subscribers[t.ix()].len() >= 2).collect();
        if topics.is_empty() {
            return;
        }
        let sorted = self.sorted_topics(topics.into_iter());
        let mut last_rebalanced: Option<usize> = None;
        let mut balancer = Balancer::default();
        for _ in 0..MAX_BALANCE_PASSES {
            for (index, &t) in sorted.iter().enumerate() {
                if last_rebalanced == Some(index) {
                    return;
                }
                let moved = self.balance_topic(t, &mut balancer);
                if moved > 0 || last_rebalanced.is_none() {
                    last_rebalanced = Some(index);
                }
            }
        }
    }

    /// `balanceTopic`: move partitions of `t` from its most-loaded subscribers (each one's highest
    /// partition first) to its least-loaded ones. Returns how many moved.
    fn balance_topic(&mut self, t: TopicIdx, balancer: &mut Balancer) -> usize {
        let imbalance = balancer.initialize(&self.subscribers[t.ix()], &self.sizes);
        if imbalance <= 1 {
            return 0;
        }
        // Partitions grouped by owner, each owner's range ascending.
        let owners = &self.owners[t.ix()];
        let mut partitions: Vec<u32> = (0..owners.len() as u32).collect();
        partitions.sort_by_key(|&p| (owners[p as usize], p));
        let mut start: HashMap<i32, usize> = HashMap::new();
        let mut end: HashMap<i32, usize> = HashMap::new();
        for (i, &p) in partitions.iter().enumerate() {
            let owner = owners[p as usize];
            start.entry(owner).or_insert(i);
            end.insert(owner, i + 1);
        }

        let mut moved = 0;
        while !balancer.is_balanced() {
            let giver = loop {
                let Some(candidate) = balancer.next_most_loaded(&self.sizes) else { break None };
                let key = candidate as i32;
                let has_some = match (start.get(&key), end.get(&key)) {
                    (Some(&s), Some(&e)) => e > s,
                    _ => false,
                };
                if has_some {
                    break Some(key);
                }
                balancer.exclude_most_loaded();
            };
            let Some(giver) = giver else { break };
            let Some(slot) = end.get_mut(&giver) else { break };
            *slot -= 1;
            let partition = partitions[*slot];
            let taker = balancer.next_least_loaded(&self.sizes);
            if balancer.is_balanced() {
                break;
            }
            self.assign_partition(t, partition, taker);
            moved += 1;
        }
        moved
    }

    /// `assignPartition`: from its current owner, if any, to `to`.
    fn assign_partition(&mut self, t: TopicIdx, p: u32, to: u32) {
        let from = self.owners[t.ix()][p as usize];
        if from != UNOWNED {
            self.targets[from as usize].remove(&(t, p));
            self.sizes[from as usize] -= 1;
        }
        self.targets[to as usize].insert((t, p));
        self.owners[t.ix()][p as usize] = to as i32;
        self.sizes[to as usize] += 1;
    }
}

/// `MemberAssignmentBalancer`: a topic's subscribers sorted by load, with a least-loaded range that
/// grows rightwards as it fills and a most-loaded range that grows leftwards as it drains.
#[derive(Default)]
struct Balancer {
    sorted: Vec<u32>,
    least_end: usize,
    least_count: i32,
    next_least: usize,
    most_start: usize,
    most_end: usize,
    most_count: i32,
    /// `nextMostLoadedMember`, which Java lets go down to -1.
    next_most: isize,
}

impl Balancer {
    /// Resets for `members`; returns the spread between the most and the least loaded.
    fn initialize(&mut self, members: &[u32], sizes: &[i32]) -> i32 {
        self.sorted.clear();
        self.sorted.extend_from_slice(members);
        self.sorted.sort_by_key(|&m| (sizes[m as usize], m));
        let (Some(&least), Some(&most)) = (self.sorted.first(), self.sorted.last()) else { return 0 };
        let n = self.sorted.len();
        self.least_end = 0;
        self.least_count = sizes[least as usize] - 1;
        self.next_least = 0;
        self.most_start = n;
        self.most_end = n;
        self.most_count = sizes[most as usize] + 1;
        self.next_most = n as isize - 1;
        sizes[most as usize] - sizes[least as usize]
    }

    fn next_least_loaded(&mut self, sizes: &[i32]) -> u32 {
        if self.next_least >= self.least_end {
            self.least_count += 1;
            while self.least_end < self.sorted.len() && sizes[self.sorted[self.least_end] as usize] == self.least_count
            {
                self.least_end += 1;
            }
            self.next_least = 0;
        }
        let member = self.sorted[self.next_least];
        self.next_least += 1;
        member
    }

    fn next_most_loaded(&mut self, sizes: &[i32]) -> Option<u32> {
        if self.next_most < self.most_start as isize {
            if self.most_end <= self.most_start && self.most_start > 0 {
                // Emptied by exclusions: restart the level from the member just below the range.
                self.most_count = sizes[self.sorted[self.most_start - 1] as usize];
            } else {
                self.most_count -= 1;
            }
            while self.most_start > 0 && sizes[self.sorted[self.most_start - 1] as usize] == self.most_count {
                self.most_start -= 1;
            }
            self.next_most = self.most_end as isize - 1;
        }
        if self.next_most < 0 {
            return None;
        }
        let member = self.sorted[self.next_most as usize];
        self.next_most -= 1;
        Some(member)
    }

    /// Drops the member [`Self::next_most_loaded`] just returned from the most-loaded range.
    fn exclude_most_loaded(&mut self) {
        let at = (self.next_most + 1) as usize;
        self.sorted.swap(at, self.most_end - 1);
        self.most_end -= 1;
    }

    fn is_balanced(&self) -> bool {
        self.most_count - self.least_count <= 1
    }
}
