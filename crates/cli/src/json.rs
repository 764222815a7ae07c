//! The report's values as JSON, serialized straight to the output: no `serde_json::Value` tree of
//! a million partitions is ever built.

use assignor::rebalance::Lists;
use assignor::TopicPartition;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// A partition as `["topic", number]`.
pub struct Partition<'a>(pub &'a TopicPartition);

impl Serialize for Partition<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (&*self.0.topic, self.0.partition).serialize(serializer)
    }
}

/// A list of partitions, in its order.
pub struct Partitions<'a>(pub &'a [TopicPartition]);

impl Serialize for Partitions<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for tp in self.0 {
            seq.serialize_element(&Partition(tp))?;
        }
        seq.end()
    }
}

/// Member to partitions, members in the order of `order`; a member without a list has none.
pub struct Assignment<'a, I> {
    pub order: I,
    pub lists: &'a Lists,
}

impl<'a, I: Iterator<Item = &'a String> + Clone> Serialize for Assignment<'a, I> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for member in self.order.clone() {
            map.serialize_entry(member, &Partitions(self.lists.get(member).map(Vec::as_slice).unwrap_or_default()))?;
        }
        map.end()
    }
}

/// Every member of `lists`, by id.
pub fn by_id(lists: &Lists) -> Assignment<'_, std::collections::btree_map::Keys<'_, String, Vec<TopicPartition>>> {
    Assignment { order: lists.keys(), lists }
}
