//! The coordinator's choice as people read it: protocol names and the one-line reason.

use assignor::protocol::{select, RebalanceProtocol};
use assignor::Strategy::{self, CooperativeSticky, Range, RoundRobin};

fn member(id: &str, strategies: &[Strategy]) -> (String, Vec<Strategy>) {
    (id.to_string(), strategies.to_vec())
}

#[test]
fn protocols_print_as_kafka_names_them() {
    assert_eq!(RebalanceProtocol::Eager.name(), "EAGER");
    assert_eq!(RebalanceProtocol::Cooperative.to_string(), "COOPERATIVE");
}

#[test]
fn the_reason_tells_the_votes() {
    // Everyone lists roundrobin too, but no one puts it first: it gets no place in the tally.
    let voted = select(&[
        member("a", &[CooperativeSticky, Range, RoundRobin]),
        member("b", &[Range, CooperativeSticky, RoundRobin]),
        member("c", &[CooperativeSticky, RoundRobin, Range]),
    ]);
    assert_eq!(
        voted.reason(),
        "every member lists range, roundrobin, cooperative-sticky; each votes for the first of these in its own \
         list (range 1, cooperative-sticky 2), and cooperative-sticky wins"
    );
    let only = select(&[member("a", &[Range, RoundRobin]), member("b", &[RoundRobin])]);
    assert_eq!(only.reason(), "roundrobin is the only strategy every member lists");
    let nobody = select(&[member("a", &[])]);
    assert_eq!(nobody.strategy, None);
    assert_eq!(nobody.unconfigured, ["a"]);
    assert_eq!(nobody.reason(), "no member can join, so no strategy is chosen");
}

#[test]
fn the_most_votes_win_whoever_voted_first() {
    let votes = select(&[
        member("a", &[Range, CooperativeSticky]),
        member("b", &[CooperativeSticky, Range]),
        member("c", &[CooperativeSticky, Range]),
        member("d", &[CooperativeSticky, Range]),
    ]);
    assert_eq!(votes.strategy, Some(CooperativeSticky));
}
