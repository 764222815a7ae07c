//! `cooperative-sticky`'s last step (KIP-429): a partition that changes owner is withheld from its
//! new owner for this rebalance, so the old owner can revoke it first; the next rebalance hands
//! it over. Two members never consume one partition at once.

use super::member_data::MemberData;
use crate::prepared::{MaybeMember, MemberIdx, PartitionIdx, Prepared};
use crate::trace::{Step, Tracer};

/// Who claimed each partition in its `ownedPartitions` (the raw lists, conflicts not resolved);
/// only for the trace.
struct RawOwners {
    first: Vec<MaybeMember>,
    /// Further claimants of partitions claimed more than once.
    more: Vec<(PartitionIdx, MemberIdx)>,
}

impl RawOwners {
    fn new(g: &Prepared, data: &MemberData) -> Self {
        let mut first = vec![MaybeMember::NONE; g.partition_count()];
        let mut more = Vec::new();
        for m in g.members() {
            for &p in &data.owned[m.ix()] {
                if first[p.ix()].is_none() {
                    first[p.ix()] = m.into();
                } else if first[p.ix()] != m.into() {
                    more.push((p, m));
                }
            }
        }
        more.sort_unstable();
        more.dedup();
        RawOwners { first, more }
    }

    fn others(&self, p: PartitionIdx) -> impl Iterator<Item = MemberIdx> + '_ {
        let start = self.more.partition_point(|&(q, _)| q < p);
        self.first[p.ix()]
            .get()
            .into_iter()
            .chain(self.more[start..].iter().take_while(move |&&(q, _)| q == p).map(|&(_, m)| m))
    }
}

/// `computePartitionsTransferringOwnership`, for the general builder (which leaves the map
/// null): partitions new to their owner that some other member owned and no longer has. `owner`
/// is each partition's new owner.
pub(crate) fn transferring(
    g: &Prepared,
    data: &MemberData,
    lists: &[Vec<PartitionIdx>],
    owner: &[MaybeMember],
) -> Vec<(PartitionIdx, MemberIdx)> {
    // Revoked: owned before by a member that no longer has it. Usually nothing is.
    let mut revoked: Vec<u64> = Vec::new();
    for m in g.members() {
        for &p in &data.owned[m.ix()] {
            if owner[p.ix()] != m.into() {
                if revoked.is_empty() {
                    revoked = vec![0; g.partition_count().div_ceil(64)];
                }
                revoked[p.ix() / 64] |= 1 << (p.ix() % 64);
            }
        }
    }
    if revoked.is_empty() {
        return Vec::new();
    }
    let is_revoked = |p: PartitionIdx| revoked[p.ix() / 64] & (1 << (p.ix() % 64)) != 0;
    // Added: in a member's new list but not in what it owned; member by member, its owned
    // partitions are stamped first.
    let mut stamp = vec![MaybeMember::NONE; g.partition_count()];
    let mut moving = Vec::new();
    for m in g.members() {
        for &p in &data.owned[m.ix()] {
            stamp[p.ix()] = m.into();
        }
        moving.extend(lists[m.ix()].iter().filter(|&&p| is_revoked(p) && stamp[p.ix()] != m.into()).map(|&p| (p, m)));
    }
    moving
}

/// Removes each moving partition from its new owner's list.
pub(crate) fn withhold<T: Tracer>(
    g: &Prepared,
    data: &MemberData,
    lists: &mut [Vec<PartitionIdx>],
    moving: &[(PartitionIdx, MemberIdx)],
    trace: &mut T,
) {
    if moving.is_empty() {
        return;
    }
    trace.record(|| Step::Note {
        text: "partitions changing owner are withheld until their owner has revoked them (KIP-429)".into(),
    });
    let mut held = vec![false; g.partition_count()];
    let mut members: Vec<MemberIdx> = Vec::new();
    for &(p, m) in moving {
        held[p.ix()] = true;
        members.push(m);
    }
    if trace.enabled() {
        let raw = RawOwners::new(g, data);
        for &(p, to) in moving {
            let from = raw.others(p).find(|&o| o != to);
            trace.record(|| Step::Withhold {
                partition: g.topic_partition(p),
                from: from.map_or_else(String::new, |o| g.member_id(o).to_string()),
                to: g.member_id(to).into(),
            });
        }
    }
    members.sort_unstable();
    members.dedup();
    for m in members {
        lists[m.ix()].retain(|p| !held[p.ix()]);
    }
}
