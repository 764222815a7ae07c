//! `roundrobin`: all partitions of all topics, dealt one at a time around a circle of members.
//!
//! With topics `t0` (1 partition), `t1` (2), `t2` (3) and `C0: t0`, `C1: t0,t1`, `C2: t0,t1,t2`:
//! `t0-0` goes to C0 and `t1-0` to C1, the next in the circle; `t1-1` to C2; for `t2-0` the circle
//! passes C0 and C1 (not subscribed) and stops at C2, which then takes all of `t2`. Result:
//! `C0: [t0-0]`, `C1: [t1-0]`, `C2: [t1-1, t2-0, t2-1, t2-2]`: uneven subscriptions, uneven load.
//!
//! Members are ordered as range orders them (static members first, KAFKA-8356); topics by name.

use crate::prepared::{MemberIdx, PartitionIdx, Prepared, TopicIdx};
use crate::range::member_order;
use crate::trace::{SkipReason, Step, Tracer};

pub(crate) fn assign<T: Tracer>(g: &Prepared, hash_order: &[MemberIdx], trace: &mut T) -> Vec<Vec<PartitionIdx>> {
    let members = member_order(g, hash_order);
    let mut lists: Vec<Vec<PartitionIdx>> = vec![Vec::new(); g.member_count()];
    // The union of the members' topics that exist, in topic-name order.
    let mut topics: Vec<TopicIdx> =
        (0..g.topics.len() as u32).map(TopicIdx).filter(|&t| !g.topic_subscribers[t.ix()].is_empty()).collect();
    topics.sort_by_key(|&t| g.topic(t).rank);
    trace.record(|| Step::Order {
        name: "members (static by group.instance.id first, then by member.id)".into(),
        items: members.iter().map(|&m| g.member_id(m).to_string()).collect(),
    });
    trace.record(|| Step::Order {
        name: "topics by name".into(),
        items: topics.iter().map(|&t| g.topic(t).name.to_string()).collect(),
    });
    if members.is_empty() {
        return lists;
    }
    // Per topic, whether each member (by position in `members`) subscribes: the circle only
    // advances past members that do, so one row per topic keeps the walk O(steps).
    let mut position = vec![0usize; g.member_count()];
    for (i, m) in members.iter().enumerate() {
        position[m.ix()] = i;
    }
    let mut cursor = 0usize;
    for &t in &topics {
        let mut subscribed = vec![false; members.len()];
        for m in &g.topic_subscribers[t.ix()] {
            subscribed[position[m.ix()]] = true;
        }
        for p in g.partitions_of(t) {
            // Some member subscribes to `t`, so this loop ends within one lap.
            while !subscribed[cursor] {
                trace.record(|| Step::Skip {
                    partition: g.topic_partition(p),
                    member: g.member_id(members[cursor]).into(),
                    reason: SkipReason::NotSubscribed,
                });
                cursor = (cursor + 1) % members.len();
            }
            let m = members[cursor];
            lists[m.ix()].push(p);
            trace.record(|| Step::Assign { partition: g.topic_partition(p), member: g.member_id(m).into() });
            cursor = (cursor + 1) % members.len();
        }
    }
    lists
}
