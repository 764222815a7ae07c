//! The server-side `RangeAssignor` (`range`), rewritten by KAFKA-16944 (3.9): no longer sticky, it
//! ignores what members own. Members are sorted (static members first by `group.instance.id`, then
//! the others by member id, both in Java string order); each topic is cut into contiguous ranges among
//! its subscribers, the first `partitions % subscribers` one partition longer. With every member on the
//! same topics, each gets the same partition numbers of every equally sized topic (co-partitioning).
//!
//! Topic `t` with 5 partitions, members A and B: A gets 0–2, B gets 3–4.
//!
//! Traced, the walk is Kafka's: the members in order, each topic's quota, then member after member
//! its range of each of its topics (topics in name order: they are independent).

use std::cmp::Ordering;

use super::target::{GroupSpec, MemberLists, TopicIdx};
use super::SubscriptionType;
use crate::java;
use crate::trace::{Step, Tracer};

pub(crate) fn assign<T: Tracer>(spec: &GroupSpec<'_>, trace: &mut T) -> MemberLists {
    let mut lists: MemberLists = vec![Vec::new(); spec.members.len()];
    if spec.members.is_empty() {
        return lists;
    }
    trace.record(|| Step::Note {
        text: match spec.subscription_type {
            SubscriptionType::Homogeneous => {
                "every member subscribes to the same topics: each topic's partitions are \
                                              cut into contiguous ranges over all members; current targets are \
                                              ignored (range is not sticky since KAFKA-16944)"
            }
            SubscriptionType::Heterogeneous => {
                "members subscribe to different topics: each topic's partitions are \
                                                cut into contiguous ranges over its subscribers; current targets are \
                                                ignored (range is not sticky since KAFKA-16944)"
            }
        }
        .into(),
    });
    let sorted = sorted_members(spec);
    trace.record(|| Step::Order {
        name: "members (static by group.instance.id first, then by member id)".into(),
        items: sorted.iter().map(|&m| spec.members[m].id.to_string()).collect(),
    });
    // Per topic: subscribers counted (homogeneous: every member), then where the next range starts.
    let mut subscribers = vec![0u32; spec.topic_count()];
    match spec.subscription_type {
        SubscriptionType::Homogeneous => {
            for t in &spec.members[sorted[0]].subscribed {
                subscribers[t.ix()] = spec.members.len() as u32;
            }
        }
        SubscriptionType::Heterogeneous => {
            for member in &spec.members {
                for t in &member.subscribed {
                    subscribers[t.ix()] += 1;
                }
            }
        }
    }
    // Topics are independent: visit them in name order, so each list comes out sorted.
    let by_name = |topics: &[TopicIdx]| {
        let mut topics = topics.to_vec();
        topics.sort_unstable_by_key(|t| spec.topic_rank[t.ix()]);
        topics
    };
    let homogeneous_topics = by_name(&spec.members[sorted[0]].subscribed);
    let mut next_range = vec![0u32; spec.topic_count()];
    let mut extra_left: Vec<u32> = (0..spec.topic_count())
        .map(|t| if subscribers[t] == 0 { 0 } else { spec.partition_counts[t] % subscribers[t] })
        .collect();
    if trace.enabled() {
        // Kafka computes each topic's quota when its first member in order reaches it; all at once here.
        let mut topics: Vec<TopicIdx> = (0..spec.topic_count() as u32).map(TopicIdx).collect();
        topics.retain(|t| subscribers[t.ix()] > 0);
        for t in by_name(&topics) {
            trace.record(|| Step::RangeQuota {
                topic: spec.topic_names[t.ix()].to_string(),
                consumers: subscribers[t.ix()] as usize,
                per_consumer: spec.partitions(t) / subscribers[t.ix()],
                extra: extra_left[t.ix()],
            });
        }
    }
    for &m in &sorted {
        let own_topics;
        let topics = match spec.subscription_type {
            SubscriptionType::Homogeneous => &homogeneous_topics,
            SubscriptionType::Heterogeneous => {
                own_topics = by_name(&spec.members[m].subscribed);
                &own_topics
            }
        };
        lists[m].reserve(topics.len());
        for &t in topics {
            let count = spec.partitions(t);
            let mut quota = count / subscribers[t.ix()];
            if extra_left[t.ix()] > 0 {
                quota += 1;
                extra_left[t.ix()] -= 1;
            }
            let start = next_range[t.ix()];
            let end = (start + quota).min(count);
            next_range[t.ix()] = end;
            lists[m].extend((start..end).map(|p| (TopicIdx(t.0), p)));
            if trace.enabled() {
                for p in start..end {
                    let member = spec.members[m].id;
                    trace.record(|| Step::Assign { partition: spec.topic_partition(t, p), member: member.into() });
                }
            }
        }
    }
    lists
}

/// `sortMemberIds`: a stable sort of member-map order, static members first.
fn sorted_members(spec: &GroupSpec<'_>) -> Vec<usize> {
    let mut sorted: Vec<usize> = (0..spec.members.len()).collect();
    sorted.sort_by(|&a, &b| {
        let (a, b) = (&spec.members[a], &spec.members[b]);
        match (a.instance_id, b.instance_id) {
            (Some(x), Some(y)) => java::cmp_str(x, y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => java::cmp_str(a.id, b.id),
        }
    });
    sorted
}
