//! Which strategy a group with mixed `partition.assignment.strategy` lists uses, and whether each
//! member rebalances eagerly or cooperatively.
//!
//! - The coordinator keeps only the strategies every member lists (the candidates). Each member votes
//!   for the first candidate in its own list; the most votes win (`ClassicGroup.selectProtocol`).
//!   A tie goes to the protocol the coordinator's vote `HashMap` iterates first.
//! - A member whose list shares nothing with the members already in the group is refused with
//!   `INCONSISTENT_GROUP_PROTOCOL` and stays out.
//! - Each client rebalances with the highest protocol every one of its assignors supports (KIP-429):
//!   the 3.0+ default `[range, cooperative-sticky]` is therefore still EAGER, until a rolling bounce
//!   removes `range`.

use std::fmt;

use crate::java::{self, Link};
use crate::Strategy;

/// `RebalanceProtocol`: EAGER (id 0) or COOPERATIVE (id 1), KIP-429.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RebalanceProtocol {
    /// Every member revokes everything it owns before it rejoins.
    Eager,
    /// Members keep what they are assigned again and revoke only what moves (KIP-429).
    Cooperative,
}

impl RebalanceProtocol {
    /// Kafka's name for it.
    pub fn name(self) -> &'static str {
        match self {
            RebalanceProtocol::Eager => "EAGER",
            RebalanceProtocol::Cooperative => "COOPERATIVE",
        }
    }
}

impl fmt::Display for RebalanceProtocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The protocol a client with these assignors uses: the highest one all of them support.
/// `None` for an empty list (the client refuses to start).
pub fn client_protocol(strategies: &[Strategy]) -> Option<RebalanceProtocol> {
    let first = strategies.first()?;
    first
        .supported_protocols()
        .iter()
        .copied()
        .filter(|p| strategies.iter().all(|s| s.supported_protocols().contains(p)))
        .max()
}

/// The coordinator's verdict for a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The strategy the leader runs; `None` when no member could join.
    pub strategy: Option<Strategy>,
    /// Strategies every admitted member lists, in the order of [`Strategy::ALL`].
    pub candidates: Vec<Strategy>,
    /// Each admitted member's vote, in JoinGroup order.
    pub votes: Vec<(String, Strategy)>,
    /// Members refused with `INCONSISTENT_GROUP_PROTOCOL`, with what they listed.
    pub rejected: Vec<(String, Vec<Strategy>)>,
    /// Members with an empty strategy list (their client does not start).
    pub unconfigured: Vec<String>,
    /// Each admitted member's rebalance protocol, in JoinGroup order.
    pub protocols: Vec<(String, RebalanceProtocol)>,
}

impl Selection {
    /// EAGER if any admitted member rebalances eagerly: its partitions stop for the whole rebalance.
    pub fn group_protocol(&self) -> Option<RebalanceProtocol> {
        self.protocols.iter().map(|(_, p)| *p).min()
    }

    /// A one-line explanation of the choice, for people.
    pub fn reason(&self) -> String {
        let Some(chosen) = self.strategy else {
            return "no member can join, so no strategy is chosen".into();
        };
        let count = |s: Strategy| self.votes.iter().filter(|(_, v)| *v == s).count();
        let names: Vec<&str> = self.candidates.iter().map(|s| s.name()).collect();
        if self.candidates.len() == 1 {
            format!("{chosen} is the only strategy every member lists")
        } else {
            let tally: Vec<String> =
                self.candidates.iter().filter(|&&s| count(s) > 0).map(|&s| format!("{} {}", s, count(s))).collect();
            format!(
                "every member lists {}; each votes for the first of these in its own list ({}), and {chosen} wins",
                names.join(", "),
                tally.join(", ")
            )
        }
    }
}

/// Runs the coordinator's selection over members in JoinGroup order: `(member id, its strategies in
/// preference order)`.
pub fn select(members: &[(String, Vec<Strategy>)]) -> Selection {
    let mut admitted: Vec<&(String, Vec<Strategy>)> = Vec::new();
    let mut rejected = Vec::new();
    let mut unconfigured = Vec::new();
    let mut candidates: Vec<Strategy> = Strategy::ALL.to_vec();
    for member in members {
        let (id, listed) = member;
        if listed.is_empty() {
            unconfigured.push(id.clone());
            continue;
        }
        let remaining: Vec<Strategy> = candidates.iter().copied().filter(|s| listed.contains(s)).collect();
        if remaining.is_empty() {
            rejected.push((id.clone(), listed.clone()));
        } else {
            candidates = remaining;
            admitted.push(member);
        }
    }
    if admitted.is_empty() {
        candidates.clear();
    }
    let votes: Vec<(String, Strategy)> = admitted
        .iter()
        .filter_map(|(id, listed)| listed.iter().find(|s| candidates.contains(s)).map(|&s| (id.clone(), s)))
        .collect();
    let protocols =
        admitted.iter().filter_map(|(id, listed)| client_protocol(listed).map(|p| (id.clone(), p))).collect();
    Selection { strategy: winner(&votes), candidates, votes, rejected, unconfigured, protocols }
}

/// Most votes; a tie goes to the first in the vote map's Java iteration order.
fn winner(votes: &[(String, Strategy)]) -> Option<Strategy> {
    let mut tally: Vec<(Strategy, usize)> = Vec::new();
    for (_, s) in votes {
        match tally.iter_mut().find(|(t, _)| t == s) {
            Some((_, n)) => *n += 1,
            None => tally.push((*s, 1)),
        }
    }
    let hashes: Vec<i32> = tally.iter().map(|(s, _)| java::string_hash(s.name())).collect();
    let order = java::iteration_order(&hashes, Link::Tail);
    // Java's `Stream.max` keeps the earlier of equal elements.
    order
        .iter()
        .filter_map(|&i| tally.get(i))
        .fold(None, |best: Option<(Strategy, usize)>, &(s, n)| match best {
            Some((_, m)) if m >= n => best,
            _ => Some((s, n)),
        })
        .map(|(s, _)| s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Strategy::*;

    fn member(id: &str, strategies: &[Strategy]) -> (String, Vec<Strategy>) {
        (id.to_string(), strategies.to_vec())
    }

    #[test]
    fn default_list_is_eager_until_range_is_removed() {
        assert_eq!(client_protocol(&[Range, CooperativeSticky]), Some(RebalanceProtocol::Eager));
        assert_eq!(client_protocol(&[CooperativeSticky]), Some(RebalanceProtocol::Cooperative));
        assert_eq!(client_protocol(&[]), None);
    }

    #[test]
    fn most_votes_win_among_common_strategies() {
        let s = select(&[
            member("a", &[CooperativeSticky, Range]),
            member("b", &[Range, CooperativeSticky]),
            member("c", &[CooperativeSticky, Range]),
        ]);
        assert_eq!(s.strategy, Some(CooperativeSticky));
        assert_eq!(s.candidates, vec![Range, CooperativeSticky]);
        assert_eq!(s.group_protocol(), Some(RebalanceProtocol::Eager));
    }

    #[test]
    fn member_sharing_nothing_is_refused() {
        let s = select(&[member("a", &[Range]), member("b", &[RoundRobin])]);
        assert_eq!(s.strategy, Some(Range));
        assert_eq!(s.rejected, vec![("b".to_string(), vec![RoundRobin])]);
    }

    #[test]
    fn tie_follows_java_hash_order() {
        // In a 16-slot table "range" sits in bucket 9 and "cooperative-sticky" in bucket 15, so a
        // tie goes to range (checked against java.util.HashMap and Stream.max).
        let s = select(&[member("a", &[Range, CooperativeSticky]), member("b", &[CooperativeSticky, Range])]);
        assert_eq!(s.strategy, Some(Range));
    }
}
