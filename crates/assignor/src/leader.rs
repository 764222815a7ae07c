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
    (partitions_per_topic(group, &subscriptions), subscriptions)
}

/// The subscription `member`'s client sends when it rejoins under `strategy`.
pub fn subscription(strategy: Strategy, member: &Member) -> Subscription {
    let mut topics = member.topics.clone();
    topics.sort_by(|a, b| java::cmp_str(a, b));
    topics.dedup();
    let (owned_partitions, user_data) = match strategy {
        Strategy::Range | Strategy::RoundRobin => (Vec::new(), None),
        // A member that never received an assignment has no user data yet.
        Strategy::Sticky => (
            Vec::new(),
            member
                .generation
                .map(|generation| UserData::Sticky { partitions: member.owned.clone(), generation: Some(generation) }),
        ),
        Strategy::CooperativeSticky => {
            // An eager client has revoked everything before joining: it owns nothing it can send.
            let mut owned = if member.eager { Vec::new() } else { member.owned.clone() };
            owned.sort();
            let generation = member.generation.unwrap_or(-1);
            (owned, Some(UserData::Cooperative { generation }))
        }
    };
    Subscription {
        member_id: member.id.clone(),
        group_instance_id: member.instance_id.clone(),
        rack: member.rack.clone(),
        topics,
        owned_partitions,
        generation: member.generation,
        user_data,
    }
}

/// `AbstractPartitionAssignor.assign`: the subscribed topics, through a `HashSet` filled member by
/// member in `HashMap` order, then kept if the cluster has them with at least one partition.
fn partitions_per_topic<'g>(group: &'g Group, subscriptions: &[Subscription]) -> Vec<&'g Topic> {
    let member_hashes: Vec<i32> = subscriptions.iter().map(|s| java::string_hash(&s.member_id)).collect();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut inserted: Vec<&str> = Vec::new();
    for m in java::iteration_order(&member_hashes, Link::Tail) {
        for topic in subscriptions.get(m).map_or(&[][..], |s| &s.topics[..]) {
            if seen.insert(topic) {
                inserted.push(topic);
            }
        }
    }
    let topic_hashes: Vec<i32> = inserted.iter().map(|t| java::string_hash(t)).collect();
    let by_name: HashMap<&str, &Topic> = group.topics.iter().map(|t| (t.name.as_str(), t)).collect();
    java::iteration_order(&topic_hashes, Link::Tail)
        .into_iter()
        .filter_map(|i| inserted.get(i).and_then(|name| by_name.get(name)).copied())
        .filter(|t| t.partitions > 0)
        .collect()
}
