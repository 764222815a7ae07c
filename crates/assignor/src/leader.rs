//! What the group leader's assignor receives, built from a modelled [`Group`] the way real clients
//! and the leader build it.
//!
//! - Each client sends its topics sorted, and what it owned the way its strategy sends it: eager
//!   clients have revoked everything before joining, so `ownedPartitions` is empty and only
//!   `StickyAssignor`'s user data remembers the last assignment (KIP-341); cooperative clients send
//!   their owned partitions, sorted, and the generation (KIP-429, KIP-792).
//! - The leader collects every member's topics into a `HashSet`, iterating members in the
//!   `HashMap` order of their ids, and builds `partitionsPerTopic` from it, skipping topics with no
//!   metadata or no partitions. That insertion order is what range's output lists follow.

use std::collections::{HashMap, HashSet};

use crate::java::{self, Link};
use crate::model::{Group, Member, Subscription, Topic, UserData};
use crate::Strategy;

/// The leader's inputs for one strategy: `partitionsPerTopic` in insertion order (as references into
/// `group.topics`) and the subscriptions in JoinGroup order.
pub fn view(strategy: Strategy, group: &Group) -> (Vec<&Topic>, Vec<Subscription>) {
    let subscriptions: Vec<Subscription> = group.members.iter().map(|m| subscription(strategy, m)).collect();
    (partitions_per_topic(&group.topics, &subscriptions), subscriptions)
}

/// The subscription `member`'s client sends when it rejoins under `strategy`.
pub fn subscription(strategy: Strategy, member: &Member) -> Subscription {
    let Member { id, instance_id, rack, topics, owned, generation, eager } = member;
    // The owned partitions are copied only where the client sends them (every strategy runs on
    // every edit in the playground).
    let owned = if sends_owned(strategy, *generation, *eager) { owned.clone() } else { Vec::new() };
    let member = Member {
        id: id.clone(),
        instance_id: instance_id.clone(),
        rack: rack.clone(),
        topics: topics.clone(),
        owned,
        generation: *generation,
        eager: *eager,
    };
    into_subscription(strategy, member)
}

/// Whether a client of `strategy` sends what it owned: sticky in its user data once it has been
/// assigned (a generation), cooperative-sticky as `ownedPartitions` unless it is an eager client,
/// which has revoked everything before joining.
fn sends_owned(strategy: Strategy, generation: Option<i32>, eager: bool) -> bool {
    match strategy {
        Strategy::Range | Strategy::RoundRobin => false,
        Strategy::Sticky => generation.is_some(),
        Strategy::CooperativeSticky => !eager,
    }
}

/// [`subscription`], taking the member's lists rather than copying them (large groups hold a
/// million owned partitions and as many subscribed topic names).
pub fn into_subscription(strategy: Strategy, member: Member) -> Subscription {
    let Member { id, instance_id, rack, mut topics, owned, generation, eager } = member;
    // Clients usually list their topics sorted already: then the check is all the work.
    if !topics.is_sorted_by(|a, b| java::cmp_str(a, b).is_le()) {
        topics.sort_by(|a, b| java::cmp_str(a, b));
    }
    topics.dedup();
    let mut owned = if sends_owned(strategy, generation, eager) { owned } else { Vec::new() };
    let (owned_partitions, user_data) = match strategy {
        Strategy::Range | Strategy::RoundRobin => (Vec::new(), None),
        // A member that never received an assignment has no user data yet.
        Strategy::Sticky => (
            Vec::new(),
            generation.map(|generation| UserData::Sticky { partitions: owned, generation: Some(generation) }),
        ),
        Strategy::CooperativeSticky => {
            if !owned.is_sorted() {
                owned.sort();
            }
            (owned, Some(UserData::Cooperative { generation: generation.unwrap_or(-1) }))
        }
    };
    Subscription {
        member_id: id,
        group_instance_id: instance_id,
        rack,
        topics,
        owned_partitions,
        generation,
        user_data,
    }
}

/// `AbstractPartitionAssignor.assign`: the subscribed topics, through a `HashSet` filled member by
/// member in `HashMap` order, then kept if the cluster has them with at least one partition.
pub(crate) fn partitions_per_topic<'g>(topics: &'g [Topic], subscriptions: &[Subscription]) -> Vec<&'g Topic> {
    let member_hashes: Vec<i32> = subscriptions.iter().map(|s| java::string_hash(&s.member_id)).collect();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut inserted: Vec<&str> = Vec::new();
    let mut previous: Option<&[String]> = None;
    for m in java::iteration_order(&member_hashes, Link::Tail) {
        let listed = subscriptions.get(m).map_or(&[][..], |s| &s.topics[..]);
        // Members often share one subscription: a list seen just before adds nothing.
        if previous == Some(listed) {
            continue;
        }
        previous = Some(listed);
        for topic in listed {
            if seen.insert(topic) {
                inserted.push(topic);
            }
        }
    }
    let topic_hashes: Vec<i32> = inserted.iter().map(|t| java::string_hash(t)).collect();
    let by_name: HashMap<&str, &Topic> = topics.iter().map(|t| (t.name.as_str(), t)).collect();
    java::iteration_order(&topic_hashes, Link::Tail)
        .into_iter()
        .filter_map(|i| inserted.get(i).and_then(|name| by_name.get(name)).copied())
        .filter(|t| t.partitions > 0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TopicPartition;

    /// What a member sends is the same whether its lists are copied whole or only where sent.
    #[test]
    fn a_subscription_copies_only_what_the_client_sends() {
        let owned = vec![TopicPartition::new("t", 1), TopicPartition::new("t", 0)];
        for generation in [None, Some(3)] {
            for eager in [false, true] {
                let member = Member {
                    id: "m".into(),
                    instance_id: Some("i".into()),
                    rack: Some("r".into()),
                    topics: vec!["u".into(), "t".into(), "t".into()],
                    owned: owned.clone(),
                    generation,
                    eager,
                };
                for strategy in Strategy::ALL {
                    assert_eq!(subscription(strategy, &member), into_subscription(strategy, member.clone()));
                }
            }
        }
    }
}
