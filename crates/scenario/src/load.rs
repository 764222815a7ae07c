//! Load is traffic, not partition count: each member's load by the partitions' weights (messages/s,
//! bytes/s, LAG) beside its partition count, and the spread and most loaded members by weight.
//! This is the skew the seed article warns about, a consumer balanced by count and drowning by
//! traffic. Kafka's assignors never see weights: they change what a panel reports, never what it
//! assigns.
//!
//! ```
//! use scenario::{load, TopicSpec};
//! use assignor::TopicPartition;
//!
//! let mut orders = TopicSpec::new("orders", 2);
//! orders.weight = Some(100);
//! orders.partition_weights.insert(1, 900); // a hot partition
//! let lists = [
//!     ("C0".to_string(), vec![TopicPartition::new("orders", 0)]),
//!     ("C1".to_string(), vec![TopicPartition::new("orders", 1)]),
//! ].into_iter().collect();
//! let load = load::load(&[orders], &lists);
//! assert_eq!(load.spread_by_count, 0);
//! assert_eq!(load.spread, 800);
//! assert_eq!(load.most_loaded, ["C1"]);
//! ```

use std::collections::{BTreeMap, HashMap};

use assignor::rebalance::Lists;
use assignor::TopicPartition;

use crate::format::TopicSpec;

impl TopicSpec {
    /// The weight of partition `p`: its own, else the topic's, else 1.
    pub fn weight_of(&self, p: u32) -> u64 {
        self.partition_weights.get(&p).copied().or(self.weight).unwrap_or(1)
    }

    /// Whether any partition of the topic weighs other than 1 by default.
    pub fn is_weighted(&self) -> bool {
        self.weight.is_some() || !self.partition_weights.is_empty()
    }
}

/// One member's load.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberLoad {
    /// How many partitions it has.
    pub partitions: usize,
    /// The sum of its partitions' weights.
    pub weight: u64,
}

/// Every member's load under one assignment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Load {
    /// Every member of the assignment, idle ones included.
    pub members: BTreeMap<String, MemberLoad>,
    /// Whether any topic has weights; without them, weight equals partition count.
    pub weighted: bool,
    /// The weight of every assigned partition together.
    pub total: u64,
    /// Heaviest minus lightest member, by weight.
    pub spread: u64,
    /// Most minus fewest partitions.
    pub spread_by_count: usize,
    /// The members carrying the most weight (ties all listed), in id order.
    pub most_loaded: Vec<String>,
}

impl Load {
    /// The heaviest member's share of the total weight, in percent (0 without weight).
    pub fn heaviest_share(&self) -> u64 {
        let heaviest = self.members.values().map(|m| m.weight).max().unwrap_or(0);
        if self.total == 0 {
            0
        } else {
            ((u128::from(heaviest) * 100) / u128::from(self.total)) as u64
        }
    }
}

impl crate::report::Outcome {
    /// The load this outcome's assignment puts on each member, weighing partitions as `topics` say.
    pub fn load(&self, topics: &[TopicSpec]) -> Load {
        load(topics, self.rebalance.result())
    }
}

/// The load `lists` puts on each member, weighing partitions as `topics` say. Partitions of topics
/// not in `topics` weigh 1.
pub fn load(topics: &[TopicSpec], lists: &Lists) -> Load {
    let by_name: HashMap<&str, &TopicSpec> = topics.iter().map(|t| (t.name.as_str(), t)).collect();
    let weight = |tp: &TopicPartition| by_name.get(&*tp.topic).map_or(1, |t| t.weight_of(tp.partition));
    let members: BTreeMap<String, MemberLoad> = lists
        .iter()
        .map(|(id, list)| {
            let total = list.iter().map(weight).fold(0u64, u64::saturating_add);
            (id.clone(), MemberLoad { partitions: list.len(), weight: total })
        })
        .collect();
    let weights = || members.values().map(|m| m.weight);
    let counts = || members.values().map(|m| m.partitions);
    let heaviest = weights().max().unwrap_or(0);
    Load {
        weighted: topics.iter().any(TopicSpec::is_weighted),
        total: weights().fold(0u64, u64::saturating_add),
        spread: heaviest - weights().min().unwrap_or(0),
        spread_by_count: counts().max().unwrap_or(0) - counts().min().unwrap_or(0),
        most_loaded: members
            .iter()
            .filter(|(_, m)| m.weight == heaviest && heaviest > 0)
            .map(|(id, _)| id.clone())
            .collect(),
        members,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lists(entries: &[(&str, &[(&str, u32)])]) -> Lists {
        entries
            .iter()
            .map(|(id, list)| (id.to_string(), list.iter().map(|(t, p)| TopicPartition::new(*t, *p)).collect()))
            .collect()
    }

    #[test]
    fn unweighted_load_is_the_partition_count() {
        let load =
            load(&[TopicSpec::new("t", 3)], &lists(&[("a", &[("t", 0), ("t", 1)]), ("b", &[("t", 2)]), ("c", &[])]));
        assert!(!load.weighted);
        assert_eq!((load.total, load.spread, load.spread_by_count), (3, 2, 2));
        assert_eq!(load.most_loaded, ["a"]);
        assert_eq!(load.members["c"], MemberLoad { partitions: 0, weight: 0 });
        assert_eq!(load.heaviest_share(), 66);
    }

    #[test]
    fn balanced_by_count_and_skewed_by_traffic() {
        let mut t = TopicSpec::new("t", 4);
        t.weight = Some(10);
        t.partition_weights.insert(3, 1000);
        let load = load(&[t], &lists(&[("a", &[("t", 0), ("t", 1)]), ("b", &[("t", 2), ("t", 3)])]));
        assert_eq!(load.spread_by_count, 0);
        assert_eq!((load.members["a"].weight, load.members["b"].weight), (20, 1010));
        assert_eq!(load.spread, 990);
        assert_eq!(load.most_loaded, ["b"]);
    }

    #[test]
    fn huge_weights_saturate_instead_of_overflowing() {
        let mut t = TopicSpec::new("t", 2);
        t.weight = Some(u64::MAX);
        let load = load(&[t], &lists(&[("a", &[("t", 0), ("t", 1)])]));
        assert_eq!(load.total, u64::MAX);
        assert_eq!(load.heaviest_share(), 100);
    }
}
