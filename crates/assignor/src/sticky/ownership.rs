//! One pass over the members in the leader's `HashMap` order: are all subscriptions equal, and who
//! keeps which claimed partition (`allSubscriptionsEqual`).
//!
//! Conflicting claims are settled partition by partition (KAFKA-14639, KAFKA-15106): a higher
//! generation takes the partition from the member that claimed it before, an equal generation
//! leaves it to nobody (and marks it claimed twice), a lower one is ignored. The earlier claimant's
//! generation is its subscription's `generationId`, not its memberData generation; the two differ
//! only for eager members. Because the claims are resolved in pass order, three or more claimants
//! can end differently in another order: the order is Java's, emulated.

use std::collections::{HashMap, HashSet};

use super::member_data::{subscription_generation, MemberData};
use crate::prepared::{MemberIdx, PartitionIdx, Prepared};
use crate::trace::{LossReason, Step, Tracer};

/// Marks a removed entry in an owned list until the lists are compacted.
const GONE: PartitionIdx = PartitionIdx(u32::MAX);
const NONE: u32 = u32::MAX;

pub(crate) struct Ownership {
    /// Whether the constrained builder applies (see the quirk in [`resolve`]).
    pub all_equal: bool,
    pub max_generation: i32,
    /// Each member's claimed partitions that survived the conflicts, in memberData order.
    pub own: Vec<Vec<PartitionIdx>>,
    /// Partitions two members claimed in the same generation; empty when there are none.
    doubly: Vec<bool>,
    /// For the trace: one of the members behind each double claim, with its generation.
    pub doubly_claimant: HashMap<PartitionIdx, (MemberIdx, i32)>,
}

impl Ownership {
    pub fn is_doubly(&self, p: PartitionIdx) -> bool {
        self.doubly.get(p.ix()).copied().unwrap_or(false)
    }

    pub fn any_doubly(&self) -> bool {
        !self.doubly.is_empty()
    }
}

pub(crate) fn resolve<T: Tracer>(
    g: &Prepared,
    hash_order: &[MemberIdx],
    data: &MemberData,
    trace: &mut T,
) -> Ownership {
    let mut equal = EqualCheck::default();
    let mut max_generation = -1;
    let mut own: Vec<Vec<PartitionIdx>> = vec![Vec::new(); g.member_count()];
    // Per partition: the member whose claim stands last, and where its live entry sits in that
    // member's list. A partition is live in at most one list, the last claimant's.
    let mut claim = vec![NONE; g.partition_count()];
    let mut live = vec![NONE; g.partition_count()];
    let mut doubly: Vec<bool> = Vec::new();
    let mut doubly_claimant = HashMap::new();
    let mut compact = false;

    for &m in hash_order {
        equal.visit(g, m);
        let gen = data.generation_or_default(m);
        max_generation = max_generation.max(gen);
        for &p in &data.owned[m.ix()] {
            let o = claim[p.ix()];
            if o == NONE {
                live[p.ix()] = own[m.ix()].len() as u32;
                own[m.ix()].push(p);
                claim[p.ix()] = m.0;
                continue;
            }
            let other = MemberIdx(o);
            let other_gen = subscription_generation(g, other);
            if gen < other_gen {
                trace.record(|| Step::Lose {
                    partition: g.topic_partition(p),
                    member: g.member_id(m).into(),
                    reason: LossReason::OlderGeneration {
                        winner: g.member_id(other).into(),
                        winner_generation: other_gen,
                        generation: gen,
                    },
                });
                continue;
            }
            let was_live = live[p.ix()] != NONE;
            if was_live {
                own[other.ix()][live[p.ix()] as usize] = GONE;
                live[p.ix()] = NONE;
                compact = true;
            }
            claim[p.ix()] = m.0;
            if gen == other_gen {
                if doubly.is_empty() {
                    doubly = vec![false; g.partition_count()];
                }
                doubly[p.ix()] = true;
                if trace.enabled() {
                    doubly_claimant.insert(p, (other, gen));
                }
                let claimed_twice = |loser: MemberIdx, other: MemberIdx| Step::Lose {
                    partition: g.topic_partition(p),
                    member: g.member_id(loser).into(),
                    reason: LossReason::ClaimedTwice { other: g.member_id(other).into(), generation: gen },
                };
                if was_live {
                    trace.record(|| claimed_twice(other, m));
                }
                trace.record(|| claimed_twice(m, other));
            } else {
                if was_live {
                    trace.record(|| Step::Lose {
                        partition: g.topic_partition(p),
                        member: g.member_id(other).into(),
                        reason: LossReason::OlderGeneration {
                            winner: g.member_id(m).into(),
                            winner_generation: gen,
                            generation: other_gen,
                        },
                    });
                }
                live[p.ix()] = own[m.ix()].len() as u32;
                own[m.ix()].push(p);
            }
        }
    }
    if compact {
        for list in &mut own {
            list.retain(|&p| p != GONE);
        }
    }
    Ownership { all_equal: equal.equal, max_generation, own, doubly, doubly_claimant }
}

/// `allSubscriptionsEqual`'s test, on the raw topic lists (names, even of topics that do not
/// exist): the first non-empty list becomes the reference set; every later member must list as
/// many names as the set holds, all in it.
///
/// Quirk kept (§7): members with empty lists before the first non-empty one are never compared,
/// so a group whose first member in `HashMap` order subscribes to nothing can count as equal.
struct EqualCheck<'a> {
    equal: bool,
    reference: Option<(&'a [String], HashSet<&'a str>)>,
}

impl Default for EqualCheck<'_> {
    fn default() -> Self {
        EqualCheck { equal: true, reference: None }
    }
}

impl<'a> EqualCheck<'a> {
    fn visit(&mut self, g: &Prepared<'a>, m: MemberIdx) {
        let topics: &'a [String] = &g.subscription(m).topics;
        match &self.reference {
            None => {
                if !topics.is_empty() {
                    self.reference = Some((topics, topics.iter().map(String::as_str).collect()));
                }
            }
            Some((first, set)) => {
                if self.equal {
                    let same = topics.len() == set.len()
                        // Clients send sorted lists, so equal sets are usually equal lists.
                        && ((first.len() == set.len() && topics == *first)
                            || topics.iter().all(|t| set.contains(t.as_str())));
                    self.equal = same;
                }
            }
        }
    }
}
