//! A rebalance as the members live through it: the assignor's rounds, what each member keeps,
//! revokes and gains, and what stops being processed meanwhile.
//!
//! - EAGER: every member revokes everything before it rejoins (stop-the-world), so everything that was
//!   owned pauses, moved or not.
//! - COOPERATIVE (KIP-429): members keep their partitions while the group rebalances. A partition
//!   that changes owner is withheld in the first round; its old owner revokes it and rejoins at once,
//!   and the follow-up rebalance hands it to its new owner. Only those partitions pause.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::error::AssignError;
use crate::fast_map::{FastMap, FastSet};
use crate::model::{Assignment, Group, TopicPartition};
use crate::protocol::RebalanceProtocol;
use crate::Strategy;

/// Member id to its partitions.
pub type Lists = BTreeMap<String, Vec<TopicPartition>>;

/// How many follow-up rebalances a cooperative group may need before we call it stuck. One is
/// enough in practice; Kafka's own test harness allows four.
pub const MAX_ROUNDS: usize = 8;

/// One member's view of the change from one assignment to another.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberChange {
    /// Held before and after.
    pub kept: Vec<TopicPartition>,
    /// Held before, not after.
    pub revoked: Vec<TopicPartition>,
    /// Held after, not before.
    pub added: Vec<TopicPartition>,
}

/// A partition that changed owner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    /// The partition.
    pub partition: TopicPartition,
    /// Its owner before.
    pub from: String,
    /// `None` while a cooperative round withholds it.
    pub to: Option<String>,
}

/// The change between two assignments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diff {
    /// Every member of either side, by id.
    pub members: BTreeMap<String, MemberChange>,
    /// Partitions owned before by one member and after by another (or by none), in partition order.
    pub moved: Vec<Moved>,
}

impl Diff {
    /// How many partitions were revoked, over all members.
    pub fn revoked_count(&self) -> usize {
        self.members.values().map(|c| c.revoked.len()).sum()
    }
}

/// The change from `before` to `after`, per member and per partition.
pub fn diff(before: &Lists, after: &Lists) -> Diff {
    // Owners by dense partition keys: this runs for every strategy on every edit in the playground,
    // and on a million partitions in `kap show`.
    let mut keys = PartitionKeys::default();
    let (old_owner, new_owner) = (Owners::new(before, &mut keys), Owners::new(after, &mut keys));
    let ids: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    let members = ids
        .into_iter()
        .map(|id| {
            let mut change = MemberChange::default();
            for tp in after.get(id).map(Vec::as_slice).unwrap_or_default() {
                if old_owner.get(keys.key(tp)) == Some(id.as_str()) {
                    change.kept.push(tp.clone());
                } else {
                    change.added.push(tp.clone());
                }
            }
            for tp in before.get(id).map(Vec::as_slice).unwrap_or_default() {
                if new_owner.get(keys.key(tp)) != Some(id.as_str()) {
                    change.revoked.push(tp.clone());
                }
            }
            (id.clone(), change)
        })
        .collect();
    let mut moved = Vec::new();
    for (from, list) in before {
        for tp in list {
            let key = keys.key(tp);
            let to = new_owner.get(key);
            if to != Some(from.as_str()) {
                moved.push((key, Moved { partition: tp.clone(), from: from.clone(), to: to.map(str::to_string) }));
            }
        }
    }
    // In `TopicPartition` order (topic in Java string order, then partition), comparing integers:
    // each topic's rank among the topics met, then the partition. A stable sort, as before.
    let ranks = keys.java_ranks();
    let order = |key: u64| (u64::from(ranks[(key >> 32) as usize]) << 32) | (key & u64::from(u32::MAX));
    moved.sort_by_key(|(key, _)| order(*key));
    Diff { members, moved: moved.into_iter().map(|(_, m)| m).collect() }
}

/// Each partition's owner in an assignment (the last listed, should two members hold it).
struct Owners<'a> {
    /// Per topic number, the owner of each partition number, for topics whose numbers are dense
    /// (as Kafka's are: 0 to count − 1); empty for the others.
    dense: Vec<Vec<Option<&'a str>>>,
    /// Partitions of the other topics.
    sparse: FastMap<u64, &'a str>,
}

impl<'a> Owners<'a> {
    fn new(lists: &'a Lists, keys: &mut PartitionKeys<'a>) -> Owners<'a> {
        // Per topic number: how many partitions are listed and the highest partition number.
        let mut extent: Vec<(usize, u64)> = Vec::new();
        for tp in lists.values().flatten() {
            let topic = (keys.key(tp) >> 32) as usize;
            if extent.len() <= topic {
                extent.resize(topic + 1, (0, 0));
            }
            if let Some((count, highest)) = extent.get_mut(topic) {
                *count += 1;
                *highest = (*highest).max(u64::from(tp.partition));
            }
        }
        // A topic whose numbers run far beyond its count (a claim on a partition that does not
        // exist) is looked up by hashing instead: memory stays in proportion to the lists.
        let dense_enough = |&(count, highest): &(usize, u64)| highest < 2 * count as u64 + 64;
        let mut owners = Owners {
            dense: extent
                .iter()
                .map(|e| if dense_enough(e) { vec![None; e.1 as usize + 1] } else { Vec::new() })
                .collect(),
            sparse: FastMap::default(),
        };
        for (member, list) in lists {
            for tp in list {
                let key = keys.key(tp);
                match owners.dense.get_mut((key >> 32) as usize).and_then(|d| d.get_mut(tp.partition as usize)) {
                    Some(slot) => *slot = Some(member.as_str()),
                    None => {
                        owners.sparse.insert(key, member.as_str());
                    }
                }
            }
        }
        owners
    }

    fn get(&self, key: u64) -> Option<&'a str> {
        let (topic, partition) = ((key >> 32) as usize, (key & u64::from(u32::MAX)) as usize);
        match self.dense.get(topic).filter(|d| !d.is_empty()) {
            Some(dense) => dense.get(partition).copied().flatten(),
            None => self.sparse.get(&key).copied(),
        }
    }
}

/// A partition as one integer: its topic's number (topics numbered as they are met) and its own.
#[derive(Default)]
struct PartitionKeys<'a> {
    topics: FastMap<&'a str, u32>,
    /// The last topic numbered: lists run topic by topic, and a name shared through its `Arc` is
    /// recognised by its address and length without being hashed.
    last: Option<(*const u8, usize, u32)>,
}

impl<'a> PartitionKeys<'a> {
    fn key(&mut self, tp: &'a TopicPartition) -> u64 {
        let (address, length) = (tp.topic.as_ptr(), tp.topic.len());
        let topic = match self.last {
            Some((last, last_length, topic)) if last == address && last_length == length => topic,
            _ => {
                let next = self.topics.len() as u32;
                let topic = *self.topics.entry(&tp.topic).or_insert(next);
                self.last = Some((address, length, topic));
                topic
            }
        };
        (u64::from(topic) << 32) | u64::from(tp.partition)
    }

    /// Each topic number's rank in Java string order among the topics numbered.
    fn java_ranks(&self) -> Vec<u32> {
        let mut names = vec![""; self.topics.len()];
        for (name, &topic) in &self.topics {
            names[topic as usize] = name;
        }
        crate::java::string_ranks(&names)
    }
}

/// One JoinGroup/SyncGroup round of a rebalance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// The generation the round makes.
    pub generation: i32,
    /// What the leader's assignor returned.
    pub assignment: Assignment,
    /// From what the members owned going in to what they were given.
    pub diff: Arc<Diff>,
}

/// A whole rebalance under one strategy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rebalance {
    /// The strategy that assigned it.
    pub strategy: Strategy,
    /// The strategy's protocol; members marked `eager` rebalance EAGER all the same.
    pub protocol: RebalanceProtocol,
    /// Members whose clients rebalance EAGER under a cooperative strategy.
    pub eager_members: Vec<String>,
    /// What every member (and every member that left) owned before.
    pub before: Lists,
    /// At least one round; cooperative rebalances add follow-ups until nothing is revoked.
    pub rounds: Vec<Round>,
    /// What each member stops processing while the group rebalances: under EAGER all it owned;
    /// under COOPERATIVE only what it gives up.
    pub paused: Lists,
    /// From `before` to the final assignment: the only round's own, when there is one round.
    pub diff: Arc<Diff>,
    /// False when a cooperative group still revoked partitions after [`MAX_ROUNDS`] rounds.
    pub settled: bool,
}

impl Rebalance {
    /// The assignment the group ends with.
    pub fn result(&self) -> &Lists {
        // `rounds` is never empty: `rebalance` pushes the first round before returning.
        &self.last_round().members
    }

    /// The last round's assignment, with what it still withholds when the group never settles.
    pub fn last_round(&self) -> &Assignment {
        self.rounds.last().map_or(&EMPTY, |r| &r.assignment)
    }

    /// How many partitions stop being processed while the group rebalances, over all members.
    pub fn paused_count(&self) -> usize {
        self.paused.values().map(Vec::len).sum()
    }
}

static EMPTY: Assignment = Assignment { members: BTreeMap::new(), transferring: None, withheld: BTreeMap::new() };

/// Rebalances `group` under `strategy`: each member owns `owned` from `generation`; `departed`
/// lists what members that left the group owned (they are part of the diff, not of the group).
pub fn rebalance(strategy: Strategy, group: &Group, departed: &Lists) -> Result<Rebalance, AssignError> {
    let protocol = strategy.supported_protocols().first().copied().unwrap_or(RebalanceProtocol::Eager);
    let mut before: Lists = departed.clone();
    for m in &group.members {
        before.insert(m.id.clone(), m.owned.clone());
    }
    let mut generation = group.members.iter().filter_map(|m| m.generation).max().map_or(1, |g| g.saturating_add(1));
    let mut rounds: Vec<Round> = Vec::new();
    let mut paused: Lists = group.members.iter().map(|m| (m.id.clone(), Vec::new())).collect();
    let eager_clients: FastSet<&str> = group.members.iter().filter(|m| m.eager).map(|m| m.id.as_str()).collect();
    let eager = |id: &str| protocol == RebalanceProtocol::Eager || eager_clients.contains(id);
    // The group as it rejoins for a follow-up round; the first round assigns `group` itself.
    let mut rejoined: Option<Group> = None;
    loop {
        let assignment = crate::assign(strategy, rejoined.as_ref().unwrap_or(group))?;
        // Members go in owning what they owned before, or what the last round gave them.
        let going_in = rounds.last().map_or(&before, |r| &r.assignment.members);
        let round_diff = diff(going_in, &assignment.members);
        for (id, change) in &round_diff.members {
            if let Some(list) = paused.get_mut(id) {
                // Eager members stop everything they own before rejoining; cooperative ones only
                // what they give up.
                if eager(id) {
                    list.extend(change.kept.iter().chain(&change.revoked).cloned());
                } else {
                    list.extend(change.revoked.iter().cloned());
                }
            }
        }
        // Only cooperative members rejoin at once after revoking (KIP-429).
        let revoked_any =
            round_diff.members.iter().any(|(id, c)| !c.revoked.is_empty() && !departed.contains_key(id) && !eager(id));
        let withheld_any = !assignment.withheld.is_empty();
        rounds.push(Round { generation, assignment, diff: Arc::new(round_diff) });
        if !(revoked_any || withheld_any) || rounds.len() >= MAX_ROUNDS {
            break;
        }
        // The follow-up: everyone rejoins owning exactly what the last round gave it.
        generation = generation.saturating_add(1);
        let given = rounds.last().map_or(&before, |r| &r.assignment.members);
        for m in &mut rejoined.get_or_insert_with(|| group.clone()).members {
            m.owned = given.get(&m.id).cloned().unwrap_or_default();
            m.generation = Some(generation - 1);
        }
    }
    let settled = rounds.last().is_some_and(|r| r.assignment.withheld.is_empty() && r.diff.revoked_count() == 0)
        || protocol == RebalanceProtocol::Eager
        || rounds.len() < MAX_ROUNDS;
    // With one round, that round's diff already starts from `before`.
    let diff = match rounds.as_slice() {
        [only] => Arc::clone(&only.diff),
        _ => Arc::new(diff(&before, rounds.last().map_or(&EMPTY.members, |r| &r.assignment.members))),
    };
    let eager_members = if protocol == RebalanceProtocol::Cooperative {
        group.members.iter().filter(|m| m.eager).map(|m| m.id.clone()).collect()
    } else {
        Vec::new()
    };
    Ok(Rebalance { strategy, protocol, eager_members, before, rounds, paused, diff, settled })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tp(t: &str, p: u32) -> TopicPartition {
        TopicPartition::new(t, p)
    }

    #[test]
    fn diff_splits_kept_revoked_added_and_lists_moves() {
        let before: Lists = [("a".into(), vec![tp("t", 0), tp("t", 1)]), ("b".into(), vec![tp("t", 2)])].into();
        let after: Lists = [("a".into(), vec![tp("t", 0)]), ("b".into(), vec![tp("t", 2), tp("t", 1)])].into();
        let d = diff(&before, &after);
        assert_eq!(d.members["a"].kept, vec![tp("t", 0)]);
        assert_eq!(d.members["a"].revoked, vec![tp("t", 1)]);
        assert_eq!(d.members["b"].added, vec![tp("t", 1)]);
        assert_eq!(d.moved, vec![Moved { partition: tp("t", 1), from: "a".into(), to: Some("b".into()) }]);
    }

    #[test]
    fn diff_of_a_claim_far_beyond_the_partitions_listed() {
        // Looked up by hashing, not in a table as long as the partition number.
        let before: Lists = [("a".into(), vec![tp("t", 0), tp("t", u32::MAX)])].into();
        let after: Lists = [("a".into(), vec![tp("t", 0)]), ("b".into(), vec![tp("t", 1)])].into();
        let d = diff(&before, &after);
        assert_eq!(d.members["a"].kept, vec![tp("t", 0)]);
        assert_eq!(d.members["a"].revoked, vec![tp("t", u32::MAX)]);
        assert_eq!(d.members["b"].added, vec![tp("t", 1)]);
        assert_eq!(d.moved, vec![Moved { partition: tp("t", u32::MAX), from: "a".into(), to: None }]);
    }

    /// The moves come in `TopicPartition` order, topics in Java's UTF-16 order (not the order
    /// met, nor UTF-8's: `\u{FF61}` sorts after `\u{10000}` in UTF-8, before it in UTF-16), and
    /// a partition listed by two members moves twice, in the order listed.
    #[test]
    fn moves_come_in_java_order() {
        let topics = ["b", "\u{FF61}", "a", "\u{10000}", "ab"];
        let mut before: Lists = Lists::new();
        for (m, member) in ["m1", "m2", "m3"].into_iter().enumerate() {
            let list = topics.iter().rev().flat_map(|t| (0..4).rev().map(move |p| tp(t, p + m as u32))).collect();
            before.insert(member.into(), list);
        }
        let after: Lists = [("m4".into(), before.values().flatten().cloned().collect())].into();
        let moved = diff(&before, &after).moved;
        let mut expected: Vec<&TopicPartition> = before.values().flatten().collect();
        expected.sort();
        assert_eq!(moved.iter().map(|m| &m.partition).collect::<Vec<_>>(), expected);
        // Partition 2 of "a" was listed by m1, m2 and m3: three moves, in that order.
        let twice: Vec<&str> = moved.iter().filter(|m| m.partition == tp("a", 2)).map(|m| m.from.as_str()).collect();
        assert_eq!(twice, ["m1", "m2", "m3"]);
    }

    #[test]
    fn revoked_count_adds_every_members_revocations() {
        let before: Lists =
            [("a".into(), vec![tp("t", 0), tp("t", 1), tp("t", 2)]), ("b".into(), vec![tp("t", 3)])].into();
        let after: Lists = [("a".into(), vec![tp("t", 0)]), ("c".into(), vec![tp("t", 1), tp("t", 2)])].into();
        // a gives up t-1 and t-2, b (gone) gives up t-3.
        assert_eq!(diff(&before, &after).revoked_count(), 3);
        assert_eq!(diff(&before, &before).revoked_count(), 0);
    }

    fn member(id: &str, owned: &[u32]) -> crate::Member {
        crate::Member {
            id: id.into(),
            topics: vec!["t".into()],
            owned: owned.iter().map(|&p| tp("t", p)).collect(),
            generation: (!owned.is_empty()).then_some(1),
            ..crate::Member::default()
        }
    }

    fn group(partitions: u32, members: Vec<crate::Member>) -> Group {
        Group { topics: vec![crate::Topic::new("t", partitions)], members }
    }

    #[test]
    fn a_cooperative_join_takes_two_rounds_and_stops_only_what_moves() {
        let g = group(4, vec![member("A", &[0, 1, 2, 3]), member("B", &[])]);
        let r = rebalance(Strategy::CooperativeSticky, &g, &Lists::new()).unwrap();
        // Round one: A gives up two partitions, held back; round two hands them to B (KIP-429).
        assert_eq!(r.rounds.iter().map(|r| r.generation).collect::<Vec<_>>(), [2, 3]);
        assert_eq!(r.rounds[0].diff.revoked_count(), 2);
        assert_eq!(r.rounds[1].diff.revoked_count(), 0);
        assert_eq!(r.paused_count(), 2);
        assert_eq!(r.paused["A"].len(), 2);
        assert!(r.paused["B"].is_empty());
        assert_eq!(r.result()["B"].len(), 2);
        assert!(r.settled);
    }

    #[test]
    fn an_eager_rebalance_stops_everything_in_one_round() {
        let g = group(4, vec![member("A", &[0, 1]), member("B", &[2, 3])]);
        let r = rebalance(Strategy::Range, &g, &Lists::new()).unwrap();
        assert_eq!(r.rounds.len(), 1);
        assert_eq!(r.paused_count(), 4);
        assert!(r.settled);
    }

    #[test]
    fn what_a_departed_member_owned_moves_without_a_follow_up_round() {
        let g = group(6, vec![member("A", &[0, 1]), member("B", &[2, 3])]);
        let departed: Lists = [("C".into(), vec![tp("t", 4), tp("t", 5)])].into();
        let r = rebalance(Strategy::CooperativeSticky, &g, &departed).unwrap();
        assert_eq!(r.rounds.len(), 1, "nobody still in the group revoked anything");
        assert_eq!(r.paused_count(), 0);
        assert_eq!(r.diff.revoked_count(), 2, "C's two partitions");
        assert_eq!(r.diff.moved.len(), 2);
    }

    #[test]
    fn a_cooperative_member_that_only_revokes_still_rejoins() {
        // A drops its subscription to u: u-0 is revoked and given to no one, so nothing is held
        // back, yet a cooperative client that revoked anything rejoins at once (KIP-429).
        let mut a = member("A", &[0]);
        a.owned.push(tp("u", 0));
        let g = Group { topics: vec![crate::Topic::new("t", 1), crate::Topic::new("u", 1)], members: vec![a] };
        let r = rebalance(Strategy::CooperativeSticky, &g, &Lists::new()).unwrap();
        assert!(r.rounds[0].assignment.withheld.is_empty());
        assert_eq!(r.rounds[0].diff.revoked_count(), 1);
        assert_eq!(r.rounds.len(), 2);
        assert_eq!(r.result()["A"], [tp("t", 0)]);
    }
}
