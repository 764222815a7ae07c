//! The constrained builder, for groups whose members all subscribe to the same topics (KAFKA-9987,
//! rewritten with min/max quotas in KAFKA-12464).
//!
//! Every member ends with `minQuota = P / N` or `maxQuota = ⌈P / N⌉` partitions, and exactly
//! `P % N` of them with `maxQuota`. Members keep what they owned up to their quota, in `HashMap`
//! order, so which members get the `maxQuota` slots depends on Java's hashing. The rest is dealt
//! round-robin, first on matching racks (KIP-881), then to anyone under quota.

use std::collections::VecDeque;

use super::ownership::Ownership;
use super::racks::RackView;
use crate::error::AssignError;
use crate::prepared::{MaybeMember, MemberIdx, PartitionIdx, Prepared, TopicIdx};
use crate::trace::{LossReason, Step, Tracer};

pub(crate) struct Constrained {
    pub lists: Vec<Vec<PartitionIdx>>,
    /// `partitionsTransferringOwnership`: partitions given to a member other than the one that
    /// owned them, with that new member.
    pub transferring: Vec<(PartitionIdx, MemberIdx)>,
}

struct Builder<'g, 'a, 'o, 'r, T: Tracer> {
    g: &'g Prepared<'a>,
    own: &'o Ownership,
    racks: &'r RackView<'g, 'a>,
    trace: &'o mut T,
    min_quota: usize,
    max_quota: usize,
    /// How many members are to end with `maxQuota` (zero when the quotas are equal).
    expected_over: usize,
    current_over: usize,
    lists: Vec<Vec<PartitionIdx>>,
    /// Members below `minQuota`.
    under: Vec<MemberIdx>,
    /// Members at `minQuota` that may still take one more.
    exact: VecDeque<MemberIdx>,
    /// Owned partitions a member could not keep (over quota or off its rack), with that member;
    /// empty until the first one.
    maybe_revoked: Vec<MaybeMember>,
    topic_by_rank: Vec<TopicIdx>,
    transferring: Vec<(PartitionIdx, MemberIdx)>,
}

pub(crate) fn build<T: Tracer>(
    g: &Prepared,
    hash_order: &[MemberIdx],
    own: &Ownership,
    racks: &RackView,
    trace: &mut T,
) -> Result<Constrained, AssignError> {
    let n = g.member_count();
    if n == 0 {
        return Err(AssignError::KafkaThrows("ArithmeticException: / by zero (no members)".into()));
    }
    let total = g.partition_count();
    trace.record(|| Step::Note {
        text: "every member subscribes to the same topics: constrained assignment (KAFKA-9987, KAFKA-12464)".into(),
    });
    let mut b = Builder {
        g,
        own,
        racks,
        trace,
        min_quota: total / n,
        max_quota: total.div_ceil(n),
        expected_over: total % n,
        current_over: 0,
        lists: vec![Vec::new(); n],
        under: Vec::new(),
        exact: VecDeque::new(),
        maybe_revoked: Vec::new(),
        topic_by_rank: {
            let mut topics: Vec<TopicIdx> = (0..g.topics.len() as u32).map(TopicIdx).collect();
            topics.sort_by_key(|&t| g.topic(t).rank);
            topics
        },
        transferring: Vec::new(),
    };
    b.trace.record(|| Step::StickyQuota {
        min: b.min_quota as u32,
        max: b.max_quota as u32,
        expected_at_max: b.expected_over as u32,
    });
    b.keep_owned(hash_order);
    let mut unassigned = b.unassigned();
    b.under.sort_by_key(|m| g.member_rank[m.ix()]);
    b.exact.make_contiguous().sort_by_key(|m| g.member_rank[m.ix()]);
    if racks.aware {
        // Stable: partitions on fewer members' racks go first, else topic and partition order.
        unassigned.sort_by_key(|&p| racks.members_on_racks(p));
    }
    b.trace_orders(&unassigned);
    if racks.aware {
        unassigned = b.deal_on_racks(unassigned);
    }
    b.deal_round_robin(&unassigned)?;
    b.verify()?;
    Ok(Constrained { lists: b.lists, transferring: b.transferring })
}

impl<T: Tracer> Builder<'_, '_, '_, '_, T> {
    /// (a) Each member, in `HashMap` order, keeps its owned partitions up to its quota, sorted by
    /// (partition, topic) (KAFKA-16277); the first `P % N` members owning `maxQuota` or more keep
    /// `maxQuota`. Off-rack partitions are given up (KAFKA-15170), as are double claims.
    fn keep_owned(&mut self, hash_order: &[MemberIdx]) {
        let g = self.g;
        for &c in hash_order {
            let mut kept: Vec<PartitionIdx> = Vec::with_capacity(self.own.own[c.ix()].len());
            for &p in &self.own.own[c.ix()] {
                if self.racks.mismatch(c, p) {
                    self.maybe_revoke(p, c);
                    self.lose(p, c, LossReason::RackMismatch);
                } else {
                    kept.push(p);
                }
            }
            // Sorted by (partition number, topic name), as one packed key per partition.
            let mut keys: Vec<u64> = kept.iter().map(|&p| self.sort_key(p)).collect();
            keys.sort_unstable();
            kept.clear();
            kept.extend(keys.iter().map(|&k| self.partition_of_key(k)));
            if self.own.any_doubly() {
                let own = self.own;
                let trace = &mut *self.trace;
                kept.retain(|&p| {
                    let doubly = own.is_doubly(p);
                    if doubly {
                        trace.record(|| {
                            let (other, generation) = own.doubly_claimant.get(&p).copied().unwrap_or((c, -1));
                            Step::Lose {
                                partition: g.topic_partition(p),
                                member: g.member_id(c).into(),
                                reason: LossReason::ClaimedTwice { other: g.member_id(other).into(), generation },
                            }
                        });
                    }
                    !doubly
                });
            }
            let keep = if kept.len() < self.min_quota {
                self.under.push(c);
                kept.len()
            } else if kept.len() >= self.max_quota && self.current_over < self.expected_over {
                self.current_over += 1;
                if self.current_over == self.expected_over {
                    self.exact.clear();
                }
                self.max_quota
            } else {
                if self.current_over < self.expected_over {
                    self.exact.push_back(c);
                }
                self.min_quota
            };
            for &p in &kept[..keep] {
                self.trace.record(|| Step::Keep { partition: g.topic_partition(p), member: g.member_id(c).into() });
            }
            for &p in &kept[keep..] {
                self.maybe_revoke(p, c);
                self.lose(p, c, LossReason::OverQuota);
            }
            kept.truncate(keep);
            self.lists[c.ix()] = kept;
        }
    }

    fn maybe_revoke(&mut self, p: PartitionIdx, c: MemberIdx) {
        if self.maybe_revoked.is_empty() {
            self.maybe_revoked = vec![MaybeMember::NONE; self.g.partition_count()];
        }
        self.maybe_revoked[p.ix()] = c.into();
    }

    fn sort_key(&self, p: PartitionIdx) -> u64 {
        let t = self.g.topic_of(p);
        let info = self.g.topic(t);
        (u64::from(p.0 - info.first) << 32) | u64::from(info.rank)
    }

    fn partition_of_key(&self, key: u64) -> PartitionIdx {
        let t = self.topic_by_rank[(key & u64::from(u32::MAX)) as usize];
        PartitionIdx(self.g.topic(t).first + (key >> 32) as u32)
    }

    fn lose(&mut self, p: PartitionIdx, c: MemberIdx, reason: LossReason) {
        let g = self.g;
        self.trace.record(|| Step::Lose { partition: g.topic_partition(p), member: g.member_id(c).into(), reason });
    }

    /// (b) Every partition nobody kept, by topic name and partition number.
    fn unassigned(&self) -> Vec<PartitionIdx> {
        let g = self.g;
        let mut assigned = vec![0u64; g.partition_count().div_ceil(64)];
        for p in self.lists.iter().flatten() {
            assigned[p.ix() / 64] |= 1 << (p.ix() % 64);
        }
        self.topic_by_rank
            .iter()
            .flat_map(|&t| g.partitions_of(t))
            .filter(|p| assigned[p.ix() / 64] & (1 << (p.ix() % 64)) == 0)
            .collect()
    }

    fn trace_orders(&mut self, unassigned: &[PartitionIdx]) {
        let g = self.g;
        let names =
            |members: &mut dyn Iterator<Item = &MemberIdx>| members.map(|&m| g.member_id(m).to_string()).collect();
        self.trace.record(|| Step::Order {
            name: "members under minQuota, by member id".into(),
            items: names(&mut self.under.iter()),
        });
        self.trace.record(|| Step::Order {
            name: "members at minQuota that may take one more, by member id".into(),
            items: names(&mut self.exact.iter()),
        });
        let aware = self.racks.aware;
        self.trace.record(|| Step::Order {
            name: if aware {
                "unassigned partitions, fewest members on their racks first (KIP-881)".into()
            } else {
                "unassigned partitions, by topic and partition".into()
            },
            items: unassigned.iter().map(|&p| g.topic_partition(p).to_string()).collect(),
        });
    }

    /// Appends `p` to `c`'s list; it transfers ownership if another member gave it up or it was
    /// claimed twice. Returns `c`'s new count.
    fn give(&mut self, p: PartitionIdx, c: MemberIdx) -> usize {
        let g = self.g;
        self.lists[c.ix()].push(p);
        self.trace.record(|| Step::Assign { partition: g.topic_partition(p), member: g.member_id(c).into() });
        let revoked_from = self.maybe_revoked.get(p.ix()).and_then(|m| m.get());
        if revoked_from.is_some_and(|m| m != c) || self.own.is_doubly(p) {
            self.transferring.push((p, c));
        }
        self.lists[c.ix()].len()
    }

    /// The first member of `members`, from `first` on and wrapping, on a rack with a replica of `p`.
    fn next_on_rack(&self, p: PartitionIdx, members: &[MemberIdx], first: usize) -> Option<usize> {
        let len = members.len();
        (0..len).map(|i| (first + i) % len).find(|&i| self.racks.on_replica_rack(members[i], p))
    }

    /// (c) Rack round-robin (KIP-881): each partition to the next member under `minQuota` on one of
    /// its racks, else to the first member at `minQuota` on one (KAFKA-15170). Returns what is
    /// left, in order.
    fn deal_on_racks(&mut self, unassigned: Vec<PartitionIdx>) -> Vec<PartitionIdx> {
        let mut next = 0usize;
        let mut left = Vec::new();
        for p in unassigned {
            let mut chosen = None;
            if let Some(mut i) = self.next_on_rack(p, &self.under, next) {
                let c = self.under[i];
                let count = self.lists[c.ix()].len() + 1;
                if count >= self.min_quota {
                    self.under.remove(i);
                    if count < self.max_quota && self.current_over < self.expected_over {
                        self.exact.push_back(c);
                    }
                } else {
                    i += 1;
                }
                next = if self.under.is_empty() { 0 } else { i % self.under.len() };
                chosen = Some(c);
            } else if !self.exact.is_empty() {
                if let Some(j) = self.exact.iter().position(|&m| self.racks.on_replica_rack(m, p)) {
                    let c = self.exact[j];
                    if self.lists[c.ix()].len() + 1 == self.max_quota {
                        self.exact.remove(j);
                        self.current_over += 1;
                        if self.current_over == self.expected_over {
                            self.exact.clear();
                        }
                    }
                    chosen = Some(c);
                }
            }
            match chosen {
                Some(c) => {
                    self.give(p, c);
                }
                None => left.push(p),
            }
        }
        left
    }

    /// (d) Round-robin over the members under `minQuota` (by member id) until they reach it; then
    /// the members that may take one more, first come first served.
    fn deal_round_robin(&mut self, unassigned: &[PartitionIdx]) -> Result<(), AssignError> {
        // A cursor into `under`, as Java's iterator over its linked list.
        let mut cursor = 0usize;
        for &p in unassigned {
            let (c, from_under) = if cursor < self.under.len() {
                cursor += 1;
                (self.under[cursor - 1], true)
            } else if let Some(&first) = self.under.first() {
                cursor = 1;
                (first, true)
            } else if let Some(c) = self.exact.pop_front() {
                (c, false)
            } else {
                return Err(AssignError::KafkaThrows(
                    "IllegalStateException: No more unfilled consumers to be assigned.".into(),
                ));
            };
            let count = self.give(p, c);
            if count == self.min_quota {
                if !from_under {
                    return Err(AssignError::KafkaThrows("IllegalStateException: iterator remove".into()));
                }
                cursor -= 1;
                self.under.remove(cursor);
                self.exact.push_back(c);
            } else if count == self.max_quota {
                self.current_over += 1;
            }
        }
        Ok(())
    }

    /// (e) Kafka's final check on members still under `minQuota`.
    fn verify(&self) -> Result<(), AssignError> {
        if self.under.is_empty() {
            return Ok(());
        }
        if self.current_over != self.expected_over {
            return Err(AssignError::KafkaThrows(
                "IllegalStateException: We haven't reached the expected number of members with more than the \
                 minQuota partitions, but no more partitions to be assigned"
                    .into(),
            ));
        }
        if let Some(&m) = self.under.iter().find(|m| self.lists[m.ix()].len() != self.min_quota) {
            return Err(AssignError::KafkaThrows(format!(
                "IllegalStateException: Consumer: [{}] doesn't reach minQuota partitions, and no more partitions to \
                 be assigned",
                self.g.member_id(m)
            )));
        }
        Ok(())
    }
}
