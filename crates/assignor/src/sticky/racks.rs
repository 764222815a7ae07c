//! The sticky family's rack view (KIP-881, `RackInfo`).
//!
//! Rack logic is on only when some consumer's rack holds replicas and not every partition is on
//! every rack ([`use_rack_aware`]); when it is off, every predicate here answers "no rack", as
//! Kafka's empty maps do.

use std::collections::HashSet;

use crate::prepared::{use_rack_aware, MemberIdx, PartitionIdx, Prepared, RackIdx};

pub(crate) struct RackView<'g, 'a> {
    g: &'g Prepared<'a>,
    pub aware: bool,
    /// Members on each rack (all members with a rack, counted even when rack logic is off).
    members_on: Vec<u32>,
}

impl<'g, 'a> RackView<'g, 'a> {
    pub fn new(g: &'g Prepared<'a>) -> Self {
        let consumer_racks: HashSet<RackIdx> = g.racks.member.iter().flatten().copied().collect();
        let aware = g.racks.any_member_rack()
            && use_rack_aware(
                &consumer_racks,
                (0..g.partition_count() as u32).map(|p| g.racks.of_partition(PartitionIdx(p))),
            );
        let mut members_on = vec![0u32; g.racks.count];
        for r in g.racks.member.iter().flatten() {
            members_on[r.ix()] += 1;
        }
        RackView { g, aware, members_on }
    }

    fn rack_of(&self, m: MemberIdx) -> Option<RackIdx> {
        if self.aware {
            self.g.racks.member[m.ix()]
        } else {
            None
        }
    }

    /// `racksMismatch`: `m` has a rack and no replica of `p` is on it. A rackless member never
    /// mismatches.
    pub fn mismatch(&self, m: MemberIdx, p: PartitionIdx) -> bool {
        self.rack_of(m).is_some_and(|r| !self.g.racks.of_partition(p).contains(&r))
    }

    /// `nextRackConsumer`'s test: `m` has a rack and a replica of `p` is on it.
    pub fn on_replica_rack(&self, m: MemberIdx, p: PartitionIdx) -> bool {
        self.rack_of(m).is_some_and(|r| self.g.racks.of_partition(p).contains(&r))
    }

    /// How many members sit on the racks of `p`'s replicas: partitions with fewer candidates are
    /// placed first.
    pub fn members_on_racks(&self, p: PartitionIdx) -> u32 {
        self.g.racks.of_partition(p).iter().map(|r| self.members_on[r.ix()]).sum()
    }
}
