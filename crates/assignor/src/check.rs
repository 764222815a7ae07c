//! One validator and one set of balance metrics, shared by the tests, the CLI and the playground.
//!
//! [`violations`] lists what no assignment may do (a partition twice, to a non-subscriber, one that
//! does not exist, a subscribed partition left out without cooperative withholding it) and where the
//! sticky assignors break their balance promise. [`metrics`] measures what a person compares
//! strategies by: spread, the most loaded member, idle members, cross-rack fetches, moves.

use std::collections::hash_map::Entry;
use std::collections::BTreeMap;

use crate::fast_map::{FastMap, FastSet};

use crate::model::{Assignment, Group, TopicPartition};
use crate::rebalance::Lists;
use crate::Strategy;

/// Something an assignment must not do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// The partition is in more than one member's list (or twice in one).
    Duplicate {
        /// The partition.
        partition: TopicPartition,
        /// The members listing it, once per listing.
        members: Vec<String>,
    },
    /// The member does not subscribe to the partition's topic.
    NotSubscribed {
        /// The partition.
        partition: TopicPartition,
        /// The member it was given to.
        member: String,
    },
    /// No such partition exists (or the member is not in the group).
    Unknown {
        /// The partition.
        partition: TopicPartition,
        /// The member it was given to.
        member: String,
    },
    /// A subscribed partition is assigned to no one and not withheld by a cooperative round.
    Unassigned {
        /// The partition.
        partition: TopicPartition,
    },
    /// The sticky promise (Kafka's `verifyValidityAndBalance`): members whose counts differ by more
    /// than one share no topic, else a partition of it could have moved to the lighter one.
    Unbalanced {
        /// The member with more partitions.
        heavier: String,
        /// The member with at least two fewer.
        lighter: String,
        /// A topic both subscribe to.
        topic: String,
    },
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Violation::Duplicate { partition, members } => {
                write!(f, "{partition} is assigned more than once ({})", members.join(", "))
            }
            Violation::NotSubscribed { partition, member } => {
                write!(f, "{partition} is assigned to {member}, which does not subscribe to its topic")
            }
            Violation::Unknown { partition, member } => write!(f, "{member} holds {partition}, which does not exist"),
            Violation::Unassigned { partition } => write!(f, "{partition} is subscribed but assigned to no one"),
            Violation::Unbalanced { heavier, lighter, topic } => write!(
                f,
                "{heavier} has at least two more partitions than {lighter}, yet both hold partitions of {topic}"
            ),
        }
    }
}

/// Everything `assignment` does wrong for `group`. `strategy` decides whether the sticky balance
/// promise applies (it does not to a cooperative round that withholds partitions).
pub fn violations(group: &Group, strategy: Strategy, assignment: &Assignment) -> Vec<Violation> {
    let topic_index = topic_index(group);
    let subscribed: FastMap<&str, FastSet<&str>> =
        group.members.iter().map(|m| (m.id.as_str(), m.topics.iter().map(String::as_str).collect())).collect();
    let mut out = Vec::new();
    // Who holds each partition that exists, by topic index and number (the member's position in
    // `assignment`, counted from 1; 0 for no one), and who holds each one that does not: a million
    // partitions are checked without hashing each one.
    let holders: Vec<&String> = assignment.members.keys().collect();
    let mut holder: Vec<Vec<u32>> = group.topics.iter().map(|t| vec![0; t.partitions as usize]).collect();
    let mut ghost_holder: FastMap<(&str, u32), u32> = FastMap::default();
    let mut shared: BTreeMap<&TopicPartition, Vec<&str>> = BTreeMap::new();
    for (number, (member, list)) in (1u32..).zip(&assignment.members) {
        for tp in list {
            let slot = topic_index.get(&*tp.topic).and_then(|&t| holder.get_mut(t)?.get_mut(tp.partition as usize));
            let exists = slot.is_some();
            let earlier = match slot {
                Some(slot) if *slot == 0 => {
                    *slot = number;
                    None
                }
                Some(slot) => Some(*slot),
                None => match ghost_holder.entry((&*tp.topic, tp.partition)) {
                    Entry::Vacant(first) => {
                        first.insert(number);
                        None
                    }
                    Entry::Occupied(first) => Some(*first.get()),
                },
            };
            if let Some(first) = earlier {
                let first = holders.get(first as usize - 1).map_or("", |m| m.as_str());
                shared.entry(tp).or_insert_with(|| vec![first]).push(member);
            }
            match subscribed.get(member.as_str()) {
                Some(topics) if exists => {
                    if !topics.contains(&*tp.topic) {
                        out.push(Violation::NotSubscribed { partition: tp.clone(), member: member.clone() });
                    }
                }
                _ => out.push(Violation::Unknown { partition: tp.clone(), member: member.clone() }),
            }
        }
    }
    for (tp, members) in shared {
        out.push(Violation::Duplicate {
            partition: tp.clone(),
            members: members.iter().map(|m| m.to_string()).collect(),
        });
    }
    let withheld: FastSet<(&str, u32)> = assignment.withheld.keys().map(|tp| (&*tp.topic, tp.partition)).collect();
    let wanted: FastSet<&str> = group.members.iter().flat_map(|m| m.topics.iter().map(String::as_str)).collect();
    for topic in group.topics.iter().filter(|t| wanted.contains(t.name.as_str())) {
        let name = topic.name.as_str();
        let held = topic_index.get(name).and_then(|&t| holder.get(t)).map_or(&[][..], Vec::as_slice);
        for p in 0..topic.partitions {
            let is_held = held.get(p as usize).is_some_and(|&n| n != 0) || ghost_holder.contains_key(&(name, p));
            if !is_held && !withheld.contains(&(name, p)) {
                out.push(Violation::Unassigned { partition: TopicPartition::new(name, p) });
            }
        }
    }
    let sticky = matches!(strategy, Strategy::Sticky | Strategy::CooperativeSticky);
    if sticky && assignment.withheld.is_empty() {
        out.extend(balance_violations(&assignment.members));
    }
    out
}

/// Each topic's position in `group.topics` (the last, should a name repeat).
fn topic_index(group: &Group) -> FastMap<&str, usize> {
    group.topics.iter().enumerate().map(|(i, t)| (t.name.as_str(), i)).collect()
}

fn balance_violations(lists: &Lists) -> Vec<Violation> {
    let topics: Vec<(&String, usize, FastSet<&str>)> =
        lists.iter().map(|(m, list)| (m, list.len(), list.iter().map(|tp| &*tp.topic).collect())).collect();
    let mut out = Vec::new();
    for (i, (a, a_len, a_topics)) in topics.iter().enumerate() {
        for (b, b_len, b_topics) in topics.iter().skip(i + 1) {
            if a_len.abs_diff(*b_len) <= 1 {
                continue;
            }
            let (heavier, lighter) = if a_len > b_len { (a, b) } else { (b, a) };
            let mut shared: Vec<&&str> = a_topics.intersection(b_topics).collect();
            shared.sort();
            if let Some(topic) = shared.first() {
                out.push(Violation::Unbalanced {
                    heavier: heavier.to_string(),
                    lighter: lighter.to_string(),
                    topic: topic.to_string(),
                });
            }
        }
    }
    out
}

/// What a person compares strategies by.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metrics {
    /// Partitions each member holds.
    pub counts: BTreeMap<String, usize>,
    /// The fewest partitions a member holds.
    pub min: usize,
    /// The most partitions a member holds.
    pub max: usize,
    /// The members holding `max`.
    pub most_loaded: Vec<String>,
    /// Members holding nothing.
    pub idle: Vec<String>,
    /// Per topic, max − min partitions of it over the topic's subscribers.
    pub topic_spread: BTreeMap<String, usize>,
    /// Subscribed partitions no one holds (withheld ones included).
    pub unassigned: usize,
    /// Partitions held by a member whose rack has none of its replicas (only when racks are known).
    pub cross_rack: usize,
    /// Partitions in the assignment.
    pub assigned: usize,
}

impl Metrics {
    /// max − min over members.
    pub fn spread(&self) -> usize {
        self.max - self.min
    }
}

/// Measures `lists` as an assignment of `group`.
pub fn metrics(group: &Group, lists: &Lists) -> Metrics {
    let counts: BTreeMap<String, usize> =
        group.members.iter().map(|m| (m.id.clone(), lists.get(&m.id).map_or(0, Vec::len))).collect();
    let min = counts.values().copied().min().unwrap_or(0);
    let max = counts.values().copied().max().unwrap_or(0);
    let most_loaded =
        if max > 0 { counts.iter().filter(|(_, &n)| n == max).map(|(m, _)| m.clone()).collect() } else { Vec::new() };
    let idle = counts.iter().filter(|(_, &n)| n == 0).map(|(m, _)| m.clone()).collect();

    // Each topic's load on each of its subscribers, one member at a time in tallies indexed by
    // topic: a million partitions and thousands of members on hundreds of topics, nothing hashed per
    // partition but its topic's name.
    let topic_index = topic_index(group);
    let topics = group.topics.len();
    let mut load = vec![0usize; topics];
    let (mut max_load, mut min_load, mut held_by_subscribers) =
        (vec![0; topics], vec![usize::MAX; topics], vec![0; topics]);
    for member in &group.members {
        let list = lists.get(&member.id).map(Vec::as_slice).unwrap_or_default();
        let held_topics = || list.iter().filter_map(|tp| topic_index.get(&*tp.topic).copied());
        held_topics().for_each(|t| load[t] += 1);
        let subscribed: FastSet<usize> =
            member.topics.iter().filter_map(|t| topic_index.get(t.as_str()).copied()).collect();
        for t in subscribed {
            max_load[t] = max_load[t].max(load[t]);
            min_load[t] = min_load[t].min(load[t]);
            held_by_subscribers[t] += load[t];
        }
        held_topics().for_each(|t| load[t] = 0);
    }
    let mut topic_spread = BTreeMap::new();
    let mut unassigned = 0;
    let held: usize = lists.values().map(Vec::len).sum();
    for topic in &group.topics {
        // A topic nobody subscribes to has no minimum load.
        let Some(&t) = topic_index.get(topic.name.as_str()).filter(|&&t| min_load[t] != usize::MAX) else { continue };
        topic_spread.insert(topic.name.clone(), max_load[t] - min_load[t]);
        unassigned += (topic.partitions as usize).saturating_sub(held_by_subscribers[t]);
    }

    let racks: FastMap<&str, &str> = group
        .members
        .iter()
        .filter_map(|m| m.rack.as_deref().filter(|r| !r.is_empty()).map(|r| (m.id.as_str(), r)))
        .collect();
    let replicas: FastMap<&str, &Vec<Vec<Option<String>>>> = group
        .topics
        .iter()
        .filter(|t| !t.replica_racks.is_empty())
        .map(|t| (t.name.as_str(), &t.replica_racks))
        .collect();
    let mut cross_rack = 0;
    if !racks.is_empty() && !replicas.is_empty() {
        for (member, list) in lists {
            let Some(rack) = racks.get(member.as_str()) else { continue };
            for tp in list {
                let Some(of_partition) = replicas.get(&*tp.topic).and_then(|r| r.get(tp.partition as usize)) else {
                    continue;
                };
                // Counted only where some replica's rack is known: a broker without a rack says nothing.
                let known = || of_partition.iter().flatten();
                if known().next().is_some() && !known().any(|r| r == rack) {
                    cross_rack += 1;
                }
            }
        }
    }
    Metrics { counts, min, max, most_loaded, idle, topic_spread, unassigned, cross_rack, assigned: held }
}

/// Partitions that moved although they did not have to: a member that still subscribes to a
/// partition it owned loses it, beyond what its new, smaller count forces it to give up.
pub fn needless_moves(group: &Group, before: &Lists, after: &Lists) -> usize {
    let count: FastMap<&str, u32> = group.topics.iter().map(|t| (t.name.as_str(), t.partitions)).collect();
    let mut needless = 0;
    for member in &group.members {
        let Some(owned) = before.get(&member.id) else { continue };
        let topics: FastSet<&str> = member.topics.iter().map(String::as_str).collect();
        let valid: Vec<&TopicPartition> = owned
            .iter()
            .filter(|tp| topics.contains(&*tp.topic))
            .filter(|tp| count.get(&*tp.topic).is_some_and(|&n| tp.partition < n))
            .collect();
        let now: FastSet<&TopicPartition> = after.get(&member.id).map(|l| l.iter().collect()).unwrap_or_default();
        let lost = valid.iter().filter(|tp| !now.contains(**tp)).count();
        let forced = valid.len().saturating_sub(now.len());
        needless += lost.saturating_sub(forced);
    }
    needless
}
