//! `sticky` (KIP-54) and `cooperative-sticky` (KIP-429): as balanced as possible, and otherwise
//! moving as few partitions as possible.
//!
//! With `t0` (3 partitions), consumers `C0` and `C1` subscribed to it, and `C0` having owned
//! `[t0-0, t0-1, t0-2]`: the quotas are 1 and 2, `C0` keeps `[t0-0, t0-1]`, and `t0-2` moves to
//! `C1`. Under `sticky` the result is `C0: [t0-0, t0-1]`, `C1: [t0-2]`; under
//! `cooperative-sticky` `t0-2` is withheld this round (`C1: []`) so that `C0` revokes it first,
//! and the follow-up rebalance gives it to `C1`.
//!
//! With unequal subscriptions, `t0` (1 partition), `t1` (2), `t2` (3) and `C0: t0`,
//! `C1: t0,t1`, `C2: t0,t1,t2`, a fresh group gets `C0: [t0-0]`, `C1: [t1-0, t1-1]`,
//! `C2: [t2-0, t2-1, t2-2]` (roundrobin would give `C2` four): partitions of the topics with the
//! fewest subscribers are placed first, each on the least loaded member that can take it.
//!
//! The phases, in Kafka's order:
//! 1. previous ownership per strategy ([`member_data`]);
//! 2. one pass in the leader's `HashMap` order: equal subscriptions? conflicting claims
//!    ([`ownership`], KAFKA-12984, KAFKA-14639);
//! 3. racks (KIP-881, [`racks`]);
//! 4. the constrained builder when all subscriptions are equal ([`constrained`], KAFKA-9987,
//!    KAFKA-12464, KAFKA-16277, KAFKA-15170), else the general one ([`general`], KIP-341,
//!    KAFKA-15106, with [`movements`]);
//! 5. `cooperative-sticky` only: withhold partitions that change owner ([`cooperative`]).

mod constrained;
mod cooperative;
mod general;
mod member_data;
mod movements;
mod ownership;
mod racks;

use crate::error::AssignError;
use crate::prepared::{MemberIdx, PartitionIdx, Prepared};
use crate::trace::{Step, Tracer};

/// What a sticky-family run returns, in dense ids.
pub(crate) struct StickyOutcome {
    /// Each member's list, by `MemberIdx`, in Kafka's order.
    pub lists: Vec<Vec<PartitionIdx>>,
    /// `partitionsTransferringOwnership`; `None` on the general path.
    pub transferring: Option<Vec<(PartitionIdx, MemberIdx)>>,
    /// Cooperative only: partitions withheld this round, with the member they are meant for.
    pub withheld: Vec<(PartitionIdx, MemberIdx)>,
}

pub(crate) fn assign<T: Tracer>(
    g: &Prepared,
    hash_order: &[MemberIdx],
    cooperative: bool,
    trace: &mut T,
) -> Result<StickyOutcome, AssignError> {
    trace.record(|| Step::Order {
        name: "members in the leader's HashMap order".into(),
        items: hash_order.iter().map(|&m| g.member_id(m).to_string()).collect(),
    });
    let data = member_data::read(g, cooperative)?;
    let own = ownership::resolve(g, hash_order, &data, trace);
    let racks = racks::RackView::new(g);
    if racks.aware {
        trace.record(|| Step::Note {
            text: "some consumers' racks hold only some partitions' replicas: rack-aware (KIP-881)".into(),
        });
    }
    let (mut lists, transferring, owner) = if own.all_equal {
        let built = constrained::build(g, hash_order, &own, &racks, trace)?;
        (built.lists, Some(built.transferring), None)
    } else {
        let built = general::build(g, hash_order, &data, &own, &racks, trace)?;
        (built.lists, None, Some(built.owner))
    };
    let withheld = if cooperative {
        let moving = match (&transferring, &owner) {
            (Some(moving), _) => moving.clone(),
            (None, Some(owner)) => cooperative::transferring(g, &data, &lists, owner),
            (None, None) => Vec::new(),
        };
        cooperative::withhold(g, &data, &mut lists, &moving, trace);
        moving
    } else {
        Vec::new()
    };
    Ok(StickyOutcome { lists, transferring, withheld })
}

#[cfg(test)]
mod tests {
    use crate::{assign, Group, Member, Strategy, Topic, TopicPartition};

    /// The example of the module documentation.
    #[test]
    fn module_example() {
        let tp = |p| TopicPartition::new("t0", p);
        let member = |id: &str, owned: Vec<TopicPartition>| Member {
            id: id.into(),
            topics: vec!["t0".into()],
            owned,
            generation: Some(1),
            ..Member::default()
        };
        let group = Group {
            topics: vec![Topic::new("t0", 3)],
            members: vec![member("C0", vec![tp(0), tp(1), tp(2)]), member("C1", vec![])],
        };
        let sticky = assign(Strategy::Sticky, &group).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(sticky.members["C0"], [tp(0), tp(1)]);
        assert_eq!(sticky.members["C1"], [tp(2)]);
        let cooperative = assign(Strategy::CooperativeSticky, &group).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(cooperative.members["C0"], [tp(0), tp(1)]);
        assert!(cooperative.members["C1"].is_empty());
        assert_eq!(cooperative.withheld.get(&tp(2)).map(String::as_str), Some("C1"));
    }
}
