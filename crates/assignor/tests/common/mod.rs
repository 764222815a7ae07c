//! What the data-driven tests share: a group as a person models it, read from JSON.

// Each test binary compiles this module and uses only part of it.
#![allow(dead_code)]

use std::collections::BTreeMap;

use assignor::{Group, Member, Topic, TopicPartition};
use serde::Deserialize;

/// A member with what it owned and the generation it received it in.
#[derive(Deserialize)]
pub struct ModelledMember {
    pub id: String,
    pub instance_id: Option<String>,
    pub rack: Option<String>,
    pub topics: Vec<String>,
    #[serde(default)]
    pub owned: Vec<(String, u32)>,
    pub generation: Option<i32>,
}

pub fn tps(list: &[(String, u32)]) -> Vec<TopicPartition> {
    list.iter().map(|(t, p)| TopicPartition::new(t.as_str(), *p)).collect()
}

/// The topics: name to partition count, in metadata order, with each topic's replica racks when
/// `racks` lists them.
pub fn metadata(
    topics: &serde_json::Map<String, serde_json::Value>,
    racks: &BTreeMap<String, Vec<Vec<Option<String>>>>,
) -> Vec<Topic> {
    topics
        .iter()
        .map(|(name, count)| Topic {
            name: name.clone(),
            partitions: count.as_u64().unwrap_or_else(|| panic!("{name}: partition count")) as u32,
            replica_racks: racks.get(name).cloned().unwrap_or_default(),
        })
        .collect()
}

/// The group: `topics` (name to partition count, in metadata order) with each topic's replica
/// racks when `racks` lists them, and the members in JoinGroup order.
pub fn group(
    topics: &serde_json::Map<String, serde_json::Value>,
    racks: &BTreeMap<String, Vec<Vec<Option<String>>>>,
    members: &[ModelledMember],
) -> Group {
    Group {
        topics: metadata(topics, racks),
        members: members
            .iter()
            .map(|m| Member {
                id: m.id.clone(),
                instance_id: m.instance_id.clone(),
                rack: m.rack.clone(),
                topics: m.topics.clone(),
                owned: tps(&m.owned),
                generation: m.generation,
                eager: false,
            })
            .collect(),
    }
}
