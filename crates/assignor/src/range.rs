//! `range`: each topic on its own, its partitions cut into consecutive ranges, one per subscriber.
//!
//! With topics `t0` (3 partitions) and `t1` (3) and consumers `C0`, `C1` subscribed to both:
//! `C0: [t0-0, t0-1, t1-0, t1-1]`, `C1: [t0-2, t1-2]`. The first consumers of every topic get the
//! extra partition, which is why range piles load on the same members as topics are added.
//!
//! Static members (`group.instance.id`, KIP-345) sort first, by instance id, so a restart keeps the
//! ranges (KAFKA-8355). With racks (KIP-881), partitions are first matched to consumers on a rack
//! holding a replica, still within each consumer's quota, and topics with the same subscribers and
//! partition count stay co-partitioned (KAFKA-14891).

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashSet};

use crate::java;
use crate::prepared::{use_rack_aware, MemberIdx, PartitionIdx, Prepared, RackIdx, TopicIdx};
use crate::trace::{SkipReason, Step, Tracer};

/// Range's member order (`MemberInfo.compareTo`): static members first, by `group.instance.id`;
/// then dynamic members by `member.id`. Ties keep `subscriptions` iteration order.
pub(crate) fn member_order(g: &Prepared, hash_order: &[MemberIdx]) -> Vec<MemberIdx> {
    let mut order = hash_order.to_vec();
    order.sort_by(|&a, &b| {
        let (sa, sb) = (g.subscription(a), g.subscription(b));
        match (&sa.group_instance_id, &sb.group_instance_id) {
            (Some(ia), Some(ib)) => java::cmp_str(ia, ib),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => g.member_rank[a.ix()].cmp(&g.member_rank[b.ix()]),
        }
    });
    order
}

/// One topic's ranges being handed out.
struct TopicState {
    topic: TopicIdx,
    /// Subscribers in member order.
    consumers: Vec<MemberIdx>,
    per_consumer: u32,
    extra: u32,
    /// Partitions not yet assigned, ascending.
    unassigned: Vec<PartitionIdx>,
    /// How many partitions of this topic each consumer (by position in `consumers`) holds.
    count: Vec<u32>,
    /// How many consumers already hold `per_consumer + 1`.
    over: u32,
    /// Whether this topic alone calls for rack matching.
    needs_rack: bool,
    /// Whether any consumer of the topic has a rack (then replica racks are looked at at all).
    consumers_have_racks: bool,
}

impl TopicState {
    fn max_assignable(&self, slot: usize) -> u32 {
        let has_extra = u32::from(self.over < self.extra);
        (self.per_consumer + has_extra).saturating_sub(self.count[slot])
    }

    fn take(&mut self, slot: usize, partitions: &[PartitionIdx], lists: &mut [Vec<PartitionIdx>]) {
        let member = self.consumers[slot];
        let before = self.count[slot];
        self.count[slot] += partitions.len() as u32;
        if before <= self.per_consumer && self.count[slot] > self.per_consumer {
            self.over += 1;
        }
        lists[member.ix()].extend_from_slice(partitions);
    }
}

/// Whether `member` may take partition `p` under rack matching: a rackless consumer matches anything.
fn racks_match(g: &Prepared, member: MemberIdx, p: PartitionIdx) -> bool {
    match g.racks.member[member.ix()] {
        None => true,
        Some(rack) => g.racks.of_partition(p).contains(&rack),
    }
}

pub(crate) fn assign<T: Tracer>(
    g: &Prepared,
    hash_order: &[MemberIdx],
    topic_order: &[TopicIdx],
    trace: &mut T,
) -> Vec<Vec<PartitionIdx>> {
    let members = member_order(g, hash_order);
    trace.record(|| Step::Order {
        name: "members (static by group.instance.id first, then by member.id)".into(),
        items: members.iter().map(|&m| g.member_id(m).to_string()).collect(),
    });
    let mut position = vec![0usize; g.member_count()];
    for (i, m) in members.iter().enumerate() {
        position[m.ix()] = i;
    }
    let mut lists: Vec<Vec<PartitionIdx>> = vec![Vec::new(); g.member_count()];
    let mut states: Vec<TopicState> = topic_order
        .iter()
        .filter(|&&t| g.topic(t).partitions > 0)
        .map(|&t| topic_state(g, &position, t))
        .filter(|s| !s.consumers.is_empty())
        .collect();

    let use_rack = states.iter().any(|s| s.needs_rack);
    if use_rack {
        trace.record(|| Step::Note {
            text: "some consumers have racks that hold only some replicas: match racks first (KIP-881)".into(),
        });
        assign_rack_aware(g, &mut states, &mut lists, trace);
    }
    for state in &mut states {
        trace.record(|| Step::RangeQuota {
            topic: g.topic(state.topic).name.to_string(),
            consumers: state.consumers.len(),
            per_consumer: state.per_consumer,
            extra: state.extra,
        });
        assign_ranges(g, state, &mut lists, false, trace);
    }
    if use_rack {
        for list in &mut lists {
            list.sort_by_key(|&p| g.sort_key(p));
        }
        trace.record(|| Step::SortLists);
    }
    lists
}

fn topic_state(g: &Prepared, position: &[usize], topic: TopicIdx) -> TopicState {
    let mut consumers = g.topic_subscribers[topic.ix()].clone();
    consumers.sort_by_key(|m| position[m.ix()]);
    let n = g.topic(topic).partitions;
    let k = consumers.len() as u32;
    let consumer_racks: HashSet<RackIdx> = consumers.iter().filter_map(|&m| g.racks.member[m.ix()]).collect();
    let needs_rack = use_rack_aware(&consumer_racks, g.partitions_of(topic).map(|p| g.racks.of_partition(p)));
    TopicState {
        topic,
        per_consumer: n.checked_div(k).unwrap_or(0),
        extra: n.checked_rem(k).unwrap_or(0),
        unassigned: g.partitions_of(topic).collect(),
        count: vec![0; consumers.len()],
        over: 0,
        needs_rack,
        consumers_have_racks: !consumer_racks.is_empty(),
        consumers,
    }
}

/// Phase R: co-partitioned groups of topics first, then single rack-aware topics, each partition
/// only to a consumer on a rack with a replica.
fn assign_rack_aware<T: Tracer>(
    g: &Prepared,
    states: &mut [TopicState],
    lists: &mut [Vec<PartitionIdx>],
    trace: &mut T,
) {
    // Topics with the same subscribers and the same number of rack-annotated partitions.
    let mut groups: BTreeMap<(Vec<MemberIdx>, u32), Vec<usize>> = BTreeMap::new();
    for (i, s) in states.iter().enumerate() {
        let rack_partitions = if s.consumers_have_racks { g.topic(s.topic).partitions } else { 0 };
        groups.entry((s.consumers.clone(), rack_partitions)).or_default().push(i);
    }
    for ((consumers, size), topics) in groups {
        if topics.len() >= 2 {
            assign_co_partitioned(g, states, &topics, &consumers, size, lists, trace);
        } else if let Some(s) = topics.first().and_then(|&i| states.get_mut(i)) {
            if s.needs_rack {
                assign_ranges(g, s, lists, true, trace);
            }
        }
    }
}

/// Partition `p` of every topic of a co-partitioned group goes to the same consumer.
fn assign_co_partitioned<T: Tracer>(
    g: &Prepared,
    states: &mut [TopicState],
    topics: &[usize],
    consumers: &[MemberIdx],
    size: u32,
    lists: &mut [Vec<PartitionIdx>],
    trace: &mut T,
) {
    trace.record(|| Step::Note {
        text: format!(
            "topics {} have the same subscribers and partition count: keep them co-partitioned",
            topics.iter().map(|&i| g.topic(states[i].topic).name.to_string()).collect::<Vec<_>>().join(", ")
        ),
    });
    let mut remaining: Vec<usize> = (0..consumers.len()).collect();
    for number in 0..size {
        if remaining.is_empty() {
            break;
        }
        let fits = |slot: usize, states: &[TopicState]| {
            topics.iter().all(|&i| {
                let s = &states[i];
                let p = PartitionIdx(g.topic(s.topic).first + number);
                racks_match(g, s.consumers[slot], p) && s.max_assignable(slot) > 0
            })
        };
        let Some(pos) = remaining.iter().position(|&slot| fits(slot, states)) else {
            continue;
        };
        let slot = remaining[pos];
        for &i in topics {
            let s = &mut states[i];
            let p = PartitionIdx(g.topic(s.topic).first + number);
            s.take(slot, &[p], lists);
            s.unassigned.retain(|&q| q != p);
            trace.record(|| Step::Assign {
                partition: g.topic_partition(p),
                member: g.member_id(s.consumers[slot]).into(),
            });
        }
        if topics.iter().all(|&i| states[i].max_assignable(slot) == 0) {
            remaining.remove(pos);
        }
    }
}

/// Kafka's `assignRanges`: each consumer in order takes the next partitions still unassigned, up
/// to its quota; with `rack_only`, only partitions with a replica on its rack.
fn assign_ranges<T: Tracer>(
    g: &Prepared,
    s: &mut TopicState,
    lists: &mut [Vec<PartitionIdx>],
    rack_only: bool,
    trace: &mut T,
) {
    // Without the rack filter every consumer takes the next run of the (ascending) unassigned
    // partitions, so a cursor replaces removing them one consumer at a time.
    let mut next = 0;
    for slot in 0..s.consumers.len() {
        let Some(&first) = s.unassigned.get(next) else {
            break;
        };
        let member = s.consumers[slot];
        let quota = s.max_assignable(slot) as usize;
        if quota == 0 {
            trace.record(|| Step::Skip {
                partition: g.topic_partition(first),
                member: g.member_id(member).into(),
                reason: SkipReason::OverQuota,
            });
            continue;
        }
        let taken: Vec<PartitionIdx> = if rack_only {
            s.unassigned.iter().copied().filter(|&p| racks_match(g, member, p)).take(quota).collect()
        } else {
            s.unassigned.iter().skip(next).copied().take(quota).collect()
        };
        if taken.is_empty() {
            continue;
        }
        s.take(slot, &taken, lists);
        if rack_only {
            s.unassigned.retain(|p| !taken.contains(p));
        } else {
            next += taken.len();
        }
        if trace.enabled() {
            for &p in &taken {
                trace.record(|| Step::Assign { partition: g.topic_partition(p), member: g.member_id(member).into() });
            }
        }
    }
    s.unassigned.drain(..next);
}
