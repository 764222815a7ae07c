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
use crate::prepared::{MaybeMember, MemberIdx, PartitionIdx, Prepared};
use crate::trace::{LossReason, Step, Tracer};

/// Marks a removed entry in an owned list until the lists are compacted.
const GONE: PartitionIdx = PartitionIdx(u32::MAX);

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
    let mut claims = Claims::new(g.partition_count());
    let mut doubly: Vec<bool> = Vec::new();
    let mut doubly_claimant = HashMap::new();
    let mut compact = false;

    for (done, &m) in hash_order.iter().enumerate() {
        equal.visit(g, m);
        let gen = data.generation_or_default(m);
        max_generation = max_generation.max(gen);
        own[m.ix()].reserve_exact(data.owned[m.ix()].len());
        for &p in &data.owned[m.ix()] {
            if claims.first_claim(p) {
                claims.record(p, m, own[m.ix()].len());
                own[m.ix()].push(p);
                continue;
            }
            let (claim, live) = claims.detailed(&hash_order[..=done], &own);
            // A claimed partition has a claimant from the first claim on.
            let Some(other) = claim[p.ix()].get() else {
                continue;
            };
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
            let was_live = live[p.ix()].is_some();
            if let Some(at) = live[p.ix()].take() {
                own[other.ix()][at as usize] = GONE;
                compact = true;
            }
            claim[p.ix()] = m.into();
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
                live[p.ix()] = Some(own[m.ix()].len() as u32);
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

/// Who claims each partition. Conflicts are rare, so at first only a bit per partition is kept;
/// the first conflict builds the full tables from the lists so far: per partition, the member
/// whose claim stands last, and where its live entry sits in that member's list (a partition is
/// live in at most one list, the last claimant's).
struct Claims {
    claimed: Vec<u64>,
    claim: Vec<MaybeMember>,
    live: Vec<Option<u32>>,
}

impl Claims {
    fn new(partitions: usize) -> Self {
        Claims { claimed: vec![0; partitions.div_ceil(64)], claim: Vec::new(), live: Vec::new() }
    }

    /// Whether `p` is claimed for the first time (then it is marked claimed).
    fn first_claim(&mut self, p: PartitionIdx) -> bool {
        let (word, bit) = (p.ix() / 64, 1u64 << (p.ix() % 64));
        let first = self.claimed[word] & bit == 0;
        self.claimed[word] |= bit;
        first
    }

    fn record(&mut self, p: PartitionIdx, m: MemberIdx, at: usize) {
        if !self.claim.is_empty() {
            self.claim[p.ix()] = m.into();
            self.live[p.ix()] = Some(at as u32);
        }
    }

    /// The full tables, built on first use from the members processed so far.
    fn detailed(
        &mut self,
        processed: &[MemberIdx],
        own: &[Vec<PartitionIdx>],
    ) -> (&mut [MaybeMember], &mut [Option<u32>]) {
        if self.claim.is_empty() {
            let partitions = self.claimed.len() * 64;
            self.claim = vec![MaybeMember::NONE; partitions];
            self.live = vec![None; partitions];
            // Before the first conflict every claim was a first claim: each partition sits in
            // exactly one list.
            for &m in processed {
                for (i, &q) in own[m.ix()].iter().enumerate() {
                    self.claim[q.ix()] = m.into();
                    self.live[q.ix()] = Some(i as u32);
                }
            }
        }
        (&mut self.claim, &mut self.live)
    }
}

/// `allSubscriptionsEqual`'s test, on the raw topic lists (names, even of topics that do not
/// exist): the first non-empty list becomes the reference set; every later member must list as
/// many names as the set holds, all in it.
///
/// Quirk kept (§7): members with empty lists before the first non-empty one are never compared,
/// so a group whose first member in `HashMap` order subscribes to nothing can count as equal.
struct EqualCheck<'a> {
    equal: bool,
    /// The reference member, its set of names, and whether its list is exactly its existing
    /// topics without repeats (then comparing topic ids is comparing names).
    reference: Option<(MemberIdx, HashSet<&'a str>, bool)>,
}

impl Default for EqualCheck<'_> {
    fn default() -> Self {
        EqualCheck { equal: true, reference: None }
    }
}

impl<'a> EqualCheck<'a> {
    fn visit(&mut self, g: &Prepared<'a>, m: MemberIdx) {
        let topics: &'a [String] = &g.subscription(m).topics;
        let plain = |m: MemberIdx| g.member_topics[m.ix()].len() == g.subscription(m).topics.len();
        match &self.reference {
            None => {
                if !topics.is_empty() {
                    self.reference = Some((m, topics.iter().map(String::as_str).collect(), plain(m)));
                }
            }
            Some((r, set, r_plain)) => {
                if self.equal {
                    self.equal = topics.len() == set.len()
                        && ((*r_plain && plain(m) && g.member_topics[m.ix()] == g.member_topics[r.ix()])
                            || topics.iter().all(|t| set.contains(t.as_str())));
                }
            }
        }
    }
}
