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
//! Traced, each builder's decisions come in Kafka's order: the homogeneous builder's quotas, each
//! member's kept and given-back partitions, and what the members under quota take; the heterogeneous
//! builder's kept partitions, each topic's unowned partitions dealt, and the balancing passes' moves.
//!
//! Homogeneous example: topic `a` with 3 partitions, members A then B in member-map order, B owning
//! all three. The quotas are 2 for A (first, so it gets the extra one) and 1 for B: B keeps one
//! partition and gives two back, and A takes them.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::target::{GroupSpec, MemberLists, OwnedTopic, SpecMember, TopicIdx};
use super::{CoordinatorError, SubscriptionType};
use crate::java;
use crate::model::TopicPartition;
use crate::trace::{LossReason, Step, Tracer};

pub(crate) fn assign<T: Tracer>(spec: &GroupSpec<'_>, trace: &mut T) -> Result<MemberLists, CoordinatorError> {
    if spec.members.is_empty() {
        return Ok(Vec::new());
    }
    match spec.subscription_type {
        SubscriptionType::Homogeneous => homogeneous(spec, trace),
        SubscriptionType::Heterogeneous => Heterogeneous::new(spec, trace).build(),
    }
}

/// `UniformHomogeneousAssignmentBuilder.build`.
fn homogeneous<T: Tracer>(spec: &GroupSpec<'_>, trace: &mut T) -> Result<MemberLists, CoordinatorError> {
    let members = &spec.members;
    trace.record(|| Step::Note {
        text: "every member subscribes to the same topics: uniform's homogeneous builder".into(),
    });
    // The topics are the first member's, copied into a `HashSet<Uuid>` sized by `TopicIds.size()`.
    let (first_topics, names) = spec.subscription_in_java_order(&members[0]);
    let hashes: Vec<i32> = first_topics.iter().map(|t| spec.topic_ids[t.ix()].java_hash()).collect();
    let topic_order: Vec<TopicIdx> =
        java::iteration_order_in(&hashes, java::Link::Tail, java::copied_set_table_size(names))
            .into_iter()
            .map(|i| first_topics[i])
            .collect();
    trace.record(|| Step::Order {
        name: "topics (the first member's subscription, a HashSet of topic ids)".into(),
        items: topic_order.iter().map(|t| spec.topic_names[t.ix()].to_string()).collect(),
    });
    if topic_order.is_empty() {
        trace.record(|| Step::Note { text: "no subscribed topic exists: nobody gets anything".into() });
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
    trace.record(|| Step::UniformQuota {
        partitions: total,
        members: members.len(),
        per_member: minimum_quota,
        extra: extra_left,
    });
    trace.record(|| Step::Order {
        name: "members (the coordinator's member map, a HashMap by member id)".into(),
        items: members.iter().map(|m| m.id.to_string()).collect(),
    });
    let mut lists: MemberLists = Vec::with_capacity(members.len());
    let mut unfilled: Vec<(usize, u64)> = Vec::new();
    for (m, member) in members.iter().enumerate() {
        let mut quota = minimum_quota;
        if extra_left > 0 {
            quota += 1;
            extra_left -= 1;
        }
        trace.record(|| Step::MemberQuota { member: member.id.into(), quota, extra: quota > minimum_quota });
        let mut kept: Vec<(TopicIdx, u32)> = Vec::new();
        // The map's order matters only once a member owns more than its quota (or to show Kafka's order).
        let owned_total = member.owned_partitions.len();
        let owned = if trace.enabled() || owned_total as u64 > quota {
            spec.owned_in_java_order(member)
        } else {
            member.owned.iter().collect()
        };
        for entry in owned {
            let Some(t) = entry.topic.filter(|t| subscribed[t.ix()]) else {
                // An unsubscribed or deleted topic is dropped whole.
                if trace.enabled() {
                    dropped(spec, member, entry, trace);
                }
                continue;
            };
            let partitions = member.partitions(entry);
            let size = partitions.len() as u64;
            if size <= quota {
                quota -= size;
                kept.extend(partitions.iter().map(|&p| (t, p)));
                if trace.enabled() {
                    for &p in GroupSpec::partitions_in_java_order(partitions).iter() {
                        trace.record(|| Step::Keep { partition: spec.topic_partition(t, p), member: member.id.into() });
                    }
                }
            } else {
                for &p in GroupSpec::partitions_in_java_order(partitions).iter() {
                    if quota > 0 {
                        quota -= 1;
                        kept.push((t, p));
                        trace.record(|| Step::Keep { partition: spec.topic_partition(t, p), member: member.id.into() });
                    } else {
                        unassigned.push((t, p));
                        trace.record(|| Step::Lose {
                            partition: spec.topic_partition(t, p),
                            member: member.id.into(),
                            reason: LossReason::OverQuota,
                        });
                    }
                }
            }
        }
        if quota > 0 {
            unfilled.push((m, quota));
        }
        lists.push(kept);
    }

    trace.record(|| Step::Order {
        name: "unassigned partitions (nobody's, topics in the order above, then those given back)".into(),
        items: unassigned.iter().map(|&(t, p)| spec.topic_partition(t, p).to_string()).collect(),
    });
    trace.record(|| Step::Order {
        name: "members under their quota, in member order, with the room each has left".into(),
        items: unfilled.iter().map(|&(m, quota)| format!("{} ({quota})", members[m].id)).collect(),
    });
    // A partition two targets held can come back to a member that kept it: a set holds it once.
    let held_twice = if trace.enabled() { spec.held_twice() } else { HashSet::new() };
    let mut next = 0;
    for (m, quota) in unfilled {
        let take = (quota as usize).min(unassigned.len() - next);
        if trace.enabled() {
            for &(t, p) in &unassigned[next..next + take] {
                let partition = spec.topic_partition(t, p);
                let member = members[m].id.to_string();
                if held_twice.contains(&(t, p)) && lists[m].contains(&(t, p)) {
                    trace.record(|| Step::Note { text: already_held(&partition, &member) });
                } else {
                    trace.record(|| Step::Assign { partition, member });
                }
            }
        }
        lists[m].extend_from_slice(&unassigned[next..next + take]);
        next += take;
    }
    if next < unassigned.len() {
        trace.record(|| Step::Note {
            text: match unassigned.len() - next {
                1 => "1 partition is left over: no member has room for it".to_string(),
                left => format!("{left} partitions are left over: no member has room for them"),
            },
        });
        return Err(CoordinatorError::PartitionAssignor("Partitions were left unassigned"));
    }
    // The assignor returns sets; the answer lists them sorted.
    trace.record(|| Step::SortLists);
    Ok(lists)
}

/// The note for a partition handed to a member whose target holds it already (two targets held it):
/// a set holds it once.
fn already_held(partition: &TopicPartition, member: &str) -> String {
    format!("give {partition} to {member}, which holds it already: its target, a set, does not change")
}

/// The steps for a topic of `member`'s current target that its new target drops whole: a topic it no
/// longer subscribes to, or one deleted.
fn dropped<T: Tracer>(spec: &GroupSpec<'_>, member: &SpecMember<'_>, entry: &OwnedTopic, trace: &mut T) {
    match entry.topic {
        Some(t) => {
            for &p in GroupSpec::partitions_in_java_order(member.partitions(entry)).iter() {
                trace.record(|| Step::Lose {
                    partition: spec.topic_partition(t, p),
                    member: member.id.into(),
                    reason: LossReason::NotSubscribed,
                });
            }
        }
        None => trace.record(|| Step::Note {
            text: format!("drop topic id {} from {}'s current target: the topic no longer exists", entry.id, member.id),
        }),
    }
}

/// The most balancing passes over the topics (`MAX_ITERATION_COUNT`).
const MAX_BALANCE_PASSES: usize = 16;

/// No owner yet.
const UNOWNED: i32 = -1;

/// `UniformHeterogeneousAssignmentBuilder`'s working state. Members are numbered in member-map order;
/// that number breaks every tie.
struct Heterogeneous<'s, 'a, 't, T> {
    spec: &'s GroupSpec<'a>,
    trace: &'t mut T,
    /// Per topic, its subscribers in ascending member number; empty for unsubscribed topics.
    subscribers: Vec<Vec<u32>>,
    /// Per topic, per partition, the owning member number or [`UNOWNED`].
    owners: Vec<Vec<i32>>,
    /// Per member, the size of its target so far.
    sizes: Vec<i32>,
    /// Per member, its target: a set, as Java's (a partition claimed twice stays with both).
    targets: Vec<BTreeSet<(TopicIdx, u32)>>,
}

impl<'s, 'a, 't, T: Tracer> Heterogeneous<'s, 'a, 't, T> {
    fn new(spec: &'s GroupSpec<'a>, trace: &'t mut T) -> Self {
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
            trace,
            subscribers,
            owners,
            sizes: vec![0; spec.members.len()],
            targets: vec![BTreeSet::new(); spec.members.len()],
        }
    }

    fn build(mut self) -> Result<MemberLists, CoordinatorError> {
        let spec = self.spec;
        self.trace.record(|| Step::Note {
            text: "members subscribe to different topics: uniform's heterogeneous builder (as Kafka 4.0 rewrote it, \
                   KAFKA-17710)"
                .into(),
        });
        self.trace.record(|| Step::Order {
            name: "members (numbered in member-map order; the number breaks ties)".into(),
            items: spec.members.iter().map(|m| m.id.to_string()).collect(),
        });
        if self.subscribers.iter().all(Vec::is_empty) {
            self.trace.record(|| Step::Note { text: "no subscribed topic exists: nobody gets anything".into() });
            return Ok(vec![Vec::new(); self.spec.members.len()]);
        }
        self.keep_subscribed_owned()?;
        self.assign_unowned();
        self.balance();
        // The assignor returns sets; the answer lists them sorted.
        self.trace.record(|| Step::SortLists);
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
            if self.trace.enabled() {
                // What the member keeps, and what it drops, in its map's order.
                for entry in spec.owned_in_java_order(member) {
                    match entry.topic.filter(|t| subscribed_by[t.ix()] == m) {
                        Some(t) => {
                            for &p in GroupSpec::partitions_in_java_order(member.partitions(entry)).iter() {
                                self.trace.record(|| Step::Keep {
                                    partition: spec.topic_partition(t, p),
                                    member: member.id.into(),
                                });
                            }
                        }
                        None => dropped(spec, member, entry, self.trace),
                    }
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
        let sorted = self.sorted_topics(with_unowned.into_iter());
        let spec = self.spec;
        if sorted.is_empty() {
            self.trace.record(|| Step::Note {
                text: "every partition of a subscribed topic is kept: nothing to deal".into(),
            });
        } else {
            self.trace.record(|| Step::Order {
                name: "topics with unowned partitions (most partitions per subscriber first, then fewest subscribers, \
                       then topic id)"
                    .into(),
                items: sorted.iter().map(|t| spec.topic_names[t.ix()].to_string()).collect(),
            });
        }
        let mut balancer = Balancer::default();
        for t in sorted {
            balancer.initialize(&self.subscribers[t.ix()], &self.sizes);
            if self.trace.enabled() {
                let unowned = self.owners[t.ix()].iter().filter(|&&owner| owner == UNOWNED).count();
                self.trace.record(|| Step::Note {
                    text: format!(
                        "deal {}'s {unowned} unowned partition{} to its subscribers, least loaded first",
                        spec.topic_names[t.ix()],
                        if unowned == 1 { "" } else { "s" }
                    ),
                });
                self.record_subscribers_by_load(t);
            }
            for p in 0..self.spec.partitions(t) {
                if self.owners[t.ix()][p as usize] == UNOWNED {
                    let to = balancer.next_least_loaded(&self.sizes);
                    self.trace.record(|| Step::Assign {
                        partition: spec.topic_partition(t, p),
                        member: spec.members[to as usize].id.into(),
                    });
                    self.assign_partition(t, p, to);
                }
            }
        }
    }

    /// The order the balancer starts a topic from: its subscribers by load, then member number.
    fn record_subscribers_by_load(&mut self, t: TopicIdx) {
        let mut subscribers = self.subscribers[t.ix()].clone();
        subscribers.sort_by_key(|&m| (self.sizes[m as usize], m));
        let (spec, sizes) = (self.spec, &self.sizes);
        self.trace.record(|| Step::Order {
            name: "subscribers by load (partitions held, then member number)".into(),
            items: subscribers
                .iter()
                .map(|&m| format!("{} ({})", spec.members[m as usize].id, sizes[m as usize]))
                .collect(),
        });
    }

    /// `balance` and `balanceTopics`: passes over the topics with two subscribers or more, until a
    /// whole pass moves nothing or the pass limit is reached.
    fn balance(&mut self) {
        let topics: Vec<TopicIdx> = self.subscribed_topics().filter(|t| self.subscribers[t.ix()].len() >= 2).collect();
        if topics.is_empty() {
            self.trace
                .record(|| Step::Note { text: "no topic has two subscribers or more: nothing to balance".into() });
            return;
        }
        let sorted = self.sorted_topics(topics.into_iter());
        let spec = self.spec;
        self.trace.record(|| Step::Order {
            name: "topics to balance (two subscribers or more, in the same order)".into(),
            items: sorted.iter().map(|t| spec.topic_names[t.ix()].to_string()).collect(),
        });
        let mut last_rebalanced: Option<usize> = None;
        let mut balancer = Balancer::default();
        for pass in 1..=MAX_BALANCE_PASSES {
            self.trace.record(|| Step::Note {
                text: format!("balancing pass {pass} over the topics (at most {MAX_BALANCE_PASSES})"),
            });
            for (index, &t) in sorted.iter().enumerate() {
                if last_rebalanced == Some(index) {
                    self.trace.record(|| Step::Note {
                        text: "a whole round of the topics since the last move moved nothing: balanced".into(),
                    });
                    return;
                }
                let moved = self.balance_topic(t, &mut balancer);
                if moved > 0 || last_rebalanced.is_none() {
                    last_rebalanced = Some(index);
                }
            }
        }
        self.trace.record(|| Step::Note {
            text: format!("{MAX_BALANCE_PASSES} passes: Kafka stops balancing here (MAX_ITERATION_COUNT)"),
        });
    }

    /// `balanceTopic`: move partitions of `t` from its most-loaded subscribers (each one's highest
    /// partition first) to its least-loaded ones. Returns how many moved.
    fn balance_topic(&mut self, t: TopicIdx, balancer: &mut Balancer) -> usize {
        let imbalance = balancer.initialize(&self.subscribers[t.ix()], &self.sizes);
        if imbalance <= 1 {
            return 0;
        }
        if self.trace.enabled() {
            let (spec, sizes) = (self.spec, &self.sizes);
            let held = self.subscribers[t.ix()].iter().map(|&m| sizes[m as usize]);
            let (least, most) = (held.clone().min().unwrap_or(0), held.max().unwrap_or(0));
            self.trace.record(|| Step::Note {
                text: format!(
                    "balance {}: its subscribers hold {least} to {most} partitions; move the most loaded ones' \
                     highest partitions to the least loaded",
                    spec.topic_names[t.ix()]
                ),
            });
            self.record_subscribers_by_load(t);
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
            let Some(giver) = giver else {
                let topic = self.spec.topic_names[t.ix()];
                self.trace.record(|| Step::Note {
                    text: format!("stop balancing {topic}: no more loaded subscriber holds a partition of it to give"),
                });
                break;
            };
            let Some(slot) = end.get_mut(&giver) else { break };
            *slot -= 1;
            let partition = partitions[*slot];
            let taker = balancer.next_least_loaded(&self.sizes);
            if balancer.is_balanced() {
                let topic = self.spec.topic_names[t.ix()];
                self.trace.record(|| Step::Note {
                    text: format!(
                        "stop balancing {topic}: the subscribers left to give and to take are within one partition"
                    ),
                });
                break;
            }
            self.record_move(t, partition, taker);
            self.assign_partition(t, partition, taker);
            moved += 1;
        }
        moved
    }

    /// The step for a balancing move of `p` to `to`, from its owner.
    fn record_move(&mut self, t: TopicIdx, p: u32, to: u32) {
        if !self.trace.enabled() {
            return;
        }
        let spec = self.spec;
        let from = self.owners[t.ix()][p as usize];
        let (partition, to_id) = (spec.topic_partition(t, p), spec.members[to as usize].id.to_string());
        let Some(from) = usize::try_from(from).ok().map(|f| spec.members[f].id.to_string()) else {
            self.trace.record(|| Step::Assign { partition, member: to_id });
            return;
        };
        if self.targets[to as usize].contains(&(t, p)) {
            // Two targets held it: `to` still does, a set holds it once.
            self.trace.record(|| Step::Revoke { partition: partition.clone(), member: from });
            self.trace.record(|| Step::Note { text: already_held(&partition, &to_id) });
        } else {
            self.trace.record(|| Step::Move { partition, from, to: to_id });
        }
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
