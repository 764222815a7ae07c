//! Reconciliation: how each member converges to its target through heartbeats, with no group-wide
//! barrier (KIP-848). The coordinator's state machine is `CurrentAssignmentBuilder`:
//!
//! - a partition the target moves away from a member is first *revoked*: the member stays in its
//!   epoch, in UNREVOKED_PARTITIONS, until a heartbeat no longer reports it as owned;
//! - a partition the target gives a member while another member still holds it (assigned or pending
//!   revocation) is *unreleased*: the member moves to the target epoch in UNRELEASED_PARTITIONS and
//!   receives it at a later heartbeat, once it is free;
//! - everything else is handed over at once, and the member is STABLE at the target epoch.
//!
//! [`simulate`] plays heartbeats in a stated order, one round after another, with clients that act on
//! each response at once (revoke, then start on new partitions) and report what they own at their
//! next heartbeat. Partitions a member keeps never stop.
//!
//! A moves partition 1 to a new member B, and A heartbeats first: round 1, A revokes 1 and B waits
//! (unreleased); round 2, A reports it gone and B, heartbeating after A, starts on 1. Partition 1
//! stopped for one round; had B heartbeated first, for two.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::TopicPartition;

/// `MemberState` of the coordinator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemberState {
    /// At the target epoch with everything its target holds (or still before its first heartbeat).
    Stable,
    /// Waiting for the member to report its revoked partitions gone.
    UnrevokedPartitions,
    /// At the target epoch, waiting for partitions other members still hold.
    UnreleasedPartitions,
}

/// A member as the coordinator tracks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CurrentMember {
    /// The member epoch: the target epoch it has reached.
    pub epoch: i32,
    /// Where it is in the state machine.
    pub state: MemberState,
    /// What the coordinator has given the member.
    pub assigned: BTreeSet<TopicPartition>,
    /// What the member must give up before it moves on.
    pub pending_revocation: BTreeSet<TopicPartition>,
}

/// `CurrentAssignmentBuilder.build`: the member's next state, given the target epoch and its target,
/// who currently holds each partition (`held_by_other`), and what its heartbeat reports as `owned`.
pub fn next_state(
    member: &CurrentMember,
    target_epoch: i32,
    target: &BTreeSet<TopicPartition>,
    held_by_other: impl Fn(&TopicPartition) -> bool,
    owned: &BTreeSet<TopicPartition>,
) -> CurrentMember {
    match member.state {
        MemberState::Stable if member.epoch == target_epoch => member.clone(),
        MemberState::Stable | MemberState::UnreleasedPartitions => {
            compute_next(member, member.epoch, target_epoch, target, held_by_other, owned)
        }
        MemberState::UnrevokedPartitions => {
            if member.pending_revocation.iter().any(|tp| owned.contains(tp)) {
                return member.clone();
            }
            compute_next(member, member.epoch + 1, target_epoch, target, held_by_other, owned)
        }
    }
}

/// `computeNextAssignment`.
fn compute_next(
    member: &CurrentMember,
    epoch: i32,
    target_epoch: i32,
    target: &BTreeSet<TopicPartition>,
    held_by_other: impl Fn(&TopicPartition) -> bool,
    owned: &BTreeSet<TopicPartition>,
) -> CurrentMember {
    let kept: BTreeSet<TopicPartition> = member.assigned.intersection(target).cloned().collect();
    let to_revoke: BTreeSet<TopicPartition> = member.assigned.difference(&kept).cloned().collect();
    let (unreleased, to_assign): (BTreeSet<TopicPartition>, BTreeSet<TopicPartition>) =
        target.difference(&kept).cloned().partition(|tp| held_by_other(tp));
    if !to_revoke.is_empty() && to_revoke.iter().any(|tp| owned.contains(tp)) {
        return CurrentMember {
            epoch,
            state: MemberState::UnrevokedPartitions,
            assigned: kept,
            pending_revocation: to_revoke,
        };
    }
    let state = if unreleased.is_empty() { MemberState::Stable } else { MemberState::UnreleasedPartitions };
    let mut assigned = kept;
    assigned.extend(to_assign);
    CurrentMember { epoch: target_epoch, state, assigned, pending_revocation: BTreeSet::new() }
}

/// One member's story, sampled before the first heartbeat and after every heartbeat of the group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lane {
    /// What the member consumes.
    pub consuming: Vec<BTreeSet<TopicPartition>>,
    /// Its state (after the first sample).
    pub states: Vec<MemberState>,
}

/// A partition nobody consumed for a while although it was consumed before and after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stop {
    /// The partition.
    pub partition: TopicPartition,
    /// The member consuming it before the first heartbeat.
    pub from: String,
    /// The member consuming it at the end.
    pub to: String,
    /// Heartbeats of the group after which nobody consumed it.
    pub heartbeats: usize,
}

/// What [`simulate`] saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reconciliation {
    /// Per member of the target, what it consumed and its state after every heartbeat.
    pub lanes: BTreeMap<String, Lane>,
    /// The partitions that changed hands with a gap, by partition.
    pub stops: Vec<Stop>,
    /// Rounds played until every member was STABLE at the target epoch with its target.
    pub rounds: usize,
    /// Whether that happened within [`MAX_ROUNDS`].
    pub converged: bool,
}

/// The most rounds played: three always suffice (revoke, hand over, collect the unreleased).
pub const MAX_ROUNDS: usize = 8;

/// Plays heartbeats in `order`, round after round, from `current` (each member's assignment at
/// `epoch`; members absent from it are new) to `target` (the assignment of epoch `epoch + 1`). Members
/// of `current` absent from `target` have left: their partitions are free at once.
pub fn simulate(
    current: &BTreeMap<String, Vec<TopicPartition>>,
    target: &BTreeMap<String, Vec<TopicPartition>>,
    epoch: i32,
    order: &[String],
) -> Reconciliation {
    let target_epoch = epoch + 1;
    let targets: BTreeMap<&str, BTreeSet<TopicPartition>> =
        target.iter().map(|(m, list)| (m.as_str(), list.iter().cloned().collect())).collect();
    let mut members: BTreeMap<&str, CurrentMember> = targets
        .keys()
        .map(|&m| {
            let assigned: BTreeSet<TopicPartition> =
                current.get(m).map(|l| l.iter().cloned().collect()).unwrap_or_default();
            let member_epoch = if current.contains_key(m) { epoch } else { 0 };
            (
                m,
                CurrentMember {
                    epoch: member_epoch,
                    state: MemberState::Stable,
                    assigned,
                    pending_revocation: BTreeSet::new(),
                },
            )
        })
        .collect();
    // What each client consumes, which is what it reports as owned.
    let mut consuming: BTreeMap<&str, BTreeSet<TopicPartition>> =
        members.iter().map(|(&m, state)| (m, state.assigned.clone())).collect();
    let mut lanes: BTreeMap<String, Lane> = members
        .iter()
        .map(|(&m, state)| (m.to_string(), Lane { consuming: vec![state.assigned.clone()], states: Vec::new() }))
        .collect();
    let heartbeat_order: Vec<&str> = order.iter().map(String::as_str).filter(|m| members.contains_key(m)).collect();

    let mut rounds = 0;
    let empty = BTreeSet::new();
    while rounds < MAX_ROUNDS && !settled(&members, &targets, target_epoch) {
        rounds += 1;
        for &m in &heartbeat_order {
            let held_by_other = |tp: &TopicPartition| {
                members
                    .iter()
                    .any(|(&other, s)| other != m && (s.assigned.contains(tp) || s.pending_revocation.contains(tp)))
            };
            let owned = consuming.get(m).unwrap_or(&empty);
            let Some(state) = members.get(m) else { continue };
            let next = next_state(state, target_epoch, targets.get(m).unwrap_or(&empty), held_by_other, owned);
            // The client acts on the response at once: it consumes exactly what it was given.
            consuming.insert(m, next.assigned.clone());
            members.insert(m, next);
            for (m, lane) in &mut lanes {
                let m = m.as_str();
                lane.consuming.push(consuming.get(m).cloned().unwrap_or_default());
                lane.states.push(members.get(m).map_or(MemberState::Stable, |s| s.state));
            }
        }
    }
    Reconciliation { stops: stops(&lanes), lanes, rounds, converged: settled(&members, &targets, target_epoch) }
}

fn settled(
    members: &BTreeMap<&str, CurrentMember>,
    targets: &BTreeMap<&str, BTreeSet<TopicPartition>>,
    target_epoch: i32,
) -> bool {
    members.iter().all(|(m, s)| {
        s.state == MemberState::Stable && s.epoch == target_epoch && targets.get(m).is_some_and(|t| *t == s.assigned)
    })
}

/// Partitions that changed hands between two members, and how many rounds ended with nobody on them.
fn stops(lanes: &BTreeMap<String, Lane>) -> Vec<Stop> {
    let last = lanes.values().map(|l| l.consuming.len()).max().unwrap_or(0);
    let consumer_at = |tp: &TopicPartition, slot: usize| {
        lanes.iter().find(|(_, lane)| lane.consuming.get(slot).is_some_and(|set| set.contains(tp))).map(|(m, _)| m)
    };
    let mut before: BTreeSet<&TopicPartition> = BTreeSet::new();
    for lane in lanes.values() {
        before.extend(lane.consuming.first().into_iter().flatten());
    }
    let mut stops = Vec::new();
    for tp in before {
        let (Some(from), Some(to)) = (consumer_at(tp, 0), last.checked_sub(1).and_then(|end| consumer_at(tp, end)))
        else {
            continue;
        };
        let heartbeats = (1..last).filter(|&slot| consumer_at(tp, slot).is_none()).count();
        if heartbeats > 0 {
            stops.push(Stop { partition: tp.clone(), from: from.clone(), to: to.clone(), heartbeats });
        }
    }
    stops
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tp(p: u32) -> TopicPartition {
        TopicPartition::new("t", p)
    }

    fn map(entries: &[(&str, &[u32])]) -> BTreeMap<String, Vec<TopicPartition>> {
        entries.iter().map(|(m, ps)| (m.to_string(), ps.iter().map(|&p| tp(p)).collect())).collect()
    }

    #[test]
    fn a_moved_partition_waits_for_its_owner_to_revoke_it() {
        let current = map(&[("A", &[0, 1])]);
        let target = map(&[("A", &[0]), ("B", &[1])]);
        let giver_first = simulate(&current, &target, 5, &["A".into(), "B".into()]);
        assert!(giver_first.converged);
        assert_eq!(giver_first.rounds, 2);
        // A revokes (heartbeat 1), B waits (2), A reports it gone (3), B starts on it (4).
        assert_eq!(giver_first.stops, vec![Stop { partition: tp(1), from: "A".into(), to: "B".into(), heartbeats: 3 }]);
        assert_eq!(
            giver_first.lanes["B"].states,
            [
                MemberState::Stable,
                MemberState::UnreleasedPartitions,
                MemberState::UnreleasedPartitions,
                MemberState::Stable
            ]
        );
        let taker_first = simulate(&current, &target, 5, &["B".into(), "A".into()]);
        assert_eq!(taker_first.rounds, 3);
        assert_eq!(taker_first.stops[0].heartbeats, 3);
        // A keeps partition 0 throughout.
        assert!(taker_first.lanes["A"].consuming.iter().all(|set| set.contains(&tp(0))));
    }

    #[test]
    fn the_revoking_member_waits_until_its_heartbeat_no_longer_reports_the_partition() {
        let member = CurrentMember {
            epoch: 5,
            state: MemberState::Stable,
            assigned: [tp(0), tp(1)].into(),
            pending_revocation: BTreeSet::new(),
        };
        let target: BTreeSet<TopicPartition> = [tp(0)].into();
        let owned: BTreeSet<TopicPartition> = [tp(0), tp(1)].into();
        let next = next_state(&member, 6, &target, |_| false, &owned);
        assert_eq!((next.state, next.epoch), (MemberState::UnrevokedPartitions, 5));
        assert_eq!(next_state(&next, 6, &target, |_| false, &owned), next);
        let done = next_state(&next, 6, &target, |_| false, &target);
        assert_eq!((done.state, done.epoch, done.assigned), (MemberState::Stable, 6, target));
    }
}
