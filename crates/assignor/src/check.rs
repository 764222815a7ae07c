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
    let mut topics = TopicLookup::new(group);
    let subscribed: FastMap<&str, Vec<bool>> =
        group.members.iter().map(|m| (m.id.as_str(), topics.subscribed(&m.topics))).collect();
    let mut out = Vec::new();
    // Who holds each partition that exists, by topic index and number (the member's position in
    // `assignment`, counted from 1; 0 for no one), and who holds each one that does not: a million
    // partitions are checked without hashing each one.
    let holders: Vec<&String> = assignment.members.keys().collect();
    let mut holder: Vec<Vec<u32>> = group.topics.iter().map(|t| vec![0; t.partitions as usize]).collect();
    let mut ghost_holder: FastMap<(&str, u32), u32> = FastMap::default();
    let mut shared: BTreeMap<&TopicPartition, Vec<&str>> = BTreeMap::new();
    for (number, (member, list)) in (1u32..).zip(&assignment.members) {
        let member_topics = subscribed.get(member.as_str());
        for tp in list {
            let topic = topics.of(&tp.topic);
            let slot = topic.and_then(|t| holder.get_mut(t)?.get_mut(tp.partition as usize));
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
            match member_topics {
                Some(member_topics) if exists => {
                    // A partition that exists has a topic of the group: subscribed by its position.
                    if !topic.is_some_and(|t| member_topics.get(t).copied().unwrap_or(false)) {
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
        let held = topics.index.get(name).and_then(|&t| holder.get(t)).map_or(&[][..], Vec::as_slice);
        for p in 0..topic.partitions {
            // The sets are looked up only when not empty: most groups hold no ghost and withhold
            // nothing, and a million partitions are not hashed for nothing.
            let is_held = held.get(p as usize).is_some_and(|&n| n != 0)
                || (!ghost_holder.is_empty() && ghost_holder.contains_key(&(name, p)));
            let is_withheld = !withheld.is_empty() && withheld.contains(&(name, p));
            if !is_held && !is_withheld {
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

/// Topics' positions in `group.topics` by name (the last, should a name repeat), the last name
/// looked up remembered by its address: lists run topic by topic and share one name per topic
/// (an `Arc`), so a million partitions are placed with few hashes.
struct TopicLookup<'a> {
    index: FastMap<&'a str, usize>,
    last: Option<(*const u8, usize, Option<usize>)>,
}

impl<'a> TopicLookup<'a> {
    fn new(group: &'a Group) -> TopicLookup<'a> {
        TopicLookup { index: topic_index(group), last: None }
    }

    /// `topic`'s position, if the group has it.
    fn of(&mut self, topic: &str) -> Option<usize> {
        let (address, length) = (topic.as_ptr(), topic.len());
        match self.last {
            // The same address and length, while every name is borrowed: the same name.
            Some((last, last_length, position)) if last == address && last_length == length => position,
            _ => {
                let position = self.index.get(topic).copied();
                self.last = Some((address, length, position));
                position
            }
        }
    }

    /// By position in `group.topics`: whether `names` holds the name there.
    fn subscribed(&self, names: &[String]) -> Vec<bool> {
        let mut subscribed = vec![false; self.index.values().max().map_or(0, |&m| m + 1)];
        for position in names.iter().filter_map(|n| self.index.get(n.as_str())) {
            subscribed[*position] = true;
        }
        subscribed
    }
}

/// Each topic's position in `group.topics` (the last, should a name repeat).
fn topic_index(group: &Group) -> FastMap<&str, usize> {
    group.topics.iter().enumerate().map(|(i, t)| (t.name.as_str(), i)).collect()
}

fn balance_violations(lists: &Lists) -> Vec<Violation> {
    // Counts within one of each other break no promise: no topic set is built (a hash per
    // partition) for a balanced group.
    let counts = lists.values().map(Vec::len);
    if counts.clone().max().unwrap_or(0) - counts.min().unwrap_or(0) <= 1 {
        return Vec::new();
    }
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
    let mut lookup = TopicLookup::new(group);
    let topic_index = lookup.index.clone();
    let topics = group.topics.len();
    let mut load = vec![0usize; topics];
    let (mut max_load, mut min_load, mut held_by_subscribers) =
        (vec![0; topics], vec![usize::MAX; topics], vec![0; topics]);
    let mut held: Vec<usize> = Vec::new();
    for member in &group.members {
        let list = lists.get(&member.id).map(Vec::as_slice).unwrap_or_default();
        held.clear();
        held.extend(list.iter().filter_map(|tp| lookup.of(&tp.topic)));
        held.iter().for_each(|&t| load[t] += 1);
        let subscribed: FastSet<usize> =
            member.topics.iter().filter_map(|t| topic_index.get(t.as_str()).copied()).collect();
        for t in subscribed {
            max_load[t] = max_load[t].max(load[t]);
            min_load[t] = min_load[t].min(load[t]);
            held_by_subscribers[t] += load[t];
        }
        held.iter().for_each(|&t| load[t] = 0);
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
    let mut topics = TopicLookup::new(group);
    // Which member holds each partition that exists now, by topic position and number (the
    // member's number, from 1): a million partitions looked up without hashing each one.
    let mut holder: Vec<Vec<u32>> = group.topics.iter().map(|t| vec![0; t.partitions as usize]).collect();
    let mut needless = 0;
    for (number, member) in (1u32..).zip(&group.members) {
        let Some(owned) = before.get(&member.id) else { continue };
        // What it holds now, each partition counted once.
        let mut now = 0usize;
        let mut ghosts: FastSet<(&str, u32)> = FastSet::default();
        for tp in after.get(&member.id).map(Vec::as_slice).unwrap_or_default() {
            match topics.of(&tp.topic).and_then(|t| holder.get_mut(t)?.get_mut(tp.partition as usize)) {
                Some(slot) if *slot != number => {
                    *slot = number;
                    now += 1;
                }
                Some(_) => {}
                None => now += usize::from(ghosts.insert((&*tp.topic, tp.partition))),
            }
        }
        // What it owned that it still subscribes to and that still exists, and what of it it lost.
        let subscribed = topics.subscribed(&member.topics);
        let (mut valid, mut lost) = (0usize, 0usize);
        for tp in owned {
            let Some(t) = topics.of(&tp.topic).filter(|&t| subscribed.get(t).copied().unwrap_or(false)) else {
                continue;
            };
            let Some(&holding) = holder.get(t).and_then(|h| h.get(tp.partition as usize)) else { continue };
            valid += 1;
            lost += usize::from(holding != number);
        }
        let forced = valid.saturating_sub(now);
        needless += lost.saturating_sub(forced);
    }
    needless
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Member, Topic};
    use std::sync::Arc;

    /// `needless_moves` as first written, partition by partition through hash sets: the reference
    /// the positional one must agree with.
    fn needless_moves_by_hashing(group: &Group, before: &Lists, after: &Lists) -> usize {
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

    /// `violations` as first written: each partition's subscription through a set of names.
    fn not_subscribed_by_hashing(group: &Group, assignment: &Assignment) -> Vec<Violation> {
        let index = topic_index(group);
        let subscribed: FastMap<&str, FastSet<&str>> =
            group.members.iter().map(|m| (m.id.as_str(), m.topics.iter().map(String::as_str).collect())).collect();
        let mut out = Vec::new();
        for (member, list) in &assignment.members {
            for tp in list {
                let exists = index
                    .get(&*tp.topic)
                    .is_some_and(|&t| group.topics.get(t).is_some_and(|topic| tp.partition < topic.partitions));
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
        out
    }

    /// A small pseudo-random generator (xorshift), so the groups are the same on every run.
    struct Draw(u64);

    impl Draw {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n.max(1)
        }
    }

    /// Lists over `names` (some not the group's topics) and partition numbers past the counts,
    /// repeated partitions, members not in the group: what the checks must count exactly as the
    /// hashing versions did, names shared through `Arc`s or each its own.
    fn lists(draw: &mut Draw, members: &[&str], names: &[Arc<str>], shared: bool) -> Lists {
        members
            .iter()
            .map(|m| {
                let list = (0..draw.below(12))
                    .map(|_| {
                        let name = &names[draw.below(names.len() as u64) as usize];
                        let topic = if shared { Arc::clone(name) } else { Arc::from(&**name) };
                        TopicPartition { topic, partition: draw.below(7) as u32 }
                    })
                    .collect();
                (m.to_string(), list)
            })
            .collect()
    }

    /// Over random groups and lists, the positional checks count what the hashing ones counted.
    #[test]
    fn the_positional_checks_agree_with_the_hashing_ones() {
        let mut draw = Draw(0x9e37_79b9_7f4a_7c15);
        let names: Vec<Arc<str>> = ["a", "b", "c", "gone"].iter().map(|&n| Arc::from(n)).collect();
        for round in 0..2_000 {
            let mut topics: Vec<Topic> = ["a", "b", "c"].iter().map(|&n| Topic::new(n, draw.below(6) as u32)).collect();
            if round % 7 == 0 {
                // A name twice: the last one counts.
                topics.push(Topic::new("a", draw.below(6) as u32));
            }
            let members: Vec<Member> = ["m0", "m1", "m2", "m3"]
                .iter()
                .map(|&id| {
                    let subscribed: Vec<&str> =
                        ["a", "b", "c", "gone"].into_iter().filter(|_| draw.below(3) > 0).collect();
                    Member {
                        id: id.into(),
                        topics: subscribed.iter().map(|t| t.to_string()).collect(),
                        ..Member::default()
                    }
                })
                .collect();
            let group = Group { topics, members };
            let shared = round % 2 == 0;
            let before = lists(&mut draw, &["m0", "m1", "m2", "m9"], &names, shared);
            let after = lists(&mut draw, &["m0", "m1", "m3", "m8"], &names, shared);
            assert_eq!(
                needless_moves(&group, &before, &after),
                needless_moves_by_hashing(&group, &before, &after),
                "round {round}: {group:?} {before:?} {after:?}"
            );
            let assignment = Assignment { members: after, ..Assignment::default() };
            let subscription_violations: Vec<Violation> = violations(&group, Strategy::Range, &assignment)
                .into_iter()
                .filter(|v| matches!(v, Violation::NotSubscribed { .. } | Violation::Unknown { .. }))
                .collect();
            assert_eq!(subscription_violations, not_subscribed_by_hashing(&group, &assignment), "round {round}");
        }
    }
}
